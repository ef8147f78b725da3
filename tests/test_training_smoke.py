"""The training recipes of the per-action policy end to end at tiny sizes: each stage of
``training/train_policy.py`` (the expert's games, labelled decisions, the
torch fit, the compiled evaluation, shipping to a chosen file) and
``training/train_ppo.py`` (PPO with masks on HotspotVectorEnv).  Torch is the
``train`` extra: without it the torch stages are skipped (CI installs it)."""

import csv
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hotspot.agents.action_policy import ActionPolicyAgent, PolicyNet

ROOT = Path(__file__).resolve().parents[1]


def run(script, *args):
    proc = subprocess.run(
        [sys.executable, str(ROOT / "training" / script), *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    return proc.stdout


def test_train_policy_stages(tmp_path):
    """games -> data -> fit -> dagger -> eval -> ship: the decisions are the
    expert's, the fit reports held-out figures, DAgger adds labelled
    positions and a generation, the shipped file is a loadable policy."""
    pytest.importorskip("torch")
    out = tmp_path / "run"
    common = ["--out", out, "--tiny", "--expert", "scripted", "--scenario", "standard", "--workers", "1"]
    run("train_policy.py", "games", *common)
    assert (out / "games" / "games.jsonl").exists()
    text = run("train_policy.py", "data", *common)
    with np.load(out / "data.npz") as d:
        nd = len(d["TARGET"])
        assert nd > 0 and d["START"][-1] == len(d["XA"])
        lengths = np.diff(d["START"])
        assert np.all(lengths >= 2) and np.all((d["TARGET"] >= 0) & (d["TARGET"] < lengths))
    assert f"{nd} decisions" in text
    # --games-from: another folder's games (here the same games, in a new run) give the same labels
    other = tmp_path / "other"
    text = run("train_policy.py", "data", "--out", other, "--games-from", out / "games", *common[2:])
    with np.load(other / "data.npz") as d:
        assert len(d["TARGET"]) == nd
    run("train_policy.py", "fit", *common)
    fit = json.loads((out / "fit.json").read_text())
    last = fit["epochs"][-1]
    assert 0 <= last["top1"] <= 1 and last["cross_entropy"] > 0 and last["uniform_cross_entropy"] > 0
    run("train_policy.py", "dagger", *common)  # the policy's own positions, labelled by the expert
    with np.load(out / "dagger_1.npz") as d:
        assert len(d["TARGET"]) > 0 and np.all(d["TARGET"] >= 0)
    assert PolicyNet.load(out / "policy.npz").generation == 2
    run("train_policy.py", "eval", *common)
    ev = json.loads((out / "eval.json").read_text())
    assert ev["technocrat"]["games"] == ev["ziegler"]["games"] == 4
    run("train_policy.py", "ship", *common, "--weights", tmp_path / "shipped.npz")
    agent = ActionPolicyAgent(seed=1, weights=tmp_path / "shipped.npz")
    assert agent.nets[0].generation == agent.nets[1].generation == 2 and agent.nets[1].teacher == "scripted"


def test_train_ppo_tiny(tmp_path):
    """PPO runs, logs a curve row per evaluation and writes a policy the agent plays."""
    pytest.importorskip("torch")
    out = tmp_path / "ppo"
    run("train_ppo.py", "--tiny", "--scenario", "standard", "--out", out)
    with open(out / "curve.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) >= 1 and int(rows[-1]["env_steps"]) > 0
    for key in ("random_technocrat", "random_ziegler", "scripted_technocrat", "scripted_ziegler"):
        assert 0.0 <= float(rows[-1][key]) <= 1.0
    assert isinstance(PolicyNet.load(out / "policy.npz"), PolicyNet)


def test_train_planes_stages(tmp_path):
    """data -> fit -> eval of the planes network: the decisions are the
    expert's (each legal where it was taken), the exported numpy network is
    torch's (the script refuses a gap), the agent enters ``hotspot compare``
    by name."""
    pytest.importorskip("torch")
    from hotspot.core.actions import NUM_ACTIONS

    out = tmp_path / "planes"
    games = ROOT / "benchmarks" / "results" / "compare" / "h2-scripted.games.jsonl.gz"
    text = run("train_planes.py", "data", "--out", out, "--tiny", "--games-from", games)
    with np.load(out / "data.npz") as d:
        masks = np.unpackbits(d["masks"], axis=1, count=NUM_ACTIONS).astype(bool)
        assert len(d["actions"]) > 100 and masks[np.arange(len(masks)), d["actions"]].all()
        assert (masks.sum(1) >= 2).all() and set(np.unique(d["outcomes"])) <= {-1.0, 0.0, 1.0}
    assert f"{len(masks)} decisions" in text
    run("train_planes.py", "fit", "--out", out, "--tiny", "--channels", "8", "--blocks", "1")
    fit = json.loads((out / "fit.json").read_text())
    assert 0 <= fit["held_out_top1"] <= 1 and fit["held_out_cross_entropy"] > 0
    # DAgger (Ross et al. 2011): the network's own positions, each label legal where it was asked
    run("train_planes.py", "dagger", "--out", out, "--tiny", "--expert", "scripted", "--workers", "1")
    with np.load(out / "dagger_1.npz") as d:
        masks = np.unpackbits(d["masks"], axis=1, count=NUM_ACTIONS).astype(bool)
        assert len(d["actions"]) > 0 and masks[np.arange(len(masks)), d["actions"]].all()
    first = fit["decisions_an_epoch"]
    run(
        "train_planes.py",
        "fit",
        "--out",
        out,
        "--tiny",
        "--channels",
        "8",
        "--blocks",
        "1",
        "--init",
        "--dagger-repeat",
        "3",
    )
    fit = json.loads((out / "fit.json").read_text())
    assert fit["init"] and fit["dagger_decisions"] == len(masks)
    assert fit["decisions_an_epoch"] == first + 3 * len(masks)  # each DAgger decision counted 3 times an epoch
    text = run("train_planes.py", "eval", "--out", out, "--tiny", "--workers", "1")
    assert "pairs" in text
    # generations: the first candidate is generation 0; a later one is kept only if the GSPRT accepts H1
    run("train_planes.py", "keep", "--out", out, "--tiny", "--workers", "1")
    text = run("train_planes.py", "keep", "--out", out, "--tiny", "--workers", "1")
    log = json.loads((out / "generations" / "generations.json").read_text())
    assert [e["candidate"] for e in log] == [0, 1] and log[0]["kept"] and log[0]["generation"] == 0
    assert log[1]["against"] == "candidate_0.npz" and 0 < log[1]["pairs"] <= 4
    assert log[1]["kept"] == log[1]["verdict"].startswith("H1") and "candidate 1" in text
    # a shadowing expert (one a game, asked at every decision of the network's seat): its labels are legal there
    run(
        "train_planes.py",
        "dagger",
        "--out",
        out,
        "--tiny",
        "--expert",
        "scripted",
        "--workers",
        "1",
        "--labels",
        "shadow",
    )
    with np.load(out / "dagger_2.npz") as d:
        masks = np.unpackbits(d["masks"], axis=1, count=NUM_ACTIONS).astype(bool)
        assert len(d["actions"]) > 0 and masks[np.arange(len(masks)), d["actions"]].all()


def test_train_planes_init_is_export_inverse():
    """``fit --init`` loads an exported network into torch unchanged: export(load(net)) == net."""
    pytest.importorskip("torch")
    sys.path.insert(0, str(ROOT / "training"))
    try:
        import train_planes
    finally:
        sys.path.remove(str(ROOT / "training"))
    from hotspot.agents.planes_net import PlanesNet

    net = PlanesNet.init(channels=8, blocks=2, seed=3)
    torch_net = train_planes.torch_net(8, 2)
    torch_net.load(net)
    back = torch_net.export()
    for k, v in net.arrays.items():
        np.testing.assert_allclose(back.arrays[k], v, rtol=0, atol=1e-7, err_msg=k)


def test_stock_recipe_seeds_and_interquartile_mean(tmp_path):
    """training/stock_recipe.py: both seats, two seeds, a curve per run from
    the arena's games (ArenaEvalCallback), and each seat's final score
    against random and scripted as an IQM inside its bootstrap interval."""
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("scipy")
    out = tmp_path / "recipe"
    text = run("stock_recipe.py", "--tiny", "--out", out, "--jobs", "2")
    result = json.loads((out / "results.json").read_text())
    assert [(r["seat"], r["opponent"]) for r in result["iqm"]] == [
        (s, o) for s in ("technocrat", "ziegler") for o in ("random", "scripted")
    ]
    for r in result["iqm"]:
        assert r["seeds"] == 2 and r["low"] <= r["iqm"] <= r["high"] and 0 <= r["iqm"] <= 1
    for seat in ("technocrat", "ziegler"):
        for seed in (1, 2):
            with open(out / f"{seat}-seed{seed}" / "curve.csv", newline="") as f:
                assert int(list(csv.DictReader(f))[0]["env_steps"]) == 0
            assert (out / f"{seat}-seed{seed}" / "model.zip").exists()
    assert "IQM" in text
    if importlib.util.find_spec("matplotlib") is not None:  # the curves: every seed and their IQM
        assert (out / "curves.png").stat().st_size > 0
    # the same command again resumes: every run is read back from its folder, none trained again
    stamps = {p: p.stat().st_mtime_ns for p in out.glob("*/model.zip")}
    run("stock_recipe.py", "--tiny", "--out", out, "--jobs", "2")
    assert {p: p.stat().st_mtime_ns for p in out.glob("*/model.zip")} == stamps
    assert json.loads((out / "results.json").read_text())["iqm"] == result["iqm"]
