"""Crustal damage and break-up (rulebook 14.0; D3, D7, D18; reading R14.5).

Break-ups happen in the Crustal Control phase (14.6, D18 step 4): the tests
start play at phase H and look at the position once play has moved on.
"""

import pytest
from helpers import A_END_PHASE, Pos

from hotspot.core.events import BREAK_DAMAGE, BREAK_OFF_MAP, BREAK_PLATFORM_TIME, ELIM_BREAKUP, EV_BREAKUP
from hotspot.core.rules_data import (
    LONG,
    ONE_HEX,
    PHASE_CONTROL,
    PHASE_Z_CRUSTAL,
    PLATFORM,
    T_INFANTRY,
    TECHNOCRAT,
    TRIANGULAR,
    TWO_HEX,
    Z_INFANTRY,
)

SHAPES = {
    ONE_HEX: [(4, 4)],
    TWO_HEX: [(4, 4), (4, 5)],
    TRIANGULAR: [(3, 4), (3, 5), (4, 5)],
    LONG: [(4, 4), (4, 5), (4, 6)],
    PLATFORM: [(4, 4)],
}
D7 = {ONE_HEX: 2, TWO_HEX: 3, TRIANGULAR: 4, LONG: 4, PLATFORM: 2}


@pytest.mark.parametrize("kind", list(D7))
def test_damage_ratings(kind):
    """D7, 2.2.2, 2.2.3: damage ratings one-hex 2, two-hex 3, triangular 4,
    long 4, attack platform 2."""
    g = Pos()
    assert int(g.s["rules"]["damage_rating"][kind]) == D7[kind]


def _control_phase(kind, damage, turn=2, **options):
    g = Pos(**options)
    k = g.piece(kind, SHAPES[kind])
    g.s["piece_damage"][k] = damage
    unit_type = T_INFANTRY if kind == PLATFORM else Z_INFANTRY
    u = g.unit(unit_type, SHAPES[kind][0], squads=2)
    g.piece(ONE_HEX, [(14, 20)])  # next turn's phase A stops play
    g.begin(PHASE_CONTROL, turn=turn)
    return g, k, u


@pytest.mark.parametrize("kind", list(D7))
def test_break_up_at_damage_rating(kind):
    """14.6, D7: a crustal or platform whose damage equals its damage rating
    breaks up in the Crustal Control phase, with every unit on it."""
    g, k, u = _control_phase(kind, D7[kind])
    assert not g.piece_alive(k)
    assert [r[1:3] for r in g.events(EV_BREAKUP)] == [(k, BREAK_DAMAGE)]
    assert not g.alive(u) and g.eliminated(ELIM_BREAKUP) == [u]
    assert not (g.s["board"] == k).any()
    assert g.turn == 3 and g.phase == PHASE_Z_CRUSTAL


@pytest.mark.parametrize("kind", list(D7))
def test_no_break_up_below_rating(kind):
    """14.6: damage one below the rating: no break-up."""
    g, k, u = _control_phase(kind, D7[kind] - 1)
    assert g.piece_alive(k) and g.alive(u)
    assert g.events(EV_BREAKUP) == []


def test_damaged_piece_stays_in_play_until_control_phase():
    """14.6: "All break-ups occur in the Crustal Control phase": a crustal that
    reached its rating in a collision stays in play (and may move) until then."""
    from helpers import A_MANEUVER, A_SELECT_PIECE

    from hotspot.core.crustal_movement import M_STEP

    g = Pos()
    k = g.piece(ONE_HEX, [(4, 5)])
    g.piece(ONE_HEX, [(6, 4)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.s["piece_damage"][k] = 1
    g.dice(1, 6)
    g.act(A_SELECT_PIECE + k, A_MANEUVER + M_STEP + 1)  # NE into (5,4): collides with (6,4)
    assert g.s["piece_damage"][k] == 2
    assert g.piece_alive(k)
    while g.turn == 2:
        g.act(A_END_PHASE)
    assert not g.piece_alive(k)


def test_damage_rating_option():
    """D7 defaults are rules options: with a one-hex rating of 3, damage 2 does
    not break it up."""
    g, k, u = _control_phase(ONE_HEX, 2, damage_rating={"one_hex": 3})
    assert g.piece_alive(k)


def test_platforms_break_up_on_turn_four():
    """14.5: every attack platform not yet broken up breaks up in the Crustal
    Control phase of the fourth turn, with its units."""
    g, k, u = _control_phase(PLATFORM, 0, turn=4)
    assert not g.piece_alive(k) and not g.alive(u)
    assert [r[1:3] for r in g.events(EV_BREAKUP)] == [(k, BREAK_PLATFORM_TIME)]


def test_platforms_survive_turn_three():
    """14.5: in turn 3 the platform stays."""
    g, k, u = _control_phase(PLATFORM, 0, turn=3)
    assert g.piece_alive(k) and g.alive(u)
    assert g.events(EV_BREAKUP) == []


def test_platform_turns_option():
    """14.5 as an option (platform_turns): with 6, a platform survives turn 4."""
    g, k, u = _control_phase(PLATFORM, 0, turn=4, platform_turns=6)
    assert g.piece_alive(k)


def test_crustals_do_not_break_up_on_turn_four():
    """14.5 concerns attack platforms only."""
    g, k, u = _control_phase(TWO_HEX, 0, turn=4)
    assert g.piece_alive(k)


@pytest.mark.parametrize(
    "kind, hexes",
    [
        (TWO_HEX, [(0, 4), (-1, 4)]),
        (LONG, [(14, 2), (15, 2), (16, 3)]),
        (TRIANGULAR, [(0, 5), (-1, 5), (0, 6)]),
    ],
)
def test_partly_off_map_breaks_up(kind, hexes):
    """6.9, 14.4, D3: a crustal with some hexes off the map breaks up in the
    next Crustal Control phase, with its units."""
    g = Pos()
    k = g.piece(kind, hexes)
    u = g.unit(Z_INFANTRY, hexes[0])
    g.piece(ONE_HEX, [(14, 20)])
    g.begin(PHASE_CONTROL, turn=2)
    assert not g.piece_alive(k) and not g.alive(u)
    assert [r[1:3] for r in g.events(EV_BREAKUP)] == [(k, BREAK_OFF_MAP)]


def test_controlled_crustal_breaks_up_too():
    """14.6: break-up does not depend on who controls the crustal."""
    from hotspot.core.rules_data import T_ENGINEER

    g = Pos()
    k = g.piece(TWO_HEX, [(4, 4), (4, 5)], controller=TECHNOCRAT, control_turn=1)
    g.s["piece_damage"][k] = 3
    e = g.unit(T_ENGINEER, (4, 4))
    g.piece(ONE_HEX, [(14, 20)])
    g.begin(PHASE_CONTROL, turn=2)
    assert g.phase == PHASE_CONTROL  # a neutralization attempt is possible (15.4): decline it
    g.act(A_END_PHASE)
    assert not g.piece_alive(k) and not g.alive(e)
