"""LearnerEnv and the learner's view (hotspot.features.learner): the same
rulebook game through fixed slots and a pruned mask, as a stock learner
plays it, and the adapters that play its models rebuild exactly its view."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from hotspot.agents import PolicyAgent
from hotspot.core.actions import A_MANEUVER, A_SELECT_UNIT, A_SPLIT, NUM_ACTIONS, legal_action_mask
from hotspot.core.hexgrid import NEIGHBOUR, ON_MAP
from hotspot.core.rules_data import PHASE_CONTROL, T_ENGINEER, TECHNOCRAT, Z_HOVERCRAFT, ZIEGLER
from hotspot.env import LearnerEnv
from hotspot.features.learner import LEARNER_SIZE
from hotspot.features.shaping import POTENTIALS


def play(env, seed, chooser, steps=400):
    """Steps of ``env`` from ``reset(seed)`` with ``chooser(mask, rng)``; yields each step's result."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    yield obs, 0.0, False, False, info
    for _ in range(steps):
        mask = env.action_masks()
        obs, r, term, trunc, info = env.step(chooser(mask, rng))
        yield obs, r, term, trunc, info
        if term or trunc:
            return


def random_choice(mask, rng):
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("side", ["technocrat", "ziegler"])
def test_gymnasium_checker_passes(side):
    check_env(LearnerEnv(side=side, opponent="random"), skip_render_check=True)


@pytest.mark.parametrize("side,n", [("technocrat", LEARNER_SIZE[TECHNOCRAT]), ("ziegler", LEARNER_SIZE[ZIEGLER])])
def test_the_learner_decides_only_in_the_phases_of_play_and_every_action_is_legal(side, n):
    """3.2, 3.3, D21: the scripted plan deploys the learner; the slots map
    every action the learner may choose onto a legal action of the game."""
    env = LearnerEnv(side=side, opponent="random")
    for seed in range(3):
        for obs, _, term, trunc, info in play(env, seed, random_choice):
            assert obs.shape == (n,) and env.observation_space.contains(obs)
            assert not info["illegal_action"]
            if term or trunc:
                assert info["outcome"] in (-1.0, 0.0, 1.0)
                break
            s = env.state
            assert int(s["phase"]) <= PHASE_CONTROL  # never a set-up decision
            core = np.zeros(NUM_ACTIONS, np.bool_)
            legal_action_mask(s, core)
            for a in np.flatnonzero(env.action_masks()):
                assert core[env.slots.to_core(a)]


def test_slot_zero_is_an_engineer_in_every_game():
    """The Technocrat's engineers (5.0, 15.5) take the first unit slots whatever their table slots."""
    env = LearnerEnv(side="technocrat", opponent="random")
    for seed in range(5):
        env.reset(seed=seed)
        assert int(env.state["unit_type"][env.slots.unit_of[0]]) == T_ENGINEER
    z = LearnerEnv(side="ziegler", opponent="random")
    z.reset(seed=0)
    assert int(z.state["unit_type"][z.slots.unit_of[0]]) == Z_HOVERCRAFT


def test_the_pruned_mask_leaves_out_splits_combines_and_steps_into_molten_rock():
    """9.0, 10.0 (no split or combine offered) and 8.2 (a unit stepping onto
    molten rock is destroyed: not offered; off the map is illegal, D3)."""
    env = LearnerEnv(side="technocrat", opponent="random")
    seen_steps = 0
    for _, _, term, trunc, _ in (step for seed in range(10) for step in play(env, seed, random_choice)):
        if term or trunc:
            continue
        s, mask = env.state, env.action_masks()
        assert not mask[A_SPLIT] and not mask[A_SELECT_UNIT + 96 : A_MANEUVER].any()
        u = int(s["sel_unit"])
        if u >= 0 and int(s["unit_cell"][u]) >= 0:
            for d in range(6):
                if mask[A_MANEUVER + d]:
                    seen_steps += 1
                    n = int(NEIGHBOUR[int(s["unit_cell"][u]), d])
                    assert n >= 0 and ON_MAP[n] and s["board"][n] >= 0
    assert seen_steps > 0
    unpruned = LearnerEnv(side="technocrat", opponent="random", prune=False)
    unpruned.reset(seed=7)
    assert unpruned.action_masks().sum() >= env.reset(seed=7)[1]["action_mask"].sum()


def test_shaping_is_potential_based():
    """Ng, Harada and Russell (1999): with gamma 1 the shaping terms of an
    episode telescope to -Phi(first position), Phi = 0 at the end."""
    env = LearnerEnv(side="technocrat", opponent="random", shaping_gamma=1.0)
    results = list(play(env, 3, random_choice, steps=5000))
    assert results[-1][2]  # the game ended (terminated)
    first = LearnerEnv(side="technocrat", opponent="random")
    first.reset(seed=3)
    phi0 = sum(w * POTENTIALS[k](first.state, TECHNOCRAT) for k, w in env.shaping.items())
    total = sum(info["shaping"] for *_, info in results[1:])
    assert total == pytest.approx(-phi0, abs=1e-9)
    rewards = sum(r for _, r, *_ in results[1:])
    assert rewards == pytest.approx(results[-1][4]["outcome"] - phi0, abs=1e-9)


def test_the_same_seed_gives_the_same_episode():
    a = [(o.tobytes(), r) for o, r, *_ in play(LearnerEnv(opponent="scripted"), 11, random_choice)]
    b = [(o.tobytes(), r) for o, r, *_ in play(LearnerEnv(opponent="scripted"), 11, random_choice)]
    assert a == b


@pytest.mark.parametrize(
    "kwargs,words",
    [
        ({"shaping": {"speed": 1.0}}, "unknown potential 'speed'"),
        ({"shaping": {"material": -1}}, "finite number >= 0"),
        ({"shaping": 0.5}, "dict of weights"),
        ({"setup": "human"}, "setup"),
        ({"prune": "yes"}, "prune must be True or False"),
    ],
)
def test_bad_arguments_are_one_line_errors(kwargs, words):
    with pytest.raises(ValueError, match=words) as exc:
        LearnerEnv(**kwargs)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("side", ["technocrat", "ziegler"])
def test_policy_agent_rebuilds_the_envs_view(side):
    """PolicyAgent(observation="learner") (the arena's adapter for a
    LearnerEnv model) sees the env's observation and mask at every decision
    and plays the env's action in the game."""
    env = LearnerEnv(side=side, opponent="random")
    seen = {}

    def fn(obs, mask):
        seen["obs"], seen["mask"] = obs.copy(), mask.copy()
        return seen["action"]

    agent = PolicyAgent(fn, observation="learner")
    agent.reset(0)
    rng = np.random.default_rng(5)
    obs, info = env.reset(seed=5)
    for _ in range(300):
        mask = env.action_masks()
        a = random_choice(mask, rng)
        seen["action"] = a
        core = np.zeros(NUM_ACTIONS, np.bool_)
        legal_action_mask(env.state, core)
        played = agent.act(env._info_now().reshape(1).copy(), core, env.side)
        np.testing.assert_array_equal(seen["obs"], obs)
        np.testing.assert_array_equal(seen["mask"], mask)
        assert played == env.slots.to_core(a)
        obs, _, term, trunc, info = env.step(a)
        if term or trunc:
            break


def test_registered_with_gymnasium():
    import gymnasium as gym

    env = gym.make("hotspot/HotspotLearner-v0", side="ziegler", opponent="scripted")
    obs, info = env.reset(seed=0)
    assert obs.shape == (LEARNER_SIZE[ZIEGLER],) and info["action_mask"].any()


def test_an_empty_slot_is_an_illegal_action_that_says_so():
    """illegal_action="lose" as in HotspotEnv: the learner loses, and the reason names the empty slot."""
    env = LearnerEnv(side="technocrat", opponent="random")
    env.reset(seed=0)
    empty = int(np.flatnonzero(env.slots.unit_of < 0)[0])
    _, _, terminated, _, info = env.step(A_SELECT_UNIT + empty)
    assert terminated and info["illegal_action"] and "empty unit slot" in info["illegal_reason"]
    assert info["outcome"] == -1.0 and not env.action_masks().any()
