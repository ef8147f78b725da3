"""Games as a table (``hotspot.arena.table``, ``hotspot export``): a run
folder keeps its rows as Parquet shards beside games.jsonl, added, never
rewritten; ``read_games`` reads a folder, a games.jsonl(.gz) or Parquet into
one typed DataFrame; the log stays the truth, so nothing is lost when a
shard or the log is damaged."""

from __future__ import annotations

import gzip
import json

import pytest

pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")

from hotspot.arena import table  # noqa: E402
from hotspot.arena.folder import read_rows  # noqa: E402
from hotspot.arena.gamerow import GAME_ROW_NAMES  # noqa: E402
from hotspot.arena.runner import run_games  # noqa: E402
from hotspot.arena.tournament import plan_arena  # noqa: E402
from hotspot.cli import main  # noqa: E402


def _run(out, games=6, **kw):
    specs = plan_arena([("random", "scripted")], games, scenario="open", seed=3)  # 2 x games games
    return run_games(specs, out, workers=1, progress=False, **kw)


def _same(frame, rows: dict):
    assert list(frame.columns) == list(GAME_ROW_NAMES)
    assert set(frame["key"]) == set(rows) and frame["key"].is_unique
    for rec in frame.to_dict("records"):
        row = rows[rec["key"]]
        assert [int(a) for a in rec["actions"]] == row["actions"]
        assert json.loads(rec["rules"]) == row["rules"]
        assert int(rec["seed"]) == row["seed"] and int(rec["turns"]) == row["turns"]
        assert (rec["winner"] if isinstance(rec["winner"], str) else None) == row["winner"]


def test_a_run_keeps_its_rows_as_shards_that_read_back_as_the_log(tmp_path):
    """A run writes games.parquet/ beside games.jsonl; pandas reads the
    folder's shards directly and read_games gives the log's rows, typed."""
    out = tmp_path / "run"
    _run(out)
    rows = read_rows(out / "games.jsonl")
    assert len(table.shards(out)) == 1
    _same(pd.read_parquet(out / table.SHARDS_DIR), rows)
    frame = table.read_games(out)
    _same(frame, rows)
    assert str(frame["seed"].dtype) == "Int64" and str(frame["truncated"].dtype) == "boolean"


def test_shards_are_added_never_rewritten(tmp_path):
    """A run that grows adds a shard for its new rows; the first is untouched."""
    out = tmp_path / "run"
    _run(out, games=4)
    (first,) = table.shards(out)
    before = first[2].stat()
    _run(out, games=8)
    shards = table.shards(out)
    assert len(shards) == 2 and shards[0] == first
    assert shards[0][2].stat().st_mtime_ns == before.st_mtime_ns and shards[0][2].stat().st_ino == before.st_ino
    assert shards[1][0] == first[1] and shards[1][1] == (out / "games.jsonl").stat().st_size
    _same(table.read_games(out), read_rows(out / "games.jsonl"))


def test_rows_past_the_shards_are_read_from_the_log(tmp_path, capsys):
    """Rows appended since the last sync (a run killed before it) are read
    from games.jsonl; a line cut short is skipped with a warning."""
    out = tmp_path / "run"
    _run(out, games=4)
    extra = tmp_path / "more"
    _run(extra, games=8)
    more = [r for k, r in read_rows(extra / "games.jsonl").items() if k not in read_rows(out / "games.jsonl")]
    with open(out / "games.jsonl", "a") as f:
        for row in more:
            f.write(json.dumps(row) + "\n")
        f.write('{"key": "cut sh')  # a kill in the middle of a row
    frame = table.read_games(out)
    assert "skipped 1 damaged line" in capsys.readouterr().err
    _same(frame, read_rows(extra / "games.jsonl"))
    assert len(table.shards(out)) == 1  # a reader writes nothing


def test_a_rewritten_log_retires_its_shards(tmp_path, capsys):
    """After --drop-damaged rewrites games.jsonl the shards no longer match
    its bytes: a reader says so and reads the log; the next run writes them
    again from the log, and loses nothing."""
    out = tmp_path / "run"
    _run(out, games=4)
    log = out / "games.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"not json\n" + b"".join(lines))  # a damaged first line: every byte moves
    frame = table.read_games(out)
    assert "no longer match" in capsys.readouterr().err
    _same(frame, _valid(lines))
    _run(out, games=4, drop_damaged=True)
    capsys.readouterr()
    (shard,) = table.shards(out)
    assert shard[0] == 0 and shard[1] == log.stat().st_size
    _same(table.read_games(out), read_rows(log))


def _valid(lines) -> dict:
    rows = [json.loads(x) for x in lines]
    return {r["key"]: r for r in rows}


def test_a_damaged_shard_is_one_line_and_the_next_run_writes_it_again(tmp_path):
    """A shard that is not Parquet: read_games of the folder falls back to the
    log with a warning; read_games of the shard itself is one line; a run
    rewrites the folder's shards from the log."""
    out = tmp_path / "run"
    _run(out, games=4)
    (_, _, path) = table.shards(out)[0]
    path.write_bytes(b"PAR1 not really")
    with pytest.raises(table.TableError, match="not a readable Parquet file"):
        table.read_games(path)
    _same(table.read_games(out), read_rows(out / "games.jsonl"))
    _run(out, games=4)
    _same(pd.read_parquet(out / table.SHARDS_DIR), read_rows(out / "games.jsonl"))


def test_read_games_reads_every_kind_of_source(tmp_path):
    """A games.jsonl, its .gz, a Parquet file and a folder of Parquet files give the same table."""
    out = tmp_path / "run"
    _run(out, games=3)
    rows = read_rows(out / "games.jsonl")
    gz = tmp_path / "games.jsonl.gz"
    gz.write_bytes(gzip.compress((out / "games.jsonl").read_bytes()))
    for source in (out / "games.jsonl", gz, out / table.SHARDS_DIR, table.shards(out)[0][2]):
        _same(table.read_games(source), rows)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{tmp}/nothing"], "not a run folder"),
        (["{tmp}/nothing", "--out", "{tmp}/x.parquet"], "no such file or folder"),
        (["{tmp}/empty"], "not a run folder"),
        (["{tmp}/run", "--out", "{tmp}/x.csv"], "name a .parquet file"),
        (["{tmp}/bad.jsonl", "--out", "{tmp}/x.parquet"], "line 1: not a game row"),
    ],
)
def test_export_refuses_bad_input_in_one_line(tmp_path, capsys, args, message):
    """hotspot export: a bad source or --out is one line naming it, nothing written."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "bad.jsonl").write_text('{"key": 1}\n')
    _run(tmp_path / "run", games=2)
    assert main(["export", *[a.format(tmp=tmp_path) for a in args]]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "x.parquet").exists()


def test_export_writes_one_file_and_brings_shards_up_to_date(tmp_path, capsys):
    """hotspot export FOLDER --out F.parquet writes the folder's games; without
    --out it writes the shards of a folder that has none (an older run's)."""
    out = tmp_path / "run"
    _run(out, games=3)
    for _, _, path in table.shards(out):
        path.unlink()
    assert main(["export", str(out), "--out", str(tmp_path / "g.parquet")]) == 0
    assert "6 game(s)" in capsys.readouterr().out
    _same(table.read_games(tmp_path / "g.parquet"), read_rows(out / "games.jsonl"))
    assert main(["export", str(out)]) == 0
    assert "6 game(s) added; 1 shard(s)" in capsys.readouterr().out
    _same(pd.read_parquet(out / table.SHARDS_DIR), read_rows(out / "games.jsonl"))


def test_a_failed_sync_warns_and_keeps_every_game(tmp_path, capsys, monkeypatch):
    """The shards are derived from the log: when writing them fails the run
    still ends well, says so on stderr, and the games are in games.jsonl."""

    def fail(folder):
        raise OSError("No space left on device")

    monkeypatch.setattr(table, "sync_shards", fail)
    out = tmp_path / "run"
    result = _run(out, games=2)
    assert "the Parquet shards were not written (OSError: No space left on device)" in capsys.readouterr().err
    assert len(read_rows(out / "games.jsonl")) == len(result.rows) == 4


def test_a_resume_reads_the_shards_and_gives_the_logs_rows(tmp_path, monkeypatch):
    """Resuming a folder whose shards cover its log finds the games from the
    shards (summary_rows), not a JSON parse of every line: the rows it
    returns are the log's, less their actions, and a resumed run plays
    nothing and keeps every game."""
    out = tmp_path / "run"
    first = _run(out, games=5)
    log = read_rows(out / "games.jsonl")
    assert all("actions" not in r for r in first.rows)  # the rows kept in memory: the log has the actions
    fast = table.summary_rows(out)
    assert fast is not None and set(fast) == set(log)
    for key, row in fast.items():
        assert row == {k: v for k, v in log[key].items() if k != "actions"}
    scanned = []
    monkeypatch.setattr("hotspot.arena.folder.scan_games", lambda path: scanned.append(path))  # must not be called
    again = _run(out, games=5)
    assert again.played == 0 and again.reused == 10 and not scanned
    assert again.rows == first.rows


def test_a_resume_falls_back_to_the_log_where_the_shards_cannot_say(tmp_path):
    """No shards, shards that no longer match the log, or a damaged line after
    them: summary_rows says None and the run reads the log line by line,
    which numbers the damaged lines and refuses them as ever."""
    out = tmp_path / "run"
    _run(out, games=3)
    table.remove_shards(out)
    assert table.summary_rows(out) is None
    _run(out, games=3)  # writes the shards again
    assert table.summary_rows(out) is not None
    with open(out / "games.jsonl", "ab") as f:
        f.write(b'{"key": "cut short')  # a write cut by a kill
    assert table.summary_rows(out) is None
    with pytest.raises(Exception, match="line 7"):
        _run(out, games=3)


def test_read_games_reads_the_columns_asked_and_iter_games_a_batch_at_a_time(tmp_path):
    """``columns=`` reads only those columns (a game given twice still counts
    once); ``iter_games`` gives the same games in batches of at most
    ``batch_rows``, from the shards and the rest of the log, in order; a
    column that is not a game row's is a one-line error."""
    out = tmp_path / "run"
    _run(out, games=5)
    _run(out, games=7)  # a second shard
    with open(out / "games.jsonl", "ab") as f:  # a game given twice, past the shards
        f.write(open(out / "games.jsonl", "rb").readline())
    whole = table.read_games(out)
    assert len(whole) == 14 and whole["key"].is_unique
    slim = table.read_games(out, columns=["winner", "turns"])
    assert list(slim.columns) == ["winner", "turns"] and len(slim) == 14
    assert slim["turns"].tolist() == whole["turns"].tolist()
    batches = list(table.iter_games(out, batch_rows=4))
    assert all(len(b) <= 4 for b in batches) and len(batches) >= 4
    joined = pd.concat(batches, ignore_index=True)
    assert joined["key"].tolist() == whole["key"].tolist()
    assert [list(a) for a in joined["actions"]] == [list(a) for a in whole["actions"]]
    for bad, message in ((["winner", "colour"], "no column 'colour'"), ([], "names no column")):
        with pytest.raises(table.TableError, match=message):
            table.read_games(out, columns=bad)
    with pytest.raises(table.TableError, match="batch_rows"):
        next(table.iter_games(out, batch_rows=0))
