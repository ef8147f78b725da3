"""Who chooses the counter that loses a squad (rulebook 12.5.2, 11.2; D15,
D22 rules option ``losses``).

12.5.2: '"C": The defender must lose one infantry squad (one Ziegler or two
Technocrat attack factors; see 10.0).'  11.2: the Close Infantry Assault
Table's roll 1: "Ziegler infantry loses 1 attack factor".  The rulebook does
not say which counter loses it.  D15 (default ``losses="automatic"``): "lose
squads from the smallest infantry counter first".  D22: "losses to a 'C' or a
Close Infantry Assault (12.5.2, D15): automatic, smallest counter first
(default), or the owner's decision (an action)": with ``losses="owner"`` the
losing side names the counter with SELECT_UNIT while the loss is pending
(actions.py), and it is that side's decision (current_player).

Positions as in test_rules_combat.py / test_rules_overruns.py: a two-hex
crustal (3,4)-(3,5), defenders in (3,4), attackers step N from (3,5); or the
strip of column 3 for overruns.
"""

import numpy as np
import pytest
from helpers import A_END_PHASE, A_MANEUVER, A_SELECT_UNIT, N, Pos, S, strip

from hotspot import Game
from hotspot.core.actions import NUM_ACTIONS, current_player, legal_action_mask
from hotspot.core.errors import ERR_LOSS_PENDING, ERR_NOT_A_LOSS
from hotspot.core.events import EV_COMBAT, EV_SQUAD_LOST, SQUAD_LOST_CIA, SQUAD_LOST_COMBAT
from hotspot.core.rules_data import (
    CHART_CIA,
    CRT_C,
    ONE_HEX,
    PHASE_T_COMBAT,
    PHASE_T_MOVE,
    PHASE_Z_COMBAT,
    PHASE_Z_MOVE,
    T_CRAWLER,
    T_HEAVY_BEAMER,
    T_INFANTRY,
    TECHNOCRAT,
    TWO_HEX,
    Z_HOVERCRAFT,
    Z_INFANTRY,
    ZIEGLER,
)

C_ROLL = 3  # D13: at 1:1, a roll of 3 is "C"


def legal(g):
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal_action_mask(g.s, mask)
    return set(int(a) for a in np.flatnonzero(mask))


def _technocrat_attack(losses, defenders, attackers=((T_HEAVY_BEAMER, 1), (T_CRAWLER, 1)), roll=C_ROLL):
    """Technocrat ``attackers`` step into (3,4) held by Ziegler ``defenders``
    [(type, squads)] and resolve the combat in phase G with ``roll``.
    Default: heavy beamer + crawler = 7 against the defenders."""
    g = Pos(losses=losses)
    g.piece(TWO_HEX, [(3, 4), (3, 5)])
    g.piece(ONE_HEX, [(14, 20)])
    spare = g.unit(Z_INFANTRY, (14, 20), squads=2)  # a Ziegler counter elsewhere (not a candidate)
    ds = [g.unit(t, (3, 4), sq) for t, sq in defenders]
    ats = [g.unit(t, (3, 5), sq) for t, sq in attackers]
    g.begin(PHASE_T_MOVE, turn=2)
    for a in ats:
        g.move_unit(a, N)
    g.act(A_END_PHASE)
    assert g.phase == PHASE_T_COMBAT
    g.dice(roll)
    g.act(A_SELECT_UNIT + ats[0])
    rows = g.events(EV_COMBAT)
    assert len(rows) == 1 and rows[0][5] == CRT_C, rows
    return g, ds, ats, spare


# three-squad, two-squad infantry and a hovercraft: defense 3 + 2 + 2 = 7;
# 7 against 7 is 1:1 (D14), a roll of 3 a "C" (D13)
MIXED = [(Z_INFANTRY, 3), (Z_INFANTRY, 2), (Z_HOVERCRAFT, 1)]


def test_automatic_c_takes_the_squad_from_the_smallest_counter():
    """12.5.2, D15 (default losses="automatic"): "lose squads from the smallest
    infantry counter first": the two-squad counter loses the squad, with no
    decision asked; the attackers retreat (12.6)."""
    g, (big, small, hover), ats, _ = _technocrat_attack("automatic", MIXED)
    assert int(g.s["loss_side"]) == -1
    assert (g.squads(big), g.squads(small)) == (3, 1) and g.alive(hover)
    assert [r[1] for r in g.events(EV_SQUAD_LOST)] == [small]
    assert all(g.where(a) == (3, 5) for a in ats)
    assert g.phase != PHASE_T_COMBAT  # the only combat is resolved, play goes on


def test_owner_chooses_the_counter_after_a_c_result():
    """12.5.2, D22 losses="owner": after the C result the defender decides:
    the current player is the Ziegler player, and the only legal actions are
    SELECT_UNIT of his infantry counters in that hex (not the hovercraft, not
    infantry elsewhere, no END_PHASE).  The chosen counter loses the squad."""
    g, (big, small, hover), ats, spare = _technocrat_attack("owner", MIXED)
    assert int(g.s["loss_side"]) == ZIEGLER
    assert int(current_player(g.s)) == ZIEGLER
    assert (g.squads(big), g.squads(small)) == (3, 2)  # nothing lost yet
    assert legal(g) == {A_SELECT_UNIT + big, A_SELECT_UNIT + small}
    g.refuse(A_SELECT_UNIT + hover, ERR_NOT_A_LOSS)
    g.refuse(A_SELECT_UNIT + spare, ERR_NOT_A_LOSS)
    g.refuse(A_SELECT_UNIT + ats[0], ERR_NOT_A_LOSS)
    g.refuse(A_END_PHASE, ERR_LOSS_PENDING)
    g.refuse(A_MANEUVER + N, ERR_LOSS_PENDING)
    g.act(A_SELECT_UNIT + big)
    assert (g.squads(big), g.squads(small)) == (2, 2) and g.alive(hover)
    assert [r[1:4:2] for r in g.events(EV_SQUAD_LOST)] == [(big, SQUAD_LOST_COMBAT)]
    assert int(g.s["loss_side"]) == -1
    assert all(g.where(a) == (3, 5) for a in ats)  # 12.5.2: not eliminated, so they retreat
    assert g.phase != PHASE_T_COMBAT


@pytest.mark.parametrize("choice", [0, 1])
def test_owner_may_choose_either_counter(choice):
    """D22 losses="owner": whichever counter the defender names loses the
    squad (a one-squad counter so chosen is eliminated, 12.5.2)."""
    g, ds, _, _ = _technocrat_attack(
        "owner", [(Z_INFANTRY, 3), (Z_INFANTRY, 1)], attackers=((T_INFANTRY, 2),)
    )  # 4 vs 4: 1:1
    g.act(A_SELECT_UNIT + ds[choice])
    if choice == 0:
        assert (g.squads(ds[0]), g.squads(ds[1])) == (2, 1)
    else:
        assert g.squads(ds[0]) == 3 and not g.alive(ds[1])


def test_the_two_readings_give_different_counters():
    """D15 vs D22: the same position and dice: "automatic" takes the squad from
    the two-squad counter, "owner" lets the Ziegler player take it from the
    three-squad counter instead.  (A test that would pass under both readings
    checks nothing of the option.)"""
    results = {}
    for losses in ("automatic", "owner"):
        g, (big, small, _), _, _ = _technocrat_attack(losses, MIXED)
        if losses == "owner":
            g.act(A_SELECT_UNIT + big)
        results[losses] = (g.squads(big), g.squads(small))
    assert results == {"automatic": (3, 1), "owner": (2, 2)}


def test_no_choice_when_every_counter_has_the_same_size():
    """D22: the owner is asked only when the choice matters: with every
    infantry counter there of the same size the squad is taken at once
    (lowest index on a tie, D15) and the Ziegler player is not asked."""
    g, (a, b, hover), ats, _ = _technocrat_attack("owner", [(Z_INFANTRY, 2), (Z_INFANTRY, 2), (Z_HOVERCRAFT, 1)])
    assert int(g.s["loss_side"]) == -1
    assert (g.squads(a), g.squads(b)) == (1, 2)
    assert g.phase != PHASE_T_COMBAT


def test_no_choice_without_infantry():
    """12.5.2 "Non-infantry units are unaffected" (R12.5.2): a C against
    hovercraft only takes nothing and asks nothing, even with losses="owner"."""
    g, (h1, h2), ats, _ = _technocrat_attack(
        "owner", [(Z_HOVERCRAFT, 1), (Z_HOVERCRAFT, 1)], attackers=((T_HEAVY_BEAMER, 1),)
    )  # 4 vs 4: 1:1
    assert int(g.s["loss_side"]) == -1
    assert g.alive(h1) and g.alive(h2) and g.events(EV_SQUAD_LOST) == []
    assert all(g.where(a) == (3, 5) for a in ats)


def test_owner_chooses_technocrat_losses_too():
    """12.5.2 ("one Ziegler or two Technocrat attack factors"), D22: when the
    Ziegler player attacks and gets a C, the Technocrat (the defender) names
    his counter: he is the current player during the Ziegler combat phase."""
    g = Pos(losses="owner")
    g.piece(TWO_HEX, [(3, 4), (3, 5)])
    g.piece(ONE_HEX, [(14, 20)])
    g.unit(Z_INFANTRY, (14, 20))
    t3 = g.unit(T_INFANTRY, (3, 4), squads=3)
    t1 = g.unit(T_INFANTRY, (3, 4), squads=1)
    zs = [g.unit(Z_INFANTRY, (3, 5), squads=3) for _ in range(3)] + [g.unit(Z_HOVERCRAFT, (3, 5))]
    g.begin(PHASE_Z_MOVE, turn=2)
    for z in zs:
        g.move_unit(z, N)
    g.act(A_END_PHASE)
    assert g.phase == PHASE_Z_COMBAT
    g.dice(C_ROLL)  # 9 + 2 = 11 against 6 + 2 = 8: 1:1, roll 3: C
    g.act(A_SELECT_UNIT + zs[0])
    assert g.events(EV_COMBAT)[0][5] == CRT_C
    assert int(current_player(g.s)) == TECHNOCRAT
    assert legal(g) == {A_SELECT_UNIT + t3, A_SELECT_UNIT + t1}
    g.act(A_SELECT_UNIT + t3)
    assert (g.squads(t3), g.squads(t1)) == (2, 1)
    assert int(g.s["loss_side"]) == -1


# --------------------------------------------------- 11.2 Close Infantry Assaults


def _overrun(losses, sizes, roll=1):
    """A crawler overruns (3,3), held by Ziegler infantry counters of ``sizes``
    squads, moving S from (3,2) to (3,4); the Close Infantry Assault die is
    ``roll`` (11.2, R11.2: rolled as it leaves the hex)."""
    g = Pos(losses=losses)
    strip(g)
    t = g.unit(T_CRAWLER, (3, 2))
    zs = [g.unit(Z_INFANTRY, (3, 3), squads=n) for n in sizes]
    g.begin(PHASE_T_MOVE, turn=2)
    g.dice(roll)
    g.act(A_SELECT_UNIT + t, A_MANEUVER + S, A_MANEUVER + S)
    assert [r[1:4] for r in g.rolls(CHART_CIA)] == [(CHART_CIA, t, roll)]
    return g, t, zs


def test_cia_loss_automatic_from_the_smallest_counter():
    """11.2, 16.0 (roll 1: "Ziegler infantry loses 1 attack factor"), D15: the
    squad comes from the smallest counter, nobody is asked."""
    g, t, (big, small) = _overrun("automatic", (3, 2))
    assert int(g.s["loss_side"]) == -1
    assert (g.squads(big), g.squads(small)) == (3, 1)
    assert int(current_player(g.s)) == TECHNOCRAT


def test_cia_loss_chosen_by_the_ziegler_player():
    """11.2, D22 losses="owner": the Ziegler player chooses which of his
    counters in the overrun hex loses the attack factor, during the
    Technocrat's movement phase; then the Technocrat goes on: the crawler has
    gone through to (3,4) and still has a hex of movement (8.1)."""
    g, t, (big, small) = _overrun("owner", (3, 2))
    assert g.phase == PHASE_T_MOVE
    assert int(current_player(g.s)) == ZIEGLER
    assert legal(g) == {A_SELECT_UNIT + big, A_SELECT_UNIT + small}
    g.refuse(A_MANEUVER + S, ERR_LOSS_PENDING)
    g.act(A_SELECT_UNIT + big)
    assert (g.squads(big), g.squads(small)) == (2, 2)
    assert [r[1:4:2] for r in g.events(EV_SQUAD_LOST)] == [(big, SQUAD_LOST_CIA)]
    assert int(current_player(g.s)) == TECHNOCRAT and g.phase == PHASE_T_MOVE
    assert g.where(t) == (3, 4)
    assert g.legal(A_MANEUVER + S)  # the crawler's move goes on (crawler: 3 hexes, D5)
    g.act(A_MANEUVER + S)
    assert g.where(t) == (3, 5)


def test_cia_readings_differ():
    """D15 vs D22 on the same overrun and die: different counters lose the squad."""
    g, _, (big, small) = _overrun("automatic", (3, 2))
    auto = (g.squads(big), g.squads(small))
    g, _, (big, small) = _overrun("owner", (3, 2))
    g.act(A_SELECT_UNIT + big)
    assert auto == (3, 1) and (g.squads(big), g.squads(small)) == (2, 2)


def test_cia_no_choice_when_counters_are_alike():
    """D22: counters of one size: the loss is taken at once (lowest index)."""
    g, t, (a, b) = _overrun("owner", (2, 2))
    assert int(g.s["loss_side"]) == -1
    assert (g.squads(a), g.squads(b)) == (1, 2)
    assert int(current_player(g.s)) == TECHNOCRAT


def test_cia_no_effect_rolls_ask_nothing():
    """11.2, 16.0: rolls 2-4 have no effect, so nothing is asked."""
    g, t, (big, small) = _overrun("owner", (3, 2), roll=3)
    assert int(g.s["loss_side"]) == -1 and (g.squads(big), g.squads(small)) == (3, 2)


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("scenario, seed", [("standard", 1), ("random:5", 2)])
def test_owner_losses_games_end_and_replay(scenario, seed):
    """D22 losses="owner": whole games by random legal actions (loss choices
    included) end, and their records replay byte-identically."""
    asked = 0
    for s in range(seed, seed + 4):
        game = Game(scenario, seed=s, rules={"losses": "owner"}, max_turns=10)
        rng = np.random.default_rng(s)
        n = 0
        while not game.is_terminal():
            if int(game.s["loss_side"]) >= 0:
                asked += 1
                assert game.current_player() == int(game.s["loss_side"])
                assert all(A_SELECT_UNIT <= a < A_SELECT_UNIT + 96 for a in game.legal_actions())
            game.apply_action(int(rng.choice(game.legal_actions())))
            n += 1
            assert n < 50_000
        assert Game.from_record(game.record).to_bytes() == game.to_bytes()
    assert asked >= 0


# ------------------------------------------------------- the harnesses (D22)


def _scripted_until_loss(states_of, step_fn, episodes=10):
    """Drive a harness with the compiled scripted policy until a loss choice is
    pending (D22 losses="owner"); returns the state then, or None."""
    from hotspot.agents.policies import POLICY_SCRIPTED, policy_action
    from hotspot.core.rules_data import PHASE_OVER

    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    rng = np.array([1, 2], dtype=np.uint64)
    for ep in range(episodes):
        s = states_of(ep)
        for _ in range(20_000):
            if int(s["phase"]) == PHASE_OVER:
                break
            if int(s["loss_side"]) >= 0:
                return s
            side = int(current_player(s))
            step_fn(int(policy_action(POLICY_SCRIPTED, s, mask, rng, side)))
    return None


def test_pettingzoo_env_selects_the_losing_side_for_its_loss_choice():
    """D22 losses="owner", actions.current_player ("the losing side while a
    loss it chooses is pending"): a two-player environment must hand that
    decision to the losing side's agent and show it the mask."""
    pytest.importorskip("pettingzoo")
    from hotspot.core.rules_data import SIDE_NAMES
    from hotspot.env.pettingzoo import HotspotAECEnv

    env = HotspotAECEnv("standard", rules={"losses": "owner"})

    def states_of(ep):
        env.reset(seed=ep)
        return env.states[0]

    s = _scripted_until_loss(states_of, env.step)
    assert s is not None, "no pending loss was reached"
    loser = SIDE_NAMES[int(s["loss_side"])]
    assert env.agent_selection == loser
    assert env.observe(loser)["action_mask"].any()


def test_single_agent_env_never_asks_the_learner_for_the_opponents_loss():
    """D22 losses="owner": in HotspotEnv the learner (here the Technocrat)
    acts only when it is his decision: when his attack in phase G inflicts a
    C on mixed Ziegler counters, the Ziegler (the opponent) names the counter,
    not the learner."""
    from hotspot.env.hotspot_env import HotspotEnv

    env = HotspotEnv(side="technocrat", opponent="random", scenario="standard", rules={"losses": "owner"})
    learner = TECHNOCRAT

    def states_of(ep):
        env.reset(seed=ep)
        return env.state

    seen = []

    def step_fn(a):
        seen.append(int(current_player(env.state)))
        env.step(a)

    s = _scripted_until_loss(states_of, step_fn)
    assert all(p == learner for p in seen)
    if s is not None:  # control came back to the learner with a loss pending: it must be his
        assert int(current_player(s)) == learner, (
            f"the learner is to name the opponent's lost counter (loss_side {int(s['loss_side'])})"
        )
