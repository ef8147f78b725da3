"""Environment throughput against the core alone.

* ``HotspotEnv``: one game, a Python loop of ``env.step`` picking a random
  legal action from ``info["action_mask"]`` (``np.flatnonzero`` and
  ``random.randrange``: cheap next to a step), resetting at the end of each
  episode (the reset is timed too).
* ``HotspotVectorEnv`` at batch 1024 (``--num-envs``): one ``step`` call for
  all games, actions picked with a vectorized numpy choice from the masks
  (a uniform offset into each row's legal actions, from one
  ``np.flatnonzero`` of the batch), next-step autoreset.
* The core alone: ``play_random_batch`` at the same batch (as ``bench_core``),
  one thread and all threads, measured in the same run.

The envs run with their default ``max_turns`` (a harness's turn limit, D19
revised: a game still going then is truncated, reward 0) and the core with
none; random games end by turn 14 at the latest
(``benchmarks/results/game_lengths.json``), so neither limit changes the
work measured.  An episode that ends, terminated or truncated, is reset.

One env step is the learner's action *plus the opponent's replies* (the
compiled random opponent moves inside ``step``), so a step is several atomic
actions.  The state's ``n_actions`` field counts atomic actions; its change
over each step (for a game reset by the step: its count from the starting
position, which holds the opponent's opening moves) gives the env's atomic
actions per second, the figure to hold against the core's.  The target of
The target: HotspotVectorEnv at batch 1024 runs at least half the core's rate
(atomic actions/s through the vector env, all threads, over the core's random
play, all threads).

    python benchmarks/bench_env.py             # full: a minute or two
    python benchmarks/bench_env.py --tiny      # CI smoke run: seconds
"""

from __future__ import annotations

import random

import _common as C
import numpy as np

NAME = "env"
CHUNK = 64  # single-env steps per timed call


def single_env_workload(side: str, seed: int = 0):
    """``run_once`` stepping one HotspotEnv ``CHUNK`` times (and resets)."""
    from hotspot.env.hotspot_env import HotspotEnv

    env = HotspotEnv(side=side, opponent="random")
    start_n = int(env.templates["n_actions"].max())  # the templates are not started: 0
    pick = random.Random(seed)
    box = {}

    def reset(s=None):
        _, info = env.reset(seed=s)
        box["mask"] = info["action_mask"]
        box["n"] = int(env.states[0]["n_actions"])
        return box["n"] - start_n  # the opponent's opening moves

    reset(seed)

    def run_once():
        atomic = steps = episodes = 0
        for _ in range(CHUNK):
            legal = np.flatnonzero(box["mask"])
            a = int(legal[pick.randrange(len(legal))])
            _, _, terminated, truncated, info = env.step(a)
            n = int(env.states[0]["n_actions"])
            atomic += n - box["n"]
            steps += 1
            box["mask"], box["n"] = info["action_mask"], n
            if terminated or truncated:
                episodes += 1
                atomic += reset()
        return {"steps": steps, "atomic": atomic, "episodes": episodes}

    return run_once


def vector_env_workload(num_envs: int, side: str, seed: int = 0, observation: str = "full"):
    """``run_once`` stepping a HotspotVectorEnv of ``num_envs`` games once
    (``observation``: "full" or "compact"; the env's default ``copy=False``).
    The time of the benchmark's own numpy sampler is returned as
    ``sampler_s`` so that it can be told apart from the env's."""
    import time

    from hotspot.env import HotspotVectorEnv

    envs = HotspotVectorEnv(num_envs=num_envs, side=side, opponent="random", observation=observation)
    start_n = int(envs.templates["n_actions"].max())
    rng = np.random.default_rng(seed)
    _, info = envs.reset(seed=seed)
    box = {"masks": info["action_mask"]}

    def choose(masks):
        """A uniformly random legal action per row (0 where none: a game being
        reset): the legal actions of all rows at once (``np.flatnonzero``, row
        by row in index order), a uniform offset into each row's run."""
        flat = np.flatnonzero(masks)
        if flat.size == 0:
            return np.zeros(masks.shape[0], dtype=np.int64)
        counts = np.bincount(flat // masks.shape[1], minlength=masks.shape[0])
        starts = np.cumsum(counts) - counts
        k = (rng.random(masks.shape[0]) * counts).astype(np.int64)
        picks = flat[np.minimum(starts + k, flat.size - 1)] - np.arange(masks.shape[0]) * masks.shape[1]
        return np.where(counts > 0, picks, 0)

    def run_once():
        was_reset = envs.needs_reset.copy()
        before = envs.states["n_actions"].astype(np.int64)
        t0 = time.perf_counter()
        actions = choose(box["masks"])
        sampler = time.perf_counter() - t0
        _, _, terminated, truncated, info = envs.step(actions)
        after = envs.states["n_actions"].astype(np.int64)
        box["masks"] = info["action_mask"]
        atomic = np.where(was_reset, after - start_n, after - before).sum()
        learner = int(num_envs - was_reset.sum())
        return {
            "steps": num_envs,
            "learner_steps": learner,
            "atomic": int(atomic),
            "episodes": int((terminated | truncated).sum()),
            "sampler_s": sampler,
        }

    return run_once


def measure(run_once, threads: int, repeats: int, min_time: float) -> dict:
    import numba

    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        run_once()  # warm-up: compiles or loads from the cache
        samples = [C.sample_rate(run_once, min_time) for _ in range(repeats)]
    finally:
        numba.set_num_threads(previous)
    steps = sum(s.get("learner_steps", s["steps"]) for s in samples)
    for s in samples:  # the env alone: the benchmark's sampler time taken out
        s["atomic_per_env_s"] = s["atomic"] / (s["seconds"] - s.get("sampler_s", 0.0))
    return {
        "threads": threads,
        "steps_per_s": C.median_of(samples, "steps_per_s"),
        "atomic_actions_per_s": C.median_of(samples, "atomic_per_s"),
        "atomic_actions_per_env_s": C.median_of(samples, "atomic_per_env_s"),
        "sampler_share": sum(s.get("sampler_s", 0.0) for s in samples) / sum(s["seconds"] for s in samples),
        "atomic_per_step": sum(s["atomic"] for s in samples) / steps if steps else None,
        "samples": samples,
    }


def main(argv=None) -> dict:
    p = C.make_parser("bench_env", __doc__)
    p.add_argument("--num-envs", type=int, default=None, help="vector env batch (default 1024, tiny 16)")
    p.add_argument(
        "--side",
        default="technocrat",
        choices=("technocrat", "ziegler"),
        help="the learner's side (default %(default)s)",
    )
    args = p.parse_args(argv)
    repeats, min_time = C.timing_args(args)
    n = args.num_envs or (16 if args.tiny else 1024)
    threads = sorted({1, C.thread_counts()[-1]})
    top = threads[-1]

    rows = []
    r = measure(single_env_workload(args.side), 1, repeats, min_time)
    rows.append(dict(r, what="HotspotEnv", batch=1))
    print(f"  HotspotEnv: {C.fmt(r['steps_per_s'])} steps/s", flush=True)
    for observation in ("full", "compact"):
        what = "HotspotVectorEnv" if observation == "full" else "HotspotVectorEnv compact"
        for t in threads:
            r = measure(vector_env_workload(n, args.side, observation=observation), t, repeats, min_time)
            rows.append(dict(r, what=what, batch=n))
            print(f"  {what}({n}), {t} thread(s): {C.fmt(r['steps_per_s'])} steps/s", flush=True)
    for t in threads:
        r = C.measure_core(n, t, repeats, min_time)
        rows.append(
            {
                "what": "core play_random_batch",
                "batch": n,
                "threads": t,
                "steps_per_s": None,
                "atomic_actions_per_s": r["actions_per_s"],
                "atomic_per_step": 1.0,
                "samples": r["samples"],
            }
        )
        print(f"  core, batch {n}, {t} thread(s): {C.fmt(r['actions_per_s'])} actions/s", flush=True)

    def find(what, t):
        return next(x for x in rows if x["what"] == what and x["threads"] == t)

    core_1, core_all = find("core play_random_batch", 1), find("core play_random_batch", top)
    for x in rows:
        x["vs_core_1_thread"] = C.ratio(x["atomic_actions_per_s"], core_1["atomic_actions_per_s"])
        x["vs_core_same_threads"] = C.ratio(
            x["atomic_actions_per_s"], find("core play_random_batch", x["threads"])["atomic_actions_per_s"]
        )
        x["env_alone_vs_core_same_threads"] = C.ratio(
            x.get("atomic_actions_per_env_s"), find("core play_random_batch", x["threads"])["atomic_actions_per_s"]
        )
    C.print_table(
        f"Environments vs the core (learner: {args.side}; median of {repeats} x >= {min_time:g} s)",
        [
            "what",
            "batch",
            "threads",
            "env steps/s",
            "atomic/step",
            "atomic actions/s",
            "x core 1T",
            "x core same T",
            "env alone x core same T",
            "sampler share",
        ],
        [
            [
                x["what"],
                x["batch"],
                x["threads"],
                x["steps_per_s"],
                x["atomic_per_step"],
                x["atomic_actions_per_s"],
                x["vs_core_1_thread"],
                x["vs_core_same_threads"],
                x.get("env_alone_vs_core_same_threads"),
                x.get("sampler_share"),
            ]
            for x in rows
        ],
    )

    vec_all, vec_1 = find("HotspotVectorEnv", top), find("HotspotVectorEnv", 1)
    cvec_all, cvec_1 = find("HotspotVectorEnv compact", top), find("HotspotVectorEnv compact", 1)
    single = find("HotspotEnv", 1)
    summary = {
        "num_envs": n,
        "threads_all": top,
        "env_steps_per_s": single["steps_per_s"],
        "env_atomic_actions_per_s": single["atomic_actions_per_s"],
        "env_atomic_per_step": single["atomic_per_step"],
        "vector_steps_per_s_all_threads": vec_all["steps_per_s"],
        "vector_atomic_actions_per_s_all_threads": vec_all["atomic_actions_per_s"],
        "vector_atomic_actions_per_s_1_thread": vec_1["atomic_actions_per_s"],
        "vector_atomic_per_step": vec_all["atomic_per_step"],
        "core_actions_per_s_1_thread": core_1["atomic_actions_per_s"],
        "core_actions_per_s_all_threads": core_all["atomic_actions_per_s"],
        "vector_vs_core_all_threads": vec_all["vs_core_same_threads"],
        "vector_vs_core_1_thread": vec_1["vs_core_same_threads"],
        "vector_env_alone_vs_core_all_threads": vec_all["env_alone_vs_core_same_threads"],
        "vector_env_alone_vs_core_1_thread": vec_1["env_alone_vs_core_same_threads"],
        "vector_sampler_share_all_threads": vec_all["sampler_share"],
        "compact_vector_vs_core_all_threads": cvec_all["vs_core_same_threads"],
        "compact_vector_vs_core_1_thread": cvec_1["vs_core_same_threads"],
        "compact_vector_env_alone_vs_core_all_threads": cvec_all["env_alone_vs_core_same_threads"],
        "compact_vector_steps_per_s_all_threads": cvec_all["steps_per_s"],
        "env_vs_core_1_thread": single["vs_core_1_thread"],
    }
    print(
        f"\nvector env / core at batch {n}: {C.fmt(summary['vector_vs_core_all_threads'])}x on {top} thread(s), "
        f"{C.fmt(summary['vector_vs_core_1_thread'])}x on one"
    )
    config = {
        "num_envs": n,
        "side": args.side,
        "opponent": "random",
        "scenario": "standard",
        "threads": threads,
        "repeats": repeats,
        "min_time_s": min_time,
        "single_env_chunk": CHUNK,
    }
    notes = [
        "one env step = the learner's action + the opponent's replies; atomic actions are counted "
        "with the state's n_actions field (a reset counts the opponent's opening moves)",
        "vector env steps/s counts every game of every step, including games being reset "
        "(next-step autoreset); atomic/step divides by the learner's applied actions",
    ]
    return C.write_result(args, NAME, config, rows, summary, notes)


if __name__ == "__main__":
    main()
