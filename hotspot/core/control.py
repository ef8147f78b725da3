"""Technocrat engineer squads (15.0): control, reversion, neutralization and
control of the Central Crustal.  The order inside the Crustal Control phase
is D18 (see sequence.py).

15.2: a crustal (the Central Crustal too, 15.5) with engineers and no Ziegler
combat units (D6: Ziegler units with attack > 0) on any of its hexes: the
Technocrat rolls one die per engineer squad; a roll <= ``control_roll_max``
(1 or 2) takes control.  Project decision R15.2: the attempt costs nothing and
is always made.  15.3: a controlled crustal with no engineer on it reverts.
15.4: a crustal controlled since before this phase may be neutralized by its
engineers (one die per squad), whatever Ziegler units are on it; neutralized
crustals never move and never revert.

Rules option ``control_blocker`` (D22; 15.2 "No Ziegler combat units may be
on the crustal", applied to the Central Crustal by 15.5): ``"crustal"`` (the
default) blocks every attempt on a crustal while a Ziegler combat unit
stands on any of its hexes; ``"hex"`` blocks only the engineer squads whose
own hex holds a Ziegler combat unit: every other engineer squad on the
crustal still rolls its die.
"""

import numpy as np

from ._jit import jit
from .dice import roll_die
from .events import EV_CONTROL, EV_NEUTRALIZED, EV_REVERT, log_event
from .pieces import is_crustal
from .rules_data import (
    CENTRAL,
    CHART_CONTROL,
    CHART_NEUTRALIZE,
    CONTROL_BLOCKER_HEX,
    NO_PIECE,
    NO_UNIT,
    PLATFORM,
    T_ENGINEER,
    TECHNOCRAT,
    UNIT_SIDE,
    ZIEGLER,
)
from .state import MAX_PIECES, MAX_UNITS, PF_NEUTRALIZE_TRIED
from .units import attack_of


@jit
def engineers_on(s, k):
    """Engineer squads on piece k."""
    n = 0
    for u in range(MAX_UNITS):
        if s["unit_type"][u] == T_ENGINEER and s["unit_cell"][u] >= 0 and s["board"][s["unit_cell"][u]] == k:
            n += s["unit_squads"][u]
    return n


@jit
def ziegler_combat_units_in(s, cell):
    """Ziegler combat units (D6: attack > 0) in ``cell``."""
    n = 0
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t != NO_UNIT and UNIT_SIDE[t] == ZIEGLER and s["unit_cell"][u] == cell and attack_of(s, u) > 0:
            n += 1
    return n


@jit
def control_squads(s, k, engineers, blockers):
    """15.2, 15.5: the engineer squads on piece k that may attempt control
    (one die each).  ``control_blocker="crustal"`` (default): all of them,
    unless a Ziegler combat unit (D6) is anywhere on the crustal (then none);
    ``"hex"`` (D22): those whose own hex holds no Ziegler combat unit.
    ``engineers``, ``blockers``: the counts of :func:`tally_by_piece`."""
    if s["rules"]["control_blocker"] == CONTROL_BLOCKER_HEX:
        n = 0
        for u in range(MAX_UNITS):
            cell = s["unit_cell"][u]
            if (
                s["unit_type"][u] == T_ENGINEER
                and cell >= 0
                and s["board"][cell] == k
                and ziegler_combat_units_in(s, cell) == 0
            ):
                n += s["unit_squads"][u]
        return n
    return 0 if blockers[k] > 0 else engineers[k]


@jit
def tally_by_piece(s, engineers, blockers):
    """``engineers[k]``: engineer squads on piece k (what ``engineers_on``
    counts); ``blockers[k]``: Ziegler combat units on it (D6: attack > 0);
    for every piece in one pass over the units."""
    engineers[:] = 0
    blockers[:] = 0
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        cell = s["unit_cell"][u]
        if t == NO_UNIT or cell < 0 or s["board"][cell] < 0:
            continue
        k = s["board"][cell]
        if t == T_ENGINEER:
            engineers[k] += s["unit_squads"][u]
        elif UNIT_SIDE[t] == ZIEGLER and attack_of(s, u) > 0:
            blockers[k] += 1


@jit
def control_attempts(s, ev, ev_n):
    """D18 step 1 (15.2, 15.5).  Returns True if the Central Crustal was taken."""
    engineers = np.zeros(MAX_PIECES, dtype=np.int64)
    blockers = np.zeros(MAX_PIECES, dtype=np.int64)
    tally_by_piece(s, engineers, blockers)
    for k in range(MAX_PIECES):
        kind = s["piece_kind"][k]
        if kind == NO_PIECE or kind == PLATFORM or s["piece_controller"][k] != ZIEGLER or engineers[k] == 0:
            continue
        squads = control_squads(s, k, engineers, blockers)  # 15.2 and the option control_blocker (D22)
        if squads == 0:
            continue
        won = False
        for _ in range(squads):
            if roll_die(s, CHART_CONTROL, k, ev, ev_n) <= s["rules"]["control_roll_max"]:
                won = True
        if won:
            s["piece_controller"][k] = TECHNOCRAT
            s["piece_control_turn"][k] = s["turn"]
            log_event(ev, ev_n, EV_CONTROL, k, 0, 0, 0, 0)
            if kind == CENTRAL:
                return True
    return False


@jit
def reversions(s, ev, ev_n):
    """D18 step 2 (15.3)."""
    for k in range(MAX_PIECES):
        if (
            is_crustal(s["piece_kind"][k])
            and s["piece_controller"][k] == TECHNOCRAT
            and not s["piece_neutralized"][k]
            and engineers_on(s, k) == 0
        ):
            s["piece_controller"][k] = ZIEGLER
            s["piece_control_turn"][k] = 0
            log_event(ev, ev_n, EV_REVERT, k, 0, 0, 0, 0)


@jit
def can_neutralize(s, k):
    """15.4: controlled since an earlier phase, not yet neutralized, engineers on it, not tried this phase."""
    return (
        is_crustal(s["piece_kind"][k])
        and s["piece_controller"][k] == TECHNOCRAT
        and not s["piece_neutralized"][k]
        and s["piece_control_turn"][k] < s["turn"]
        and not (s["piece_flags"][k] & PF_NEUTRALIZE_TRIED)
        and engineers_on(s, k) > 0
    )


@jit
def attempt_neutralize(s, k, ev, ev_n):
    """D18 step 3 (15.4): one die per engineer squad."""
    s["piece_flags"][k] |= PF_NEUTRALIZE_TRIED
    won = False
    for _ in range(engineers_on(s, k)):
        if roll_die(s, CHART_NEUTRALIZE, k, ev, ev_n) <= s["rules"]["neutralize_roll_max"]:
            won = True
    if won:
        s["piece_neutralized"][k] = 1
        log_event(ev, ev_n, EV_NEUTRALIZED, k, 0, 0, 0, 0)
