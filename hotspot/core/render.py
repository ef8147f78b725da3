"""A readable text rendering of a game state (molten hexes, crustals with
their ids, platforms, stacks, control and neutralization).

The map is drawn row by row; every map row takes two text lines, the even
columns on the first and the odd columns (shifted half a hex down, odd-q, D1)
on the second.  Each hex is four characters: two for the piece and two for
the units on it:

    ``  ..``  molten rock              ``@@``  the Central Crustal (D2)
    ``A ``   crustal A (Ziegler)       ``A*``  crustal A, Technocrat control
    ``AN``   crustal A, neutralized    ``P1``  attack platform 1
    units: ``z3`` three Ziegler counters, ``T2`` two Technocrat counters,
    ``!4`` four counters of both sides (a combat pending)

A legend lists every piece and every stack (with the counters' unit ids, as
the action captions name them) after the map; ``LEGEND`` is the key to the
symbols, for players.  Hexes are ``(col, row)`` as the action captions give
them (D1).  On an information state (``Game.observation``, D20) hidden
counters show as ``?`` and hidden damage as ``?``.

``describe_events`` says what decoded events (``core.game.decode_events``)
mean, in the rulebook's words, for a log or a viewer's caption; given a side
it says only what that side may know (D20: the other side's damage rolls and
hidden counters stay secret).
"""

from __future__ import annotations

import numpy as np

from .events import BREAK_REASONS, ELIM_REASONS
from .hexgrid import MAP_COLS, MAP_ROWS, ON_MAP, cell_of, col_row
from .observation import observe
from .rules_data import (
    CENTRAL,
    CHART_CIA,
    CHART_CONTROL,
    CHART_CRT,
    CHART_CRUSTAL_DAMAGE,
    CHART_NAMES,
    CHART_NEUTRALIZE,
    CHART_STRESS,
    CRT_RESULT_NAMES,
    NO_PIECE,
    NO_UNIT,
    ODDS_NAMES,
    PHASE_LETTERS,
    PHASE_NAMES,
    PHASE_OVER,
    PIECE_NAMES,
    PLATFORM,
    POOL_NAMES,
    RESULT_NAMES,
    SIDE_NAMES,
    TECHNOCRAT,
    UNIT_IS_INFANTRY,
    UNIT_NAMES,
    UNIT_SIDE,
    UNKNOWN_SQUADS,
    UNKNOWN_UNIT,
    ZIEGLER,
)
from .state import MAX_PIECES, MAX_UNITS, STATE_DTYPE

LEGEND = """\
Key: each hex is 4 characters, the piece then the counters on it.
  ..  molten rock           @@  the Central Crustal
  A   crustal A (Ziegler)   A*  crustal A, Technocrat control   AN  crustal A, neutralized
  P1  attack platform 1
  z3  three Ziegler counters, T2 two Technocrat counters, !4 four counters of both sides (a combat)
Hex (col, row): the column number heads the map, the row number is at the left; odd columns are half
a hex lower than even ones (D1): the full board puts them on a row's second line, the compact map
(one line a row) beside the even ones.  Directions: N NE SE S SW NW.
Counters are listed under Stacks with their unit ids (#12); '?' is a counter or damage you cannot
see (D20: of an enemy stack you see the count and the top counter unless you have a unit there)."""


def piece_name(s, k: int) -> str:
    """Identification of piece k (2.2.2, 2.2.3): a letter for crustals, 'P' and a number for platforms."""
    kind = int(s["piece_kind"][k])
    if kind == CENTRAL or k == 0:
        return "CC"
    label = int(s["piece_label"][k])
    if kind == PLATFORM:
        return f"P{label}"
    return chr(ord("A") + (label - 1) % 26)


def unit_name(s, u: int) -> str:
    t = int(s["unit_type"][u])
    if t < 0:
        return "?"
    side = SIDE_NAMES[UNIT_SIDE[t]][0].upper()
    name = UNIT_NAMES[t]
    if UNIT_IS_INFANTRY[t]:
        sq = int(s["unit_squads"][u])
        name += f"x{sq}" if sq >= 0 else "x?"
    return f"{side}-{name}"


def _hex_token(s, cell: int, units_by_cell) -> str:
    k = int(s["board"][cell])
    if k < 0:
        piece = ".."
    elif k == 0:
        piece = "@@"
    else:
        name = piece_name(s, k)
        if int(s["piece_kind"][k]) == PLATFORM:
            piece = name[:2] if len(name) <= 2 else name[-2:]
        else:
            mark = "N" if s["piece_neutralized"][k] else ("*" if s["piece_controller"][k] == TECHNOCRAT else " ")
            piece = name[0] + mark
    units = units_by_cell.get(cell, [])
    if not units:
        tail = "  "
    else:
        # a hidden counter (an information state, D20) is of the side of the stack's top counter
        sides = {int(UNIT_SIDE[int(s["unit_type"][u])]) for u in units if s["unit_type"][u] > 0}
        n = min(len(units), 9)
        if len(sides) > 1:
            tail = f"!{n}"
        elif sides:
            tail = ("z" if ZIEGLER in sides else "T") + str(n)
        else:
            tail = f"?{n}"
    return piece + tail


def render_text(states) -> str:
    """The board and a legend, as text."""
    s = states[0] if getattr(states, "ndim", 0) else states
    units_by_cell: dict[int, list[int]] = {}
    for u in range(MAX_UNITS):
        if s["unit_type"][u] != NO_UNIT:
            units_by_cell.setdefault(int(s["unit_cell"][u]), []).append(u)
    phase = int(s["phase"])
    lines = []
    if phase == PHASE_OVER:
        if s["truncated"]:  # D19 revised: a harness's max_turns, not a result of the rules
            lines.append(f"Game stopped after turn {int(s['turn'])} (max_turns): no winner")
        else:
            lines.append(f"Game over after turn {int(s['turn'])}: {RESULT_NAMES[int(s['result'])]}")
    else:
        lines.append(f"Turn {int(s['turn'])}, phase {PHASE_LETTERS[phase]} ({PHASE_NAMES[phase]})")
        left = [f"{int(n)} {POOL_NAMES[i]}" for i, n in enumerate(s["pool"]) if n > 0]
        if left:  # 3.2, 3.3, D21: what the players still have to set up
            lines.append("To set up: " + ", ".join(left))
        if int(s["loss_side"]) >= 0:  # D22 losses="owner"
            lines.append(
                f"{SIDE_NAMES[int(s['loss_side'])].capitalize()} chooses the counter that loses a "
                f"squad at {col_row(int(s['loss_cell']))}"
            )
    header_even = "     " + "".join(f"{c:<10d}" for c in range(0, MAP_COLS, 2))
    header_odd = "          " + "".join(f"{c:<10d}" for c in range(1, MAP_COLS, 2))
    lines.append(header_even.rstrip())
    lines.append(header_odd.rstrip())
    for row in range(MAP_ROWS):
        even = "".join(_hex_token(s, cell_of(c, row), units_by_cell) + "      " for c in range(0, MAP_COLS, 2))
        odd = "".join(_hex_token(s, cell_of(c, row), units_by_cell) + "      " for c in range(1, MAP_COLS, 2))
        lines.append(f"{row:3d}  {even}".rstrip())
        lines.append(f"          {odd}".rstrip())
    lines.append("")
    lines.append("Pieces:")
    for k in range(1, MAX_PIECES):
        kind = int(s["piece_kind"][k])
        if kind == NO_PIECE:
            continue
        hexes = " ".join(f"({c}, {r})" for c, r in (col_row(int(x)) for x in s["piece_cells"][k] if x >= 0))
        dmg = int(s["piece_damage"][k])
        status = [SIDE_NAMES[int(s["piece_controller"][k])]]
        if s["piece_neutralized"][k]:
            status.append("neutralized")
        off = sum(1 for x in s["piece_cells"][k] if x >= 0 and not ON_MAP[x])
        if off:
            status.append(f"{off} hex(es) off map")
        dmg_text = "?" if dmg < 0 else str(dmg)
        rating = int(s["rules"]["damage_rating"][kind])
        lines.append(
            f"  {piece_name(s, k):3s} {PIECE_NAMES[kind]:10s} {hexes:26s} damage {dmg_text}/{rating}  "
            + ", ".join(status)
        )
    lines.append("Stacks:")
    for cell in sorted(units_by_cell, key=lambda c: col_row(c)[::-1]):
        c, r = col_row(cell)
        lines.append(f"  ({c}, {r}): " + ", ".join(f"#{u} {unit_name(s, u)}" for u in units_by_cell[cell]))
    return "\n".join(lines)


def render_compact(states) -> str:
    """The map alone in 22 lines of at most 80 characters, for a 24-line
    screen with a title and a status line: the column numbers, then one line
    a row with every column's hex token (as :func:`render_text`'s), odd
    columns half a hex lower than the even ones beside them (D1), so hex
    (c, r) is the token under column c on row r's line.  The pieces and
    stacks are :func:`render_text`'s."""
    s = states[0] if getattr(states, "ndim", 0) else states
    units_by_cell: dict[int, list[int]] = {}
    for u in range(MAX_UNITS):
        if s["unit_type"][u] != NO_UNIT:
            units_by_cell.setdefault(int(s["unit_cell"][u]), []).append(u)
    lines = ["   " + "".join(f"{c:<5d}" for c in range(MAP_COLS)).rstrip()]
    for row in range(MAP_ROWS):
        tokens = " ".join(_hex_token(s, cell_of(c, row), units_by_cell) for c in range(MAP_COLS))
        lines.append(f"{row:2d} {tokens}".rstrip())
    return "\n".join(lines)


# ------------------------------------------------------------ events in words

# the rule each chart's roll is made under (16.0's charts)
_CHART_RULES = {
    CHART_CRUSTAL_DAMAGE: "14.3",
    CHART_STRESS: "14.2",
    CHART_CRT: "12.4",
    CHART_CIA: "11.2",
    CHART_CONTROL: "15.2",
    CHART_NEUTRALIZE: "15.4",
}
_CRT_WORDS = {"NE": "No effect (12.5.1)", "C": "Casualties (12.5.2)", "X": "Eliminated (12.5.3)"}
_SECRET_CHARTS = (CHART_CRUSTAL_DAMAGE, CHART_STRESS)  # 14.2, 14.3: "the die roll is secret"


def _hex(cell: int) -> str:
    c, r = col_row(int(cell))
    return f"({c}, {r})"


def _unit_words(seen, u: int, unit_type: int | None = None, squads: int | None = None) -> str:
    """Counter ``u`` as the viewer may know it (``seen``: the state or the
    viewer's information state): its type and size, or a hidden counter (D20).
    ``unit_type`` / ``squads``: the event's own, for a counter that ``seen``
    may not hold yet (set-up) or holds at another size."""
    known = int(seen["unit_type"][u])
    if known == UNKNOWN_UNIT:
        return f"unit {u} (a hidden counter)"
    t = known if unit_type is None else int(unit_type)
    if t <= 0:
        return f"unit {u}"
    sq = int(seen["unit_squads"][u]) if squads is None else int(squads)
    if known > 0 and int(seen["unit_squads"][u]) == UNKNOWN_SQUADS:  # D20: the top counter of a stack
        sq = UNKNOWN_SQUADS
    name = f"{SIDE_NAMES[int(UNIT_SIDE[t])].capitalize()} {UNIT_NAMES[t].replace('_', ' ')}"
    if UNIT_IS_INFANTRY[t]:
        name += f", {sq} squad{'s' if sq != 1 else ''}" if sq >= 0 else ", ? squads"
    return f"unit {u} ({name})"


def describe_events(s, events, side=None) -> list[str]:  # noqa: C901 (one sentence an event kind)
    """What ``events`` (``core.game.decode_events`` of one action) mean, one
    line each, in the rulebook's words; ``s`` is the state *before* the action
    (it names the pieces an action may remove).

    ``side`` None: everything.  ``side`` 0 or 1: what that side may know
    (D20, 9.5, 14.2, 14.3): the other side's damage rolls are secret, and a
    counter in a stack it cannot see is a hidden counter."""
    seen = s
    if side is not None:
        out = np.zeros(1, dtype=STATE_DTYPE)
        observe(s, int(side), True, out[0])
        seen = out[0]
    lines = []
    for e in events:
        kind = e["event"]
        if kind == "phase":
            phase = e["phase"]
            if phase == PHASE_OVER:
                continue  # the game_over event says it
            lines.append(f"turn {e['turn']}, phase {PHASE_LETTERS[phase]}: {PHASE_NAMES[phase]}")
        elif kind == "roll":
            chart, rule = e["chart"], _CHART_RULES.get(e["chart"], "16.0")
            if chart in _SECRET_CHARTS and int(seen["piece_damage"][e["subject"]]) < 0:
                lines.append(
                    f"the {SIDE_NAMES[1 - side].capitalize()} rolls in secret for "
                    f"{piece_name(s, e['subject'])} on the {CHART_NAMES[chart]} chart ({rule})"
                )
            else:
                lines.append(f"roll {e['roll']} on the {CHART_NAMES[chart]} chart ({rule})")
        elif kind == "collision":
            lines.append(
                f"collision of {piece_name(s, e['mover'])} with {piece_name(s, e['other'])} at {_hex(e['cell'])} (7.0)"
            )
        elif kind == "damage":
            if int(seen["piece_damage"][e["piece"]]) >= 0:  # 14.1: only its controller knows
                lines.append(
                    f"piece {piece_name(s, e['piece'])} takes one point of damage ({e['damage']} in all, 14.1)"
                )
        elif kind == "combat":
            result = CRT_RESULT_NAMES[e["result"]]
            odds = "no roll: no defense factor (12.3, D14)" if e["odds"] < 0 else f"odds {ODDS_NAMES[e['odds']]}"
            lines.append(
                f"combat at {_hex(e['cell'])}: attack {e['attack']} against defense {e['defense']}, "
                f"{odds}: {_CRT_WORDS.get(result, result)}"
            )
        elif kind == "eliminated":
            lines.append(
                f"{_unit_words(seen, e['unit'], e['type'], e['squads'])} eliminated at {_hex(e['cell'])} "
                f"({ELIM_REASONS[e['reason']]})"
            )
        elif kind == "breakup":
            lines.append(f"piece {piece_name(s, e['piece'])} breaks up ({BREAK_REASONS[e['reason']]}, 14.6)")
        elif kind == "control":
            lines.append(f"the Technocrat takes control of {piece_name(s, e['piece'])} (15.2)")
        elif kind == "revert":
            lines.append(f"control of {piece_name(s, e['piece'])} reverts to the Ziegler (15.3)")
        elif kind == "neutralized":
            lines.append(f"{piece_name(s, e['piece'])} is neutralized (15.4)")
        elif kind == "off_map":
            lines.append(f"{piece_name(s, e['piece'])} leaves the map: out of play (6.9)")
        elif kind == "retreat":
            lines.append(f"{_unit_words(seen, e['unit'])} retreats to {_hex(e['to_cell'])} (12.6)")
        elif kind == "squad_lost":
            lines.append(f"{_unit_words(seen, e['unit'])} loses a squad")
        elif kind == "stress":
            lines.append(f"stress on {piece_name(s, e['piece'])}: {e['units']} counters in a hex (9.3, 14.2)")
        elif kind == "setup_piece":
            what = (
                "attack platform"
                if PIECE_NAMES[e["kind"]] == "platform"
                else f"{PIECE_NAMES[e['kind']].replace('_', '-')} crustal"
            )
            lines.append(f"sets up a {what} at {_hex(e['cell'])}")
        elif kind == "setup_unit":
            if side is not None and int(UNIT_SIDE[e["type"]]) != side:  # D21 sees the deployment under D20
                lines.append(f"sets up a counter at {_hex(e['cell'])}")
            else:
                lines.append(f"sets up {_unit_words(seen, e['unit'], e['type'], e['squads'])} at {_hex(e['cell'])}")
        elif kind == "revealed":
            lines.append(f"entry refused on contact: the stack at {_hex(e['cell'])} is revealed (13.3, R13.3b)")
        elif kind == "game_over":
            lines.append(
                "stopped by max_turns: no winner (D19)"
                if e["truncated"]
                else f"game over: {RESULT_NAMES[e['result']]} (5.0)"
            )
    return lines
