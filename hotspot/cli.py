"""The ``hotspot`` command line.

    hotspot play [--seed N] [--scenario NAME|PATH] [--record FILE] [--quiet]
    hotspot replay FILE
    hotspot scenario NAME|PATH [--out FILE]     (print or save a scenario, e.g. random:7)
"""
from __future__ import annotations

import argparse
import sys

import numpy as np


def _random_game(scenario: str, seed: int, agent_seed: int | None):
    from .core.actions import NUM_ACTIONS
    from .core.game import Game
    from .core.rollout import random_action
    game = Game(scenario, seed=seed)
    rng = np.array([np.random.SeedSequence(seed if agent_seed is None else agent_seed)
                    .generate_state(1, dtype=np.uint64)[0]], dtype=np.uint64)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    while not game.is_terminal():
        game.apply_action(int(random_action(game.s, mask, rng, 0)))
    return game


def cmd_play(args) -> int:
    game = _random_game(args.scenario, args.seed, args.agent_seed)
    if not args.quiet:
        print(game.render())
        print()
    trunc = " at the turn limit (D19)" if game.is_truncated() else ""
    print(f"Result: {game.result()}{trunc} after {game.turn} turn(s) and {len(game.record.actions)} actions "
          f"(scenario {args.scenario}, seed {args.seed})")
    if args.record:
        game.record.save(args.record)
        print(f"Record written to {args.record}")
    return 0


def cmd_replay(args) -> int:
    from .core.record import GameRecord
    game = GameRecord.load(args.file).replay()
    print(game.render())
    print(f"\nResult: {game.result()} after {len(game.record.actions)} actions")
    return 0


def cmd_scenario(args) -> int:
    import json
    from .core.scenario import load_scenario, save_scenario
    data = load_scenario(args.name)
    if args.out:
        save_scenario(data, args.out)
        print(f"Scenario written to {args.out}")
    else:
        print(json.dumps(data, indent=1))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hotspot", description="Hot Spot (Metagaming, 1979): rules, simulator, arena")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play one game between two random players and print the result and final board")
    play.add_argument("--seed", type=int, default=0, help="dice seed (default 0)")
    play.add_argument("--agent-seed", type=int, default=None, help="seed of the random players (default: the dice seed)")
    play.add_argument("--scenario", default="standard", help="built-in name (standard, random, random:SEED) or JSON path")
    play.add_argument("--record", default=None, help="write the game record (JSON) to this file")
    play.add_argument("--quiet", action="store_true", help="print only the result")
    play.set_defaults(func=cmd_play)
    replay = sub.add_parser("replay", help="replay a game record and print the final board")
    replay.add_argument("file")
    replay.set_defaults(func=cmd_replay)
    scen = sub.add_parser("scenario", help="print or save a scenario")
    scen.add_argument("name")
    scen.add_argument("--out", default=None)
    scen.set_defaults(func=cmd_scenario)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, OSError) as exc:
        print(f"hotspot: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
