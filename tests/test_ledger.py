"""The ledger of a planned run (``hotspot.arena.ledger``): a run of a
:class:`~hotspot.arena.match.Plan` in a folder whose Parquet shards cover
its log holds one number a planned game (the folder row that holds it),
not a row; its rows are read back from the files a column at a time
(``hotspot.arena.table.ShardRows``).  It must find the same games, give the
same rows and refuse the same folders as reading the rows by key."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("pyarrow")

from hotspot.arena import runner, table  # noqa: E402
from hotspot.arena.folder import RunConfigError, read_rows  # noqa: E402
from hotspot.arena.ledger import OUTSIDE_KEPT, read_ledger  # noqa: E402
from hotspot.arena.rowtable import column  # noqa: E402
from hotspot.arena.runner import run_games  # noqa: E402
from hotspot.arena.tournament import arena_run_config, plan_arena  # noqa: E402

PAIRS = [("random", "scripted")]


def _plan(games, seed=3):
    return plan_arena(PAIRS, games, scenario="open", seed=seed)  # 2 x games games


def _run(out, games=6, seed=3, config=True, **kw):
    specs = _plan(games, seed)
    cfg = arena_run_config(PAIRS, games, "open", seed, None, specs[0].max_turns) if config else None
    return run_games(specs, out, workers=1, progress=False, config=cfg, **kw)


def _by_rows(monkeypatch):
    """Make runs read the folder's rows by key, as a run of any specs does."""
    monkeypatch.setattr(runner._LedgerStore, "open", classmethod(lambda cls, *a, **k: None))


def _plain(rows):
    return [dict(r) for r in rows]


def test_a_planned_run_holds_a_number_a_game_and_reads_its_rows_back(tmp_path, monkeypatch):
    """A plan's run and its resume give the log's rows in plan order, less
    their actions, the same rows as the rows-by-key path; the resume plays
    nothing and never reads the rows by key."""
    out = tmp_path / "run"
    first = _run(out)
    assert isinstance(first.rows, table.ShardRows) and first.played == 12
    log = read_rows(out / "games.jsonl")
    specs = _plan(6)
    assert [r["key"] for r in first.rows] == [s.key for s in specs]
    assert _plain(first.rows) == [{k: v for k, v in log[s.key].items() if k != "actions"} for s in specs]
    monkeypatch.setattr(table, "summary_rows", lambda folder: pytest.fail("the rows by key were read"))
    again = _run(out)
    assert again.played == 0 and again.reused == 12 and _plain(again.rows) == _plain(first.rows)
    monkeypatch.undo()
    _by_rows(monkeypatch)
    old = _run(out)
    assert old.played == 0 and _plain(old.rows) == _plain(first.rows)
    for name in ("winner", "turns", "technocrat", "seed"):  # a column read alone is the rows' field
        assert list(column(first.rows, name)) == [r[name] for r in old.rows]


def test_the_first_row_of_a_key_wins_and_rows_past_the_shards_count(tmp_path):
    """A key given twice in the log counts once (its first row); rows the
    shards do not cover yet are read from the log and numbered after them."""
    out = tmp_path / "run"
    first = _run(out, games=3)
    lines = (out / "games.jsonl").read_bytes().splitlines(keepends=True)
    twin = json.loads(lines[0])
    twin["turns"] += 1000  # the same game's key, another row: not the one kept
    with open(out / "games.jsonl", "ab") as f:
        f.write(json.dumps(twin).encode() + b"\n")
    found = read_ledger(out, _plan(3))
    assert found is not None
    ledger, end, paths = found
    assert ledger.stored == 7 and ledger.held() == 6 and end < (out / "games.jsonl").stat().st_size
    again = _run(out, games=3)
    assert again.played == 0 and _plain(again.rows) == _plain(first.rows)


def test_a_grown_run_plays_only_its_new_games(tmp_path):
    """More games a side extend the same run: the ledger finds the old ones."""
    out = tmp_path / "run"
    _run(out, games=3)
    grown = _run(out, games=5)
    assert grown.reused == 6 and grown.played == 4
    assert [r["index"] for r in grown.rows] == [0, 1, 2, 3, 4] * 2


def test_rows_of_another_run_are_refused_with_their_reason(tmp_path):
    """A folder without run.json (an older version's) whose rows are games of
    another seed is refused, the reason named, and nothing is changed."""
    out = tmp_path / "run"
    _run(out, games=3, seed=3)
    (out / "run.json").unlink()
    before = (out / "games.jsonl").read_bytes()
    with pytest.raises(RunConfigError, match="seed: games.jsonl has games of another seed"):
        _run(out, games=3, seed=4)
    assert (out / "games.jsonl").read_bytes() == before and not (out / "run.json").exists()
    found = read_ledger(out, _plan(3, seed=4))
    assert found is not None and found[0].outside_count == 6 and len(found[0].outside) <= OUTSIDE_KEPT


def test_a_run_stopped_early_leaves_its_games_as_positions(tmp_path):
    """``max_games``: the games left are the plan's, made when read; a rerun
    plays them."""
    out = tmp_path / "run"
    part = _run(out, games=4, max_games=3)
    assert part.played == 3 and part.remaining == 5 and len(part.missing) == 5
    specs = _plan(4)
    done = {r["key"] for r in part.rows}
    assert [s.key for s in part.missing] == [s.key for s in specs if s.key not in done]
    rest = _run(out, games=4)
    assert rest.played == 5 and rest.remaining == 0 and len(rest.rows) == 8


def test_a_damaged_line_is_read_row_by_row_and_refused(tmp_path):
    """A damaged line past the shards: the ledger cannot say, and the run
    reads the log line by line, which numbers it and refuses it."""
    out = tmp_path / "run"
    _run(out, games=2)
    with open(out / "games.jsonl", "ab") as f:
        f.write(b'{"key": "cut short')
    assert read_ledger(out, _plan(2)) is None
    with pytest.raises(Exception, match="line 5"):
        _run(out, games=2)


def test_shard_rows_select_and_slice_by_position(tmp_path):
    """ShardRows' slices and selections are rows of the same folder at those positions."""
    out = tmp_path / "run"
    rows = _run(out, games=3).rows
    mask = np.array([r["technocrat"] == "random" for r in rows])
    assert _plain(rows.take(mask)) == [r for r in _plain(rows) if r["technocrat"] == "random"]
    assert _plain(rows[1:4]) == _plain(rows)[1:4] and len(rows[1:4]) == 3
