"""Combat (12.0): odds, the Combat Results Table, casualties and retreats.

A hex holding units of both sides in a combat phase is contested; the side
whose combat phase it is attacks there (12.1).  The attacker chooses the
order (12.7) by naming, for each combat, the first of its units in the hex.
"""

import numpy as np

from ._jit import jit
from .damage import stress_check_at
from .dice import roll_die
from .events import ELIM_COMBAT, ELIM_OVERSTACK, ELIM_RETREAT, EV_COMBAT, EV_RETREAT, SQUAD_LOST_COMBAT, log_event
from .hexgrid import ON_MAP
from .rules_data import (
    CHART_CRT,
    CRT_C,
    CRT_TABLES,
    CRT_X,
    NO_UNIT,
    PHASE_PLAYER,
    T_INFANTRY,
    TECHNOCRAT,
    UNIT_SIDE,
    Z_INFANTRY,
)
from .stacking import side_limit
from .state import MAX_UNITS, UF_ATTACKING
from .units import (
    attack_of,
    count_units,
    defense_of,
    eliminate_all_in,
    eliminate_unit,
    lose_squad,
    place_at,
    strength_key,
)


@jit
def odds_column(attack, defense):
    """D14: the CRT column (0 = 1:3 .. 5 = 4:1) of ``attack`` against ``defense`` > 0.

    12.4: rounded in the defender's favour; worse than 1:3 is 1:3, better than
    4:1 is 4:1 (16.0).
    """
    if attack >= defense:
        ratio = attack // defense  # n:1
        return min(ratio, 4) + 1
    ratio = (defense + attack - 1) // attack if attack > 0 else 3  # 1:n
    return 3 - min(ratio, 3)


@jit
def combat_leader(s, cell, side):
    """The lowest-index unit of ``side`` in ``cell`` (names the combat there)."""
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t != NO_UNIT and s["unit_cell"][u] == cell and UNIT_SIDE[t] == side:
            return u
    return -1


@jit
def is_combat_leader(s, u):
    """True if u belongs to the player in this combat phase and names a contested hex."""
    t = s["unit_type"][u]
    if t == NO_UNIT:
        return False
    side = UNIT_SIDE[t]
    cell = s["unit_cell"][u]
    return side == PHASE_PLAYER[s["phase"]] and count_units(s, cell, 1 - side) > 0 and combat_leader(s, cell, side) == u


@jit
def any_combat(s):
    side = PHASE_PLAYER[s["phase"]]
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t != NO_UNIT and UNIT_SIDE[t] == side and count_units(s, s["unit_cell"][u], 1 - side) > 0:
            return True
    return False


@jit
def _defense_total(s, cell, side):
    """12.3, D6: only units with a defense factor add to the defense."""
    total = 0
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t != NO_UNIT and s["unit_cell"][u] == cell and UNIT_SIDE[t] == side:
            total += defense_of(s, u)
    return total


@jit
def _infantry_of(side):
    return T_INFANTRY if side == TECHNOCRAT else Z_INFANTRY


@jit
def resolve_combat(s, cell, ev, ev_n):
    """12.4-12.6: resolve the combat in ``cell``.

    The Combat Results Table is ``rules_data.CRT_TABLES[combat_table]``: D13's
    rows 4-6 by default, or the strict continuation of the diagonals of the
    printed rows 1-3 (D22 option ``combat_table="diagonal"``)."""
    attacker = PHASE_PLAYER[s["phase"]]
    defender = 1 - attacker
    attack = 0
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t != NO_UNIT and s["unit_cell"][u] == cell and UNIT_SIDE[t] == attacker:
            attack += attack_of(s, u)
    defense = _defense_total(s, cell, defender)
    if defense <= 0:  # 12.3, D14: defenders without defense factors are eliminated, no roll
        log_event(ev, ev_n, EV_COMBAT, cell, attack, defense, -1, CRT_X)
        eliminate_all_in(s, cell, defender, ELIM_COMBAT, ev, ev_n)
    else:
        column = odds_column(attack, defense)
        roll = roll_die(s, CHART_CRT, cell, ev, ev_n)
        # 16.0: rows 1-3 printed; rows 4-6 by the rules option combat_table
        # (D22): D13's completion (default) or the printed diagonals continued
        result = CRT_TABLES[s["rules"]["combat_table"], roll - 1, column]
        log_event(ev, ev_n, EV_COMBAT, cell, attack, defense, column, result)
        if result == CRT_X:  # 12.5.3
            eliminate_all_in(s, cell, defender, ELIM_COMBAT, ev, ev_n)
        elif result == CRT_C:  # 12.5.2
            # D22 losses="owner": the defender chooses the counter, unless the loss
            # leaves no defense (then everything there goes, whatever the choice);
            # every infantry squad of a side has the same defense, so what follows
            # (12.3, retreat) does not depend on the choice
            left = defense - int(s["rules"]["defense"][_infantry_of(defender)])
            lose_squad(s, cell, defender, SQUAD_LOST_COMBAT, ELIM_COMBAT, left > 0, ev, ev_n)
            if _defense_total(s, cell, defender) <= 0:  # 12.3: unprotected zero-defense units
                eliminate_all_in(s, cell, defender, ELIM_COMBAT, ev, ev_n)
    if count_units(s, cell, defender) > 0:
        retreat(s, cell, attacker, ev, ev_n)  # 12.5.1, 12.5.2, 12.6
    else:
        for u in range(MAX_UNITS):  # 12.5.3: attackers remain in the hex
            if s["unit_type"][u] != NO_UNIT and s["unit_cell"][u] == cell:
                s["unit_flags"][u] &= ~UF_ATTACKING


@jit
def retreat(s, cell, side, ev, ev_n):
    """12.6, D16: each attacker goes back to the hex it entered from; it is
    eliminated if that hex is molten, off the map or holds enemy units.  Then
    each hex retreated into keeps at most its stacking limit (D15: the weakest
    retreating units are removed) and rolls for stress if over six (14.2)."""
    targets = np.full(MAX_UNITS, -1, dtype=np.int64)
    moved = np.zeros(MAX_UNITS, dtype=np.bool_)
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t == NO_UNIT or s["unit_cell"][u] != cell or UNIT_SIDE[t] != side:
            continue
        to = s["unit_from"][u]
        if to < 0 or not ON_MAP[to] or s["board"][to] < 0 or count_units(s, to, 1 - side) > 0:
            eliminate_unit(s, u, ELIM_RETREAT, ev, ev_n)
            continue
        log_event(ev, ev_n, EV_RETREAT, u, cell, to, 0, 0)
        place_at(s, u, to)
        s["unit_from"][u] = -1
        s["unit_flags"][u] &= ~UF_ATTACKING
        targets[u] = to
        moved[u] = True
    for u in range(MAX_UNITS):
        to = targets[u]
        if to < 0:
            continue
        first = True
        for v in range(u):
            if targets[v] == to:
                first = False
        if not first:
            continue
        while count_units(s, to, side) > side_limit(s, to):
            weakest = -1
            for v in range(MAX_UNITS):
                if moved[v] and targets[v] == to and s["unit_type"][v] != NO_UNIT:
                    if weakest < 0 or strength_key(s, v) < strength_key(s, weakest):
                        weakest = v
            if weakest < 0:
                break
            eliminate_unit(s, weakest, ELIM_OVERSTACK, ev, ev_n)
            moved[weakest] = False
        stress_check_at(s, to, False, False, ev, ev_n)
