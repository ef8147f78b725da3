"""Arena folders: nothing in an arena folder is
skipped, lost or mixed without a word.

* a damaged games.jsonl line is reported with its line number, and a run
  refuses to resume over it, changing nothing, unless told to drop it;
* a folder remembers its configuration (run.json) and refuses another one,
  naming each setting that differs; the same configuration resumes, and more
  games extend the run;
* zero or negative counts are refused, by the command line and the API.

The games are tiny (random agents, a few games of at most 4 turns)."""

import json
import re

import pytest

from hotspot.arena import (
    ArenaError,
    DamagedFileError,
    GameSpec,
    RowError,
    RunConfigError,
    game_seed,
    play_game,
    record_from_row,
    run_arena,
    scan_games,
)
from hotspot.arena.folder import RUN_FILE, check_row, read_rows, scenario_digest
from hotspot.cli import main
from hotspot.core.game import Game
from hotspot.design import run_balance

ARENA = dict(
    pairings=[("random", "random")], games=3, scenario="random", seed=4, workers=1, progress=False, max_turns=4
)


def _cli(out, *extra):
    return [
        "arena",
        "--pairings",
        "random:random",
        "--games",
        "3",
        "--scenario",
        "random",
        "--seed",
        "4",
        "--workers",
        "1",
        "--max-turns",
        "4",
        "--no-progress",
        "--out",
        str(out),
        *extra,
    ]


def _snapshot(folder):
    """Every file of a folder, by relative path, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _lines(out):
    return (out / "games.jsonl").read_bytes().split(b"\n")


def _strip(rows):
    return {k: {f: v for f, v in row.items() if f != "wall_s"} for k, row in rows.items()}


@pytest.fixture(scope="module")
def row():
    """One valid games.jsonl row, of a game with a winner."""
    spec = GameSpec("random:random", "random", "random", 0, game_seed(0, 0), "standard", max_turns=None)
    row = play_game(spec)
    assert row["winner"] is not None
    return row


@pytest.fixture
def arena(tmp_path):
    """A finished arena folder (3 games)."""
    out = tmp_path / "arena"
    run_arena(out=out, **ARENA)
    return out


# ------------------------------------------------------------ damaged lines


def _without(row, name):
    return {k: v for k, v in row.items() if k != name}


DAMAGE = [  # (what is done to the row's line, the problem reported)
    (lambda r: b"not json at all", "not valid JSON"),
    (lambda r: json.dumps(r).encode()[:-7], "not valid JSON"),
    (lambda r: b"\xff\xfe" + json.dumps(r).encode(), "not UTF-8"),
    (lambda r: b"[" * 100_000, "not valid JSON"),
    (lambda r: b"[1, 2, 3]", "not a JSON object"),
    (lambda r: json.dumps(_without(r, "seed")).encode(), "missing field 'seed'"),
    (lambda r: json.dumps(_without(r, "max_turns")).encode(), "missing field 'max_turns'"),
    (lambda r: json.dumps(dict(r, seed="7")).encode(), "field 'seed' must be an integer"),
    (lambda r: json.dumps(dict(r, index=True)).encode(), "field 'index' must be an integer"),
    (lambda r: json.dumps(dict(r, seed=-1)).encode(), "field 'seed' must be an integer"),
    (lambda r: json.dumps(dict(r, rules=[])).encode(), "field 'rules' must be an object"),
    (lambda r: json.dumps(dict(r, max_turns=0)).encode(), "field 'max_turns'"),
    (lambda r: json.dumps(dict(r, actions=r["actions"] + [10**30])).encode(), "actions["),
    (lambda r: json.dumps(dict(r, actions=r["actions"][:-1])).encode(), "field 'actions_count'"),
    (lambda r: json.dumps(dict(r, wall_s=float("nan"))).encode(), "NaN is not a JSON value"),
    (lambda r: json.dumps(dict(r, wall_s=-1.0)).encode(), "field 'wall_s'"),
    (lambda r: json.dumps(dict(r, winner="nobody")).encode(), "field 'winner'"),
    (lambda r: json.dumps(dict(r, result="ongoing")).encode(), "field 'result'"),
    (lambda r: json.dumps(dict(r, index=r["index"] + 1)).encode(), "field 'key' does not match"),
    (lambda r: json.dumps(dict(r, setup="random:1")).encode(), "field 'setup'"),
]


@pytest.mark.parametrize("damage,problem", DAMAGE)
def test_a_damaged_line_is_reported_with_its_number(tmp_path, row, damage, problem):
    """Rule: every line of games.jsonl that is not a valid row (does not parse,
    is not an object, misses a field, has one of the wrong type or range, or
    does not agree with itself) is reported with its line number and what is
    wrong, and the valid lines around it are still read."""
    path = tmp_path / "games.jsonl"
    good = json.dumps(row).encode()
    path.write_bytes(good + b"\n\n" + damage(row) + b"\n" + good + b"\n")
    games = scan_games(path)
    assert [d.line for d in games.damaged] == [3]
    assert problem in games.damaged[0].problem
    assert list(games.rows) == [row["key"]]
    with pytest.raises(DamagedFileError, match=f"line 3: .*{re.escape(problem[:12])}"):
        read_rows(path)


def test_a_row_that_does_not_load_is_refused_before_replay(row):
    """Rule: a row goes through the validated loaders (check_row, the scenario
    loader) before compiled code replays it: a bad one is a RowError naming
    the field."""
    bad = dict(row, actions=[-1] + row["actions"][1:])
    with pytest.raises(RowError, match=r"actions\[0\]"):
        check_row(bad)
    with pytest.raises(RowError, match=r"actions\[0\]"):
        record_from_row(bad)
    with pytest.raises(RowError, match="scenario"):
        record_from_row(
            dict(
                row,
                scenario="no-such-scenario",
                setup="no-such-scenario",
                key=row["key"].replace('"standard"', '"no-such-scenario"'),
            )
        )
    assert Game.from_record(record_from_row(row)).is_terminal()


def test_a_damaged_line_is_refused_and_nothing_changes(arena, capsys):
    """Rule: a run refuses to resume over a damaged line (API and command
    line: exit code 2, the line number on stderr), and leaves every file of the
    folder as it was, byte for byte."""
    lines = _lines(arena)
    lines[1] = b'{"key": 3}'
    (arena / "games.jsonl").write_bytes(b"\n".join(lines) + b'{"key": "[\\"random:random\\", \\"ra')
    before = _snapshot(arena)
    with pytest.raises(DamagedFileError) as info:
        run_arena(out=arena, **dict(ARENA, games=5))
    assert "line 2: field 'key'" in str(info.value) and "line 4: not valid JSON" in str(info.value)
    assert "without its newline" in str(info.value) and "--drop-damaged" in str(info.value)
    assert _snapshot(arena) == before
    assert main(_cli(arena)) == 2
    err = capsys.readouterr().err
    assert err.startswith("hotspot: error:") and "2 damaged line(s): line 2" in err and "line 4" in err
    assert _snapshot(arena) == before


def test_drop_damaged_drops_the_lines_and_replays_their_games(tmp_path, arena, capsys):
    """Rule: with drop_damaged the damaged lines are dropped (a warning names
    them), the file is rewritten without them, and the run ends with every
    planned game: the same rows as a run never damaged."""
    clean = read_rows(arena / "games.jsonl")
    lines = _lines(arena)
    lines[0] = lines[0][:20]  # garbled
    (arena / "games.jsonl").write_bytes(b"\n".join(lines[:2]) + b"\n" + lines[2][:-1])  # last line cut
    summary = run_arena(out=arena, drop_damaged=True, **ARENA)
    assert "dropped" in capsys.readouterr().err and "line 1" in str(summary["result"].dropped[0])
    assert [d.line for d in summary["result"].dropped] == [1, 3]
    assert summary["result"].played == 2 and summary["result"].reused == 1 and summary["games"] == 3
    assert "Dropped 2 damaged line(s)" in summary["text"]
    games = scan_games(arena / "games.jsonl")
    assert games.damaged == [] and _strip(games.rows) == _strip(clean)
    assert (arena / "games.jsonl").read_bytes().endswith(b"\n")


def test_cli_drop_damaged(arena, capsys):
    """Rule: ``--drop-damaged`` on the command line drops the damaged lines, says
    which, and the run completes (exit 0)."""
    with open(arena / "games.jsonl", "ab") as f:
        f.write(b"}{\n")
    assert main(_cli(arena, "--games", "4", "--drop-damaged")) == 0
    out = capsys.readouterr()
    assert "dropped" in out.err and "line 4" in out.err
    assert "Games: 4 of 4 planned" in out.out and "Dropped 1 damaged line(s)" in out.out
    assert len(read_rows(arena / "games.jsonl")) == 4


def test_replay_warns_about_damaged_lines_and_replays_the_others(arena, capsys):
    """Rule: ``hotspot replay`` on a games.jsonl reports a damaged line (its
    number) instead of skipping it silently, and still replays a valid row."""
    with open(arena / "games.jsonl", "ab") as f:
        f.write(b"garbage\n")
    assert main(["replay", str(arena / "games.jsonl"), "--game", "1"]) == 0
    out = capsys.readouterr()
    assert "line 4: not valid JSON" in out.err and "Result:" in out.out


# ------------------------------------------------------------ run.json


def test_same_configuration_resumes_without_replaying(arena):
    """Rule: a rerun with the folder's configuration plays nothing and changes
    no game (run.json records the configuration when the run starts)."""
    config = json.loads((arena / RUN_FILE).read_text())["config"]
    assert config == {
        "kind": "arena",
        "pairings": ["random:random"],
        "scenario": "random",
        "scenario_files": {},
        "rules": {},
        "seed": 4,
        "max_turns": 4,
        "games": 3,
    }
    games_before = (arena / "games.jsonl").read_bytes()
    again = run_arena(out=arena, **dict(ARENA, workers=2, chunk=1))  # how it runs is not what it plays
    assert again["result"].played == 0 and again["result"].reused == 3
    assert (arena / "games.jsonl").read_bytes() == games_before


@pytest.mark.parametrize(
    "change,setting,old,new",
    [
        (dict(seed=5), "seed", "4", "5"),
        (dict(scenario="standard"), "scenario", '"random"', '"standard"'),
        (dict(max_turns=6), "max_turns", "4", "6"),
        (dict(max_turns=None), "max_turns", "4", "null"),
        (dict(rules={"platform_turns": 5}), "rules", "{}", '{"platform_turns": 5}'),
        (dict(pairings=[("random", "scripted")]), "pairings", '["random:random"]', '["random:scripted"]'),
        (dict(games=2), "games", "3", "2"),
    ],
)
def test_another_configuration_is_refused_naming_the_setting(arena, change, setting, old, new):
    """Rule: a run in a folder that holds another configuration is refused with
    the setting that differs, the folder's value and the new one; nothing in
    the folder changes (fewer games are refused too: the folder's summary
    would no longer describe its games)."""
    before = _snapshot(arena)
    with pytest.raises(RunConfigError) as info:
        run_arena(out=arena, **dict(ARENA, **change))
    assert f"{setting}: {old} in the folder, {new} now" in str(info.value)
    assert _snapshot(arena) == before


def test_cli_refuses_another_configuration(arena, capsys):
    """Rule: the command line refuses another configuration with exit code 2
    and names the setting."""
    before = _snapshot(arena)
    assert main(_cli(arena, "--seed", "9", "--option", "cia_enabled=false")) == 2
    err = capsys.readouterr().err
    assert "seed: 4 in the folder, 9 now" in err and 'rules: {} in the folder, {"cia_enabled": false} now' in err
    assert _snapshot(arena) == before


def test_more_games_extend_the_run(tmp_path, arena):
    """Rule: ``games`` may grow (game i's seed does not depend on the number of
    games): the old games are kept, only the new ones are played, and the
    folder ends as a run of the larger count from the start."""
    old = (arena / "games.jsonl").read_bytes()
    more = run_arena(out=arena, **dict(ARENA, games=5))
    assert more["result"].played == 2 and more["result"].reused == 3
    assert (arena / "games.jsonl").read_bytes().startswith(old)
    assert json.loads((arena / RUN_FILE).read_text())["config"]["games"] == 5
    fresh = tmp_path / "fresh"
    run_arena(out=fresh, **dict(ARENA, games=5))
    assert _strip(read_rows(arena / "games.jsonl")) == _strip(read_rows(fresh / "games.jsonl"))


def test_a_scenario_file_edited_between_runs_is_refused(tmp_path):
    """Rule: a scenario file's content is part of the configuration (a run
    reads it again on resume): an edit that changes the games is refused."""
    path = tmp_path / "mine.json"
    assert main(["scenario", "standard", "--out", str(path)]) == 0
    out = tmp_path / "arena"
    kwargs = dict(ARENA, scenario=str(path), games=1)
    run_arena(out=out, **kwargs)
    data = json.loads(path.read_text())
    data["description"] = "only the description changes: the same games"
    path.write_text(json.dumps(data))
    assert run_arena(out=out, **kwargs)["result"].played == 0
    data["rules"] = {"platform_turns": 5}
    path.write_text(json.dumps(data))
    with pytest.raises(RunConfigError, match="scenario_files: "):
        run_arena(out=out, **kwargs)


def test_a_builtin_scenario_changed_by_a_release_is_refused(tmp_path):
    """Rule: a built-in scenario's content is part of the configuration as a
    file's is (a release may change one: balanced-strong's garrison went from
    56 squads to 54), so a folder played on other content is refused; a
    run.json written before built-ins had a digest resumes by the name."""
    out = tmp_path / "arena"
    kwargs = dict(ARENA, scenario="open", games=1)
    run_arena(out=out, **kwargs)
    run_file = out / RUN_FILE
    doc = json.loads(run_file.read_text())
    assert doc["config"]["scenario_files"] == {"open": scenario_digest("open")}
    doc["config"]["scenario_files"] = {}  # an older version's run.json: the name alone
    run_file.write_text(json.dumps(doc))
    assert run_arena(out=out, **kwargs)["result"].played == 0
    doc["config"]["scenario_files"] = {"open": "0" * 64}  # the folder's games: another content of "open"
    run_file.write_text(json.dumps(doc))
    before = (out / "games.jsonl").read_bytes()
    with pytest.raises(RunConfigError, match="scenario_files: "):
        run_arena(out=out, **kwargs)
    assert (out / "games.jsonl").read_bytes() == before


def test_an_old_folder_without_run_json(arena):
    """Rule: a folder from an older version (no run.json) resumes when its games
    are games of this run (run.json is then written), and is refused, naming
    the setting, when they are not: rows of another run are not mixed in."""
    (arena / RUN_FILE).unlink()
    before = _snapshot(arena)
    for change, setting in (
        (dict(seed=5), "seed"),
        (dict(max_turns=6), "max_turns"),
        (dict(games=2), "games"),
        (dict(scenario="standard"), "scenario"),
    ):
        with pytest.raises(RunConfigError, match=f"no run.json.*{setting}: games.jsonl has"):
            run_arena(out=arena, **dict(ARENA, **change))
        assert _snapshot(arena) == before
    assert run_arena(out=arena, **ARENA)["result"].played == 0
    assert json.loads((arena / RUN_FILE).read_text())["config"]["seed"] == 4


def test_a_damaged_run_json_is_refused(arena):
    """Rule: a run.json that does not load is reported, not overwritten."""
    (arena / RUN_FILE).write_text("{")
    before = _snapshot(arena)
    with pytest.raises(RunConfigError, match="run.json: damaged"):
        run_arena(out=arena, **ARENA)
    assert _snapshot(arena) == before


def test_balance_remembers_its_grid(tmp_path):
    """Rule: ``hotspot balance`` keeps its configuration too: the same grid (its
    values in any order) resumes, another is refused naming the setting."""
    out = tmp_path / "balance"
    kwargs = dict(pairs=[("random", "random")], games=1, workers=1, progress=False, plot=False, max_turns=4)
    run_balance(out=out, rules=[("platform_turns", [3, 4])], **kwargs)
    again = run_balance(out=out, rules=[("platform_turns", [4, 3])], **kwargs)
    assert again["result"].played == 0
    before = _snapshot(out)
    with pytest.raises(
        RunConfigError,
        match=r"options: \{\"platform_turns\": \[3, 4\]\} in the folder, "
        r"\{\"platform_turns\": \[3, 5\]\} now",
    ):
        run_balance(out=out, rules=[("platform_turns", [3, 5])], **kwargs)
    with pytest.raises(RunConfigError, match='kind: "balance" in the folder, "arena" now'):
        run_arena(out=out, pairings=[("random", "random")], games=1, workers=1, progress=False, max_turns=4)
    assert _snapshot(out) == before


def test_deployment_search_remembers_its_settings(tmp_path):
    """Rule: a deployment search refuses another configuration before it
    rewrites a candidate, naming the setting."""
    from hotspot.design.deployment import search_deployment

    out = tmp_path / "search"
    kwargs = dict(
        opponent="random",
        agent="random",
        candidates=2,
        random_candidates=2,
        games=1,
        finalists=1,
        final_games=1,
        out=out,
        workers=1,
        progress=False,
        max_turns=4,
    )
    search_deployment("ziegler", **kwargs)
    before = _snapshot(out)
    with pytest.raises(RunConfigError, match="seed: 0 in the folder, 1 now"):
        search_deployment("ziegler", seed=1, **kwargs)
    assert _snapshot(out) == before
    with open(out / "round0" / "games.jsonl", "ab") as f:  # a round's games are checked too
        f.write(b"{")
    with pytest.raises(DamagedFileError, match="round0/games.jsonl: 1 damaged line"):
        search_deployment("ziegler", **kwargs)
    assert search_deployment("ziegler", drop_damaged=True, **kwargs)["finalists"][0]["games"] == 1


def test_cli_balance_refuses_and_drops_damaged_lines(tmp_path, capsys):
    """Rule: ``hotspot balance`` refuses a damaged line (exit 2, its number on
    stderr, nothing changed) and ``--drop-damaged`` drops it."""
    out = tmp_path / "balance"
    args = [
        "balance",
        "--pair",
        "random:random",
        "--games",
        "2",
        "--workers",
        "1",
        "--no-plot",
        "--max-turns",
        "4",
        "--no-progress",
        "--out",
        str(out),
    ]
    assert main(args) == 0
    with open(out / "games.jsonl", "ab") as f:
        f.write(b"[]\n")
    before = _snapshot(out)
    capsys.readouterr()
    assert main(args) == 2
    assert "line 3: not a JSON object" in capsys.readouterr().err and _snapshot(out) == before
    assert main(args + ["--drop-damaged"]) == 0
    assert "Dropped 1 damaged line(s)" in capsys.readouterr().out
    assert scan_games(out / "games.jsonl").damaged == []


# ------------------------------------------------------------ counts


@pytest.mark.parametrize(
    "args,name",
    [
        (["arena", "--games", "0"], "--games"),
        (["arena", "--games", "-3"], "--games"),
        (["arena", "--workers", "0"], "--workers"),
        (["arena", "--max-games", "0"], "--max-games"),
        (["arena", "--chunk", "-1"], "--chunk"),
        (["balance", "--games", "0"], "--games"),
        (["balance", "--max-actions", "0"], "--max-actions"),
        (["balance", "--search-deployment", "ziegler", "--final-games", "0"], "--final-games"),
        (["balance", "--search-deployment", "ziegler", "--finalists", "-2"], "--finalists"),
        (["balance", "--search-deployment", "ziegler", "--candidates", "1"], "--candidates"),
        (["balance", "--search-deployment", "ziegler", "--random-candidates", "-1"], "--random-candidates"),
        (["search-deployment", "ziegler", "--final-games", "0"], "--final-games"),
        (["search-deployment", "technocrat", "--candidates", "1"], "--candidates"),
        (["calibrate", "platform_turns=3..4", "--trials", "0"], "--trials"),
        (["calibrate", "platform_turns=3..4", "--halving", "--candidates", "1"], "--candidates"),
    ],
)
def test_cli_refuses_counts_below_one(tmp_path, capsys, args, name):
    """Rule: a count that is zero or negative (below 2 candidates; below 0
    random candidates) is refused by the command line: exit code 2, one
    line naming the argument, no folder written."""
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as info:
        main(args + ["--out", str(out), "--no-progress"])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert f"error: argument {name}: must be" in err[-1]
    assert not out.exists()


@pytest.mark.parametrize(
    "call,name",
    [
        (lambda out: run_arena(out=out, **dict(ARENA, games=0)), "games"),
        (lambda out: run_arena(out=out, **dict(ARENA, games=-3)), "games"),
        (lambda out: run_arena(out=out, **dict(ARENA, games=2.5)), "games"),
        (lambda out: run_arena(out=out, max_games=0, **ARENA), "max_games"),
        (lambda out: run_arena(out=out, **dict(ARENA, workers=0)), "workers"),
        (lambda out: run_balance(out=out, pairs=[("random", "random")], games=0, progress=False), "games"),
        (lambda out: run_balance(out=out, pairs=[("random", "random")], games=1, max_actions=0), "max_actions"),
    ],
)
def test_api_refuses_counts_below_one(tmp_path, call, name):
    """Rule: the Python API refuses zero or negative counts with an ArenaError
    (a ValueError) naming the argument, and writes nothing."""
    out = tmp_path / "out"
    with pytest.raises(ArenaError, match=f"^{name} must be a positive integer"):
        call(out)
    assert not out.exists()


def test_deployment_search_api_refuses_zero_games(tmp_path):
    from hotspot.design.deployment import search_deployment

    with pytest.raises(ArenaError, match="final_games must be a positive integer, got 0"):
        search_deployment("ziegler", final_games=0, out=tmp_path / "s")
    assert not (tmp_path / "s").exists()
