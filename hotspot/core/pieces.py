"""Crustals and attack platforms on the board (2.2.2, 2.2.3, 6.2, 6.9, D2, D3, 14.6).

``board[cell]`` holds the index of the piece on each cell; units ride on the
cells of a piece and move with it.  Slot order of ``piece_cells`` gives a
piece its facing: slot 0 is the front of two-hex and long crustals, slot 1
the rear of a two-hex crustal and the centre of a long one.
"""

from ._jit import jit
from .events import ELIM_BREAKUP, ELIM_OFF_MAP, EV_BREAKUP, EV_OFF_MAP, log_event
from .hexgrid import CENTRAL_CELLS, ON_MAP, direction_between
from .rules_data import CENTRAL, LONG, MAX_PIECE_CELLS, NO_PIECE, NO_UNIT, PLATFORM, TWO_HEX
from .state import MAX_UNITS
from .units import count_units, eliminate_unit, place_at


@jit
def facing(s, k):
    """Direction the front of a two-hex or long crustal points to (6.4, 6.6); -1 for other pieces."""
    kind = s["piece_kind"][k]
    if kind != TWO_HEX and kind != LONG:
        return -1
    return facing_of(s["piece_cells"][k, 0], s["piece_cells"][k, 1])


@jit
def facing_of(front, behind):
    """Facing of a two-hex or long crustal with its front (slot 0) and its rear
    or centre (slot 1) in these cells: the direction from ``behind`` to
    ``front`` (6.4, 6.6); -1 if they are not adjacent."""
    return direction_between(behind, front)


@jit
def piece_holds(s, k, cell):
    """True if ``cell`` is one of the hexes of piece ``k``."""
    if cell < 0:
        return False
    return s["board"][cell] == k


@jit
def cells_on_map(s, k):
    n = 0
    for i in range(MAX_PIECE_CELLS):
        c = s["piece_cells"][k, i]
        if c >= 0 and ON_MAP[c]:
            n += 1
    return n


@jit
def partly_off_map(s, k):
    for i in range(MAX_PIECE_CELLS):
        c = s["piece_cells"][k, i]
        if c >= 0 and not ON_MAP[c]:
            return True
    return False


@jit
def place_central(s):
    """D2: the seven hexes of the Central Crustal are piece 0; it never moves."""
    s["piece_kind"][0] = CENTRAL
    for c in CENTRAL_CELLS:
        s["board"][c] = 0


@jit
def lift(s, k):
    for i in range(MAX_PIECE_CELLS):
        c = s["piece_cells"][k, i]
        if c >= 0:
            s["board"][c] = -1


@jit
def put_down(s, k):
    for i in range(MAX_PIECE_CELLS):
        c = s["piece_cells"][k, i]
        if c >= 0:
            s["board"][c] = k


@jit
def relocate(s, k, new_cells, ev, ev_n):
    """Move piece ``k`` to ``new_cells`` (slot for slot), carrying its units.

    D3: units on a hex that is now off the map are lost; a piece with every
    hex off the map leaves play at once with all units on it (6.9).
    Returns False if the piece left play.  ``new_cells``: a tuple or array of
    three cells (-1 unused).
    """
    old = (int(s["piece_cells"][k, 0]), int(s["piece_cells"][k, 1]), int(s["piece_cells"][k, 2]))
    carried = 0  # counters on the piece (the cell_units index: no scan of the units for an empty piece)
    for i in range(MAX_PIECE_CELLS):
        if old[i] >= 0:
            carried += count_units(s, old[i], -1)
    lift(s, k)
    if carried > 0:
        for u in range(MAX_UNITS):
            if s["unit_type"][u] == NO_UNIT:
                continue
            c = s["unit_cell"][u]
            for i in range(MAX_PIECE_CELLS):
                if old[i] >= 0 and c == old[i]:
                    place_at(s, u, new_cells[i])
                    s["unit_from"][u] = -1
                    break
    for i in range(MAX_PIECE_CELLS):
        s["piece_cells"][k, i] = new_cells[i]
    put_down(s, k)
    if carried > 0:
        for u in range(MAX_UNITS):
            if s["unit_type"][u] != NO_UNIT and s["board"][s["unit_cell"][u]] == k and not ON_MAP[s["unit_cell"][u]]:
                eliminate_unit(s, u, ELIM_OFF_MAP, ev, ev_n)
    if cells_on_map(s, k) == 0:
        log_event(ev, ev_n, EV_OFF_MAP, k, 0, 0, 0, 0)
        remove_piece(s, k, ELIM_OFF_MAP, ev, ev_n)
        return False
    return True


@jit
def remove_piece(s, k, unit_reason, ev, ev_n):
    """Take piece k out of play with every unit on it (6.9, 14.6)."""
    for u in range(MAX_UNITS):
        c = s["unit_cell"][u]
        if s["unit_type"][u] != NO_UNIT and c >= 0 and s["board"][c] == k:
            eliminate_unit(s, u, unit_reason, ev, ev_n)
    lift(s, k)
    s["piece_kind"][k] = NO_PIECE
    for i in range(MAX_PIECE_CELLS):
        s["piece_cells"][k, i] = -1
    if s["sel_piece"] == k:
        s["sel_piece"] = -1


@jit
def break_up(s, k, reason, ev, ev_n):
    """14.6: the piece and all units on it are eliminated from the game."""
    log_event(ev, ev_n, EV_BREAKUP, k, reason, 0, 0, 0)
    remove_piece(s, k, ELIM_BREAKUP, ev, ev_n)


@jit
def piece_under_unit(s, u):
    c = s["unit_cell"][u]
    if c < 0:
        return -1
    return s["board"][c]


@jit
def is_crustal(kind):
    """Crustals proper (not the Central Crustal, not platforms)."""
    return kind != NO_PIECE and kind != CENTRAL and kind != PLATFORM
