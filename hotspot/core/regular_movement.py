"""Regular movement of ground units (8.0), with the second movement of
hovercraft (13.0) and overruns (11.0).

A selected unit moves one hex per STEP action, up to its movement allowance
(8.1).  8.2: units stand on crustals, platforms or the Central Crustal; a unit
moved into a molten hex is destroyed (unless the ``forbid_molten_entry``
option makes such a step illegal).  Units never step off the map (D3).  8.3,
12.1: entering a hex with enemy units ends the unit's movement and starts an
attack, except for overruns (11.1).  12.2: a unit with no attack factor may
not enter a hex holding enemy units.  Stacking limits (9.1, 9.2) hold after
every step.
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
from .hexgrid import NEIGHBOUR, ON_MAP
from .hovercraft import hovercraft_strike, reveal, second_move_may_enter, second_move_may_try
from .overruns import close_infantry_assault, overrunnable
from .rules_data import PHASE_Z_SECOND, UNIT_SIDE
from .stacking import room_for
from .state import UF_ATTACKING, UF_DONE, UF_STARTED
from .units import attack_of, count_by_side, count_units, eliminate_unit, place_at


@jit
def step_error(s, u, d):
    """Why unit u may not step in direction d now (OK if it may)."""
    if s["unit_moves"][u] <= 0:
        return ERR_NO_MOVEMENT_LEFT
    target = NEIGHBOUR[s["unit_cell"][u], d]
    if target < 0 or not ON_MAP[target]:
        return ERR_OFF_MAP
    if s["board"][target] < 0:
        return ERR_MOLTEN if s["rules"]["forbid_molten_entry"] else OK
    side = UNIT_SIDE[s["unit_type"][u]]
    z, t = count_by_side(s, target)
    own, enemy = (t, z) if side == 1 else (z, t)
    if enemy > 0:
        if attack_of(s, u) <= 0:
            return ERR_ZERO_ATTACK
        if s["phase"] == PHASE_Z_SECOND and not second_move_may_try(s, target):  # 13.3, D20
            return ERR_SECOND_MOVE_ENEMY
    if not room_for(s, target, side, own, z + t):
        return ERR_STACKING
    return OK


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
