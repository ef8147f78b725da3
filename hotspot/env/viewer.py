"""The board as data, and a self-contained HTML replay viewer for a game record.

``board_of(s)`` is the picture of one state (or of one side's information
state, D20) as JSON-ready data: the pieces with their hexes, controller,
neutralization and damage, the counters with their side, type, squads and
factors (12.2, 12.3, 8.1, as printed on a counter, 2.2.1).  ``board_meta(s)``
is what does not change in a game: the map's size, the unit types, the piece
kinds.  ``core.render.describe_events`` says what each action caused (rolls,
odds, results), as each side may know it.  One drawing code, ``static/board.js`` (SVG), draws them: in
the replay viewer written here and in the browser app (``hotspot serve``,
``hotspot.human.web``), so the two look the same.

``replay_steps(record)`` replays a record action by action (the text
replay, ``hotspot replay --step``, uses it too).  ``write_replay_html(record,
path)`` keeps one frame per action (the board, the action and what it caused,
in full and as each side saw it; turn, phase) and writes a single HTML file
(no network, no dependencies) that steps through the frames: buttons, a
slider, the arrow keys, play; a switch shows the board in full or as the
Ziegler or the Technocrat player saw it (D20).
"""

from __future__ import annotations

import base64
import html
import json
from pathlib import Path
from typing import NamedTuple

import numpy as np

from hotspot.core.game import Game, IllegalActionError, action_to_string
from hotspot.core.hexgrid import CENTRAL_CELLS, MAP_COLS, MAP_ROWS, col_row
from hotspot.core.observation import observe
from hotspot.core.record import GameRecord, RecordError
from hotspot.core.render import describe_events, piece_name
from hotspot.core.rules_data import (
    CENTRAL_PIECE,
    ITEM_NAMES,
    NO_PIECE,
    NO_UNIT,
    PHASE_LETTERS,
    PHASE_NAMES,
    PHASE_OVER,
    PIECE_NAMES,
    POOL_NAMES,
    RESULT_NAMES,
    SIDE_NAMES,
    UNIT_IS_INFANTRY,
    UNIT_LETTERS,
    UNIT_NAMES,
    UNIT_SIDE,
    UNKNOWN_SQUADS,
    UNKNOWN_UNIT,
)
from hotspot.core.state import MAX_PIECES, MAX_UNITS, STATE_DTYPE
from hotspot.core.units import UNKNOWN_FACTOR

STATIC = Path(__file__).with_name("static")  # board.js, board.css, replay.js: the drawing code
VIEWS = ("full", "ziegler", "technocrat")  # frame["boards"][i]: full, then as each side saw it (D20)
UNIT_ABBREVIATIONS = ("", "Inf", "Hov", "Inf", "Crw", "HB", "Eng")  # by unit type (rules_data.UNIT_NAMES)


def asset_text(name: str) -> str:
    """The text of one of the drawing files in ``hotspot/env/static`` (by its bare name)."""
    path = STATIC / name
    if path.name != name or not path.is_file():
        raise FileNotFoundError(f"no viewer asset named {name!r}")
    return path.read_text(encoding="utf-8")


# ------------------------------------------------------------ the board as data


def board_meta(s) -> dict:
    """What a game's boards share: the map's size (D1), the Central Crustal's
    hexes (D2), and each unit type's name, letter, side and printed factors
    under the game's rules options (12.2, 12.3, 8.1; infantry per squad, D4)."""
    rules = s["rules"]
    types = []
    for t in range(len(UNIT_NAMES)):
        types.append(
            {
                "name": UNIT_NAMES[t],
                "letter": UNIT_LETTERS[t],
                "abbr": UNIT_ABBREVIATIONS[t],
                "side": int(UNIT_SIDE[t]),
                "infantry": bool(UNIT_IS_INFANTRY[t]),
                "attack": int(rules["attack"][t]),
                "defense": int(rules["defense"][t]),
                "movement": int(rules["movement"][t]),
            }
        )
    return {
        "cols": MAP_COLS,
        "rows": MAP_ROWS,
        "central": [list(col_row(int(c))) for c in CENTRAL_CELLS],
        "types": types,
        "sides": list(SIDE_NAMES),
        "pieceKinds": list(PIECE_NAMES),
    }


def board_of(s, observer: int = -1) -> dict:
    """The picture of state ``s``: what ``static/board.js`` draws.

    ``observer`` is -1 for a game state, or the side (0 Ziegler, 1
    Technocrat) whose information state ``s`` is (``Game.observation``): a
    hidden counter (D20, 9.5) is then drawn as the other side's, with type
    -1, squads -1 and factors -1; hidden damage is -1 (14.1-14.3).

    ``pieces``: ``[id, name, kind, [[col, row], ...], controller, neutralized,
    damage, damage rating]`` (the front hex first, 6.4; piece 0 is the
    Central Crustal, D2); ``units``: ``[id,
    side, type, squads, attack, defense, movement allowance, col, row, moves
    left]`` with the factors of the whole counter (as ``units.attack_of``,
    ``defense_of``); ``setupHex``: the hex of a crustal being set up whose
    facing is still to choose (3.2, D21), else None."""
    pieces = []
    for k in range(MAX_PIECES):
        kind = int(s["piece_kind"][k])
        if kind == NO_PIECE:
            continue
        # piece 0 is the Central Crustal: its seven hexes are the map's (D2), its controller counts (15.0, 5.0)
        cells = CENTRAL_CELLS if k == CENTRAL_PIECE else [c for c in s["piece_cells"][k] if c >= 0]
        cells = [list(col_row(int(c))) for c in cells]
        pieces.append(
            [
                k,
                piece_name(s, k),
                kind,
                cells,
                int(s["piece_controller"][k]),
                int(s["piece_neutralized"][k]),
                int(s["piece_damage"][k]),
                int(s["rules"]["damage_rating"][kind]),
            ]
        )
    units = []
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t == NO_UNIT:
            continue
        squads = int(s["unit_squads"][u])
        c, r = col_row(int(s["unit_cell"][u]))
        units.append(
            [
                u,
                _side_seen(t, observer),
                t,
                squads,
                _factor(s, t, squads, False),
                _factor(s, t, squads, True),
                -1 if t == UNKNOWN_UNIT else int(s["rules"]["movement"][t]),
                c,
                r,
                int(s["unit_moves"][u]),
            ]
        )
    setup_cell = int(s["setup_cell"])  # a crustal being set up, its facing not chosen yet (3.2, D21)
    return {
        "pieces": pieces,
        "units": units,
        "selPiece": int(s["sel_piece"]),
        "selUnit": int(s["sel_unit"]),
        "setupHex": list(col_row(setup_cell)) if setup_cell >= 0 else None,
    }


# A replay draws three boards an action, so the counters' factors and sides are
# read here as units.attack_of / defense_of / side_seen_by read them (a compiled
# call from Python costs ~25 us; tests/test_viewer.py checks that they agree).
def _factor(s, t: int, squads: int, defense: bool) -> int:
    """``units.attack_of`` (``defense_of``): the type's factor per squad (``units.type_factor``,
    12.2, 12.3, D4) times the squads; ``UNKNOWN_FACTOR`` for a hidden type or size (D20)."""
    if t == UNKNOWN_UNIT or squads == UNKNOWN_SQUADS:
        return UNKNOWN_FACTOR
    return int(s["rules"]["defense" if defense else "attack"][t]) * squads


def _side_seen(t: int, observer: int) -> int:
    """``units.side_seen_by``: a hidden counter is the other side's (D20); ``observer`` -1: a game state."""
    if t == UNKNOWN_UNIT:
        return 1 - observer
    return int(UNIT_SIDE[t])


def status_of(s) -> dict:
    """Turn, phase, the player to move and the result, with the lines of text a
    player needs: what is left to set up (3.2, 3.3, D21), a squad loss the
    owner chooses (D22)."""
    phase = int(s["phase"])
    notes = []
    left = [f"{int(n)} {POOL_NAMES[i]}" for i, n in enumerate(s["pool"]) if n > 0]
    if left and phase != PHASE_OVER:
        notes.append("to set up: " + ", ".join(left))
    item, cell = int(s["setup_item"]), int(s["setup_cell"])
    if item >= 0:  # D21: a choice commits
        notes.append(
            f"placing the {ITEM_NAMES[item]}: "
            + (f"at {col_row(cell)}, its facing next" if cell >= 0 else "its hex next")
        )
    if int(s["loss_side"]) >= 0:
        notes.append(
            f"{SIDE_NAMES[int(s['loss_side'])]} chooses the counter that loses a squad at "
            f"{col_row(int(s['loss_cell']))} (D22)"
        )
    if phase == PHASE_OVER:
        result = "stopped by max_turns: no winner (D19)" if s["truncated"] else RESULT_NAMES[int(s["result"])]
    else:
        result = RESULT_NAMES[int(s["result"])]
    return {
        "turn": int(s["turn"]),
        "phase": PHASE_LETTERS[phase],
        "phaseName": PHASE_NAMES[phase],
        "over": phase == PHASE_OVER,
        "result": result,
        "notes": notes,
    }


# ------------------------------------------------------------ replays


class ReplayStep(NamedTuple):
    """One action of a replayed record (``replay_steps``)."""

    game: Game  # the live game, after the action
    index: int  # the action's position in the record
    side: int  # the side that acted
    turn: int  # the turn and phase letter when it acted (4.0)
    phase: str
    caption: str  # the core's action_to_string
    details: list  # every die roll and outcome it caused (describe_events)
    before: object = None  # the state before the action (for what each side saw of it, D20)
    events: tuple = ()  # the decoded events it caused (core.game.decode_events)


def replay_steps(record: GameRecord):
    """Replay ``record`` action by action, yielding a ``ReplayStep`` after each.
    Raises ``RecordError`` where the record does not replay."""
    game = replay_start(record)
    for i, a in enumerate(record.actions):
        side, turn, phase = int(game.current_player()), game.turn, PHASE_LETTERS[game.phase]
        text = action_to_string(game.s, a)
        before = game.s.copy()  # names of pieces that this action may remove
        try:
            events = game.apply_action(a, events=True)
        except (IllegalActionError, TypeError) as exc:
            raise RecordError(f"actions[{i}] = {a!r} does not replay: {exc}") from None
        yield ReplayStep(game, i, side, turn, phase, text, describe_events(before, events), before, tuple(events))


def replay_start(record: GameRecord) -> Game:
    """The game at the start of ``record`` (its scenario and seed, or its initial state)."""
    if record.initial_state is not None:
        return Game.from_bytes(base64.b64decode(record.initial_state))
    return Game(record.scenario, seed=record.seed, max_turns=record.max_turns)


def frame_of(game: Game, step: ReplayStep | None = None) -> dict:
    """One replay frame: the status and, for each of ``VIEWS`` (everything,
    then as each side saw it, D20), the board, the action's caption and what
    it caused (``core.render.describe_events``); ``step`` None: the start."""
    boards, actions, events = [board_of(game.s)], [], []
    for side in (0, 1):
        boards.append(board_of(game.observation(side)[0], side))
    for view in (None, 0, 1):
        if step is None:
            actions.append("start")
            events.append([])
            continue
        seen = step.before if view is None else _observed(step.before, view)
        actions.append(action_to_string(seen, step.game.record.actions[step.index]))
        events.append(step.details if view is None else describe_events(step.before, list(step.events), view))
    player = -1 if step is None else step.side
    caption = (f"{SIDE_NAMES[player]}: " if player >= 0 else "") + actions[0]
    if events[0]:
        caption += " — " + "; ".join(events[0])
    return {
        **status_of(game.s),
        "player": player,
        "caption": caption,
        "actions": actions,
        "events": events,
        "boards": boards,
    }


def _observed(s, side: int):
    """State ``s`` as ``side`` saw it (D20: ``core.observation.observe``)."""
    out = np.zeros(1, dtype=STATE_DTYPE)
    observe(s, side, True, out[0])
    return out[0]


def replay_frames(record: GameRecord) -> list[dict]:
    """The frames of a record: the start, then one after each action."""
    frames = [frame_of(replay_start(record))]
    for step in replay_steps(record):
        frames.append(frame_of(step.game, step))
    return frames


def replay_data(record: GameRecord, title: str = "Hot Spot replay") -> dict:
    """What the replay viewer shows: the board's meta data and every frame."""
    return {"title": title, "meta": board_meta(replay_start(record).s), "frames": replay_frames(record)}


def _script_json(data) -> str:
    """JSON safe inside a <script> element."""
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/")


def replay_html(record: GameRecord, title: str = "Hot Spot replay") -> str:
    """The replay viewer's page for ``record``: one HTML text, no network."""
    data = _script_json(replay_data(record, title))
    return (
        asset_text("replay.html")
        .replace("__TITLE__", html.escape(title))
        .replace("/*__CSS__*/", asset_text("board.css"))
        .replace("/*__BOARD_JS__*/", asset_text("board.js").replace("</", "<\\/"))
        .replace("/*__REPLAY_JS__*/", asset_text("replay.js").replace("</", "<\\/"))
        .replace("__DATA__", data)
    )


def write_replay_html(record, path, title: str = "Hot Spot replay") -> Path:
    """Write the viewer for ``record`` (a GameRecord or a path to a saved one) to ``path``."""
    if not isinstance(record, GameRecord):
        record = GameRecord.load(record)
    path = Path(path)
    path.write_text(replay_html(record, title), encoding="utf-8")
    return path
