"""Kill and resume: every folder-writing command, killed with SIGKILL at
random moments, resumes to exactly the rows of an uninterrupted run.

    python benchmarks/bench_kill_resume.py --kills 1000     # the long run
    python benchmarks/bench_kill_resume.py --tiny           # smoke sizes

For each command (``hotspot arena``; ``hotspot balance`` with ``--precision``;
``hotspot calibrate``; ``hotspot search-deployment``) an uninterrupted run is played once
into a clean folder.  Then, round after round, the same command is started
on a fresh folder, killed with SIGKILL after a random number of new games
(1 to 30 new rows of its games file, or at a random moment), started again
(with ``--drop-damaged``: a kill may cut the last row short), killed again,
1 to 6 times, and finally run to its end.  At the kill's moment, when the
first writer holds the folder's lock, it is stopped (SIGSTOP) while a second
writer is started against the same folder, which must be refused (the
folder's OS lock, ``hotspot.arena.folder``).  At the end of a round every
games file of the folder must hold exactly the rows of the clean run: the
same keys, the same results and actions, no duplicate line.  The JSON counts the kills survived, the refusals, and every
failure with its round and command; it is written again after every round
(``"complete": false`` until the last), so that a run stopped early still
reports the kills it made.  ``--jobs N`` runs N rounds at once (each its own
folder).

``--backend ray`` is the fault campaign of a Ray run (``hotspot arena``,
``hotspot balance --precision`` and ``hotspot evaluate`` with ``--backend
ray --workers 2``, a local Ray instance): in each round the command is
started 1 to 3 times; while it runs, Ray's worker processes are killed
with SIGKILL at random moments (1 to 6 a run; one playing a task,
``ray::run_task``, when there is one: Ray plays its task again; else an
idle one, ``ray::IDLE``), or, one run in four,
the driver itself is killed (then ``ray stop --force`` clears what it
started); the command is then run to its end and the folder must hold
exactly the rows of an unkilled Ray run.  ``--kills`` counts worker kills.

    python benchmarks/bench_kill_resume.py --backend ray --kills 100
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import _common as C

from hotspot.arena.folder import GAMES_FILE, lock_holder, read_rows

COMMANDS = {
    "arena": [
        "arena",
        "--pairings",
        "random:random",
        "--games",
        "200",
        "--scenario",
        "random",
        "--seed",
        "4",
        "--workers",
        "1",
        "--max-turns",
        "40",
        "--chunk",
        "1",
        "--no-progress",
    ],
    "balance-precision": [
        "balance",
        "--scenarios",
        "open",
        "--technocrat",
        "scripted",
        "--ziegler",
        "scripted",
        "--precision",
        "0.005",
        "--step",
        "50",
        "--games",
        "300",
        "--workers",
        "1",
        "--chunk",
        "1",
        "--no-progress",
        "--no-plot",
    ],
    "calibrate": [
        "calibrate",
        "platform_turns=3..5",
        "--scenario",
        "open",
        "--pair",
        "scripted:scripted",
        "--trials",
        "3",
        "--games",
        "40",
        "--finalists",
        "1",
        "--confirm-games",
        "60",
        "--workers",
        "1",
        "--no-progress",
    ],
    "search-deployment": [
        "search-deployment",
        "ziegler",
        "--opponent",
        "scripted",
        "--agent",
        "scripted",
        "--candidates",
        "4",
        "--finalists",
        "1",
        "--games",
        "10",
        "--final-games",
        "40",
        "--workers",
        "1",
        "--no-progress",
    ],
}
TINY_COMMANDS = ("arena", "balance-precision")

#: the Ray campaign's commands: two Ray workers (a local instance), five games a task
RAY = ["--workers", "2", "--backend", "ray", "--chunk", "5", "--no-progress"]
RAY_COMMANDS = {
    "arena": ["arena", "--pairings", "random:scripted", "--games", "150", "--scenario", "random", "--seed", "4"]
    + ["--max-turns", "40", *RAY],
    "balance-precision": ["balance", "--scenarios", "open", "--technocrat", "scripted", "--ziegler", "scripted"]
    + ["--precision", "0.005", "--step", "50", "--games", "200", "--no-plot", *RAY],
    "evaluate": ["evaluate", "random", "--opponents", "random,scripted", "--games", "60", "--step", "20"]
    + ["--precision", "0.01", "--no-plot", *RAY],
}


def _cli(args, out: Path, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "hotspot.cli", *args, "--out", str(out), *kw.pop("extra", ())],
        env=C.child_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


def _games_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob(GAMES_FILE))


def _rows_written(folder: Path) -> int:
    n = 0
    for path in _games_files(folder):
        try:
            n += path.read_bytes().count(b"\n")
        except OSError:
            pass
    return n


def _contents(folder: Path) -> dict[str, dict]:
    """Every games file's rows by (relative path, key), without the wall time;
    the folder's own path (scenario files of a calibration or a deployment
    search live in it, and their paths are in the rows) is written <folder>,
    so that two folders of the same run compare equal."""
    out = {}
    for path in _games_files(folder):
        rel = str(path.parent.relative_to(folder))
        for key, row in read_rows(path).items():
            text = json.dumps({k: v for k, v in row.items() if k != "wall_s"}, sort_keys=True)
            out[f"{rel}/{key}".replace(str(folder), "<folder>")] = text.replace(str(folder), "<folder>")
    return out


def _duplicates(folder: Path) -> int:
    dup = 0
    for path in _games_files(folder):
        keys = [json.loads(line)["key"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        dup += len(keys) - len(set(keys))
    return dup


def one_round(name: str, args: list[str], expected: dict, out: Path, rng: random.Random, stats: dict) -> None:
    for _ in range(rng.randint(1, 6)):
        proc = _cli(args, out, extra=["--drop-damaged"])
        target = _rows_written(out) + rng.randint(1, 30)
        deadline = time.monotonic() + rng.uniform(0.5, 15.0)
        while proc.poll() is None and _rows_written(out) < target and time.monotonic() < deadline:
            time.sleep(0.01)
        if proc.poll() is None and lock_holder(out) == proc.pid:
            # the kill's moment: the writer stops here, holding the lock, while a
            # second writer tries the folder (its start takes longer than some runs)
            proc.send_signal(signal.SIGSTOP)
            second = subprocess.run(
                [sys.executable, "-m", "hotspot.cli", *args, "--out", str(out)],
                env=C.child_env(),
                capture_output=True,
                text=True,
                timeout=600,
            )
            stats["second_writers"] += 1
            if second.returncode == 2 and "another run is writing" in second.stderr:
                stats["refused"] += 1
            else:
                stats["failures"].append(
                    {
                        "round": stats["rounds"],
                        "command": name,
                        "problem": f"second writer not refused: {second.stderr[-300:]}",
                    }
                )
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            stats["kills"] += 1
        proc.wait()
    _finish_round(name, args, expected, out, stats)


def _finish_round(name: str, args: list[str], expected: dict, out: Path, stats: dict) -> None:
    """Run the command to its end, then check the folder (:func:`_check_round`)."""
    proc = _cli(args, out, extra=["--drop-damaged"])
    if proc.wait(timeout=3600) != 0:
        stats["failures"].append(
            {"round": stats["rounds"], "command": name, "problem": f"the rerun failed: {proc.stderr.read()[-300:]}"}
        )
        return
    _check_round(name, expected, out, stats)


def _check_round(name: str, expected: dict, out: Path, stats: dict) -> None:
    """The folder holds exactly the clean run's rows: none lost, duplicated, foreign or changed."""
    got = _contents(out)
    dup = _duplicates(out)
    foreign = sorted(set(got) - set(expected))
    missing = sorted(set(expected) - set(got))
    changed = sorted(k for k in set(got) & set(expected) if got[k] != expected[k])
    stats["duplicates"] += dup
    stats["foreign"] += len(foreign)
    if dup or foreign or missing or changed:
        stats["failures"].append(
            {
                "round": stats["rounds"],
                "command": name,
                "duplicates": dup,
                "foreign": foreign[:5],
                "missing": missing[:5],
                "changed": changed[:5],
            }
        )


def _ray_workers() -> tuple[list[int], list[int]]:
    """The Ray worker processes of this machine: (playing a task, idle)."""

    def pids(pattern):
        out = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout
        return [int(pid) for pid in out.split()]

    return pids("^ray::run_task"), pids("^ray::IDLE")


def _ray_stop() -> None:
    subprocess.run([sys.executable, "-m", "ray.scripts.scripts", "stop", "--force"], capture_output=True, timeout=120)


def one_ray_round(name: str, args: list[str], expected: dict, out: Path, rng: random.Random, stats: dict) -> None:
    """A round of the Ray campaign (the module's docstring)."""
    for _ in range(rng.randint(1, 3)):
        proc = _cli(args, out, extra=["--drop-damaged"])
        if rng.random() < 0.25:  # the driver killed
            deadline = time.monotonic() + rng.uniform(3.0, 30.0)
            while proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                stats["driver_kills"] += 1
            proc.wait()
            _ray_stop()
            continue
        started = time.monotonic() + 120  # Ray's workers start some seconds after the driver
        while proc.poll() is None and not any(_ray_workers()) and time.monotonic() < started:
            time.sleep(0.05)
        for _ in range(rng.randint(1, 6)):
            deadline = time.monotonic() + rng.uniform(0.1, 3.0)
            while proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            busy, idle = _ray_workers()
            soon = time.monotonic() + 3.0  # a worker playing a task, if one starts soon
            while not busy and proc.poll() is None and time.monotonic() < soon:
                time.sleep(0.02)
                busy, idle = _ray_workers()
            if proc.poll() is not None or not busy + idle:
                break
            try:  # a worker playing a task when there is one (Ray plays the task again), else an idle one
                os.kill(rng.choice(busy or idle), signal.SIGKILL)
                stats["kills"] += 1
                stats["busy_kills"] += bool(busy)
            except ProcessLookupError:  # it had just ended
                pass
        if proc.wait(timeout=3600) != 0:
            stats["runs_stopped"] += 1  # a task that failed past Ray's retries: the rerun resumes
    _finish_round(name, args, expected, out, stats)


def report(args, kills: int, names, per: dict, wall: float, complete: bool, quiet: bool = False) -> None:
    """Write the JSON (again): the counts so far, and whether the run is complete."""
    rows = [
        {"command": name, **{k: v for k, v in p.items() if k != "failures"}, "failures": len(p["failures"])}
        for name, p in per.items()
    ]
    total = {k: sum(r[k] for r in rows) for k in rows[0] if k != "command"}
    summary = dict(
        total,
        complete=complete,
        wall_s=round(wall, 1),
        refused_share=total["refused"] / total["second_writers"] if total.get("second_writers") else None,
        holds=complete and total["failures"] == 0 and total.get("refused") == total.get("second_writers"),
    )
    if not quiet:
        keys = list(rows[0])
        C.print_table(
            f"Kill and resume ({args.backend})",
            [k.replace("_", " ") for k in keys],
            [[r[k] for k in keys] for r in rows],
        )
    commands = RAY_COMMANDS if args.backend == "ray" else COMMANDS
    with contextlib.redirect_stdout(io.StringIO()) if quiet else contextlib.nullcontext():
        C.write_result(
            args,
            "kill_resume" if args.backend == "local" else "kill_resume_ray",
            {
                "kills": kills,
                "seed": args.seed,
                "jobs": args.jobs,
                "backend": args.backend,
                "commands": {n: commands[n] for n in names},
            },
            rows,
            summary,
            extra={"failures": [f for p in per.values() for f in p["failures"]]},
        )


def main() -> None:
    parser = C.make_parser("bench_kill_resume", __doc__)
    parser.add_argument("--kills", type=int, default=1000, help="stop after this many kills (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="rounds played at once (default 1)")
    parser.add_argument("--backend", choices=["local", "ray"], default="local", help="ray: the Ray campaign")
    args = parser.parse_args()
    kills = 4 if args.tiny else args.kills
    if kills < 1 or args.jobs < 1:
        raise SystemExit("--kills and --jobs must be >= 1")
    if args.backend == "ray" and args.jobs != 1:
        raise SystemExit("--backend ray plays one round at a time (--jobs 1): a driver kill stops every local Ray")
    ray_run = args.backend == "ray"
    if ray_run and args.out == C.RESULTS_DIR / "bench_kill_resume.json":
        args.out = C.RESULTS_DIR / "kill_resume_ray.json"
    commands = RAY_COMMANDS if ray_run else COMMANDS
    play_round = one_ray_round if ray_run else one_round
    names = (("arena",) if ray_run else TINY_COMMANDS) if args.tiny else tuple(commands)
    t0 = time.perf_counter()
    counts = (
        ("kills", "busy_kills", "driver_kills", "runs_stopped") if ray_run else ("kills", "second_writers", "refused")
    )
    per = {
        name: {"rounds": 0, **dict.fromkeys(counts, 0), "duplicates": 0, "foreign": 0, "failures": []} for name in names
    }
    lock = threading.Lock()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        expected = {}
        for name in names:
            clean = work / f"{name}-clean"
            proc = _cli(commands[name], clean)
            if proc.wait(timeout=3600) != 0:
                raise SystemExit(f"{name}: the uninterrupted run failed: {proc.stderr.read()[-500:]}")
            expected[name] = _contents(clean)
        counter = iter(range(1 << 62))

        def lane(j: int) -> None:
            rng = random.Random(args.seed * 1000 + j)
            while True:
                with lock:
                    if sum(p["kills"] for p in per.values()) >= kills:
                        return
                    i = next(counter)
                name = names[i % len(names)]
                stats = {k: (0 if k != "failures" else []) for k in per[name]}
                stats["rounds"] = i  # the round's number, in its failures
                play_round(name, commands[name], expected[name], work / f"{name}-{i}", rng, stats)
                shutil.rmtree(work / f"{name}-{i}", ignore_errors=True)  # checked: its space back
                with lock:
                    for k, v in stats.items():
                        if k == "rounds":
                            continue
                        per[name][k] += v
                    per[name]["rounds"] += 1
                    report(args, kills, names, per, time.perf_counter() - t0, complete=False, quiet=True)

        threads = [threading.Thread(target=lane, args=(j,)) for j in range(args.jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    report(args, kills, names, per, time.perf_counter() - t0, complete=True)


if __name__ == "__main__":
    main()
