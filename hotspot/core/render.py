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

A legend lists every piece and every stack after the map.
"""
from __future__ import annotations

from .hexgrid import MAP_COLS, MAP_ROWS, ON_MAP, cell_of, col_row
from .rules_data import (CENTRAL, NO_PIECE, NO_UNIT, PHASE_LETTERS, PHASE_NAMES, PHASE_OVER,
                         PIECE_NAMES, PLATFORM, POOL_NAMES, RESULT_NAMES, SIDE_NAMES, TECHNOCRAT, UNIT_NAMES,
                         UNIT_SIDE, UNIT_IS_INFANTRY, ZIEGLER)
from .state import MAX_PIECES, MAX_UNITS


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
        sides = {int(UNIT_SIDE[int(s["unit_type"][u])]) if s["unit_type"][u] > 0 else -2 for u in units}
        n = min(len(units), 9)
        if len(sides) > 1:
            tail = f"!{n}"
        else:
            tail = ("z" if ZIEGLER in sides else "T") + str(n)
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
            lines.append(f"{SIDE_NAMES[int(s['loss_side'])].capitalize()} chooses the counter that loses a "
                         f"squad at {col_row(int(s['loss_cell']))}")
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
        hexes = " ".join(f"({c},{r})" for c, r in (col_row(int(x)) for x in s["piece_cells"][k] if x >= 0))
        dmg = int(s["piece_damage"][k])
        status = [SIDE_NAMES[int(s["piece_controller"][k])]]
        if s["piece_neutralized"][k]:
            status.append("neutralized")
        off = sum(1 for x in s["piece_cells"][k] if x >= 0 and not ON_MAP[x])
        if off:
            status.append(f"{off} hex(es) off map")
        dmg_text = "?" if dmg < 0 else str(dmg)
        rating = int(s["rules"]["damage_rating"][kind])
        lines.append(f"  {piece_name(s, k):3s} {PIECE_NAMES[kind]:10s} {hexes:22s} damage {dmg_text}/{rating}  "
                     + ", ".join(status))
    lines.append("Stacks:")
    for cell in sorted(units_by_cell, key=lambda c: col_row(c)[::-1]):
        c, r = col_row(cell)
        lines.append(f"  ({c},{r}): " + ", ".join(unit_name(s, u) for u in units_by_cell[cell]))
    return "\n".join(lines)
