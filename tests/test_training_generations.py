"""The generations of the search's learned value (``training/train_generations.py``)
end to end at a tiny size: generation 0's self-play games, their positions,
the fit of generation 1 with its held-out Brier scores, the match against
generation 0 on mirrored seeds with its verdict, the Elo chart, shipping the
champion (and refusing to ship when no generation was kept), and a rerun that
skips what is done.  Numpy only: no extra needed."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from hotspot.agents.plan_value import load_plan_value

ROOT = Path(__file__).resolve().parents[1]


def run(*args, ok=True):
    proc = subprocess.run(
        [sys.executable, "-m", "training.train_generations", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert (proc.returncode == 0) == ok, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    return proc.stdout + proc.stderr


def test_every_stage_at_a_tiny_size(tmp_path):
    out = tmp_path / "gens"
    common = ["--out", out, "--tiny", "--scenario", "standard", "--workers", "1"]
    text = run("run", "--generations", "1", *common)
    g0, g1 = out / "g0", out / "g1"
    assert (g0 / "games" / "games.jsonl").exists()
    with np.load(g0 / "positions.npz") as d:
        n = len(d["y"])
        assert n > 0 and d["X"].shape[0] == n and set(np.unique(d["half"])) <= {0, 1}
    fit = json.loads((g1 / "fit.json").read_text())
    assert fit["trained_on_generations"] == [0]
    assert set(fit["brier"]) == {"network", "hand_evaluation", "hand_evaluation_platt", "constant"}
    assert all(0.0 <= b <= 1.0 for b in fit["brier"].values())
    assert load_plan_value(g1 / "value.npz").shape[0] == 2
    match = json.loads((g1 / "match.json").read_text())
    assert match["against"] == 0 and match["technocrat"]["games"] == match["ziegler"]["games"] >= 1
    # kept only when the lower end of the interval is above 0.5: two games cannot say so
    assert match["kept"] is False and match["both"]["ci95"][0] <= 0.5
    assert "not kept" in text
    cal = json.loads((g1 / "calibration.json").read_text())  # generation 1 on games it never saw
    assert cal["positions"] > 0 and set(cal["reliability"]) >= {"network", "hand_evaluation"}
    times = json.loads((g1 / "times.json").read_text())
    assert set(times) >= {"fit", "match", "games", "data", "calibration"} and all(t >= 0 for t in times.values())
    elo = json.loads((out / "elo.json").read_text())
    assert [row["generation"] for row in elo] == [0, 1]
    # the intent prior: the changes the champion's search tried and kept, counted
    run("intents", *common)
    prior = json.loads((out / "intent_prior.json").read_text())
    assert prior["rows"] and all(0 <= r["kept"] <= r["tried"] and 0 <= r["prior"] <= 1 for r in prior["rows"])
    assert (out / "intent_prior.npz").exists()
    # nothing kept: nothing to ship, in one line
    text = run("ship", "--out", out, "--weights", tmp_path / "v.npz", ok=False)
    assert "nothing to ship" in text and not (tmp_path / "v.npz").exists()
    run("ship", "--out", out, "--gen", "1", "--force", "--weights", tmp_path / "forced.npz")  # asked for by name
    assert np.array_equal(load_plan_value(tmp_path / "forced.npz"), load_plan_value(g1 / "value.npz"))
    # a rerun skips the stages that are done
    assert "done" in run("fit", "--gen", "1", *common)
    # a generation its match kept is the champion: ship copies its networks
    match["kept"] = True
    (g1 / "match.json").write_text(json.dumps(match))
    run("ship", "--out", out, "--weights", tmp_path / "v.npz")
    assert np.array_equal(load_plan_value(tmp_path / "v.npz"), load_plan_value(g1 / "value.npz"))


def test_bad_arguments_are_one_line(tmp_path):
    """A stage asked of a generation it cannot run for, or a size below 1,
    is refused in a line (argparse's usage line beside it)."""
    for args in (["fit", "--gen", "0"], ["match", "--gen", "0"], ["match", "--gen", "1"], ["run", "--games", "0"]):
        text = run(*args, "--out", tmp_path / "x", ok=False)
        assert text.strip() and len(text.strip().splitlines()) <= 2, text
