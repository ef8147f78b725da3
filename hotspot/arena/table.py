"""Games as a table: a run folder's rows as Parquet shards, and one reader.

``games.jsonl`` stays the run's log: every finished game is appended to it
as it ends, and it is what resume, the lock and the "nothing lost"
guarantees are about (:mod:`.folder`).  Where pyarrow is installed (the
``data`` extra), a run also keeps the rows as Parquet shards in the folder's
``games.parquet/`` directory, so that pandas, polars and DuckDB read a
folder directly (``pd.read_parquet("run/games.parquet")``):

* a shard holds the rows of one stretch of games.jsonl's bytes, named by it:
  ``part-<first byte>-<end byte>.parquet`` (12 digits each);
* shards are only ever added: :func:`sync_shards` (at the end of a run, and
  every :data:`SYNC_ROWS` rows during one) writes the rows past the last
  shard's end into a new shard (a temporary file, then ``os.replace``);
  none is rewritten, so a kill at any moment leaves complete shards and the
  log; the next sync writes what is missing;
* each shard records the last 4 KiB of games.jsonl it covers (their
  sha256): a log rewritten since (``--drop-damaged`` drops damaged lines)
  no longer matches, and its shards are removed and written again from the
  log (a run's sync), or left out with a warning (a reader);
* the shards cover whole, checked rows (:func:`.folder.check_row`); a
  damaged line ends the stretch a sync may cover.

Columns: :data:`.gamerow.GAME_ROW_FIELDS` in their order, typed
(:func:`schema`): ``rules`` as its JSON text, ``actions`` as a list of
int32.  :func:`read_games` reads a run folder (its shards and the rest of
its log), a ``games.jsonl(.gz)`` file, a Parquet file or a folder of them
into a pandas DataFrame, one row a game (the first row of a key wins, as
everywhere).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from .errors import ArenaError, RowError
from .folder import GAMES_FILE, check_row, parse_line
from .gamerow import GAME_ROW_FIELDS, GAME_ROW_NAMES, OPTIONAL
from .rowtable import GameRows, RowsByKey, object_array, values_array

SHARDS_DIR = "games.parquet"
#: rows appended to the log between two syncs of a running run (the
#: environment's HOTSPOT_PARQUET_SYNC_ROWS, a positive integer, overrides it)
SYNC_ROWS = 10_000


def sync_rows() -> int:
    """:data:`SYNC_ROWS`, or the environment's ``HOTSPOT_PARQUET_SYNC_ROWS`` when it is a positive integer."""
    text = os.environ.get("HOTSPOT_PARQUET_SYNC_ROWS", "")
    return int(text) if text.isdigit() and int(text) > 0 else SYNC_ROWS


GUARD_BYTES = 4096
_SHARD = re.compile(r"^part-(\d{12})-(\d{12})\.parquet$")
#: a row field's kind (gamerow.RowField.kind) -> its pyarrow type's name
_ARROW_TYPES = {"str": "string", "str | None": "string", "int": "int64", "int | None": "int64", "float": "float64"}
_ARROW_TYPES |= {"float | None": "float64", "bool": "bool_", "dict": "string", "list[int]": "list[int32]"}


class TableError(ArenaError):
    """A path that holds no games, a damaged shard, or pyarrow missing (one line)."""


def arrow():
    """(pyarrow, pyarrow.parquet), or :class:`TableError` saying how to install them."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise TableError("games as a table need pyarrow and pandas: pip install 'hotspot[data]'") from None
    return pa, pq


def have_arrow() -> bool:
    """Is pyarrow installed (runs then keep Parquet shards)?"""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True


def schema():
    """The Parquet schema of a game row, from :data:`.gamerow.GAME_ROW_FIELDS`."""
    pa, _ = arrow()
    kinds = {"list[int32]": pa.list_(pa.int32())}
    fields = []
    for f in GAME_ROW_FIELDS:  # rules (an object): its JSON text
        name = _ARROW_TYPES[f.kind]
        kind = kinds[name] if name in kinds else getattr(pa, name)()
        fields.append(pa.field(f.name, kind, nullable="None" in f.kind or f.name in OPTIONAL))
    return pa.schema(fields)


def rows_table(rows):
    """A pyarrow Table of game rows (dicts as games.jsonl holds them)."""
    pa, _ = arrow()
    columns = {name: [] for name in GAME_ROW_NAMES}
    for row in rows:
        for name in GAME_ROW_NAMES:
            value = row.get(name)
            columns[name].append(json.dumps(value, sort_keys=True) if name == "rules" else value)
    return pa.table(columns, schema=schema())


# ------------------------------------------------------------ shards


def shards(folder) -> list[tuple[int, int, Path]]:
    """The folder's shards as (first byte, end byte, path), in order."""
    d = Path(folder) / SHARDS_DIR
    if not d.is_dir():
        return []
    out = []
    for p in d.iterdir():
        m = _SHARD.match(p.name)
        if m:
            out.append((int(m.group(1)), int(m.group(2)), p))
    return sorted(out)


def _guard(log: Path, end: int) -> str:
    with open(log, "rb") as f:
        f.seek(max(0, end - GUARD_BYTES))
        return hashlib.sha256(f.read(end - max(0, end - GUARD_BYTES))).hexdigest()


def covered(folder) -> tuple[int, list[Path]]:
    """(the end byte of the shards that still match the log, those shards);
    -1 and no shards when they do not (a log rewritten since, a gap)."""
    folder = Path(folder)
    log = folder / GAMES_FILE
    size = log.stat().st_size if log.exists() else 0
    end, paths = 0, []
    for first, last, path in shards(folder):
        if first != end or last > size:
            return -1, []
        try:
            meta = _shard_meta(path)
        except TableError:
            return -1, []
        if meta.get("guard") != _guard(log, last):
            return -1, []
        end = last
        paths.append(path)
    return end, paths


def _shard_meta(path: Path) -> dict:
    _, pq = arrow()
    try:
        meta = pq.read_schema(path).metadata or {}
        return json.loads(meta.get(b"hotspot", b"{}"))
    except Exception as exc:  # noqa: BLE001  (a damaged file: one line)
        raise TableError(f"{path}: not a readable Parquet shard ({type(exc).__name__})") from None


def tail_rows(log: Path, start: int, tolerant: bool = False) -> tuple[list[dict], int, list[int]]:
    """The checked rows of ``log`` from byte ``start``, the byte after the
    last line read, and the damaged lines' numbers (from ``start``'s line 1).
    A writer's sync stops at a damaged or unfinished line; a reader
    (``tolerant``) skips them, as :func:`.folder.scan_games` does."""
    rows: list[dict] = []
    damaged: list[int] = []
    end = start
    if not log.exists():
        return rows, end, damaged
    with open(log, "rb") as f:
        f.seek(start)
        for number, raw in enumerate(f, 1):
            ok = raw.endswith(b"\n")
            if ok and raw.strip():
                try:
                    row = parse_line(raw.strip())
                    check_row(row)
                    rows.append(row)
                except (ValueError, RowError):
                    ok = False
            if not ok and raw.strip():
                if not tolerant:
                    break
                damaged.append(number)
            end += len(raw)
    return rows, end, damaged


def _write_shard(folder: Path, rows: list[dict], first: int, end: int) -> Path:
    table = rows_table(rows)
    meta = {"guard": _guard(folder / GAMES_FILE, end), "rows": len(rows), "log": GAMES_FILE}
    table = table.replace_schema_metadata({"hotspot": json.dumps(meta)})
    d = folder / SHARDS_DIR
    d.mkdir(exist_ok=True)
    return write_table(table, d / f"part-{first:012d}-{end:012d}.parquet")


def sync_shards(folder) -> int:
    """Write the rows of the folder's games.jsonl that no shard holds into a
    new shard (the writer's side: call it holding the folder's lock); shards
    that no longer match the log are removed first and written again.
    Returns the rows written (0 without pyarrow)."""
    if not have_arrow():
        return 0
    folder = Path(folder)
    end, _ = covered(folder)
    if end < 0:
        remove_shards(folder)
        end = 0
    for p in (folder / SHARDS_DIR).glob(".*.tmp") if (folder / SHARDS_DIR).is_dir() else ():
        p.unlink(missing_ok=True)  # a sync cut short
    rows, new_end, _ = tail_rows(folder / GAMES_FILE, end)
    if rows:
        _write_shard(folder, rows, end, new_end)
    return len(rows)


def summary_rows(folder):
    """The rows of a run folder **less their actions**, by key, read fast
    for a resume: a :class:`.rowtable.RowsByKey` of the stretch the shards
    cover, held as columns (their columns but ``actions``; checked when the
    shards were written), and the rest of games.jsonl read line by line
    (checked).  None where this cannot be done exactly (no pyarrow, no
    shards, shards that no longer match the log, a damaged line after
    them): the caller then scans the log (:func:`.folder.scan_games`), which
    also numbers damaged lines."""
    if not have_arrow():
        return None
    folder = Path(folder)
    try:
        end, paths = covered(folder)
    except OSError:
        return None
    if end <= 0:
        return None
    pa, pq = arrow()
    names = [n for n in GAME_ROW_NAMES if n != "actions"]
    try:
        shards = [pq.read_table(path, columns=names) for path in paths]
    except Exception:  # noqa: BLE001  (a damaged shard: the log has every game)
        return None
    frame = pa.concat_tables(shards, promote_options="default")
    del shards
    stored = GameRows(names, {name: _as_array(frame.column(name), name) for name in names})
    del frame
    rows = RowsByKey(stored)
    tail, _, damaged = tail_rows(folder / GAMES_FILE, end, tolerant=True)
    if damaged:
        return None
    for row in tail:
        row.pop("actions", None)
        rows.setdefault(row["key"], row)
    return rows


def _as_array(values, name: str):
    """A Parquet column of game rows as an array of :class:`.rowtable.GameRows`:
    numbers as numbers; a text as references to its distinct values (parsed,
    for ``rules``); a null as what the field's absence means (:data:`OPTIONAL`),
    else None."""
    pa, _ = arrow()
    default = OPTIONAL.get(name)
    if pa.types.is_null(values.type):  # every row null
        return object_array([default] * len(values))
    if values.null_count and default is not None:
        values = values.fill_null(pa.scalar(default, type=values.type))
    if pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
        if name == "key":  # distinct in every row
            return object_array(values.to_pylist())
        encoded = values.combine_chunks().dictionary_encode()
        distinct = encoded.dictionary.to_pylist()
        if name == "rules":
            distinct = [json.loads(text) for text in distinct]  # the row holds the dict; a run has a few
        lookup = object_array([*distinct, None])
        return lookup[encoded.indices.fill_null(len(distinct)).to_numpy(zero_copy_only=False)]
    if values.null_count:
        return object_array(values.to_pylist())
    return values.to_numpy()


class ShardRows(GameRows):
    """Rows of a run folder read from its files a column at a time: the
    folder's rows at ``positions`` (numbered in the folder's order: the
    shards' rows, then the log's rows past ``end``, the byte the shards
    cover to), fields ``names``.  :meth:`column` reads one field of those
    rows and holds nothing after; iterating or indexing reads every field
    once (a :class:`.rowtable.GameRows`, kept).  A run's summaries read
    columns, so a resume of a million games never holds them all."""

    __slots__ = ("folder", "paths", "end", "positions", "_whole")

    def __init__(self, folder, paths: list[Path], end: int, positions: np.ndarray, names):
        self.folder, self.paths, self.end = Path(folder), list(paths), int(end)
        self.positions = np.asarray(positions, dtype=np.int64)
        self.names = tuple(names)
        self.columns = {}
        self._n = len(self.positions)
        self._whole: GameRows | None = None

    def _stored(self, name: str) -> np.ndarray:
        """The field ``name`` of every row of the folder, in its order."""
        _, pq = arrow()
        parts = []
        if self.paths:
            frame = pq.read_table([str(q) for q in self.paths], columns=[name])
            parts.append(_as_array(frame.column(name), name))
            del frame
        tail, _, _ = tail_rows(self.folder / GAMES_FILE, self.end, tolerant=True)
        if tail:
            parts.append(values_array([row.get(name, OPTIONAL.get(name)) for row in tail]))
        if not parts:
            return object_array([])
        if len(parts) > 1 and parts[0].dtype != parts[1].dtype:
            parts = [a.astype(object) for a in parts]
        return np.concatenate(parts) if len(parts) > 1 else parts[0]

    def column(self, name: str) -> np.ndarray:
        if name not in self.names:
            raise KeyError(name)
        if self._whole is not None:
            return self._whole.column(name)
        return self._stored(name)[self.positions]

    def whole(self) -> GameRows:
        """Every field of these rows, read once and kept."""
        if self._whole is None:
            self._whole = GameRows(self.names, {name: self.column(name) for name in self.names})
        return self._whole

    def __getitem__(self, i):
        if isinstance(i, slice):
            return ShardRows(self.folder, self.paths, self.end, self.positions[i], self.names)
        return self.whole()[i]

    def __iter__(self):
        return iter(self.whole())

    def take(self, positions) -> GameRows:
        return ShardRows(self.folder, self.paths, self.end, self.positions[np.asarray(positions)], self.names)

    def concat(self, other: GameRows) -> GameRows:
        return self.whole().concat(other)

    def __repr__(self) -> str:
        return f"ShardRows({self._n} rows of {self.folder})"


def remove_shards(folder) -> None:
    """Remove the folder's shards (after the log is rewritten: they are written again from it)."""
    for _, _, path in shards(folder):
        path.unlink(missing_ok=True)


# ------------------------------------------------------------ reading


def read_games(path, columns=None):
    """The games at ``path`` as a pandas DataFrame, one row a game, the
    columns of :data:`.gamerow.GAME_ROW_FIELDS` in order (``rules`` as JSON
    text, ``actions`` a list of ints), or only ``columns`` (names of them:
    leaving out ``actions`` reads a million games in seconds): a run folder
    (its Parquet shards and the rest of its games.jsonl), a ``games.jsonl``
    or ``games.jsonl.gz`` file, a Parquet file, or a folder of Parquet files.
    A game given twice counts once (the first row of its key).
    :class:`TableError` (one line) for a path that holds no games, a damaged
    file or a column that is not a game row's."""
    return read_table(path, columns).to_pandas(types_mapper=_pandas_types())


def read_table(path, columns: str | Iterable[str] | None = None):
    """:func:`read_games`'s table as a pyarrow Table."""
    pa, _ = arrow()
    names = _column_names(columns)
    read = names if "key" in names else ["key", *names]  # a game given twice: found by its key
    table = _concat([b for b in _batches(Path(path), read, None)], read)
    first: dict[str, int] = {}
    for i, key in enumerate(table.column("key").to_pylist()):
        first.setdefault(key, i)
    if len(first) < table.num_rows:  # a game given twice: its first row
        table = table.take(pa.array(sorted(first.values()), pa.int64()))
    return table.select(names)


def iter_games(path, columns=None, batch_rows: int = 65_536):
    """:func:`read_games` a batch at a time: pandas DataFrames of at most
    ``batch_rows`` games each, in the order of the games, so that a folder of
    any size is read in the memory of one batch (and the set of keys seen: a
    game given twice counts once)."""
    pa, _ = arrow()
    if not (isinstance(batch_rows, int) and batch_rows > 0):
        raise TableError(f"batch_rows must be a positive integer, got {batch_rows!r}")
    names = _column_names(columns)
    read = names if "key" in names else ["key", *names]
    seen: set[str] = set()
    for batch in _batches(Path(path), read, batch_rows):
        keys = batch.column(read.index("key")).to_pylist()
        keep = []
        for i, key in enumerate(keys):
            if key not in seen:
                seen.add(key)
                keep.append(i)
        if len(keep) < len(keys):
            batch = batch.take(pa.array(keep, pa.int64()))
        if batch.num_rows:
            yield pa.Table.from_batches([batch]).select(names).to_pandas(types_mapper=_pandas_types())


def _column_names(columns) -> list[str]:
    if columns is None:
        return list(GAME_ROW_NAMES)
    if isinstance(columns, str):
        columns = [columns]
    names = list(columns)
    for name in names:
        if name not in GAME_ROW_NAMES:
            raise TableError(f"no column {name!r} in a game row (its columns: {', '.join(GAME_ROW_NAMES)})")
    if not names:
        raise TableError("columns names no column (leave it out for all of them)")
    return names


def _concat(batches, names):
    pa, _ = arrow()
    if not batches:
        return schema_of(names).empty_table()
    return pa.Table.from_batches(batches)


def schema_of(names):
    """The schema of the game row's columns ``names``."""
    pa, _ = arrow()
    full = schema()
    return pa.schema([full.field(n) for n in names])


def _batches(p: Path, names: list[str], batch_rows):
    """The record batches of the games at ``p`` (columns ``names``, at most
    ``batch_rows`` rows each, or whole files when None), in order."""
    if not p.exists():
        raise TableError(f"{p}: no such file or folder")
    if p.is_dir() and (p / GAMES_FILE).exists():
        yield from _folder_batches(p, names, batch_rows)
    elif p.is_dir():
        files = sorted(q for q in p.glob("*.parquet") if not q.name.startswith("."))
        if not files:
            raise TableError(f"{p}: not a run folder (no {GAMES_FILE}) and no Parquet files in it")
        for q in files:
            yield from _parquet_batches(q, names, batch_rows)
    elif p.suffix == ".parquet":
        yield from _parquet_batches(p, names, batch_rows)
    elif p.name.endswith((".jsonl", ".jsonl.gz")):
        yield from _row_batches(_jsonl_rows(p), names, batch_rows)
    else:
        raise TableError(f"{p}: not a run folder, a games.jsonl(.gz) or a Parquet file")


def _row_batches(rows: list[dict], names, batch_rows):
    step = batch_rows or max(1, len(rows))
    for i in range(0, len(rows), step):
        yield from rows_table(rows[i : i + step]).select(names).to_batches()


def _pandas_types():
    import pandas as pd

    pa, _ = arrow()
    return {pa.int64(): pd.Int64Dtype(), pa.bool_(): pd.BooleanDtype()}.get


def _parquet_batches(path: Path, names, batch_rows):
    _, pq = arrow()
    try:
        f = pq.ParquetFile(path)
        missing = [n for n in GAME_ROW_NAMES if n not in f.schema_arrow.names]
        if missing:
            raise TableError(f"{path}: not a table of game rows (no column {missing[0]!r})")
        target = schema_of(names)
        if batch_rows is None:
            yield from f.read(columns=names).cast(target).to_batches()
        else:
            for batch in f.iter_batches(batch_size=batch_rows, columns=names):
                yield batch.cast(target)
    except TableError:
        raise
    except Exception as exc:  # noqa: BLE001  (damaged or not Parquet: one line)
        raise TableError(f"{path}: not a readable Parquet file ({type(exc).__name__})") from None


def _shards_at_once(paths: list[Path], names):
    """The record batches of a run's shards (columns ``names``), in order, read as one dataset."""
    _, pq = arrow()
    try:
        whole = pq.read_table([str(q) for q in paths], columns=names)
    except Exception as exc:  # noqa: BLE001  (a damaged shard: one line)
        raise TableError(f"{paths[0].parent}: a shard is not a readable Parquet file ({type(exc).__name__})") from None
    yield from whole.cast(schema_of(names)).to_batches()


def _folder_batches(folder: Path, names, batch_rows):
    end, paths = covered(folder)
    if end < 0:
        print(
            f"warning: {folder / SHARDS_DIR}: its shards no longer match {GAMES_FILE} (rewritten since?); "
            f"read from {GAMES_FILE} (a run in the folder writes them again)",
            file=sys.stderr,
        )
        end, paths = 0, []
    if batch_rows is None and paths:  # the whole folder: its shards read at once, on every core
        yield from _shards_at_once(paths, names)
    else:
        for q in paths:
            yield from _parquet_batches(q, names, batch_rows)
    rows, _, damaged = tail_rows(folder / GAMES_FILE, end, tolerant=True)
    if damaged:
        print(
            f"warning: {folder / GAMES_FILE}: skipped {len(damaged)} damaged line(s) after byte {end}", file=sys.stderr
        )
    yield from _row_batches(rows, names, batch_rows)


def _jsonl_rows(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    rows = []
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                    check_row(row)
                except (ValueError, RowError) as exc:
                    raise TableError(f"{path}: line {number}: not a game row ({exc})") from None
                rows.append(row)
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise TableError(f"{path}: cannot read it ({type(exc).__name__})") from None
    return rows


def write_table(table, out) -> Path:
    """Write a table of game rows to one Parquet file ``out`` (a temporary
    file, then ``os.replace``)."""
    _, pq = arrow()
    out = Path(out)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        pq.write_table(table, tmp)
        os.replace(tmp, out)
    finally:
        if tmp.exists():
            tmp.unlink()
    return out


__all__ = [
    "SHARDS_DIR",
    "TableError",
    "iter_games",
    "read_games",
    "read_table",
    "remove_shards",
    "rows_table",
    "schema",
    "shards",
    "summary_rows",
    "sync_shards",
    "write_table",
]
