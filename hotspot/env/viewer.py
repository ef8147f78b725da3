"""The board as data, and a self-contained HTML replay viewer for a game record.

``board_of(s)`` is the picture of one state (or of one side's information
state, D20) as JSON-ready data: the pieces with their hexes, controller,
neutralization and damage, the counters with their side, type, squads and
factors (12.2, 12.3, 8.1, as printed on a counter, 2.2.1).  ``board_meta(s)``
is what does not change in a game: the map's size, the unit types, the piece
kinds.  ``describe_events`` turns the core's events into sentences (rolls,
odds, results).  One drawing code, ``static/board.js`` (SVG), draws them: in
the replay viewer written here and in the browser app (``hotspot serve``,
``hotspot.human.web``), so the two look the same.

``write_replay_html(record, path)`` replays the record (scenario, seed,
actions), keeps one frame per action (the board in full and as each side saw
it, turn, phase, the action and what it caused) and writes a single HTML file
(no network, no dependencies) that steps through the frames: buttons, a
slider, the arrow keys, play; a switch shows the board in full or as the
Ziegler or the Technocrat player saw it (D20).
"""
from __future__ import annotations

import base64
import html
import json
from pathlib import Path

from hotspot.core.events import BREAK_REASONS, ELIM_REASONS
from hotspot.core.game import Game, action_to_string
from hotspot.core.hexgrid import CENTRAL_CELLS, MAP_COLS, MAP_ROWS, col_row
from hotspot.core.record import GameRecord
from hotspot.core.render import piece_name, unit_name
from hotspot.core.rules_data import (CHART_NAMES, CIA_RESULT_NAMES, CIA_TABLE, CHART_CIA, CRT_RESULT_NAMES, NO_PIECE,
                                     NO_UNIT, ODDS_NAMES, PHASE_LETTERS, PHASE_NAMES, PHASE_OVER, PIECE_NAMES,
                                     POOL_NAMES, RESULT_NAMES, SIDE_NAMES, UNIT_IS_INFANTRY, UNIT_LETTERS,
                                     UNIT_NAMES, UNIT_SIDE, UNKNOWN_UNIT)
from hotspot.core.state import MAX_PIECES, MAX_UNITS
from hotspot.core.units import attack_of, defense_of, side_seen_by

STATIC = Path(__file__).with_name("static")  # board.js, board.css, replay.js: the drawing code
VIEWS = ("full", "ziegler", "technocrat")  # frame["boards"][i]: full, then as each side saw it (D20)
UNIT_ABBREVIATIONS = ("", "Inf", "Hov", "Inf", "Crw", "HB", "Eng")  # by unit type (rules_data.UNIT_NAMES)
CRT_MEANINGS = ("no effect: the attackers retreat (12.5.1)", "the defender loses a squad (12.5.2)",
                "all defenders eliminated (12.5.3)")


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
        types.append({"name": UNIT_NAMES[t], "letter": UNIT_LETTERS[t], "abbr": UNIT_ABBREVIATIONS[t],
                      "side": int(UNIT_SIDE[t]), "infantry": bool(UNIT_IS_INFANTRY[t]),
                      "attack": int(rules["attack"][t]), "defense": int(rules["defense"][t]),
                      "movement": int(rules["movement"][t])})
    return {"cols": MAP_COLS, "rows": MAP_ROWS, "central": [list(col_row(int(c))) for c in CENTRAL_CELLS],
            "types": types, "sides": list(SIDE_NAMES), "pieceKinds": list(PIECE_NAMES)}


def board_of(s, observer: int = -1) -> dict:
    """The picture of state ``s``: what ``static/board.js`` draws.

    ``observer`` is -1 for a game state, or the side (0 Ziegler, 1
    Technocrat) whose information state ``s`` is (``Game.observation``): a
    hidden counter (D20, 9.5) is then drawn as the other side's, with type
    -1, squads -1 and factors -1; hidden damage is -1 (14.1-14.3).

    ``pieces``: ``[id, name, kind, [[col, row], ...], controller, neutralized,
    damage, damage rating]`` (the front hex first, 6.4); ``units``: ``[id,
    side, type, squads, attack, defense, movement allowance, col, row, moves
    left]`` with the factors of the whole counter (``units.attack_of``,
    ``defense_of``)."""
    pieces = []
    for k in range(1, MAX_PIECES):
        kind = int(s["piece_kind"][k])
        if kind == NO_PIECE:
            continue
        cells = [list(col_row(int(c))) for c in s["piece_cells"][k] if c >= 0]
        pieces.append([k, piece_name(s, k), kind, cells, int(s["piece_controller"][k]),
                       int(s["piece_neutralized"][k]), int(s["piece_damage"][k]),
                       int(s["rules"]["damage_rating"][kind])])
    units = []
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t == NO_UNIT:
            continue
        side = int(UNIT_SIDE[t]) if observer < 0 else int(side_seen_by(s, u, observer))
        c, r = col_row(int(s["unit_cell"][u]))
        movement = -1 if t == UNKNOWN_UNIT else int(s["rules"]["movement"][t])
        units.append([u, side, t, int(s["unit_squads"][u]), int(attack_of(s, u)), int(defense_of(s, u)),
                      movement, c, r, int(s["unit_moves"][u])])
    return {"pieces": pieces, "units": units, "selPiece": int(s["sel_piece"]), "selUnit": int(s["sel_unit"])}


def status_of(s) -> dict:
    """Turn, phase, the player to move and the result, with the lines of text a
    player needs: what is left to set up (3.2, 3.3, D21), a squad loss the
    owner chooses (D22)."""
    phase = int(s["phase"])
    notes = []
    left = [f"{int(n)} {POOL_NAMES[i]}" for i, n in enumerate(s["pool"]) if n > 0]
    if left and phase != PHASE_OVER:
        notes.append("to set up: " + ", ".join(left))
    if int(s["loss_side"]) >= 0:
        notes.append(f"{SIDE_NAMES[int(s['loss_side'])]} chooses the counter that loses a squad at "
                     f"{col_row(int(s['loss_cell']))} (D22)")
    if phase == PHASE_OVER:
        result = ("stopped by max_turns: no winner (D19)" if s["truncated"] else RESULT_NAMES[int(s["result"])])
    else:
        result = RESULT_NAMES[int(s["result"])]
    return {"turn": int(s["turn"]), "phase": PHASE_LETTERS[phase], "phaseName": PHASE_NAMES[phase],
            "over": phase == PHASE_OVER, "result": result, "notes": notes}


def _unit_text(s, u: int) -> str:
    return f"{unit_name(s, u)} (unit {u})" if int(s["unit_type"][u]) != NO_UNIT else f"unit {u}"


def describe_events(s, events) -> list[str]:
    """The events of one action as sentences; ``s`` is the state *before* the
    action (it names the pieces and units the action may remove)."""
    out = []
    for e in events:
        kind = e["event"]
        if kind == "roll":
            extra = f": {CIA_RESULT_NAMES[CIA_TABLE[e['roll'] - 1]]} (11.2)" \
                if e["chart"] == CHART_CIA and 1 <= e["roll"] <= 6 else ""
            out.append(f"die roll {e['roll']} on the {CHART_NAMES[e['chart']]} chart{extra}")
        elif kind == "collision":
            out.append(f"collision at {col_row(e['cell'])}: {piece_name(s, e['mover'])} and "
                       f"{piece_name(s, e['other'])} (7.0)")
        elif kind == "damage":
            out.append(f"piece {piece_name(s, e['piece'])} damaged: {e['damage']} (14.0)")
        elif kind == "combat":
            odds = "no roll" if e["odds"] < 0 else ODDS_NAMES[e["odds"]]
            out.append(f"combat at {col_row(e['cell'])}: attack {e['attack']} vs defense {e['defense']}, "
                       f"odds {odds}: {CRT_RESULT_NAMES[e['result']]}, {CRT_MEANINGS[e['result']]}")
        elif kind == "eliminated":
            what = f"{SIDE_NAMES[int(UNIT_SIDE[e['type']])]} {UNIT_NAMES[e['type']]}" if e["type"] > 0 else "a unit"
            out.append(f"{what} (unit {e['unit']}) eliminated at {col_row(e['cell'])} "
                       f"({ELIM_REASONS[e['reason']]})")
        elif kind == "breakup":
            out.append(f"piece {piece_name(s, e['piece'])} breaks up ({BREAK_REASONS[e['reason']]}, 14.6)")
        elif kind in ("control", "revert", "neutralized", "off_map"):
            out.append(f"{kind.replace('_', ' ')}: {piece_name(s, e['piece'])}")
        elif kind == "retreat":
            out.append(f"{_unit_text(s, e['unit'])} retreats to {col_row(e['to_cell'])} (12.6)")
        elif kind == "squad_lost":
            out.append(f"{_unit_text(s, e['unit'])} loses a squad at {col_row(e['cell'])}")
        elif kind == "stress":
            out.append(f"stress on {piece_name(s, e['piece'])}: {e['units']} units (9.3, 14.2)")
        elif kind == "setup_piece":
            what = "attack platform" if PIECE_NAMES[e["kind"]] == "platform" else \
                f"{PIECE_NAMES[e['kind']].replace('_', '-')} crustal"
            out.append(f"sets up a {what} at {col_row(e['cell'])}")
        elif kind == "setup_unit":
            out.append(f"sets up unit {e['unit']} ({UNIT_NAMES[e['type']]}"
                       f"{' x' + str(e['squads']) if e['squads'] > 1 else ''}) at {col_row(e['cell'])}")
        elif kind == "revealed":
            out.append(f"entry refused on contact: the stack at {col_row(e['cell'])} is revealed (13.3, R13.3b)")
        elif kind == "game_over":
            out.append("stopped by max_turns: no winner (D19)" if e["truncated"] else RESULT_NAMES[e["result"]])
    return out


# ------------------------------------------------------------ replays

def frame_of(game: Game, action_text: str = "start", events=(), player: int = -1) -> dict:
    """One replay frame: the status, the boards in full and as each side saw
    it (``VIEWS``), the action that led here, by whom, and what it caused."""
    boards = [board_of(game.s)]
    for side in (0, 1):
        boards.append(board_of(game.observation(side)[0], side))
    events = list(events)
    caption = (f"{SIDE_NAMES[player]}: " if player >= 0 else "") + action_text
    if events:
        caption += " — " + "; ".join(events)
    return {**status_of(game.s), "player": player, "action": action_text, "events": events,
            "caption": caption, "boards": boards}


def replay_frames(record: GameRecord) -> list[dict]:
    """The frames of a record: the start, then one after each action."""
    if record.initial_state is not None:
        game = Game.from_bytes(base64.b64decode(record.initial_state))
    else:
        game = Game(record.scenario, seed=record.seed, max_turns=record.max_turns)
    frames = [frame_of(game)]
    for a in record.actions:
        player = int(game.current_player())
        text = action_to_string(game.s, a)
        before = game.s.copy()  # names of pieces that this action may remove
        events = game.apply_action(a, events=True)
        frames.append(frame_of(game, text, describe_events(before, events), player))
    return frames


def replay_data(record: GameRecord, title: str = "Hot Spot replay") -> dict:
    """What the replay viewer shows: the board's meta data and every frame."""
    if record.initial_state is not None:
        start = Game.from_bytes(base64.b64decode(record.initial_state))
    else:
        start = Game(record.scenario, seed=record.seed, max_turns=record.max_turns)
    return {"title": title, "meta": board_meta(start.s), "frames": replay_frames(record)}


def _script_json(data) -> str:
    """JSON safe inside a <script> element."""
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/")


def replay_html(record: GameRecord, title: str = "Hot Spot replay") -> str:
    """The replay viewer's page for ``record``: one HTML text, no network."""
    data = _script_json(replay_data(record, title))
    return (asset_text("replay.html").replace("__TITLE__", html.escape(title))
            .replace("/*__CSS__*/", asset_text("board.css"))
            .replace("/*__BOARD_JS__*/", asset_text("board.js").replace("</", "<\\/"))
            .replace("/*__REPLAY_JS__*/", asset_text("replay.js").replace("</", "<\\/"))
            .replace("__DATA__", data))


def write_replay_html(record, path, title: str = "Hot Spot replay") -> Path:
    """Write the viewer for ``record`` (a GameRecord or a path to a saved one) to ``path``."""
    if not isinstance(record, GameRecord):
        record = GameRecord.load(record)
    path = Path(path)
    path.write_text(replay_html(record, title), encoding="utf-8")
    return path
