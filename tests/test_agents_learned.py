"""The learned agent (hotspot/agents/learned.py, issue 5).

* the shipped weights exist for both sides and load with numpy alone;
* the numpy forward pass picks the torch policy's action (MaskablePPO) on the
  same observations (skipped without the ``train`` extra);
* the agent encodes an information state exactly as the env encodes its observation;
* inference never imports torch;
* only legal actions over whole games, both sides;
* deterministic under a seed (when it samples from its masked policy, with its own generator);
* loop avoidance: in a position it has met this game it does not repeat an action while another is legal.
"""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hotspot.agents import Agent
from hotspot.agents.learned import LearnedAgent, NumpyPolicy, features, masked_logits, weights_path
from hotspot.arena import make_agent
from hotspot.core.game import Game
from hotspot.env.hotspot_env import HotspotEnv

ROOT = Path(__file__).resolve().parents[1]
SIDES = ("ziegler", "technocrat")


def _train_module():
    spec = importlib.util.spec_from_file_location("train_learned", ROOT / "benchmarks" / "train_learned.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("side", SIDES)
def test_shipped_weights_load(side):
    path = weights_path(side)
    assert path.exists(), path
    net = NumpyPolicy(path)
    env = HotspotEnv(side=side)
    obs, _ = env.reset(seed=0)
    x = features(obs)  # a network trained before the set-up phases: its 7442 inputs
    assert x.shape == (net.obs_dim,)
    logits = net.logits(x)
    # the shipped weights cover the actions of the phases of play (NUM_PLAY_ACTIONS of env's 578)
    assert logits.shape == (net.num_actions,) and net.num_actions <= env.action_space.n
    assert np.isfinite(logits).all()


def test_registered_and_interface():
    agent = make_agent("learned", seed=1)
    assert isinstance(agent, LearnedAgent) and isinstance(agent, Agent)
    assert agent.name == "learned" and agent.policy_id is None


@pytest.mark.parametrize("side", SIDES)
def test_encoding_matches_env(side):
    """The agent's observation of ``observe``'s record is the env's observation."""
    env = HotspotEnv(side=side, opponent="random")
    agent = LearnedAgent(seed=0)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(40):
        game_side = 0 if side == "ziegler" else 1
        from hotspot.core.observation import observe
        from hotspot.core.state import STATE_DTYPE
        rec = np.zeros(1, dtype=STATE_DTYPE)
        observe(env.state, game_side, True, rec[0])
        mine = agent.observation(rec, game_side)
        for k in obs:
            np.testing.assert_array_equal(mine[k], obs[k], err_msg=k)
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc:
            obs, info = env.reset()


def test_numpy_forward_matches_torch(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    train = _train_module()
    for side in SIDES:
        venv = DummyVecEnv([lambda: train.FlatHotspot(side, ["random"], seed=3)])
        model = MaskablePPO("MlpPolicy", venv, seed=3, n_steps=64, batch_size=64, device="cpu",
                            policy_kwargs=dict(net_arch=dict(pi=[32, 16], vf=[32, 16]),
                                               activation_fn=torch.nn.Tanh))
        path = tmp_path / weights_path(side).name
        train.export_policy(model, path, {"side": side})
        net = NumpyPolicy(path)
        env = train.FlatHotspot(side, ["random"], seed=4)
        x, info = env.reset(seed=4)
        rng = np.random.default_rng(1)
        for _ in range(12):
            mask = env.action_masks()
            with torch.no_grad():
                t_obs = torch.as_tensor(x[None])
                dist = model.policy.get_distribution(t_obs)
                t_logits = dist.distribution.logits[0].numpy()
            np_logits = net.logits(x)
            np.testing.assert_allclose(np_logits - np_logits.max(),
                                       t_logits - t_logits.max(), rtol=1e-4, atol=1e-4)
            t_action, _ = model.predict(x, action_masks=mask, deterministic=True)
            assert int(t_action) == int(np.argmax(masked_logits(np_logits, mask)))
            x, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            if term or trunc:
                x, info = env.reset()


def test_inference_does_not_import_torch():
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('torch', 'stable_baselines3', 'sb3_contrib'):\n"
        "            raise ImportError('blocked ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from hotspot.arena import make_agent\n"
        "from hotspot.core.game import Game\n"
        "g = Game('standard', seed=2); a = make_agent('learned', seed=2)\n"
        "n = 0\n"
        "while not g.is_terminal() and n < 200:\n"
        "    s = g.current_player(); g.apply_action(a.act(g.observation(s), g.legal_action_mask(), s)); n += 1\n"
        "assert 'torch' not in sys.modules\n"
        "print('ok', n)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok")


def _play(seed: int, learned_side: int | None, agent_seed: int = 0, deterministic=False,
          max_actions: int = 50_000):
    """One game (whole, or its first ``max_actions`` actions): learned on
    ``learned_side`` (None: both) against random."""
    from hotspot.agents import RandomAgent
    game = Game("standard", seed=seed)
    learned = LearnedAgent(seed=agent_seed, deterministic=deterministic)
    rand = RandomAgent(seed=agent_seed + 1)
    actions = []
    while not game.is_terminal():
        side = game.current_player()
        agent = learned if learned_side is None or side == learned_side else rand
        mask = game.legal_action_mask()
        a = agent.act(game.observation(side), mask, side)
        assert mask[a], (a, side)
        game.apply_action(a)  # raises IllegalActionError on an illegal action
        actions.append(a)
        if len(actions) >= max_actions:
            break
    return actions, game.result()


@pytest.mark.parametrize("learned_side", [0, 1, None])
def test_only_legal_actions(learned_side):
    """Only legal actions, over whole games (the greedy default, with loop avoidance)."""
    actions, result = _play(1, learned_side, agent_seed=1, deterministic=True)
    assert actions and result != "ongoing"


def test_loop_avoidance_tries_every_legal_action_before_repeating_one():
    game = Game("standard", seed=3)
    side = game.current_player()
    mask = game.legal_action_mask()
    o = game.observation(side)
    agent = LearnedAgent(seed=0)
    legal = np.flatnonzero(mask).tolist()
    assert len(legal) > 1
    picks = [agent.act(o, mask, side) for _ in legal]
    assert sorted(picks) == legal  # the same position again: a new action each time
    assert mask[agent.act(o, mask, side)]  # all tried: still a legal one
    agent.reset(0)
    assert agent.act(o, mask, side) == picks[0]  # reset forgets; greedy play repeats itself


def test_deterministic_under_seed():
    a1, r1 = _play(7, 0, agent_seed=11)
    a2, r2 = _play(7, 0, agent_seed=11)
    assert a1 == a2 and r1 == r2
    b1, _ = _play(7, 0, agent_seed=12)
    assert b1 != a1  # the agent's own seed matters: it samples from its policy
