"""Crustal movement (rulebook 6.0; decisions D3, D8, D11) as executable checks.

Positions are hand-built away from the Central Crustal (whose zone of
contact is the ring of hexes around its seven hexes) and from each other,
so that no collision (7.0) interferes with the geometry checked here.
"""

import numpy as np
import pytest
from helpers import (
    A_END_PHASE,
    A_END_PIECE,
    A_MANEUVER,
    A_SELECT_PIECE,
    A_SELECT_UNIT,
    NE,
    NW,
    SE,
    SW,
    C,
    N,
    Pos,
    S,
    nb,
)

from hotspot.core.actions import NUM_ACTIONS, legal_action_mask
from hotspot.core.crustal_movement import M_FORWARD, M_ROTATE, M_STEP, M_TURN_LEFT, M_TURN_RIGHT
from hotspot.core.errors import (
    ERR_HEX_OCCUPIED,
    ERR_MANEUVER_NOT_FOR_PIECE,
    ERR_NEUTRALIZED,
    ERR_NO_SUCH_PIECE,
    ERR_NOT_YOUR_PIECE,
    ERR_NOTHING_SELECTED,
    ERR_PIECE_CANNOT_MOVE,
    ERR_PIECE_DONE,
    ERR_WRONG_PHASE,
)
from hotspot.core.events import BREAK_OFF_MAP, ELIM_BREAKUP, ELIM_OFF_MAP, EV_BREAKUP, EV_COLLISION, EV_OFF_MAP
from hotspot.core.rules_data import (
    LONG,
    ONE_HEX,
    PHASE_CONTROL,
    PHASE_T_CRUSTAL,
    PHASE_Z_CRUSTAL,
    PLATFORM,
    T_ENGINEER,
    T_INFANTRY,
    TECHNOCRAT,
    TRIANGULAR,
    TWO_HEX,
    Z_INFANTRY,
)
from hotspot.core.state import PF_DONE

SPARE = (14, 20)  # a far Ziegler one-hex crustal: keeps phase A open once the tested piece is done
SPARE_T = (14, 0)  # a far Technocrat platform: keeps phase E open


def z_phase(**options):
    g = Pos(**options)
    g.spare = g.piece(ONE_HEX, [SPARE])
    return g


def t_phase():
    g = Pos()
    g.spare = g.piece(PLATFORM, [SPARE_T])
    return g


def walk(start, *dirs):
    h = start
    for d in dirs:
        h = nb(h, d)
    return h


# ------------------------------------------------------------------ 6.3 one-hex
def test_one_hex_crustal_moves_up_to_three_hexes_any_directions():
    """6.3: a one-hex crustal moves up to three hexes, in any combination of
    directions; then its movement is over (a fourth step is impossible)."""
    g = z_phase()
    k = g.piece(ONE_HEX, [(4, 5)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k)
    g.act(A_MANEUVER + M_STEP + N)
    g.act(A_MANEUVER + M_STEP + NE)
    g.act(A_MANEUVER + M_STEP + N)
    assert g.cells(k) == [walk((4, 5), N, NE, N)] == [(5, 2)]
    assert g.s["piece_flags"][k] & PF_DONE
    assert g.phase == PHASE_Z_CRUSTAL
    g.refuse(A_MANEUVER + M_STEP + N, ERR_NOTHING_SELECTED)
    g.refuse(A_SELECT_PIECE + k, ERR_PIECE_DONE)


def test_one_hex_crustal_three_steps_straight():
    """6.3: three hexes in a straight line (turn 2)."""
    g = z_phase()
    k = g.piece(ONE_HEX, [(4, 5)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k)
    for _ in range(3):
        g.act(A_MANEUVER + M_STEP + S)
    assert g.cells(k) == [(4, 8)]
    g.refuse(A_SELECT_PIECE + k, ERR_PIECE_DONE)


def test_one_hex_crustal_may_stop_early():
    """6.3, 6.8: "up to" three hexes; a crustal is never forced to move on."""
    g = z_phase()
    k = g.piece(ONE_HEX, [(4, 5)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_STEP + NE, A_END_PIECE)
    assert g.cells(k) == [nb((4, 5), NE)] == [(5, 4)]
    g.refuse(A_SELECT_PIECE + k, ERR_PIECE_DONE)


@pytest.mark.parametrize("d", range(6))
def test_one_hex_crustal_each_direction(d):
    """6.3: a one-hex crustal may move in any of the six directions."""
    g = z_phase()
    k = g.piece(ONE_HEX, [(4, 5)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_STEP + d)
    assert g.cells(k) == [nb((4, 5), d)]


def test_one_hex_crustal_first_turn_only_one_hex():
    """6.10, D11: on turn 1 a one-hex crustal moves at most one hex."""
    g = z_phase()
    k = g.piece(ONE_HEX, [(4, 5)])
    g.begin(PHASE_Z_CRUSTAL, turn=1)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_STEP + S)
    assert g.cells(k) == [(4, 6)]
    assert g.s["piece_flags"][k] & PF_DONE
    g.refuse(A_SELECT_PIECE + k, ERR_PIECE_DONE)


def test_first_turn_other_crustals_move_normally():
    """6.10: on turn 1 the other crustals (here a two-hex) move normally: two hexes forward."""
    g = z_phase()
    k = g.piece(TWO_HEX, [(4, 5), (4, 6)])
    g.begin(PHASE_Z_CRUSTAL, turn=1)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_FORWARD)
    assert g.cells(k) == [(4, 3), (4, 4)]


def test_first_turn_platform_moves_four():
    """6.10, 6.7: on turn 1 an attack platform still moves four hexes."""
    g = t_phase()
    k = g.piece(PLATFORM, [(4, 2)])
    g.begin(PHASE_T_CRUSTAL, turn=1)
    g.act(A_SELECT_PIECE + k)
    for _ in range(4):
        g.act(A_MANEUVER + M_STEP + S)
    assert g.cells(k) == [(4, 6)]
    assert g.s["piece_flags"][k] & PF_DONE


# ------------------------------------------------------------------ 6.7 platforms
def test_platform_moves_up_to_four_any_directions():
    """6.7: an attack platform moves up to four hexes in any combination of
    directions; a fifth step is impossible."""
    g = t_phase()
    k = g.piece(PLATFORM, [(4, 5)])
    g.begin(PHASE_T_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k)
    for d in (S, SE, NE, S):
        g.act(A_MANEUVER + M_STEP + d)
    assert g.cells(k) == [walk((4, 5), S, SE, NE, S)] == [(6, 7)]
    assert g.s["piece_flags"][k] & PF_DONE
    g.refuse(A_SELECT_PIECE + k, ERR_PIECE_DONE)


def test_platform_carries_its_units():
    """6.7, 8.2: units ride on the platform they stand on."""
    g = t_phase()
    k = g.piece(PLATFORM, [(4, 5)])
    u = g.unit(T_INFANTRY, (4, 5), squads=2)
    g.begin(PHASE_T_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_STEP + N, A_MANEUVER + M_STEP + N)
    assert g.where(u) == (4, 3)


# ------------------------------------------------------------------ 6.4 two-hex
def test_two_hex_forward_two_hexes():
    """6.4a: a two-hex crustal moves two hexes straight forward (front = slot 0);
    units ride along, keeping their hex of the crustal."""
    g = z_phase()
    k = g.piece(TWO_HEX, [(4, 5), (4, 6)])  # facing N
    uf = g.unit(Z_INFANTRY, (4, 5))
    ur = g.unit(Z_INFANTRY, (4, 6))
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_FORWARD)
    assert g.cells(k) == [(4, 3), (4, 4)]
    assert (g.where(uf), g.where(ur)) == ((4, 3), (4, 4))
    g.refuse(A_SELECT_PIECE + k, ERR_PIECE_DONE)


def test_two_hex_forward_diagonal_facing():
    """6.4a: forward follows the facing, here SE (rear (3,4) -> front (4,5))."""
    g = z_phase()
    k = g.piece(TWO_HEX, [(4, 5), (3, 4)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_FORWARD)
    assert g.cells(k) == [walk((4, 5), SE, SE), nb((4, 5), SE)] == [(6, 6), (5, 5)]


@pytest.mark.parametrize("m, rear", [(M_TURN_LEFT, (5, 4)), (M_TURN_RIGHT, (3, 4))])
def test_two_hex_turns(m, rear):
    """6.4b: the front moves one hex forward and the rear swings into one of the
    two hexes adjacent to both the old and the new front hex."""
    g = z_phase()
    k = g.piece(TWO_HEX, [(4, 5), (4, 6)])  # facing N; new front (4,4)
    u = g.unit(Z_INFANTRY, (4, 6))
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + m)
    assert g.cells(k) == [(4, 4), rear]
    # the swing hex is adjacent to both the old front (4,5) and the new front (4,4)
    assert rear in [nb((4, 5), d) for d in range(6)] and rear in [nb((4, 4), d) for d in range(6)]
    # facing after the turn: the new front lies NW (left) or NE (right) of the new rear
    assert nb(rear, NW if m == M_TURN_LEFT else NE) == (4, 4)
    assert g.where(u) == rear


@pytest.mark.parametrize("m", [M_STEP + N, M_STEP + S, M_ROTATE, M_ROTATE + 2, M_ROTATE + 3])
def test_two_hex_cannot_move_one_hex_or_rotate(m):
    """6.4: a two-hex crustal may not move one hex without turning, nor rotate in place."""
    g = z_phase()
    k = g.piece(TWO_HEX, [(4, 5), (4, 6)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k)
    g.refuse(A_MANEUVER + m, ERR_MANEUVER_NOT_FOR_PIECE)


# ------------------------------------------------------------- 6.5 triangular
TRI = [(3, 4), (3, 5), (4, 5)]  # mutually adjacent


@pytest.mark.parametrize("d", range(6))
def test_triangular_shifts_one_hex_any_direction(d):
    """6.5a: the triangular crustal moves one hex in any direction, its three
    hexes keeping their relative positions; then its move is over."""
    g = z_phase()
    k = g.piece(TRIANGULAR, TRI)
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_STEP + d)
    assert g.cells(k) == [nb(h, d) for h in TRI]
    g.refuse(A_SELECT_PIECE + k, ERR_PIECE_DONE)


def _rotate_about(pivot, h, sixths):
    for d in range(6):
        if nb(pivot, d) == h:
            return nb(pivot, (d + sixths) % 6)
    raise AssertionError("not adjacent")


@pytest.mark.parametrize("pivot", range(3))
@pytest.mark.parametrize("ccw", [0, 1])
def test_triangular_rotations(pivot, ccw):
    """6.5b, D8: the triangular crustal rotates 120 degrees about one of its
    hexes (which stays), clockwise or counter-clockwise: six rotations."""
    g = z_phase()
    k = g.piece(TRIANGULAR, TRI)
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_ROTATE + 2 * pivot + ccw)
    sixths = 4 if ccw else 2
    expected = [h if j == pivot else _rotate_about(TRI[pivot], h, sixths) for j, h in enumerate(TRI)]
    assert g.cells(k) == expected
    assert g.cells(k)[pivot] == TRI[pivot]
    g.refuse(A_SELECT_PIECE + k, ERR_PIECE_DONE)


def test_triangular_six_rotations_are_distinct():
    """D8: the six rotations (3 pivots x 2 senses) give six different positions,
    none of them the starting one."""
    seen = set()
    for pivot in range(3):
        for ccw in range(2):
            g = z_phase()
            k = g.piece(TRIANGULAR, TRI)
            g.begin(PHASE_Z_CRUSTAL, turn=2)
            g.act(A_SELECT_PIECE + k, A_MANEUVER + M_ROTATE + 2 * pivot + ccw)
            seen.add(frozenset(g.cells(k)))
    assert len(seen) == 6
    assert frozenset(TRI) not in seen


@pytest.mark.parametrize("m", [M_FORWARD, M_TURN_LEFT, M_TURN_RIGHT])
def test_triangular_has_no_forward_or_turn(m):
    """6.5: the triangular crustal has no front: no forward move, no turn."""
    g = z_phase()
    k = g.piece(TRIANGULAR, TRI)
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k)
    g.refuse(A_MANEUVER + m, ERR_MANEUVER_NOT_FOR_PIECE)


# ------------------------------------------------------------------ 6.6 long
LONG_N = [(5, 4), (5, 5), (5, 6)]  # front, centre, rear: facing N


def test_long_forward_two_hexes():
    """6.6a: the long crustal moves two hexes straight forward."""
    g = z_phase()
    k = g.piece(LONG, LONG_N)
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_FORWARD)
    assert g.cells(k) == [(5, 2), (5, 3), (5, 4)]
    g.refuse(A_SELECT_PIECE + k, ERR_PIECE_DONE)


@pytest.mark.parametrize("m, front, rear", [(M_ROTATE + 2, (6, 5), (4, 6)), (M_ROTATE + 3, (4, 5), (6, 6))])
def test_long_rotates_sixty_degrees_about_centre(m, front, rear):
    """6.6b: the long crustal rotates 60 degrees: the centre stays and each end
    moves one hex (clockwise: front N -> NE; counter-clockwise: N -> NW)."""
    g = z_phase()
    k = g.piece(LONG, LONG_N)
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + m)
    assert g.cells(k) == [front, (5, 5), rear]
    assert front == nb((5, 5), NE if m == M_ROTATE + 2 else NW)
    assert rear == nb((5, 5), SW if m == M_ROTATE + 2 else SE)


@pytest.mark.parametrize(
    "m", [M_STEP + N, M_STEP + SE, M_TURN_LEFT, M_TURN_RIGHT, M_ROTATE, M_ROTATE + 1, M_ROTATE + 4, M_ROTATE + 5]
)
def test_long_cannot_move_one_hex_or_turn(m):
    """6.6: the long crustal may not move one hex forward (or any single step),
    has no two-hex turn, and rotates only about its centre hex."""
    g = z_phase()
    k = g.piece(LONG, LONG_N)
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k)
    g.refuse(A_MANEUVER + m, ERR_MANEUVER_NOT_FOR_PIECE)


# ------------------------------------------------------------------ 6.8 blocked
def test_one_hex_may_not_enter_occupied_hex():
    """6.2, 6.8: a crustal may not enter a hex occupied by another crustal."""
    g = z_phase()
    k = g.piece(ONE_HEX, [(4, 5)])
    g.piece(ONE_HEX, [(4, 4)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k)
    g.refuse(A_MANEUVER + M_STEP + N, ERR_HEX_OCCUPIED)


def test_two_hex_forward_blocked_and_turn_swing_blocked():
    """6.8: a two-hex crustal may not move into an occupied hex: with the hex
    ahead occupied every maneuver (forward, both turns) is blocked, so it
    cannot move at all; and it may not swing its rear into an occupied hex."""
    g = z_phase()
    k = g.piece(TWO_HEX, [(4, 5), (4, 6)])
    g.piece(PLATFORM, [(4, 4)])  # the hex ahead
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.refuse(A_SELECT_PIECE + k, ERR_PIECE_CANNOT_MOVE)

    g = z_phase()
    k = g.piece(TWO_HEX, [(4, 5), (4, 6)])
    g.piece(ONE_HEX, [(5, 4)])  # the left swing hex
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k)
    g.refuse(A_MANEUVER + M_TURN_LEFT, ERR_HEX_OCCUPIED)
    assert g.legal(A_MANEUVER + M_TURN_RIGHT) and g.legal(A_MANEUVER + M_FORWARD)


@pytest.mark.parametrize("reading", ["collide", "refuse"])
def test_forward_into_blocked_option(reading):
    """6.8 ("crustals may not enter or attempt to enter molten hexes occupied
    by other crustals"), 7.3, D22 option forward_into_blocked.  A two-hex
    crustal faces N with its first hex ahead, (4,4), free and its second,
    (4,3), occupied by a one-hex crustal.  "collide" (default, R6.8): FORWARD
    is legal; the piece enters (4,4), in the occupant's zone of contact,
    collides there and stops (7.3).  "refuse": FORWARD is an attempt to enter
    an occupied hex and is illegal (ERR_HEX_OCCUPIED), in the legal-action
    mask too; the turns stay legal."""
    g = z_phase(forward_into_blocked=reading)
    k = g.piece(TWO_HEX, [(4, 5), (4, 6)])
    blocker = g.piece(ONE_HEX, [(4, 3)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal_action_mask(g.s, mask)
    assert mask[A_MANEUVER + M_TURN_LEFT] and mask[A_MANEUVER + M_TURN_RIGHT]
    if reading == "collide":
        assert mask[A_MANEUVER + M_FORWARD]
        g.act(A_MANEUVER + M_FORWARD)
        assert g.cells(k) == [(4, 4), (4, 5)]
        assert [r[1:4] for r in g.events(EV_COLLISION)] == [(k, blocker, C(4, 4))]
    else:
        assert not mask[A_MANEUVER + M_FORWARD]
        g.refuse(A_MANEUVER + M_FORWARD, ERR_HEX_OCCUPIED)
        assert g.cells(k) == [(4, 5), (4, 6)]


@pytest.mark.parametrize("reading", ["collide", "refuse"])
def test_forward_into_blocked_option_long_crustal_selection(reading):
    """6.8 ("A crustal may not move if all hexes that it could legally enter
    are occupied"), D22 option forward_into_blocked: a long crustal whose
    second hex ahead is occupied and whose rotations are blocked has FORWARD
    as its only move under "collide"; under "refuse" it has none and cannot
    be selected (ERR_PIECE_CANNOT_MOVE)."""
    g = z_phase(forward_into_blocked=reading)
    k = g.piece(LONG, [(4, 5), (4, 6), (4, 7)])
    g.piece(ONE_HEX, [(4, 3)])  # the second hex ahead
    for h in (nb((4, 6), NE), nb((4, 6), NW)):  # the front's hex after either rotation (6.6b)
        g.piece(ONE_HEX, [h])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    if reading == "collide":
        g.act(A_SELECT_PIECE + k)
        assert [m for m in range(15) if g.legal(A_MANEUVER + m)] == [M_FORWARD]
    else:
        g.refuse(A_SELECT_PIECE + k, ERR_PIECE_CANNOT_MOVE)


def test_triangular_rotation_into_occupied_hex_refused():
    """6.8: a rotation whose new hexes hold another piece is refused."""
    g = z_phase()
    k = g.piece(TRIANGULAR, TRI)
    g.piece(ONE_HEX, [(2, 4)])  # a hex of the clockwise rotation about slot 0
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k)
    g.refuse(A_MANEUVER + M_ROTATE + 0, ERR_HEX_OCCUPIED)
    assert g.legal(A_MANEUVER + M_ROTATE + 1)


def test_boxed_in_crustal_cannot_move():
    """6.8: a crustal may not move if every hex it could enter is occupied."""
    g = z_phase()
    k = g.piece(ONE_HEX, [(4, 5)])
    for d in range(6):
        g.piece(ONE_HEX, [nb((4, 5), d)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.refuse(A_SELECT_PIECE + k, ERR_PIECE_CANNOT_MOVE)


def test_never_forced_to_move():
    """6.8: a player may move none of his crustals: ending the phase at once is legal."""
    g = z_phase()
    k = g.piece(TWO_HEX, [(4, 5), (4, 6)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    assert g.phase == PHASE_Z_CRUSTAL
    g.act(A_END_PHASE)
    assert g.cells(k) == [(4, 5), (4, 6)]
    assert g.phase != PHASE_Z_CRUSTAL


# ------------------------------------------------------------------ 6.9 off map
def test_one_hex_wholly_off_map_leaves_play_with_units():
    """6.9, D3: a crustal that entirely leaves the map is out of play at once,
    with every unit on it."""
    g = z_phase()
    k = g.piece(ONE_HEX, [(0, 5)])
    u = g.unit(Z_INFANTRY, (0, 5), squads=3)
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_STEP + SW)
    assert not g.piece_alive(k)
    assert not g.alive(u)
    assert g.eliminated(ELIM_OFF_MAP) == [u]
    assert [r[1] for r in g.events(EV_OFF_MAP)] == [k]
    assert not (g.s["board"] == k).any()


def test_platform_wholly_off_map_leaves_play_with_units():
    """6.9, D3: an attack platform that leaves the map is out of play with its units."""
    g = t_phase()
    k = g.piece(PLATFORM, [(14, 7)])
    u = g.unit(T_ENGINEER, (14, 7))
    g.begin(PHASE_T_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_STEP + NE)
    assert not g.piece_alive(k) and not g.alive(u)
    assert g.eliminated(ELIM_OFF_MAP) == [u]


def test_partly_off_map_breaks_up_in_next_control_phase():
    """6.9, 14.4, D3: a crustal partly off the map stays in play until the next
    Crustal Control phase, then breaks up with its units; units on its off-map
    hex are lost at once."""
    g = z_phase()
    k = g.piece(TWO_HEX, [(0, 5), (1, 5)])  # facing NW, front on the west edge
    front = g.unit(Z_INFANTRY, (0, 5))
    rear = g.unit(Z_INFANTRY, (1, 5))
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_TURN_LEFT)
    assert g.cells(k) == [(-1, 4), (0, 4)]  # front off the map, rear on it
    assert g.piece_alive(k)
    assert not g.alive(front) and g.eliminated(ELIM_OFF_MAP) == [front]
    assert g.where(rear) == (0, 4)
    g.act(A_END_PHASE)  # A ends; B..G pass (reserve engineer moves nowhere in F)
    while g.phase != PHASE_CONTROL and g.piece_alive(k):
        g.act(A_END_PHASE)
    assert not g.piece_alive(k)
    assert [r[1:3] for r in g.events(EV_BREAKUP)] == [(k, BREAK_OFF_MAP)]
    assert not g.alive(rear) and rear in g.eliminated(ELIM_BREAKUP)
    assert g.turn == 3


# ---------------------------------------------------- 15.4 neutralized; 4.0 A/E
def test_neutralized_crustal_cannot_move():
    """15.4: a neutralized crustal cannot move."""
    g = t_phase()
    k = g.piece(ONE_HEX, [(4, 5)], controller=TECHNOCRAT, neutralized=True, control_turn=1)
    g.unit(T_ENGINEER, (4, 5))
    g.begin(PHASE_T_CRUSTAL, turn=3)
    g.refuse(A_SELECT_PIECE + k, ERR_NEUTRALIZED)


def test_who_moves_what_in_phase_a():
    """4.0 A, 6.1, 15.2: in phase A the Ziegler player moves his own crustals only:
    not attack platforms, not crustals the Technocrat controls, never the
    Central Crustal."""
    g = z_phase()
    z = g.piece(ONE_HEX, [(4, 5)])
    p = g.piece(PLATFORM, [(8, 3)])
    t = g.piece(ONE_HEX, [(11, 5)], controller=TECHNOCRAT, control_turn=1)
    g.unit(T_ENGINEER, (11, 5))
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    assert g.legal(A_SELECT_PIECE + z)
    g.refuse(A_SELECT_PIECE + p, ERR_NOT_YOUR_PIECE)
    g.refuse(A_SELECT_PIECE + t, ERR_NOT_YOUR_PIECE)
    g.refuse(A_SELECT_PIECE + 0, ERR_NO_SUCH_PIECE)
    g.refuse(A_SELECT_PIECE + 30, ERR_NO_SUCH_PIECE)
    g.refuse(A_MANEUVER + M_STEP + N, ERR_NOTHING_SELECTED)
    g.refuse(A_SELECT_UNIT + 0, ERR_WRONG_PHASE)


def test_who_moves_what_in_phase_e():
    """4.0 E: the Technocrat moves his attack platforms and the crustals he
    controls, not the Ziegler crustals."""
    g = Pos()
    z = g.piece(ONE_HEX, [(4, 5)])
    p = g.piece(PLATFORM, [(8, 3)])
    t = g.piece(ONE_HEX, [(11, 5)], controller=TECHNOCRAT, control_turn=1)
    g.unit(T_ENGINEER, (11, 5))
    g.begin(PHASE_T_CRUSTAL, turn=2)
    assert g.phase == PHASE_T_CRUSTAL
    assert g.legal(A_SELECT_PIECE + p) and g.legal(A_SELECT_PIECE + t)
    g.refuse(A_SELECT_PIECE + z, ERR_NOT_YOUR_PIECE)
    g.refuse(A_SELECT_PIECE + 0, ERR_NO_SUCH_PIECE)
    g.act(A_SELECT_PIECE + t)
    for _ in range(3):
        g.act(A_MANEUVER + M_STEP + S)
    assert g.cells(t) == [(11, 8)]  # a controlled one-hex crustal moves like any (6.3)


def test_technocrat_controlled_long_moves_in_phase_e():
    """4.0 E, 6.6: a controlled long crustal makes its maneuvers in phase E."""
    g = t_phase()
    k = g.piece(LONG, LONG_N, controller=TECHNOCRAT, control_turn=1)
    g.unit(T_ENGINEER, (5, 5))
    g.begin(PHASE_T_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_FORWARD)
    assert g.cells(k) == [(5, 2), (5, 3), (5, 4)]
    assert g.events(EV_COLLISION) == []
