"""The same work without compilation: what numba buys.

Runs the identical random-play workload of ``bench_core.py``
(``play_random_batch`` over a few fresh standard games, each capped at
``--max-actions`` atomic actions) in two fresh worker processes of this very
script: one with ``NUMBA_DISABLE_JIT=1`` (every rule runs as plain Python,
the path the tests compare against the compiled one) and one compiled, on one
numba thread.  Both play the same games (same dice and player seeds), so they
do the same work; the ratio compiled/uncompiled is the speed-up of
compilation on that workload.

    python benchmarks/bench_nojit.py           # full: about half a minute
    python benchmarks/bench_nojit.py --tiny    # CI smoke run: seconds
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import _common as C

NAME = "nojit"


def worker(batch: int, max_actions: int, repeats: int, min_time: float) -> dict:
    """Measure the workload in this process (compiled or not, as the environment says)."""
    t0 = time.perf_counter()
    import numba

    run_once, warm_up = C.random_play_workload(batch, max_actions)
    setup_s = time.perf_counter() - t0
    try:
        numba.set_num_threads(1)
    except Exception:  # noqa: BLE001 - without the JIT there is no thread pool to size
        pass
    t0 = time.perf_counter()
    warm_up()
    warm_up_s = time.perf_counter() - t0
    samples = [C.sample_rate(run_once, min_time) for _ in range(repeats)]
    return {
        "jit_disabled": bool(numba.config.DISABLE_JIT),
        "batch": batch,
        "max_actions": max_actions,
        "actions_per_s": C.median_of(samples, "actions_per_s"),
        "actions_per_call": samples[0]["actions"] / samples[0]["calls"],
        "setup_s": setup_s,
        "warm_up_s": warm_up_s,
        "samples": samples,
    }


def run_worker(disable_jit: bool, batch: int, max_actions: int, repeats: int, min_time: float) -> dict:
    cmd = [
        sys.executable,
        __file__,
        "--worker",
        "--batch",
        str(batch),
        "--max-actions",
        str(max_actions),
        "--repeats",
        str(repeats),
        "--min-time",
        str(min_time),
    ]
    env = C.child_env(NUMBA_DISABLE_JIT="1" if disable_jit else None, NUMBA_NUM_THREADS="1")
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=C.REPO_ROOT)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        raise SystemExit(f"worker (NUMBA_DISABLE_JIT={int(disable_jit)}) failed with exit code {proc.returncode}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["process_wall_s"] = wall
    return result


def main(argv=None) -> dict:
    p = C.make_parser("bench_nojit", __doc__)
    p.add_argument("--batch", type=int, default=None, help="games per call (default 2, tiny 1)")
    p.add_argument(
        "--max-actions", type=int, default=None, help="atomic actions per game at most (default 200, tiny 20)"
    )
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    batch = args.batch or (1 if args.tiny else 2)
    max_actions = args.max_actions or (20 if args.tiny else 200)
    repeats, min_time = C.timing_args(args)
    if args.repeats is None and not args.tiny:
        repeats = 3  # the uncompiled samples are slow; three suffice for a median
    if args.worker:
        print(json.dumps(worker(batch, max_actions, repeats, min_time)))
        return {}

    print(f"workload: {batch} game(s), at most {max_actions} actions each, one thread", flush=True)
    nojit = run_worker(True, batch, max_actions, repeats, min_time)
    print(f"  NUMBA_DISABLE_JIT=1: {C.fmt(nojit['actions_per_s'])} actions/s", flush=True)
    jit = run_worker(False, batch, max_actions, repeats, min_time)
    print(f"  compiled:            {C.fmt(jit['actions_per_s'])} actions/s", flush=True)
    rows = [dict(nojit, mode="uncompiled (NUMBA_DISABLE_JIT=1)"), dict(jit, mode="compiled, 1 thread")]
    C.print_table(
        f"Random play without and with compilation, median of {repeats} x >= {min_time:g} s",
        ["mode", "actions/s", "actions/call", "warm-up s"],
        [[r["mode"], r["actions_per_s"], r["actions_per_call"], r["warm_up_s"]] for r in rows],
    )
    summary = {
        "nojit_actions_per_s": nojit["actions_per_s"],
        "jit_actions_per_s": jit["actions_per_s"],
        "speedup_jit_vs_nojit": C.ratio(jit["actions_per_s"], nojit["actions_per_s"]),
        "same_work": nojit["actions_per_call"] == jit["actions_per_call"],
    }
    print(
        f"\ncompiled / uncompiled = {C.fmt(summary['speedup_jit_vs_nojit'])}x"
        f" (same games in both: {C.fmt(summary['same_work'])})"
    )
    notes = (
        []
        if summary["same_work"]
        else [
            "the compiled and uncompiled runs did different numbers of actions per call: "
            "the two paths disagree (a bug: they should play the same games)"
        ]
    )
    config = {
        "batch": batch,
        "max_actions": max_actions,
        "repeats": repeats,
        "min_time_s": min_time,
        "threads": 1,
        "function": "hotspot.core.rollout.play_random_batch",
    }
    return C.write_result(args, NAME, config, rows, summary, notes)


if __name__ == "__main__":
    main()
