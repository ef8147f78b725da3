"""Stacking and stress (rulebook 9.0, 14.2).

9.1: at most nine units of one side in a crustal hex, twelve of both sides;
9.2: at most nine units of either or both sides on an attack platform;
9.3/14.2: more than six counters in a crustal hex (or on a platform) at the
end of a regular movement phase: one roll on the Crustal Damage Chart, a 1
is one point of damage; 9.4: the Central Crustal's limit is the same, but it
never suffers stress damage.
"""

import pytest
from helpers import A_END_PHASE, A_MANEUVER, A_SELECT_UNIT, A_SPLIT, C, N, Pos, strip

from hotspot.core.errors import ERR_STACKING
from hotspot.core.events import EV_STRESS
from hotspot.core.rules_data import (
    CHART_STRESS,
    ONE_HEX,
    PHASE_T_MOVE,
    PHASE_Z_MOVE,
    PLATFORM,
    T_CRAWLER,
    T_INFANTRY,
    TWO_HEX,
    Z_HOVERCRAFT,
    Z_INFANTRY,
)


def test_nine_units_of_one_side_per_crustal_hex():
    """9.1: a tenth Ziegler unit may not enter a crustal hex holding nine;
    an infantry counter is one unit whatever its squads (10.0)."""
    g = Pos()
    _two = g.piece(TWO_HEX, [(3, 4), (3, 5)])
    g.units(Z_INFANTRY, (3, 4), 9, squads=3)
    u = g.unit(Z_INFANTRY, (3, 5))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + u)
    g.refuse(A_MANEUVER + N, ERR_STACKING)


def test_eight_plus_one_is_allowed():
    """9.1: the ninth unit may enter."""
    g = Pos()
    g.piece(TWO_HEX, [(3, 4), (3, 5)])
    g.units(Z_INFANTRY, (3, 4), 8)
    u = g.unit(Z_HOVERCRAFT, (3, 5))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.move_unit(u, N)
    assert g.where(u) == (3, 4)


def test_twelve_units_of_both_sides_per_crustal_hex():
    """9.1: both sides together at most twelve in a crustal hex: with nine
    Ziegler units there, three Technocrat units may enter, the fourth may not."""
    g = Pos()
    g.piece(TWO_HEX, [(3, 4), (3, 5)])
    g.units(Z_INFANTRY, (3, 4), 9)
    ts = g.units(T_INFANTRY, (3, 5), 4)
    g.begin(PHASE_T_MOVE, turn=2)
    for t in ts[:3]:
        g.move_unit(t, N)
        assert g.where(t) == (3, 4)
    g.act(A_SELECT_UNIT + ts[3])
    g.refuse(A_MANEUVER + N, ERR_STACKING)


def test_nine_units_of_both_sides_on_a_platform():
    """9.2: at most nine units of either or both sides on an attack platform:
    six Technocrat units there, three Ziegler units may enter, a fourth may not."""
    g = Pos()
    _p = g.piece(PLATFORM, [(3, 4)])
    g.piece(ONE_HEX, [(3, 5)])
    g.units(T_INFANTRY, (3, 4), 6)
    zs = g.units(Z_INFANTRY, (3, 5), 4)
    g.begin(PHASE_Z_MOVE, turn=2)
    for z in zs[:3]:
        g.move_unit(z, N)
        assert g.where(z) == (3, 4)
    g.act(A_SELECT_UNIT + zs[3])
    g.refuse(A_MANEUVER + N, ERR_STACKING)


def test_nine_units_of_one_side_on_a_platform():
    """9.2: a tenth Technocrat unit may not board a platform holding nine."""
    g = Pos()
    g.piece(PLATFORM, [(3, 4)])
    g.piece(ONE_HEX, [(3, 5)])
    g.units(T_INFANTRY, (3, 4), 8)
    a, b = g.units(T_CRAWLER, (3, 5), 2)
    g.begin(PHASE_T_MOVE, turn=2)
    g.move_unit(a, N)
    assert g.where(a) == (3, 4)
    g.act(A_SELECT_UNIT + b)
    g.refuse(A_MANEUVER + N, ERR_STACKING)


def test_central_crustal_stacking_limit():
    """9.4: the crustal stacking limit applies to the Central Crustal."""
    g = Pos()
    g.units(Z_INFANTRY, (7, 10), 9)
    u = g.unit(Z_INFANTRY, (7, 11))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + u)
    g.refuse(A_MANEUVER + N, ERR_STACKING)


# ------------------------------------------------------------------ stress
def test_stress_at_end_of_regular_movement_scripted_one():
    """9.3, 14.2: seven counters in one crustal hex at the end of the Ziegler
    regular movement: one stress roll for that crustal; a 1 is one point of
    damage."""
    g = Pos()
    two = g.piece(TWO_HEX, [(3, 4), (3, 5)])
    g.units(Z_INFANTRY, (3, 4), 6)
    u = g.unit(Z_INFANTRY, (3, 5))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.move_unit(u, N)
    assert g.rolls(CHART_STRESS) == []  # rolled at the end of the phase, not on entry
    g.dice(1)
    g.act(A_END_PHASE)
    assert [r[1:4] for r in g.rolls(CHART_STRESS)] == [(CHART_STRESS, two, 1)]
    assert [r[1:4] for r in g.events(EV_STRESS)] == [(two, 0, 7)]
    assert g.s["piece_damage"][two] == 1


def test_stress_roll_above_one_no_damage():
    """14.2: a stress roll of 2-6 does no damage."""
    g = Pos()
    two = g.piece(TWO_HEX, [(3, 4), (3, 5)])
    g.units(Z_INFANTRY, (3, 4), 7)
    g.unit(Z_INFANTRY, (3, 5))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.dice(2)
    g.act(A_END_PHASE)
    assert len(g.rolls(CHART_STRESS, two)) == 1
    assert g.s["piece_damage"][two] == 0


def test_six_counters_no_stress():
    """9.3: six counters in a hex is not stress: no roll."""
    g = Pos()
    _two = g.piece(TWO_HEX, [(3, 4), (3, 5)])
    g.units(Z_INFANTRY, (3, 4), 6)
    g.units(Z_INFANTRY, (3, 5), 6)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_END_PHASE)
    assert g.rolls(CHART_STRESS) == []


def test_stress_counts_both_sides_and_each_hex():
    """14.2: stress counts the counters of both sides in a hex; each
    overstacked hex of a crustal is one roll (end of the Technocrat regular
    movement)."""
    g = Pos()
    two = g.piece(TWO_HEX, [(3, 4), (3, 5)])
    g.units(Z_INFANTRY, (3, 4), 5)
    g.units(Z_INFANTRY, (3, 5), 7)
    g.piece(ONE_HEX, [(3, 6)])  # just south of the two-hex crustal
    ts = g.units(T_INFANTRY, (3, 6), 2)
    g.begin(PHASE_T_MOVE, turn=2)
    for t in ts:
        g.act(A_SELECT_UNIT + t, A_MANEUVER + N)  # into (3,5), attacking its 7 Ziegler units
    assert g.where(ts[0]) == (3, 5) and g.where(ts[1]) == (3, 5)
    g.dice(1)
    g.act(A_END_PHASE)
    assert len(g.rolls(CHART_STRESS, two)) == 1  # (3,5): 9 counters; (3,4): 5
    assert [r[2] for r in g.events(EV_STRESS)] == [1]  # slot 1 = (3,5)
    assert g.s["piece_damage"][two] == 1


def test_stress_two_hexes_two_rolls():
    """9.3, 14.2: two overstacked hexes of one crustal: two rolls."""
    g = Pos()
    two = g.piece(TWO_HEX, [(3, 4), (3, 5)])
    g.units(Z_INFANTRY, (3, 4), 7)
    g.units(Z_INFANTRY, (3, 5), 8)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.dice(1, 1)
    g.act(A_END_PHASE)
    assert len(g.rolls(CHART_STRESS, two)) == 2
    assert g.s["piece_damage"][two] == 2


def test_platform_stress():
    """9.3: more than six units on an attack platform: stress roll for it."""
    g = Pos()
    p = g.piece(PLATFORM, [(3, 4)])
    g.units(T_INFANTRY, (3, 4), 7)
    g.piece(ONE_HEX, [(14, 20)])  # a Ziegler decision in the next turn's phase A stops play there
    g.begin(PHASE_T_MOVE, turn=2)
    g.dice(1)
    g.act(A_END_PHASE)
    assert len(g.rolls(CHART_STRESS, p)) == 1
    assert g.s["piece_damage"][p] == 1


def test_central_crustal_never_stressed():
    """9.4, 14.7: the Central Crustal never suffers damage from overstacking:
    nine counters on a Central hex, no roll."""
    g = Pos()
    g.units(Z_INFANTRY, (7, 10), 9)
    g.units(Z_INFANTRY, (7, 9), 9)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_END_PHASE)
    assert g.rolls(CHART_STRESS) == []
    assert g.events(EV_STRESS) == []
    assert g.s["piece_damage"][0] == 0


# ------------------------------------------------- D22 option stress_timing
@pytest.mark.parametrize("timing", ["every_phase", "moving_side"])
def test_stress_timing_option_movement(timing):
    """9.3 ("If more than six units are in one crustal hex or on one attack
    platform at the end of a regular movement phase ... the crustal may be
    damaged"), 4.0 F, D22 option stress_timing.  At the end of the Technocrat
    regular movement three hexes hold more than six counters: (3,5), which a
    Technocrat counter entered this phase (six + one); (3,2), seven Ziegler
    counters that did not move; a platform with seven Technocrat counters
    that did not move.  "every_phase" (default, R9.3) rolls for all three;
    "moving_side" only for the hex the moving side overstacked, (3,5)."""
    g = Pos(stress_timing=timing)
    top, mid, _ = strip(g)  # (3,1)-(3,3), (3,4)-(3,6), (3,7)-(3,9)
    ap = g.piece(PLATFORM, [(12, 4)])
    g.units(Z_INFANTRY, (3, 2), 7)
    g.units(T_INFANTRY, (3, 5), 6)
    g.units(T_INFANTRY, (12, 4), 7)
    mover = g.unit(T_INFANTRY, (3, 6))
    g.begin(PHASE_T_MOVE, turn=2)
    g.move_unit(mover, N)
    g.dice(6, 6, 6)
    g.act(A_END_PHASE)
    rolled = sorted((r[1], r[2]) for r in g.events(EV_STRESS))
    if timing == "every_phase":
        assert rolled == sorted([(top, 1), (mid, 1), (ap, 0)])
    else:
        assert rolled == [(mid, 1)]
    assert len(g.rolls(CHART_STRESS)) == len(rolled)


@pytest.mark.parametrize("timing", ["every_phase", "moving_side"])
def test_stress_timing_option_split(timing):
    """9.3, 10.0, D22 option stress_timing: a hex the moving side overstacks by
    breaking a counter down counts as overstacked by it.  In the Ziegler
    regular movement (3,2) goes from six counters to seven by a split; (3,5)
    holds seven Ziegler counters that did not move.  "every_phase" rolls for
    both; "moving_side" only for (3,2)."""
    g = Pos(stress_timing=timing)
    top, mid, _ = strip(g)
    g.units(Z_INFANTRY, (3, 2), 5)
    u = g.unit(Z_INFANTRY, (3, 2), squads=2)
    g.units(Z_INFANTRY, (3, 5), 7)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + u, A_SPLIT)
    assert g.s["cell_units"][C(3, 2), 0] == 7
    g.dice(6, 6)
    g.act(A_END_PHASE)
    rolled = sorted((r[1], r[2]) for r in g.events(EV_STRESS))
    if timing == "every_phase":
        assert rolled == sorted([(top, 1), (mid, 1)])
    else:
        assert rolled == [(top, 1)]
