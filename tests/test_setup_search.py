"""The set-up search (hotspot/agents/setup_search.py; 3.2, 3.3, D21).

* it runs at the first decision of a side's whole deployment only;
* a seed of the scripted plan *is* a deployment: the plan played by the
  agent in the real game and the plan played in a search's play-out from a
  determinization of the side's information state place the same pieces and
  counters on the same hexes (for the Technocrat too, whose play-outs sample
  the Ziegler stacks it cannot see, 9.5);
* it is deterministic in its seed, reads only the information state (D20),
  and an ISMCTS agent with it plays legal, complete deployments;
* its parameters are validated by name.
"""

from __future__ import annotations

import numpy as np
import pytest

from hotspot.agents.base import POLICY_SCRIPTED
from hotspot.agents.beliefs import DMG_P0, PRIOR_FORCES, SQUAD_PROBS, determinize
from hotspot.agents.ismcts import ISMCTSAgent
from hotspot.agents.policies import play_policy_until
from hotspot.agents.rollouts import new_rollout_buffers, rollout_action
from hotspot.agents.scripted.setup import setup_decide
from hotspot.agents.setup_search import deployment_seed_by_playouts, deployment_untouched
from hotspot.core.actions import NUM_ACTIONS, apply_action, current_player, legal_action_mask
from hotspot.core.events import no_events
from hotspot.core.game import Game
from hotspot.core.observation import observe
from hotspot.core.rules_data import PHASE_T_SETUP, PHASE_Z_SETUP, TECHNOCRAT, ZIEGLER
from hotspot.core.scenario import load_scenario, scenario_to_state, start_states
from hotspot.core.state import STATE_DTYPE


def _open_game(seed):
    return start_states(scenario_to_state(load_scenario("open"), 0), [seed])


def _info(s, side):
    o = np.empty(1, dtype=STATE_DTYPE)
    observe(s, side, True, o[0])
    return o


def _to_technocrat_setup(states, seed):
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev, ev_n = no_events()
    rng = np.array([seed, seed + 1], dtype=np.uint64)
    play_policy_until(states[0], TECHNOCRAT, POLICY_SCRIPTED, mask, rng, 0, ev, ev_n)
    assert states[0]["phase"] == PHASE_T_SETUP


def _placements(s, side):
    """``side``'s deployment: its pieces (kind, cells) and counters (type, squads, cell), sorted."""
    pieces = sorted(
        (int(s["piece_kind"][k]), tuple(int(c) for c in s["piece_cells"][k]))
        for k in range(1, s["piece_kind"].shape[0])
        if s["piece_kind"][k] > 0 and ((s["piece_kind"][k] == 6) == (side == TECHNOCRAT))
    )
    units = sorted(
        (int(s["unit_type"][u]), int(s["unit_squads"][u]), int(s["unit_cell"][u]))
        for u in range(s["unit_type"].shape[0])
        if s["unit_type"][u] > 0 and (s["unit_type"][u] >= 3) == (side == TECHNOCRAT)
    )
    return pieces, units


def test_only_the_first_decision_of_a_whole_deployment_is_searched():
    states = _open_game(3)
    s = states[0]
    assert s["phase"] == PHASE_Z_SETUP
    assert deployment_untouched(_info(s, ZIEGLER)[0], ZIEGLER)
    assert not deployment_untouched(_info(s, TECHNOCRAT)[0], TECHNOCRAT)  # not its set-up yet (3.3)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal_action_mask(s, mask)
    ev, ev_n = no_events()
    apply_action(s, int(setup_decide(_info(s, ZIEGLER)[0], mask, ZIEGLER, np.array([5], np.uint64), 0)), ev, ev_n)
    assert not deployment_untouched(_info(s, ZIEGLER)[0], ZIEGLER)  # an item chosen
    _to_technocrat_setup(states, 9)
    assert deployment_untouched(_info(states[0], TECHNOCRAT)[0], TECHNOCRAT)
    assert not deployment_untouched(_info(states[0], ZIEGLER)[0], ZIEGLER)
    # a scenario with both deployments preset has no set-up phase to search
    std = Game("standard", seed=1)
    assert not deployment_untouched(std.observation(ZIEGLER)[0], ZIEGLER)
    assert not deployment_untouched(std.observation(TECHNOCRAT)[0], TECHNOCRAT)


@pytest.mark.parametrize("side", [ZIEGLER, TECHNOCRAT])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_seed_is_a_deployment_in_the_real_game_and_in_a_play_out(side, seed):
    states = _open_game(seed)
    if side == TECHNOCRAT:
        _to_technocrat_setup(states, seed)
    phase = int(states[0]["phase"])
    candidate = np.uint64(1234567 + seed)
    # the real game: the plan on the side's information state, generator = the candidate
    real = states.copy()
    rng = np.array([candidate], dtype=np.uint64)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev, ev_n = no_events()
    while real[0]["phase"] == phase:
        legal_action_mask(real[0], mask)
        apply_action(real[0], int(setup_decide(_info(real[0], side)[0], mask, side, rng, 0)), ev, ev_n)
    # a play-out: a determinization of the information state, the rollout policy with the candidate
    d = np.empty(1, dtype=STATE_DTYPE)
    determinize(_info(states[0], side)[0], side, d[0], np.array([99], np.uint64), PRIOR_FORCES, SQUAD_PROBS, DMG_P0)
    prng = np.array([0, 0], dtype=np.uint64)
    prng[side] = candidate
    obs, work = new_rollout_buffers()
    while d[0]["phase"] == phase:
        assert current_player(d[0]) == side
        apply_action(d[0], int(rollout_action(d[0], mask, prng, POLICY_SCRIPTED, obs, work)), ev, ev_n)
    assert _placements(real[0], side) == _placements(d[0], side)
    assert len(_placements(real[0], side)[1]) > 0


def test_deterministic_in_its_seed_and_reads_only_the_information_state():
    states = _open_game(4)
    _to_technocrat_setup(states, 4)
    o = _info(states[0], TECHNOCRAT)
    a = deployment_seed_by_playouts(o[0], TECHNOCRAT, np.uint64(11), 4, 2, 2, POLICY_SCRIPTED, DMG_P0)
    assert deployment_seed_by_playouts(o[0], TECHNOCRAT, np.uint64(11), 4, 2, 2, POLICY_SCRIPTED, DMG_P0) == a
    # another truth behind the same information state (the Ziegler stacks' hidden counters, 9.5)
    other = states.copy()
    hidden = [u for u in range(other[0]["unit_type"].shape[0]) if o[0]["unit_type"][u] < 0]
    assert hidden, "the Technocrat should not see every Ziegler counter at set-up"
    u = hidden[0]
    other[0]["unit_squads"][u] = 1 if other[0]["unit_squads"][u] != 1 else 2
    o2 = _info(other[0], TECHNOCRAT)
    assert deployment_seed_by_playouts(o2[0], TECHNOCRAT, np.uint64(11), 4, 2, 2, POLICY_SCRIPTED, DMG_P0) == a
    # one candidate: no play-outs, the first seed drawn
    one = deployment_seed_by_playouts(o[0], TECHNOCRAT, np.uint64(11), 1, 4, 2, POLICY_SCRIPTED, DMG_P0)
    four = {
        int(deployment_seed_by_playouts(o[0], TECHNOCRAT, np.uint64(k), 4, 1, 1, POLICY_SCRIPTED, DMG_P0))
        for k in range(6)
    }
    assert len(four) > 1 and int(one) != 0


@pytest.mark.parametrize("side", [ZIEGLER, TECHNOCRAT])
def test_an_agent_with_the_search_deploys_legally_and_reproducibly(side):
    def deploy(seed):
        g = Game("open", seed=21)
        agent = ISMCTSAgent(seed=seed, iterations=2, deploy_candidates=3, deploy_games=1, deploy_turns=1)
        other = ISMCTSAgent(seed=seed + 1, iterations=2, deploy_candidates=0)
        while g.phase in (PHASE_Z_SETUP, PHASE_T_SETUP):
            mover = g.current_player()
            who = agent if mover == side else other
            g.apply_action(who.act(g.observation(mover), g.legal_action_mask(), mover))
        return _placements(g.s, side)

    first = deploy(7)
    assert first == deploy(7)
    assert len(first[1]) > 0


@pytest.mark.parametrize(
    "kwargs, word",
    [
        (dict(deploy_candidates=-1), "deploy_candidates"),
        (dict(deploy_candidates=2.5), "deploy_candidates"),
        (dict(deploy_games=10**6), "deploy_games"),
        (dict(deploy_turns=float("inf")), "deploy_turns"),
    ],
)
def test_bad_set_up_search_parameters_are_refused_by_name(kwargs, word):
    with pytest.raises(ValueError, match=word):
        ISMCTSAgent(**kwargs)
