"""The information-set MCTS agent (hotspot/agents/ismcts.py, ``ismcts``).

* driven from Python (no compiled game policy: its code is compiled only
  when it plays); at its default parameters the agent and the compiled
  ``ismcts_action`` play the same moves from the same seeds;
* only legal actions, deterministic under its seed;
* honest (D20): two true states that differ only in what the mover may not
  see give the same action (the search reads only the information state);
* the tree: every iteration passes through one root child, the root's
  children are legal actions, the choice is the most visited child;
* the value network: the compiled and numpy forward passes agree, a trained
  network fits its targets, a malformed file is refused;
* parameters are validated with the name of the wrong one.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import hidden_twins, policy_snapshots

import hotspot.core as hc
from hotspot.agents.ismcts import DEFAULT_PARAMS, P_ITERATIONS, ISMCTSAgent, ismcts_action
from hotspot.agents.policies import POLICY_SCRIPTED, policy_action
from hotspot.agents.scripted import ScriptedAgent
from hotspot.agents.value_net import fit, init_net, load_net, mlp_value, predict, save_net
from hotspot.core.actions import NUM_ACTIONS, apply_action
from hotspot.core.game import Game
from hotspot.core.observation import observe
from hotspot.core.rules_data import PHASE_OVER, PHASE_PLAYER
from hotspot.core.state import STATE_DTYPE
from hotspot.features.position import NUM_POSITION_FEATURES, position_features

SMALL = dict(iterations=6)


def _snapshots(n_games, every, scenario="standard"):
    return policy_snapshots(n_games, every, ((POLICY_SCRIPTED, POLICY_SCRIPTED),), scenario)


def test_driven_from_python_whatever_its_parameters():
    """No compiled game policy: the arena and the environments call ``act``."""
    assert ISMCTSAgent(seed=1).policy_id is None
    assert ISMCTSAgent(seed=1, iterations=5).policy_id is None
    assert ISMCTSAgent(seed=1, net=init_net()).policy_id is None


@pytest.mark.parametrize(
    "kwargs, word",
    [
        (dict(iterations=0), "iterations"),
        (dict(iterations=2.5), "iterations"),
        (dict(c=-1.0), "c must"),
        (dict(rollout="greedy"), "rollout"),
        (dict(horizon=float("nan")), "horizon"),
        (dict(pw_alpha=2.0), "pw_alpha"),
    ],
)
def test_bad_parameters_are_refused_by_name(kwargs, word):
    with pytest.raises(ValueError, match=word):
        ISMCTSAgent(**kwargs)


def test_bad_inputs_are_refused():
    agent = ISMCTSAgent(seed=1, **SMALL)
    game = Game("standard", seed=1)
    with pytest.raises(ValueError, match="mask"):
        agent.act(game.observation(0), np.ones(3, bool), 0)
    with pytest.raises(ValueError, match="no legal action"):
        agent.act(game.observation(0), np.zeros(NUM_ACTIONS, bool), 0)
    with pytest.raises(TypeError):
        agent.act(np.zeros(4), game.legal_action_mask(), 0)


def test_python_agent_plays_the_compiled_moves():
    """ISMCTSAgent.act on information states == ismcts_action on states, the
    same generator streams (a part of a game: the budget is the default's)."""
    ev, ev_n = hc.no_events()
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    s = hc.init("standard", seeds=5)[0]
    agents = [ISMCTSAgent(seed=21), ScriptedAgent(seed=22)]  # Ziegler searches, Technocrat scripted
    rng = np.array([21, 22], dtype=np.uint64)
    obs = np.zeros(1, dtype=STATE_DTYPE)
    n = searched = 0
    while s["phase"] != PHASE_OVER and n < 150:
        side = int(PHASE_PLAYER[s["phase"]])
        if side == 0:
            a = int(ismcts_action(s, mask, rng, side))
        else:
            a = int(policy_action(POLICY_SCRIPTED, s, mask, rng, side))
        observe(s, side, True, obs[0])
        legal = mask.copy()
        assert legal[a]
        assert agents[side].act(obs, legal, side) == a, n
        searched += side == 0 and legal.sum() > 1
        apply_action(s, a, ev, ev_n)
        n += 1
    assert searched >= 20


@pytest.mark.parametrize("scenario", ["standard", "open"])
def test_only_legal_actions_and_deterministic(scenario):
    def play(seed):
        game = Game(scenario, seed=3, max_turns=3)
        agents = [ISMCTSAgent(seed=seed, **SMALL), ISMCTSAgent(seed=seed + 1, rollout="random", **SMALL)]
        out = []
        while not game.is_terminal():
            side = game.current_player()
            mask = game.legal_action_mask()
            a = agents[side].act(game.observation(side), mask, side)
            assert mask[a], game.action_to_string(a)
            game.apply_action(a)
            out.append(a)
        return out

    first = play(7)
    assert len(first) > 50
    assert play(7) == first


def test_hidden_information_never_changes_the_action():
    """Two true states that differ only in what the mover may not see give the same action (D20)."""
    compared = changed = 0
    for side, oa, ob, mask, diff in hidden_twins(_snapshots(4, 13)):
        assert ISMCTSAgent(seed=9, **SMALL).act(oa, mask.copy(), side) == ISMCTSAgent(seed=9, **SMALL).act(
            ob, mask.copy(), side
        )
        compared += 1
        changed += diff
    assert compared >= 20 and changed >= compared // 2


def test_tree_statistics():
    """Each iteration descends through exactly one root child; the root's
    children are legal actions; the choice is the most visited one."""
    checked = 0
    for states in _snapshots(2, 17):
        game = Game(_state=states.copy(), _record=None)
        side = game.current_player()
        mask = game.legal_action_mask()
        if mask.sum() < 3:
            continue
        agent = ISMCTSAgent(seed=4, iterations=40, margin=0.0)
        a = agent.act(game.observation(side), mask, side)
        acts, visits, means = agent.root_statistics()
        assert visits.sum() == 40
        assert mask[acts].all() and len(set(acts.tolist())) == len(acts)
        assert a in acts and visits[list(acts).index(a)] == visits.max()
        assert np.all(np.abs(means[visits > 0]) <= 1.0)
        # progressive widening: at most ceil(sqrt(40)) children at the root
        assert 1 <= len(acts) <= int(np.ceil(np.sqrt(40)))
        checked += 1
    assert checked >= 5


def test_an_unbeatable_margin_plays_the_scripted_move():
    """The search leaves the rollout policy's (scripted) choice only for an
    action better by ``margin``: with a margin no value can exceed, it plays
    exactly the scripted player's move (which reads the same information
    state, so the first determinization's choice is the scripted choice)."""
    checked = deviated = 0
    for states in _snapshots(2, 19):
        game = Game(_state=states.copy(), _record=None)
        side = game.current_player()
        mask = game.legal_action_mask()
        if mask.sum() < 2:
            continue
        o = game.observation(side)
        scripted = ScriptedAgent(seed=1).act(o, mask.copy(), side)
        assert ISMCTSAgent(seed=2, iterations=12, margin=3.0).act(o, mask.copy(), side) == scripted
        deviated += ISMCTSAgent(seed=2, iterations=12, margin=0.0, prior=0.0).act(o, mask.copy(), side) != scripted
        checked += 1
    assert checked >= 10
    assert deviated >= 1  # without margin and prior the search does leave the script somewhere


def test_default_budget():
    """The documented default: 16 iterations, scripted rollouts to the end of the turn."""
    assert DEFAULT_PARAMS[P_ITERATIONS] == 16 and ISMCTSAgent(seed=0).rollout == "scripted"


# ------------------------------------------------------------------ value network


def test_value_network_compiled_equals_numpy_and_fits():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, NUM_POSITION_FEATURES))
    y = np.tanh(X[:, 0] - 0.5 * X[:, 3])
    net = init_net(hidden=8, seed=1)
    for x in X[:5]:
        assert abs(mlp_value(x, net) - predict(net, x[None])[0]) < 1e-12
    before = float(np.mean((predict(net, X) - y) ** 2))
    net2, losses = fit(net, X, y, epochs=60, lr=0.02)
    after = float(np.mean((predict(net2, X) - y) ** 2))
    assert after < 0.5 * before and losses[-1] < losses[0]


def test_position_features_are_bounded_on_real_positions():
    f = np.zeros(NUM_POSITION_FEATURES)
    for states in _snapshots(2, 29, "random:2"):
        position_features(states[0], f)
        # about [0, 1]; the local odds (14, 15) add up over every engineer counter
        assert np.all(np.isfinite(f)) and f.min() >= 0.0 and f.max() <= 10.0
        assert np.all(f[[0, 1, 2, 3, 11, 12, 17, 20]] <= 1.0)
        assert f[-1] == 1.0


def test_value_network_file_round_trip_and_refusals(tmp_path):
    net = init_net(hidden=4, seed=2)
    path = tmp_path / "v.npz"
    save_net(path, net, generation=3)
    assert np.array_equal(load_net(path), net)
    np.savez(tmp_path / "bad.npz", net=net[:-2], features=np.int64(NUM_POSITION_FEATURES))
    with pytest.raises(ValueError, match="malformed"):
        load_net(tmp_path / "bad.npz")
    np.savez(tmp_path / "other.npz", net=net, features=np.int64(5))
    with pytest.raises(ValueError, match="features"):
        load_net(tmp_path / "other.npz")
    agent = ISMCTSAgent(seed=1, net=path, **SMALL)
    game = Game("standard", seed=2)
    side = game.current_player()
    assert game.legal_action_mask()[agent.act(game.observation(side), game.legal_action_mask(), side)]


# ------------------------------------------------------------------ expert iteration's data


def test_record_games_targets_are_the_results_and_deterministic():
    """Each recorded position (a start of turn, phase A) carries its game's
    result for the Technocrat (+1/-1, 0 if stopped by max_turns: D19 revised)."""
    from hotspot.agents.expert import record_games
    from hotspot.core.victory import side_return

    def run():
        st = hc.init("random:3", seeds=range(6), max_turns=12)
        X, y, g = record_games(st, POLICY_SCRIPTED, POLICY_SCRIPTED, 0.1, seed=4)
        return st, X, y, g

    st, X, y, g = run()
    assert X.shape[1] == NUM_POSITION_FEATURES and len(X) == len(y) == len(g)
    assert set(np.unique(g)) == set(range(6)) and np.all(np.diff(g) >= 0)
    for i in range(6):
        expected = side_return(st[i], 1) if st[i]["phase"] == PHASE_OVER else 0.0
        assert np.all(y[g == i] == expected)
        assert (g == i).sum() <= int(st[i]["turn"])  # one row per turn started
    st2, X2, y2, g2 = run()
    assert np.array_equal(X, X2) and np.array_equal(y, y2) and st.tobytes() == st2.tobytes()
