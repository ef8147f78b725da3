"""Infantry breakdowns and combining (10.0).

During its own regular movement phase a player may split one squad off a two-
or three-squad infantry counter (SPLIT, repeat to split further) and combine
two infantry counters in the same hex into one of at most three squads
(COMBINE_WITH v).  A split needs room for the new counter (9.1, 9.2).  A new counter takes the movement left of the counter it came
from; a combined counter keeps the smaller movement left of the two.
Breakdowns never change the squads of a side, so attack factors never grow
(they only move between counters).  Project decisions (docs/rules.md, R10.1):
only the selected counter, which has not finished its move, splits or
combines; no combining in a hex that holds enemy units.
"""
from ._jit import jit
from .events import EV_COMBINE, EV_SPLIT, log_event
from .rules_data import NO_UNIT, UNIT_IS_INFANTRY, UNIT_SIDE
from .state import MAX_UNITS, UF_DONE
from .stacking import room_for_one_more
from .units import free_unit_slot, has_units_other_than, place_at, remove


@jit
def can_split(s, u):
    """Two or three squads, a free counter, and room for one more counter in the hex (9.1, 9.2)."""
    t = s["unit_type"][u]
    return (UNIT_IS_INFANTRY[t] and s["unit_squads"][u] >= 2 and free_unit_slot(s) >= 0
            and room_for_one_more(s, s["unit_cell"][u], UNIT_SIDE[t]))


@jit
def split(s, u, ev, ev_n):
    """Split one squad off counter u into a new counter in the same hex."""
    v = free_unit_slot(s)
    s["unit_type"][v] = s["unit_type"][u]
    s["unit_squads"][v] = 1
    s["unit_squads"][u] -= 1
    s["unit_cell"][v] = -1
    place_at(s, v, s["unit_cell"][u])
    s["unit_from"][v] = s["unit_from"][u]
    s["unit_moves"][v] = s["unit_moves"][u]
    s["unit_flags"][v] = s["unit_flags"][u]
    log_event(ev, ev_n, EV_SPLIT, u, v, 0, 0, 0)
    return v


@jit
def can_combine(s, u, v):
    tu = s["unit_type"][u]
    if v == u or v < 0 or v >= MAX_UNITS or s["unit_type"][v] != tu or not UNIT_IS_INFANTRY[tu]:
        return False
    cell = s["unit_cell"][u]
    if s["unit_cell"][v] != cell or s["unit_squads"][u] + s["unit_squads"][v] > 3:
        return False
    enemy = 1 - UNIT_SIDE[tu]
    return not has_units_other_than(s, cell, enemy, NO_UNIT)


@jit
def combine(s, u, v, ev, ev_n):
    """Counter v joins counter u (10.0)."""
    moves_v = 0 if (s["unit_flags"][v] & UF_DONE) else s["unit_moves"][v]
    s["unit_squads"][u] += s["unit_squads"][v]
    s["unit_moves"][u] = min(s["unit_moves"][u], moves_v)
    log_event(ev, ev_n, EV_COMBINE, u, v, 0, 0, 0)
    remove(s, v)
    if s["unit_moves"][u] <= 0:  # joined by a counter that had finished: u has finished too
        s["unit_flags"][u] |= UF_DONE
        if s["sel_unit"] == u:
            s["sel_unit"] = -1
