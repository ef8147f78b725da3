"""Expert iteration's policy head: the search's visit counts as
policy targets, the masked-softmax head trained on them with numpy, the head
as the search's root prior (``ismcts.P_POLICY``) agreeing with the numpy
head (``policy_net.logits``), and its checked weight files.

Only compiled entry points the rest of the suite compiles anyway are called
(``play_and_record``, ``ismcts_decide`` with a network); the heads here are
small random ones, so that nothing depends on the shipped weights."""

import numpy as np
import pytest

import hotspot.core as hc
from hotspot.agents.base import POLICY_ISMCTS, POLICY_SCRIPTED
from hotspot.agents.expert import record_games
from hotspot.agents.ismcts import DEFAULT_PARAMS, P_ITERATIONS, P_POLICY, ISMCTSAgent
from hotspot.agents.policy_net import (
    check_policy,
    cross_entropy,
    fit_policy,
    init_policy,
    load_expert,
    logits,
    save_expert,
)
from hotspot.agents.value_net import init_net
from hotspot.core.actions import NUM_PLAY_ACTIONS
from hotspot.core.game import Game
from hotspot.core.rules_data import PHASE_T_SETUP, PHASE_Z_SETUP
from hotspot.features.decision import NUM_DECISION_FEATURES, decision_features

VALUE = init_net(8, seed=1)
POLICY = init_policy(8, seed=2)


def test_recorded_policy_targets_are_visit_distributions_over_the_legal_actions():
    """Each searched decision's target is the root's visit distribution: it
    sums to 1, lies on the decision's legal actions, and the recording is
    deterministic under a seed."""
    params = DEFAULT_PARAMS.copy()
    params[P_ITERATIONS] = 4

    def run():
        st = hc.init("open", seeds=[7], max_turns=1)
        return record_games(st, POLICY_ISMCTS, POLICY_SCRIPTED, 0.0, seed=3, params=params, policy_targets=True)

    X, y, g, (Xp, P, M, pg) = run()
    assert len(Xp) > 0 and Xp.shape[1] == NUM_DECISION_FEATURES
    assert P.shape == M.shape == (len(Xp), NUM_PLAY_ACTIONS) and np.all(pg == 0)
    assert np.allclose(P.sum(axis=1), 1.0) and np.all(P >= 0)
    assert np.all(P[~M] == 0)  # visits only on legal actions
    assert np.all(M.sum(axis=1) >= 2)  # only decisions that were searched
    assert np.all(Xp[:, 21:29].sum(axis=1) == 1)  # a phase of play each (set-up is not searched)
    assert np.all(Xp[:, 29] == 0)  # the Ziegler searched (the scripted Technocrat did not)
    X2, y2, g2, (Xp2, P2, M2, pg2) = run()
    assert np.array_equal(Xp, Xp2) and np.array_equal(P, P2) and np.array_equal(M, M2)


def test_training_reduces_the_cross_entropy():
    """Adam on the masked softmax learns targets that depend on the features."""
    rng = np.random.default_rng(0)
    X = rng.random((300, NUM_DECISION_FEATURES))
    M = np.zeros((300, NUM_PLAY_ACTIONS), dtype=bool)
    M[:, :6] = True
    P = np.zeros((300, NUM_PLAY_ACTIONS))
    P[np.arange(300), (X[:, 0] * 6).astype(int)] = 1.0  # the best action is a function of feature 0
    before = cross_entropy(POLICY, X, P, M)
    net, losses = fit_policy(POLICY, X, P, M, epochs=40, lr=0.02, batch=64)
    assert losses[-1] < losses[0] and cross_entropy(net, X, P, M) < 0.6 * before
    z = np.where(M, logits(net, X), -np.inf)
    assert np.mean(np.argmax(z, axis=1) == np.argmax(P, axis=1)) > 0.6


def test_training_refuses_targets_off_the_legal_actions():
    X = np.zeros((2, NUM_DECISION_FEATURES))
    M = np.zeros((2, NUM_PLAY_ACTIONS), dtype=bool)
    M[:, 0] = True
    P = np.zeros((2, NUM_PLAY_ACTIONS))
    P[:, 1] = 1.0
    with pytest.raises(ValueError, match="distribution over its legal actions"):
        fit_policy(POLICY, X, P, M)


def _play_phase_decisions(n, seed=4):
    """``n`` play-phase decisions of a random game of ``open`` (set-up by the scripted plan)."""
    game = Game("open", seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    while not game.is_terminal() and len(out) < n:
        side = game.current_player()
        mask = game.legal_action_mask()
        if int(game.s["phase"]) not in (PHASE_Z_SETUP, PHASE_T_SETUP) and mask.sum() > 1:
            out.append((game.observation(side), mask.copy(), side))
        game.apply_action(int(rng.choice(np.flatnonzero(mask))))
    return out


def _numpy_head_choice(info_state, mask):
    """The numpy policy head's most likely legal action (ties: the lowest index)."""
    feat = np.zeros(NUM_DECISION_FEATURES, dtype=np.float64)
    decision_features(info_state[0] if info_state.shape == (1,) else info_state, feat)
    z = logits(POLICY, feat[None, :])[0]
    legal = np.flatnonzero(mask[:NUM_PLAY_ACTIONS])
    return int(legal[int(np.argmax(z[legal]))])


def test_search_prior_is_the_numpy_heads_choice():
    """The compiled policy head (the search's root default, ``P_POLICY``) and
    the numpy one (``policy_net.logits``) choose the same action: with one
    iteration the search plays its root default."""
    search = ISMCTSAgent(iterations=1, net=VALUE, policy=POLICY, seed=1)
    assert search.params[P_POLICY] == 1 and search.policy_id is None
    decisions = _play_phase_decisions(40)
    assert len(decisions) == 40
    chosen = [_numpy_head_choice(o, m) for o, m, _side in decisions]
    assert [search.act(o, m, side) for o, m, side in decisions] == chosen
    assert all(m[a] for (_o, m, _side), a in zip(decisions, chosen))
    assert len(set(chosen)) > 1


def test_policy_switch_without_a_policy_head_changes_nothing():
    """``P_POLICY`` with a value-only network keeps the scripted default; the
    default ``ismcts`` agent is unchanged (no policy head)."""
    assert DEFAULT_PARAMS[P_POLICY] == 0 and np.array_equal(ISMCTSAgent().params, DEFAULT_PARAMS)
    decisions = _play_phase_decisions(8, seed=5)
    plain = ISMCTSAgent(iterations=4, net=VALUE, seed=2)
    switched = ISMCTSAgent(iterations=4, net=VALUE, seed=2)
    switched.params[P_POLICY] = 1
    assert [plain.act(*d) for d in decisions] == [switched.act(*d) for d in decisions]
    with pytest.raises(ValueError, match="needs a value network"):
        ISMCTSAgent(policy=POLICY)


def test_expert_files_are_checked(tmp_path):
    """A saved two-headed file loads back; wrong sizes, tampered values and
    other feature versions are refused with the reason."""
    path = tmp_path / "expert.npz"
    save_expert(path, VALUE, POLICY, generation=3)
    value, policy = load_expert(path)
    assert np.array_equal(value, VALUE) and np.array_equal(policy, POLICY)
    bad = POLICY.copy()
    bad[10] = np.nan
    with pytest.raises(ValueError, match="malformed"):
        check_policy(bad)
    with pytest.raises(ValueError, match="malformed"):
        check_policy(POLICY[:-1])
    other = POLICY.copy()
    other[0] = NUM_DECISION_FEATURES - 1
    with pytest.raises(ValueError, match="features"):
        check_policy(other)
    save_expert(path, VALUE, bad)
    with pytest.raises(ValueError, match="malformed"):
        load_expert(path)
    np.savez(path, value=VALUE, policy=POLICY, features=np.int64(21), policy_features=np.int64(5))
    with pytest.raises(ValueError, match="features"):
        load_expert(path)
    np.savez(path, value=VALUE)
    with pytest.raises(ValueError, match="not an expert network"):
        load_expert(path)
