"""The environments follow the RL ecosystem's conventions:

* the default env passes Gymnasium's ``check_env`` (render checks included)
  on many seeds, both sides, both scenarios, and what Stable-Baselines3's
  ``check_env`` checks beyond it (reproduced here; SB3's own check runs too
  where SB3 is installed);
* an illegal action ends the episode as a loss for the mover, flagged in
  ``info`` with the core's reason (``illegal_action="raise"`` refuses it);
* observation spaces hold the real ranges of the rules, every observation
  lies in its space (fog on and off, set-up phases included), and the flat
  and image forms are the documented normalisations;
* PettingZoo: ``hotspot.env.pettingzoo.env()`` / ``raw_env()``
  (``hotspot_v0``) pass ``api_test``, ``seed_test`` and ``render_test``;
* the vector env never returns an empty mask row: a finished game's row holds
  ``RESET_ACTION`` alone until its reset step, which ignores its action;
* the reward is the game's result unless asked for potential-based shaping
  (Ng et al. 1999), whose terms telescope;
* the ``train`` extra pins no exact torch version.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

import hotspot  # noqa: F401  (registers hotspot/Hotspot-v0)
from hotspot import IllegalActionError
from hotspot.core.actions import NUM_ACTIONS, action_error
from hotspot.core.errors import ERR_BAD_ACTION, MESSAGES
from hotspot.core.game import explain_error
from hotspot.env.hotspot_env import HotspotEnv
from hotspot.env.vector_env import HotspotVectorEnv
from hotspot.features.bounds import IMAGE_SCALE
from hotspot.features.encoding import (
    ACTIONS_CAP,
    GLOBAL_FEATURES,
    PIECE_FEATURES,
    PLANE_NAMES,
    TURN_CAP,
    UNIT_FEATURES,
    encode,
    encode_info_state,
    new_observation,
    scratch_state,
)
from hotspot.features.shaping import potential

ROOT = Path(__file__).resolve().parents[1]
MODES = ("full", "compact", "flat", "image")


def _legal(rng, mask):
    return int(rng.choice(np.flatnonzero(mask)))


def _gym_warnings(caught):
    return [str(w.message) for w in caught if "WARN" in str(w.message)]


# ------------------------------------------------------------------ Gymnasium's checker


@pytest.mark.parametrize("seed", range(20))
def test_gymnasium_check_env_passes_on_the_default_env(seed):
    """check_env(gym.make("hotspot/Hotspot-v0").unwrapped) with its render
    checks (every render mode through the spec) passes with no warning, for
    either side and scenario: the first action it draws may be illegal in
    the state it steps, which the default illegal_action="lose" makes an
    ordinary step (it raised IllegalActionError on about a quarter of seeds)."""
    side = ("technocrat", "ziegler")[seed % 2]
    scenario = ("standard", "open")[seed // 2 % 2]
    env = gym.make(
        "hotspot/Hotspot-v0", side=side, scenario=scenario, render_mode=(None, "ansi", "rgb_array")[seed % 3]
    ).unwrapped
    env.reset(seed=seed)
    env.action_space.seed(seed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=False)
    assert _gym_warnings(caught) == []


@pytest.mark.parametrize("mode", ["compact", "flat", "image"])
def test_gymnasium_check_env_passes_for_every_observation_form(mode):
    """check_env passes for the other observation forms (and the vector env's single spaces are those)."""
    env = gym.make("hotspot/Hotspot-v0", side="ziegler", observation=mode).unwrapped
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=False)
    assert _gym_warnings(caught) == []
    assert HotspotVectorEnv(2, side="ziegler", observation=mode).single_observation_space == env.observation_space


def test_vector_env_passes_gymnasium_passive_checks():
    """Gymnasium's passive checks on the vector env: its single and batched
    spaces are valid spaces, and reset and step return observations inside
    the batched space (in every form), with no checker warning."""
    from gymnasium.utils.passive_env_checker import check_obs, check_observation_space

    for mode in MODES:
        venv = HotspotVectorEnv(4, observation=mode, max_turns=1)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_observation_space(venv.single_observation_space)
            check_observation_space(venv.observation_space)
            obs, info = venv.reset(seed=5)
            check_obs(obs, venv.observation_space, "reset")
            for _ in range(10):
                obs, rewards, terms, truncs, info = venv.step(info["action_mask"].argmax(axis=1))
                check_obs(obs, venv.observation_space, "step")
        assert _gym_warnings(caught) == [], mode


# ------------------------------------------------------------------ Stable-Baselines3's checker


def test_stable_baselines3_check_env():
    """SB3's own check_env on the default env (its warnings about the 2-D
    tables are advice, not failures) and, with no warning at all, on the
    flat form (MlpPolicy) and the image form (MultiInputPolicy's CNN)."""
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    sb3_check_env(gym.make("hotspot/Hotspot-v0").unwrapped)
    for mode in ("flat", "image"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sb3_check_env(HotspotEnv(observation=mode))
        assert [str(w.message) for w in caught if "stable" in w.filename.lower()] == [], mode


def _is_image_space(space) -> bool:
    """SB3's ``is_image_space`` (preprocessing.py): a 3-D uint8 Box in [0, 255]."""
    return (
        isinstance(space, spaces.Box)
        and len(space.shape) == 3
        and space.dtype == np.uint8
        and bool(np.all(space.low == 0))
        and bool(np.all(space.high == 255))
    )


@pytest.mark.parametrize("mode", MODES)
def test_spaces_and_values_pass_what_stable_baselines3_checks(mode):
    """What SB3's env_checker checks beyond Gymnasium's, reproduced so that it
    holds where SB3 is not installed: no nested Dict (MultiInputPolicy takes a
    Dict of Boxes), a Discrete action space starting at 0, finite Box bounds
    with low < high; for the flat and image forms no SB3 warning at all (1-D
    or image-shaped Boxes; an image is uint8 in [0, 255], channel-first by
    SB3's smallest-axis rule, at least 36 x 36); reset and step return
    arrays of the space's shape, a dtype that casts to it and values within
    its bounds, a float reward and bool flags; ten steps through episode
    ends give no NaN or infinity (its VecCheckNan)."""
    env = HotspotEnv(observation=mode)
    space = env.observation_space
    boxes = space.spaces if isinstance(space, spaces.Dict) else {"": space}
    assert all(isinstance(b, spaces.Box) for b in boxes.values())  # no nesting, no Tuple
    assert isinstance(env.action_space, spaces.Discrete) and env.action_space.start == 0
    for key, box in boxes.items():
        assert np.all(np.isfinite(box.low)) and np.all(np.isfinite(box.high)), key
        assert np.all(box.low < box.high), key
        if mode in ("flat", "image"):
            assert len(box.shape) in (1, 3), key
        if len(box.shape) == 3 and mode == "image":
            assert _is_image_space(box), key
            assert int(np.argmin(box.shape)) == 0  # channel-first: no VecTransposeImage
            assert min(box.shape[1:]) >= 36  # the default CNN's smallest input
    if mode == "image":
        assert set(boxes) == {"board", "features"} and not _is_image_space(boxes["features"])

    def check_obs(obs):
        values = obs if isinstance(obs, dict) else {"": obs}
        assert values.keys() == boxes.keys()
        for key, box in boxes.items():
            x = values[key]
            assert isinstance(x, np.ndarray) and x.shape == box.shape and np.can_cast(x.dtype, box.dtype), key
            assert np.all(x >= box.low) and np.all(x <= box.high), key
            assert np.all(np.isfinite(x)), key
        assert space.contains(obs)

    obs, info = env.reset(seed=0)
    check_obs(obs)
    for _ in range(10):
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        check_obs(obs)
        assert isinstance(reward, float) and np.isfinite(reward)
        assert isinstance(terminated, bool) and isinstance(truncated, bool) and isinstance(info, dict)
        if terminated or truncated:
            obs, info = env.reset()


# ------------------------------------------------------------------ illegal actions


def test_illegal_action_is_a_loss_in_every_env_and_raise_is_for_debugging():
    """illegal_action="lose" is every env's default: the mover's episode ends
    at -1 (terminated, state unchanged), flagged with the core's reason;
    "raise" refuses the action and changes nothing."""
    env = HotspotEnv()
    assert env.illegal_action == "lose" and HotspotVectorEnv(1).illegal_action == "lose"
    obs, info = env.reset(seed=3)
    a = int(np.flatnonzero(~info["action_mask"])[0])
    code = int(action_error(env.state, a))
    before = env.state.tobytes()
    obs, reward, terminated, truncated, info = env.step(a)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert explain_error(env.state, a, code) in info["illegal_reason"]
    assert env.state.tobytes() == before
    env.reset(seed=3)
    obs, reward, terminated, truncated, info = env.step(NUM_ACTIONS + 5)  # outside the space: illegal too
    assert (reward, terminated) == (-1.0, True) and MESSAGES[ERR_BAD_ACTION] in info["illegal_reason"]
    strict = HotspotEnv(illegal_action="raise")
    _, info = strict.reset(seed=3)
    with pytest.raises(IllegalActionError):
        strict.step(a)


def test_vector_env_illegal_action_ends_only_that_game():
    """In the vector env an illegal action ends its own game as a loss
    (reward -1, terminated, flagged with its reason) while the others step
    as usual; that game's state is unchanged and its next step resets it."""
    venv = HotspotVectorEnv(3, copy=True)
    twin = HotspotVectorEnv(3, copy=True)
    obs, info = venv.reset(seed=11)
    twin.reset(seed=11)
    legal = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])
    actions = legal.copy()
    actions[1] = np.flatnonzero(~info["action_mask"][1])[0]
    state_1 = venv.states[1].tobytes()
    obs, rewards, terms, truncs, info = venv.step(actions)
    obs_t, rewards_t, terms_t, _, _ = twin.step(legal)
    assert rewards[1] == -1.0 and terms[1] and not truncs[1] and venv.states[1].tobytes() == state_1
    assert info["illegal_action"].tolist() == [False, True, False]
    assert info["illegal_reason"][1].startswith("illegal action") and info["illegal_reason"][0] == ""
    for i in (0, 2):  # the other games stepped exactly as without the illegal one
        assert venv.states[i].tobytes() == twin.states[i].tobytes() and rewards[i] == rewards_t[i]
    obs, rewards, terms, truncs, info = venv.step(np.full(3, HotspotVectorEnv.RESET_ACTION))
    assert not terms[1] and rewards[1] == 0.0 and "illegal_reason" not in info


# ------------------------------------------------------------------ observation bounds


def test_bounds_are_the_real_ranges_of_the_rules():
    """Each entry's bounds come from the rules and the forces, not the dtype:
    infantry counters hold 1-3 squads (10.0, D4), 42 Ziegler infantry squads
    (3.2), the turn runs to max_turns, damage to the largest rating (D7) as
    the rules options set them; no bound is its dtype's extreme."""
    env = HotspotEnv(rules={"damage_rating": {"long": 7}, "movement": {"ziegler_hovercraft": 9}}, max_turns=50)
    b = env.bounds
    assert b.high["units"][0, UNIT_FEATURES.index("squads")] == 3
    assert b.low["units"][0, UNIT_FEATURES.index("type")] == -1
    assert b.high["units"][0, UNIT_FEATURES.index("moves")] == 9
    assert b.high["board"][PLANE_NAMES.index("z_infantry")].max() == 42
    assert b.high["board"][PLANE_NAMES.index("t_engineer")].max() == 3
    assert b.high["board"][PLANE_NAMES.index("own_damage")].max() == 7
    assert b.high["pieces"][0, PIECE_FEATURES.index("damage")] == 7
    assert b.high["globals"][GLOBAL_FEATURES.index("turn")] == 50
    assert b.high["globals"][GLOBAL_FEATURES.index("actions")] == ACTIONS_CAP
    assert HotspotEnv(max_turns=None).bounds.high["globals"][GLOBAL_FEATURES.index("turn")] == TURN_CAP
    for name, box in env.observation_space.spaces.items():
        info = np.iinfo(box.dtype)
        assert box.high.max() < info.max and box.low.min() > info.min, name


@pytest.mark.parametrize(
    "scenario,side,fog",
    [
        ("standard", "technocrat", True),
        ("open", "ziegler", True),
        ("open", "technocrat", False),
        ("random", "ziegler", False),
    ],
)
def test_every_observation_lies_in_its_space(scenario, side, fog):
    """Random games (set-up phases of ``open`` included, fog on and off,
    illegal-action ends too): every observation lies in its space, and its
    flat and image forms in theirs."""
    env = HotspotEnv(side=side, scenario=scenario, fog=fog, random_pool=8, opponent="random")
    flat = HotspotEnv(observation="flat").observation_space
    image = spaces.Dict(
        {
            "board": spaces.Box(0, 255, env.bounds.image_shape, np.uint8),
            "features": spaces.Box(0.0, 1.0, (env.bounds.features_size,), np.float32),
        }
    )
    rng = np.random.default_rng(len(scenario) + fog)
    obs, info = env.reset(seed=1)
    episodes = 0
    for step in range(1200):
        assert env.observation_space.contains(obs), step
        if step % 5 == 0:
            assert flat.contains(env.bounds.flat(obs)) and image.contains(env.bounds.image(obs))
        a = _legal(rng, info["action_mask"]) if step % 400 != 399 else -1
        obs, reward, terminated, truncated, info = env.step(a)
        if terminated or truncated:
            assert env.observation_space.contains(obs)
            episodes += 1
            obs, info = env.reset()
    assert episodes >= 3


def test_encode_clips_what_the_rules_leave_unbounded():
    """The env's encoder clips the turn (no turn limit), the action counter
    and damage past a piece's rating (14.6) into their ranges; the learned
    agent's raw encoder (encode_info_state) is unchanged."""
    env = HotspotEnv(max_turns=None)
    env.reset(seed=2)
    s = env.states.copy()
    k = int(np.flatnonzero((s[0]["piece_kind"] > 1) & (s[0]["piece_controller"] == 1))[0])  # a Technocrat piece
    kind = int(s[0]["piece_kind"][k])
    rating = int(s[0]["rules"]["damage_rating"][kind])
    s[0]["turn"], s[0]["n_actions"], s[0]["piece_damage"][k] = TURN_CAP + 50, 123_456, rating + 3
    o = new_observation()
    encode(s[0], 1, True, True, scratch_state()[0], o["board"], o["units"], o["pieces"], o["globals"])
    assert o["globals"][GLOBAL_FEATURES.index("turn")] == TURN_CAP
    assert o["globals"][GLOBAL_FEATURES.index("actions")] == ACTIONS_CAP
    assert o["pieces"][k, PIECE_FEATURES.index("damage")] == rating
    assert o["board"][PLANE_NAMES.index("own_damage")].max() == rating
    assert env.bounds.contains(o)
    from hotspot.core.observation import observe

    raw, info = new_observation(), scratch_state()
    observe(s[0], 1, True, info[0])
    encode_info_state(info[0], 1, True, raw["board"], raw["units"], raw["pieces"], raw["globals"])
    assert raw["pieces"][k, PIECE_FEATURES.index("damage")] == rating + 3
    assert raw["globals"][GLOBAL_FEATURES.index("actions")] == min(123_456, 32767)


def test_flat_and_image_forms_are_the_documented_normalisations():
    """flat = (x - low) / (high - low) over board, units, pieces, globals in
    order; image = floor(255 x / high + 1/2) per plane, each hex an IMAGE_SCALE
    block, with the tables' flat form as ``features``; batches too."""
    env = HotspotEnv(side="ziegler")
    obs, _ = env.reset(seed=4)
    b = env.bounds
    expected = np.concatenate(
        [
            ((obs[k].astype(np.float64) - b.low[k]) / (b.high[k] - b.low[k])).ravel()
            for k in ("board", "units", "pieces", "globals")
        ]
    )
    flat = b.flat(obs)
    assert flat.dtype == np.float32 and flat.shape == (b.flat_size,)
    np.testing.assert_allclose(flat, expected, rtol=1e-6)
    img = b.image(obs)
    high = b.high["board"][:, :1, :1].astype(np.float64)
    small = np.floor(255 * obs["board"].astype(np.float64) / high + 0.5)
    assert (img["board"][:, ::IMAGE_SCALE, ::IMAGE_SCALE] == small).all()
    assert (img["board"][:, IMAGE_SCALE - 1 :: IMAGE_SCALE, 1::IMAGE_SCALE] == small).all()
    np.testing.assert_array_equal(img["features"], flat[obs["board"].size :])
    batch = {k: np.stack([v, v]) for k, v in obs.items()}
    assert (b.flat(batch) == flat).all() and (b.image(batch)["board"][1] == img["board"]).all()


def test_vector_env_flat_and_image_forms_agree_with_the_single_env():
    """The vector env returns the same flat and image observations as single envs, batched."""
    for mode in ("flat", "image"):
        venv = HotspotVectorEnv(2, observation=mode)
        obs, info = venv.reset(seed=8)
        assert venv.observation_space.contains(obs)
        for i in range(2):
            single, _ = HotspotEnv(observation=mode).reset(seed=8 + i)
            if mode == "flat":
                assert (obs[i] == single).all()
            else:
                assert all((obs[k][i] == single[k]).all() for k in single)


# ------------------------------------------------------------------ PettingZoo


def test_pettingzoo_factories_pass_api_seed_and_render_tests():
    """hotspot.env.pettingzoo.env() (PettingZoo's standard wrappers) and
    raw_env(), metadata name hotspot_v0, pass api_test, seed_test and
    render_test; the old module name imports the same objects (with a
    DeprecationWarning, tests/test_api_hygiene.py)."""
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, render_test, seed_test
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from hotspot.env import pettingzoo as pz

    wrapped = pz.env()
    assert isinstance(wrapped, OrderEnforcingWrapper) and wrapped.metadata["name"] == "hotspot_v0"
    assert isinstance(pz.raw_env(), pz.HotspotAECEnv)
    api_test(pz.env(max_turns=20), num_cycles=200)
    api_test(pz.raw_env(scenario="open", observation="flat"), num_cycles=100)
    seed_test(pz.env, num_cycles=100)
    render_test(pz.env)


def test_pettingzoo_illegal_action_loses_for_the_mover():
    """AEC env: an illegal action ends the game, -1 to the mover and +1 to the
    other, both terminated, the mover's info flagged with the reason;
    illegal_action="raise" raises; env()'s AssertOutOfBoundsWrapper refuses
    an action outside the space."""
    pytest.importorskip("pettingzoo")
    from hotspot.env.pettingzoo import env as make_env
    from hotspot.env.pettingzoo import raw_env

    aec = raw_env()
    aec.reset(seed=2)
    mover = aec.agent_selection
    other = "ziegler" if mover == "technocrat" else "technocrat"
    assert aec.infos[mover]["illegal_action"] is False
    mask = aec.observe(mover)["action_mask"]
    before = aec.states.tobytes()
    aec.step(int(np.flatnonzero(mask == 0)[0]))
    assert aec.states.tobytes() == before
    assert aec.terminations == {"ziegler": True, "technocrat": True} and not any(aec.truncations.values())
    assert aec.rewards == {mover: -1.0, other: 1.0}
    assert aec.infos[mover]["illegal_action"] is True and "illegal action" in aec.infos[mover]["illegal_reason"]
    assert not aec.observe(other)["action_mask"].any() and not aec.observe(mover)["action_mask"].any()
    for _agent in aec.agent_iter():
        aec.step(None)
    assert aec.agents == []
    strict = raw_env(illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalActionError):
        strict.step(int(np.flatnonzero(strict.observe(strict.agent_selection)["action_mask"] == 0)[0]))
    wrapped = make_env()
    wrapped.reset(seed=2)
    with pytest.raises(AssertionError, match="action space"):
        wrapped.step(NUM_ACTIONS)


# ------------------------------------------------------------------ no empty masks


def test_vector_env_never_returns_an_empty_mask_row():
    """Over 300 steps of 16 games (short games, and an illegal action now and
    then) no mask row is ever empty: a game that has just ended holds
    RESET_ACTION alone, a masked sampler's probabilities are always defined,
    and the reset step accepts RESET_ACTION and ignores any other action
    (a twin given other actions there plays identically)."""
    n = 16
    venv = HotspotVectorEnv(n, max_turns=1)
    twin = HotspotVectorEnv(n, max_turns=1)
    obs, info = venv.reset(seed=21)
    twin.reset(seed=21)
    rng = np.random.default_rng(0)
    reset_rows = 0
    for step in range(300):
        masks = info["action_mask"]
        assert masks.any(axis=1).all(), step
        probs = masks / masks.sum(axis=1, keepdims=True)  # no division by zero
        cumulative = probs.cumsum(axis=1)  # a masked sampler: inverse transform of u in (0, 1]
        actions = (cumulative < (1.0 - rng.random((n, 1))) * cumulative[:, -1:]).sum(axis=1)
        assert masks[np.arange(n), actions].all()
        resetting = venv.needs_reset.copy()
        if resetting.any():
            reset_rows += int(resetting.sum())
            assert (masks[resetting].sum(axis=1) == 1).all()
            assert (actions[resetting] == HotspotVectorEnv.RESET_ACTION).all()
        other = actions.copy()
        other[resetting] = rng.integers(0, NUM_ACTIONS + 100, int(resetting.sum()))  # ignored there
        if step % 50 == 25:
            i = int(np.flatnonzero(~resetting)[0])
            actions[i] = other[i] = int(np.flatnonzero(~masks[i])[0])  # an illegal action: that game is lost
        obs, rewards, terms, truncs, info = venv.step(actions)
        obs_t, rewards_t, terms_t, truncs_t, info_t = twin.step(other)
        assert (venv.states.tobytes() == twin.states.tobytes()) and (rewards == rewards_t).all()
        assert (info["action_mask"] == info_t["action_mask"]).all()
        ended = terms | truncs
        assert (info["action_mask"][ended].sum(axis=1) == 1).all()
        assert info["action_mask"][ended, HotspotVectorEnv.RESET_ACTION].all()
    assert reset_rows > 20


# ------------------------------------------------------------------ reward shaping


def _twin_episode(side, seed, w, gamma, max_turns=2):
    """One episode of a plain env and a shaped twin on the same actions:
    per step (plain reward, shaped reward, info, Phi of the state after)."""
    plain = HotspotEnv(side=side, max_turns=max_turns)
    shaped = HotspotEnv(side=side, max_turns=max_turns, reward_shaping=w, shaping_gamma=gamma)
    _, info = plain.reset(seed=seed)
    shaped.reset(seed=seed)
    phi0 = potential(shaped.state, shaped.side)
    rng = np.random.default_rng(seed)
    rows = []
    while True:
        a = _legal(rng, info["action_mask"])
        _, r, te, tr, info = plain.step(a)
        _, r_s, te_s, tr_s, info_s = shaped.step(a)
        assert (te, tr) == (te_s, tr_s) and plain.state.tobytes() == shaped.state.tobytes()
        rows.append((r, r_s, info_s, 0.0 if te else potential(shaped.state, shaped.side)))
        if te or tr:
            return phi0, rows, te


def test_default_reward_is_the_game_result():
    """Without reward_shaping the reward is +1/-1 at a victory and 0 otherwise,
    with no shaping term in info."""
    env = HotspotEnv(max_turns=2)
    assert env.reward_shaping == 0.0
    _, rows, _ = _twin_episode("technocrat", 1, 0.0, 0.99)
    assert all(r_s == r and "shaping" not in info for r, r_s, info, _ in rows)
    assert all(r == 0.0 for r, *_ in rows[:-1]) and rows[-1][0] in (-1.0, 0.0, 1.0)


@pytest.mark.parametrize("side", ["technocrat", "ziegler"])
def test_shaped_reward_is_potential_based_and_telescopes(side):
    """reward_shaping=w adds w * (gamma * Phi(s') - Phi(s)), Phi(terminal) = 0:
    with gamma = 1 an episode's shaped rewards sum to its result plus
    w * (Phi(last) - Phi(first)) (Phi(last) = 0 when terminated), so the
    optimal policies are unchanged (Ng et al. 1999); with gamma < 1 each
    step's term is w * (gamma * Phi' - Phi)."""
    w = 0.5
    for seed in range(3):
        phi0, rows, terminated = _twin_episode(side, seed, w, 1.0)
        total = sum(r_s for _, r_s, _, _ in rows)
        assert total == pytest.approx(sum(r for r, *_ in rows) + w * (rows[-1][3] - phi0))
        if terminated:
            assert total == pytest.approx(rows[-1][0] - w * phi0)
    phi, rows, _ = _twin_episode(side, 7, w, 0.9)
    for r, r_s, info, phi_after in rows:
        assert info["shaping"] == pytest.approx(w * (0.9 * phi_after - phi))
        assert r_s == pytest.approx(r + info["shaping"])
        phi = phi_after


def test_vector_env_shaping_matches_the_single_env():
    """The vector env's shaped rewards are the single env's, game for game; 0 on reset steps."""
    n = 3
    venv = HotspotVectorEnv(n, max_turns=1, reward_shaping=0.3)
    singles = [HotspotEnv(max_turns=1, reward_shaping=0.3) for _ in range(n)]
    obs, info = venv.reset(seed=30)
    for i, e in enumerate(singles):
        e.reset(seed=30 + i)
    rng = np.random.default_rng(3)
    pending = [False] * n
    for _ in range(150):
        actions = np.array([_legal(rng, m) for m in info["action_mask"]])
        obs, rewards, terms, truncs, info = venv.step(actions)
        for i, env in enumerate(singles):
            if pending[i]:
                env.reset()
                pending[i] = False
                assert rewards[i] == 0.0
                continue
            _, r, te, tr, _ = env.step(int(actions[i]))
            assert rewards[i] == pytest.approx(r)
            pending[i] = te or tr


def test_potential_is_zero_sum_and_bounded():
    """Phi(s) for the Ziegler player is -Phi for the Technocrat, in [-1, 1];
    a batch gives each state's value."""
    venv = HotspotVectorEnv(6, scenario="random", random_pool=6)
    venv.reset(seed=1)
    batch = potential(venv.states, 1)
    assert batch.shape == (6,) and np.all(np.abs(batch) <= 1.0)
    assert np.allclose(potential(venv.states, 0), -batch)
    assert all(potential(venv.states[i], 1) == pytest.approx(batch[i]) for i in range(6))


# ------------------------------------------------------------------ rendering, extras


def test_human_render_mode_prints_the_board(capsys):
    """render_mode="human" prints the text board at reset and step; render() returns None."""
    env = HotspotEnv(render_mode="human")
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.render() is None
    assert capsys.readouterr().out.count("Pieces:") == 3


def test_train_extra_installs_anywhere():
    """The train extra pins no exact torch version (an exact pin failed where
    that wheel does not exist); the README names the CPU wheel index."""
    tomllib = pytest.importorskip("tomllib")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert not any("==" in req for req in extras["train"])
    assert any(req.startswith("stable-baselines3") for req in extras["train"])
    assert "download.pytorch.org/whl/cpu" in (ROOT / "README.md").read_text()
