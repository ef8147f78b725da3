"""The game-turn sequence (rulebook 4.0; D18; reading R4.0).

Phases A-H run in order; the player whose phase it is decides; a phase in
which he has nothing to decide is skipped, but its automatic steps happen.
"""

from helpers import A_END_PHASE, A_MANEUVER, A_SELECT_PIECE, A_SELECT_UNIT, A_SPLIT, N, Pos, S, strip

from hotspot.core.actions import current_player
from hotspot.core.crustal_movement import M_STEP
from hotspot.core.errors import ERR_ALREADY_SELECTED, ERR_WRONG_PHASE
from hotspot.core.events import EV_PHASE
from hotspot.core.rules_data import (
    ONE_HEX,
    PHASE_CONTROL,
    PHASE_T_COMBAT,
    PHASE_T_CRUSTAL,
    PHASE_T_MOVE,
    PHASE_Z_COMBAT,
    PHASE_Z_CRUSTAL,
    PHASE_Z_MOVE,
    PHASE_Z_SECOND,
    PLATFORM,
    T_ENGINEER,
    T_INFANTRY,
    TECHNOCRAT,
    Z_HOVERCRAFT,
    Z_INFANTRY,
    ZIEGLER,
)


def test_phases_a_to_h_in_order_with_a_decision_in_each():
    """4.0: A Ziegler crustal movement, B Ziegler regular movement, C Ziegler
    combat, D Ziegler second movement, E Technocrat crustal and platform
    movement, F Technocrat regular movement, G Technocrat combat, H crustal
    control; then the next turn's phase A."""
    g = Pos()
    strip(g)
    zc = g.piece(ONE_HEX, [(14, 20)])
    ap = g.piece(PLATFORM, [(12, 3)])
    _tc = g.piece(ONE_HEX, [(10, 16)], controller=TECHNOCRAT, control_turn=1)
    g.unit(T_ENGINEER, (10, 16))
    z = g.unit(Z_INFANTRY, (3, 1))
    t = g.unit(T_INFANTRY, (3, 2))
    h = g.unit(Z_HOVERCRAFT, (3, 9))
    seen = []

    def at(phase, player):
        assert g.phase == phase and int(current_player(g.s)) == player
        seen.append(phase)

    g.begin(PHASE_Z_CRUSTAL, turn=2)
    at(PHASE_Z_CRUSTAL, ZIEGLER)
    g.act(A_SELECT_PIECE + zc, A_MANEUVER + M_STEP + N, A_END_PHASE)
    at(PHASE_Z_MOVE, ZIEGLER)
    g.move_unit(z, S)  # attacks the Technocrat infantry in (3,2)
    g.act(A_END_PHASE)
    at(PHASE_Z_COMBAT, ZIEGLER)
    g.dice(1)  # 1 vs 2: 1:2, NE: the Ziegler infantry retreats to (3,1)
    g.act(A_SELECT_UNIT + z)
    assert g.where(z) == (3, 1)
    at(PHASE_Z_SECOND, ZIEGLER)
    g.move_unit(h, N)
    g.act(A_END_PHASE)
    at(PHASE_T_CRUSTAL, TECHNOCRAT)
    g.act(A_SELECT_PIECE + ap, A_MANEUVER + M_STEP + N, A_END_PHASE)
    at(PHASE_T_MOVE, TECHNOCRAT)
    g.move_unit(t, N)  # attacks (3,1)
    g.act(A_END_PHASE)
    at(PHASE_T_COMBAT, TECHNOCRAT)
    g.dice(1)  # 2 vs 1: 2:1, roll 1: NE
    g.act(A_SELECT_UNIT + t)
    at(PHASE_CONTROL, TECHNOCRAT)  # neutralization of tc may be tried (15.4)
    g.act(A_END_PHASE)
    assert g.phase == PHASE_Z_CRUSTAL and g.turn == 3
    assert seen == list(range(8))


def test_phases_without_decision_are_skipped_but_logged():
    """4.0, R4.0: phases in which the player to move has no decision pass by
    themselves, in order; here only the reserve engineer can move (phase F)."""
    g = Pos()
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    assert g.phase == PHASE_T_MOVE and g.turn == 2
    assert [r[1:3] for r in g.events(EV_PHASE)] == [(p, 2) for p in range(6)]
    g.clear_events()
    g.act(A_END_PHASE)
    assert g.phase == PHASE_T_MOVE and g.turn == 3
    assert [r[1:3] for r in g.events(EV_PHASE)] == [(6, 2), (7, 2)] + [(p, 3) for p in range(6)]


def test_actions_of_the_wrong_phase_refused():
    """4.0: each kind of action belongs to its phases."""
    g = Pos()
    k = g.piece(ONE_HEX, [(14, 20)])
    u = g.unit(Z_INFANTRY, (14, 20), squads=2)
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.refuse(A_SELECT_UNIT + u, ERR_WRONG_PHASE)
    g.refuse(A_SPLIT, ERR_WRONG_PHASE)
    g.act(A_END_PHASE)
    assert g.phase == PHASE_Z_MOVE
    g.refuse(A_SELECT_PIECE + k, ERR_WRONG_PHASE)


def _sweep(g):
    """Every action: the mask says legal exactly when action_error is OK, and
    every illegal action is refused by step with that code, leaving the state
    byte-identical."""
    import numpy as np

    from hotspot.core.actions import NUM_ACTIONS, action_error, legal_action_mask

    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal_action_mask(g.s, mask)
    n_legal = 0
    for a in range(NUM_ACTIONS):
        code = int(action_error(g.s, a))
        assert mask[a] == (code == 0)
        if code:
            g.refuse(a, code)
        else:
            n_legal += 1
    assert n_legal > 0
    return n_legal


def test_every_illegal_action_refused_state_unchanged_in_every_phase():
    """Engine contract (actions.step): in each phase of a turn, every action
    that is not legal is refused with its error code and the state is
    byte-identical afterwards; the legal-action mask is exactly the legal set."""
    g = Pos()
    strip(g)
    zc = g.piece(ONE_HEX, [(14, 20)])
    ap = g.piece(PLATFORM, [(12, 3)])
    g.piece(ONE_HEX, [(10, 16)], controller=TECHNOCRAT, control_turn=1)
    g.unit(T_ENGINEER, (10, 16))
    z = g.unit(Z_INFANTRY, (3, 1), squads=2)
    t = g.unit(T_INFANTRY, (3, 2))
    _h = g.unit(Z_HOVERCRAFT, (3, 9))
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    _sweep(g)
    g.act(A_SELECT_PIECE + zc)
    _sweep(g)  # a piece selected: maneuvers
    g.act(A_MANEUVER + M_STEP + N, A_END_PHASE)
    _sweep(g)  # phase B
    g.act(A_SELECT_UNIT + z)
    _sweep(g)  # a unit selected: steps, split
    g.refuse(A_SELECT_UNIT + z, ERR_ALREADY_SELECTED)
    g.act(A_MANEUVER + S)
    g.act(A_END_PHASE)
    assert g.phase == PHASE_Z_COMBAT
    assert _sweep(g) == 1  # the one combat
    g.dice(1)
    g.act(A_SELECT_UNIT + z)
    assert g.phase == PHASE_Z_SECOND
    _sweep(g)
    g.act(A_END_PHASE)
    _sweep(g)  # phase E
    g.act(A_SELECT_PIECE + ap)
    _sweep(g)
    g.act(A_END_PHASE)
    assert g.phase == PHASE_T_MOVE
    _sweep(g)
    g.move_unit(t, N)
    g.act(A_END_PHASE)
    assert g.phase == PHASE_T_COMBAT
    _sweep(g)
    g.dice(1)
    g.act(A_SELECT_UNIT + t)
    assert g.phase == PHASE_CONTROL
    _sweep(g)
