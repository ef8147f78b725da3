"""The game row, declared once (``hotspot.arena.gamerow``): the row
``play_game`` builds has the declared fields in the declared order, the
checks read the same declaration, and a games.csv line goes out and comes
back with the row's types; the committed games.csv files still load."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from hotspot.arena import RowError, play_game
from hotspot.arena.folder import check_row
from hotspot.arena.gamerow import (
    GAME_CSV_FIELDS,
    GAME_ROW_FIELDS,
    GAME_ROW_NAMES,
    OPTIONAL,
    GameRow,
    check,
    ended,
    from_csv_row,
    to_csv_row,
)
from hotspot.arena.match import GameSpec, game_seed

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def row():
    spec = GameSpec("random:random", "random", "random", 0, game_seed(0, 0), "standard", max_turns=3)
    return play_game(spec)


def test_the_row_has_the_declared_fields_in_order(row):
    assert tuple(row) == GAME_ROW_NAMES and len(GAME_ROW_FIELDS) == 23
    assert all(f.description and f.kind for f in GAME_ROW_FIELDS)
    assert check(row) is row and check_row(row) == row["key"]


def test_the_typed_row_is_the_declared_row():
    """GameRow (what the type checker sees) has the declared fields, in
    order, each of its declared kind (an object of rules options: a dict)."""
    hints = GameRow.__annotations__
    assert tuple(hints) == GAME_ROW_NAMES
    kinds = {f.name: ("dict[str, Any]" if f.kind == "dict" else f.kind) for f in GAME_ROW_FIELDS}
    assert {name: str(getattr(hint, "__forward_arg__", hint)) for name, hint in hints.items()} == kinds


@pytest.mark.parametrize("name", [n for n in GAME_ROW_NAMES if n not in OPTIONAL])
def test_a_missing_field_is_named(row, name):
    broken = {k: v for k, v in row.items() if k != name}
    with pytest.raises(RowError, match=f"missing field '{name}'"):
        check_row(broken)


def test_a_csv_line_goes_out_and_back_with_the_rows_types(row):
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=GAME_CSV_FIELDS, extrasaction="ignore")
    writer.writeheader()
    writer.writerow(to_csv_row(row))
    # the bytes the balance tool wrote before the row was declared
    before = io.StringIO()
    old = csv.DictWriter(before, fieldnames=GAME_CSV_FIELDS, extrasaction="ignore")
    old.writeheader()
    old.writerow(dict(row, rules=json.dumps(row.get("rules") or {}, sort_keys=True)))
    assert out.getvalue() == before.getvalue()
    (back,) = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert from_csv_row(back) == {name: row[name] for name in GAME_CSV_FIELDS}


def test_the_committed_games_csv_files_load():
    paths = sorted((ROOT / "benchmarks" / "results").rglob("games.csv"))
    assert paths
    for path in paths:
        with path.open(encoding="utf-8") as f:
            rows = [from_csv_row(r) for r in csv.DictReader(f)]
        assert rows and all(r["winner"] in (None, "technocrat", "ziegler") for r in rows), path
        assert all(isinstance(r["seed"], int) and isinstance(r["index"], int) for r in rows), path


def test_a_csv_column_that_is_no_field_is_refused():
    with pytest.raises(RowError, match="column 'colour' is not a game row field"):
        from_csv_row({"colour": "red"})


def test_a_row_written_before_the_ending_fields_still_checks_and_says_how_it_ended(row):
    """Rows written before ``ended``, ``judge`` and ``adjudication`` (every
    committed games.jsonl of an earlier release) keep their keys and read as
    played without adjudication: 'turn limit' for a draw, else 'rules'."""
    old = {k: v for k, v in row.items() if k not in OPTIONAL}
    assert check_row(old) == row["key"]
    assert ended(old) == ("turn limit" if old["winner"] is None else "rules")
    assert row["ended"] == ended(old) and row["judge"] is None and row["adjudication"] == ""


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("ended", "checkmate", "field 'ended' must be one of"),
        ("judge", 1.5, "field 'judge' must be a number in"),
        ("adjudication", 3, "field 'adjudication' must be a string"),
    ],
)
def test_a_bad_ending_field_is_named(row, field, value, message):
    with pytest.raises(RowError, match=message):
        check_row(dict(row, **{field: value}))


def test_an_ending_that_contradicts_the_winner_is_refused(row):
    """A drawn ending ('turn limit', 'no progress') has no winner; a decided one has one."""
    flipped = "rules" if row["winner"] is None else "turn limit"
    with pytest.raises(RowError, match="field 'ended' is"):
        check_row(dict(row, ended=flipped))
