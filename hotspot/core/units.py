"""Ground units (2.2.1, D4-D6): factors, counting, elimination and squad losses.

A unit's attack and defense are its type's factors from the rules options
times its squads (infantry, D4); every other unit has one "squad".

The look-ups by type are safe on information states (D20): a hidden counter
(``UNKNOWN_UNIT``) or squads (``UNKNOWN_SQUADS``) give ``UNKNOWN_FACTOR``
rather than wrapping round the tables; ``side_seen_by`` is the side of a
unit as the observer of an information state sees it.
"""

from ._jit import jit
from .events import EV_ELIMINATED, EV_SQUAD_LOST, log_event
from .rules_data import NO_UNIT, T_ENGINEER, UNIT_IS_INFANTRY, UNIT_SIDE, UNKNOWN_SQUADS, UNKNOWN_UNIT
from .state import MAX_UNITS

UNKNOWN_FACTOR = -1  # the factor of a counter whose type or size is hidden (D20)


@jit
def unit_side(s, u):
    """Side of unit u; -1 for no unit and for a hidden counter (``UNKNOWN_UNIT``)."""
    t = s["unit_type"][u]
    if t == UNKNOWN_UNIT:
        return -1
    return UNIT_SIDE[t]


@jit
def side_seen_by(s, u, observer):
    """Side of unit u as ``observer`` sees it in its information state (or in
    a state): -1 for no unit; a hidden counter is the other side's (D20: a
    side sees all of its own units)."""
    t = s["unit_type"][u]
    if t == NO_UNIT:
        return -1
    if t == UNKNOWN_UNIT:
        return 1 - observer
    return UNIT_SIDE[t]


@jit
def type_factor(s, t, defense):
    """Defense (or attack) factor of one squad of unit type t under the rules
    options (12.2, 12.3, D4); 0 for no unit, ``UNKNOWN_FACTOR`` for a hidden type."""
    if t == UNKNOWN_UNIT:
        return UNKNOWN_FACTOR
    if defense:
        return int(s["rules"]["defense"][t])
    return int(s["rules"]["attack"][t])


@jit
def _factor_of(s, u, defense):
    sq = int(s["unit_squads"][u])  # no int8 overflow
    if sq == UNKNOWN_SQUADS or s["unit_type"][u] == UNKNOWN_UNIT:
        return UNKNOWN_FACTOR
    return type_factor(s, s["unit_type"][u], defense) * sq


@jit
def attack_of(s, u):
    """Attack factor of unit u (12.2; infantry per squad, D4); ``UNKNOWN_FACTOR``
    for a counter whose type or size is hidden (information states, D20)."""
    return _factor_of(s, u, False)


@jit
def defense_of(s, u):
    """Defense factor of unit u (12.3; infantry per squad, D4); ``UNKNOWN_FACTOR``
    for a counter whose type or size is hidden (information states, D20)."""
    return _factor_of(s, u, True)


@jit
def count_units(s, cell, side):
    """Counters of ``side`` in ``cell`` (side -1: both sides).  9.1: a counter is one unit."""
    if cell < 0:
        return 0
    if side < 0:
        return s["cell_units"][cell, 0] + s["cell_units"][cell, 1]
    return s["cell_units"][cell, side]


@jit
def place_at(s, u, cell):
    """Put unit u (its type already set) in ``cell``, keeping the ``cell_units`` index."""
    old = s["unit_cell"][u]
    side = UNIT_SIDE[s["unit_type"][u]]
    if old >= 0:
        s["cell_units"][old, side] -= 1
    s["unit_cell"][u] = cell
    if cell >= 0:
        s["cell_units"][cell, side] += 1


@jit
def remove(s, u):
    """Take unit u off the board and free its slot."""
    place_at(s, u, -1)
    s["unit_type"][u] = NO_UNIT
    s["unit_squads"][u] = 0
    s["unit_from"][u] = -1
    s["unit_moves"][u] = 0
    s["unit_flags"][u] = 0


@jit
def count_by_side(s, cell):
    """(Ziegler counters, Technocrat counters) in ``cell``."""
    return s["cell_units"][cell, 0], s["cell_units"][cell, 1]


@jit
def has_units_other_than(s, cell, side, unit_type):
    """True if ``cell`` holds a unit of ``side`` whose type is not ``unit_type``."""
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t != NO_UNIT and t != unit_type and s["unit_cell"][u] == cell and UNIT_SIDE[t] == side:
            return True
    return False


@jit
def engineer_squads_left(s):
    n = 0
    for u in range(MAX_UNITS):
        if s["unit_type"][u] == T_ENGINEER:
            n += s["unit_squads"][u]
    return n


@jit
def free_unit_slot(s):
    for u in range(MAX_UNITS):
        if s["unit_type"][u] == NO_UNIT:
            return u
    return -1


@jit
def eliminate_unit(s, u, reason, ev, ev_n):
    log_event(ev, ev_n, EV_ELIMINATED, u, reason, s["unit_cell"][u], s["unit_type"][u], s["unit_squads"][u])
    remove(s, u)
    if s["sel_unit"] == u:
        s["sel_unit"] = -1


@jit
def eliminate_all_in(s, cell, side, reason, ev, ev_n):
    """Eliminate every unit of ``side`` (-1: both) in ``cell``."""
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t != NO_UNIT and s["unit_cell"][u] == cell and (side < 0 or UNIT_SIDE[t] == side):
            eliminate_unit(s, u, reason, ev, ev_n)


@jit
def lose_squad(s, cell, side, reason, elim_reason, may_ask, ev, ev_n):
    """``side`` loses one infantry squad in ``cell`` (12.5.2, 11.2).

    D15 (rules option ``losses="automatic"``, the default): the squad comes
    from the smallest infantry counter (lowest index on a tie).  With
    ``losses="owner"`` (D22) and ``may_ask``, when the side's infantry
    counters there differ in size (so that the choice matters), the loss is
    left pending for the owner to choose (``loss_side`` etc.; actions.py).
    Returns False if there was no infantry to lose.
    """
    best = -1
    sizes = 0
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t != NO_UNIT and UNIT_IS_INFANTRY[t] and UNIT_SIDE[t] == side and s["unit_cell"][u] == cell:
            sizes |= 1 << s["unit_squads"][u]
            if best < 0 or s["unit_squads"][u] < s["unit_squads"][best]:
                best = u
    if best < 0:
        return False
    if may_ask and s["rules"]["losses"] == 1 and sizes & (sizes - 1):
        s["loss_side"] = side
        s["loss_cell"] = cell
        s["loss_reason"] = reason
        s["loss_elim"] = elim_reason
        return True
    take_squad(s, best, reason, elim_reason, ev, ev_n)
    return True


@jit
def take_squad(s, u, reason, elim_reason, ev, ev_n):
    """Counter u loses one squad; a one-squad counter is eliminated (12.5.2, 11.2)."""
    log_event(ev, ev_n, EV_SQUAD_LOST, u, s["unit_cell"][u], reason, 0, 0)
    if s["unit_squads"][u] <= 1:
        eliminate_unit(s, u, elim_reason, ev, ev_n)
    else:
        s["unit_squads"][u] -= 1


@jit
def loss_error_for(s, u):
    """Can counter u take the pending loss?  (Infantry of the losing side in that hex.)"""
    t = s["unit_type"][u]
    return (
        t != NO_UNIT and UNIT_IS_INFANTRY[t] and UNIT_SIDE[t] == s["loss_side"] and s["unit_cell"][u] == s["loss_cell"]
    )


@jit
def take_pending_loss(s, u, ev, ev_n):
    """The owner chose counter u for the pending loss (D22 ``losses="owner"``)."""
    take_squad(s, u, s["loss_reason"], s["loss_elim"], ev, ev_n)
    s["loss_side"] = -1
    s["loss_cell"] = -1
    s["loss_reason"] = 0
    s["loss_elim"] = 0


@jit
def strength_key(s, u):
    """Order for D15 "remove the weakest units first": attack + defense, then index."""
    return (attack_of(s, u) + defense_of(s, u)) * 1000 + u


@jit
def infantry_counters(s, side, squads):
    """How many infantry counters of ``squads`` squads ``side`` has in play (D22 counter_cap)."""
    n = 0
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t != NO_UNIT and UNIT_IS_INFANTRY[t] and UNIT_SIDE[t] == side and s["unit_squads"][u] == squads:
            n += 1
    return n


@jit
def top_counter(s, cell, side):
    """R9.5, D20: the top counter of ``side``'s stack in ``cell`` (the one an
    opponent sees) is its lowest-index unit; -1 if it has none there."""
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t != NO_UNIT and s["unit_cell"][u] == cell and UNIT_SIDE[t] == side:
            return u
    return -1
