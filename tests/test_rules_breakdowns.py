"""Infantry breakdowns and combining (rulebook 10.0; D4).

Counters hold 1, 2 or 3 squads; during his own regular movement phase a
player may break a counter down and combine counters.  Squads are conserved.
"""
from helpers import A_COMBINE, A_MANEUVER, A_SELECT_UNIT, A_SPLIT, N, S, Pos, strip
from hotspot.core.errors import (ERR_CANNOT_COMBINE, ERR_CANNOT_SPLIT, ERR_NOT_INFANTRY,
                                 ERR_NOTHING_SELECTED, ERR_WRONG_PHASE)
from hotspot.core.rules_data import (NO_UNIT, PHASE_T_MOVE, PHASE_Z_MOVE, PHASE_Z_SECOND,
                                     T_INFANTRY, Z_HOVERCRAFT, Z_INFANTRY)


def squads_in(g, hex_, unit_type):
    from helpers import C
    s = g.s
    return sum(int(s["unit_squads"][u]) for u in range(len(s["unit_type"]))
               if s["unit_type"][u] == unit_type and s["unit_cell"][u] == C(hex_))


def counters_in(g, hex_, unit_type):
    from helpers import C
    s = g.s
    return sorted(int(s["unit_squads"][u]) for u in range(len(s["unit_type"]))
                  if s["unit_type"][u] == unit_type and s["unit_cell"][u] == C(hex_))


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
    u = g.unit(Z_INFANTRY, (3, 2), squads=3)
    v = g.unit(Z_INFANTRY, (3, 2), squads=1)
    g.begin(PHASE_Z_SECOND, turn=2)
    assert g.phase == PHASE_Z_SECOND
    g.refuse(A_SPLIT, ERR_WRONG_PHASE)
    g.refuse(A_COMBINE + v, ERR_WRONG_PHASE)
    g2 = ground()
    u = g2.unit(Z_INFANTRY, (3, 2), squads=3)
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
