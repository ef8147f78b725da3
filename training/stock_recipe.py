"""The stock recipe of docs/evaluate.md as researchers run it: both seats,
several seeds, a curve to watch, and the result as an interquartile mean.

    python training/stock_recipe.py --seeds 1,2,3,4,5 --steps 600000 --jobs 2   # hours on two cores
    python training/stock_recipe.py --tiny                                      # a smoke-test size

Each run is one seat and one seed: sb3-contrib's ``MaskablePPO("MlpPolicy")``
on 8 ``LearnerEnv`` against ``--opponent`` (default ``random``), exactly as
the page's recipe, with :class:`hotspot.arena.sb3_eval.ArenaEvalCallback`
rating the model every ``--steps``/10 env steps by ``--eval-games`` arena
games against ``random`` and ``scripted`` in its seat (the same seeds at
every point).  The runs go on ``--jobs`` processes at once (one torch thread
each); each writes ``OUT/SEAT-seedN/``: ``curve.csv``, ``model.zip`` and,
where tensorboard is installed, ``tb/`` (``tensorboard --logdir OUT``).  The same command again resumes: a run whose
``model.zip`` is saved and whose curve reached ``--steps`` is read back, not
trained again (a run stopped part-way starts over).

The result (``OUT/results.json`` and a table): for each seat and opponent,
the final score of every seed and their interquartile mean (the mean of the
middle half, robust to one bad seed: Agarwal et al. 2021, rliable) with a
95% bootstrap interval over the seeds (``scipy.stats.bootstrap``, BCa, or
the percentile interval where BCa is undefined because nearly every
resample gives one value; with few seeds it is wide, and says so).  With matplotlib, ``OUT/curves.png`` draws
every seed's curve and their interquartile mean.  Extra: ``pip install
".[train,arena]"``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

SEATS = ("technocrat", "ziegler")
OPPONENTS = ("random", "scripted")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", default="1,2,3,4,5", help="comma-separated seeds (default 1..5)")
    p.add_argument("--seats", default="technocrat,ziegler")
    p.add_argument("--steps", type=int, default=600_000, help="env steps a run (default 600,000)")
    p.add_argument("--opponent", default="random", help="the training opponent (default random)")
    p.add_argument("--eval-games", type=int, default=40, help="arena games an opponent a point (default 40)")
    p.add_argument("--jobs", type=int, default=2, help="runs at once (default 2)")
    p.add_argument("--out", default="runs/stock-recipe")
    p.add_argument("--tiny", action="store_true", help="a smoke-test size")
    args = p.parse_args(argv)
    try:
        args.seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    except ValueError:
        p.error(f"--seeds must be integers separated by commas, got {args.seeds!r}")
    args.seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    bad = [s for s in args.seats if s not in SEATS]
    if bad or not args.seats or not args.seeds:
        p.error(f"--seats must name technocrat and/or ziegler, got {bad or 'none'}; --seeds at least one")
    for name in ("steps", "eval_games", "jobs"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be a positive integer")
    args.eval_every, args.max_turns = max(1, args.steps // 10), 200
    if args.tiny:  # two points a run (the start and the end), short games
        args.steps, args.eval_games, args.seeds, args.eval_every, args.max_turns = 256, 2, args.seeds[:2], 256, 20
    return args


def finished_point(run: Path, steps: int) -> dict | None:
    """The last point of a run already trained to ``steps`` (its model saved
    and its curve at ``steps`` or beyond), else None."""
    curve = run / "curve.csv"
    if not ((run / "model.zip").exists() and curve.exists()):
        return None
    with open(curve, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or int(rows[-1]["env_steps"]) < steps:
        return None
    return {k: float(v) if k != "env_steps" else int(v) for k, v in rows[-1].items()}


def train(job) -> dict:
    """One seat and seed: train, rate on a curve, save; its last point (read
    back where the run was done before)."""
    seat, seed, steps, opponent, eval_games, eval_every, max_turns, out = job
    done = finished_point(Path(out) / f"{seat}-seed{seed}", steps)
    if done is not None:
        return {"seat": seat, "seed": seed, **done}
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from hotspot.arena.sb3_eval import ArenaEvalCallback
    from hotspot.env import LearnerEnv

    torch.set_num_threads(1)
    run = Path(out) / f"{seat}-seed{seed}"
    run.mkdir(parents=True, exist_ok=True)
    try:
        import tensorboard  # noqa: F401

        tb = str(run / "tb")
    except ImportError:
        tb = None
    envs = DummyVecEnv([lambda: LearnerEnv(side=seat, opponent=opponent) for _ in range(8)])
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=256,
        batch_size=256,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [64, 64]},
        seed=seed,
        device="cpu",
        tensorboard_log=tb,
    )
    (run / "curve.csv").unlink(missing_ok=True)
    callback = ArenaEvalCallback(seat, OPPONENTS, eval_every, eval_games, max_turns=max_turns, log=run / "curve.csv")
    model.learn(steps, callback=callback)
    model.save(run / "model.zip")
    return {"seat": seat, "seed": seed, **callback.points[-1]}


def iqm(values) -> tuple[float, float, float]:
    """The interquartile mean of ``values`` and its 95% bootstrap interval."""
    from scipy import stats

    x = np.asarray(values, dtype=float)
    mean = float(stats.trim_mean(x, 0.25))
    if len(x) < 2 or np.all(x == x[0]):
        return mean, mean, mean
    low, high = np.nan, np.nan
    for method in ("BCa", "percentile"):  # BCa is undefined where nearly every resample gives one value
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", stats.DegenerateDataWarning)
            res = stats.bootstrap(
                (x,),
                lambda v, axis: stats.trim_mean(v, 0.25, axis=axis),
                n_resamples=2000,
                random_state=0,
                method=method,
            )
        low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
        if np.isfinite(low) and np.isfinite(high):
            break
    return mean, low, high


def plot_curves(out: Path, seats, seeds) -> Path | None:
    """``out/curves.png``: each seat's score against each opponent over the
    env steps, a thin line a seed and the seeds' interquartile mean thick;
    None without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    from scipy import stats

    fig, axes = plt.subplots(1, len(seats), figsize=(6 * len(seats), 4), squeeze=False)
    for ax, seat in zip(axes[0], seats):
        for opp, colour in zip(OPPONENTS, ("tab:blue", "tab:red")):
            curves = []
            for seed in seeds:
                with open(out / f"{seat}-seed{seed}" / "curve.csv", newline="") as f:
                    rows = list(csv.DictReader(f))
                x = [int(r["env_steps"]) for r in rows]
                y = [float(r[f"{opp}_score"]) for r in rows]
                ax.plot(x, y, color=colour, alpha=0.3, linewidth=1)
                curves.append((x, y))
            n = min(len(y) for _, y in curves)
            iqm_line = [float(stats.trim_mean([y[i] for _, y in curves], 0.25)) for i in range(n)]
            ax.plot(curves[0][0][:n], iqm_line, color=colour, linewidth=2.5, label=f"against {opp} (IQM)")
        ax.set_title(f"{seat}: {len(seeds)} seeds")
        ax.set_xlabel("env steps")
        ax.set_ylabel("score in its seat (a draw half)")
        ax.set_ylim(-0.02, 1.02)
        ax.legend(loc="lower right")
    fig.tight_layout()
    path = out / "curves.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv=None) -> int:
    args = parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    jobs = [
        (seat, seed, args.steps, args.opponent, args.eval_games, args.eval_every, args.max_turns, str(out))
        for seat in args.seats
        for seed in args.seeds
    ]
    with ProcessPoolExecutor(min(args.jobs, len(jobs))) as pool:
        finals = list(pool.map(train, jobs))
    table = []
    for seat in args.seats:
        for opp in OPPONENTS:
            scores = [f[f"{opp}_score"] for f in finals if f["seat"] == seat]
            mean, low, high = iqm(scores)
            table.append(
                {
                    "seat": seat,
                    "opponent": opp,
                    "seeds": len(scores),
                    "scores": scores,
                    "iqm": mean,
                    "low": low,
                    "high": high,
                }
            )
    (out / "results.json").write_text(
        json.dumps({"args": vars(args) | {"seeds": args.seeds}, "finals": finals, "iqm": table}, indent=1) + "\n"
    )
    with open(out / "results.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["seat", "opponent", "seeds", "iqm", "low", "high"])
        writer.writeheader()
        writer.writerows({k: r[k] for k in writer.fieldnames} for r in table)
    print(f"{'seat':<11} {'opponent':<9} {'seeds':>5}  IQM of the final scores [95% bootstrap]")
    for r in table:
        print(f"{r['seat']:<11} {r['opponent']:<9} {r['seeds']:>5}  {r['iqm']:.3f} [{r['low']:.3f}, {r['high']:.3f}]")
    png = plot_curves(out, args.seats, args.seeds)
    print(f"curves{f' ({png.name})' if png else ''}, models and results in {out}/", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
