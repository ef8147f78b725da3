"""Regular movement of ground units (8.0), with the second movement of
hovercraft (13.0) and overruns (11.0).

A selected unit moves one hex per STEP action, up to its movement allowance
(8.1).  8.2: units stand on crustals, platforms or the Central Crustal; a unit
moved into a molten hex is destroyed (unless the ``forbid_molten_entry``
option makes such a step illegal).  Units never step off the map (D3).  8.3,
12.1: entering a hex with enemy units ends the unit's movement and starts an
attack, except for overruns (11.1).  12.2: a unit with no attack factor may
not enter a hex holding enemy units.  Stacking limits (9.1, 9.2) hold after
every step.  ``enter_error`` is the legality of a step into a hex, ``reach``
the hexes a counter could move into or attack by such steps (the reach planes
of ``hotspot.features.planes``).
"""

from ._jit import jit
from .errors import (
    ERR_MOLTEN,
    ERR_NO_MOVEMENT_LEFT,
    ERR_OFF_MAP,
    ERR_SECOND_MOVE_ENEMY,
    ERR_STACKING,
    ERR_ZERO_ATTACK,
    OK,
)
from .events import ELIM_MOLTEN, EV_UNIT_MOVE, log_event
from .hexgrid import NEIGHBOUR, NUM_CELLS, ON_MAP
from .hovercraft import hovercraft_strike, reveal, second_move_may_enter, second_move_may_try
from .overruns import close_infantry_assault, overrunnable, type_overruns
from .rules_data import PHASE_Z_SECOND, UNIT_SIDE
from .stacking import room_for
from .state import UF_ATTACKING, UF_DONE, UF_STARTED
from .units import count_by_side, count_units, eliminate_unit, place_at, type_factor


@jit
def step_error(s, u, d):
    """Why unit u may not step in direction d now (OK if it may)."""
    if s["unit_moves"][u] <= 0:
        return ERR_NO_MOVEMENT_LEFT
    target = NEIGHBOUR[s["unit_cell"][u], d]
    if target < 0 or not ON_MAP[target]:
        return ERR_OFF_MAP
    return enter_error(s, s["unit_type"][u], target, s["phase"] == PHASE_Z_SECOND)


@jit
def enter_error(s, t, target, second):
    """Why a counter of type ``t`` may not step into the map hex ``target``
    (OK if it may; ``second``: in the Ziegler second movement, 13.3).  A step
    into molten rock is legal and destroys the counter (8.2) unless the
    ``forbid_molten_entry`` option forbids it."""
    if s["board"][target] < 0:
        return ERR_MOLTEN if s["rules"]["forbid_molten_entry"] else OK
    side = UNIT_SIDE[t]
    z, tt = count_by_side(s, target)
    own, enemy = (tt, z) if side == 1 else (z, tt)
    if enemy > 0:
        if type_factor(s, t, False) <= 0:  # 12.2
            return ERR_ZERO_ATTACK
        if second and not second_move_may_try(s, target):  # 13.3, D20
            return ERR_SECOND_MOVE_ENEMY
    if not room_for(s, target, side, own, z + tt):
        return ERR_STACKING
    return OK


#: ``reach`` marks: the counter may move into the hex / attack the enemy units there
REACH_ENTER = 1
REACH_ATTACK = 2


@jit
def reach(s, t, start, moves, scratch, out):
    """Where a counter of type ``t`` standing in ``start`` could go in a
    regular movement of ``moves`` hexes, everything else standing as it is:
    ``out[cell] |= REACH_ENTER`` for a hex it could move into (empty or its
    side's: 8.1 one hex a step, D3 never off the map, 9.1-9.2 the stacking
    limits as the counters stand) and ``REACH_ATTACK`` for a hex of enemy
    units it could move into to attack (8.3: its movement ends there, unless
    it overruns them, 11.1; 12.2: not with no attack factor).  A step into
    molten rock destroys it (8.2), so molten rock is never reached; a Close
    Infantry Assault's die (11.2) is not rolled: a marked hex is one it *may*
    reach.  The legality of each step is :func:`enter_error`'s, as for a
    unit's STEP; ``start`` itself is not marked.  Works on an information
    state (D20: a hidden counter blocks an overrun).  ``scratch`` (int64,
    ``2 * NUM_CELLS``) is work space; ``out`` (per cell) is not cleared."""
    side = UNIT_SIDE[t]
    left = scratch[:NUM_CELLS]  # moves left on first reaching a cell (-1 not yet): every step costs one
    queue = scratch[NUM_CELLS:]
    left[:] = -1
    left[start] = moves
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        c = queue[head]
        head += 1
        if left[c] <= 0:
            continue
        for d in range(6):
            target = NEIGHBOUR[c, d]
            if target < 0 or target == start or not ON_MAP[target] or s["board"][target] < 0:
                continue
            if enter_error(s, t, target, False) != OK:
                continue
            if count_units(s, target, 1 - side) > 0:
                out[target] |= REACH_ATTACK
                if not type_overruns(s, t, target):
                    continue
            else:
                out[target] |= REACH_ENTER
            if left[target] < 0:
                left[target] = left[c] - 1
                queue[tail] = target
                tail += 1


@jit
def step_destroys(s, u, d):
    """True if unit u stepping in direction d enters a molten hex and is destroyed (8.2)."""
    target = NEIGHBOUR[s["unit_cell"][u], d]
    return target >= 0 and ON_MAP[target] and s["board"][target] < 0


@jit
def finish_unit(s, u):
    """End unit u's move; in a hex with enemy units it is now attacking (8.3)."""
    s["unit_flags"][u] |= UF_DONE
    side = UNIT_SIDE[s["unit_type"][u]]
    if count_units(s, s["unit_cell"][u], 1 - side) > 0:
        s["unit_flags"][u] |= UF_ATTACKING
        s["unit_moves"][u] = 0
    if s["sel_unit"] == u:
        s["sel_unit"] = -1


@jit
def step_unit(s, u, d, ev, ev_n):
    """Move unit u one hex in direction d (legality checked by the caller)."""
    here = s["unit_cell"][u]
    target = NEIGHBOUR[here, d]
    side = UNIT_SIDE[s["unit_type"][u]]
    s["unit_flags"][u] |= UF_STARTED
    if s["phase"] == PHASE_Z_SECOND and count_units(s, target, 1 - side) > 0 and not second_move_may_enter(s, target):
        # R13.3b: refused on contact; the stack is revealed and the move ends
        reveal(s, target, u, ev, ev_n)
        s["unit_moves"][u] = 0
        finish_unit(s, u)
        return
    if count_units(s, here, 1 - side) > 0:  # leaving a hex it overran (11.2)
        if not close_infantry_assault(s, u, ev, ev_n):
            return
    log_event(ev, ev_n, EV_UNIT_MOVE, u, here, target, 0, 0)
    if step_destroys(s, u, d):  # 8.2
        eliminate_unit(s, u, ELIM_MOLTEN, ev, ev_n)
        return
    place_at(s, u, target)
    s["unit_from"][u] = here
    s["unit_moves"][u] -= 1
    if count_units(s, target, 1 - side) > 0:
        if s["phase"] == PHASE_Z_SECOND:  # 13.3, D17
            hovercraft_strike(s, target, ev, ev_n)
            s["unit_moves"][u] = 0
        elif not overrunnable(s, u, target):  # 8.3
            s["unit_moves"][u] = 0
    if s["unit_moves"][u] <= 0:
        finish_unit(s, u)
