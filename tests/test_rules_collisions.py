"""Collisions (rulebook 7.0, 14.3; decisions D9, D10): the six examples of 7.6
rebuilt as positions, with the exact number of Crustal Damage Chart rolls
for every piece involved.

Map geometry (D1, odd-q): in an even column, NE of (c, r) is (c+1, r-1); in an
odd column it is (c+1, r).  Zones of contact (7.1) are the hexes adjacent to
a piece.
"""

import pytest
from helpers import A_END_PHASE, A_MANEUVER, A_SELECT_PIECE, NE, SE, C, N, Pos, S, nb

from hotspot.core.crustal_movement import M_FORWARD, M_STEP, M_TURN_LEFT, M_TURN_RIGHT
from hotspot.core.errors import ERR_NOTHING_SELECTED, ERR_PIECE_DONE
from hotspot.core.events import EV_COLLISION, EV_DAMAGE
from hotspot.core.hexgrid import CENTRAL_CELLS
from hotspot.core.rules_data import (
    CHART_CRUSTAL_DAMAGE,
    LONG,
    ONE_HEX,
    PHASE_T_CRUSTAL,
    PHASE_Z_CRUSTAL,
    PLATFORM,
    T_ENGINEER,
    TECHNOCRAT,
    TRIANGULAR,
    TWO_HEX,
)
from hotspot.core.state import PF_DONE


def adjacent(a, b):
    return b in [nb(a, d) for d in range(6)]


def touches(hex_, piece_hexes):
    return any(adjacent(hex_, h) for h in piece_hexes)


# ---------------------------------------------------------------- example 1
def test_example1_platform_runs_into_two_hex_crustal():
    """7.6 example 1, 7.1, 7.3, 7.4: an attack platform enters the zone of
    contact of a two-hex crustal: one collision; the platform stops at once and
    loses its two remaining hexes; one damage roll for the platform and one for
    the crustal (mover first, D9)."""
    g = Pos()
    g.piece(PLATFORM, [(14, 0)])  # spare platform, keeps phase E open
    crustal = g.piece(TWO_HEX, [(8, 4), (8, 5)])
    ap = g.piece(PLATFORM, [(5, 4)])
    g.begin(PHASE_T_CRUSTAL, turn=2)
    g.dice(1, 6)
    g.act(A_SELECT_PIECE + ap, A_MANEUVER + M_STEP + NE)  # (6,4): not in the zone of contact
    assert g.events(EV_COLLISION) == []
    g.act(A_MANEUVER + M_STEP + SE)  # (7,4): adjacent to (8,4) and (8,5)
    assert g.cells(ap) == [(7, 4)]
    assert touches((7, 4), [(8, 4), (8, 5)]) and not touches((6, 4), [(8, 4), (8, 5)])
    assert [r[1:4] for r in g.events(EV_COLLISION)] == [(ap, crustal, C(7, 4))]
    assert g.damage_rolls(ap) == 1 and g.damage_rolls(crustal) == 1
    assert g.s["piece_damage"][ap] == 1 and g.s["piece_damage"][crustal] == 0
    # 7.3: the platform may no longer move this phase (two hexes unused are lost)
    assert g.s["piece_flags"][ap] & PF_DONE and g.s["piece_moves"][ap] == 0
    g.refuse(A_MANEUVER + M_STEP + N, ERR_NOTHING_SELECTED)
    g.refuse(A_SELECT_PIECE + ap, ERR_PIECE_DONE)


# ---------------------------------------------------------------- example 2
def test_example2_triangular_runs_into_controlled_long():
    """7.6 example 2, D9: a Ziegler triangular crustal shifts into a long
    crustal held by the Technocrat; two of the hexes it newly enters lie in the
    long crustal's zone of contact: two collisions, two rolls for each."""
    g = Pos()
    long_ = g.piece(LONG, [(8, 4), (8, 5), (8, 6)], controller=TECHNOCRAT, control_turn=1)
    g.unit(T_ENGINEER, (8, 5))
    tri = g.piece(TRIANGULAR, [(6, 5), (6, 6), (5, 5)])
    g.piece(ONE_HEX, [(14, 20)])  # spare
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.dice(1, 6, 6, 1)
    g.act(A_SELECT_PIECE + tri, A_MANEUVER + M_STEP + NE)
    assert g.cells(tri) == [(7, 4), (7, 5), (6, 5)]
    assert [r[3] for r in g.events(EV_COLLISION)] == [C(7, 4), C(7, 5)]
    assert all(r[1:3] == (tri, long_) for r in g.events(EV_COLLISION))
    assert g.damage_rolls(tri) == 2 and g.damage_rolls(long_) == 2
    # dice: tri 1 (damage), long 6, tri 6, long 1 (damage)
    assert g.s["piece_damage"][tri] == 1 and g.s["piece_damage"][long_] == 1


# ---------------------------------------------------------------- example 3
def test_example3_two_hex_turn_rear_enters_zone():
    """7.6 example 3: a two-hex crustal moves one hex and turns; its rear hex
    swings into the zone of contact of a one-hex crustal (both Ziegler): one
    collision, one roll for each crustal."""
    g = Pos()
    two = g.piece(TWO_HEX, [(4, 5), (4, 6)])
    one = g.piece(ONE_HEX, [(6, 4)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + two, A_MANEUVER + M_TURN_LEFT)
    assert g.cells(two) == [(4, 4), (5, 4)]
    assert not touches((4, 4), [(6, 4)]) and touches((5, 4), [(6, 4)])
    assert [r[1:4] for r in g.events(EV_COLLISION)] == [(two, one, C(5, 4))]
    assert g.damage_rolls(two) == 1 and g.damage_rolls(one) == 1


# ---------------------------------------------------------------- example 4
def test_example4_platforms_never_collide():
    """7.5, 7.6 example 4: attack platform I moves through hexes adjacent to
    attack platform V without stopping and without damage rolls."""
    g = Pos()
    ap5 = g.piece(PLATFORM, [(6, 4)])
    ap1 = g.piece(PLATFORM, [(4, 5)])
    g.begin(PHASE_T_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + ap1)
    path = [NE, N, N, N]  # (5,4) and (5,3) are both adjacent to (6,4)
    for d in path:
        g.act(A_MANEUVER + M_STEP + d)
    assert g.cells(ap1) == [(5, 1)]
    assert touches((5, 4), [(6, 4)]) and touches((5, 3), [(6, 4)])
    assert g.events(EV_COLLISION) == []
    assert g.rolls(CHART_CRUSTAL_DAMAGE) == []
    assert g.damage_rolls(ap5) == 0


def test_example4_but_a_one_hex_crustal_collides_with_the_platform():
    """7.6 example 4: "If A.P. I were instead a 1-Hex crustal, there would be a
    collision": the crustal stops on the first hex next to the platform, one
    roll for each."""
    g = Pos()
    ap5 = g.piece(PLATFORM, [(6, 4)])
    one = g.piece(ONE_HEX, [(4, 5)])
    g.piece(ONE_HEX, [(14, 20)])  # spare
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + one, A_MANEUVER + M_STEP + NE)
    assert g.cells(one) == [(5, 4)]
    assert [r[1:4] for r in g.events(EV_COLLISION)] == [(one, ap5, C(5, 4))]
    assert g.damage_rolls(one) == 1 and g.damage_rolls(ap5) == 1
    assert g.s["piece_flags"][one] & PF_DONE  # 7.3: two unused hexes lost
    g.refuse(A_SELECT_PIECE + one, ERR_PIECE_DONE)


# ---------------------------------------------------------------- example 5
def test_example5_one_hex_enters_two_zones_of_contact():
    """7.6 example 5, D9: a one-hex crustal moves into a hex in the zones of
    contact of two two-hex crustals: two collisions, two rolls for the mover,
    one for each two-hex crustal (one per pair, however many of its hexes
    touch)."""
    g = Pos()
    a = g.piece(TWO_HEX, [(6, 6), (7, 6)])
    b = g.piece(TWO_HEX, [(4, 6), (3, 6)])
    one = g.piece(ONE_HEX, [(5, 3)])
    g.piece(ONE_HEX, [(14, 20)])  # spare
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + one, A_MANEUVER + M_STEP + S)
    assert g.events(EV_COLLISION) == []  # (5,4) touches neither crustal
    g.act(A_MANEUVER + M_STEP + S)
    assert g.cells(one) == [(5, 5)]
    assert sorted(r[2] for r in g.events(EV_COLLISION)) == sorted([a, b])
    assert g.damage_rolls(one) == 2
    assert g.damage_rolls(a) == 1 and g.damage_rolls(b) == 1
    assert g.s["piece_flags"][one] & PF_DONE  # 7.3: third hex lost


@pytest.mark.parametrize("count", ["per_pair", "per_hex"])
def test_collision_count_option_example5(count):
    """7.2 ("One collision is considered to have occured for every hex in which
    a crustal ... has moved adjacent to another crustal ..., or to more than
    one crustal"), 14.3 ("A die is immediately rolled for each collision hex
    for each crustal ... involved"), 7.6 example 5, D9, D22 option
    collision_count.  The one-hex crustal of example 5 enters (5,5), in the
    zones of contact of two two-hex crustals.  "per_pair" (default, D9 and
    example 5): two collisions, two rolls for the mover, one for each two-hex
    crustal; the dice go mover, first crustal, mover, second crustal.
    "per_hex" (7.2 read literally): one collision, one roll for the mover and
    one for each two-hex crustal; the dice go mover, first, second.  Either
    way the mover stops (7.3).  The same dice (6, 6, 1, 6) damage the mover
    under "per_pair" and the second crustal under "per_hex"."""
    g = Pos(collision_count=count)
    a = g.piece(TWO_HEX, [(6, 6), (7, 6)])
    b = g.piece(TWO_HEX, [(4, 6), (3, 6)])
    one = g.piece(ONE_HEX, [(5, 4)])
    g.piece(ONE_HEX, [(14, 20)])  # spare
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.dice(6, 6, 1, 6)
    g.act(A_SELECT_PIECE + one, A_MANEUVER + M_STEP + S)
    assert g.cells(one) == [(5, 5)]
    rows = g.events(EV_COLLISION)
    assert sorted(r[2] for r in rows) == sorted([a, b])  # one row per piece involved
    first, second = rows[0][2], rows[1][2]
    order = [r[2] for r in g.rolls(CHART_CRUSTAL_DAMAGE)]
    assert g.damage_rolls(a) == 1 and g.damage_rolls(b) == 1
    if count == "per_pair":
        assert order == [one, first, one, second]
        assert g.damage_rolls(one) == 2
        assert g.s["piece_damage"][one] == 1 and g.s["piece_damage"][second] == 0
    else:
        assert order == [one, first, second]
        assert g.damage_rolls(one) == 1
        assert g.s["piece_damage"][one] == 0 and g.s["piece_damage"][second] == 1
    assert g.s["piece_flags"][one] & PF_DONE  # 7.3


@pytest.mark.parametrize("count", ["per_pair", "per_hex"])
def test_collision_count_option_counts_hexes_one_by_one(count):
    """7.2, 7.6 example 2, D9, D22: under both values of collision_count every
    hex newly entered is counted by itself: the triangular crustal of example
    2 enters two hexes of the long crustal's zone of contact, two collisions,
    two rolls for each crustal."""
    g = Pos(collision_count=count)
    long_ = g.piece(LONG, [(8, 4), (8, 5), (8, 6)], controller=TECHNOCRAT, control_turn=1)
    g.unit(T_ENGINEER, (8, 5))
    tri = g.piece(TRIANGULAR, [(6, 5), (6, 6), (5, 5)])
    g.piece(ONE_HEX, [(14, 20)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + tri, A_MANEUVER + M_STEP + NE)
    assert len(g.events(EV_COLLISION)) == 2
    assert g.damage_rolls(tri) == 2 and g.damage_rolls(long_) == 2


def test_one_collision_per_piece_even_when_two_of_its_hexes_touch():
    """D9: entering a hex adjacent to two hexes of the same crustal is one
    collision with it (one roll each)."""
    g = Pos()
    two = g.piece(TWO_HEX, [(6, 5), (6, 6)])
    one = g.piece(ONE_HEX, [(4, 5)])
    g.piece(ONE_HEX, [(14, 20)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    assert adjacent((5, 5), (6, 5)) and adjacent((5, 5), (6, 6))
    g.act(A_SELECT_PIECE + one, A_MANEUVER + M_STEP + SE)
    assert g.cells(one) == [(5, 5)]
    assert len(g.events(EV_COLLISION)) == 1
    assert g.damage_rolls(one) == 1 and g.damage_rolls(two) == 1


# ---------------------------------------------------------------- example 6
EX6_MOVER = [(4, 5), (4, 6)]  # facing N, ahead (4,4)
EX6_OTHER = [(5, 4), (5, 5)]  # touches (4,4), (4,5) and (4,6)


def _ex6(**options):
    g = Pos(**options)
    mover = g.piece(TWO_HEX, EX6_MOVER)
    other = g.piece(TWO_HEX, EX6_OTHER)
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    return g, mover, other


def test_example6_forward_stops_after_one_hex():
    """7.6 example 6, 7.3: two crustals in contact from an earlier phase; one
    moves forward: it moves one hex, entering a zone of contact hex, and stops
    (no second hex).  It now sits in two zone-of-contact hexes but entered only
    one: one roll for it, one for the other crustal."""
    g, mover, other = _ex6()
    assert all(touches(h, EX6_OTHER) for h in EX6_MOVER)  # already in contact
    g.act(A_SELECT_PIECE + mover, A_MANEUVER + M_FORWARD)
    assert g.cells(mover) == [(4, 4), (4, 5)]
    assert [r[1:4] for r in g.events(EV_COLLISION)] == [(mover, other, C(4, 4))]
    assert g.damage_rolls(mover) == 1 and g.damage_rolls(other) == 1


def test_example6_no_movement_no_collision():
    """7.2, 7.6 example 6: "If the crustal had not moved, no further collisions
    would have occured": crustals left in contact roll nothing."""
    g, mover, other = _ex6()
    g.act(A_END_PHASE)
    assert g.events(EV_COLLISION) == []
    assert g.rolls(CHART_CRUSTAL_DAMAGE) == []


def test_d10_default_two_hex_may_turn_after_colliding():
    """7.3, D10 (default): a two-hex crustal that collides on its first hex may
    still turn: the rear swings into the clear hex; one collision."""
    g, mover, other = _ex6()
    g.act(A_SELECT_PIECE + mover, A_MANEUVER + M_TURN_RIGHT)
    assert g.cells(mover) == [(4, 4), (3, 4)]
    assert len(g.events(EV_COLLISION)) == 1
    assert g.damage_rolls(mover) == 1 and g.damage_rolls(other) == 1


def test_d10_option_two_hex_cannot_complete_turn_after_colliding():
    """7.6 example 6, D10 option two_hex_turn_after_collision=False: the
    colliding crustal cannot complete the turn; it has moved one hex forward
    (7.3), a legal two-hex position, with one roll for each crustal."""
    g, mover, other = _ex6(two_hex_turn_after_collision=False)
    assert g.s["rules"]["two_hex_turn_after_collision"] == 0
    g.act(A_SELECT_PIECE + mover, A_MANEUVER + M_TURN_RIGHT)
    assert g.cells(mover) == [(4, 4), (4, 5)]
    assert len(g.events(EV_COLLISION)) == 1
    assert g.damage_rolls(mover) == 1 and g.damage_rolls(other) == 1
    from hotspot.core.placement import position_errors

    assert position_errors(g.states) == []


def test_d10_turn_without_collision_unaffected_by_option():
    """D10: the option only matters after a collision: a free turn completes."""
    g = Pos(two_hex_turn_after_collision=False)
    two = g.piece(TWO_HEX, [(4, 5), (4, 6)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + two, A_MANEUVER + M_TURN_LEFT)
    assert g.cells(two) == [(4, 4), (5, 4)]


# ---------------------------------------------------------------- 7.3 more
def test_long_forward_collides_on_first_hex_moves_one():
    """7.3: a long crustal that collides on its first hex moves only that hex."""
    g = Pos()
    long_ = g.piece(LONG, [(4, 5), (4, 6), (4, 7)])
    one = g.piece(ONE_HEX, [(5, 3)])  # touches (4,4), the first hex ahead
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    assert touches((4, 4), [(5, 3)]) and not touches((4, 5), [(5, 3)])
    g.act(A_SELECT_PIECE + long_, A_MANEUVER + M_FORWARD)
    assert g.cells(long_) == [(4, 4), (4, 5), (4, 6)]
    assert g.damage_rolls(long_) == 1 and g.damage_rolls(one) == 1


def test_two_hex_forward_with_second_hex_occupied_stops_after_one():
    """6.8, 7.3: the second hex ahead holds a crustal; the forward move is still
    legal: its first hex collides and the move stops there."""
    g = Pos()
    two = g.piece(TWO_HEX, [(4, 5), (4, 6)])
    blocker = g.piece(ONE_HEX, [(4, 3)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + two, A_MANEUVER + M_FORWARD)
    assert g.cells(two) == [(4, 4), (4, 5)]
    assert g.damage_rolls(two) == 1 and g.damage_rolls(blocker) == 1


def test_two_hex_collision_on_second_forward_hex():
    """7.2, D9: a collision on the second forward hex is one collision; the move
    is complete."""
    g = Pos()
    two = g.piece(TWO_HEX, [(4, 5), (4, 6)])
    blocker = g.piece(ONE_HEX, [(4, 1)])  # touches (4,2) only
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + two, A_MANEUVER + M_FORWARD)
    assert g.cells(two) == [(4, 3), (4, 4)]
    assert g.events(EV_COLLISION) == []  # (4,3) is two hexes from (4,1)
    g2 = Pos()
    two = g2.piece(TWO_HEX, [(4, 5), (4, 6)])
    blocker = g2.piece(ONE_HEX, [(4, 2)])  # touches (4,3), the second hex
    g2.begin(PHASE_Z_CRUSTAL, turn=2)
    g2.act(A_SELECT_PIECE + two, A_MANEUVER + M_FORWARD)
    assert g2.cells(two) == [(4, 3), (4, 4)]
    assert [r[1:4] for r in g2.events(EV_COLLISION)] == [(two, blocker, C(4, 3))]
    assert g2.damage_rolls(two) == 1 and g2.damage_rolls(blocker) == 1


def test_moving_away_from_contact_is_no_collision():
    """7.2, D9: only hexes newly entered count: a crustal moving out of contact
    collides with nothing, and may use its whole allowance."""
    g = Pos()
    one = g.piece(ONE_HEX, [(5, 4)])
    g.piece(TWO_HEX, [(6, 4), (6, 5)])  # (5,4) touches both hexes
    g.piece(ONE_HEX, [(14, 20)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + one)
    for _ in range(3):
        g.act(A_MANEUVER + M_STEP + 5)  # NW, away
    assert g.cells(one) == [(2, 3)]
    assert g.events(EV_COLLISION) == []
    assert g.rolls(CHART_CRUSTAL_DAMAGE) == []


# ---------------------------------------------------- 7.5, 14.7 Central Crustal
def test_central_crustal_never_damaged_but_collider_rolls():
    """7.1, 7.5, 14.7, D2: the Central Crustal exerts a zone of contact; a
    crustal entering it collides and rolls, the Central Crustal rolls nothing
    and takes no damage."""
    g = Pos()
    one = g.piece(ONE_HEX, [(7, 6)])
    g.piece(ONE_HEX, [(14, 20)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.dice(1, 1, 1)
    g.act(A_SELECT_PIECE + one, A_MANEUVER + M_STEP + S)
    assert g.events(EV_COLLISION) == []
    g.act(A_MANEUVER + M_STEP + S)  # (7,8) touches (7,9), a Central Crustal hex
    assert C(7, 9) in list(CENTRAL_CELLS)
    assert [r[1:4] for r in g.events(EV_COLLISION)] == [(one, 0, C(7, 8))]
    assert g.damage_rolls(one) == 1 and g.damage_rolls(0) == 0
    assert g.s["piece_damage"][one] == 1 and g.s["piece_damage"][0] == 0
    assert int(g.s["dice_pos"]) == 1  # exactly one die was rolled
    assert g.s["piece_flags"][one] & PF_DONE


def test_platform_collides_with_central_crustal():
    """7.1, 7.5: an attack platform entering the Central Crustal's zone of
    contact collides (only the platform rolls)."""
    g = Pos()
    g.piece(PLATFORM, [(14, 0)])
    ap = g.piece(PLATFORM, [(7, 7)])
    g.begin(PHASE_T_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + ap, A_MANEUVER + M_STEP + S)
    assert g.cells(ap) == [(7, 8)]
    assert g.damage_rolls(ap) == 1 and g.damage_rolls(0) == 0
    assert g.s["piece_flags"][ap] & PF_DONE


@pytest.mark.parametrize("roll, damage", [(1, 1), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0)])
def test_crustal_damage_chart(roll, damage):
    """14.3, 16.0 Crustal Damage Chart: a 1 is one point of damage, 2-6 nothing."""
    g = Pos()
    one = g.piece(ONE_HEX, [(4, 5)])
    other = g.piece(ONE_HEX, [(6, 4)])
    g.piece(ONE_HEX, [(14, 20)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.dice(roll, 6)
    g.act(A_SELECT_PIECE + one, A_MANEUVER + M_STEP + NE)
    assert int(g.s["piece_damage"][one]) == damage
    assert int(g.s["piece_damage"][other]) == 0
    assert len(g.events(EV_DAMAGE)) == damage
