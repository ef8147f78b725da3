"""The game row: what the arena keeps of every game it plays, one JSON object
a line of ``games.jsonl``, declared once here (:data:`GAME_ROW_FIELDS`).

:func:`make_row` builds a row (``match.play_game``, in the declared order:
the bytes of games.jsonl do not change), :func:`check` checks one read back
from a file (every field there, of its type and in its range, the outcome
fields agreeing; ``folder.check_row`` adds what needs the game's rules: the
set-up of a random scenario and the key), and :func:`to_csv_row` /
:func:`from_csv_row` turn a row into a line of a ``games.csv`` (the balance
tool's, :data:`GAME_CSV_FIELDS`, or the reference ratings' game set, which
writes a draw as ``draw``) and back.
"""

from __future__ import annotations

import json
import math
from typing import Any, NamedTuple, TypedDict, cast, overload

import numpy as np

from .errors import RowError

MAX_SEED = 1 << 63  # game seeds are 63-bit (match.game_seed)


class RowField(NamedTuple):
    """One field of a game row: its name, its JSON type and what it holds;
    ``default``: for a field added later, the value a row written before it
    holds (:data:`OPTIONAL`); ``REQUIRED`` for the others."""

    name: str
    kind: str
    description: str
    default: object = "required"


REQUIRED = "required"


#: the fields of a game row, in the order a row holds them
GAME_ROW_FIELDS: tuple[RowField, ...] = (
    RowField("key", "str", "the game's identity: pairing, agents, scenario, rules, index, seed, max_turns"),
    RowField("pairing", "str", "the match-up's label, e.g. 'random:scripted'"),
    RowField("index", "int", "the game's index within its pairing and side (from 0)"),
    RowField("seed", "int", "the game seed (63 bits): the dice; the agents' seeds and a random set-up derive from it"),
    RowField("scenario", "str", "the scenario as planned: a built-in name, 'random', 'random:N' or a JSON path"),
    RowField("setup", "str", "the scenario played: the scenario, or 'random:N' for a random set-up"),
    RowField("rules", "dict", "the rules options overridden (an object; {} for none)"),
    RowField("max_turns", "int | None", "the turn after which the game stops as a draw (D19 revised); null: none"),
    RowField("technocrat", "str", "the Technocrat's agent (its canonical spec)"),
    RowField("ziegler", "str", "the Ziegler's agent (its canonical spec)"),
    RowField("winner", "str | None", "'technocrat' or 'ziegler'; null for a draw"),
    RowField("winner_agent", "str | None", "the winner's agent; null for a draw"),
    RowField("loser_agent", "str | None", "the loser's agent; null for a draw"),
    RowField("result", "str", "the result's name: 'technocrat wins', 'ziegler wins', or the ongoing one for a draw"),
    RowField(
        "truncated", "bool", "true when the harness stopped the game without a winner (max_turns, or no progress)"
    ),
    RowField("turns", "int", "the turns played"),
    RowField("actions_count", "int", "the number of actions"),
    RowField("wall_s", "float", "the game's wall time in seconds"),
    RowField("path", "str", "'compiled' (one compiled call) or 'python' (through the Game facade)"),
    RowField(
        "ended",
        "str",
        "how the game ended: 'rules' (a victory condition, 5.0), 'turn limit' (max_turns, D19 revised), "
        "'resign' or 'no progress' (adjudicated: hotspot.arena.adjudication)",
        None,
    ),
    RowField(
        "judge",
        "float | None",
        "with adjudication rules: the judge's last value (the Technocrat's expected score), else null",
        None,
    ),
    RowField("adjudication", "str", "the adjudication rules the game was played under ('' for none)", ""),
    RowField("actions", "list[int]", "every action of the game, in order: the game's record with its seed"),
)
GAME_ROW_NAMES: tuple[str, ...] = tuple(f.name for f in GAME_ROW_FIELDS)


class GameRow(TypedDict):
    """A game row as the type checker sees it: :data:`GAME_ROW_FIELDS`, one
    key each, of its ``kind`` (``dict``: an object of rules options; the
    test suite holds the two in step, ``tests/test_gamerow.py``).  What
    :func:`make_row` makes and :func:`check` passes."""

    key: str
    pairing: str
    index: int
    seed: int
    scenario: str
    setup: str
    rules: dict[str, Any]
    max_turns: int | None
    technocrat: str
    ziegler: str
    winner: str | None
    winner_agent: str | None
    loser_agent: str | None
    result: str
    truncated: bool
    turns: int
    actions_count: int
    wall_s: float
    path: str
    ended: str
    judge: float | None
    adjudication: str
    actions: list[int]


#: the fields a row written before them may lack, with what such a row means
OPTIONAL: dict[str, object] = {f.name: f.default for f in GAME_ROW_FIELDS if f.default != REQUIRED}
#: how a game ended (the row's ``ended``): a victory condition (5.0, D19), the
#: turn limit (D19 revised), or an adjudication rule (hotspot.arena.adjudication)
ENDED_RULES, ENDED_TURN_LIMIT, ENDED_RESIGN, ENDED_NO_PROGRESS = "rules", "turn limit", "resign", "no progress"
ENDINGS = (ENDED_RULES, ENDED_TURN_LIMIT, ENDED_RESIGN, ENDED_NO_PROGRESS)


def ended(row: dict) -> str:
    """How the game of ``row`` ended (its ``ended``; for a row written before
    that field, 'turn limit' for a game without a winner, else 'rules')."""
    value = row.get("ended")
    if value is not None:
        return value
    return "turn limit" if row.get("winner") is None else "rules"


def is_draw(row) -> bool:
    """A game without a winner: stopped at the turn limit (D19 revised) or adjudicated a draw."""
    return row.get("winner") is None


#: a draw's points to each side (D19 revised: half a point); a win is 1, a loss 0
DRAW_POINTS = 0.5


def points(row, agent_or_side: str, by: str = "agent") -> float:
    """The points of an agent (``by="agent"``) or a side (``by="side"``) in
    the game ``row``: 1 for a win, 1/2 for a draw (D19: half a point), 0 for
    a loss.  The one place the arena scores a game (:func:`total_points`
    for counts)."""
    if is_draw(row):
        return DRAW_POINTS
    won = row["winner"] if by == "side" else row[row["winner"]]  # the winning seat's agent
    return 1.0 if won == agent_or_side else 0.0


@overload
def total_points(wins: float, draws: float) -> float: ...
@overload
def total_points(wins: np.ndarray, draws: np.ndarray) -> np.ndarray: ...
def total_points(wins, draws):
    """The points of ``wins`` wins and ``draws`` draws (counts, or arrays of
    counts: then each element's), as :func:`points` scores each game."""
    return wins + DRAW_POINTS * draws


def draws_of(winners) -> np.ndarray:
    """:func:`is_draw` of each game, from the games' ``winner`` field (an array, as
    :func:`.rowtable.column` gives it)."""
    return np.fromiter((w is None for w in winners), dtype=bool, count=len(winners))


def side_points(winners, side: str) -> np.ndarray:
    """:func:`points` of ``side`` in each game, from the games' ``winner`` field (an array)."""
    return total_points((np.asarray(winners) == side).astype(float), draws_of(winners))


def endings(rows) -> dict[str, int]:
    """How the games ``rows`` ended: the count of each :func:`ended`."""
    counts: dict[str, int] = {}
    for row in rows:
        counts[ended(row)] = counts.get(ended(row), 0) + 1
    return counts


#: the balance tool's games.csv: every game with its seed and result, without its actions
GAME_CSV_FIELDS = [
    "scenario",
    "rules",
    "technocrat",
    "ziegler",
    "index",
    "seed",
    "winner",
    "truncated",
    "turns",
    "actions_count",
]

_TEXT = ("key", "pairing", "technocrat", "ziegler", "scenario", "setup", "path")


def make_row(
    spec, *, setup, winner, result, truncated, turns, actions, wall_s, path, ended="rules", judge=None
) -> GameRow:
    """The row of the game ``spec`` (a ``match.GameSpec``) that ended so: the
    fields of :data:`GAME_ROW_FIELDS`, in their order."""
    if winner is None:
        winner_agent = loser_agent = None
    else:
        winner_agent = spec.technocrat if winner == "technocrat" else spec.ziegler
        loser_agent = spec.ziegler if winner == "technocrat" else spec.technocrat
    row: GameRow = {
        "key": spec.key,
        "pairing": spec.pairing,
        "index": int(spec.index),
        "seed": int(spec.seed),
        "scenario": spec.scenario,
        "setup": setup,
        "rules": spec.rules_dict,
        "max_turns": spec.max_turns,
        "technocrat": spec.technocrat,
        "ziegler": spec.ziegler,
        "winner": winner,
        "winner_agent": winner_agent,
        "loser_agent": loser_agent,
        "result": result,
        "truncated": bool(truncated),
        "turns": turns,
        "actions_count": len(actions),
        "wall_s": round(wall_s, 6),
        "path": path,
        "ended": ended,
        "judge": judge,
        "adjudication": spec.adjudication,
        "actions": [int(a) for a in actions],
    }
    return row


# ------------------------------------------------------------ checking a row read back


def short_text(value) -> str:
    """A field's value as a message shows it: repr of a string, JSON otherwise, at most 40 characters."""
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _get(row: dict, name: str):
    if name not in row:
        if name in OPTIONAL:
            return OPTIONAL[name]
        raise RowError(
            f"missing field {name!r}"
            + (" (a row written before max_turns was recorded, D19 revised)" if name == "max_turns" else "")
        )
    return row[name]


def _text(row: dict, name: str) -> str:
    value = _get(row, name)
    if not isinstance(value, str) or not value:
        raise RowError(f"field {name!r} must be a non-empty string, got {short_text(value)}")
    return value


def _integer(row: dict, name: str, low: int = 0, high: int | None = None) -> int:
    value = _get(row, name)
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value >= high):
        bound = f"in [{low}, {high})" if high is not None else f">= {low}"
        raise RowError(f"field {name!r} must be an integer {bound}, got {short_text(value)}")
    return value


def _check_outcome(row: dict) -> None:
    """winner, result, truncated and the agents' names agree (what the tables count)."""
    from hotspot.core.rules_data import RESULT_NAMES

    winner = _get(row, "winner")
    if winner not in (None, "technocrat", "ziegler"):
        raise RowError(f"field 'winner' must be 'technocrat', 'ziegler' or null, got {short_text(winner)}")
    result = _get(row, "result")
    expected = RESULT_NAMES[0] if winner is None else f"{winner} wins"
    if result != expected:
        raise RowError(f"field 'result' is {short_text(result)} but the winner is {short_text(winner)}")
    truncated = _get(row, "truncated")
    if not isinstance(truncated, bool) or (winner is None and not truncated):
        raise RowError(
            f"field 'truncated' must be a boolean, true for a game without a winner, got {short_text(truncated)}"
        )
    names = (row["technocrat"], row["ziegler"])
    want = (None, None) if winner is None else (names if winner == "technocrat" else names[::-1])
    got = (_get(row, "winner_agent"), _get(row, "loser_agent"))
    if got != want:
        raise RowError(
            f"fields 'winner_agent', 'loser_agent' are {short_text(list(got))}, expected {short_text(list(want))}"
        )


def _check_actions(row: dict) -> None:
    from hotspot.core.actions import NUM_ACTIONS

    actions = _get(row, "actions")
    if not isinstance(actions, list):
        raise RowError(f"field 'actions' must be a list of integers, got {short_text(actions)}")
    fine = set(map(type, actions)) <= {int} and (not actions or (min(actions) >= 0 and max(actions) < NUM_ACTIONS))
    if not fine:  # (the test above runs in C; this loop only finds the bad action to name it)
        for i, a in enumerate(actions):
            if type(a) is not int or not 0 <= a < NUM_ACTIONS:
                raise RowError(f"actions[{i}] must be an action in [0, {NUM_ACTIONS}), got {short_text(a)}")
    count = _integer(row, "actions_count")
    if count != len(actions):
        raise RowError(f"field 'actions_count' is {count} but there are {len(actions)} actions")


def check(row) -> GameRow:
    """``row`` if every field of :data:`GAME_ROW_FIELDS` is there with its
    type and in its range and the outcome fields agree; else
    :class:`RowError` naming the field.  (``folder.check_row`` also checks
    the set-up and the key against the game's seed and fields.)"""
    from hotspot.core.limits import check_max_turns

    if not isinstance(row, dict):
        raise RowError(f"not a JSON object (a {type(row).__name__})")
    for name in _TEXT:
        _text(row, name)
    _integer(row, "index", 0, MAX_SEED)
    _integer(row, "seed", 0, MAX_SEED)
    _integer(row, "turns")
    if not isinstance(_get(row, "rules"), dict):
        raise RowError(f"field 'rules' must be an object, got {short_text(row['rules'])}")
    max_turns = _get(row, "max_turns")
    try:
        check_max_turns(max_turns)
    except ValueError as exc:
        raise RowError(f"field 'max_turns': {exc}") from None
    wall = _get(row, "wall_s")
    if isinstance(wall, bool) or not isinstance(wall, (int, float)) or not math.isfinite(wall) or wall < 0:
        raise RowError(f"field 'wall_s' must be a non-negative number, got {short_text(wall)}")
    _check_outcome(row)
    _check_ending(row)
    _check_actions(row)
    return cast(GameRow, row)


def _check_ending(row: dict) -> None:
    """``ended`` is one of :data:`ENDINGS` and agrees with the winner; ``judge``
    a number in [0, 1] or null; ``adjudication`` a string."""
    value = _get(row, "ended")
    if value is not None:
        if value not in ENDINGS:
            raise RowError(f"field 'ended' must be one of {', '.join(ENDINGS)}, got {short_text(value)}")
        drawn = value in ("turn limit", "no progress")
        if drawn != (row["winner"] is None):
            raise RowError(f"field 'ended' is {short_text(value)} but the winner is {short_text(row['winner'])}")
    judge = _get(row, "judge")
    if judge is not None and (
        isinstance(judge, bool) or not isinstance(judge, (int, float)) or not 0.0 <= judge <= 1.0
    ):
        raise RowError(f"field 'judge' must be a number in [0, 1] or null, got {short_text(judge)}")
    if not isinstance(_get(row, "adjudication"), str):
        raise RowError(f"field 'adjudication' must be a string, got {short_text(row['adjudication'])}")


# ------------------------------------------------------------ games.csv

_CSV_INT = {"index", "seed", "turns", "actions_count", "max_turns"}


def to_csv_row(row: dict, fields=GAME_CSV_FIELDS) -> dict:
    """A row as a line of games.csv (``fields``: its columns): the rules as
    canonical JSON, the other fields as they are (``csv`` writes None as an
    empty cell and a boolean as ``True``/``False``)."""
    out = {name: row.get(name) for name in fields}
    if "rules" in out:
        out["rules"] = json.dumps(row.get("rules") or {}, sort_keys=True)
    return out


def from_csv_row(record: dict) -> dict:
    """A line of a games.csv read back (``csv.DictReader``) with the types of
    :data:`GAME_ROW_FIELDS`: the counts as ints, ``truncated`` a boolean, the
    rules an object, and ``winner`` None for a draw (an empty cell or
    ``draw``).  Columns that are no row field are refused (:class:`RowError`)."""
    out: dict[str, Any] = {}
    for name, text in record.items():
        if name not in GAME_ROW_NAMES:
            raise RowError(f"games.csv: column {name!r} is not a game row field")
        if name in _CSV_INT:
            out[name] = None if text in ("", None) else int(text)
        elif name == "truncated":
            if text not in ("True", "False"):
                raise RowError(f"games.csv: 'truncated' must be True or False, got {short_text(text)}")
            out[name] = text == "True"
        elif name == "rules":
            out[name] = json.loads(text) if text else {}
        elif name in ("winner", "winner_agent", "loser_agent"):
            out[name] = None if text in ("", "draw", None) else text
        elif name == "wall_s":
            out[name] = float(text)
        else:
            out[name] = text
    return out


__all__ = [
    "GAME_CSV_FIELDS",
    "GAME_ROW_FIELDS",
    "GAME_ROW_NAMES",
    "MAX_SEED",
    "RowField",
    "ENDINGS",
    "OPTIONAL",
    "DRAW_POINTS",
    "check",
    "ended",
    "endings",
    "from_csv_row",
    "is_draw",
    "make_row",
    "points",
    "to_csv_row",
    "total_points",
]
