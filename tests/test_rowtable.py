"""A large run held as columns (``hotspot.arena.rowtable``) and planned
lazily (``hotspot.arena.match.Plan``): a resume of a run folder reads its
games from the Parquet shards into columns, not a dict a game, and plans its
games without making a spec a game.  Whatever the form, the rows, the specs,
their keys and every summary (scores by side, head to head, ratings by
seat) are the same as those of plain dicts and lists."""

from __future__ import annotations

import json
import math
import pickle

import numpy as np
import pytest

pytest.importorskip("pyarrow")

from hotspot.arena import table  # noqa: E402
from hotspot.arena.folder import read_rows  # noqa: E402
from hotspot.arena.match import GameSpec, Plan, SpecSeries, game_seeds, pick, spec_groups, spec_keys  # noqa: E402
from hotspot.arena.rating import seat_results  # noqa: E402
from hotspot.arena.rowtable import GameRows, RowsByKey, column  # noqa: E402
from hotspot.arena.runner import run_games  # noqa: E402
from hotspot.arena.tournament import head_to_head, plan_arena, ratings_table, side_table  # noqa: E402

PAIRINGS = [("random", "scripted"), ("random", "random")]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A finished run of a pairing and a self-play pairing, its shards written."""
    out = tmp_path_factory.mktemp("rows") / "run"
    run_games(plan_arena(PAIRINGS, 6, scenario="open", seed=5), out, workers=1, progress=False)
    return out


def _log(folder) -> dict:
    return {k: {f: v for f, v in r.items() if f != "actions"} for k, r in read_rows(folder / "games.jsonl").items()}


def _plain(value):
    """A summary with NaN made comparable (NaN == NaN) and numbers as floats."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        return round(float(value), 9)
    return value


def test_the_shards_columns_give_the_logs_rows_with_python_values(folder):
    """The rows read as columns are the log's rows less their actions, field
    for field, with Python values (an int, not a NumPy int; the rules a dict;
    a null ``judge`` None), whether read one at a time, by key, or in bulk."""
    log = _log(folder)
    rows = table.summary_rows(folder)
    assert isinstance(rows, RowsByKey) and isinstance(rows.stored, GameRows)
    assert set(rows) == set(log) and len(rows) == len(log)
    for key in log:
        assert rows[key] == log[key]
    for row in rows.stored:
        assert row == log[row["key"]]
        assert all(type(row[f]) is int for f in ("index", "seed", "turns", "actions_count"))
        assert type(row["truncated"]) is bool and type(row["wall_s"]) is float and type(row["rules"]) is dict
        assert row["judge"] is None
    assert rows.stored[-1] == log[rows.stored[-1]["key"]] and rows.stored[1:3] == [rows.stored[1], rows.stored[2]]
    with pytest.raises(IndexError):
        rows.stored[len(rows.stored)]


def test_rows_by_key_keep_a_keys_first_row_and_add_new_rows_after(folder):
    """As a scan of games.jsonl does, the first row of a key wins; a row set
    later is there by its key and in ``in_order``; a stored row is never
    replaced; the rows of keys asked for come in the order asked."""
    log = list(_log(folder).values())
    first, second = dict(log[0]), dict(log[0], wall_s=99.0)  # the same key twice
    stored = GameRows.from_dicts([first, *log[1:], second], list(log[0]))
    rows = RowsByKey(stored)
    assert len(rows) == len(log) and rows[first["key"]]["wall_s"] == first["wall_s"]
    with pytest.raises(KeyError):
        rows[first["key"]] = second
    new = dict(log[1], key="new")
    rows["new"] = new
    assert "new" in rows and rows["new"] == new and rows.absent(["new", "other", first["key"]]) == [False, True, False]
    order = ["new", log[2]["key"], "missing", log[1]["key"]]
    assert list(rows.in_order(order)) == [new, log[2], log[1]]


def test_every_summary_is_the_same_from_columns_and_from_dicts(folder):
    """Scores by side, head to head (with the pairs' interval), ratings by
    seat and the seats' results: the same numbers from the columns a resume
    reads and from the log's dicts."""
    specs = plan_arena(PAIRINGS, 6, scenario="open", seed=5)
    dicts = [_log(folder)[k] for k in spec_keys(specs)]
    cols = table.summary_rows(folder).in_order(spec_keys(specs))
    assert isinstance(cols, GameRows) and cols == dicts
    assert seat_results(cols) == seat_results(dicts)
    assert _plain(side_table(cols, specs)) == _plain(side_table(dicts, specs))
    assert _plain(head_to_head(cols, PAIRINGS)) == _plain(head_to_head(dicts, PAIRINGS))
    config = {"scenario": "open", "rules": {}, "max_turns": 200}
    assert _plain(ratings_table(cols, None, config)) == _plain(ratings_table(dicts, None, config))
    assert (column(cols, "winner") == column(dicts, "winner")).all()


def test_a_resume_of_the_folder_returns_its_rows_as_columns(folder):
    """A rerun with nothing left to play reads the folder's games as columns
    and gives the same rows, in plan order, as the log holds."""
    specs = plan_arena(PAIRINGS, 6, scenario="open", seed=5)
    again = run_games(specs, folder, workers=1, progress=False)
    assert again.played == 0 and isinstance(again.rows, GameRows)
    log = _log(folder)
    assert again.rows == [log[k] for k in spec_keys(specs)]


@pytest.mark.parametrize("adjudication", ["", "resign(score=0.95,turns=3)"])
def test_a_lazy_plan_is_the_specs_made_one_by_one(adjudication):
    """``plan_arena``'s Plan (series of specs made when read) holds exactly
    the specs, keys and order of one ``GameSpec(...)`` a game, game i of
    every side on one seed; its groups, slices and picks agree with a list."""
    plan = plan_arena([("a", "b"), ("c", "c")], 7, scenario="open", seed=2, adjudication=adjudication)
    assert isinstance(plan, Plan) and len(plan) == 21
    seeds = game_seeds(2, 7)
    made = [
        GameSpec(f"{p}:{q}", t, z, i, int(seeds[i]), scenario="open", adjudication=adjudication)
        for p, q, sides in [("a", "b", [("a", "b"), ("b", "a")]), ("c", "c", [("c", "c")])]
        for t, z in sides
        for i in range(7)
    ]
    assert list(plan) == made and [plan[i] for i in range(21)] == made and plan[-1] == made[-1]
    assert spec_keys(plan) == [s.key for s in made] == spec_keys(made)
    assert plan[5:9] == made[5:9]
    assert (
        spec_groups(plan)
        == spec_groups(made)
        == [(("a:b", "a", "b"), 7), (("a:b", "b", "a"), 7), (("c:c", "c", "c"), 7)]
    )
    flags = [i % 3 == 0 for i in range(21)]
    assert pick(plan, flags) == pick(made, flags) == made[::3]
    assert pickle.loads(pickle.dumps(plan[8])).key == made[8].key
    with pytest.raises(IndexError):
        plan[21]
    series = SpecSeries("a:b", "a", "b", seeds, scenario="open", adjudication=adjudication)
    assert list(series) == made[:7] and json.loads(series.keys[0])[0] == "a:b"


def test_rows_set_during_a_run_join_the_columns_and_stay_the_same(folder, monkeypatch, tmp_path):
    """A run keeps the rows it plays as columns once there are ``COMPACT`` of
    them (its memory a few hundred bytes a game, not a dict): every row
    stays readable by key and in order, and a run made so gives the log's
    rows."""
    monkeypatch.setattr(RowsByKey, "COMPACT", 3)
    log = list(_log(folder).values())
    rows = RowsByKey(names=list(log[0]))
    for row in log[:7]:
        rows[row["key"]] = row
    assert len(rows.stored) == 6 and len(rows) == 7
    assert [rows[r["key"]] for r in log[:7]] == log[:7]
    assert list(rows.in_order([r["key"] for r in reversed(log[:7])])) == log[:7][::-1]
    out = tmp_path / "run"
    specs = plan_arena(PAIRINGS, 4, scenario="open", seed=6)
    result = run_games(specs, out, workers=1, progress=False)
    played = _log(out)
    assert result.played == 12 and result.rows == [played[k] for k in spec_keys(specs)]


@pytest.mark.parametrize("as_list", [False, True])
def test_the_games_still_to_play_come_game_by_game_across_groups_in_tasks_of_one_group(as_list):
    """A run plays game 0 of every group (pairing, side, scenario, rules),
    then game 1 of every group, ... (a partial run covers every group), in
    tasks of one group's games taken in turn; the specs of a task are made
    when it is handed out, from a Plan or a list alike."""
    from hotspot.arena.runner import TaskList, pending_order, task_positions

    plan = plan_arena([("a", "b"), ("c", "c")], 9, scenario="open", seed=4)
    specs = list(plan) if as_list else plan
    absent = [i % 4 != 1 for i in range(len(plan))]  # some games already played
    order, gid, firsts = pending_order(specs, absent)
    todo = [s for s, a in zip(plan, absent) if a]
    rank = {}
    for s in todo:
        rank.setdefault((s.pairing, s.technocrat, s.ziegler), len(rank))
    expected = sorted(todo, key=lambda s: (s.index, rank[(s.pairing, s.technocrat, s.ziegler)]))
    assert [plan[int(i)] for i in order] == expected
    tasks = TaskList(specs, task_positions(order, gid, firsts, workers=1, chunk=2, compiled={}))
    played = [spec for task in tasks for spec in task]
    assert sorted(s.key for s in played) == sorted(s.key for s in expected) and len(played) == len(expected)
    for task in tasks:
        assert len(task) <= 2 and len({(s.pairing, s.technocrat, s.ziegler) for s in task}) == 1
    # the groups in turn, in the order of their first game still to play (game 0 of b:a was played)
    assert [(t[0].technocrat, t[0].ziegler) for t in tasks[:3]] == [("a", "b"), ("c", "c"), ("b", "a")]


def test_rows_held_as_columns_share_their_repeated_values():
    """The texts and rules a million rows repeat are held once (each played
    row brings its own copies); the keys stay as they are; an unhashable
    value is kept, not refused."""
    rows = [
        {"key": f"k{i}", "pairing": "".join(["random", ":random"]), "rules": {"crustal_move": 2}, "x": [i]}
        for i in range(4)
    ]
    held = GameRows.from_dicts(rows, ["key", "pairing", "rules", "x"])
    pairing, rules = held.column("pairing"), held.column("rules")
    assert rows[0]["pairing"] is not rows[1]["pairing"] and pairing[0] is pairing[3]
    assert rules[0] is rules[2] and list(held) == rows
