"""Hovercraft second movement (rulebook 13.0; D17; readings R13.2, R13.3).

Ground: the strip of crustal hexes in column 3, rows 1-9.
"""

from helpers import A_END_PHASE, A_MANEUVER, A_SELECT_UNIT, A_SPLIT, N, Pos, S, strip

from hotspot.core.errors import (
    ERR_NOT_HOVERCRAFT,
    ERR_NOTHING_SELECTED,
    ERR_SECOND_MOVE_ENEMY,
    ERR_UNIT_DONE,
    ERR_WRONG_PHASE,
)
from hotspot.core.events import ELIM_HOVERCRAFT, EV_STRESS
from hotspot.core.rules_data import (
    CHART_CRT,
    CHART_STRESS,
    ONE_HEX,
    PHASE_OVER,
    PHASE_Z_MOVE,
    PHASE_Z_SECOND,
    T_ENGINEER,
    T_INFANTRY,
    Z_HOVERCRAFT,
    Z_INFANTRY,
    ZIEGLER_WIN,
)


def ground(**kw):
    g = Pos(**kw)
    g.strip = strip(g)
    g.piece(ONE_HEX, [(14, 20)])
    g.spare_h = g.unit(Z_HOVERCRAFT, (14, 20))  # keeps phase D open
    return g


def test_only_hovercraft_move_in_second_movement_at_most_three():
    """13.1: after the Ziegler combat phase only hovercraft move again, at most
    three hexes (their allowance is 6 in regular movement)."""
    g = ground()
    h = g.unit(Z_HOVERCRAFT, (3, 1))
    i = g.unit(Z_INFANTRY, (3, 1))
    g.begin(PHASE_Z_SECOND, turn=2)
    assert g.phase == PHASE_Z_SECOND
    g.refuse(A_SELECT_UNIT + i, ERR_NOT_HOVERCRAFT)
    g.act(A_SELECT_UNIT + h)
    for _ in range(3):
        g.act(A_MANEUVER + S)
    assert g.where(h) == (3, 4)
    g.refuse(A_MANEUVER + S, ERR_NOTHING_SELECTED)
    g.refuse(A_SELECT_UNIT + h, ERR_UNIT_DONE)
    g.refuse(A_SPLIT, ERR_WRONG_PHASE)  # no breakdowns in the second movement (10.0)


def test_hovercraft_move_in_both_ziegler_movement_phases():
    """13.1: hovercraft move in both Ziegler movement phases of a turn: six hexes
    in B, then three more in D."""
    g = ground()
    h = g.unit(Z_HOVERCRAFT, (3, 1))
    g.begin(PHASE_Z_MOVE, turn=2)
    assert g.s["unit_moves"][h] == 6
    g.move_unit(h, S, S, S, S, S, S)
    assert g.where(h) == (3, 7)
    g.act(A_END_PHASE)  # C has no combat
    assert g.phase == PHASE_Z_SECOND
    assert g.s["unit_moves"][h] == 3
    g.move_unit(h, S, S)
    assert g.where(h) == (3, 9)


def test_second_movement_may_not_enter_enemy_hex():
    """13.3: in the second movement hovercraft may not enter hexes holding
    Technocrat units other than engineers.  D20, R13.3b: the Ziegler player
    sees the top counter, so a stack topped by infantry is refused outright."""
    g = ground()
    h = g.unit(Z_HOVERCRAFT, (3, 1))
    g.unit(T_INFANTRY, (3, 2))
    g.begin(PHASE_Z_SECOND, turn=2)
    g.act(A_SELECT_UNIT + h)
    g.refuse(A_MANEUVER + S, ERR_SECOND_MOVE_ENEMY)


def test_hidden_stack_entry_is_refused_on_contact_and_revealed():
    """13.3 with D20's hidden information (R13.3b): an engineer on top of a
    stack that also holds infantry looks the same to the Ziegler player as
    engineers only, so he may try the entry; it is refused on contact as over
    the table: the hovercraft stays, its second movement ends, the engineers
    survive, and the stack is shown to him for the rest of the phase (his
    observation sees every counter; a second hovercraft is refused outright)."""
    import numpy as np

    from hotspot.core.events import EV_REVEALED
    from hotspot.core.observation import observe
    from hotspot.core.rules_data import ZIEGLER

    g = ground()
    h = g.unit(Z_HOVERCRAFT, (3, 5))
    h2 = g.unit(Z_HOVERCRAFT, (3, 8))
    e = g.unit(T_ENGINEER, (3, 6))  # the top counter (lowest index, R9.5)
    i = g.unit(T_INFANTRY, (3, 6))
    g.begin(PHASE_Z_SECOND, turn=2)
    g.act(A_SELECT_UNIT + h)
    assert g.legal(A_MANEUVER + S)
    g.act(A_MANEUVER + S)
    assert g.where(h) == (3, 5) and g.s["unit_moves"][h] == 0
    assert g.alive(e) and g.alive(i)
    assert len(g.events(EV_REVEALED)) == 1
    out = np.zeros(1, dtype=g.s.dtype)
    observe(g.s, ZIEGLER, True, out[0])
    assert out[0]["unit_type"][i] == T_INFANTRY and out[0]["unit_squads"][i] == 1
    g.act(A_SELECT_UNIT + h2, A_MANEUVER + N)  # to (3,7), next to the stack
    g.refuse(A_MANEUVER + N, ERR_SECOND_MOVE_ENEMY)


def test_phase_d_mask_does_not_reveal_hidden_contents():
    """D20: the legal mask depends only on what the moving side may know.  Two
    positions that differ only in the hidden (non-top) counters of a
    Technocrat stack give the Ziegler player the same mask in phase D."""
    import numpy as np

    from hotspot.core.actions import NUM_ACTIONS, legal_action_mask

    masks = []
    for hidden in (T_ENGINEER, T_INFANTRY):
        g = ground()
        h = g.unit(Z_HOVERCRAFT, (3, 5))
        g.unit(T_ENGINEER, (3, 6))
        g.unit(hidden, (3, 6))
        g.begin(PHASE_Z_SECOND, turn=2)
        g.act(A_SELECT_UNIT + h)
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        legal_action_mask(g.s, mask)
        masks.append(mask)
    assert masks[0][A_MANEUVER + S]
    assert np.array_equal(masks[0], masks[1])


def test_hovercraft_eliminates_engineer_only_hex_at_once():
    """13.3, 12.3, D17 (R13.3): a hovercraft entering a hex holding only
    Technocrat engineers eliminates them at once, with no die roll; its move
    ends there."""
    g = ground()
    h = g.unit(Z_HOVERCRAFT, (3, 1))
    e1 = g.unit(T_ENGINEER, (3, 2))
    e2 = g.unit(T_ENGINEER, (3, 2))
    g.begin(PHASE_Z_SECOND, turn=2)
    g.act(A_SELECT_UNIT + h, A_MANEUVER + S)
    assert not g.alive(e1) and not g.alive(e2)
    assert sorted(g.eliminated(ELIM_HOVERCRAFT)) == sorted([e1, e2])
    assert g.rolls(CHART_CRT) == []
    assert g.where(h) == (3, 2) and g.s["unit_moves"][h] == 0
    assert g.phase == PHASE_Z_SECOND  # the spare hovercraft may still move


def test_hovercraft_killing_last_engineers_wins():
    """D17, D19, 5.0: when the hovercraft strike eliminates the last engineer
    squads, the Ziegler player wins at once: a result, not a truncation
    (D19 revised: only a harness's max_turns truncates)."""
    g = Pos(reserve=False)
    strip(g)
    h = g.unit(Z_HOVERCRAFT, (3, 1))
    g.unit(Z_HOVERCRAFT, (3, 9))
    g.unit(T_ENGINEER, (3, 2))
    g.begin(PHASE_Z_SECOND, turn=2)
    g.act(A_SELECT_UNIT + h, A_MANEUVER + S)
    assert g.phase == PHASE_OVER
    assert g.s["result"] == ZIEGLER_WIN and g.s["truncated"] == 0


def test_stress_not_rolled_twice_in_a_turn():
    """13.2: a hex over six units rolled for at the end of the Ziegler regular
    movement is not rolled for again when a hovercraft enters it in the second
    movement; a hex a hovercraft makes over six is rolled for."""
    g = ground()
    l2 = g.strip[1]  # (3,4), (3,5), (3,6)
    g.units(Z_INFANTRY, (3, 4), 7)
    g.units(Z_INFANTRY, (3, 6), 6)
    h1 = g.unit(Z_HOVERCRAFT, (3, 2))
    h2 = g.unit(Z_HOVERCRAFT, (3, 8))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.dice(6, 6, 6)
    g.act(A_END_PHASE)
    assert [r[1:4] for r in g.events(EV_STRESS)] == [(l2, 0, 7)]
    assert g.phase == PHASE_Z_SECOND
    g.move_unit(h1, S, S)  # into (3,4): 8 units, already rolled for
    g.move_unit(h2, N, N)  # into (3,6): 7 units
    g.act(A_END_PHASE)
    assert [r[1:4] for r in g.events(EV_STRESS)] == [(l2, 0, 7), (l2, 2, 7)]
    assert len(g.rolls(CHART_STRESS)) == 2
