"""``hotspot compare``: the GSPRT on game pairs plays until decided, resumes
its folder, and refuses bad bounds in one line before writing anything."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hotspot.arena.compare import run_compare
from hotspot.arena.errors import ArenaError


@pytest.fixture(scope="module")
def decided(tmp_path_factory):
    out = tmp_path_factory.mktemp("compare") / "scripted-random"
    return out, run_compare("scripted", "random", elo1=200, games=40, step=5, out=out, workers=1, progress=False)


def test_a_far_stronger_agent_is_accepted_as_stronger_at_the_first_looks(decided):
    """scripted wins every game against random in both seats: every pair scores 2, and H1 (200 Elo) is
    accepted within a few looks (each 2-0 pair adds about log(0.76 / 0.5) to the LLR)."""
    _, result = decided
    assert result["sprt"]["decision"] == "H1" and result["sprt"]["llr"] >= result["sprt"]["upper"]
    assert result["pairs"]["pentanomial"][:4] == [0, 0, 0, 0]
    assert result["pairs"]["pairs"] % 5 == 0 and result["pairs"]["pairs"] < 40  # stopped at a look, early
    assert result["pairs"]["games"] == 2 * result["pairs"]["pairs"]
    assert result["seats"]["technocrat"]["score"] == 1.0 and result["seats"]["ziegler"]["score"] == 1.0
    assert "H1 accepted: scripted is stronger than random" in result["text"]


def test_the_folder_keeps_every_game_and_a_rerun_plays_none(decided):
    out, result = decided
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(rows) == result["pairs"]["games"] and all(r["actions"] for r in rows)
    assert json.loads((out / "result.json").read_text())["sprt"]["decision"] == "H1"
    again = run_compare("scripted", "random", elo1=200, games=40, step=5, out=out, workers=1, progress=False)
    assert again["played_now"] == 0 and again["sprt"] == result["sprt"]


def test_the_weaker_agent_is_not_shown_stronger(tmp_path):
    result = run_compare("random", "scripted", elo1=200, games=40, step=5, workers=1, progress=False, out=tmp_path)
    assert result["sprt"]["decision"] == "H0"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"alpha": 1.0}, "alpha must be in (0, 1)"),
        ({"elo0": 5, "elo1": 0}, "elo1 must be above elo0"),
        ({"adjudicate": "resgin"}, "unknown adjudication rule"),
    ],
)
def test_bad_bounds_are_refused_before_any_folder_is_written(tmp_path, kwargs, message):
    out = tmp_path / "x"
    with pytest.raises(ArenaError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run_compare("scripted", "random", out=out, **kwargs)
    assert not out.exists()


def test_the_command_prints_the_verdict_and_refuses_an_agent_against_itself(tmp_path):
    run = [sys.executable, "-m", "hotspot", "compare"]
    ok = subprocess.run(
        run + ["scripted", "random", "--elo1", "200", "--games", "20", "--step", "5", "--workers", "1", "--out",
               str(tmp_path / "c")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert ok.returncode == 0, ok.stderr
    assert "H1 accepted" in ok.stdout and "pairs scoring 0, 1/2, 1, 3/2, 2" in ok.stdout
    bad = subprocess.run(run + ["scripted", "scripted", "--out", str(tmp_path / "d")], capture_output=True, text=True)
    assert bad.returncode != 0 and "two different agents" in bad.stderr and "Traceback" not in bad.stderr
    assert not (tmp_path / "d").exists()


def test_ctrl_c_stops_every_process_quietly_and_keeps_the_folder(tmp_path):
    """Ctrl-C reaches the whole process group (the command and its pool's workers): the command exits 130 with
    one line saying how to resume, and no worker prints a traceback."""
    import os
    import signal
    import time

    out = tmp_path / "c"
    proc = subprocess.Popen(
        [sys.executable, "-m", "hotspot", "compare", "portfolio", "scripted", "--workers", "2", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.time() + 240  # until the workers play (the first game written), then Ctrl-C
    while time.time() < deadline and not ((out / "games.jsonl").exists() and (out / "games.jsonl").stat().st_size):
        time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "interrupted; the finished games are in games.jsonl" in err
