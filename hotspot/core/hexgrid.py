"""The map (2.1, D1, D2): hex geometry and lookup tables, computed once at import.

D1: a rectangular map of 15 columns x 21 rows of flat-topped hexes in the
"odd-q" offset layout (odd columns are shifted half a hex down).  Crustals and
attack platforms may move off the map (6.9, D3), so the core works on an
*extended grid*: the map plus a margin of ``MARGIN`` hexes on every side.  A
margin of 4 is more than any piece can reach: a piece with one hex on the map
reaches at most 2 hexes off it (the long crustal), one forward step more puts
it wholly off the map and it leaves play at once (D3).

Cells are numbered ``cell = (row + MARGIN) * EXT_COLS + (col + MARGIN)`` where
``(col, row)`` are the 0-based map coordinates of D1 (negative or too large
off the map).  Internally directions are numbered clockwise from north:

    0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW

so turning 60 degrees clockwise is ``d + 1`` and the opposite is ``d + 3``
(mod 6).  Axial coordinates are ``q = col``, ``r = row - (col - (col & 1)) // 2``.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit

MAP_COLS = 15  # D1
MAP_ROWS = 21  # D1
MARGIN = 4
EXT_COLS = MAP_COLS + 2 * MARGIN
EXT_ROWS = MAP_ROWS + 2 * MARGIN
NUM_CELLS = EXT_COLS * EXT_ROWS

DIRECTION_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
# axial (dq, dr) of each direction, flat-topped hexes
AXIAL_DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

CENTRAL_COL, CENTRAL_ROW = 7, 10  # D2


def cell_of(col: int, row: int) -> int:
    """Cell index of map coordinates (col, row); may be off the map but inside the margin."""
    if not (-MARGIN <= col < MAP_COLS + MARGIN and -MARGIN <= row < MAP_ROWS + MARGIN):
        raise ValueError(f"hex ({col}, {row}) is outside the playable area")
    return (row + MARGIN) * EXT_COLS + (col + MARGIN)


def col_row(cell: int) -> tuple[int, int]:
    """Map coordinates (col, row) of a cell."""
    return int(cell % EXT_COLS) - MARGIN, int(cell // EXT_COLS) - MARGIN


def axial(col: int, row: int) -> tuple[int, int]:
    return col, row - (col - (col & 1)) // 2


def from_axial(q: int, r: int) -> tuple[int, int]:
    return q, r + (q - (q & 1)) // 2


def _build_tables():
    neighbour = np.full((NUM_CELLS, 6), -1, dtype=np.int16)
    on_map = np.zeros(NUM_CELLS, dtype=np.bool_)
    perimeter = np.zeros(NUM_CELLS, dtype=np.bool_)
    for cell in range(NUM_CELLS):
        col, row = col_row(cell)
        on_map[cell] = 0 <= col < MAP_COLS and 0 <= row < MAP_ROWS
        perimeter[cell] = on_map[cell] and (col in (0, MAP_COLS - 1) or row in (0, MAP_ROWS - 1))
        q, r = axial(col, row)
        for d, (dq, dr) in enumerate(AXIAL_DIRECTIONS):
            c2, r2 = from_axial(q + dq, r + dr)
            if -MARGIN <= c2 < MAP_COLS + MARGIN and -MARGIN <= r2 < MAP_ROWS + MARGIN:
                neighbour[cell, d] = cell_of(c2, r2)
    centre = cell_of(CENTRAL_COL, CENTRAL_ROW)
    central = np.array([centre] + [neighbour[centre, d] for d in range(6)], dtype=np.int16)
    return neighbour, on_map, perimeter, central


NEIGHBOUR, ON_MAP, PERIMETER, CENTRAL_CELLS = _build_tables()
NEIGHBOUR.setflags(write=False)
ON_MAP.setflags(write=False)
PERIMETER.setflags(write=False)
CENTRAL_CELLS.setflags(write=False)


# axial coordinates (q, r) of every cell
AXIAL_Q = np.array([axial(*col_row(c))[0] for c in range(NUM_CELLS)], dtype=np.int64)
AXIAL_R = np.array([axial(*col_row(c))[1] for c in range(NUM_CELLS)], dtype=np.int64)
AXIAL_Q.setflags(write=False)
AXIAL_R.setflags(write=False)


@jit
def hex_distance(a, b):
    """Distance in hexes between two cells (compiled; callable from Python too)."""
    dq = AXIAL_Q[a] - AXIAL_Q[b]
    dr = AXIAL_R[a] - AXIAL_R[b]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@jit
def direction_between(a, b):
    """Direction d with NEIGHBOUR[a, d] == b, or -1 if the cells are not adjacent."""
    for d in range(6):
        if NEIGHBOUR[a, d] == b:
            return d
    return -1


# Set-up actions (D21) name a hex of the map by its map index
# ``row * MAP_COLS + col``: MAP_HEX_CELL[h] is its cell, CELL_MAP_HEX[cell] the
# map index of a cell (-1 off the map).
NUM_MAP_HEXES = MAP_COLS * MAP_ROWS
MAP_HEX_CELL = np.array([cell_of(h % MAP_COLS, h // MAP_COLS) for h in range(NUM_MAP_HEXES)], dtype=np.int16)
CELL_MAP_HEX = np.full(NUM_CELLS, -1, dtype=np.int16)
CELL_MAP_HEX[MAP_HEX_CELL] = np.arange(NUM_MAP_HEXES, dtype=np.int16)
MAP_HEX_CELL.setflags(write=False)
CELL_MAP_HEX.setflags(write=False)


def _distance_tables():
    """DISTANCE_TO_CENTRAL[cell]: hexes from the Central Crustal (0 on it, D2);
    DISTANCE_TO_EDGE[cell]: steps to the nearest hex off the map (0 off it, D1)."""
    centre = cell_of(CENTRAL_COL, CENTRAL_ROW)
    dq = AXIAL_Q - AXIAL_Q[centre]
    dr = AXIAL_R - AXIAL_R[centre]
    to_central = np.maximum(0, (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2 - 1).astype(np.int64)
    to_edge = np.full(NUM_CELLS, 99, dtype=np.int64)
    queue = [c for c in range(NUM_CELLS) if not ON_MAP[c]]
    to_edge[queue] = 0
    head = 0
    while head < len(queue):  # breadth-first from every off-map hex
        c = queue[head]
        head += 1
        for d in range(6):
            n = NEIGHBOUR[c, d]
            if n >= 0 and to_edge[n] > to_edge[c] + 1:
                to_edge[n] = to_edge[c] + 1
                queue.append(int(n))
    return to_central, to_edge


DISTANCE_TO_CENTRAL, DISTANCE_TO_EDGE = _distance_tables()
DISTANCE_TO_CENTRAL.setflags(write=False)
DISTANCE_TO_EDGE.setflags(write=False)
