"""Ray RLlib: the PettingZoo game through RLlib's PettingZoo wrapper
(``hotspot.env.rllib``), multi-agent PPO with the action mask honoured, and
its checkpoint entered by name in every command (``rllib(path=...)``,
``hotspot.agents.rllib``).  Needs the ``rllib`` extra; skipped without it."""

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("tree")  # dm-tree: one of RLlib's own needs (ray[rllib])
pytest.importorskip("ray.rllib.algorithms.ppo")

from hotspot.agents.registry import make_agent  # noqa: E402
from hotspot.agents.specs import SpecError  # noqa: E402
from hotspot.core.actions import NUM_ACTIONS, legal_action_mask  # noqa: E402
from hotspot.core.observation import observe  # noqa: E402
from hotspot.core.rules_data import SIDE_NAMES  # noqa: E402
from hotspot.core.state import STATE_DTYPE  # noqa: E402
from hotspot.env import pettingzoo as hotspot_pettingzoo  # noqa: E402
from hotspot.env.rllib import HotspotRLlibEnv, ppo_config  # noqa: E402


def test_the_env_gives_each_mover_its_flat_observation_and_mask():
    """Each seat is seen only when it moves (4.0), with the PettingZoo env's
    own ``flat`` observation (D20's fog) and its legal actions as floats under
    ``observations`` / ``action_mask``; the game and the rewards are the
    PettingZoo env's, move for move."""
    env = HotspotRLlibEnv({"max_turns": 2})
    twin = hotspot_pettingzoo.env(observation="flat", max_turns=2)
    assert set(env.observation_spaces) == set(SIDE_NAMES)
    space = env.observation_spaces["technocrat"]
    assert set(space.spaces) == {"observations", "action_mask"} and space["action_mask"].shape == (NUM_ACTIONS,)
    obs, _ = env.reset(seed=5)
    twin.reset(seed=5)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(SIDE_NAMES, 0.0)
    for _ in range(5000):
        (agent,) = obs
        assert agent == twin.agent_selection
        o = obs[agent]
        assert space.contains(o)
        expected = twin.observe(agent)
        np.testing.assert_array_equal(o["observations"], expected["observation"])
        np.testing.assert_array_equal(o["action_mask"], expected["action_mask"].astype(np.float32))
        legal = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        legal_action_mask(twin.unwrapped.states[0], legal)
        np.testing.assert_array_equal(o["action_mask"] > 0, legal)
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        obs, rewards, terminated, truncated, _ = env.step({agent: action})
        twin.step(action)
        for a, r in rewards.items():
            totals[a] += r
        if terminated["__all__"] or truncated["__all__"]:
            break
    else:
        pytest.fail("a 2-turn game did not end")
    assert totals["technocrat"] == -totals["ziegler"]  # zero-sum: +1/-1 at a victory, 0 at the limit (D19)


def test_bad_env_configs_are_one_line_errors():
    for config, words in (
        ({"observation": "full"}, "observation must be 'flat'"),
        ({"scenarios": "open"}, "unknown config key(s) ['scenarios']"),
        ({"scenario": "no-such-scenario"}, "no-such-scenario"),
    ):
        with pytest.raises(ValueError) as exc:
            ppo_config(config)
        assert words in str(exc.value) and "\n" not in str(exc.value)


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """Multi-agent PPO trained one tiny iteration with illegal actions raising
    in the env (a sampled illegal action would stop the run), then saved."""
    import ray

    config = (
        ppo_config({"max_turns": 3, "illegal_action": "raise"}, hidden=(16,))
        .environment(disable_env_checking=True)  # RLlib's checker steps an unmasked random action
        .env_runners(num_env_runners=0)
        .training(train_batch_size_per_learner=300, minibatch_size=100, num_epochs=1)
        .debugging(seed=0)
    )
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        algo = config.build_algo()
        result = algo.train()
        path = tmp_path_factory.mktemp("rllib") / "checkpoint"
        algo.save(str(path))
        algo.stop()
    finally:
        ray.shutdown()
    sampled = result["env_runners"]["num_module_steps_sampled_lifetime"]
    assert sampled["technocrat"] > 0 and sampled["ziegler"] > 0  # both seats moved, none illegally
    return path


def _info_state(states, side):
    o = np.zeros(1, dtype=STATE_DTYPE)
    observe(states[0], side, True, o[0])
    return o


def test_the_checkpoint_plays_each_seat_by_its_own_masked_policy(checkpoint):
    """``rllib(path=...)`` loads the policy named after each seat and plays
    the legal action of highest logit on the observation the env gives:
    the same action as the module's own masked forward pass."""
    import torch
    from ray.rllib.core.rl_module.rl_module import RLModule

    agent = make_agent(f"rllib(path={checkpoint})", seed=0)
    assert {SIDE_NAMES[s]: m.module_id for s, m in agent.models.items()} == {
        "technocrat": "technocrat",
        "ziegler": "ziegler",
    }
    modules = RLModule.from_checkpoint(checkpoint / "learner_group" / "learner" / "rl_module")
    env = HotspotRLlibEnv({"max_turns": 2})
    obs, _ = env.reset(seed=2)
    states = env.env.unwrapped.states
    for _ in range(60):
        (seat,) = obs
        side = SIDE_NAMES.index(seat)
        mask = obs[seat]["action_mask"] > 0
        mine = agent.act(_info_state(states, side), mask, side)
        batch = {"obs": {k: torch.as_tensor(v[None]) for k, v in obs[seat].items()}}
        with torch.no_grad():
            logits = modules[seat].forward_inference(batch)["action_dist_inputs"][0].numpy()
        assert mine == int(np.argmax(logits)) and mask[mine]
        assert logits[~mask].max() < -1e30  # the mask is in the module: no illegal action can be sampled
        obs, _, terminated, truncated, _ = env.step({seat: mine})
        if terminated["__all__"] or truncated["__all__"]:
            break


def test_bad_checkpoints_are_one_line_errors(checkpoint, tmp_path):
    (tmp_path / "notes").mkdir()
    for spec, words in (
        ("rllib", "needs path="),
        ("rllib(path=no/such/folder)", "no such checkpoint folder"),
        (f"rllib(path={tmp_path / 'notes'})", "is not an RLlib checkpoint"),
        (f"rllib(path={checkpoint},technocrat=nope)", "has no module 'nope' for the technocrat"),
    ):
        with pytest.raises(SpecError) as exc:
            make_agent(spec)
        assert words in str(exc.value) and "\n" not in str(exc.value), str(exc.value)
    with pytest.raises(SpecError):
        make_agent(f"rllib(path={checkpoint})", allow_code=False)  # a checkpoint is code: never from a request


def test_hotspot_evaluate_rates_the_checkpoint(checkpoint, tmp_path):
    """The checkpoint enters ``hotspot evaluate`` by name, as on docs/scale.md."""
    done = subprocess.run(
        [sys.executable, "-m", "hotspot", "evaluate", f"rllib(path={checkpoint})", "--opponents", "random",
         "--games", "2", "--step", "2", "--workers", "1", "--out", "card", "--no-progress"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Rating on the published scale" in done.stdout and (tmp_path / "card" / "card.json").is_file()
    assert "Traceback" not in done.stderr and "WARNING" not in done.stderr
