"""Core throughput: random legal play over a batch of games.

Measures atomic actions per second of ``hotspot.core.rollout.play_random_batch``
(one compiled call, ``prange`` over the games) on batches of 1, 64, 1024 and
8192 fresh standard games, on one numba thread, on two, and on all of them.
The random player computes the full legal-action mask before every action,
so the figure includes the masks.  Also reported: complete games per second
and the mean atomic actions per complete game.

Method: the starting states are built once per batch size with
``hotspot.core.init("standard", seeds=range(n))`` and copied for each call
(only play is timed); every call plays each game to its end with new player
seeds.  A warm-up call compiles (or loads from numba's cache) first; each
figure is the median of ``--repeats`` samples of at least ``--min-time``
seconds.

    python benchmarks/bench_core.py            # full: about a minute or two
    python benchmarks/bench_core.py --tiny     # CI smoke run: seconds
"""

from __future__ import annotations

import _common as C

NAME = "core"
BATCHES = (1, 64, 1024, 8192)
TINY_BATCHES = (1, 16)
REFERENCE_BATCH = 1024


def main(argv=None) -> dict:
    p = C.make_parser("bench_core", __doc__)
    p.add_argument(
        "--batches",
        type=int,
        nargs="+",
        default=None,
        help=f"batch sizes (default {' '.join(map(str, BATCHES))}; tiny {' '.join(map(str, TINY_BATCHES))})",
    )
    p.add_argument("--threads", type=int, nargs="+", default=None, help="numba thread counts (default: 1, 2 and all)")
    p.add_argument(
        "--max-actions",
        type=int,
        default=10**6,
        help="cap on the atomic actions of one game (default: play to the end)",
    )
    args = p.parse_args(argv)
    repeats, min_time = C.timing_args(args)
    batches = args.batches or list(TINY_BATCHES if args.tiny else BATCHES)
    threads = args.threads or C.thread_counts()
    reference = REFERENCE_BATCH if REFERENCE_BATCH in batches else max(batches)

    rows = []
    for batch in batches:
        for t in threads:
            r = C.measure_core(batch, t, repeats, min_time, args.max_actions)
            rows.append(r)
            print(f"  batch {batch:>5}  threads {t:>2}: {C.fmt(r['actions_per_s'])} actions/s", flush=True)

    C.print_table(
        f"Core random play (play_random_batch), median of {repeats} x >= {min_time:g} s",
        ["batch", "threads", "actions/s", "games/s", "actions/game", "us/action/thread"],
        [
            [
                r["batch"],
                r["threads"],
                r["actions_per_s"],
                r["games_per_s"],
                r["actions_per_game"],
                1e6 * r["threads"] / r["actions_per_s"] if r["actions_per_s"] else None,
            ]
            for r in rows
        ],
    )

    def rate(batch, t):
        for r in rows:
            if r["batch"] == batch and r["threads"] == t:
                return r["actions_per_s"]
        return None

    top = max(threads)
    summary = {
        "reference_batch": reference,
        "threads_all": top,
        "ref_actions_per_s_1_thread": rate(reference, 1),
        "ref_actions_per_s_2_threads": rate(reference, 2),
        "ref_actions_per_s_all_threads": rate(reference, top),
        "scaling_2_vs_1": C.ratio(rate(reference, 2), rate(reference, 1)),
        "scaling_all_vs_1": C.ratio(rate(reference, top), rate(reference, 1)),
        "actions_per_game": next(
            (r["actions_per_game"] for r in rows if r["batch"] == reference and r["threads"] == 1), None
        ),
    }
    print(
        f"\nbatch {reference}: all {top} threads / 1 thread = {C.fmt(summary['scaling_all_vs_1'])}x"
        + (f"; 2 / 1 = {C.fmt(summary['scaling_2_vs_1'])}x" if summary["scaling_2_vs_1"] else "")
    )
    config = {
        "batches": batches,
        "threads": threads,
        "repeats": repeats,
        "min_time_s": min_time,
        "max_actions": args.max_actions,
        "scenario": "standard",
        "function": "hotspot.core.rollout.play_random_batch",
    }
    return C.write_result(args, NAME, config, rows, summary)


if __name__ == "__main__":
    main()
