"""Games as data at size: a run folder's Parquet shards, read_games and
Minari datasets, on two cores.

    python benchmarks/bench_dataset.py          # 1,000 scripted games a seat: a few minutes
    python benchmarks/bench_dataset.py --tiny   # CI smoke run (the numbers mean nothing)

Plays ``--games`` games between the compiled scripted players on ``open``
(``hotspot arena --pairings scripted:scripted``, two workers) into a fresh
run folder, then measures, from a warm cache: the folder's bytes a game in
``games.jsonl`` and in its Parquet shards; ``hotspot.results.read_games`` of
the folder; ``hotspot dataset`` of each seat (the Minari dataset's build
time, steps, bytes a step).  The issue's target: a dataset of 1,000
scripted games a seat in <= 5 minutes on two cores.
"""

from __future__ import annotations

import os
import tempfile
import time
import warnings
from pathlib import Path

import _common as C

from hotspot.arena.dataset import make_dataset
from hotspot.arena.runner import run_games
from hotspot.arena.table import SHARDS_DIR, read_games
from hotspot.arena.tournament import plan_arena


def folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main(argv=None) -> int:
    p = C.make_parser("bench_dataset", __doc__)
    p.add_argument("--games", type=int, default=1000, help="scripted games (default 1000)")
    args = p.parse_args(argv)
    games = 6 if args.tiny else args.games
    work = Path(tempfile.mkdtemp(prefix="hotspot-bench-dataset-"))
    os.environ["MINARI_DATASETS_PATH"] = str(work / "minari")
    out = work / "run"
    t0 = time.perf_counter()
    run_games(plan_arena([("scripted", "scripted")], games, scenario="open", seed=0), out, workers=2, progress=False)
    play_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    frame = read_games(out)
    read_s = time.perf_counter() - t0
    rows = [
        {"what": "games.jsonl", "seconds": None, "bytes_a_game": (out / "games.jsonl").stat().st_size / games},
        {"what": "Parquet shards", "seconds": None, "bytes_a_game": folder_bytes(out / SHARDS_DIR) / games},
        {"what": "read_games(folder)", "seconds": read_s, "rows": len(frame)},
    ]
    for seat in ("technocrat", "ziegler"):
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            data = make_dataset(out, seat, f"hotspot/bench-{seat}-v0")
        seconds = time.perf_counter() - t0
        size = folder_bytes(work / "minari" / "hotspot" / f"bench-{seat}-v0")
        rows.append(
            {
                "what": f"hotspot dataset --seat {seat}",
                "seconds": seconds,
                "episodes": data.total_episodes,
                "steps": data.total_steps,
                "bytes_a_step": size / max(data.total_steps, 1),
            }
        )
    C.print_table(
        f"Games as data: {games} scripted games on open ({play_s:.0f} s to play on two workers)",
        ["what", "seconds", "games / steps", "bytes"],
        [
            [
                r["what"],
                "" if r.get("seconds") is None else f"{r['seconds']:.1f}",
                r.get("steps", r.get("rows", "")),
                f"{r.get('bytes_a_game', r.get('bytes_a_step', 0)):,.0f}"
                + (" a game" if "bytes_a_game" in r else " a step" if "bytes_a_step" in r else ""),
            ]
            for r in rows
        ],
    )
    slowest = max(r["seconds"] for r in rows[3:])
    C.write_result(
        args,
        "bench_dataset",
        {"games": games, "scenario": "open", "pairing": "scripted:scripted", "observation": "compact"},
        rows,
        {"dataset_seconds_a_seat": slowest, "within_target": slowest <= 300, "read_games_seconds": read_s},
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
