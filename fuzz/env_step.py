"""Target ``env_step``: ``HotspotEnv.step`` and ``reset`` with hostile actions and seeds."""

from __future__ import annotations

from .contract import ContractError, check, outcome_with, refused, same, short
from .harness import target
from .inputs import (
    action_specs,
    env_seeds,
    is_env_action,
    is_integer_action,
    junk_values,
    picks_strategy,
    resolve_action,
    st,
)

ENV_CONFIGS = [
    (side, opponent, mode, scenario)
    for mode in ("raise", "lose")
    for side in ("technocrat", "ziegler")
    for opponent, scenario in (("random", "standard"), ("scripted", "open"))
]


def _setup_env(workdir):
    return {"envs": {}, "fresh": {}}


def _env(ctx, i, fresh=False):
    from hotspot.env.hotspot_env import HotspotEnv

    key = "fresh" if fresh else "envs"
    if i not in ctx[key]:
        side, opponent, mode, scenario = ENV_CONFIGS[i]
        ctx[key][i] = HotspotEnv(
            side=side, opponent=opponent, scenario=scenario, illegal_action=mode, render_mode="ansi"
        )
    return ctx[key][i]


def env_strategy(ctx):
    s = st()
    return s.tuples(
        s.integers(0, len(ENV_CONFIGS) - 1),
        s.integers(0, 2**32),
        s.integers(0, 40),
        picks_strategy(),
        action_specs(),
        s.one_of(s.none(), s.none(), s.tuples(env_seeds(), s.one_of(s.none(), junk_values(False)))),
        s.sampled_from(("step",) * 12 + ("before_reset", "after_end")),
    )


def _env_snapshot(env):
    return {
        "state": env.states.tobytes(),
        "mask": env.mask.tobytes(),
        "opp_rng": env.opp_rng.tobytes(),
        "episode_seed": None if env._episode_seed is None else int(env._episode_seed),
        "started": env._started,
        "illegal_end": env._illegal_end,
    }


def _check_env_obs(env, obs, info, where):
    from hotspot.core.integrity import FAULTS, state_fault

    check(env.observation_space.contains(obs), f"{where}: the observation is outside the observation space")
    check(bool((info["action_mask"] == env.action_masks()).all()), f"{where}: info mask != action_masks()")
    code, j = state_fault(env.state)
    check(code == 0, f"{where}: {FAULTS[int(code)]} (index {int(j)})")


@target(
    "env_step",
    "HotspotEnv.step (raise and lose modes) with any action after a few legal steps, reset with "
    "odd seeds and options, steps before reset: the documented refusal and no change, or a step that works",
    _setup_env,
    env_strategy,
)
def check_env_step(ctx, x):
    import numpy as np

    from hotspot import IllegalActionError
    from hotspot.core.rules_data import PHASE_OVER

    cfg, seed, steps, picks, spec, reset_junk, mode = x
    env = _env(ctx, cfg)
    labels = []
    if mode == "before_reset":
        fresh = _env(ctx, cfg, fresh=True)
        before = _env_snapshot(fresh)
        try:
            fresh.step(resolve_action(spec, []))
        except Exception as exc:  # noqa: BLE001
            label = refused(exc, RuntimeError, TypeError)
            same(before, _env_snapshot(fresh), "step before reset")
            return label + " (before reset)"
        raise ContractError("step() before reset() was accepted")
    if reset_junk is not None:
        junk_seed, options = reset_junk
        before = _env_snapshot(env)
        try:
            obs, info = env.reset(seed=junk_seed, options=options)
        except Exception as exc:  # noqa: BLE001
            labels.append(refused(exc, ValueError) + " (reset)")
            check(
                not is_integer_action(junk_seed) or int(junk_seed) < 0,
                f"reset refused the non-negative integer seed {short(junk_seed)}",
            )
            same(before, _env_snapshot(env), "reset seed")
        else:
            check(junk_seed is None or is_integer_action(junk_seed), f"reset accepted the seed {short(junk_seed)}")
            _check_env_obs(env, obs, info, "reset")
            labels.append("accepted (reset)")
    obs, info = env.reset(seed=seed)
    for k in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        if not legal.size or int(env.state["phase"]) == PHASE_OVER:
            break
        obs, reward, terminated, truncated, info = env.step(int(legal[picks[k % len(picks)] % legal.size]))
        if terminated or truncated:
            break
    if mode == "after_end" or int(env.state["phase"]) == PHASE_OVER:
        if int(env.state["phase"]) != PHASE_OVER and env.illegal_action == "lose":
            env.step(-1)  # ends the episode (lose mode)
        if int(env.state["phase"]) == PHASE_OVER or env._illegal_end:
            before = _env_snapshot(env)
            try:
                env.step(resolve_action(spec, []))
            except Exception as exc:  # noqa: BLE001
                label = refused(exc, RuntimeError, TypeError)
                same(before, _env_snapshot(env), "step after the episode's end")
                return outcome_with(label + " (after end)", labels)
            raise ContractError("step() after the end of the episode was accepted")
    legal = np.flatnonzero(env.action_masks())
    a = resolve_action(spec, legal)
    in_mask = is_env_action(a) and 0 <= int(a) < env.mask.size and bool(env.mask[int(a)])
    before = _env_snapshot(env)
    try:
        obs, reward, terminated, truncated, info = env.step(a)
    except Exception as exc:  # noqa: BLE001
        label = refused(exc, IllegalActionError, TypeError)
        check(not in_mask, f"step refused {short(a)}, which the mask allows")
        check(
            env.illegal_action == "raise" or not is_env_action(a),
            f"lose mode raised {type(exc).__name__} for the integer {short(a)}",
        )
        same(before, _env_snapshot(env), "action")
        return outcome_with(label, labels)
    if not in_mask:
        check(env.illegal_action == "lose", f"raise mode accepted {short(a)}, which the mask does not allow")
        check(
            reward == -1.0 and terminated and not truncated and "illegal_action" in info,
            "lose mode: an illegal action must end the episode with reward -1",
        )
        after = _env_snapshot(env)
        check(after["state"] == before["state"], "lose mode: an illegal action changed the game state")
        return outcome_with("refused:lose", labels)
    _check_env_obs(env, obs, info, "step")
    check(
        reward in (-1.0, 0.0, 1.0) and isinstance(terminated, bool) and isinstance(truncated, bool),
        "reward / terminated / truncated",
    )
    check(
        terminated == (int(env.state["phase"]) == PHASE_OVER and not bool(env.state["truncated"])),
        "terminated does not match the game",
    )
    env.render()
    return outcome_with("accepted", labels)
