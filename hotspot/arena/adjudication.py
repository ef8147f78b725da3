"""Adjudication: a harness's rules for ending a game whose end is no longer in doubt.

The rulebook plays a game until a side meets its victory condition (5.0,
15.5; the engineers' loss, D19), and a harness may stop it after
``max_turns`` as a draw (D19 revised).  Games between strong or drawish
agents run long: most of a strong game's cost is turns that change nothing.
As cutechess-cli's and fastchess's ``-resign`` and ``-draw`` options do in
chess, a run may name *adjudication rules*, off unless asked:

* ``resign(score=S, turns=K)``: at the start of each turn a *judge* gives the
  Technocrat's expected score (the shipped learned plan value,
  :mod:`hotspot.agents.plan_value`, read as ``(v + 1) / 2``; a game over is
  its result); when it is at least ``S`` for ``K`` turns in a row the
  Technocrat is given the win, at most ``1 - S`` for ``K`` turns the Ziegler.
  The row's ``ended`` is ``"resign"``, its winner the side judged winning.
* ``draw(turns=N)``: when for ``N`` turns in a row no unit lost a squad, no
  crustal changed its controller, neutralization, damage or kind (the
  *material*: every unit's type and squads, every piece's kind, damage,
  controller and neutralization), the game is a draw, as chess's fifty-move
  rule.  The row's ``ended`` is ``"no progress"``, no winner, ``truncated``
  true (a harness's stop, as at ``max_turns``).

A rule set is written as agents are, ``"resign(score=0.99,turns=6),draw(turns=60)"``
(:func:`parse_adjudication`; its canonical text, :func:`canonical_adjudication`,
goes into each game's key and the run's ``run.json``, so a folder of games
played under other rules is never mixed in).  Each parameter left out takes
its default (:data:`RULES`), the values measured in docs/results.md
("Adjudication").

One implementation serves every path: :func:`replay_turn_points` (a recorded game) and :func:`state_point` (a game
being played) read the judge's
value and the material at the first state of each turn (compiled), and
:class:`Adjudicator` applies the rules to those points one turn at a time.
The Python path (``match._play_python``) asks the adjudicator at each new
turn; a game of two compiled agents is played in one compiled call and then
cut where the adjudicator would have stopped it (the agents' decisions up to
there are the same, so the row is the one a live check gives).  The
validation (``benchmarks/bench_adjudication.py``) replays games played to
their real end through the same points.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from hotspot.core.rules_data import PHASE_OVER

from .errors import ArenaError
from .gamerow import ENDED_NO_PROGRESS, ENDED_RESIGN, ENDED_RULES, ENDED_TURN_LIMIT, ENDINGS  # noqa: F401
from .turn_points import replay_turn_points, state_point

#: the rules, their parameters and defaults (docs/results.md, "Adjudication": ``resign`` at its defaults
#: wrong in 1 of 928 adjudications on the reference ladder's committed games, not for learned policies;
#: no ``draw`` setting validates)
RULES: dict[str, dict[str, float]] = {
    "resign": {"score": 0.99, "turns": 6},
    "draw": {"turns": 60},
}


class AdjudicationError(ArenaError):
    """A bad adjudication rule or parameter (one line, naming it)."""


@dataclass(frozen=True)
class Rules:
    """A checked rule set: ``resign`` (score, turns) or None, ``draw`` (turns) or None."""

    resign_score: float | None = None
    resign_turns: int | None = None
    draw_turns: int | None = None

    @property
    def resign(self) -> bool:
        return self.resign_score is not None

    @property
    def draw(self) -> bool:
        return self.draw_turns is not None

    def __bool__(self) -> bool:
        return self.resign or self.draw

    def text(self) -> str:
        """The canonical text (``""`` for none)."""
        parts = []
        if self.draw:
            parts.append(f"draw(turns={self.draw_turns})")
        if self.resign:
            parts.append(f"resign(score={self.resign_score:g},turns={self.resign_turns})")
        return ",".join(parts)


NO_RULES = Rules()


def _number(rule: str, name: str, text: str, whole: bool):
    try:
        value = float(text)
    except ValueError:
        raise AdjudicationError(f"adjudication {rule}: {name} must be a number, got {text!r}") from None
    if whole and (not value.is_integer() or value < 1 or value > 10_000):
        raise AdjudicationError(
            f"adjudication {rule}: {name} must be a whole number of turns in [1, 10000], got {text}"
        )
    return int(value) if whole else value


def parse_adjudication(text) -> Rules:
    """The rule set of ``text`` (``"resign"``, ``"draw(turns=30)"``,
    ``"resign(score=0.99),draw"``, ``"none"`` or ``""`` for none; a
    :class:`Rules` passes through); an :class:`AdjudicationError` of one line
    naming an unknown rule or a bad parameter."""
    if isinstance(text, Rules):
        return text
    if text is None:
        return NO_RULES
    if not isinstance(text, str):
        raise AdjudicationError(f"adjudication must be a string such as 'resign,draw', got {type(text).__name__}")
    from hotspot.agents.specs import parse_spec, split_top

    text = text.strip()
    if text in ("", "none", "off"):
        return NO_RULES
    found: dict[str, dict] = {}
    for part in split_top(text, ","):
        try:
            name, params = parse_spec(part.strip())
        except ValueError as exc:
            raise AdjudicationError(f"adjudication {part.strip()!r}: {exc}") from None
        if name not in RULES:
            raise AdjudicationError(f"unknown adjudication rule {name!r}; the rules are {', '.join(RULES)}")
        if name in found:
            raise AdjudicationError(f"adjudication rule {name!r} given twice")
        unknown = sorted(set(params) - set(RULES[name]))
        if unknown:
            raise AdjudicationError(
                f"adjudication {name}: unknown parameter {unknown[0]!r}; it takes {', '.join(RULES[name])}"
            )
        values = dict(RULES[name])
        for key, value in params.items():
            values[key] = _number(name, key, str(value), whole=(key == "turns"))
        found[name] = values
    resign, draw = found.get("resign"), found.get("draw")
    if resign is not None and not 0.5 < resign["score"] < 1.0:
        raise AdjudicationError(f"adjudication resign: score must be in (0.5, 1), got {resign['score']:g}")
    return Rules(
        resign_score=None if resign is None else float(resign["score"]),
        resign_turns=None if resign is None else int(resign["turns"]),
        draw_turns=None if draw is None else int(draw["turns"]),
    )


def canonical_adjudication(text) -> str:
    """The canonical text of a rule set (``""`` for none): what a game's key holds."""
    if isinstance(text, str):
        return _canonical_text(text)
    return parse_adjudication(text).text()


@functools.lru_cache(maxsize=256)
def _canonical_text(text: str) -> str:
    return parse_adjudication(text).text()


# ------------------------------------------------------------ the points a rule reads


def judge_nets() -> np.ndarray:
    """The judge's networks: the shipped plan value."""
    from hotspot.agents.plan_value import shipped_plan_value

    return shipped_plan_value()


# ------------------------------------------------------------ the rules


@dataclass
class Verdict:
    """An adjudication: how the game ended, its winner ('technocrat',
    'ziegler' or None), the turn and the judge's value then."""

    ended: str
    winner: str | None
    turn: int
    judge: float


class Adjudicator:
    """The rules applied one turn at a time: :meth:`point` takes the turn, the
    judge's value and the material hash at the first state of the turn and
    returns a :class:`Verdict` when a rule ends the game there, else None."""

    judge: float | None  # the judge's last value (the Technocrat's expected score)

    def __init__(self, rules, nets=None):
        self.rules = parse_adjudication(rules)
        self.nets = judge_nets() if nets is None else nets
        self.high = self.low = 0  # turns in a row the judge gave the game to the Technocrat / the Ziegler
        self.still = 0  # turns in a row without a change of material
        self.last_hash = None
        self.last_turn = -1
        self.judge = None

    def at_state(self, s) -> Verdict | None:
        """:meth:`point` at ``s`` (a state record) if it is the first state
        of a turn of play (not the set-up, D21; not a finished game), else None."""
        phase, turn = int(s["phase"]), int(s["turn"])
        if phase >= PHASE_OVER or turn == self.last_turn:
            return None
        self.last_turn = turn
        value, material = state_point(s, self.nets)
        return self.point(turn, value, int(material))

    def replay(self, start, actions) -> tuple[Verdict | None, int]:
        """(the verdict, the number of actions played before it) of a game
        played to its end from the started state ``start`` (shape (1,)) with
        ``actions``: the rules read the same points as :meth:`at_state`
        would have; (None, len(actions)) if no rule ends it."""
        return self.over_points(game_points(start, actions, self.nets), len(actions))

    def over_points(self, points: dict, actions: int) -> tuple[Verdict | None, int]:
        """(the verdict, the actions played before it) of a game whose turn
        points (:func:`game_points`) are ``points`` and which has ``actions``
        actions in all; (None, ``actions``) if no rule ends it."""
        for t, v, h, i in zip(points["turn"], points["value"], points["hash"], points["start"]):
            self.last_turn = int(t)
            verdict = self.point(int(t), float(v), int(h))
            if verdict is not None:
                return verdict, int(i)
        return None, actions

    def point(self, turn: int, value: float, material: int) -> Verdict | None:
        r = self.rules
        self.judge = round(float(value), 6)
        if r.draw:
            self.still = self.still + 1 if material == self.last_hash else 0
            self.last_hash = material
            if self.still >= r.draw_turns:
                return Verdict(ENDED_NO_PROGRESS, None, int(turn), self.judge)
        if r.resign:
            self.high = self.high + 1 if value >= r.resign_score else 0
            self.low = self.low + 1 if value <= 1.0 - r.resign_score else 0
            if self.high >= r.resign_turns:
                return Verdict(ENDED_RESIGN, "technocrat", int(turn), self.judge)
            if self.low >= r.resign_turns:
                return Verdict(ENDED_RESIGN, "ziegler", int(turn), self.judge)
        return None


def game_points(state, actions, nets=None) -> dict:
    """The turn points of a recorded game: replay ``actions`` from the started
    state ``state`` (shape (1,), left unchanged).  Returns ``turn``,
    ``value``, ``hash``, ``start`` (arrays, one entry a turn of play) and
    ``ok`` (False: an action of the record was illegal)."""
    actions = np.asarray(actions, dtype=np.int64)
    nets = judge_nets() if nets is None else nets
    cap = 256
    while True:
        s = state.copy()
        turns = np.zeros(cap, dtype=np.int64)
        values = np.zeros(cap)
        hashes = np.zeros(cap, dtype=np.uint64)
        starts = np.zeros(cap, dtype=np.int64)
        n, ok = replay_turn_points(s[0], actions, nets, turns, values, hashes, starts)
        if ok or n < cap:
            break
        cap *= 4
    return {"turn": turns[:n], "value": values[:n], "hash": hashes[:n], "start": starts[:n], "ok": bool(ok)}
