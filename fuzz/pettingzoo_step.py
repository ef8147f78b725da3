"""Target ``pettingzoo_step``: the PettingZoo AEC env's ``step`` with hostile actions."""

from __future__ import annotations

from .contract import check, refused, same, short
from .harness import target
from .inputs import action_specs, is_env_action, picks_strategy, resolve_action, st


def _setup_pz(workdir):
    from hotspot.env.pettingzoo import HotspotAECEnv

    # the strict mode: an illegal action is refused and nothing changes (the default "lose" ends the game)
    return {"env": HotspotAECEnv(render_mode=None, illegal_action="raise")}


def pz_strategy(ctx):
    s = st()
    return s.tuples(s.integers(0, 2**32), s.integers(0, 40), picks_strategy(), action_specs())


def _pz_snapshot(env):
    return {
        "state": env.states.tobytes(),
        "agent": env.agent_selection,
        "rewards": dict(env.rewards),
        "cumulative": dict(env._cumulative_rewards),
        "terminations": dict(env.terminations),
        "truncations": dict(env.truncations),
    }


@target(
    "pettingzoo_step",
    "the PettingZoo AEC env's step with any action after a few legal steps: "
    "IllegalActionError / TypeError and no change, or a step that works",
    _setup_pz,
    pz_strategy,
)
def check_pz_step(ctx, x):
    import numpy as np

    from hotspot import IllegalActionError
    from hotspot.core.integrity import FAULTS, state_fault

    seed, steps, picks, spec = x
    env = ctx["env"]
    env.reset(seed=seed)
    for k in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(legal[picks[k % len(picks)] % legal.size]))
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        return "skipped (game over)"
    mask = env.observe(agent)["action_mask"]
    a = resolve_action(spec, np.flatnonzero(mask))
    in_mask = is_env_action(a) and 0 <= int(a) < mask.size and bool(mask[int(a)])
    before = _pz_snapshot(env)
    try:
        env.step(a)
    except Exception as exc:  # noqa: BLE001
        label = refused(exc, IllegalActionError, TypeError)
        check(not in_mask, f"step refused {short(a)}, which the mask allows")
        check(
            isinstance(exc, IllegalActionError) == is_env_action(a),
            f"{type(exc).__name__} for {short(a)}: IllegalActionError is for integers, TypeError for the rest",
        )
        same(before, _pz_snapshot(env), "action")
        return label
    check(in_mask, f"step accepted {short(a)}, which the mask does not allow")
    code, j = state_fault(env.states[0])
    check(code == 0, f"after the step: {FAULTS[int(code)]} (index {int(j)})")
    for name in env.possible_agents:
        check(env.observation_space(name).contains(env.observe(name)), f"observation of {name} outside its space")
    return "accepted"
