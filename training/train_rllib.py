"""Multi-agent PPO on Ray RLlib: a Technocrat and a Ziegler policy trained
against each other on the PettingZoo game, the action mask honoured.

    python training/train_rllib.py --iterations 200 --env-runners 2 --out runs/rllib-ppo
    python training/train_rllib.py --address auto ...        # on a running Ray cluster
    python training/train_rllib.py --tiny                     # a smoke-test size
    hotspot evaluate "rllib(path=runs/rllib-ppo/checkpoint)"

Read top to bottom: the config (``hotspot.env.rllib.ppo_config``: RLlib's
PettingZoo wrapper over ``hotspot.env.pettingzoo``, one
``MaskedPPOModule`` a seat), the training loop (a line and a row of
``OUT/curve.csv`` an iteration: each seat's mean return and the games'
length), then the checkpoint (``OUT/checkpoint``, ``Algorithm.save``) that
``rllib(path=...)`` plays in every command.  Rewards are +1/-1 at a win and 0
at the turn limit (D19), so the two seats' returns sum to 0 less the drawn
games; the curve says who is winning the self-play, and ``hotspot evaluate``
says how strong each policy is.  Extra: ``pip install ".[rllib]"``.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--iterations", type=int, default=200, help="training iterations (default 200)")
    p.add_argument("--env-runners", type=int, default=1, help="Ray actors collecting games (default 1)")
    p.add_argument("--envs-per-runner", type=int, default=1, help="games each runner steps at once (default 1)")
    p.add_argument("--batch", type=int, default=4000, help="env steps a training batch (default 4000)")
    p.add_argument("--minibatch", type=int, default=256, help="SGD minibatch (default 256)")
    p.add_argument("--epochs", type=int, default=4, help="passes over a batch (default 4)")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--hidden", default="256,256", help="the MLP's layer widths (default 256,256)")
    p.add_argument("--shared", action="store_true", help="one policy plays both seats")
    p.add_argument("--scenario", default="open")
    p.add_argument("--max-turns", type=int, default=200, help="the turn limit of a game (D19; default 200)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--address", default=None, help="a Ray cluster's address (default: a local Ray instance)")
    p.add_argument("--out", default="runs/rllib-ppo")
    p.add_argument("--tiny", action="store_true", help="a smoke-test size (2 iterations of 200 steps)")
    args = p.parse_args(argv)
    for name in ("iterations", "env_runners", "envs_per_runner", "batch", "minibatch", "epochs", "max_turns"):
        if getattr(args, name) < (0 if name == "env_runners" else 1):
            p.error(f"--{name.replace('_', '-')} must be a positive integer")
    try:
        args.hidden = tuple(int(h) for h in args.hidden.split(","))
    except ValueError:
        p.error(f"--hidden must be integers separated by commas, got {args.hidden!r}")
    if args.tiny:
        args.iterations, args.env_runners, args.batch, args.minibatch, args.epochs = 2, 0, 200, 100, 1
        args.hidden, args.max_turns = (32,), 10
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        import ray

        from hotspot.env.rllib import ppo_config
    except ImportError as exc:
        print(f"train_rllib: needs {exc.name}: pip install '.[rllib]'", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env_config = {"scenario": args.scenario, "max_turns": args.max_turns}
    try:
        config = ppo_config(env_config, hidden=args.hidden, shared=args.shared)
    except ValueError as exc:
        print(f"train_rllib: {exc}", file=sys.stderr)
        return 2

    # 1. The config: RLlib's PPO, its runners, its batch; one seed for all.
    config = (
        config.env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner)
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.lr,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )
    ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    algo = config.build_algo()

    # 2. The loop: a line and a curve row an iteration.
    seats = ("shared",) if args.shared else ("technocrat", "ziegler")
    start = time.perf_counter()
    with open(out / "curve.csv", "w", newline="") as f:
        curve = csv.writer(f)
        curve.writerow(["iteration", "env_steps", "games", "seconds", "episode_len", *(f"return_{s}" for s in seats)])
        for it in range(1, args.iterations + 1):
            result = algo.train()
            runners = result.get("env_runners", {})
            returns = runners.get("module_episode_returns_mean", {})
            row = [
                it,
                int(runners.get("num_env_steps_sampled_lifetime", 0)),
                int(runners.get("num_episodes_lifetime", 0)),
                round(time.perf_counter() - start, 1),
                round(float(runners.get("episode_len_mean", float("nan"))), 1),
                *(round(float(returns.get(s, float("nan"))), 3) for s in seats),
            ]
            curve.writerow(row)
            f.flush()
            print(
                f"iter {it:4d}  steps {row[1]:>9,}  games {row[2]:>6,}  {row[3]:7.1f} s  length {row[4]:6.1f}  "
                + "  ".join(f"{s} {v:+.3f}" for s, v in zip(seats, row[5:])),
                flush=True,
            )

    # 3. The checkpoint: an agent by name in every command.
    checkpoint = (out / "checkpoint").resolve()
    algo.save(str(checkpoint))
    algo.stop()
    ray.shutdown()
    print(f"checkpoint: {checkpoint}")
    print(f'rate it:    hotspot evaluate "rllib(path={checkpoint})"')
    return 0


if __name__ == "__main__":
    sys.exit(main())
