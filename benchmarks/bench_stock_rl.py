"""Baseline learning curves: stock sb3-contrib MaskablePPO on ``LearnerEnv``
and the project's PPO (``training/train_ppo.py``), each side against
``random`` and ``scripted``: win rate against env steps and wall time.

    python benchmarks/bench_stock_rl.py --minutes 10 --jobs 2   # the 8 curves (about 45 minutes on two cores)
    python benchmarks/bench_stock_rl.py --tiny                  # smoke sizes (the numbers mean nothing)

A run is ``LEARNER:SIDE:OPPONENT`` (``--runs``, default all eight):

``stock``
    ``MaskablePPO("MlpPolicy", ...)`` (sb3-contrib) on 8 ``LearnerEnv``
    (``hotspot.env.LearnerEnv``'s defaults: scripted set-up, fixed slots,
    pruned mask, shaping material 0.5 + progress 1 + central 1) in a
    ``DummyVecEnv``: ``n_steps=256``, ``batch_size=256``, ``n_epochs=10``,
    ``learning_rate=3e-4``, ``gamma=0.99``, ``ent_coef=0.01``, ``net_arch
    [64, 64]``, one torch thread.  Every ``--eval-every`` env steps the
    model (deterministic, its masked argmax) plays ``--eval-games`` games
    against ``random`` and against ``scripted`` on ``LearnerEnv`` with seeds
    10,000,000 + i, the same at every evaluation.
``project``
    ``training/train_ppo.py`` (the per-action policy, CleanRL's form) with
    ``--shaping 0.5 --threads 1``, its own evaluation every 10 updates.

Each run trains for ``--minutes`` of wall time (evaluation not counted for
``stock``; the project's script counts it); the stock models are saved in
``--work`` (``stock-SIDE-OPPONENT.zip``, for ``sb3(path=...)``).  Every curve point is written to
``--out`` (JSON: the machine, the command, each run's rows) and the plot to
``--plot`` (docs/stock_rl.png).
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _common import REPO_ROOT, RESULTS_DIR, command_line, machine_info, make_parser

LEARNERS = ("stock", "project")
SIDES = ("technocrat", "ziegler")
OPPONENTS = ("random", "scripted")
ALL_RUNS = [f"{learner}:{side}:{opp}" for learner in LEARNERS for side in SIDES for opp in OPPONENTS]
EVAL_SEED = 10_000_000


def evaluate(model, side: str, opponent: str, games: int) -> dict:
    """The model's wins, draws and losses in ``games`` games on ``LearnerEnv`` (seeds EVAL_SEED + i)."""
    from hotspot.env import LearnerEnv

    env = LearnerEnv(side=side, opponent=opponent, shaping={})
    wins = draws = 0
    for i in range(games):
        obs, info = env.reset(seed=EVAL_SEED + i)
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, _, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                wins += info["outcome"] > 0
                draws += info["outcome"] == 0
                break
    return {"win": wins / games, "draw": draws / games, "score": (wins + draws / 2) / games}


def run_stock(side: str, opponent: str, minutes: float, eval_every: int, eval_games: int, seed: int, save=None):
    """Train stock MaskablePPO for ``minutes``; the curve's rows."""
    import torch

    torch.set_num_threads(1)
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from hotspot.env import LearnerEnv

    envs = DummyVecEnv([lambda: LearnerEnv(side=side, opponent=opponent) for _ in range(8)])
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=256,
        batch_size=256,
        n_epochs=10,
        learning_rate=3e-4,
        gamma=0.99,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [64, 64]},
        seed=seed,
        device="cpu",
    )
    rows, train_s = [], 0.0

    def point():
        row = {"env_steps": int(model.num_timesteps), "wall_s": round(train_s, 1)}
        for opp in OPPONENTS:
            row.update({f"{opp}_{k}": v for k, v in evaluate(model, side, opp, eval_games).items()})
        rows.append(row)
        print(json.dumps(row), flush=True)

    point()
    while train_s < 60 * minutes:
        t = time.perf_counter()
        model.learn(eval_every, reset_num_timesteps=False)
        train_s += time.perf_counter() - t
        point()
    if save:
        model.save(save)
    return rows


def run_project(side: str, opponent: str, minutes: float, eval_games: int, seed: int, tiny: bool, work: Path):
    """Run training/train_ppo.py for ``minutes``; the curve's rows (its own evaluation)."""
    out = work / f"project-{side}-{opponent}"
    cmd = [sys.executable, str(REPO_ROOT / "training" / "train_ppo.py"), "--out", str(out), "--side", side]
    cmd += ["--opponent", opponent, "--max-minutes", str(minutes), "--shaping", "0.5", "--threads", "1"]
    cmd += ["--seed", str(seed), "--eval-games", str(eval_games), "--total-steps", "100000000"]
    if tiny:
        cmd += ["--tiny"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    rows = []
    with open(out / "curve.csv") as f:
        for r in csv.DictReader(f):
            row = {"env_steps": int(r["env_steps"]), "wall_s": float(r["wall_s"])}
            for opp in OPPONENTS:
                v = r.get(f"{opp}_{side}", "")
                row[f"{opp}_win"] = float(v) if v != "" else None
            rows.append(row)
    return rows


def plot(result: dict, png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharey=True)
    colours = {"stock": "tab:blue", "project": "tab:orange"}
    styles = {"random": "-", "scripted": "--"}
    for r, side in enumerate(SIDES):
        for c, x in enumerate(("env_steps", "wall_s")):
            ax = axes[r, c]
            for run in result["runs"]:
                if run["side"] != side or not run["rows"]:
                    continue
                xs = [row[x] / (60 if x == "wall_s" else 1) for row in run["rows"]]
                key = f"{run['opponent']}_win"
                ys = [row.get(key) for row in run["rows"]]
                label = f"{run['learner']}, trained and evaluated against {run['opponent']}"
                ax.plot(xs, ys, styles[run["opponent"]], color=colours[run["learner"]], label=label, marker=".")
            ax.set_title(f"as {side.capitalize()}")
            ax.set_xlabel(
                "env steps (learner decisions)" if x == "env_steps" else "training minutes (two-core machine)"
            )
            ax.set_ylim(-0.02, 1.02)
            ax.grid(alpha=0.3)
            if c == 0:
                ax.set_ylabel("win rate")
    axes[0, 0].legend(fontsize=8, loc="best")
    fig.suptitle("Stock MaskablePPO (LearnerEnv) and the project's PPO on open: win rate of the learner's seat")
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    p = make_parser("bench_stock_rl", __doc__.split("\n\n")[0])
    p.add_argument("--runs", default=",".join(ALL_RUNS), help="LEARNER:SIDE:OPPONENT,... (default: all eight)")
    p.add_argument("--minutes", type=float, default=10.0, help="training wall time of each run")
    p.add_argument("--eval-every", type=int, default=100_000, help="stock: env steps between evaluations")
    p.add_argument("--eval-games", type=int, default=50, help="games against each opponent an evaluation")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="runs at once (each one process, one torch thread)")
    p.add_argument("--work", type=Path, default=Path("stock-rl-runs"), help="the runs' folders")
    p.add_argument("--plot", type=Path, default=REPO_ROOT / "docs" / "stock_rl.png")
    p.add_argument("--run", help="(internal) one run, its rows written to the work folder")
    args = p.parse_args(argv)
    if args.tiny:
        args.minutes, args.eval_every, args.eval_games = 0.02, 512, 2
        if args.out == RESULTS_DIR / "bench_stock_rl.json":
            args.out = args.work / "bench_stock_rl.json"
        if args.plot == REPO_ROOT / "docs" / "stock_rl.png":
            args.plot = args.work / "stock_rl.png"
    args.work.mkdir(parents=True, exist_ok=True)
    if args.run:
        learner, side, opponent = args.run.split(":")
        if learner == "stock":
            save = args.work / f"stock-{side}-{opponent}.zip"
            rows = run_stock(side, opponent, args.minutes, args.eval_every, args.eval_games, args.seed, save)
        else:
            rows = run_project(side, opponent, args.minutes, args.eval_games, args.seed, args.tiny, args.work)
        (args.work / f"{learner}-{side}-{opponent}.json").write_text(json.dumps(rows))
        return 0
    runs = [r.strip() for r in args.runs.split(",") if r.strip()]
    for r in runs:
        if r not in ALL_RUNS:
            p.error(f"--runs: {r!r} is not LEARNER:SIDE:OPPONENT (choose from {', '.join(ALL_RUNS)})")

    def one(run: str):
        cmd = [sys.executable, __file__, "--run", run, "--minutes", str(args.minutes), "--work", str(args.work)]
        cmd += ["--eval-every", str(args.eval_every), "--eval-games", str(args.eval_games), "--seed", str(args.seed)]
        cmd += ["--tiny"] if args.tiny else []
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        learner, side, opponent = run.split(":")
        rows = json.loads((args.work / f"{learner}-{side}-{opponent}.json").read_text())
        return {"learner": learner, "side": side, "opponent": opponent, "rows": rows}

    t0 = time.time()
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(one, runs))
    result = {
        "benchmark": "bench_stock_rl",
        "command": command_line(),
        "machine": machine_info(),
        "minutes": args.minutes,
        "eval_games": args.eval_games,
        "wall_s": round(time.time() - t0, 1),
        "runs": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1))
    plot(result, args.plot)
    for run in results:
        last = run["rows"][-1] if run["rows"] else {}
        print(
            f"{run['learner']:8s} {run['side']:11s} vs {run['opponent']:9s} steps {last.get('env_steps', 0):>9}  "
            f"win vs random {last.get('random_win')}  vs scripted {last.get('scripted_win')}"
        )
    print(f"wrote {args.out} and {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
