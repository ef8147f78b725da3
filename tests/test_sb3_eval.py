"""ArenaEvalCallback: a model in training rated by the arena's games in its
seat, on the same seeds at every point, logged to SB3's logger
(TensorBoard) and a CSV."""

from __future__ import annotations

import csv

import pytest

pytest.importorskip("sb3_contrib")


def test_the_callback_rates_the_model_on_a_curve(tmp_path):
    """Points at the start, every eval_freq steps and at the end; each a
    score per opponent inside its Wilson interval; the points in SB3's logger
    (here its CSV output; TensorBoard's the same way with tensorboard_log=)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.vec_env import DummyVecEnv

    from hotspot.arena.sb3_eval import ArenaEvalCallback
    from hotspot.env import LearnerEnv

    torch.set_num_threads(1)
    envs = DummyVecEnv([lambda: LearnerEnv(side="ziegler", opponent="random") for _ in range(2)])
    model = MaskablePPO("MlpPolicy", envs, n_steps=64, batch_size=64, seed=1, device="cpu")
    model.set_logger(configure(str(tmp_path / "sb3"), ["csv"]))
    callback = ArenaEvalCallback("ziegler", eval_freq=128, games=2, log=tmp_path / "curve.csv")
    model.learn(256, callback=callback)
    steps = [p["env_steps"] for p in callback.points]
    assert steps[0] == 0 and steps[-1] == model.num_timesteps and len(steps) >= 3
    with open(tmp_path / "curve.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["env_steps"]) for r in rows] == steps
    for r in rows:
        for opp in ("random", "scripted"):
            assert float(r[f"{opp}_low"]) <= float(r[f"{opp}_score"]) <= float(r[f"{opp}_high"])
    with open(tmp_path / "sb3" / "progress.csv", newline="") as f:
        logged = [r for r in csv.DictReader(f) if r.get("eval/scripted_score")]
    assert len(logged) == len(steps)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"seat": "both"}, "seat must be technocrat or ziegler"), ({"seat": "ziegler", "games": 0}, "games must be")],
)
def test_bad_arguments_are_one_line(kwargs, message):
    from hotspot.arena.sb3_eval import ArenaEvalCallback

    with pytest.raises(ValueError, match=message):
        ArenaEvalCallback(**kwargs)
