"""Infantry breakdowns and combining (rulebook 10.0; D4).

Counters hold 1, 2 or 3 squads; during his own regular movement phase a
player may break a counter down and combine counters.  Squads are conserved.
"""

import numpy as np
import pytest
from helpers import A_COMBINE, A_END_PHASE, A_MANEUVER, A_SELECT_UNIT, A_SPLIT, N, Pos, S, strip

from hotspot.core.actions import NUM_ACTIONS, legal_action_mask
from hotspot.core.errors import (
    ERR_CANNOT_COMBINE,
    ERR_CANNOT_SPLIT,
    ERR_NOT_INFANTRY,
    ERR_NOTHING_SELECTED,
    ERR_WRONG_PHASE,
)
from hotspot.core.events import EV_COMBAT
from hotspot.core.rules_data import (
    CRT_C,
    NO_UNIT,
    PHASE_T_COMBAT,
    PHASE_T_MOVE,
    PHASE_Z_MOVE,
    PHASE_Z_SECOND,
    T_INFANTRY,
    Z_HOVERCRAFT,
    Z_INFANTRY,
)
from hotspot.core.units import infantry_counters


def squads_in(g, hex_, unit_type):
    from helpers import C

    s = g.s
    return sum(
        int(s["unit_squads"][u])
        for u in range(len(s["unit_type"]))
        if s["unit_type"][u] == unit_type and s["unit_cell"][u] == C(hex_)
    )


def counters_in(g, hex_, unit_type):
    from helpers import C

    s = g.s
    return sorted(
        int(s["unit_squads"][u])
        for u in range(len(s["unit_type"]))
        if s["unit_type"][u] == unit_type and s["unit_cell"][u] == C(hex_)
    )


def ground():
    g = Pos()
    strip(g)
    return g


def test_split_three_squads_down_to_ones():
    """10.0: a three-squad counter breaks down into smaller counters; squads
    are conserved, the new counters stand in the same hex."""
    g = ground()
    u = g.unit(Z_INFANTRY, (3, 2), squads=3)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + u, A_SPLIT)
    assert counters_in(g, (3, 2), Z_INFANTRY) == [1, 2]
    g.act(A_SPLIT)
    assert counters_in(g, (3, 2), Z_INFANTRY) == [1, 1, 1]
    assert squads_in(g, (3, 2), Z_INFANTRY) == 3
    g.refuse(A_SPLIT, ERR_CANNOT_SPLIT)  # a one-squad counter cannot break down


def test_split_counter_keeps_movement_and_moves_separately():
    """10.0: breakdowns happen during the regular movement phase; the new
    counter has the movement left of the counter it came from."""
    g = ground()
    u = g.unit(T_INFANTRY, (3, 2), squads=2)
    g.begin(PHASE_T_MOVE, turn=2)
    g.act(A_SELECT_UNIT + u, A_MANEUVER + S, A_SPLIT)
    new = [v for v in range(96) if g.s["unit_type"][v] == T_INFANTRY and v != u][0]
    assert g.where(new) == (3, 3) and g.squads(new) == 1 and g.squads(u) == 1
    assert g.s["unit_moves"][new] == g.s["unit_moves"][u] == 2
    g.act(A_MANEUVER + S)  # u moves on
    g.act(A_SELECT_UNIT + new, A_MANEUVER + N, A_MANEUVER + N)
    assert g.where(u) == (3, 4) and g.where(new) == (3, 1)


def test_combine_into_three_squads():
    """10.0: small counters combine into a larger one (at most three squads);
    squads are conserved and the absorbed counter leaves play."""
    g = ground()
    a = g.unit(Z_INFANTRY, (3, 2), squads=2)
    b = g.unit(Z_INFANTRY, (3, 2), squads=1)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + a, A_COMBINE + b)
    assert g.squads(a) == 3 and g.s["unit_type"][b] == NO_UNIT
    assert counters_in(g, (3, 2), Z_INFANTRY) == [3]


def test_combine_limits():
    """10.0: no counter above three squads; only infantry of one type in one
    hex combines."""
    g = ground()
    a = g.unit(Z_INFANTRY, (3, 2), squads=2)
    b = g.unit(Z_INFANTRY, (3, 2), squads=2)
    c = g.unit(Z_INFANTRY, (3, 3), squads=1)
    h = g.unit(Z_HOVERCRAFT, (3, 2))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + a)
    g.refuse(A_COMBINE + b, ERR_CANNOT_COMBINE)  # 4 squads
    g.refuse(A_COMBINE + c, ERR_CANNOT_COMBINE)  # another hex
    g.refuse(A_COMBINE + h, ERR_CANNOT_COMBINE)  # not infantry
    g.refuse(A_COMBINE + a, ERR_CANNOT_COMBINE)  # itself
    g.act(A_SELECT_UNIT + h)
    g.refuse(A_SPLIT, ERR_NOT_INFANTRY)
    g.refuse(A_COMBINE + a, ERR_NOT_INFANTRY)


def test_technocrat_and_ziegler_infantry_never_combine():
    """10.0: a counter combines only with its own side's infantry."""
    g = ground()
    t = g.unit(T_INFANTRY, (3, 2), squads=1)
    z = g.unit(Z_INFANTRY, (3, 5), squads=1)
    g.begin(PHASE_T_MOVE, turn=2)
    g.act(A_SELECT_UNIT + t)
    g.refuse(A_COMBINE + z, ERR_CANNOT_COMBINE)


def test_combined_counter_keeps_smaller_movement_left():
    """10.0 (project reading R10.1): the combined counter keeps the smaller
    movement left of the two."""
    g = ground()
    a = g.unit(T_INFANTRY, (3, 1), squads=1)
    b = g.unit(T_INFANTRY, (3, 3), squads=1)
    g.begin(PHASE_T_MOVE, turn=2)
    g.act(A_SELECT_UNIT + a, A_MANEUVER + S, A_MANEUVER + S)  # a: 1 left, now with b
    g.act(A_COMBINE + b)
    assert g.squads(a) == 2 and g.s["unit_moves"][a] == 1


def test_no_breakdowns_outside_own_regular_movement():
    """10.0: breakdowns and combining only in the owning player's regular
    movement phase (not the hovercraft second movement); nothing selected,
    nothing to split."""
    g = ground()
    g.unit(Z_HOVERCRAFT, (3, 1))
    _u = g.unit(Z_INFANTRY, (3, 2), squads=3)
    v = g.unit(Z_INFANTRY, (3, 2), squads=1)
    g.begin(PHASE_Z_SECOND, turn=2)
    assert g.phase == PHASE_Z_SECOND
    g.refuse(A_SPLIT, ERR_WRONG_PHASE)
    g.refuse(A_COMBINE + v, ERR_WRONG_PHASE)
    g2 = ground()
    _u = g2.unit(Z_INFANTRY, (3, 2), squads=3)
    g2.begin(PHASE_Z_MOVE, turn=2)
    g2.refuse(A_SPLIT, ERR_NOTHING_SELECTED)


def test_split_respects_stacking_limit():
    """9.1 with 10.0: breaking a counter down adds a counter to the hex; in a
    hex already holding nine counters of the side the breakdown is refused."""
    g = ground()
    us = g.units(Z_INFANTRY, (3, 2), 9, squads=3)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + us[0])
    g.refuse(A_SPLIT, ERR_CANNOT_SPLIT)
    g.act(A_MANEUVER + S)  # moved out: both halves fit in (3,3)
    g.act(A_SPLIT)
    assert counters_in(g, (3, 3), Z_INFANTRY) == [1, 2]


# --------------------------------------------------- D22 option counter_cap
def _mask(g):
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal_action_mask(g.s, mask)
    return mask


@pytest.mark.parametrize("cap", [0, 2])
def test_counter_cap_split(cap):
    """10.0 ("Two- and three-squad units may break down into several smaller
    units"), D4 ("there is no limit on how many counters of each size
    exist"), D22 option counter_cap.  The Ziegler player has two one-squad
    counters and a three-squad counter; breaking the three down (into two
    squads and one) would give him three one-squad counters.  Unlimited (0,
    the default): legal.  Cap 2: illegal (ERR_CANNOT_SPLIT), in the mask
    too."""
    g = Pos(counter_cap=cap)
    strip(g)
    u = g.unit(Z_INFANTRY, (3, 2), squads=3)
    g.units(Z_INFANTRY, (3, 5), 2, squads=1)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + u)
    assert _mask(g)[A_SPLIT] == (cap == 0)
    if cap == 0:
        g.act(A_SPLIT)
        assert counters_in(g, (3, 2), Z_INFANTRY) == [1, 2]
    else:
        g.refuse(A_SPLIT, ERR_CANNOT_SPLIT)


@pytest.mark.parametrize("cap", [0, 1])
def test_counter_cap_combine(cap):
    """10.0 ("small units may combine into larger ones"), D22 option
    counter_cap.  Two one-squad counters a, b and a two-squad counter c in
    one hex.  a + b would make a second two-squad counter: illegal under cap 1
    (ERR_CANNOT_COMBINE), legal unlimited.  a + c makes the side's only
    three-squad counter: legal under both."""
    g = Pos(counter_cap=cap)
    strip(g)
    a = g.unit(Z_INFANTRY, (3, 2), squads=1)
    b = g.unit(Z_INFANTRY, (3, 2), squads=1)
    c = g.unit(Z_INFANTRY, (3, 2), squads=2)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + a)
    mask = _mask(g)
    assert mask[A_COMBINE + b] == (cap == 0) and mask[A_COMBINE + c]
    if cap == 0:
        g.act(A_COMBINE + b)
        assert counters_in(g, (3, 2), Z_INFANTRY) == [2, 2]
    else:
        g.refuse(A_COMBINE + b, ERR_CANNOT_COMBINE)
        g.act(A_COMBINE + c)
        assert counters_in(g, (3, 2), Z_INFANTRY) == [1, 3]


def test_counter_cap_existing_excess():
    """D22 option counter_cap (our reading, docs/rules.md): a side already
    over the cap for a size (here three one-squad counters under cap 1) may
    still make a breakdown that does not add a counter of that size
    (combining two of them into a two-squad counter), but none that adds one
    (splitting a two-squad counter into two more one-squad counters)."""
    g = Pos(counter_cap=1)
    strip(g)
    x, y, _ = g.units(Z_INFANTRY, (3, 2), 3, squads=1)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + x, A_COMBINE + y)
    assert counters_in(g, (3, 2), Z_INFANTRY) == [1, 2]
    g = Pos(counter_cap=1)  # a two-squad counter that was not made by combining (R10.2)
    strip(g)
    g.units(Z_INFANTRY, (3, 2), 3, squads=1)
    w = g.unit(Z_INFANTRY, (3, 4), squads=2)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + w)
    g.refuse(A_SPLIT, ERR_CANNOT_SPLIT)


def test_counter_cap_losses_exempt():
    """12.5.2 ("Two- and three-squad units may also break down as a result of
    casualties"), D15, D22 option counter_cap: a loss is never refused by the
    cap.  Cap 1; the Ziegler player has a one-squad counter and a two-squad
    counter; a C result takes a squad from the two-squad counter (the only
    defender), leaving him two one-squad counters."""
    g = Pos(counter_cap=1)
    strip(g)
    g.unit(Z_INFANTRY, (3, 1), squads=1)
    d = g.unit(Z_INFANTRY, (3, 4), squads=2)
    t = g.unit(T_INFANTRY, (3, 5), squads=1)
    g.begin(PHASE_T_MOVE, turn=2)
    g.move_unit(t, N)
    g.act(A_END_PHASE)
    assert g.phase == PHASE_T_COMBAT
    g.dice(3)  # 2 vs 2: 1:1, roll 3: C
    g.act(A_SELECT_UNIT + t)
    assert g.events(EV_COMBAT)[0][5] == CRT_C
    assert g.squads(d) == 1
    assert infantry_counters(g.s, 0, 1) == 2
