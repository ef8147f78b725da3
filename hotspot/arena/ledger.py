"""Which games of a planned run a folder holds, in the memory of a number a game.

A resume must know which planned games are already in games.jsonl.  Held
as rows by key (:class:`.rowtable.RowsByKey`) that costs some 0.7 KB a
game: a million games, a gigabyte.  A run planned series by series (a
:class:`.match.Plan`, as ``hotspot arena`` plans one) needs less: each of
its games is game ``i`` of one :class:`.match.SpecSeries`, so the
**ledger** holds, for each series, one number a game: the row of the
folder's games that holds game ``i`` (its position in the folder's order:
the Parquet shards' rows, then the log's rows past them), or -1.

* :func:`read_ledger` fills it from the folder's shards (their ``key``,
  ``index`` and ``seed`` columns only, a batch at a time) and the rest of
  games.jsonl; a row is game ``index`` of the series whose keys begin as
  its key does, when its key is the one that series gives that game (the
  first row of a key wins, as everywhere);
* rows that are no game of the plan are counted, and the first of them
  kept to say why (:func:`.folder.check_run`);
* :meth:`Ledger.rows` gives the run's rows in plan order as
  :class:`.table.ShardRows`, read from the shards a column at a time.

So a resume of a million games holds some 8 MB, not a gigabyte, and a run
that plays them keeps no row of the games it played (games.jsonl and the
shards do).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from . import table
from .folder import GAMES_FILE
from .match import Plan

#: rows outside the plan kept (the first ones) to say why they are not games of it
OUTSIDE_KEPT = 20
#: the columns a ledger reads
LEDGER_COLUMNS = ["key", "index", "seed"]
#: the columns of a row outside the plan that say why
OUTSIDE_COLUMNS = ["key", "index", "seed", "pairing", "technocrat", "ziegler", "scenario", "rules", "max_turns"]


class Ledger:
    """For each series of ``plan``, the folder row of each of its games (-1: none yet)."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.parts = plan.parts
        self.by_head: dict[str, list[int]] = {}
        for p, part in enumerate(self.parts):
            self.by_head.setdefault(part.head, []).append(p)
        self.found = [np.full(len(part), -1, dtype=np.int64) for part in self.parts]
        self.stored = 0  # the folder's rows numbered so far
        self.outside: list[dict] = []  # the first rows that are no planned game
        self.outside_count = 0

    def where(self, key: str, index: int, seed: int) -> tuple[int, int] | None:
        """(series, game) of the planned game whose key is ``key``, or None."""
        cut = key.rfind(f",{index},{seed},")
        if cut < 0:
            return None
        for p in self.by_head.get(key[:cut], ()):
            part = self.parts[p]
            if 0 <= index < len(part) and part.key_at(index) == key:
                return p, index
        return None

    def add(self, key: str, index, seed, row: dict | None = None) -> bool:
        """Number the folder's next row, the game ``key``: whether it is a planned
        game (``row``, or None: the row kept if it is not and few are kept yet)."""
        n = self.stored
        self.stored += 1
        at = self.where(key, int(index), int(seed)) if index is not None and seed is not None else None
        if at is None:
            self.outside_count += 1
            if row is not None and len(self.outside) < OUTSIDE_KEPT:
                self.outside.append(row)
            return False
        p, i = at
        if self.found[p][i] < 0:  # the first row of a key wins
            self.found[p][i] = n
        return True

    def absent(self) -> np.ndarray:
        """For each planned game, in plan order: whether the folder has no row of it."""
        if not self.found:
            return np.zeros(0, dtype=bool)
        return np.concatenate([f < 0 for f in self.found])

    def positions(self) -> np.ndarray:
        """The folder rows of the planned games it holds, in plan order."""
        if not self.found:
            return np.zeros(0, dtype=np.int64)
        return np.concatenate([f[f >= 0] for f in self.found])

    def held(self) -> int:
        """The planned games the folder holds."""
        return int(sum((f >= 0).sum() for f in self.found))


def read_ledger(folder, plan: Plan) -> tuple[Ledger, int, list[Path]] | None:
    """The ledger of ``plan`` in ``folder`` with (the log's byte the shards
    cover to, the shards): from the shards and the log's rows past them.
    None where the shards cannot be read exactly (no pyarrow, shards that
    no longer match the log, a damaged shard, a damaged line past them): the
    caller then reads the folder row by row, which also numbers damaged lines."""
    if not table.have_arrow():
        return None
    folder = Path(folder)
    try:
        end, paths = table.covered(folder)
    except OSError:
        return None
    if end < 0:
        return None
    ledger = Ledger(plan)
    try:
        for path in paths:
            _add_shard(ledger, path)
    except Exception:  # noqa: BLE001  (a damaged shard: the log has every game)
        return None
    tail, _, damaged = table.tail_rows(folder / GAMES_FILE, end, tolerant=True)
    if damaged:
        return None
    for row in tail:
        ledger.add(row["key"], row.get("index"), row.get("seed"), row)
    return ledger, end, paths


def _add_shard(ledger: Ledger, path: Path, batch_rows: int = 65_536) -> None:
    _, pq = table.arrow()
    f = pq.ParquetFile(path)
    for batch in f.iter_batches(batch_size=batch_rows, columns=OUTSIDE_COLUMNS):
        keys, indices, seeds = (batch.column(name).to_pylist() for name in LEDGER_COLUMNS)
        for j, (key, index, seed) in enumerate(zip(keys, indices, seeds)):
            if not ledger.add(key, index, seed) and len(ledger.outside) < OUTSIDE_KEPT:
                ledger.outside.append(_row_at(batch, j))


def _row_at(batch, j: int) -> dict:
    row = batch.slice(j, 1).to_pylist()[0]
    row["rules"] = json.loads(row["rules"]) if isinstance(row.get("rules"), str) else row.get("rules")
    return row


__all__ = ["Ledger", "read_ledger"]
