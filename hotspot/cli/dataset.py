"""``hotspot dataset``: one seat's side of recorded games as a Minari dataset (``hotspot.arena.dataset``)."""

from __future__ import annotations


def add_parser(sub) -> None:
    """The ``hotspot dataset`` subcommand's parser, added to ``sub``."""
    dataset = sub.add_parser(
        "dataset",
        help="one seat's side of a run's games as a Minari dataset (offline RL, imitation)",
    )
    dataset.add_argument("source", help="a run folder, a games.jsonl(.gz) or Parquet")
    dataset.add_argument("--seat", required=True, help="technocrat or ziegler")
    dataset.add_argument("--out", required=True, help="the dataset's id, e.g. hotspot/open-scripted-technocrat-v0")
    dataset.add_argument(
        "--observation",
        default="compact",
        help="the observation: HotspotEnv's compact (default), flat or full, or LearnerEnv's learner",
    )
    dataset.add_argument("--max-games", type=int, default=None, help="at most this many games (the first ones)")
    dataset.set_defaults(func=run)


def run(args) -> int:
    import time
    import warnings

    from ..arena.dataset import make_dataset

    if args.max_games is not None and args.max_games < 1:
        raise ValueError(f"--max-games must be a positive integer, got {args.max_games}")
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # Minari's advice on metadata fields
        data = make_dataset(args.source, args.seat, args.out, args.observation, args.max_games)
    path = data.spec.data_path if hasattr(data.spec, "data_path") else ""
    print(
        f"{args.out}: {data.total_episodes} episode(s), {data.total_steps} step(s) of the {args.seat} "
        f"in {time.perf_counter() - t0:.1f} s {path}".rstrip()
    )
    return 0
