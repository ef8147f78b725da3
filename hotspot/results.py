"""The games a run played, as data: ``hotspot.results.read_games(path)``.

A run folder (``hotspot arena``, ``balance``, ``compare``, ``evaluate``,
``report``), a ``games.jsonl(.gz)``, a Parquet file or a folder of them, read
into one pandas DataFrame, one row a game (the columns of
``hotspot.arena.gamerow.GAME_ROW_FIELDS``; the ``data`` extra: pyarrow and
pandas); ``iter_games(path, batch_rows=...)`` the same a batch at a time;
``columns=[...]`` reads only those (without ``actions``, a million games
in seconds).  How a run folder keeps its rows as Parquet shards:
:mod:`hotspot.arena.table`.
"""

from .arena.table import TableError, iter_games, read_games, read_table

__all__ = ["TableError", "iter_games", "read_games", "read_table"]
