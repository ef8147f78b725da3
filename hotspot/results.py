"""The games a run played, as data: ``hotspot.results.read_games(path)``.

A run folder (``hotspot arena``, ``balance``, ``compare``, ``evaluate``,
``report``), a ``games.jsonl(.gz)``, a Parquet file or a folder of them, read
into one pandas DataFrame, one row a game (the columns of
``hotspot.arena.gamerow.GAME_ROW_FIELDS``; the ``data`` extra: pyarrow and
pandas).  How a run folder keeps its rows as Parquet shards:
:mod:`hotspot.arena.table`.
"""

from .arena.table import TableError, read_games, read_table

__all__ = ["TableError", "read_games", "read_table"]
