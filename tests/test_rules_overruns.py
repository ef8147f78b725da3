"""Overruns and Close Infantry Assaults (rulebook 11.0; D15; project readings
R11.1, R11.2 in docs/rules.md).

Ground: the strip of crustal hexes in column 3, rows 1-9; Technocrat units
move S (direction 3) through Ziegler infantry.
"""

import pytest
from helpers import A_END_PHASE, A_END_PIECE, A_MANEUVER, A_SELECT_UNIT, Pos, S, strip

from hotspot.core.combat import is_combat_leader
from hotspot.core.events import ELIM_CIA, EV_COMBAT, EV_SQUAD_LOST
from hotspot.core.rules_data import (
    CHART_CIA,
    PHASE_T_COMBAT,
    PHASE_T_MOVE,
    T_CRAWLER,
    T_HEAVY_BEAMER,
    T_INFANTRY,
    Z_HOVERCRAFT,
    Z_INFANTRY,
)
from hotspot.core.state import UF_ATTACKING


def ground(**options):
    g = Pos(**options)
    strip(g)
    return g


@pytest.mark.parametrize("overrunner", [T_CRAWLER, T_HEAVY_BEAMER])
def test_overrun_passes_through_infantry_without_attack(overrunner):
    """11.1: crawlers and heavy beamers may move through hexes holding only
    Ziegler infantry without stopping; no attack if they leave the hex; the
    infantry is not eliminated.  11.2/D15: one Close Infantry Assault die as
    the counter moves through (here a 3: no effect)."""
    g = ground()
    t = g.unit(overrunner, (3, 2))
    z = g.unit(Z_INFANTRY, (3, 3), squads=2)
    g.begin(PHASE_T_MOVE, turn=2)
    g.dice(3)
    g.act(A_SELECT_UNIT + t, A_MANEUVER + S)
    assert g.where(t) == (3, 3) and g.s["unit_moves"][t] > 0  # did not stop
    assert g.rolls(CHART_CIA) == []  # rolled on leaving the hex (R11.2)
    g.act(A_MANEUVER + S)
    assert g.where(t) == (3, 4)
    assert [r[1:4] for r in g.rolls()] == [(CHART_CIA, t, 3)]
    assert g.alive(z) and g.squads(z) == 2
    assert not g.s["unit_flags"][t] & UF_ATTACKING
    g.act(A_END_PHASE)
    assert g.events(EV_COMBAT) == []  # no combat in phase G
    assert g.phase != PHASE_T_COMBAT


def test_overrun_that_stops_in_the_hex_attacks():
    """11.1, 8.3 (R11.1): an overrunning crawler whose move ends in the
    infantry hex attacks there (no Close Infantry Assault is rolled)."""
    g = ground()
    t = g.unit(T_CRAWLER, (3, 2))
    g.unit(Z_INFANTRY, (3, 3))
    g.begin(PHASE_T_MOVE, turn=2)
    g.act(A_SELECT_UNIT + t, A_MANEUVER + S, A_END_PIECE)
    assert g.s["unit_flags"][t] & UF_ATTACKING
    assert g.rolls(CHART_CIA) == []
    g.act(A_END_PHASE)
    assert g.phase == PHASE_T_COMBAT and is_combat_leader(g.s, t)


def test_overrun_ending_with_last_movement_point_attacks():
    """11.1, 8.3: entering the infantry hex with its last movement point, the
    crawler stays there and attacks."""
    g = ground()
    t = g.unit(T_CRAWLER, (3, 1))
    g.unit(Z_INFANTRY, (3, 4))
    g.begin(PHASE_T_MOVE, turn=2)
    g.act(A_SELECT_UNIT + t, A_MANEUVER + S, A_MANEUVER + S, A_MANEUVER + S)
    assert g.where(t) == (3, 4) and g.s["unit_flags"][t] & UF_ATTACKING


def test_no_overrun_through_hovercraft():
    """11.1: only hexes holding *only* Ziegler infantry may be overrun: with a
    hovercraft there the crawler stops (8.3)."""
    g = ground()
    t = g.unit(T_CRAWLER, (3, 2))
    g.unit(Z_INFANTRY, (3, 3))
    g.unit(Z_HOVERCRAFT, (3, 3))
    g.begin(PHASE_T_MOVE, turn=2)
    g.act(A_SELECT_UNIT + t, A_MANEUVER + S)
    assert g.s["unit_moves"][t] == 0 and g.s["unit_flags"][t] & UF_ATTACKING


def test_infantry_cannot_overrun():
    """11.1: only crawlers and heavy beamers overrun; Technocrat infantry stops."""
    g = ground()
    t = g.unit(T_INFANTRY, (3, 2), squads=3)
    g.unit(Z_INFANTRY, (3, 3))
    g.begin(PHASE_T_MOVE, turn=2)
    g.act(A_SELECT_UNIT + t, A_MANEUVER + S)
    assert g.s["unit_moves"][t] == 0 and g.s["unit_flags"][t] & UF_ATTACKING


def test_cia_roll_1_ziegler_loses_one_attack_factor():
    """11.2, 16.0 Close Infantry Assault Table, roll 1: the Ziegler infantry
    loses one attack factor (one squad, D4), from its smallest counter (D15)."""
    g = ground()
    t = g.unit(T_CRAWLER, (3, 2))
    big = g.unit(Z_INFANTRY, (3, 3), squads=3)
    small = g.unit(Z_INFANTRY, (3, 3), squads=2)
    g.begin(PHASE_T_MOVE, turn=2)
    g.dice(1)
    g.act(A_SELECT_UNIT + t, A_MANEUVER + S, A_MANEUVER + S)
    assert g.where(t) == (3, 4)
    assert (g.squads(big), g.squads(small)) == (3, 1)
    assert len(g.events(EV_SQUAD_LOST)) == 1


def test_cia_roll_1_can_eliminate_a_one_squad_counter():
    """11.2: the lost attack factor of a one-squad counter eliminates it."""
    g = ground()
    t = g.unit(T_CRAWLER, (3, 2))
    z = g.unit(Z_INFANTRY, (3, 3), squads=1)
    g.begin(PHASE_T_MOVE, turn=2)
    g.dice(1)
    g.act(A_SELECT_UNIT + t, A_MANEUVER + S, A_MANEUVER + S)
    assert not g.alive(z) and g.eliminated() == [z]
    assert g.where(t) == (3, 4)


@pytest.mark.parametrize("roll", [2, 3, 4])
def test_cia_rolls_2_to_4_no_effect(roll):
    """11.2, 16.0: rolls 2, 3, 4: no effect."""
    g = ground()
    t = g.unit(T_HEAVY_BEAMER, (3, 2))
    z = g.unit(Z_INFANTRY, (3, 3), squads=1)
    g.begin(PHASE_T_MOVE, turn=2)
    g.dice(roll)
    g.act(A_SELECT_UNIT + t, A_MANEUVER + S, A_MANEUVER + S)
    assert g.where(t) == (3, 4) and g.alive(z) and g.squads(z) == 1
    assert g.eliminated() == []


@pytest.mark.parametrize("roll", [5, 6])
def test_cia_rolls_5_6_overrunning_counter_eliminated(roll):
    """11.2, 16.0: rolls 5, 6: the overrunning counter is eliminated (it does
    not make the step out of the hex)."""
    g = ground()
    t = g.unit(T_CRAWLER, (3, 2))
    z = g.unit(Z_INFANTRY, (3, 3), squads=1)
    g.begin(PHASE_T_MOVE, turn=2)
    g.dice(roll)
    g.act(A_SELECT_UNIT + t, A_MANEUVER + S, A_MANEUVER + S)
    assert not g.alive(t) and g.eliminated(ELIM_CIA) == [t]
    assert g.alive(z) and g.squads(z) == 1


def test_one_cia_die_per_overrunning_counter_whatever_the_defenders():
    """11.2: one die for every overrunning unit as it moves through, regardless
    of the number of defending infantry: three Ziegler counters, two crawlers
    passing through: two dice."""
    g = ground()
    a = g.unit(T_CRAWLER, (3, 2))
    b = g.unit(T_CRAWLER, (3, 2))
    g.units(Z_INFANTRY, (3, 3), 3, squads=3)
    g.begin(PHASE_T_MOVE, turn=2)
    g.dice(3, 4)
    g.move_unit(a, S, S)
    g.move_unit(b, S, S)
    assert [r[2] for r in g.rolls(CHART_CIA)] == [a, b]
    assert g.where(a) == g.where(b) == (3, 4)


def test_overrun_through_two_infantry_hexes_two_dice():
    """11.1, 11.2: a crawler overrunning two infantry hexes in a row faces one
    assault in each."""
    g = ground()
    t = g.unit(T_CRAWLER, (3, 1))
    g.unit(Z_INFANTRY, (3, 2))
    g.unit(Z_INFANTRY, (3, 3))
    g.begin(PHASE_T_MOVE, turn=2)
    g.dice(2, 3)
    g.move_unit(t, S, S, S)
    assert g.where(t) == (3, 4)
    assert len(g.rolls(CHART_CIA, t)) == 2


def test_cia_disabled_option():
    """D15 option cia_enabled=False: no Close Infantry Assault is made."""
    g = ground(cia_enabled=False)
    t = g.unit(T_CRAWLER, (3, 2))
    g.unit(Z_INFANTRY, (3, 3))
    g.begin(PHASE_T_MOVE, turn=2)
    g.move_unit(t, S, S)
    assert g.where(t) == (3, 4)
    assert g.rolls(CHART_CIA) == []
