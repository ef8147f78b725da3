"""What ``hotspot evaluate`` costs at the protocol's defaults, and what the pairs save.

    python benchmarks/bench_evaluate.py scripted          # the protocol's defaults: some 15 minutes on two cores
    python benchmarks/bench_evaluate.py --tiny            # CI smoke run (the numbers mean nothing)

Runs :func:`hotspot.arena.evaluate.run_evaluate` on AGENT (default
``scripted``) by the protocol (``open``, seed 0, turn limit 200, every
opponent of the reference ladder until the pairs' 95% interval is within
+-0.05, in steps of 50 pairs) in a fresh folder, from a warm numba cache
(a warm-up game first), on ``--workers`` processes, and reports: the wall
time, the games and pairs played against each opponent, the games the
Wilson interval would have needed for the same half-width (``Wilson n``,
the pairs' saving) and the overall rating against the published one. The
targets: at most 10 minutes, and for ``scripted`` an overall rating within
40 of its published 1000.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import _common as C

from hotspot.arena.evaluate import run_evaluate
from hotspot.arena.match import warm_up
from hotspot.arena.rating import load_reference

TARGET_MINUTES = 10.0
#: a reference agent's overall rating on the card lies within this of its published one (the target)
TARGET_RATING_DISTANCE = 40.0


def _num(x, spec: str) -> str:
    return "-" if x is None or x != x else format(x, spec)


def main(argv=None) -> int:
    p = C.make_parser("bench_evaluate", __doc__)
    p.add_argument("agent", nargs="?", default="scripted", help="the agent evaluated (default scripted)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--folder", default=None, help="the run folder (default: a new temporary one)")
    p.add_argument(
        "--minutes", type=float, default=None, help="a time budget: the card of what was played, said to be partial"
    )
    args = p.parse_args(argv)
    extra = {"opponents": ["random"], "games": 4, "step": 2} if args.tiny else {}
    folder = Path(args.folder or tempfile.mkdtemp(prefix="bench-evaluate-"))
    warm_up(compiled=True, python=True, workers=args.workers)
    t0 = time.perf_counter()
    card = run_evaluate(
        args.agent, out=folder, workers=args.workers, progress=False, plot=False, minutes=args.minutes, **extra
    )
    wall = time.perf_counter() - t0
    rows = []
    for e in card["opponents"]:
        rows.append(
            {
                "opponent": e["opponent"],
                "pairs": e["pairs"],
                "games": e["games"],
                "score": e["score"],
                "ci_low": e["ci_low"],
                "ci_high": e["ci_high"],
                "wilson_games": e.get("wilson_games"),
                "games_ratio": e.get("games_ratio"),
                "mean_wall_s": e["mean_wall_s"],
                "stopped": e["stopped"],
            }
        )
    overall = (card.get("ratings") or {}).get("overall") or {}
    C.print_table(
        f"hotspot evaluate {args.agent}: {wall / 60:.1f} minutes on {args.workers} workers, {card['games']} games",
        ["opponent", "pairs", "games", "score", "95% CI (pairs)", "Wilson n", "ratio", "s a game", "stopped"],
        [
            [
                r["opponent"],
                r["pairs"],
                r["games"],
                f"{r['score']:.3f}",
                f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]",
                _num(r["wilson_games"], ".0f"),
                _num(r["games_ratio"], ".2f"),
                f"{r['mean_wall_s']:.2f}",
                r["stopped"],
            ]
            for r in rows
        ],
    )
    published = load_reference()["agents"].get(card["agent"], {}).get("overall", {}).get("fitted")
    rating = overall.get("rating")
    distance = None if published is None or rating is None else rating - published
    print(
        f"overall rating {overall.get('text')}"
        + ("" if distance is None else f", {distance:+.0f} from its published {published:g}")
        + f"; target: <= {TARGET_MINUTES:g} minutes"
        + ("" if published is None else f", within {TARGET_RATING_DISTANCE:g} of the published rating")
    )
    C.write_result(
        args,
        "bench_evaluate",
        {"agent": args.agent, "workers": args.workers, "folder": str(folder), "minutes": args.minutes, **extra},
        rows,
        {
            "wall_minutes": wall / 60,
            "games": card["games"],
            "rating": rating,
            "rating_text": overall.get("text"),
            "published_rating": published,
            "rating_distance": distance,
            "rating_within_target": None if distance is None else abs(distance) <= TARGET_RATING_DISTANCE,
            "target_minutes": TARGET_MINUTES,
            "partial": bool(card.get("partial")),
            "partial_reason": card.get("partial_reason"),
            "within_target": wall / 60 <= TARGET_MINUTES and not card.get("partial"),
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
