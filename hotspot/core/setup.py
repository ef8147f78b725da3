"""Preparation for play (3.0-3.3, D12, D21): setting up as decisions.

Rule 3.2: "The Ziegler player begins with 18 hexes of crustals (not counting
Central Crustal) of any types, 42 attack factors of infantry, and 6
hovercraft units.  Crustals are placed in any molten hexes.  Infantry and
hovercraft are then placed on Central Crustal and the mobile crustals."
Rule 3.3: "The Technocrat player begins with 5 attack platforms, 24 attack
factors of infantry, 3 engineer squads, 6 crawlers, and 2 heavy beamers.
The ground units are divided among the attack platforms.  After the Ziegler
player has finished setting up, the attack platforms are placed in molten
hexes on the perimeter of the map."

D21 makes this part of the game: the state's ``pool`` holds what each side
still has to place (POOL_*; a scenario may preset any part, D21), and the
set-up phases (PHASE_Z_SETUP, then PHASE_T_SETUP) are played with three
kinds of atomic action of the one action space (actions.py):

* SETUP_CHOOSE i: choose the next item to place (ITEM_*: a crustal type, an
  infantry counter of 1-3 squads, a hovercraft, a platform, ...);
* SETUP_HEX h: the map hex (index ``row * 15 + col``) where it goes: the hex
  of a one-hex crustal, platform or unit (which completes the placement),
  or the *anchor* of a larger crustal;
* SETUP_FACING f: the facing of that crustal, which completes it (see
  :func:`footprint`: a two-hex crustal's rear is the anchor and its front
  the neighbour in direction f; a long crustal's centre is the anchor; a
  triangular crustal is the anchor and its neighbours in directions f and
  f+1).

A choice commits: there is no undo, and the mask offers an item only if it
can be placed and the rest of the pool still fits afterwards, a hex only if
the item fits there (so every sequence of legal set-up actions ends the
set-up, in at most three actions a placement).  Order (R3.1): the Ziegler
player places every crustal before his units (3.2, "then"); the Technocrat
places his platforms before loading them (3.3 lets him divide the units
first; nothing is revealed in between, so the order changes no decision).

Where a piece may go (R3.2, R3.3): crustals on molten hexes of the map, one
piece a hex (6.2), never on the Central Crustal; setting up causes no
collisions (D12).  Platforms on molten perimeter hexes of the map (3.3).
Ziegler units on hexes of the Central Crustal and his crustals; Technocrat
units on his platforms; stacking (9.1, 9.2) holds throughout; with the D22
``counter_cap`` option, no more infantry counters of a size than the cap.
"""

import numpy as np

from ._jit import jit
from .errors import (
    ERR_CHOOSE_FIRST,
    ERR_COUNTER_CAP,
    ERR_CRUSTALS_FIRST,
    ERR_FACING_NEEDED,
    ERR_ITEM_CHOSEN,
    ERR_LEAVES_NO_ROOM,
    ERR_NOT_YOUR_FORCE,
    ERR_PLATFORMS_FIRST,
    ERR_POOL_SHORT,
    ERR_SETUP_HEX,
    ERR_SETUP_NO_FACING,
    ERR_STACKING,
    OK,
)
from .events import EV_SETUP_PIECE, EV_SETUP_UNIT, log_event
from .hexgrid import MAP_HEX_CELL, NEIGHBOUR, NUM_MAP_HEXES, ON_MAP, PERIMETER
from .rules_data import (
    ITEM_AMOUNT,
    ITEM_PIECE_KIND,
    ITEM_POOL,
    ITEM_SIDE,
    ITEM_UNIT_TYPE,
    NO_PIECE,
    NUM_POOLS,
    ONE_HEX,
    PHASE_T_SETUP,
    PHASE_Z_CRUSTAL,
    PHASE_Z_SETUP,
    PLATFORM,
    POOL_SIDE,
    POOL_T_CRAWLERS,
    POOL_T_ENGINEERS,
    POOL_T_HEAVY_BEAMERS,
    POOL_T_PLATFORMS,
    POOL_T_SQUADS,
    POOL_Z_CRUSTAL_HEXES,
    POOL_Z_HOVERCRAFT,
    POOL_Z_SQUADS,
    TECHNOCRAT,
    TRIANGULAR,
    TWO_HEX,
    UNIT_IS_INFANTRY,
    ZIEGLER,
)
from .stacking import room_for_one_more, room_left
from .state import MAX_PIECES, MAX_UNITS
from .units import count_by_side, free_unit_slot, infantry_counters, place_at

NUM_FACINGS = 6

_BIG = 1 << 20


@jit
def is_setup_phase(p):
    return p == PHASE_Z_SETUP or p == PHASE_T_SETUP


@jit
def setup_phase_for(s):
    """The phase a state whose play has not begun starts in: the Ziegler set-up
    while any Ziegler pool is left, then the Technocrat's, then phase A (3.2, 3.3)."""
    for i in range(NUM_POOLS):
        if POOL_SIDE[i] == ZIEGLER and s["pool"][i] > 0:
            return PHASE_Z_SETUP
    for i in range(NUM_POOLS):
        if POOL_SIDE[i] == TECHNOCRAT and s["pool"][i] > 0:
            return PHASE_T_SETUP
    return PHASE_Z_CRUSTAL


# ------------------------------------------------------------ geometry


@jit
def footprint(kind, anchor, f):
    """(n, c0, c1, c2): the cells, in slot order (front first, 2.2.2), of a
    piece of ``kind`` set up at ``anchor`` facing ``f``; n = 0 if a cell falls
    outside the grid."""
    if kind == ONE_HEX or kind == PLATFORM:
        return 1, anchor, -1, -1
    a = NEIGHBOUR[anchor, f]
    if a < 0:
        return 0, -1, -1, -1
    if kind == TWO_HEX:
        return 2, a, anchor, -1  # front a, rear = anchor: facing f (6.4)
    if kind == TRIANGULAR:
        b = NEIGHBOUR[anchor, (f + 1) % 6]
        if b < 0:
            return 0, -1, -1, -1
        return 3, anchor, a, b
    r = NEIGHBOUR[anchor, (f + 3) % 6]  # LONG: front, centre = anchor, rear
    if r < 0:
        return 0, -1, -1, -1
    return 3, a, anchor, r


@jit
def _free_hex(s, c):
    """3.2, 6.2: a molten hex of the map (the Central Crustal's hexes are not molten)."""
    return c >= 0 and ON_MAP[c] and s["board"][c] < 0


#: the perimeter hexes of the map (3.3: where platforms set up), as cells
PERIMETER_CELLS = np.array([c for c in MAP_HEX_CELL if PERIMETER[c]], dtype=np.int64)


@jit
def _free_perimeter(s):
    """Molten perimeter hexes of the map still free for platforms (3.3)."""
    n = 0
    for i in range(PERIMETER_CELLS.shape[0]):
        if s["board"][PERIMETER_CELLS[i]] < 0:
            n += 1
    return n


@jit
def footprint_free(s, kind, anchor, f):
    n, c0, c1, c2 = footprint(kind, anchor, f)
    if n == 0 or not _free_hex(s, c0):
        return False
    if kind == PLATFORM and not PERIMETER[c0]:  # 3.3
        return False
    if n >= 2 and not _free_hex(s, c1):
        return False
    if n >= 3 and not _free_hex(s, c2):
        return False
    if kind != PLATFORM and s["pool"][POOL_T_PLATFORMS] > 0:
        # D21: leave the Technocrat a molten perimeter hex for every platform he must place
        covered = int(PERIMETER[c0]) + (int(PERIMETER[c1]) if n >= 2 else 0) + (int(PERIMETER[c2]) if n >= 3 else 0)
        if covered > 0 and _free_perimeter(s) - covered < s["pool"][POOL_T_PLATFORMS]:
            return False
    return True


@jit
def _facings(kind):
    return 1 if kind == ONE_HEX or kind == PLATFORM else NUM_FACINGS


@jit
def _anchor_free(s, kind, cell):
    for f in range(_facings(kind)):
        if footprint_free(s, kind, cell, f):
            return True
    return False


# ------------------------------------------------------------ capacity


@jit
def _unit_hex(s, cell, side):
    """A hex where ``side`` sets up units: the Central Crustal and crustals
    (Ziegler, 3.2), attack platforms (Technocrat, 3.3)."""
    if cell < 0 or not ON_MAP[cell]:
        return False
    k = s["board"][cell]
    if k < 0:
        return False
    kind = s["piece_kind"][k]
    if side == ZIEGLER:
        return kind != PLATFORM
    return kind == PLATFORM


@jit
def _room(s, side):
    """Counters ``side`` may still set up, over every hex it may use (9.1, 9.2)."""
    n = 0
    for h in range(NUM_MAP_HEXES):
        c = MAP_HEX_CELL[h]
        if _unit_hex(s, c, side):
            z, t = count_by_side(s, c)
            own = t if side == TECHNOCRAT else z
            r = room_left(s, c, own, int(z) + int(t))
            if r > 0:
                n += r
    return n


@jit
def _free_unit_slots(s):
    n = 0
    for u in range(MAX_UNITS):
        if s["unit_type"][u] == 0:
            n += 1
    return n


@jit
def _min_counters(s, side, squads, extra_size):
    """Fewest infantry counters (1-3 squads, 10.0) holding ``squads`` squads
    within the D22 counter cap, counting one more counter of ``extra_size``
    as already used (0: none); _BIG if impossible."""
    if squads <= 0:
        return 0
    cap = s["rules"]["counter_cap"]
    if cap == 0:
        return (squads + 2) // 3
    cap = int(cap)
    a1 = cap - infantry_counters(s, side, 1) - (1 if extra_size == 1 else 0)
    a2 = cap - infantry_counters(s, side, 2) - (1 if extra_size == 2 else 0)
    a3 = cap - infantry_counters(s, side, 3) - (1 if extra_size == 3 else 0)
    best = _BIG
    for n3 in range(max(0, min(a3, squads // 3)) + 1):
        for n2 in range(max(0, min(a2, (squads - 3 * n3) // 2)) + 1):
            n1 = squads - 3 * n3 - 2 * n2
            if n1 <= a1 and n1 + n2 + n3 < best:
                best = n1 + n2 + n3
    return best


@jit
def _counters_needed(s, side, item):
    """Counters ``side`` must still set up after placing ``item`` (-1: none placed)."""
    squads_pool = POOL_Z_SQUADS if side == ZIEGLER else POOL_T_SQUADS
    squads = int(s["pool"][squads_pool])
    extra = 0
    if item >= 0 and ITEM_POOL[item] == squads_pool:
        squads -= ITEM_AMOUNT[item]
        extra = ITEM_AMOUNT[item]
    n = _min_counters(s, side, squads, extra)
    if side == ZIEGLER:
        n += int(s["pool"][POOL_Z_HOVERCRAFT])
    else:
        n += int(s["pool"][POOL_T_ENGINEERS]) + int(s["pool"][POOL_T_CRAWLERS]) + int(s["pool"][POOL_T_HEAVY_BEAMERS])
    if item >= 0 and not ITEM_PIECE_KIND[item] and not UNIT_IS_INFANTRY[ITEM_UNIT_TYPE[item]]:
        n -= 1
    return n


@jit
def _free_piece_slots(s):
    n = 0
    for k in range(1, MAX_PIECES):
        if s["piece_kind"][k] == NO_PIECE:
            n += 1
    return n


# ------------------------------------------------------------ legality


@jit
def item_error(s, item):
    """Why SETUP_CHOOSE ``item`` is illegal now, or OK."""
    p = s["phase"]
    side = ZIEGLER if p == PHASE_Z_SETUP else TECHNOCRAT
    if s["setup_item"] >= 0:
        return ERR_ITEM_CHOSEN
    if ITEM_SIDE[item] != side:
        return ERR_NOT_YOUR_FORCE
    pool = ITEM_POOL[item]
    amount = ITEM_AMOUNT[item]
    if s["pool"][pool] < amount:
        return ERR_POOL_SHORT
    kind = ITEM_PIECE_KIND[item]
    if kind != NO_PIECE:
        # pieces left to place after this one: crustals (at most 3 hexes each) and platforms
        left = int(s["pool"][pool]) - amount
        need = 1 + int(s["pool"][POOL_T_PLATFORMS]) + (left + 2) // 3
        if kind == PLATFORM:
            need = int(s["pool"][POOL_T_PLATFORMS]) + (int(s["pool"][POOL_Z_CRUSTAL_HEXES]) + 2) // 3
        if need > _free_piece_slots(s):
            return ERR_LEAVES_NO_ROOM
        for h in range(NUM_MAP_HEXES):
            if _anchor_free(s, kind, MAP_HEX_CELL[h]):
                return OK
        return ERR_SETUP_HEX
    # a unit: its side's pieces first (3.2 "then", R3.1)
    if side == ZIEGLER and s["pool"][POOL_Z_CRUSTAL_HEXES] > 0:
        return ERR_CRUSTALS_FIRST
    if side == TECHNOCRAT and s["pool"][POOL_T_PLATFORMS] > 0:
        return ERR_PLATFORMS_FIRST
    t = ITEM_UNIT_TYPE[item]
    cap = s["rules"]["counter_cap"]
    if UNIT_IS_INFANTRY[t] and cap > 0 and infantry_counters(s, side, amount) >= cap:
        return ERR_COUNTER_CAP
    room = _room(s, side)
    if room == 0:
        return ERR_STACKING
    need = _counters_needed(s, side, item)
    if need > room - 1 or need > _free_unit_slots(s) - 1:
        return ERR_LEAVES_NO_ROOM
    return OK


@jit
def hex_error(s, h):
    """Why SETUP_HEX ``h`` is illegal now, or OK."""
    item = s["setup_item"]
    if item < 0:
        return ERR_CHOOSE_FIRST
    if s["setup_cell"] >= 0:
        return ERR_FACING_NEEDED
    c = MAP_HEX_CELL[h]
    kind = ITEM_PIECE_KIND[item]
    if kind != NO_PIECE:
        return OK if _anchor_free(s, kind, c) else ERR_SETUP_HEX
    side = ITEM_SIDE[item]
    if not _unit_hex(s, c, side):
        return ERR_SETUP_HEX
    if not room_for_one_more(s, c, side):
        return ERR_STACKING
    return OK


@jit
def facing_error(s, f):
    """Why SETUP_FACING ``f`` is illegal now, or OK."""
    if s["setup_item"] < 0:
        return ERR_CHOOSE_FIRST
    if s["setup_cell"] < 0:
        return ERR_SETUP_NO_FACING
    kind = ITEM_PIECE_KIND[s["setup_item"]]
    return OK if footprint_free(s, kind, s["setup_cell"], f) else ERR_SETUP_HEX


# ------------------------------------------------------------ placing


@jit
def _next_label(s, platform):
    """2.2.2, 2.2.3: the first free letter (crustals) or number (platforms)."""
    for n in range(1, 128):
        used = False
        for k in range(1, MAX_PIECES):
            kind = s["piece_kind"][k]
            if kind != NO_PIECE and (kind == PLATFORM) == platform and s["piece_label"][k] == n:
                used = True
                break
        if not used:
            return n
    return 0


@jit
def setup_piece(s, kind, c0, c1, c2, ev, ev_n):
    """Put a crustal (Ziegler's) or a platform (Technocrat's) on the board (no collisions, D12)."""
    k = 1
    while s["piece_kind"][k] != NO_PIECE:
        k += 1
    s["piece_kind"][k] = kind
    s["piece_cells"][k, 0] = c0
    s["piece_cells"][k, 1] = c1
    s["piece_cells"][k, 2] = c2
    s["piece_damage"][k] = 0
    s["piece_controller"][k] = TECHNOCRAT if kind == PLATFORM else ZIEGLER
    s["piece_neutralized"][k] = 0
    s["piece_control_turn"][k] = 0
    s["piece_moves"][k] = 0
    s["piece_flags"][k] = 0
    s["piece_stress"][k] = 0
    s["piece_label"][k] = _next_label(s, kind == PLATFORM)
    for c in (c0, c1, c2):
        if c >= 0:
            s["board"][c] = k
    log_event(ev, ev_n, EV_SETUP_PIECE, k, kind, c0, 0, 0)
    return k


@jit
def setup_unit(s, t, squads, cell, ev, ev_n):
    u = free_unit_slot(s)
    s["unit_type"][u] = t
    s["unit_squads"][u] = squads
    s["unit_cell"][u] = -1
    place_at(s, u, cell)
    s["unit_from"][u] = -1
    s["unit_moves"][u] = 0
    s["unit_flags"][u] = 0
    log_event(ev, ev_n, EV_SETUP_UNIT, u, t, squads, cell, 0)
    return u


@jit
def _placed(s, item):
    s["pool"][ITEM_POOL[item]] -= ITEM_AMOUNT[item]
    s["setup_item"] = -1
    s["setup_cell"] = -1


@jit
def choose_item(s, item):
    s["setup_item"] = item


@jit
def place_at_hex(s, h, ev, ev_n):
    item = s["setup_item"]
    c = MAP_HEX_CELL[h]
    kind = ITEM_PIECE_KIND[item]
    if kind == NO_PIECE:
        t = ITEM_UNIT_TYPE[item]
        setup_unit(s, t, ITEM_AMOUNT[item] if UNIT_IS_INFANTRY[t] else 1, c, ev, ev_n)
        _placed(s, item)
    elif _facings(kind) == 1:
        setup_piece(s, kind, c, -1, -1, ev, ev_n)
        _placed(s, item)
    else:
        s["setup_cell"] = c


@jit
def place_facing(s, f, ev, ev_n):
    item = s["setup_item"]
    kind = ITEM_PIECE_KIND[item]
    n, c0, c1, c2 = footprint(kind, s["setup_cell"], f)
    setup_piece(s, kind, c0, c1, c2, ev, ev_n)
    _placed(s, item)


@jit
def setup_done(s):
    """Has the side setting up placed its whole pool?"""
    side = ZIEGLER if s["phase"] == PHASE_Z_SETUP else TECHNOCRAT
    for i in range(NUM_POOLS):
        if POOL_SIDE[i] == side and s["pool"][i] > 0:
            return False
    return True


@jit
def pools_fit(s):
    """-1 if every force pool left can still be set up (piece slots, unit
    slots, room within 9.1/9.2 on the pieces there are and will be, the D22
    counter cap), else the index of a pool that cannot (POOL_*).  The set-up
    mask keeps this true once it holds, so a scenario is checked with it."""
    zhex = int(s["pool"][POOL_Z_CRUSTAL_HEXES])
    plat = int(s["pool"][POOL_T_PLATFORMS])
    if (zhex + 2) // 3 + plat > _free_piece_slots(s):
        return POOL_Z_CRUSTAL_HEXES if zhex > 0 else POOL_T_PLATFORMS
    if plat > _free_perimeter(s):  # 3.3: a molten perimeter hex for every platform
        return POOL_T_PLATFORMS
    zneed = _counters_needed(s, ZIEGLER, -1)
    tneed = _counters_needed(s, TECHNOCRAT, -1)
    if zneed >= _BIG:
        return POOL_Z_SQUADS
    if tneed >= _BIG:
        return POOL_T_SQUADS
    if zneed + tneed > _free_unit_slots(s):
        return POOL_Z_SQUADS if zneed > 0 else POOL_T_SQUADS
    crustal_room = min(int(s["rules"]["stack_side_crustal"]), int(s["rules"]["stack_total_crustal"]))
    if zneed > _room(s, ZIEGLER) + zhex * crustal_room:
        return POOL_Z_SQUADS
    if tneed > _room(s, TECHNOCRAT) + plat * int(s["rules"]["stack_platform"]):
        return POOL_T_SQUADS
    return -1
