"""Compilation: the first-call cost of the compiled core, and the cache.

Starts ``_compile_worker.py`` in fresh processes that share one numba cache
directory (``NUMBA_CACHE_DIR``, a new empty temporary directory, so the
project's own cache is neither used nor touched):

1. the *cold* process finds the cache empty: its first calls compile
   (``init``, ``legal_action_mask``, ``step``, then the parallel
   ``play_random_batch``, ``legal_action_mask_batch`` and ``step_batch``, and
   the vector environment's reset and step unless ``--no-with-env``) and
   write the cache;
2. the *warm* processes (``--repeats`` of them) find it filled and load the
   machine code instead.

Reported per phase: the seconds of the first call in each process; and the
time to the first completed step (import, a new game, its legal mask, one
action) counted from the moment the process was spawned, interpreter start
included.  Target: at most 1 s in every second process (``--repeats``, 5).

Then, each from its own new empty cache and again with that cache filled:
``hotspot arena --games 2`` (the default agents and workers) until its table
is printed and it exits, and a process that makes a ``HotspotEnv()``,
resets it and steps once.  Targets: 30 s each on two cores.

``--tiny`` (the CI smoke run) skips the cold compile, which takes minutes: it
uses the project's own cache (whatever state it is in) for both processes.

    python benchmarks/bench_compile.py         # full: a few minutes (one whole compile)
    python benchmarks/bench_compile.py --tiny
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import _common as C

NAME = "compile"
TARGET_SECOND_START_S = 1.0  # a second process's first step, in every run (once 2 s)
TARGET_ARENA_COLD_S = 30.0  # the first `hotspot arena` table from an empty cache, two cores
TARGET_ENV_COLD_S = 30.0  # the first HotspotEnv().step from an empty cache
ENV_SNIPPET = (
    "from hotspot.env import HotspotEnv; env = HotspotEnv(); obs, info = env.reset(seed=0); "
    "env.step(int(info['action_mask'].argmax()))"
)
WORKER = C.BENCH_DIR / "_compile_worker.py"


def spawn(cache_dir, with_env: bool) -> dict:
    """Run one fresh worker; its phases plus times measured from the spawn."""
    env = C.child_env(NUMBA_CACHE_DIR=cache_dir) if cache_dir else C.child_env()
    cmd = [sys.executable, str(WORKER)] + (["--with-env"] if with_env else [])
    spawned = time.time()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=C.REPO_ROOT)
    ended = time.time()
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        raise SystemExit(f"compile worker failed with exit code {proc.returncode}")
    w = json.loads(proc.stdout.strip().splitlines()[-1])
    w["interpreter_start_s"] = w["t_start"] - spawned
    w["first_step_from_spawn_s"] = w["first_step_at"] - spawned
    w["process_wall_s"] = ended - spawned
    return w


def arena_cold(games: int) -> dict:
    """``hotspot arena --games N`` (the default agents and workers) from a new
    empty numba cache: the seconds until its table is printed and it exits."""
    cache_dir = tempfile.mkdtemp(prefix="hotspot-numba-arena-")
    out_dir = tempfile.mkdtemp(prefix="hotspot-arena-")
    try:
        cmd = [sys.executable, "-m", "hotspot", "arena", "--games", str(games), "--out", out_dir]
        t0 = time.time()
        proc = subprocess.run(
            cmd, env=C.child_env(NUMBA_CACHE_DIR=cache_dir), capture_output=True, text=True, cwd=C.REPO_ROOT
        )
        wall = time.time() - t0
        if proc.returncode != 0:
            sys.stderr.write(proc.stdout[-3000:] + proc.stderr[-3000:])
            raise SystemExit(f"hotspot arena failed with exit code {proc.returncode}")
        again = cmd[:-1] + [out_dir + "-again"]  # a new run folder: the same run again, the cache filled
        t0 = time.time()
        subprocess.run(
            again,
            env=C.child_env(NUMBA_CACHE_DIR=cache_dir),
            capture_output=True,
            text=True,
            cwd=C.REPO_ROOT,
            check=True,
        )
        warm = time.time() - t0
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
        shutil.rmtree(out_dir, ignore_errors=True)
        shutil.rmtree(out_dir + "-again", ignore_errors=True)
    return {"games": games, "cold_s": wall, "warm_s": warm, "command": " ".join(cmd[1:4] + cmd[4:6])}


def env_cold() -> dict:
    """A fresh process, a new empty numba cache: ``HotspotEnv()``, ``reset``
    and one ``step`` (the seconds from the spawn until the process ends),
    and the same again with the cache filled."""
    cache_dir = tempfile.mkdtemp(prefix="hotspot-numba-env-")
    try:
        times = []
        for _ in range(2):
            t0 = time.time()
            proc = subprocess.run(
                [sys.executable, "-c", ENV_SNIPPET],
                env=C.child_env(NUMBA_CACHE_DIR=cache_dir),
                capture_output=True,
                text=True,
                cwd=C.REPO_ROOT,
            )
            times.append(time.time() - t0)
            if proc.returncode != 0:
                sys.stderr.write(proc.stdout[-3000:] + proc.stderr[-3000:])
                raise SystemExit(f"the environment's first step failed with exit code {proc.returncode}")
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
    return {"cold_s": times[0], "warm_s": times[1]}


def main(argv=None) -> dict:
    p = C.make_parser("bench_compile", __doc__)
    p.add_argument(
        "--with-env",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also time the vector environment's first reset and step (default: yes; tiny: no)",
    )
    p.add_argument(
        "--cache-dir",
        default=None,
        help="numba cache directory to use (default: a new temporary one; tiny: the project's)",
    )
    p.add_argument("--keep-cache", action="store_true", help="keep the temporary cache directory")
    p.add_argument(
        "--arena",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also time a first `hotspot arena --games 2` from an empty cache (default: yes; tiny: no)",
    )
    args = p.parse_args(argv)
    repeats = args.repeats or (1 if args.tiny else 5)
    with_env = (not args.tiny) if args.with_env is None else args.with_env

    made_temp = False
    cache_dir = args.cache_dir
    if cache_dir is None and not args.tiny:
        cache_dir = tempfile.mkdtemp(prefix="hotspot-numba-cache-")
        made_temp = True
    where = cache_dir or "project cache"
    print(f"numba cache: {cache_dir or 'the project cache (NUMBA_CACHE_DIR as set, else __pycache__)'}", flush=True)
    try:
        cold = spawn(cache_dir, with_env)
        print(
            f"  first process:  first step after {cold['first_step_from_spawn_s']:.2f} s, "
            f"all done after {cold['process_wall_s']:.2f} s",
            flush=True,
        )
        warm = []
        for _ in range(repeats):
            warm.append(spawn(cache_dir, with_env))
            print(
                f"  second process: first step after {warm[-1]['first_step_from_spawn_s']:.2f} s, "
                f"all done after {warm[-1]['process_wall_s']:.2f} s",
                flush=True,
            )
    finally:
        if made_temp and not args.keep_cache:
            shutil.rmtree(cache_dir, ignore_errors=True)

    def med(key):
        return float(statistics.median(w[key] for w in warm))

    rows = [
        {
            "phase": "interpreter start",
            "first_process_s": cold["interpreter_start_s"],
            "second_process_s": med("interpreter_start_s"),
        }
    ]
    for i, ph in enumerate(cold["phases"]):
        rows.append(
            {
                "phase": ph["phase"],
                "first_process_s": ph["seconds"],
                "second_process_s": float(statistics.median(w["phases"][i]["seconds"] for w in warm)),
            }
        )
    rows.append(
        {
            "phase": "TIME TO FIRST STEP (from spawn)",
            "first_process_s": cold["first_step_from_spawn_s"],
            "second_process_s": med("first_step_from_spawn_s"),
        }
    )
    rows.append(
        {"phase": "whole process", "first_process_s": cold["process_wall_s"], "second_process_s": med("process_wall_s")}
    )
    C.print_table(
        f"First calls in fresh processes (numba cache: {'temporary' if made_temp else where}; "
        f"second process: median of {repeats})",
        ["phase", "first process s", "second process s"],
        [[r["phase"], r["first_process_s"], r["second_process_s"]] for r in rows],
    )
    second = med("first_step_from_spawn_s")
    second_max = max(w["first_step_from_spawn_s"] for w in warm)
    cold_runs = (not args.tiny) if args.arena is None else args.arena
    arena = arena_cold(2) if cold_runs else None
    if arena:
        print(
            f"hotspot arena --games 2 from an empty cache: {arena['cold_s']:.1f} s "
            f"(again, cache filled: {arena['warm_s']:.1f} s)"
        )
    env = env_cold() if cold_runs else None
    if env:
        print(
            f"HotspotEnv() reset and step from an empty cache: {env['cold_s']:.1f} s "
            f"(again, cache filled: {env['warm_s']:.1f} s)"
        )
    summary = {
        "fresh_cache": made_temp,
        "first_process_first_step_s": cold["first_step_from_spawn_s"],
        "first_process_wall_s": cold["process_wall_s"],
        "second_process_first_step_s": second,
        "second_process_first_step_max_s": second_max,
        "second_process_runs": len(warm),
        "second_process_wall_s": med("process_wall_s"),
        "target_second_start_s": TARGET_SECOND_START_S,
        "second_start_within_target": second_max <= TARGET_SECOND_START_S,
        "arena_cold_s": arena["cold_s"] if arena else None,
        "arena_warm_s": arena["warm_s"] if arena else None,
        "arena_compile_s": (arena["cold_s"] - arena["warm_s"]) if arena else None,
        "target_arena_cold_s": TARGET_ARENA_COLD_S,
        "env_cold_s": env["cold_s"] if env else None,
        "env_warm_s": env["warm_s"] if env else None,
        "target_env_cold_s": TARGET_ENV_COLD_S,
        "compile_s": sum(ph["seconds"] for ph in cold["phases"])
        - sum(statistics.median(w["phases"][i]["seconds"] for w in warm) for i in range(len(cold["phases"]))),
    }
    print(
        f"\nsecond process: first step {second:.2f} s after spawn (median; slowest of {len(warm)}: "
        f"{second_max:.2f} s; target <= {TARGET_SECOND_START_S:g} s in every run)"
    )
    notes = (
        []
        if made_temp
        else [
            "not a fresh cache: the first process may have found the code compiled already "
            "(the tiny run always uses the project's cache)"
        ]
    )
    config = {
        "cache_dir": "temporary (removed)" if made_temp and not args.keep_cache else where,
        "repeats": repeats,
        "with_env": with_env,
    }
    return C.write_result(
        args, NAME, config, rows, summary, notes, extra={"processes": {"first": cold, "second": warm}}
    )


if __name__ == "__main__":
    main()
