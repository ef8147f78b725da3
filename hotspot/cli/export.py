"""``hotspot export``: a run folder's games as Parquet (``hotspot.arena.table``)."""

from __future__ import annotations

from pathlib import Path


def add_parser(sub) -> None:
    """The ``hotspot export`` subcommand's parser, added to ``sub``."""
    export = sub.add_parser(
        "export",
        help="a run folder's games (or a games.jsonl) as Parquet: one file (--out), or the folder's own shards",
    )
    export.add_argument("source", help="a run folder, or a games.jsonl(.gz) file")
    export.add_argument(
        "--out",
        default=None,
        help="write one Parquet file here (default: bring the folder's games.parquet/ shards up to date)",
    )
    export.set_defaults(func=run)


def run(args) -> int:
    from ..arena import table
    from ..arena.folder import GAMES_FILE, writer_lock

    source = Path(args.source)
    if args.out is None:
        if not (source.is_dir() and (source / GAMES_FILE).exists()):
            raise ValueError(f"{source}: not a run folder (no {GAMES_FILE}); name a file to write with --out")
        table.arrow()  # pyarrow missing: one line before the folder is locked
        with writer_lock(source):
            written = table.sync_shards(source)
        held = sum(1 for _ in table.shards(source))
        print(f"{source / table.SHARDS_DIR}: {written} game(s) added; {held} shard(s)")
        return 0
    out = Path(args.out)
    if out.suffix != ".parquet":
        raise ValueError(f"--out {out}: name a .parquet file")
    if out.is_dir():
        raise ValueError(f"--out {out}: is a folder; name a .parquet file")
    games = table.read_table(source)
    table.write_table(games, out)
    size = out.stat().st_size
    print(f"{out}: {games.num_rows} game(s), {size:,} bytes ({size / max(games.num_rows, 1):,.0f} a game)")
    return 0
