"""One writer a run folder, and nothing lost when a writer is killed.

Every command that writes a run folder (``hotspot arena``, ``hotspot
balance``, ``hotspot calibrate``, ``hotspot search-deployment``) holds the
folder's OS lock (``.lock``, :func:`hotspot.arena.folder.writer_lock`) for
the whole run: a second writer is refused at once with one line naming the
folder and the holder's pid, having changed nothing; the OS releases the lock
when the holder dies, however it dies (SIGKILL included), so a rerun resumes
without cleaning anything by hand; readers never take the lock.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hotspot.arena.folder import LOCK_FILE, FolderLockedError, lock_holder, read_rows, writer_lock
from hotspot.cli import main

ROOT = Path(__file__).resolve().parent.parent
HOLD = (
    "import sys, time\n"
    "from hotspot.arena.folder import writer_lock\n"
    "with writer_lock(sys.argv[1]):\n"
    "    print('held', flush=True)\n"
    "    time.sleep(120)\n"
)


def _env():
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _holder(folder: Path) -> subprocess.Popen:
    """A process that holds ``folder``'s writer lock until it is killed."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], stdout=subprocess.PIPE, text=True, env=_env())
    assert proc.stdout.readline().strip() == "held"
    return proc


def _snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


ARENA = [
    "arena",
    "--pairings",
    "random:random",
    "--games",
    "3",
    "--scenario",
    "random",
    "--seed",
    "4",
    "--workers",
    "1",
    "--max-turns",
    "4",
    "--no-progress",
]
WRITERS = {
    "arena": ARENA,
    "balance": [
        "balance",
        "--scenarios",
        "random:1",
        "--pair",
        "random:random",
        "--games",
        "3",
        "--workers",
        "1",
        "--max-turns",
        "4",
        "--no-progress",
        "--no-plot",
    ],
    "balance --precision": [
        "balance",
        "--scenarios",
        "random:1",
        "--technocrat",
        "random",
        "--ziegler",
        "random",
        "--precision",
        "0.2",
        "--step",
        "2",
        "--games",
        "4",
        "--workers",
        "1",
        "--max-turns",
        "4",
        "--no-progress",
        "--no-plot",
    ],
    "calibrate": [
        "calibrate",
        "platform_turns=3..4",
        "--scenario",
        "open",
        "--pair",
        "random:random",
        "--trials",
        "1",
        "--games",
        "1",
        "--finalists",
        "1",
        "--confirm-games",
        "1",
        "--workers",
        "1",
        "--max-turns",
        "3",
        "--no-progress",
    ],
    "search-deployment": [
        "search-deployment",
        "ziegler",
        "--opponent",
        "random",
        "--agent",
        "random",
        "--candidates",
        "2",
        "--finalists",
        "1",
        "--games",
        "1",
        "--final-games",
        "1",
        "--workers",
        "1",
        "--max-turns",
        "3",
        "--no-progress",
    ],
}


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_second_writer_is_refused_at_once_and_changes_nothing(tmp_path, capsys, command):
    """Rule: while one process writes a run folder, every folder-writing
    command aimed at it is refused with one line naming the folder and the
    holder's pid, and no file of the folder changes."""
    out = tmp_path / "run"
    assert main([*WRITERS[command], "--out", str(out)]) == 0
    capsys.readouterr()
    before = _snapshot(out)
    holder = _holder(out)
    try:
        t0 = time.perf_counter()
        assert main([*WRITERS[command], "--out", str(out)]) == 2
        assert time.perf_counter() - t0 < 30  # at once, not after playing
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and "Traceback" not in err
        assert str(out.resolve()) in err and f"pid {holder.pid}" in err and "another run is writing" in err
        after = _snapshot(out)
        assert {k: v for k, v in after.items() if k != LOCK_FILE} == {k: v for k, v in before.items() if k != LOCK_FILE}
        assert after[LOCK_FILE] == f"{holder.pid}\n".encode()  # the holder's, not rewritten by the refused run
    finally:
        holder.kill()
        holder.wait()


def test_the_lock_dies_with_its_holder(tmp_path):
    """Rule: the lock is the OS's: a holder killed with SIGKILL leaves no stale
    lock, and the next writer takes the folder without any cleaning."""
    holder = _holder(tmp_path)
    with pytest.raises(FolderLockedError, match=f"pid {holder.pid}"):
        with writer_lock(tmp_path):
            pass
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    with writer_lock(tmp_path) as held:
        assert held == tmp_path.resolve()
        assert (tmp_path / LOCK_FILE).read_text() == f"{os.getpid()}\n"


def test_the_lock_is_reentrant_within_a_process(tmp_path):
    """Rule: a command holding its folder may call run_games, which locks the
    same folder: the process does not refuse itself, and the lock is held
    until the outer block ends."""
    with writer_lock(tmp_path):
        with writer_lock(tmp_path / "."):
            pass
        proc = subprocess.run(
            [sys.executable, "-c", HOLD, str(tmp_path)], capture_output=True, text=True, env=_env(), timeout=120
        )
        assert proc.returncode != 0 and "another run is writing" in proc.stderr
    holder = _holder(tmp_path)  # released: another process takes it
    holder.kill()
    holder.wait()


def test_readers_do_not_need_the_lock(tmp_path, capsys):
    """Rule: ``hotspot replay`` reads a folder that a writer holds."""
    out = tmp_path / "run"
    assert main([*ARENA, "--out", str(out)]) == 0
    holder = _holder(out)
    try:
        capsys.readouterr()
        assert main(["replay", str(out / "games.jsonl"), "--game", "0", "--moves"]) == 0
        assert capsys.readouterr().out
    finally:
        holder.kill()
        holder.wait()


def _rows(out: Path) -> int:
    try:
        return (out / "games.jsonl").read_bytes().count(b"\n")
    except OSError:
        return 0


def _run_cli(args, **kw):
    return subprocess.Popen(
        [sys.executable, "-m", "hotspot.cli", *args],
        env=dict(_env(), HOTSPOT_PARQUET_SYNC_ROWS="7"),  # Parquet shards every 7 games: kills land in syncs too
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


KILLED = {  # runs of a few seconds, a row written after every game (--chunk 1)
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
    "balance --precision": [
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
}


@pytest.mark.parametrize("command", sorted(KILLED))
def test_killed_writers_resume_to_the_uninterrupted_rows(tmp_path, command):
    """Rule: a folder-writing command killed with SIGKILL at random moments
    (several times) and rerun (with ``--drop-damaged`` when the kill cut a row
    short) ends with exactly the rows of an uninterrupted run: the same keys,
    the same results, no duplicate, and a concurrent second writer is refused
    every time."""
    args = KILLED[command]
    clean = tmp_path / "clean"
    assert main([*args, "--out", str(clean)]) == 0
    expected = read_rows(clean / "games.jsonl")
    out = tmp_path / "killed"
    rng = random.Random(7)
    kills = refused = 0
    for _ in range(4):
        proc = _run_cli([*args, "--out", str(out), "--drop-damaged"])
        target = _rows(out) + rng.randint(1, 60)  # kill after a random number of new games
        deadline = time.monotonic() + 300
        while proc.poll() is None and _rows(out) < target and time.monotonic() < deadline:
            time.sleep(0.02)
        if proc.poll() is None and lock_holder(out) == proc.pid:
            proc.send_signal(signal.SIGSTOP)  # the kill's moment: stopped, it still holds the lock
            try:
                second = subprocess.run(
                    [sys.executable, "-m", "hotspot.cli", *args, "--out", str(out)],
                    env=_env(),
                    capture_output=True,
                    text=True,
                    timeout=120,
                )
            finally:
                proc.send_signal(signal.SIGKILL)
            kills += 1
            assert second.returncode == 2 and "another run is writing" in second.stderr, second.stderr
            refused += 1
        elif proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
    proc = _run_cli([*args, "--out", str(out), "--drop-damaged"])
    assert proc.wait(timeout=600) == 0, proc.stderr.read()
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines() if x.strip()]
    keys = [row["key"] for row in lines]
    assert len(keys) == len(set(keys)), "a game was written twice"
    rows = read_rows(out / "games.jsonl")
    assert set(rows) == set(expected)
    for key, row in expected.items():
        assert {k: v for k, v in rows[key].items() if k != "wall_s"} == {k: v for k, v in row.items() if k != "wall_s"}
    assert kills > 0 and refused > 0  # the first run at least is killed, holding the lock
    # the Parquet shards (hotspot.arena.table) hold the same games, each once, whole
    table = pytest.importorskip("hotspot.arena.table")
    pytest.importorskip("pyarrow")
    import pandas as pd

    sharded = pd.read_parquet(out / table.SHARDS_DIR)
    assert sharded["key"].is_unique and set(sharded["key"]) == set(expected)
    frame = table.read_games(out)
    assert set(frame["key"]) == set(expected)
    for row in frame.head(20).to_dict("records"):
        assert [int(a) for a in row["actions"]] == expected[row["key"]]["actions"]
        assert (row["winner"] if isinstance(row["winner"], str) else None) == expected[row["key"]]["winner"]
