"""Memory: bytes per game state and the peak memory of a big batch.

* ``STATE_BYTES``: the size of one game's state record (``STATE_DTYPE``); the
  target is at most 4 KiB.
* The peak memory of a batch of 100,000 games (``--games``): a fresh worker
  process of this script loads the compiled core (a one-game warm-up), then
  builds the batch with ``hotspot.core.init("standard", seeds=range(n))`` and
  plays ``--play-actions`` random actions in every game
  (``play_random_batch``).  Measured two ways: the growth of the process's
  peak resident set over that span (``resource.getrusage(...).ru_maxrss``
  after, less the resident set before), and, in a second pass of the same
  work, Python's ``tracemalloc`` peak (numpy reports its buffers to it;
  ``--no-tracemalloc`` skips this slower pass).  Divided by the games, both
  give bytes per game including the overheads of building the batch.

    python benchmarks/bench_memory.py          # full: 100,000 games, seconds to a minute
    python benchmarks/bench_memory.py --tiny   # 1,000 games
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

import _common as C

NAME = "memory"
TARGET_STATE_BYTES = 4096


def current_rss_bytes():
    """The resident set now (Linux /proc), or None elsewhere."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def peak_rss_bytes() -> int:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) if sys.platform == "darwin" else int(peak) * 1024  # Linux reports KiB


def build_and_play(games: int, play_actions: int):
    """The measured work: a batch of ``games`` fresh games, ``play_actions`` random actions in each."""
    import numpy as np

    from hotspot.core import init
    from hotspot.core.rollout import play_random_batch

    t0 = time.perf_counter()
    states = init("standard", seeds=range(games))
    init_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    counts = play_random_batch(states, np.arange(1, games + 1, dtype=np.uint64), play_actions)
    play_s = time.perf_counter() - t0
    return states, int(counts.sum()), init_s, play_s


def worker(games: int, play_actions: int, traced: bool) -> dict:
    """In a fresh process: the peak-RSS growth of the work, then (``traced``)
    its tracemalloc peak in a second pass (tracemalloc slows ``init``'s
    Python loop several times, so it does not share the first pass)."""
    import tracemalloc

    import numpy as np

    from hotspot.core import STATE_BYTES, init
    from hotspot.core.rollout import play_random_batch

    warm = init("standard", seeds=[0])
    play_random_batch(warm, np.ones(1, dtype=np.uint64), 2)  # load the compiled code first
    del warm
    rss_before = current_rss_bytes()
    peak_before = peak_rss_bytes()
    states, played, init_s, play_s = build_and_play(games, play_actions)
    peak_after = peak_rss_bytes()
    nbytes = int(states.nbytes)
    del states
    base = rss_before if rss_before is not None else peak_before
    out = {
        "games": games,
        "state_bytes": int(STATE_BYTES),
        "batch_nbytes": nbytes,
        "rss_before_bytes": rss_before,
        "peak_rss_before_bytes": peak_before,
        "peak_rss_after_bytes": peak_after,
        "peak_rss_delta_bytes": max(0, peak_after - base),
        "init_s": init_s,
        "play_s": play_s,
        "played_actions": played,
        "tracemalloc_peak_bytes": None,
    }
    if traced:
        tracemalloc.start()
        states, _, _, _ = build_and_play(games, play_actions)
        out["tracemalloc_peak_bytes"] = int(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return out


def main(argv=None) -> dict:
    p = C.make_parser("bench_memory", __doc__)
    p.add_argument("--games", type=int, default=None, help="games in the batch (default 100000, tiny 1000)")
    p.add_argument(
        "--play-actions",
        type=int,
        default=2,
        help="random actions played per game after building the batch (default %(default)s)",
    )
    p.add_argument(
        "--tracemalloc",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also measure the tracemalloc peak, in a second pass (default: yes)",
    )
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    games = args.games or (1000 if args.tiny else 100_000)
    if args.worker:
        print(json.dumps(worker(games, args.play_actions, args.tracemalloc)))
        return {}

    from hotspot.core import STATE_BYTES, STATE_DTYPE

    cmd = [
        sys.executable,
        __file__,
        "--worker",
        "--games",
        str(games),
        "--play-actions",
        str(args.play_actions),
        "--tracemalloc" if args.tracemalloc else "--no-tracemalloc",
    ]
    proc = subprocess.run(cmd, env=C.child_env(), capture_output=True, text=True, cwd=C.REPO_ROOT)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        raise SystemExit(f"memory worker failed with exit code {proc.returncode}")
    w = json.loads(proc.stdout.strip().splitlines()[-1])

    rows = [
        {"what": "one state record (STATE_BYTES)", "bytes": int(STATE_BYTES), "per_game": int(STATE_BYTES)},
        {
            "what": f"batch array of {games:,} games (nbytes)",
            "bytes": w["batch_nbytes"],
            "per_game": w["batch_nbytes"] / games,
        },
        {
            "what": "peak RSS growth (init + play)",
            "bytes": w["peak_rss_delta_bytes"],
            "per_game": w["peak_rss_delta_bytes"] / games,
        },
    ]
    if w["tracemalloc_peak_bytes"] is not None:
        rows.append(
            {
                "what": "tracemalloc peak (init + play)",
                "bytes": w["tracemalloc_peak_bytes"],
                "per_game": w["tracemalloc_peak_bytes"] / games,
            }
        )
    C.print_table(
        f"Memory of the game state (fields: {len(STATE_DTYPE.names)})",
        ["what", "bytes", "MiB", "bytes/game"],
        [[r["what"], r["bytes"], r["bytes"] / 2**20, r["per_game"]] for r in rows],
    )
    print(
        f"\ninit of {games:,} games: {w['init_s']:.2f} s; {args.play_actions} random action(s) each: "
        f"{w['play_s']:.2f} s"
    )
    summary = {
        "state_bytes": int(STATE_BYTES),
        "state_target_bytes": TARGET_STATE_BYTES,
        "state_within_target": int(STATE_BYTES) <= TARGET_STATE_BYTES,
        "games": games,
        "tracemalloc_peak_bytes": w["tracemalloc_peak_bytes"],
        "peak_rss_delta_bytes": w["peak_rss_delta_bytes"],
        "peak_rss_bytes_per_game": w["peak_rss_delta_bytes"] / games,
        "tracemalloc_bytes_per_game": (
            None if w["tracemalloc_peak_bytes"] is None else w["tracemalloc_peak_bytes"] / games
        ),
        "init_s": w["init_s"],
    }
    config = {
        "games": games,
        "play_actions": args.play_actions,
        "scenario": "standard",
        "tracemalloc": args.tracemalloc,
    }
    return C.write_result(args, NAME, config, rows, summary, extra={"worker": w})


if __name__ == "__main__":
    main()
