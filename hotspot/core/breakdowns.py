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

Rules option ``counter_cap`` (D22 on D4's "no limit on how many counters of
each size exist"): 0 (default) is unlimited; N > 0 gives each side at most N
infantry counters of each size (1, 2 and 3 squads) in play.  A split or a
combine is illegal if afterwards the side would have more than N counters of
a size whose number it increases (so a breakdown never creates or enlarges an
excess; a side already over the cap for a size, e.g. after losses, may still
make every breakdown that does not add a counter of that size).  Losses
(12.5.2, 11.2: ``units.lose_squad``) are exempt: a squad lost from a
two-squad counter leaves a one-squad counter even over the cap.  The cap at
set-up is enforced where counters are placed, not here.

Rules option ``stress_timing="moving_side"`` (D22, 9.3): a counter made by a
split is flagged ``UF_SPLIT`` for the rest of the phase, so that
``damage.stress_check_all`` knows the moving side added it to its hex.
"""

from ._jit import jit
from .events import EV_COMBINE, EV_SPLIT, log_event
from .rules_data import STRESS_MOVING_SIDE, UNIT_IS_INFANTRY, UNIT_SIDE
from .stacking import room_for_one_more
from .state import MAX_UNITS, UF_DONE, UF_SPLIT
from .units import count_units, free_unit_slot, infantry_counters, place_at, remove


@jit
def within_counter_cap(s, side, lost_a, lost_b, made_a, made_b):
    """D22 ``counter_cap``: may ``side`` replace infantry counters of ``lost_a``
    and ``lost_b`` squads by counters of ``made_a`` and ``made_b`` squads (0 =
    none)?  False if afterwards it would hold more than the cap of counters of
    a size whose number the change increases.  Always True with cap 0."""
    cap = s["rules"]["counter_cap"]
    if cap <= 0:
        return True
    for size in range(1, 4):
        delta = int(made_a == size) + int(made_b == size) - int(lost_a == size) - int(lost_b == size)
        if delta > 0 and infantry_counters(s, side, size) + delta > cap:
            return False
    return True


@jit
def can_split(s, u):
    """Two or three squads, a free counter, and room for one more counter in
    the hex (9.1, 9.2); within the counter cap (D22): a counter of q squads
    becomes one of q - 1 and one of 1."""
    t = s["unit_type"][u]
    q = s["unit_squads"][u]
    return (
        UNIT_IS_INFANTRY[t]
        and q >= 2
        and free_unit_slot(s) >= 0
        and room_for_one_more(s, s["unit_cell"][u], UNIT_SIDE[t])
        and within_counter_cap(s, UNIT_SIDE[t], q, 0, q - 1, 1)
    )


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
    if s["rules"]["stress_timing"] == STRESS_MOVING_SIDE:  # 9.3, D22: the mover added a counter here
        s["unit_flags"][v] |= UF_SPLIT
    log_event(ev, ev_n, EV_SPLIT, u, v, 0, 0, 0)
    return v


@jit
def can_combine(s, u, v):
    tu = s["unit_type"][u]
    if v == u or v < 0 or v >= MAX_UNITS or s["unit_type"][v] != tu or not UNIT_IS_INFANTRY[tu]:
        return False
    cell = s["unit_cell"][u]
    qu = s["unit_squads"][u]
    qv = s["unit_squads"][v]
    if s["unit_cell"][v] != cell or qu + qv > 3:
        return False
    if count_units(s, cell, 1 - UNIT_SIDE[tu]) > 0:  # R10.1: not in a hex holding enemy units
        return False
    return within_counter_cap(s, UNIT_SIDE[tu], qu, qv, qu + qv, 0)  # D22 counter_cap


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
