"""Technocrat engineer squads: control, reversion, neutralization and the
Central Crustal (rulebook 15.0, 5.0; D6, D18; readings R15.2, R15.4).

Control attempts and reversions are made at the start of the Crustal Control
phase (D18 steps 1-2); neutralization is the Technocrat's decision there
(SELECT_PIECE k, step 3); break-ups follow (step 4).
"""

import pytest
from helpers import A_END_PHASE, A_SELECT_PIECE, Pos

from hotspot.core.errors import ERR_CANNOT_NEUTRALIZE, ERR_NEUTRALIZED
from hotspot.core.events import EV_CONTROL, EV_GAME_OVER, EV_NEUTRALIZED, EV_REVERT
from hotspot.core.rules_data import (
    CHART_CONTROL,
    CHART_NEUTRALIZE,
    ONE_HEX,
    PHASE_CONTROL,
    PHASE_OVER,
    PHASE_T_CRUSTAL,
    PLATFORM,
    T_ENGINEER,
    T_INFANTRY,
    TECHNOCRAT,
    TECHNOCRAT_WIN,
    TRIANGULAR,
    Z_HOVERCRAFT,
    Z_INFANTRY,
    ZIEGLER,
)

TRI = [(3, 4), (3, 5), (4, 5)]


def control_phase(g, turn=2):
    g.piece(ONE_HEX, [(14, 20)])  # a Ziegler decision in the next phase A stops play there
    g.begin(PHASE_CONTROL, turn=turn)


@pytest.mark.parametrize("roll, won", [(1, True), (2, True), (3, False), (4, False), (5, False), (6, False)])
def test_control_attempt_crustal_control_chart(roll, won):
    """15.2, 16.0 Crustal Control Chart: with an engineer squad on a Ziegler
    crustal and no Ziegler combat unit on it, a roll of 1 or 2 takes control."""
    g = Pos()
    k = g.piece(ONE_HEX, [(4, 4)])
    g.unit(T_ENGINEER, (4, 4))
    g.dice(roll)
    control_phase(g)
    assert [r[1:4] for r in g.rolls(CHART_CONTROL)] == [(CHART_CONTROL, k, roll)]
    assert g.s["piece_controller"][k] == (TECHNOCRAT if won else ZIEGLER)
    assert [r[1] for r in g.events(EV_CONTROL)] == ([k] if won else [])
    if won:
        assert g.s["piece_control_turn"][k] == 2


@pytest.mark.parametrize("rolls, won", [((3, 1, 6), True), ((2, 6, 6), True), ((3, 4, 5), False)])
def test_one_die_per_engineer_squad(rolls, won):
    """15.2 (R15.2): one die for every engineer squad on the crustal, on any of
    its hexes; one success is enough."""
    g = Pos()
    k = g.piece(TRIANGULAR, TRI)
    for h in TRI:
        g.unit(T_ENGINEER, h)
    g.dice(*rolls)
    control_phase(g)
    assert len(g.rolls(CHART_CONTROL, k)) == 3
    assert g.s["piece_controller"][k] == (TECHNOCRAT if won else ZIEGLER)


@pytest.mark.parametrize("blocker", [Z_INFANTRY, Z_HOVERCRAFT])
def test_ziegler_combat_unit_on_crustal_blocks_control(blocker):
    """15.2, D6: no control attempt while a Ziegler combat unit is on the
    crustal (on any of its hexes)."""
    g = Pos()
    k = g.piece(TRIANGULAR, TRI)
    g.unit(T_ENGINEER, TRI[0])
    g.unit(T_INFANTRY, TRI[0])
    g.unit(blocker, TRI[2])
    g.dice(1)
    control_phase(g)
    assert g.rolls(CHART_CONTROL) == []
    assert g.s["piece_controller"][k] == ZIEGLER


def test_zero_attack_ziegler_unit_does_not_block_control():
    """D6: "Ziegler combat units" are units with attack > 0; with the infantry's
    attack set to 0 (an option), infantry does not block control."""
    g = Pos(attack={"ziegler_infantry": 0})
    k = g.piece(ONE_HEX, [(4, 4)])
    g.unit(T_ENGINEER, (4, 4))
    g.unit(Z_INFANTRY, (4, 4))
    g.dice(1)
    control_phase(g)
    assert g.s["piece_controller"][k] == TECHNOCRAT


def test_no_engineers_no_attempt():
    """15.2: only engineer squads take control; other Technocrat units do not."""
    g = Pos()
    k = g.piece(ONE_HEX, [(4, 4)])
    g.unit(T_INFANTRY, (4, 4), squads=3)
    g.dice(1)
    control_phase(g)
    assert g.rolls(CHART_CONTROL) == []
    assert g.s["piece_controller"][k] == ZIEGLER


def test_control_lets_technocrat_move_the_crustal():
    """15.2, 4.0 E: a crustal the Technocrat controls is moved by him in phase E."""
    g = Pos()
    k = g.piece(ONE_HEX, [(4, 4)])
    g.unit(T_ENGINEER, (4, 4))
    g.dice(1)
    g.begin(PHASE_CONTROL, turn=2)
    assert g.s["piece_controller"][k] == TECHNOCRAT
    assert g.turn == 3 and g.phase == PHASE_T_CRUSTAL  # nothing for Ziegler in A-D
    assert g.legal(A_SELECT_PIECE + k)


# ------------------------------------------------------------------ 15.3
def test_control_reverts_without_engineer():
    """15.3: in a Crustal Control phase with no engineer on a controlled
    crustal, control reverts to the Ziegler player."""
    g = Pos()
    k = g.piece(ONE_HEX, [(4, 4)], controller=TECHNOCRAT, control_turn=1)
    g.unit(T_INFANTRY, (4, 4))
    control_phase(g)
    assert g.s["piece_controller"][k] == ZIEGLER
    assert [r[1] for r in g.events(EV_REVERT)] == [k]


def test_control_sustained_with_engineer():
    """15.3: control continues as long as an engineer squad is on the crustal
    (even with Ziegler units on it)."""
    g = Pos()
    k = g.piece(TRIANGULAR, TRI, controller=TECHNOCRAT, control_turn=1)
    g.unit(T_ENGINEER, TRI[1])
    g.unit(Z_INFANTRY, TRI[0], squads=3)
    control_phase(g)
    assert g.phase == PHASE_CONTROL  # a neutralization attempt is possible: decline it
    g.act(A_END_PHASE)
    assert g.s["piece_controller"][k] == TECHNOCRAT
    assert g.events(EV_REVERT) == []


# ------------------------------------------------------------------ 15.4
@pytest.mark.parametrize("roll, done", [(1, True), (2, True), (3, False), (6, False)])
def test_neutralization_attempt(roll, done):
    """15.4: in a Crustal Control phase after the one in which he won control,
    the Technocrat may try to neutralize the crustal, whatever Ziegler units
    are on it: one die per engineer squad, 1 or 2 neutralizes it."""
    g = Pos()
    k = g.piece(TRIANGULAR, TRI, controller=TECHNOCRAT, control_turn=1)
    g.unit(T_ENGINEER, TRI[0])
    g.unit(Z_INFANTRY, TRI[1], squads=3)
    g.unit(Z_HOVERCRAFT, TRI[2])
    control_phase(g)
    assert g.phase == PHASE_CONTROL
    g.dice(roll)
    g.act(A_SELECT_PIECE + k)
    assert [r[1:4] for r in g.rolls(CHART_NEUTRALIZE)] == [(CHART_NEUTRALIZE, k, roll)]
    assert bool(g.s["piece_neutralized"][k]) == done
    assert [r[1] for r in g.events(EV_NEUTRALIZED)] == ([k] if done else [])
    assert g.s["piece_controller"][k] == TECHNOCRAT
    assert g.phase != PHASE_CONTROL  # nothing left to decide: the phase ended


def test_neutralization_one_die_per_squad():
    """15.4: one die per engineer squad on the crustal."""
    g = Pos()
    k = g.piece(TRIANGULAR, TRI, controller=TECHNOCRAT, control_turn=1)
    for h in TRI:
        g.unit(T_ENGINEER, h)
    control_phase(g)
    g.dice(5, 6, 2)
    g.act(A_SELECT_PIECE + k)
    assert len(g.rolls(CHART_NEUTRALIZE, k)) == 3
    assert g.s["piece_neutralized"][k]


def test_no_neutralization_in_the_phase_control_was_won():
    """15.4, D18: only a crustal controlled since before this phase may be
    neutralized; one attempt per crustal per phase (R15.4); never a Ziegler
    crustal, a platform or the Central Crustal."""
    g = Pos()
    old1 = g.piece(ONE_HEX, [(4, 4)], controller=TECHNOCRAT, control_turn=1)
    old2 = g.piece(ONE_HEX, [(8, 4)], controller=TECHNOCRAT, control_turn=1)
    new = g.piece(ONE_HEX, [(12, 4)])
    z = g.piece(ONE_HEX, [(4, 16)])
    p = g.piece(PLATFORM, [(8, 16)])
    for h in [(4, 4), (8, 4), (12, 4), (8, 16)]:
        g.unit(T_ENGINEER, h)
    g.dice(1)  # control attempt on `new` succeeds
    control_phase(g)
    assert g.s["piece_controller"][new] == TECHNOCRAT
    g.refuse(A_SELECT_PIECE + new, ERR_CANNOT_NEUTRALIZE)
    g.refuse(A_SELECT_PIECE + z, ERR_CANNOT_NEUTRALIZE)
    g.refuse(A_SELECT_PIECE + p, ERR_CANNOT_NEUTRALIZE)
    g.refuse(A_SELECT_PIECE + 0, ERR_CANNOT_NEUTRALIZE)
    g.refuse(A_SELECT_PIECE + g.reserve_piece, ERR_CANNOT_NEUTRALIZE)  # already neutralized
    g.dice(4)
    g.act(A_SELECT_PIECE + old1)  # fails
    assert not g.s["piece_neutralized"][old1]
    g.refuse(A_SELECT_PIECE + old1, ERR_CANNOT_NEUTRALIZE)  # once per phase
    assert g.legal(A_SELECT_PIECE + old2)


def test_neutralized_crustal_never_reverts():
    """15.4: the Ziegler player may not regain control of a neutralized crustal:
    it stays the Technocrat's with no engineer on it and Ziegler units on it."""
    g = Pos()
    k = g.piece(ONE_HEX, [(4, 4)], controller=TECHNOCRAT, neutralized=True, control_turn=1)
    g.unit(Z_INFANTRY, (4, 4), squads=3)
    control_phase(g)
    assert g.s["piece_controller"][k] == TECHNOCRAT and g.s["piece_neutralized"][k]
    assert g.events(EV_REVERT) == []


def test_neutralized_crustal_cannot_move():
    """15.4: a neutralized crustal cannot move (phase E refuses it)."""
    g = Pos()
    g.piece(PLATFORM, [(14, 0)])
    k = g.piece(ONE_HEX, [(4, 4)], controller=TECHNOCRAT, neutralized=True, control_turn=1)
    g.unit(T_ENGINEER, (4, 4))
    g.begin(PHASE_T_CRUSTAL, turn=3)
    g.refuse(A_SELECT_PIECE + k, ERR_NEUTRALIZED)


def test_regain_control_after_reversion():
    """15.3: the Technocrat may regain control the way he first won it (an
    engineer back on the reverted crustal, next Crustal Control phase)."""
    g = Pos()
    k = g.piece(ONE_HEX, [(4, 4)], controller=TECHNOCRAT, control_turn=1)
    control_phase(g)
    assert g.s["piece_controller"][k] == ZIEGLER
    g2 = Pos()
    k = g2.piece(ONE_HEX, [(4, 4)])  # reverted: Ziegler's again
    g2.unit(T_ENGINEER, (4, 4))
    g2.dice(2)
    control_phase(g2)
    assert g2.s["piece_controller"][k] == TECHNOCRAT


# ------------------------------------------------------------------ 15.5
def test_central_crustal_control_wins():
    """15.5, 5.0, D18: control of the Central Crustal is determined like any
    crustal's; taking it wins the game for the Technocrat at once (a result,
    not a truncation: D19 revised)."""
    g = Pos()
    g.unit(T_ENGINEER, (7, 10))
    g.unit(T_INFANTRY, (7, 9))  # rolls nothing: only engineers attempt control
    g.dice(2)
    control_phase(g)
    assert g.phase == PHASE_OVER
    assert g.s["result"] == TECHNOCRAT_WIN and g.s["truncated"] == 0
    assert [r[1:3] for r in g.events(EV_GAME_OVER)] == [(TECHNOCRAT_WIN, 0)]
    assert len(g.rolls(CHART_CONTROL, 0)) == 1


def test_central_crustal_two_engineers_one_success():
    """15.5, 15.2: one die per engineer squad on the Central Crustal."""
    g = Pos()
    g.unit(T_ENGINEER, (7, 10))
    g.unit(T_ENGINEER, (8, 10))
    g.dice(6, 1)
    control_phase(g)
    assert len(g.rolls(CHART_CONTROL, 0)) == 2
    assert g.s["result"] == TECHNOCRAT_WIN


def test_central_crustal_failed_attempt():
    """15.5: a failed attempt (3-6) leaves the game going."""
    g = Pos()
    g.unit(T_ENGINEER, (7, 10))
    g.dice(3)
    control_phase(g)
    assert g.phase != PHASE_OVER and g.s["result"] == 0
    assert g.s["piece_controller"][0] == ZIEGLER


def test_central_crustal_blocked_by_ziegler_combat_unit():
    """15.2, 15.5: a Ziegler combat unit on any hex of the Central Crustal
    blocks the attempt."""
    g = Pos()
    g.unit(T_ENGINEER, (7, 10))
    g.unit(Z_INFANTRY, (6, 11))
    g.dice(1)
    control_phase(g)
    assert g.rolls(CHART_CONTROL) == []
    assert g.phase != PHASE_OVER


# ------------------------------------------------- D22 option control_blocker
@pytest.mark.parametrize("blocker_option", ["crustal", "hex"])
def test_control_blocker_option(blocker_option):
    """15.2 ("No Ziegler combat units may be on the crustal"), D6, D22 option
    control_blocker.  An engineer squad on one hex of a triangular crustal, a
    Ziegler infantry counter on another.  "crustal" (default): the Ziegler
    combat unit anywhere on the crustal blocks the attempt, no die is rolled.
    "hex": only a Ziegler combat unit in the engineers' own hex blocks; the
    engineer rolls its die and a 1 takes control."""
    g = Pos(control_blocker=blocker_option)
    k = g.piece(TRIANGULAR, TRI)
    g.unit(T_ENGINEER, TRI[0])
    g.unit(Z_INFANTRY, TRI[2])
    g.dice(1)
    control_phase(g)
    if blocker_option == "crustal":
        assert g.rolls(CHART_CONTROL) == []
        assert g.s["piece_controller"][k] == ZIEGLER
    else:
        assert [r[1:4] for r in g.rolls(CHART_CONTROL)] == [(CHART_CONTROL, k, 1)]
        assert g.s["piece_controller"][k] == TECHNOCRAT


@pytest.mark.parametrize("blocker_option", ["crustal", "hex"])
def test_control_blocker_option_engineers_hex_blocked(blocker_option):
    """15.2, D22 option control_blocker: engineer squads in a hex holding a
    Ziegler combat unit never roll.  One engineer squad shares TRI[0] with a
    Ziegler hovercraft, two more stand on TRI[1]: "crustal" rolls nothing;
    "hex" rolls one die for each of the two squads of TRI[1] only."""
    g = Pos(control_blocker=blocker_option)
    k = g.piece(TRIANGULAR, TRI)
    g.unit(T_ENGINEER, TRI[0])
    g.unit(Z_HOVERCRAFT, TRI[0])
    g.unit(T_ENGINEER, TRI[1])
    g.unit(T_ENGINEER, TRI[1])
    g.dice(4, 2, 6)
    control_phase(g)
    if blocker_option == "crustal":
        assert g.rolls(CHART_CONTROL) == []
        assert g.s["piece_controller"][k] == ZIEGLER
    else:
        assert [r[3] for r in g.rolls(CHART_CONTROL, k)] == [4, 2]
        assert g.s["piece_controller"][k] == TECHNOCRAT


@pytest.mark.parametrize("blocker_option", ["crustal", "hex"])
def test_control_blocker_option_central_crustal(blocker_option):
    """15.5 ("Control of Central Crustal is determined exactly as control is
    for any crustal"), D22 option control_blocker: an engineer on (7,10) and
    Ziegler infantry on (6,11), another hex of the Central Crustal.
    "crustal": blocked, play goes on; "hex": the engineer rolls a 1 and the
    Technocrat wins (5.0)."""
    g = Pos(control_blocker=blocker_option)
    g.unit(T_ENGINEER, (7, 10))
    g.unit(Z_INFANTRY, (6, 11))
    g.dice(1)
    control_phase(g)
    if blocker_option == "crustal":
        assert g.rolls(CHART_CONTROL) == [] and g.phase != PHASE_OVER
    else:
        assert len(g.rolls(CHART_CONTROL, 0)) == 1
        assert g.phase == PHASE_OVER and g.s["result"] == TECHNOCRAT_WIN
