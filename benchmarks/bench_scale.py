"""A run folder of a million games: play, resume, read, on one core.

    python benchmarks/bench_scale.py                         # 10^6 random games: about 35 minutes
    python benchmarks/bench_scale.py --folder runs/million   # measure a folder already played
    python benchmarks/bench_scale.py --tiny                  # CI smoke run (the numbers mean nothing)

Plays ``--games`` games of ``random:random`` on ``open`` (``hotspot arena
--workers 1``; an agent against itself plays one seat order) into
``--folder`` unless the folder already holds them, then measures each step in a fresh process of its own
(a warm numba cache; the seconds from after the package's import, and
with the process's start; the process's peak resident memory from
``resource.getrusage``): the play itself; ``hotspot arena`` again over the
finished folder (a resume with nothing left to play); ``read_games`` of the
whole folder, with every column and without ``actions``; ``iter_games``
through the whole folder a batch of 65,536 games at a time; and the bytes a
game in games.jsonl and in the Parquet shards; then the runner's memory
against the games it plays: ``hotspot arena`` into fresh folders of
``--memory-sizes`` games (50,000 and 200,000), the slope of the two peaks
in KB a game played.  The issue's targets: the resume <= 10 s,
``read_games`` <= 15 s, the memory flat (the peaks stated).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common as C

from hotspot.arena.table import SHARDS_DIR

#: a step run in a child process: its code prints one JSON line, {"seconds", "peak_mb", ...}
CHILD = """
import json, resource, sys, time
t0 = time.perf_counter()
{body}
seconds = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print("RESULT " + json.dumps(dict(seconds=seconds, peak_mb=peak, **extra)))
"""

STEPS = {
    "play": (
        "from hotspot.cli import main\n"
        "rc = main(['arena', '--pair', 'random:random', '--scenario', 'open', '--games', '{games}', '--workers', '1',"
        " '--out', '{folder}', '--no-progress'])\n"
        "extra = dict(rc=rc)"
    ),
    "resume (nothing left to play)": (
        "import hotspot.arena, hotspot.arena.table\n"  # the package's import is not the resume's
        "t0 = time.perf_counter()\n"
        "from hotspot.cli import main\n"
        "rc = main(['arena', '--pair', 'random:random', '--scenario', 'open', '--games', '{games}', '--workers', '1',"
        " '--out', '{folder}', '--no-progress'])\n"
        "extra = dict(rc=rc)"
    ),
    "read_games, every column": (
        "from hotspot.results import read_games\nt0 = time.perf_counter()\n"
        "frame = read_games('{folder}')\nextra = dict(rows=len(frame))"
    ),
    "read_games, without actions": (
        "from hotspot.results import read_games\nfrom hotspot.arena.gamerow import GAME_ROW_NAMES\n"
        "t0 = time.perf_counter()\n"
        "frame = read_games('{folder}', columns=[n for n in GAME_ROW_NAMES if n != 'actions'])\n"
        "extra = dict(rows=len(frame))"
    ),
    "iter_games, 65,536 a batch": (
        "from hotspot.results import iter_games\nt0 = time.perf_counter()\n"
        "n = sum(len(b) for b in iter_games('{folder}', batch_rows=65536))\nextra = dict(rows=n)"
    ),
}


def run_step(name: str, folder: Path, games: int) -> dict:
    code = CHILD.format(body=STEPS[name].format(folder=folder, games=games))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], env=C.child_env(), capture_output=True, text=True)
    process_s = time.perf_counter() - t0
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"{name}: failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
    return {"what": name, **json.loads(lines[-1][len("RESULT ") :]), "process_seconds": process_s}


def folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main(argv=None) -> int:
    p = C.make_parser("bench_scale", __doc__)
    p.add_argument("--games", type=int, default=1_000_000, help="games (default 10^6)")
    p.add_argument("--folder", type=Path, default=None, help="the run folder (default: a fresh temporary one)")
    p.add_argument(
        "--memory-sizes", type=int, nargs=2, default=[50_000, 200_000],
        help="the two fresh runs whose peaks give the runner's memory a game played (default 50000 200000)",
    )  # fmt: skip
    args = p.parse_args(argv)
    games = 200 if args.tiny else args.games
    work = None
    folder = args.folder
    if folder is None:
        work = Path(tempfile.mkdtemp(prefix="hotspot-bench-scale-"))
        folder = work / "run"
    rows = []
    summary_file = folder / "summary.json"
    if not (summary_file.exists() and json.loads(summary_file.read_text()).get("remaining") == 0):
        rows.append(run_step("play", folder, games))
    for name in list(STEPS)[1:]:
        rows.append(run_step(name, folder, games))
    # the runner's memory against the games it plays: fresh folders of two sizes, the peak's slope
    sizes = [100, 400] if args.tiny else args.memory_sizes
    played = []
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="hotspot-bench-scale-play-") as tmp:
            played.append({**run_step("play", Path(tmp) / "run", n), "what": f"play {n:,} games", "games": n})
    slope_kb = (played[-1]["peak_mb"] - played[0]["peak_mb"]) * 1024 / max(1, sizes[-1] - sizes[0])
    rows += played
    total = games
    jsonl = (folder / "games.jsonl").stat().st_size / total
    shards = folder_bytes(folder / SHARDS_DIR) / total
    C.print_table(
        f"A run folder of {total:,} random games on open (one process a step, one core)",
        ["step", "seconds", "with the process's start", "peak memory"],
        [[r["what"], f"{r['seconds']:.1f}", f"{r['process_seconds']:.1f}", f"{r['peak_mb']:,.0f} MB"] for r in rows]
        + [["bytes a game: games.jsonl / Parquet shards", "", "", f"{jsonl:,.0f} / {shards:,.0f}"]]
        + [["the runner's memory a game played (the plays' slope)", "", "", f"{slope_kb:.2f} KB"]],
    )
    by = {r["what"]: r for r in rows}
    resume_s = by["resume (nothing left to play)"]["seconds"]
    read_s = by["read_games, every column"]["seconds"]
    C.write_result(
        args,
        "bench_scale",
        {"games": total, "pairing": "random:random", "scenario": "open", "workers": 1, "folder": str(folder)},
        rows,
        {
            "resume_seconds": resume_s,
            "resume_within_target": resume_s <= 10,
            "read_games_seconds": read_s,
            "read_games_within_target": read_s <= 15,
            "bytes_a_game_jsonl": jsonl,
            "bytes_a_game_parquet": shards,
            "peak_mb": {r["what"]: r["peak_mb"] for r in rows},
            "runner_kb_a_game_played": slope_kb,
        },
    )
    if work is not None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
