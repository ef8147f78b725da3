"""Game rows held as columns: the finished games of a large run folder in
memory as a few arrays instead of one dict a game.

A resume reads a folder's games to know which are done and to summarize
them (:func:`.table.summary_rows`).  A million rows as dicts cost seconds
to build and over a gigabyte to hold; as columns (one NumPy array a field,
a string field as references to its few distinct values) they cost the
Parquet read and some 300 bytes a game.  Two views serve the runner and the
summaries:

* :class:`GameRows`: a read-only sequence of rows in an order (a run's
  ``RunResult.rows``); a row is made as a fresh dict when it is asked for,
  and :func:`column` reads a field of every row at once;
* :class:`RowsByKey`: the rows by key (the first row of a key wins, as in
  :func:`.folder.scan_games`), with the rows a run adds as dicts beside
  them.

Code that reads rows one at a time works on both unchanged; the summaries
(:func:`.tournament.side_sums`, :func:`.rating.seat_results`, ...) read
columns, so a plain list of dicts and a :class:`GameRows` give the same
numbers, the latter without a dict a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from itertools import repeat

import numpy as np

#: rows made at a time when a GameRows is iterated
CHUNK = 65_536


def object_array(values) -> np.ndarray:
    """``values`` as a 1-D array of Python objects (a dict or None stays one object)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values  # element by element: a dict or None stays one object
    return out


def values_array(values: list, share: bool = False) -> np.ndarray:
    """``values`` as an array: numbers (ints, or ints and floats) or truth
    values as numbers, anything else as objects (``share``: equal ones made
    one object, :func:`shared`)."""
    kinds = {type(v) for v in values}
    if kinds and (kinds <= {int, float} or kinds == {bool}):
        return np.array(values)
    return object_array(shared(values) if share else values)


def shared(values: list) -> list:
    """``values`` with equal values made one object (a flat dict compared by
    its items): a row's texts arrive as objects of their own, and a million
    copies of ``"random:random"`` cost some 60 MB where one costs nothing."""
    seen: dict = {}
    out = []
    for v in values:
        try:
            v = seen.setdefault((type(v), tuple(sorted(v.items())) if isinstance(v, dict) else v), v)
        except TypeError:  # not hashable: kept as it is
            pass
        out.append(v)
    return out


class GameRows(Sequence):
    """Rows of games (dicts of :data:`.gamerow.GAME_ROW_NAMES` less ``actions``)
    held as ``columns`` (name -> 1-D array, all of one length), fields in
    the order ``names``.  Indexing with an int gives a fresh dict; with a
    slice, a GameRows."""

    __slots__ = ("names", "columns", "_n")

    def __init__(self, names: Sequence[str], columns: Mapping[str, np.ndarray]):
        self.names = tuple(names)
        self.columns = {name: columns[name] for name in self.names}
        lengths = {len(c) for c in self.columns.values()}
        if len(lengths) > 1:
            raise ValueError(f"columns of different lengths: {sorted(lengths)}")
        self._n = lengths.pop() if lengths else 0

    @classmethod
    def from_dicts(cls, rows: Sequence[dict], names: Sequence[str], defaults: Mapping | None = None) -> GameRows:
        """The rows of dicts ``rows`` as columns (a field a row lacks: its
        value in ``defaults``, else None)."""
        defaults = defaults or {}
        columns = {}
        for name in names:
            default = defaults.get(name)
            values = [row.get(name, default) for row in rows]
            # the distinct values shared (a run's rows repeat a few texts), but for the keys
            columns[name] = values_array(values, share=name != "key")
        return cls(names, columns)

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return GameRows(self.names, {n: c[i] for n, c in self.columns.items()})
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("GameRows index out of range")
        return {n: c[i].item() if isinstance(c[i], np.generic) else c[i] for n, c in self.columns.items()}

    def __iter__(self):
        for start in range(0, self._n, CHUNK):
            lists = [c[start : start + CHUNK].tolist() for c in self.columns.values()]
            yield from map(dict, map(zip, repeat(self.names), zip(*lists)))

    def column(self, name: str) -> np.ndarray:
        """The field ``name`` of every row (the array held: do not change it)."""
        return self.columns[name]

    def take(self, positions) -> GameRows:
        """The rows at ``positions`` (ints or a boolean mask), in that order."""
        positions = np.asarray(positions)
        if positions.dtype != bool:
            positions = positions.astype(np.int64, copy=False)
        return GameRows(self.names, {n: c[positions] for n, c in self.columns.items()})

    def concat(self, other: GameRows) -> GameRows:
        """These rows, then ``other``'s (the same fields)."""
        if not len(self) or not len(other):  # a field's type is the rows' it has
            return other if not len(self) else self
        columns = {}
        for n in self.names:
            a, b = self.columns[n], other.columns[n]
            if a.dtype != b.dtype:
                a, b = a.astype(object), b.astype(object)
            columns[n] = np.concatenate([a, b])
        return GameRows(self.names, columns)

    def __eq__(self, other) -> bool:
        """Equal to any sequence of the same rows (dicts), in the same order."""
        if not isinstance(other, (GameRows, list, tuple)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]  # unhashable: compared by its rows (typeshed's idiom)

    def __repr__(self) -> str:
        return f"GameRows({self._n} rows)"


def as_rows(rows: Iterable[dict]):
    """``rows`` as a sequence that :func:`column` may read again and again: a
    GameRows or a list stays as it is; any other iterable of dicts becomes a list."""
    return rows if isinstance(rows, (GameRows, list, tuple)) else list(rows)


def column(rows: Iterable[dict], name: str) -> np.ndarray:
    """The field ``name`` of every row of ``rows`` (a :class:`GameRows` or
    dicts; a dict lacking it gives None) as an array: numbers as numbers,
    anything else as objects."""
    if isinstance(rows, GameRows):
        return rows.column(name)
    return values_array([row.get(name) for row in rows])


def select(rows: Iterable[dict], mask: np.ndarray):
    """The rows of ``rows`` where ``mask`` (one bool a row, as :func:`column`
    gives it) is true: a GameRows of a GameRows, else a list."""
    if isinstance(rows, GameRows):
        return rows.take(np.asarray(mask, dtype=bool))
    return [row for row, keep in zip(rows, mask) if keep]


class RowsByKey(MutableMapping):
    """Rows by key: ``stored`` (a :class:`GameRows`; the first row of a key
    wins) and the rows set since, as dicts until there are :data:`COMPACT`
    of them, then added to the columns (so a run that plays a million games
    holds them as columns too).  A stored row cannot be replaced or removed.
    ``names``: the fields of a row (``stored``'s if given); ``defaults``:
    the value of a field a row set here lacks (else None)."""

    #: rows set as dicts before they join the columns
    COMPACT = 65_536

    def __init__(self, stored: GameRows | None = None, names: Sequence[str] = (), defaults: Mapping | None = None):
        self.stored = GameRows.from_dicts([], names) if stored is None else stored
        self.defaults = dict(defaults or {})
        keys = self.stored.column("key").tolist()
        # reversed: where a key repeats, its first row's position is the one kept
        self._index = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1)))
        self._added: dict[str, dict] = {}

    @classmethod
    def of(cls, rows: Mapping[str, dict], names: Sequence[str], defaults: Mapping | None = None) -> RowsByKey:
        """The rows by key ``rows`` (dicts) held as columns of the fields ``names``."""
        return cls(GameRows.from_dicts(list(rows.values()), names, defaults), defaults=defaults)

    def _compact(self) -> None:
        """The rows set as dicts join the columns."""
        n = len(self.stored)
        self.stored = self.stored.concat(
            GameRows.from_dicts(list(self._added.values()), self.stored.names, self.defaults)
        )
        self._index.update(zip(self._added, range(n, len(self.stored))))
        self._added = {}

    def __getitem__(self, key: str) -> dict:
        i = self._index.get(key)
        if i is not None:
            return self.stored[i]
        return self._added[key]

    def __contains__(self, key) -> bool:
        return key in self._index or key in self._added

    def __setitem__(self, key: str, row: dict) -> None:
        if key in self._index:
            raise KeyError(f"the stored row of {key!r} cannot be replaced")
        self._added[key] = row
        if len(self._added) >= self.COMPACT:
            self._compact()

    def __delitem__(self, key: str) -> None:
        if key in self._index:
            raise KeyError(f"the stored row of {key!r} cannot be removed")
        del self._added[key]

    def __iter__(self):
        yield from self._index
        yield from self._added

    def __len__(self) -> int:
        return len(self._index) + len(self._added)

    def absent(self, keys: Iterable[str]) -> list[bool]:
        """For each of ``keys``: whether it has no row here (one pass, no call a key)."""
        index, added = self._index, self._added
        return [k not in index and k not in added for k in keys]

    def in_order(self, keys: Iterable[str]) -> GameRows:
        """The rows of ``keys`` that are here, in that order, as one GameRows."""
        if self._added:
            self._compact()
        stored, index = self.stored, self._index
        positions = np.fromiter(map(index.get, keys, repeat(-1)), dtype=np.int64)
        positions = positions[positions >= 0]
        if len(positions) == len(stored) and (positions == np.arange(len(stored))).all():
            return stored  # every row, in its stored order
        return stored.take(positions)
