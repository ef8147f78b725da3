"""Target ``vector_env_step``: ``HotspotVectorEnv.step`` and ``reset`` with arrays
of every shape and dtype."""

from __future__ import annotations

from .contract import check, outcome_with, refused, same, short
from .harness import target
from .inputs import INTERESTING_INTS, env_seeds, huge_ints, is_integer_action, picks_strategy, st

VEC_SIZES = (1, 2, 3)
VEC_DTYPES = (
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "bool",
    "object",
    "str",
)


def _setup_vector(workdir):
    return {"envs": {}}


def _venv(ctx, n):
    from hotspot.env.vector_env import HotspotVectorEnv

    if n not in ctx["envs"]:
        # the strict mode: an illegal action is refused and nothing changes (the default "lose" ends that game)
        ctx["envs"][n] = HotspotVectorEnv(num_envs=n, opponent="random", render_mode="ansi", illegal_action="raise")
    return ctx["envs"][n]


def vector_strategy(ctx):
    s = st()
    elem = s.one_of(
        s.tuples(s.just("legal"), s.integers(0, 2**16)),
        s.tuples(
            s.just("value"),
            s.one_of(s.integers(-300, 600), s.integers(), s.sampled_from(INTERESTING_INTS), huge_ints()),
        ),
    )
    array = s.tuples(
        s.sampled_from(("ndarray",) * 6 + ("list", "tuple", "ragged", "scalar", "none", "str")),
        s.sampled_from(("ok",) * 6 + ("short", "long", "scalar", "col", "row", "empty")),
        s.sampled_from(("int64",) * 4 + VEC_DTYPES),
        s.lists(elem, min_size=4, max_size=4),
    )
    seeds = s.one_of(env_seeds(), s.lists(env_seeds(), max_size=4), s.lists(s.integers(0, 2**64), max_size=4))
    return s.tuples(
        s.sampled_from(VEC_SIZES),
        s.integers(0, 2**32),
        s.integers(0, 8),
        picks_strategy(),
        array,
        s.one_of(s.none(), s.none(), seeds),
    )


def _vec_actions(spec, env):
    import numpy as np

    container, shape, dtype, elems = spec
    n = env.num_envs
    values = []
    for i in range(n + 1):
        what, v = elems[i % len(elems)]
        if what == "legal":
            legal = np.flatnonzero(env.masks[min(i, n - 1)])
            v = int(legal[v % legal.size]) if legal.size else v % 242
        values.append(v)
    size = {"ok": n, "short": n - 1, "long": n + 1, "scalar": 1, "col": n, "row": n, "empty": 0}[shape]
    values = values[:size]
    if container == "none":
        return None
    if container == "str":
        return "".join(str(v % 10) for v in values)
    if container == "scalar":
        return values[0] if values else 0
    if container == "ragged":
        return [values, values[:1]]
    if container in ("list", "tuple"):
        return values if container == "list" else tuple(values)
    if dtype == "object":
        arr = np.array(values + [None], dtype=object)[:-1]
    elif dtype == "str":
        arr = np.array([short(v)[:20] for v in values])
    elif dtype in ("float32", "float64", "bool"):
        arr = np.array([float(v) if abs(v) < 2**1000 else float("inf") for v in values]).astype(dtype)
    else:
        arr = np.array([v % 2**64 for v in values], dtype=np.uint64).astype(dtype)
    if shape == "scalar":
        return arr.reshape(())
    if shape == "col":
        return arr.reshape(n, 1)
    if shape == "row":
        return arr.reshape(1, n)
    return arr


def _valid_seed(x) -> bool:
    return is_integer_action(x) and x >= 0


def _vec_snapshot(env):
    return {
        k: getattr(env, k).tobytes()
        for k in ("states", "seeds", "opp_rng", "needs_reset", "masks", "rewards", "terminated", "truncated")
    } | {"started": env._started}


@target(
    "vector_env_step",
    "HotspotVectorEnv.step with arrays of every shape and dtype, lists, scalars, legal "
    "and illegal values, reset with odd seeds and seed lists: ValueError / IllegalActionError and no game "
    "changed, or a step that works",
    _setup_vector,
    vector_strategy,
)
def check_vector_step(ctx, x):
    import numpy as np

    from hotspot import IllegalActionError
    from hotspot.core.integrity import FAULTS, state_fault

    n, seed, steps, picks, spec, reset_junk = x
    env = _venv(ctx, n)
    labels = []
    if reset_junk is not None:
        before = _vec_snapshot(env)
        valid = _valid_seed(reset_junk) or (
            isinstance(reset_junk, (list, tuple)) and len(reset_junk) == n and all(_valid_seed(v) for v in reset_junk)
        )
        try:
            obs, info = env.reset(seed=reset_junk)
        except Exception as exc:  # noqa: BLE001
            labels.append(refused(exc, ValueError) + " (reset)")
            check(not valid, f"reset refused the valid seed {short(reset_junk)}")
            same(before, _vec_snapshot(env), "reset seed")
        else:
            check(
                valid or reset_junk is None or isinstance(reset_junk, np.ndarray),
                f"reset accepted the seed {short(reset_junk)}",
            )
            check(env.observation_space.contains(obs), "reset: observation outside the space")
            labels.append("accepted (reset)")
    env.reset(seed=seed)
    for k in range(steps):
        acts = np.array(
            [
                np.flatnonzero(env.masks[i])[picks[(k + i) % len(picks)] % int(env.masks[i].sum())]
                if env.masks[i].any()
                else 0
                for i in range(n)
            ]
        )
        env.step(acts)
    actions = _vec_actions(spec, env)
    before = _vec_snapshot(env)
    masks, needs_reset = env.masks.copy(), env.needs_reset.copy()
    try:
        obs, rewards, terminated, truncated, info = env.step(actions)
    except Exception as exc:  # noqa: BLE001
        label = refused(exc, ValueError, IllegalActionError)
        same(before, _vec_snapshot(env), "vector step")
        return outcome_with(label, labels)
    arr = np.asarray(actions)
    check(
        arr.shape == (n,) and np.issubdtype(arr.dtype, np.integer),
        f"step accepted actions of shape {arr.shape} dtype {arr.dtype}",
    )
    for i in range(n):
        if not needs_reset[i]:
            a = int(arr[i])
            check(0 <= a < masks.shape[1] and masks[i, a], f"game {i}: step accepted action {a}, not in its mask")
    check(env.observation_space.contains(obs), "step: observation outside the space")
    check(rewards.shape == (n,) and terminated.shape == (n,) and truncated.shape == (n,), "step: result shapes")
    check(bool((info["action_mask"] == env.action_masks()).all()), "step: info mask != action_masks()")
    for i in range(n):
        code, j = state_fault(env.states[i])
        check(code == 0, f"game {i}: {FAULTS[int(code)]} (index {int(j)})")
    return outcome_with("accepted", labels)
