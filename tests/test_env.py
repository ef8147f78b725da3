"""The environments: Gymnasium's env checker, registration, the
vector env agreeing game for game with single envs, 10,000 random steps
through each environment checked against the core, and bad input."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import hotspot  # noqa: F401  (registers hotspot/Hotspot-v0)
from hotspot import IllegalActionError
from hotspot.agents import RandomAgent
from hotspot.core.actions import NUM_ACTIONS, legal_action_mask
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.rules_data import ONGOING, PHASE_OVER, PHASE_PLAYER, TECHNOCRAT, TECHNOCRAT_WIN, ZIEGLER, ZIEGLER_WIN
from hotspot.env.hotspot_env import HotspotEnv
from hotspot.env.vector_env import HotspotVectorEnv


def _core_mask(s):
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal_action_mask(s, mask)
    return mask


def _expected(s, side):
    """(reward, terminated, truncated) from the core state, for the learner's side:
    a victory (5.0) is terminated with +1/-1; a stop by max_turns is truncated
    with reward 0 and no winner (D19 revised)."""
    if s["phase"] != PHASE_OVER:
        return 0.0, False, False
    if s["truncated"]:
        assert s["result"] == ONGOING  # no winner
        return 0.0, False, True
    winner = {TECHNOCRAT_WIN: TECHNOCRAT, ZIEGLER_WIN: ZIEGLER}[int(s["result"])]
    reward = 1.0 if winner == side else -1.0
    return reward, True, False


@pytest.mark.parametrize("render_mode", [None, "ansi", "rgb_array"])
def test_check_env_passes(render_mode):
    """gymnasium.utils.env_checker.check_env passes on the default env, rendering included.

    check_env's step-determinism check draws its action *before* its seeded
    reset, so the action may be illegal in the state it is applied to; with
    the default illegal_action="lose" (pgx's convention) that is an ordinary step."""
    check_env(HotspotEnv(render_mode=render_mode), skip_render_check=render_mode is None)


def test_illegal_action_lose_mode():
    """illegal_action="lose" (the default): an illegal action ends the episode as a
    loss (-1, terminated), flagged in info with the core's reason."""
    env = HotspotEnv()
    obs, info = env.reset(seed=0)
    assert info["illegal_action"] is False
    before = env.state.tobytes()
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(~info["action_mask"])[0]))
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] is True and info["illegal_reason"].startswith("illegal action")
    assert not info["action_mask"].any()
    assert env.state.tobytes() == before
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)
    env.reset(seed=1)


def test_gym_make_registered_id():
    """`gymnasium.make("hotspot/Hotspot-v0", ...)` works after `import hotspot`."""
    env = gym.make("hotspot/Hotspot-v0", side="ziegler", scenario="random", random_pool=4)
    obs, info = env.reset(seed=3)
    assert info["action_mask"].any()
    assert env.unwrapped.side == ZIEGLER
    assert env.unwrapped.action_masks().dtype == np.bool_


@pytest.mark.parametrize("side", ["technocrat", "ziegler"])
def test_single_env_10000_random_steps_against_core(side):
    """10,000 random legal steps: the mask is the core's mask for the learner's
    side, the learner is always the player to move, rewards and termination
    flags are the core's result."""
    env = HotspotEnv(side=side, scenario="random", random_pool=16)
    learner = 1 if side == "technocrat" else 0
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(1)
    episodes = 0
    for _ in range(10_000):
        s = env.state
        assert PHASE_PLAYER[s["phase"]] == learner
        assert (info["action_mask"] == _core_mask(s)).all()
        assert obs["globals"][3] == learner
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(a)
        assert (reward, terminated, truncated) == _expected(env.state, learner)
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            episodes += 1
            assert not info["action_mask"].any()
            obs, info = env.reset()
    assert episodes > 10


def test_vector_env_agrees_with_single_envs_and_10000_steps():
    """HotspotVectorEnv (one compiled call per step, next-step autoreset) agrees
    game for game with N HotspotEnv given the same seeds, over 10,000 game-steps.
    Where an episode has just ended the single env's mask is empty (call
    reset) and the vector env's holds RESET_ACTION alone (its reset step)."""
    n = 8
    venv = HotspotVectorEnv(n, scenario="random", random_pool=16)
    singles = [HotspotEnv(scenario="random", random_pool=16) for _ in range(n)]
    obs, info = venv.reset(seed=100)
    single = [e.reset(seed=100 + i) for i, e in enumerate(singles)]
    for i in range(n):
        for key in obs:
            assert (obs[key][i] == single[i][0][key]).all()
    rng = np.random.default_rng(2)
    pending = [False] * n
    ended = 0
    for _ in range(10_000 // n):
        masks = info["action_mask"]
        assert (venv.action_masks() == masks).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rewards, terms, truncs, info = venv.step(actions)
        for i, env in enumerate(singles):
            if pending[i]:  # next-step autoreset: this step reset game i
                o, inf = env.reset()
                r, te, tr = 0.0, False, False
                pending[i] = False
            else:
                o, r, te, tr, inf = env.step(int(actions[i]))
                pending[i] = te or tr
                ended += te or tr
            for key in o:
                assert (obs[key][i] == o[key]).all(), (i, key)
            assert (rewards[i], terms[i], truncs[i]) == (r, te, tr)
            if pending[i]:
                assert not inf["action_mask"].any()
                assert np.flatnonzero(info["action_mask"][i]).tolist() == [HotspotVectorEnv.RESET_ACTION]
            else:
                assert (info["action_mask"][i] == inf["action_mask"]).all()
            assert venv.states[i].tobytes() == env.state.tobytes()
    assert ended > 10


def test_pettingzoo_api_test_and_random_steps():
    """The AEC environment passes pettingzoo.test.api_test; 10,000 random steps
    agree with the core (masks, who moves, rewards at the end)."""
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from hotspot.env.pettingzoo import HotspotAECEnv

    api_test(HotspotAECEnv(scenario="random", random_pool=4), num_cycles=300)
    env = HotspotAECEnv(scenario="random", random_pool=8)
    env.reset(seed=5)
    rng = np.random.default_rng(3)
    games = 0
    for _ in range(10_000):
        agent = env.agent_selection
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            s = env.states[0]
            assert term != trunc and trunc == bool(s["truncated"])
            if trunc:  # D19 revised: stopped by max_turns, no winner
                assert reward == 0.0 and s["result"] == ONGOING
            else:
                winner = "technocrat" if s["result"] == TECHNOCRAT_WIN else "ziegler"
                assert reward == (1.0 if agent == winner else -1.0)
            env.step(None)
            if not env.agents:
                games += 1
                env.reset()
            continue
        s = env.states[0]
        assert agent == ("technocrat" if PHASE_PLAYER[s["phase"]] == TECHNOCRAT else "ziegler")
        assert (obs["action_mask"].astype(bool) == _core_mask(s)).all()
        other = "ziegler" if agent == "technocrat" else "technocrat"
        assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert games > 5


def test_bad_input_raises_and_env_stays_usable():
    """A wrong action type, an illegal action (illegal_action="raise"), a step
    after the end, a bad scenario or option each raise a clear error; the env
    stays usable."""
    env = HotspotEnv(illegal_action="raise")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    obs, info = env.reset(seed=1)
    before = env.state.tobytes()
    with pytest.raises(TypeError, match="integer"):
        env.step("end phase")
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.raises(IllegalActionError, match="illegal action"):
        env.step(illegal)
    assert env.state.tobytes() == before
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # still usable
    env.state["phase"] = PHASE_OVER
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)
    env.reset(seed=2)
    with pytest.raises(ValueError, match="turn_limit.*max_turns"):  # D19 revised: not a rules option
        HotspotEnv(rules={"turn_limit": 15})
    for bad in (0, -3, 1.5, "20"):
        with pytest.raises(ValueError, match="max_turns"):
            HotspotEnv(max_turns=bad)
    with pytest.raises(ValueError):
        HotspotEnv(scenario="no-such-scenario")
    with pytest.raises(ValueError, match="side"):
        HotspotEnv(side="martians")
    with pytest.raises(ValueError, match="opponent"):
        HotspotEnv(opponent="grandmaster")
    with pytest.raises(ValueError, match="render_mode"):
        HotspotEnv(render_mode="video")
    for name, bad in (
        ("illegal_action", "ignore"),
        ("observation", "pixels"),
        ("reward_shaping", -1.0),
        ("reward_shaping", float("nan")),
        ("shaping_gamma", 0.0),
        ("shaping_gamma", True),
    ):
        with pytest.raises(ValueError, match=name):
            HotspotEnv(**{name: bad})
        with pytest.raises(ValueError, match=name):
            HotspotVectorEnv(2, **{name: bad})
    venv = HotspotVectorEnv(3, illegal_action="raise")
    obs, info = venv.reset(seed=0)
    snapshot = venv.states.tobytes()
    actions = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])
    actions[1] = int(np.flatnonzero(~info["action_mask"][1])[0])
    with pytest.raises(IllegalActionError, match="game 1"):
        venv.step(actions)
    assert venv.states.tobytes() == snapshot
    with pytest.raises(ValueError, match="3 integers"):
        venv.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="compiled"):
        HotspotVectorEnv(2, opponent=type("Py", (RandomAgent,), {"policy_id": None})())


def test_python_opponent_agent():
    """A Python Agent can be the opponent of the single env (it sees only its information state)."""
    env = HotspotEnv(side="ziegler", opponent=RandomAgent(seed=0))
    obs, info = env.reset(seed=4)
    for _ in range(300):
        if not info["action_mask"].any():
            break
        obs, r, te, tr, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if te or tr:
            break
    assert env.state["n_actions"] > 0


def test_rgb_render_shows_the_board():
    """rgb_array rendering: an image whose colours show molten rock, the Central Crustal, crustals and platforms."""
    env = HotspotEnv(render_mode="rgb_array")
    env.reset(seed=0)
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    colours = {tuple(c) for c in img.reshape(-1, 3)[::7]}
    from hotspot.env.rendering import COLOURS

    for name in ("molten", "central", "crustal", "platform", "ziegler", "technocrat"):
        assert COLOURS[name] in colours, name
    text = HotspotEnv(render_mode="ansi")
    text.reset(seed=0)
    assert "Pieces:" in text.render()


# ------------------------------------------------------------ max_turns (D19 revised)


def _episode(env, seed, rng):
    """Play one episode with random legal actions; its last (reward, terminated, truncated)."""
    obs, info = env.reset(seed=seed)
    while True:
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            return reward, terminated, truncated


def test_default_max_turns_truncates_and_never_decides():
    """D19 revised: every env defaults to DEFAULT_MAX_TURNS (a harness's limit,
    carried in the state) and None is no limit; a stop there is no win."""
    assert HotspotEnv().max_turns == HotspotVectorEnv(2).max_turns == DEFAULT_MAX_TURNS
    env = HotspotEnv()
    env.reset(seed=0)
    assert int(env.state["max_turns"]) == DEFAULT_MAX_TURNS
    unlimited = HotspotEnv(max_turns=None)
    unlimited.reset(seed=0)
    assert int(unlimited.state["max_turns"]) == 0
    venv = HotspotVectorEnv(2, max_turns=7)
    venv.reset(seed=0)
    assert (venv.states["max_turns"] == 7).all()


@pytest.mark.parametrize("side", ["technocrat", "ziegler"])
def test_env_truncation_is_not_termination_and_rewards_zero(side):
    """D19 revised: an episode stopped after the Crustal Control phase of turn
    max_turns reports truncated=True, terminated=False, reward 0 for the
    learner (no winner: the core's result stays ongoing)."""
    env = HotspotEnv(side=side, max_turns=1)
    rng = np.random.default_rng(0)
    truncations = 0
    for seed in range(12):
        reward, terminated, truncated = _episode(env, seed, rng)
        assert terminated != truncated
        if truncated:
            truncations += 1
            assert reward == 0.0 and env.state["result"] == ONGOING and env.state["truncated"] == 1
            assert env.state["turn"] == 1
        else:
            assert reward in (1.0, -1.0) and env.state["result"] != ONGOING
    assert truncations > 0


def test_vector_env_truncates_like_single_envs():
    """The vector env stops games at max_turns exactly as HotspotEnv does:
    truncated True, terminated False, reward 0, then next-step autoreset."""
    n = 4
    venv = HotspotVectorEnv(n, side="ziegler", max_turns=1)
    singles = [HotspotEnv(side="ziegler", max_turns=1) for _ in range(n)]
    obs, info = venv.reset(seed=7)
    for i, e in enumerate(singles):
        e.reset(seed=7 + i)
    rng = np.random.default_rng(5)
    pending = [False] * n
    truncations = 0
    for _ in range(600):
        # a game that ended last step has no legal action: its action is ignored (autoreset)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, rewards, terms, truncs, info = venv.step(actions)
        for i, env in enumerate(singles):
            if pending[i]:
                env.reset()
                pending[i] = False
                assert not truncs[i] and not terms[i]
                continue
            _, r, te, tr, _ = env.step(int(actions[i]))
            assert (rewards[i], terms[i], truncs[i]) == (r, te, tr)
            if tr:
                truncations += 1
                assert r == 0.0 and not te
            pending[i] = te or tr
    assert truncations > 0


def test_pettingzoo_truncation_rewards_zero_to_both():
    """D19 revised: the AEC env truncates both agents (not terminated) with
    reward 0 each when max_turns stops the game."""
    pytest.importorskip("pettingzoo")
    from hotspot.env.pettingzoo import HotspotAECEnv

    env = HotspotAECEnv(max_turns=1)
    rng = np.random.default_rng(1)
    for seed in range(20):
        env.reset(seed=seed)
        while True:
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                break
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if trunc:
            assert all(env.truncations.values()) and not any(env.terminations.values())
            assert env.rewards == {"ziegler": 0.0, "technocrat": 0.0}
            assert env.states[0]["result"] == ONGOING
            return
    pytest.fail("no game of 20 was stopped by max_turns=1")


# ------------------------------------------------------------ set-up (3.2, 3.3, D21)


@pytest.mark.parametrize("side", ["ziegler", "technocrat"])
def test_env_plays_the_setup_phases_of_open(side):
    """D21: on ``open`` the episode begins with the set-up phases; the learner
    sees its force pools in the observation's globals and only set-up actions
    in the mask until its set-up is done, and the episode runs to its end."""
    from hotspot.core.actions import A_SETUP_CHOOSE
    from hotspot.core.rules_data import PHASE_T_SETUP, PHASE_Z_SETUP, RULEBOOK_FORCES
    from hotspot.features.encoding import GLOBAL_FEATURES

    env = HotspotEnv(scenario="open", side=side, opponent="random", max_turns=60)
    obs, info = env.reset(seed=4)
    s = env.states[0]
    assert int(s["phase"]) == (PHASE_Z_SETUP if side == "ziegler" else PHASE_T_SETUP)
    mask = info["action_mask"]
    assert mask.any() and not mask[:A_SETUP_CHOOSE].any()  # only set-up actions (D21)
    pools = obs["globals"][GLOBAL_FEATURES.index("pool_0") : GLOBAL_FEATURES.index("pool_7") + 1]
    side_pools = slice(0, 3) if side == "ziegler" else slice(3, 8)
    assert (pools[side_pools] == RULEBOOK_FORCES[side_pools]).all()
    assert obs["globals"][GLOBAL_FEATURES.index(f"phase_{int(s['phase'])}")] == 1
    rng = np.random.default_rng(0)
    for _ in range(20_000):
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            break
    assert terminated or truncated


def test_pettingzoo_api_test_on_open():
    """D21: the AEC environment passes pettingzoo.test.api_test with both
    deployments as decisions of the two agents."""
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from hotspot.env.pettingzoo import HotspotAECEnv

    api_test(HotspotAECEnv(scenario="open", max_turns=30), num_cycles=400)


def test_vector_env_on_open_agrees_with_the_core():
    """D21: the vector env plays the set-up phases in its compiled step; its
    masks equal the core's for every game."""
    envs = HotspotVectorEnv(num_envs=4, side="technocrat", scenario="open", max_turns=30)
    obs, info = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(300):
        for i in range(4):
            if envs.needs_reset[i]:  # a finished game: RESET_ACTION alone, its next step resets it
                assert np.flatnonzero(info["action_mask"][i]).tolist() == [HotspotVectorEnv.RESET_ACTION]
            else:
                assert (info["action_mask"][i] == _core_mask(envs.states[i])).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, rewards, terminated, truncated, info = envs.step(actions)


def test_reset_refuses_a_seed_that_is_not_a_non_negative_integer():
    """reset(seed=...) takes a non-negative integer of any size (a numpy integer
    too); anything else is a ValueError raised before anything changes, not
    gymnasium's own error (found by the fuzzer, fuzz/)."""
    env = HotspotEnv()
    obs, info = env.reset(seed=3)
    before = env.states.tobytes()
    for seed in (-1, 1.5, "3", True, [3], 10**5000 * -1):
        with pytest.raises(ValueError, match="seed must be a non-negative integer"):
            env.reset(seed=seed)
        assert env.states.tobytes() == before
    again, _ = env.reset(seed=np.int64(3))
    assert all((again[k] == obs[k]).all() for k in obs)
    env.reset(seed=10**5000)


def test_vector_env_seed_lists_and_bad_seeds():
    """reset(seed=[s0, s1]) seeds each game as HotspotEnv.reset(seed=si) would; a
    seed list of the wrong length or holding a bad seed, or a bad seed, is a
    ValueError and no game changes (found by the fuzzer: seed lists reached
    gymnasium, which refused them)."""
    venv = HotspotVectorEnv(num_envs=2)
    obs, _ = venv.reset(seed=[11, 5])
    for i, seed in enumerate((11, 5)):
        single, _ = HotspotEnv().reset(seed=seed)
        assert all((obs[k][i] == single[k]).all() for k in single)
    before = venv.states.tobytes(), venv.seeds.tobytes()
    for seed in ([1], [1, 2, 3], [1, -1], [1, "x"], np.array([[1, 2]]), -1, 2.5, [[[[]]]]):
        with pytest.raises(ValueError, match="seed"):
            venv.reset(seed=seed)
        assert (venv.states.tobytes(), venv.seeds.tobytes()) == before


def test_vector_env_step_refuses_ragged_actions_with_value_error():
    """Actions numpy cannot make an array of (a ragged list) are a ValueError
    naming the expected shape, and no game changes (found by the fuzzer)."""
    venv = HotspotVectorEnv(num_envs=2)
    venv.reset(seed=0)
    before = venv.states.tobytes()
    for actions in ([[1, 2], [3]], [1, [2]], {"a": 1}, None, "12"):
        with pytest.raises(ValueError, match="actions must be 2 integers"):
            venv.step(actions)
    assert venv.states.tobytes() == before


def test_pettingzoo_step_refuses_non_integers_and_any_out_of_range_int():
    """The AEC env's step takes an integer action like HotspotEnv: anything else
    is a TypeError (a float or a string was truncated or parsed), an integer
    outside the action space at any size is an IllegalActionError (it reached
    the compiled check and raised numba's or numpy's errors), and the game is
    unchanged (found by the fuzzer, fuzz/)."""
    from hotspot.env.pettingzoo import HotspotAECEnv

    env = HotspotAECEnv(illegal_action="raise")
    env.reset(seed=1)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    before = env.states.tobytes()
    for action in (str(legal), float(legal), None, [legal], True, np.float64(legal)):
        with pytest.raises(TypeError, match="an action is an integer"):
            env.step(action)
    for action in (2**70, -1, np.uint64(2**64 - 1), 10**5000):
        with pytest.raises(IllegalActionError):
            env.step(action)
    assert env.states.tobytes() == before
    env.step(np.int16(legal))
    assert env.states.tobytes() != before


def test_vector_env_copy_false_returns_its_buffers_and_copy_true_fresh_arrays():
    """No per-step copy of the observation batch unless asked
    (``copy=True``); both give the same values step for step."""
    fast, safe = HotspotVectorEnv(4, copy=False), HotspotVectorEnv(4, copy=True)
    obs_f, info_f = fast.reset(seed=5)
    obs_s, info_s = safe.reset(seed=5)
    rng = np.random.default_rng(0)
    first = obs_f["units"]
    prev = None
    for step in range(60):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info_s["action_mask"]])
        kept = {k: v.copy() for k, v in obs_s.items()}
        obs_f, r_f, te_f, tr_f, info_f = fast.step(actions)
        obs_s, r_s, te_s, tr_s, info_s = safe.step(actions)
        for key in obs_s:
            assert (obs_f[key] == obs_s[key]).all(), (step, key)
        assert (r_f == r_s).all() and (te_f == te_s).all() and (tr_f == tr_s).all()
        assert (info_f["action_mask"] == info_s["action_mask"]).all()
        assert obs_f["units"] is first and info_f["action_mask"] is fast.masks  # the env's own buffers
        assert obs_s["units"] is not safe._obs["units"] and info_s["action_mask"] is not safe.masks
        if prev is not None:  # copies stay as they were when returned
            assert all((kept[k] == prev[k]).all() for k in kept)
        prev = {k: v for k, v in obs_s.items()}
    with pytest.raises(ValueError, match="copy"):
        HotspotVectorEnv(2, copy="yes")


def test_vector_env_compact_observation_is_the_full_one_without_the_planes():
    """``observation="compact"`` returns the unit, piece and global
    tables of the full observation (the same values), without ``board``."""
    full, compact = HotspotVectorEnv(3, side="ziegler"), HotspotVectorEnv(3, side="ziegler", observation="compact")
    assert set(compact.single_observation_space.spaces) == {"units", "pieces", "globals"}
    obs_f, info = full.reset(seed=9)
    obs_c, info_c = compact.reset(seed=9)
    rng = np.random.default_rng(1)
    for step in range(80):
        assert "board" not in obs_c and "board" in obs_f
        for key in obs_c:
            assert (obs_c[key] == obs_f[key]).all(), (step, key)
        assert compact.observation_space.contains(obs_c)
        assert (info["action_mask"] == info_c["action_mask"]).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs_f, _, _, _, info = full.step(actions)
        obs_c, _, _, _, info_c = compact.step(actions)
    with pytest.raises(ValueError, match="observation"):
        HotspotVectorEnv(2, observation="tiny")
