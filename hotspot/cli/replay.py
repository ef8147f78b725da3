"""``hotspot replay``: replay a game record, or a game of an arena games.jsonl."""

from __future__ import annotations

import sys


def add_parser(sub) -> None:
    """The ``hotspot replay`` subcommand's parser, added to ``sub``."""
    replay = sub.add_parser(
        "replay", help="replay a game record (or a game of an arena games.jsonl) and print the final board"
    )
    replay.add_argument("file")
    replay.add_argument("--game", type=int, default=None, help="for a games.jsonl: the row to replay (0-based)")
    replay.add_argument("--html", default=None, help="also write the HTML replay viewer to this file")
    steps = replay.add_mutually_exclusive_group()
    steps.add_argument(
        "--step",
        action="store_true",
        help="list the moves with what each caused (rolls, collisions, combat results); at a "
        "terminal, one move per Enter (b: board, c: to the end, q: stop)",
    )
    steps.add_argument("--moves", action="store_true", help="print the plain move list and the result")
    replay.set_defaults(func=run)


def run(args) -> int:
    from ..core.game import Game
    from ..core.record import GameRecord

    if str(args.file).endswith(".jsonl"):
        from ..arena.folder import record_from_row, scan_games

        games = scan_games(args.file)
        if games.damaged:  # reported, not replayed: --game counts the valid rows
            print(f"hotspot: warning: {games.damaged_text()}; --game counts the other rows", file=sys.stderr)
        rows = list(games.rows.values())
        if not rows:
            raise ValueError(f"{args.file}: no game rows")
        n = 0 if args.game is None else args.game
        if not 0 <= n < len(rows):
            raise ValueError(
                f"{args.file}: --game must be in [0, {len(rows)}) (the row's position among the file's valid rows)"
            )
        row = rows[n]
        print(
            f"Game {n}: {row['pairing']}, technocrat {row['technocrat']}, ziegler {row['ziegler']}, "
            f"game {row['index']}, seed {row['seed']}, scenario {row['setup']}"
        )
        record = record_from_row(row)
    else:
        if args.game is not None:
            raise ValueError("--game is for an arena games.jsonl file")
        record = GameRecord.load(args.file)
    if args.step or args.moves:
        from ..human.terminal import step_through

        shown = step_through(record, interactive=args.step and sys.stdin.isatty(), moves_only=args.moves)
        if shown < len(record.actions):  # stopped by the reader ('q')
            return 0
    game = Game.from_record(record)
    if not args.moves:
        print(game.render())
    result = f"no winner: stopped after turn {game.turn} by max_turns (D19)" if game.is_truncated() else game.result()
    print(f"\nResult: {result} after {len(game.record.actions)} actions")
    if args.html:
        from ..env.viewer import write_replay_html

        write_replay_html(record, args.html)
        print(f"Replay viewer written to {args.html}")
    return 0
