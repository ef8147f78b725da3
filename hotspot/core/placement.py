"""Building positions by hand (3.2, 3.3, D12): put pieces and units into a
blank state, and check a state for every invariant of a legal position.

Used by the scenario loader, the random setup generator and the tests.
Errors name the offending piece or unit.
"""

from __future__ import annotations

import numpy as np

from .errors import short_repr
from .events import no_events
from .hexgrid import CENTRAL_CELLS, NEIGHBOUR, ON_MAP, col_row, direction_between
from .integrity import FAULTS, state_fault
from .pieces import place_central
from .rules_data import (
    CENTRAL,
    LONG,
    NO_PIECE,
    NO_UNIT,
    NUM_UNIT_TYPES,
    ONE_HEX,
    PIECE_NAMES,
    PIECE_SIZE,
    PLATFORM,
    TECHNOCRAT,
    TRIANGULAR,
    TWO_HEX,
    UNIT_IS_INFANTRY,
    UNIT_NAMES,
    UNIT_SIDE,
    ZIEGLER,
)
from .setup import setup_unit
from .state import MAX_PIECES, MAX_UNITS, empty_states


def blank_state(rules=None) -> np.ndarray:
    """A state holding only the Central Crustal (D2), turn 1, phase A, with the given rules options."""
    from .rules_data import DEFAULT_RULES

    states = empty_states(1)
    s = states[0]
    s["rules"] = (rules or DEFAULT_RULES).to_record()
    place_central(s)
    s["piece_controller"][0] = ZIEGLER
    return states


def shape_error(kind: int, cells: list[int]) -> str | None:
    """Why ``cells`` (slot order) is not a legal footprint of ``kind``, or None."""
    size = PIECE_SIZE[kind]
    if len(cells) != size:
        return f"a {PIECE_NAMES[kind]} piece has {size} hex(es), got {len(cells)}"
    if len(set(cells)) != len(cells):
        return "a hex is listed twice"
    if kind == TWO_HEX and direction_between(cells[1], cells[0]) < 0:
        return "the two hexes of a two-hex crustal must be adjacent (front first)"
    if kind == TRIANGULAR:
        for i in range(3):
            for j in range(i + 1, 3):
                if direction_between(cells[i], cells[j]) < 0:
                    return "the three hexes of a triangular crustal must be mutually adjacent"
    if kind == LONG:
        d = direction_between(cells[1], cells[0])
        if d < 0 or NEIGHBOUR[cells[1], (d + 3) % 6] != cells[2]:
            return "a long crustal's hexes must be in a straight line: front, centre, rear"
    return None


def place_piece(
    state,
    kind: int,
    cells: list[int],
    controller: int | None = None,
    damage: int = 0,
    neutralized: bool = False,
    label: int | None = None,
    control_turn: int = 0,
) -> int:
    """Add a crustal or platform; returns its index.  Raises ValueError naming what is wrong."""
    s = state[0] if state.ndim else state
    if kind not in (ONE_HEX, TWO_HEX, TRIANGULAR, LONG, PLATFORM):
        raise ValueError(f"unknown piece kind {kind!r}")
    err = shape_error(kind, list(cells))
    if err:
        raise ValueError(err)
    for c in cells:
        if not (0 <= c < len(ON_MAP)):
            raise ValueError(f"hex cell {c} is outside the playable area")
        if s["board"][c] >= 0:
            raise ValueError(f"hex {col_row(c)} is already occupied by piece {int(s['board'][c])} (6.2)")
    if not any(ON_MAP[c] for c in cells):
        raise ValueError("a piece must have at least one hex on the map (6.9)")
    free = [k for k in range(1, MAX_PIECES) if s["piece_kind"][k] == NO_PIECE]
    if not free:
        raise ValueError(f"too many pieces: at most {MAX_PIECES - 1} crustals and platforms")
    k = free[0]
    if controller is None:
        controller = TECHNOCRAT if kind == PLATFORM else ZIEGLER
    if kind == PLATFORM and controller != TECHNOCRAT:
        raise ValueError("attack platforms are always the Technocrat's (2.2.3)")
    rating = int(s["rules"]["damage_rating"][kind])
    if not 0 <= damage < max(rating, 1):
        raise ValueError(f"damage {short_repr(damage)} must be at least 0 and below the damage rating {rating} (14.6)")
    if neutralized and (kind == PLATFORM or controller != TECHNOCRAT):
        raise ValueError("only a Technocrat-controlled crustal can be neutralized (15.4)")
    s["piece_kind"][k] = kind
    s["piece_cells"][k, :] = -1
    s["piece_cells"][k, : len(cells)] = cells
    s["piece_damage"][k] = damage
    s["piece_controller"][k] = controller
    s["piece_neutralized"][k] = bool(neutralized)
    s["piece_control_turn"][k] = control_turn
    s["piece_label"][k] = k if label is None else label
    for c in cells:
        s["board"][c] = k
    return k


def place_unit(state, unit_type: int, cell: int, squads: int = 1) -> int:
    """Add a unit on a piece hex; returns its index.  Raises ValueError naming what is wrong."""
    s = state[0] if state.ndim else state
    if not 1 <= unit_type < NUM_UNIT_TYPES:
        raise ValueError(f"unknown unit type {unit_type!r}")
    if UNIT_IS_INFANTRY[unit_type]:
        if not 1 <= squads <= 3:
            raise ValueError(f"an infantry counter holds 1, 2 or 3 squads (10.0), got {short_repr(squads)}")
    elif squads != 1:
        raise ValueError(f"a {UNIT_NAMES[unit_type]} counter has no squads to set (got {short_repr(squads)})")
    if not (0 <= cell < len(ON_MAP)) or not ON_MAP[cell]:
        raise ValueError(f"cell {cell} is not on the map")
    if s["board"][cell] < 0:
        raise ValueError(f"hex {col_row(cell)} is molten: units stand on crustals or platforms (8.2)")
    if not (s["unit_type"] == NO_UNIT).any():
        raise ValueError(f"too many units: at most {MAX_UNITS}")
    ev, ev_n = no_events()
    return int(setup_unit(s, unit_type, squads, cell, ev, ev_n))


def position_errors(state) -> list[str]:
    """Every broken invariant of a position (empty list if it is legal).

    One piece a hex and the board agreeing with the pieces (6.2), shapes,
    units on piece hexes on the map (8.2, D3), stacking (9.1, 9.2).  (A piece
    whose damage reached its rating is legal until the Crustal Control phase
    breaks it up, 14.6.)  A state that breaks an invariant of the layout
    (``integrity.state_fault``: an index out of range, a corrupt field) gets
    that one error, since the checks below rely on them.
    """
    s = state[0] if state.ndim else state
    code, where = state_fault(s)
    if code:
        return [f"{FAULTS[code]} (at index {where})"]
    errors = []
    board = np.full_like(s["board"], -1)
    for c in CENTRAL_CELLS:
        board[c] = 0
    if s["piece_kind"][0] != CENTRAL:
        errors.append("piece 0 must be the Central Crustal (D2)")
    for k in range(1, MAX_PIECES):
        kind = int(s["piece_kind"][k])
        if kind == NO_PIECE:
            continue
        cells = [int(c) for c in s["piece_cells"][k] if c >= 0]
        err = shape_error(kind, cells)
        if err:
            errors.append(f"piece {k}: {err}")
        for c in cells:
            if board[c] >= 0:
                errors.append(f"piece {k}: hex {col_row(c)} also holds piece {int(board[c])} (6.2)")
            board[c] = k
    if not np.array_equal(board, s["board"]):
        errors.append("the board does not match the pieces' hexes")
    from .stacking import stacking_ok

    cells_seen = set()
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t == NO_UNIT:
            continue
        c = int(s["unit_cell"][u])
        if c < 0 or not ON_MAP[c]:
            errors.append(f"unit {u}: not on the map")
            continue
        if s["board"][c] < 0:
            errors.append(f"unit {u}: stands on molten rock at {col_row(c)} (8.2)")
        sq = int(s["unit_squads"][u])
        if (UNIT_IS_INFANTRY[t] and not 1 <= sq <= 3) or (not UNIT_IS_INFANTRY[t] and sq != 1):
            errors.append(f"unit {u}: {sq} squads (10.0)")
        cells_seen.add(c)
    index = np.zeros_like(s["cell_units"])
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t != NO_UNIT and s["unit_cell"][u] >= 0:
            index[int(s["unit_cell"][u]), UNIT_SIDE[t]] += 1
    if not np.array_equal(index, s["cell_units"]):
        errors.append("the cell_units index does not match the units' hexes")
    for c in sorted(cells_seen):
        if s["board"][c] >= 0 and not stacking_ok(s, c):
            errors.append(f"hex {col_row(c)}: over the stacking limit (9.1, 9.2)")
    return errors
