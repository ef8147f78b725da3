"""The arena: agents by name, games between agents (compiled and
Python paths agree and replay), Wilson intervals and Bradley-Terry ratings on
known inputs, ``hotspot arena`` end to end, resume after an interruption,
``hotspot balance`` and its plot, and the Ray backend on a local instance."""

import json
import math
import sys

import numpy as np
import pytest

from hotspot.agents import RandomAgent
from hotspot.agents.registry import (
    DEFAULT_MAX_SECONDS_PER_GAME,
    DEFAULT_ROUND_ROBIN_CORE_SECONDS,
    UnknownAgentError,
    agent_cost,
    agent_costs,
    default_agents,
    is_fast,
    round_robin_seconds,
    unregister_agent,
)
from hotspot.arena import (
    ArenaError,
    GameSpec,
    available_agents,
    bradley_terry,
    game_seed,
    make_agent,
    play_game,
    read_rows,
    record_from_row,
    register_agent,
    replay_row,
    run_arena,
    wilson_interval,
)
from hotspot.arena.match import agent_seeds, setup_seed
from hotspot.arena.stats import format_table
from hotspot.arena.tournament import parse_pairings, plan_arena, round_robin
from hotspot.cli import main
from hotspot.core.game import Game
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.design import run_balance
from hotspot.design.balance import parse_option, plot_balance

Z = 1.959963984540054  # the 97.5% normal quantile


class PyRandom(RandomAgent):
    """A random player without a compiled policy: its games take the Python path."""

    name = "pyrandom"
    policy_id = None


@pytest.fixture
def pyrandom():
    register_agent("pyrandom", PyRandom, "random, on the Python path", replace=True)
    yield "pyrandom"
    unregister_agent("pyrandom")


def _strip(row):
    return {k: v for k, v in row.items() if k not in ("wall_s",)}


# ------------------------------------------------------------ statistics


def _wilson(k, n):
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


@pytest.mark.parametrize("k,n", [(0, 10), (5, 10), (37, 100), (100, 100), (1, 3)])
def test_wilson_interval_matches_the_formula(k, n):
    lo, hi = wilson_interval(k, n)
    elo, ehi = _wilson(k, n)
    assert lo == pytest.approx(max(0.0, elo), abs=1e-9)
    assert hi == pytest.approx(min(1.0, ehi), abs=1e-9)
    assert lo <= k / n <= hi


def test_wilson_interval_of_no_games_is_nan():
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_bradley_terry_two_agents_known_answer():
    """A beats B 75 times in 100: the MLE is r_A - r_B = ln 3, 400 log10(3) Elo,
    with standard error 1 / sqrt(n p (1 - p))."""
    results = [("A", "B")] * 75 + [("B", "A")] * 25
    table = {r["agent"]: r for r in bradley_terry(results, regularization=0.0, anchor="B")}
    assert table["B"]["elo"] == 0.0
    assert table["A"]["elo"] == pytest.approx(400 * math.log10(3), abs=0.05)
    se = 1 / math.sqrt(100 * 0.75 * 0.25) * 400 / math.log(10)
    assert table["A"]["elo_se"] == pytest.approx(se, rel=1e-3)
    assert (table["A"]["wins"], table["A"]["losses"], table["A"]["games"]) == (75, 25, 100)
    # the default small penalty barely moves it
    default = {r["agent"]: r for r in bradley_terry(results, anchor="B")}
    assert default["A"]["elo"] == pytest.approx(400 * math.log10(3), abs=2.0)


def test_bradley_terry_recovers_known_strengths():
    """Expected (fractional) win counts of a known model give back its strengths."""
    strengths = {"a": 0.0, "b": 0.5, "c": 1.5, "d": -1.0}
    results = []
    names = sorted(strengths)
    for i, x in enumerate(names):
        for y in names[i + 1 :]:
            p = 1 / (1 + math.exp(-(strengths[x] - strengths[y])))
            results += [(x, y, 1000 * p), (y, x, 1000 * (1 - p))]
    table = {r["agent"]: r for r in bradley_terry(results, regularization=0.0, anchor="a")}
    for name, r in strengths.items():
        assert table[name]["strength"] == pytest.approx(r, abs=1e-4)
        assert table[name]["elo"] == pytest.approx(r * 400 / math.log(10), abs=0.02)
    ranked = [r["agent"] for r in bradley_terry(results, regularization=0.0)]
    assert ranked == ["c", "b", "a", "d"]
    mean_zero = bradley_terry(results, regularization=0.0)
    assert sum(r["elo"] for r in mean_zero) == pytest.approx(0.0, abs=1e-6)


def test_bradley_terry_unbeaten_agent_and_self_play():
    table = {r["agent"]: r for r in bradley_terry([("A", "B")] * 10 + [("C", "C")] * 5)}
    assert math.isfinite(table["A"]["elo"]) and table["A"]["elo"] > table["B"]["elo"]
    assert table["C"]["games"] == 0  # self-play is listed but not fitted
    assert bradley_terry([]) == []


def test_format_table_aligns_columns():
    text = format_table([{"a": "x", "b": 1.5}, {"a": "longer", "b": 10.25}], [("a", "name"), ("b", "val", ".2f")])
    lines = text.splitlines()
    assert lines[0].startswith("name") and len({len(line) for line in lines[2:]}) == 1
    assert lines[2].endswith(" 1.50") and lines[3].endswith("10.25")


# ------------------------------------------------------------ agents and games


def test_registry():
    assert "random" in available_agents()
    agent = make_agent("random", seed=3)
    assert agent.policy_id == 0
    with pytest.raises(UnknownAgentError, match="unknown agent"):
        make_agent("no-such-agent")
    register_agent("ghost", "hotspot.agents.no_such_module:Ghost")
    try:
        assert "ghost" not in available_agents()  # registered but not importable: not available
        with pytest.raises(UnknownAgentError, match="not available"):
            make_agent("ghost")
    finally:
        unregister_agent("ghost")
    with pytest.raises(ValueError):
        register_agent("bad:name", PyRandom)


def test_default_agents_are_the_cheap_ones_within_the_budget():
    """The default round robin: the available agents whose registered cost is
    at most DEFAULT_MAX_SECONDS_PER_GAME, in registration order, each joining
    only while the whole round robin's estimate (round_robin_seconds, 100
    games a side and pairing, self-play included) stays within
    DEFAULT_ROUND_ROBIN_CORE_SECONDS, so that the quick start's first table
    comes within a minute; an agent without a measured cost, or unavailable,
    is left out."""
    costs = agent_costs()
    cheap = [n for n in available_agents() if costs[n] is not None and costs[n] <= DEFAULT_MAX_SECONDS_PER_GAME]
    chosen = default_agents()
    assert chosen == [n for n in cheap if n in chosen]  # registration order, cheap ones only
    assert round_robin_seconds(chosen) <= DEFAULT_ROUND_ROBIN_CORE_SECONDS
    for left_out in set(cheap) - set(chosen):  # each left out would take the default over the budget
        assert round_robin_seconds(chosen + [left_out]) > DEFAULT_ROUND_ROBIN_CORE_SECONDS
    assert chosen[:2] == ["random", "scripted"]  # compiled: hundredths of a second a game
    for slow in ("mcts", "ismcts", "portfolio"):  # searches: seconds a game
        assert slow not in chosen
    # learned is cheap per game (a quarter of a second) but its 500 games of a three-agent round robin are not
    assert "learned" in cheap and "learned" not in chosen
    assert "learned" in default_agents(budget_core_seconds=1000)
    assert round_robin_seconds(["random", "scripted"]) == pytest.approx(100 * (0.005 + 3 * 0.03))
    assert round_robin_seconds(["random", "mcts"]) is None  # mcts has no measured cost
    assert agent_cost("portfolio") > DEFAULT_MAX_SECONDS_PER_GAME and agent_cost("mcts") is None
    assert is_fast("random") and not is_fast("portfolio") and is_fast("portfolio", max_seconds_per_game=10)
    assert "portfolio" in default_agents(max_seconds_per_game=10, budget_core_seconds=1e6)
    with pytest.raises(UnknownAgentError):
        agent_cost("no-such-agent")


def test_a_registered_agent_joins_the_default_by_its_cost(pyrandom):
    """A new agent is in the default round robin when registered with a cost
    under the threshold, not when slower or without a cost, nor when its
    module is missing; run_arena's default agents follow."""
    assert pyrandom not in default_agents()  # registered without a cost
    register_agent(pyrandom, PyRandom, replace=True, seconds_per_game=0.01)
    assert default_agents()[-1] == pyrandom
    register_agent(pyrandom, PyRandom, replace=True, seconds_per_game=DEFAULT_MAX_SECONDS_PER_GAME * 2)
    assert pyrandom not in default_agents()
    register_agent("ghost", "hotspot.agents.no_such_module:Ghost", seconds_per_game=0.01)
    try:
        assert "ghost" not in default_agents()
    finally:
        unregister_agent("ghost")
    for bad in (-1.0, float("nan"), float("inf"), "1", True):
        with pytest.raises(ValueError, match="seconds_per_game"):
            register_agent("bad-cost", PyRandom, seconds_per_game=bad)
    assert "bad-cost" not in agent_costs()


def test_default_arena_plays_the_default_agents(tmp_path, capsys):
    """``hotspot arena`` without --agents: the round robin of default_agents();
    --list-agents marks them."""
    summary = run_arena(games=1, out=tmp_path / "a", workers=1, progress=False)
    agents = default_agents()
    assert summary["config"]["pairings"] == [f"{a}:{b}" for a, b in round_robin(agents)]
    assert main(["arena", "--list-agents"]) == 0
    out = capsys.readouterr().out
    for name in agents:
        assert any(line.split()[:2] == [name, "default"] for line in out.splitlines())
    assert any(line.split()[:2] == ["mcts", "available"] for line in out.splitlines())


def test_seeds_are_fixed_and_distinct():
    seeds = [game_seed(0, i) for i in range(100)]
    assert len(set(seeds)) == 100 and all(0 <= s < 2**63 for s in seeds)
    assert seeds == [game_seed(0, i) for i in range(100)]
    assert game_seed(1, 0) != game_seed(0, 0)
    z, t = agent_seeds(seeds[0])
    assert z != t and setup_seed(seeds[0]) != seeds[0]


@pytest.mark.parametrize("scenario", ["standard", "random", "random:3"])
def test_compiled_and_python_paths_play_the_same_game_and_replay(scenario):
    spec = GameSpec(
        "random:random", "random", "random", 0, game_seed(5, 0), scenario, '{"platform_turns":5}', max_turns=4
    )
    fast = play_game(spec)
    slow = play_game(spec, force_python=True)
    assert fast["path"] == "compiled" and slow["path"] == "python"
    assert _strip(fast) | {"path": None} == _strip(slow) | {"path": None}
    game = replay_row(fast)
    assert game.record.actions == fast["actions"] and len(fast["actions"]) == fast["actions_count"]
    if scenario == "random":
        assert fast["setup"] == f"random:{setup_seed(spec.seed)}"
    assert Game.from_record(record_from_row(json.loads(json.dumps(fast)))).result() == fast["result"]


def test_mixed_game_takes_the_python_path(pyrandom):
    spec = GameSpec("random:pyrandom", "pyrandom", "random", 0, game_seed(0, 0))
    row = play_game(spec)
    assert row["path"] == "python"
    assert play_game(spec)["actions"] == row["actions"]  # agents reseeded from the game seed
    replay_row(row)


def test_plan_arena_sides_and_seeds():
    specs = plan_arena([("a", "b"), ("c", "c")], 3, seed=9)
    assert [(s.technocrat, s.ziegler) for s in specs] == [("a", "b")] * 3 + [("b", "a")] * 3 + [("c", "c")] * 3
    assert [s.seed for s in specs[:3]] == [s.seed for s in specs[3:6]] == [game_seed(9, i) for i in range(3)]
    assert round_robin(["x", "y"]) == [("x", "x"), ("x", "y"), ("y", "y")]
    assert round_robin(["x", "y"], self_play=False) == [("x", "y")]
    assert parse_pairings("a:b, c:d") == [("a", "b"), ("c", "d")]
    with pytest.raises(ArenaError):
        parse_pairings("a-b")
    assert parse_option("platform_turns=3,5") == ("platform_turns", [3, 5])
    assert parse_option("cia_enabled=false") == ("cia_enabled", [False])


# ------------------------------------------------------------ the arena


def test_arena_end_to_end(tmp_path, pyrandom):
    out = tmp_path / "arena"
    summary = run_arena(
        agents=["random", "pyrandom"],
        games=3,
        out=out,
        workers=2,
        progress=False,
        rules={"platform_turns": 5},
        max_turns=5,
    )
    assert {p.name for p in out.iterdir()} >= {"games.jsonl", "summary.json", "summary.csv", "ratings.csv"}
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    # random:random (one side), random:pyrandom (both sides), pyrandom:pyrandom (one side)
    assert len(rows) == summary["games"] == 3 + 6 + 3
    saved = json.loads((out / "summary.json").read_text())
    assert saved["games"] == 12 and saved["planned"] == 12 and len(saved["sides"]) == 4
    assert {r["agent"] for r in saved["ratings"]} == {"random", "pyrandom"}
    assert saved["head_to_head"][0]["games"] == 6
    csv_lines = (out / "summary.csv").read_text().splitlines()
    assert len(csv_lines) == 5 and csv_lines[0].startswith("pairing,technocrat,ziegler,games")
    for side in saved["sides"]:
        assert side["ci_low"] <= side["technocrat_win_rate"] <= side["ci_high"]
    assert "Scores by side" in summary["text"] and "Ratings" in summary["text"]
    for row in rows:  # every game replays to its recorded result
        assert row["rules"] == {"platform_turns": 5} and row["max_turns"] == 5
        replay_row(row)


def _totals(out):
    data = json.loads((out / "summary.json").read_text())
    return data["sides"], data["ratings"], data["games"]


def _no_time(sides):
    return [{k: v for k, v in s.items() if k != "mean_wall_s"} for s in sides]


def test_resume_gives_the_totals_of_an_uninterrupted_run(tmp_path):
    kwargs = dict(
        pairings=[("random", "random")], games=10, scenario="random", seed=4, workers=1, progress=False, max_turns=4
    )
    full = tmp_path / "full"
    run_arena(out=full, **kwargs)
    part = tmp_path / "part"
    first = run_arena(out=part, max_games=4, **kwargs)
    assert first["games"] == 4 and first["remaining"] == 6
    with open(part / "games.jsonl", "a") as f:  # a kill in the middle of writing a row
        f.write('{"key": "[\\"random:random\\", \\"ran')
    with pytest.raises(ArenaError, match="line 5: not valid JSON"):  # reported, not skipped
        run_arena(out=part, **kwargs)
    second = run_arena(out=part, drop_damaged=True, **kwargs)
    assert second["result"].played == 6 and second["result"].reused == 4 and second["remaining"] == 0
    third = run_arena(out=part, **kwargs)  # nothing left to play
    assert third["result"].played == 0
    s_full, r_full, n_full = _totals(full)
    s_part, r_part, n_part = _totals(part)
    assert n_full == n_part == 10
    assert _no_time(s_full) == _no_time(s_part) and r_full == r_part
    rows_full = {k: _strip(v) for k, v in read_rows(full / "games.jsonl").items()}
    rows_part = {k: _strip(v) for k, v in read_rows(part / "games.jsonl").items()}
    assert rows_full == rows_part


def test_cli_arena_and_replay(tmp_path, capsys):
    out = tmp_path / "cli"
    assert (
        main(
            [
                "arena",
                "--pairings",
                "random:random",
                "--games",
                "4",
                "--out",
                str(out),
                "--workers",
                "1",
                "--no-progress",
                "--option",
                "cia_enabled=false",
                "--max-turns",
                "6",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "95% CI" in text and "Ratings" in text and "Wall time" in text
    page = tmp_path / "game.html"
    assert main(["replay", str(out / "games.jsonl"), "--game", "2", "--html", str(page)]) == 0
    assert "Result:" in capsys.readouterr().out and page.stat().st_size > 1000
    assert main(["arena", "--pairings", "random:nobody", "--out", str(out)]) == 2
    assert "not available" in capsys.readouterr().err
    assert main(["arena", "--list-agents"]) == 0
    assert "random" in capsys.readouterr().out


class Cheat(RandomAgent):
    """Plays an illegal action."""

    name = "cheat"
    policy_id = None

    def act(self, info_state, mask, side):
        return int(np.flatnonzero(~mask)[0])


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_agent_is_a_clear_error(tmp_path, workers):
    register_agent("cheat", Cheat, replace=True)
    try:
        with pytest.raises(ArenaError, match="cheat"):
            run_arena(pairings=[("random", "cheat")], games=2, out=tmp_path, workers=workers, progress=False, chunk=1)
    finally:
        unregister_agent("cheat")


def test_ray_backend_missing_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(ArenaError, match="hotspot\\[ray\\]"):
        run_arena(pairings=[("random", "random")], games=2, out=tmp_path, backend="ray", progress=False)


# ------------------------------------------------------------ balance


def test_balance_grid_writes_table_and_png(tmp_path):
    out = tmp_path / "balance"
    summary = run_balance(
        scenarios=["standard", "random:1"],
        rules=[("platform_turns", [3, 5])],
        pairs=[("random", "random")],
        games=3,
        out=out,
        workers=1,
        progress=False,
    )
    assert summary["games"] == 12 and len(summary["cells"]) == 4
    png = (out / "balance.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    csv_lines = (out / "summary.csv").read_text().splitlines()
    assert len(csv_lines) == 5
    assert "platform_turns" in summary["text"] and "95% CI" in summary["text"] and "draws" in summary["text"]
    rows = list(read_rows(out / "games.jsonl").values())
    assert {json.dumps(r["rules"]) for r in rows} == {'{"platform_turns": 3}', '{"platform_turns": 5}'}
    for row in rows[:3]:
        replay_row(row)
    again = run_balance(
        scenarios=["standard", "random:1"],
        rules=[("platform_turns", [3, 5])],
        pairs=[("random", "random")],
        games=3,
        out=out,
        workers=1,
        progress=False,
    )
    assert again["result"].played == 0 and again["cells"] == summary["cells"]


def test_balance_plot_categories(tmp_path):
    cells = []
    for i, (scen, rules) in enumerate([("standard", {}), ("random", {}), ("standard", {"cia_enabled": False})]):
        for pair in (("random", "random"), ("scripted", "random")):
            lo, hi = wilson_interval(3 + i, 10)
            cells.append(
                {
                    "scenario": scen,
                    "rules": rules,
                    "technocrat": pair[0],
                    "ziegler": pair[1],
                    "games": 10,
                    "technocrat_win_rate": (3 + i) / 10,
                    "ci_low": lo,
                    "ci_high": hi,
                }
            )
    path = plot_balance(cells, tmp_path / "p.png")
    assert path.read_bytes()[:4] == b"\x89PNG"


def test_cli_balance(tmp_path, capsys):
    out = tmp_path / "bal"
    assert (
        main(
            [
                "balance",
                "--scenarios",
                "standard",
                "--option",
                "platform_turns=3,5",
                "--pair",
                "random:random",
                "--games",
                "2",
                "--out",
                str(out),
                "--workers",
                "1",
                "--no-progress",
            ]
        )
        == 0
    )
    assert "balance.png" in capsys.readouterr().out and (out / "balance.png").exists()
    assert main(["balance", "--option", "no_such_option=1", "--out", str(out), "--games", "1"]) == 2
    assert "no_such_option" in capsys.readouterr().err
    # D22 values by name; a bad one is refused before any game, in one line listing the valid ones
    assert main(["balance", "--option", "combat_table=d13,d14", "--out", str(out), "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "'d14' is not a valid value; valid: d13, diagonal" in err and err.count("\n") == 1
    assert main(["balance", "--option", "turn_limit=10,15", "--out", str(out), "--games", "1"]) == 2
    assert "--max-turns" in capsys.readouterr().err


# ------------------------------------------------------------ Ray


def test_ray_backend_local_instance(tmp_path):
    ray = pytest.importorskip("ray")
    kwargs = dict(pairings=[("random", "random")], games=6, seed=2, progress=False, chunk=2)
    local = run_arena(out=tmp_path / "local", workers=1, **kwargs)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_arena(out=tmp_path / "ray", backend="ray", **kwargs)
    finally:
        ray.shutdown()
    assert remote["games"] == 6
    assert _no_time(local["sides"]) == _no_time(remote["sides"])
    a = {k: _strip(v) for k, v in read_rows(tmp_path / "local" / "games.jsonl").items()}
    b = {k: _strip(v) for k, v in read_rows(tmp_path / "ray" / "games.jsonl").items()}
    assert a == b
    assert np.all([r["path"] == "compiled" for r in b.values()])


def test_cold_warm_up_compiles_the_scripted_player_in_a_helper_process(monkeypatch):
    """With two workers and numba's cache taken as cold, warm_up compiles the
    scripted heuristics in a helper process and the rules here; the compiled
    game then plays (the helper's part comes from the cache or is compiled here)."""
    from hotspot.arena import match

    assert isinstance(match.is_cached(match.play_match), bool)
    monkeypatch.setattr(match, "is_cached", lambda dispatcher: False)
    match.warm_up(compiled=True, workers=2)
    row = match.play_game(GameSpec("scripted:random", "scripted", "random", 0, 5))
    assert row["winner"] in ("technocrat", "ziegler")


# ------------------------------------------------------------ options and draws (D19 revised, D22)


@pytest.mark.parametrize(
    "text, message",
    [
        ("no_such_option=1", r"unknown rules option 'no_such_option'; valid options: .*combat_table \(d13, diagonal\)"),
        ("combat_table=d14", r"rules option combat_table: 'd14' is not a valid value; valid: d13, diagonal"),
        ("losses=automatic,nobody", r"rules option losses: 'nobody' is not a valid value; valid: automatic, owner"),
        ("platform_turns=0", r"rules option platform_turns: 0 is not a valid value; valid: integer in \[1, 1000\]"),
        ("cia_enabled=maybe", r"rules option cia_enabled: 'maybe' is not a valid value; valid: true or false"),
        ("turn_limit=10,15", r"'turn_limit' is no longer a rules option.*--max-turns"),
    ],
)
def test_balance_options_are_checked_against_rules_options(text, message):
    """`--option NAME=V1,V2` is checked against RulesOptions.describe(): an
    unknown name or a bad value is refused with one line listing the valid
    ones (turn_limit points to --max-turns: D19 revised)."""
    with pytest.raises(ArenaError, match=message) as info:
        parse_option(text)
    assert "\n" not in str(info.value)


def test_balance_accepts_the_d22_string_options(tmp_path):
    """D22's string-valued options sweep like any other; each game row records
    its options and its max_turns."""
    from hotspot.core.rules_data import CHOICE_OPTIONS

    for name, values in CHOICE_OPTIONS.items():
        assert parse_option(f"{name}={','.join(values)}") == (name, list(values))
    out = tmp_path / "d22"
    summary = run_balance(
        scenarios=["standard"],
        rules=[parse_option("combat_table=d13,diagonal"), parse_option("losses=automatic")],
        pairs=[("random", "random")],
        games=2,
        out=out,
        workers=1,
        progress=False,
        plot=False,
        max_turns=30,
    )
    assert [c["rules"] for c in summary["cells"]] == [
        {"combat_table": "d13", "losses": "automatic"},
        {"combat_table": "diagonal", "losses": "automatic"},
    ]
    rows = list(read_rows(out / "games.jsonl").values())
    assert sorted(r["rules"]["combat_table"] for r in rows) == ["d13", "d13", "diagonal", "diagonal"]
    assert all(r["max_turns"] == 30 and r["rules"]["losses"] == "automatic" for r in rows)
    assert summary["config"]["max_turns"] == 30
    for row in rows:
        replay_row(row)


def test_a_game_stopped_by_max_turns_is_a_draw_row():
    """D19 revised: a game stopped by max_turns has no winner: the row's winner
    fields are null, truncated is true, and it replays to the same stop."""
    spec = GameSpec("scripted:scripted", "scripted", "scripted", 0, game_seed(0, 0), max_turns=2)
    row = play_game(spec)
    assert row["truncated"] is True and row["turns"] == 2 and row["result"] == "ongoing"
    assert row["winner"] is None and row["winner_agent"] is None and row["loser_agent"] is None
    assert row["max_turns"] == 2
    game = replay_row(json.loads(json.dumps(row)))
    assert game.is_truncated() and game.winner() == -1
    slow = play_game(spec, force_python=True)
    assert _strip(slow) | {"path": None} == _strip(row) | {"path": None}
    with pytest.raises(ArenaError, match="max_turns"):
        GameSpec("a:b", "a", "b", 0, 0, max_turns=0)
    assert GameSpec("a:b", "a", "b", 0, 0).max_turns == DEFAULT_MAX_TURNS
    assert GameSpec("a:b", "a", "b", 0, 0, max_turns=None).key != GameSpec("a:b", "a", "b", 0, 0).key


def _row(tech, zieg, winner):
    """A games.jsonl row of pairing a:b with only what the tables read (winner: a side, None for a draw)."""
    agent = {"technocrat": tech, "ziegler": zieg}.get(winner)
    other = None if winner is None else (zieg if winner == "technocrat" else tech)
    return {
        "pairing": "a:b",
        "technocrat": tech,
        "ziegler": zieg,
        "winner": winner,
        "winner_agent": agent,
        "loser_agent": other,
        "truncated": winner is None,
        "turns": 10,
        "actions_count": 100,
        "wall_s": 0.0,
    }


def test_draws_are_half_a_point_in_their_own_column():
    """D19 revised: the arena counts a game stopped by max_turns as a draw:
    in its own column, half a point to each side in the win rates, the
    head-to-head score and Bradley-Terry; Wilson intervals use that score."""
    from hotspot.arena.tournament import head_to_head, ratings_table, side_table

    rows = (
        [_row("a", "b", "technocrat")] * 6
        + [_row("a", "b", "ziegler")] * 2
        + [_row("a", "b", None)] * 2
        + [_row("b", "a", "technocrat")] * 3
        + [_row("b", "a", None)] * 4
        + [_row("b", "a", "ziegler")] * 3
    )
    specs = plan_arena([("a", "b")], 10, max_turns=50)
    sides = {(s["technocrat"], s["ziegler"]): s for s in side_table(rows, specs)}
    ab = sides[("a", "b")]
    assert (ab["technocrat_wins"], ab["ziegler_wins"], ab["draws"]) == (6, 2, 2)
    assert ab["technocrat_win_rate"] == pytest.approx(0.7)  # (6 + 2/2) / 10
    assert (ab["ci_low"], ab["ci_high"]) == pytest.approx(wilson_interval(7, 10))
    ba = sides[("b", "a")]
    assert (ba["technocrat_wins"], ba["ziegler_wins"], ba["draws"]) == (3, 3, 4)
    assert ba["technocrat_win_rate"] == pytest.approx(0.5)
    (h2h,) = head_to_head(rows, [("a", "b")])
    # a: 6 wins as T + 3 as Z, 6 draws, 5 losses: (9 + 3) / 20
    assert (h2h["a_wins"], h2h["b_wins"], h2h["draws"]) == (9, 5, 6)
    assert h2h["a_score"] == pytest.approx(0.6)
    assert (h2h["wilson_low"], h2h["wilson_high"]) == pytest.approx(wilson_interval(12, 20))
    assert h2h["pairs"] == 0 and math.isnan(h2h["ci_low"])  # rows without seeds are no pairs
    assert h2h["a_as_technocrat_win_rate"] == pytest.approx(0.7)
    assert h2h["a_as_ziegler_win_rate"] == pytest.approx(0.5)
    ratings = {r["agent"]: r for r in ratings_table(rows)}
    assert (ratings["a"]["wins"], ratings["a"]["draws"], ratings["a"]["losses"]) == (9, 6, 5)
    assert ratings["a"]["score"] == pytest.approx(0.6)
    # the seat model fits a draw as half a win each way: a as Technocrat scored 7 of 10 against b as
    # Ziegler, so its rating there is b's Ziegler rating + 400 log10(7/3) (on the 2-point grid)
    a_t = ratings["a"]["technocrat"]["rating"]
    assert a_t - ratings["b"]["ziegler_rating"] == pytest.approx(400 * math.log10(7 / 3), abs=2.0)
    # all draws: each seat's rating equals the other side's
    even = {r["agent"]: r for r in ratings_table([_row("a", "b", None)] * 4)}
    assert even["a"]["technocrat_rating"] == pytest.approx(even["b"]["ziegler_rating"], abs=0.5)


def test_head_to_head_intervals_come_from_the_pairs_with_wilson_beside():
    """Game i with each agent in each seat on one seed is a pair: the head-to-head's 95% CI is the
    pairs' (hotspot.arena.pairs), the games' Wilson interval beside it."""
    from hotspot.arena.pairs import pair_interval
    from hotspot.arena.tournament import head_to_head

    rows = []
    for i, (first, second) in enumerate([("technocrat", "technocrat")] * 6 + [("technocrat", "ziegler")] * 4):
        rows.append(dict(_row("a", "b", first), index=i, seed=100 + i))
        rows.append(dict(_row("b", "a", second), index=i, seed=100 + i))
    (h2h,) = head_to_head(rows, [("a", "b")])
    # a wins every game as Technocrat; as Ziegler it wins 4 of 10: 6 pairs 1-1, 4 pairs 2-0
    assert h2h["pairs"] == 10 and h2h["pentanomial"] == [0, 0, 6, 0, 4]
    assert (h2h["ci_low"], h2h["ci_high"]) == pytest.approx(pair_interval([0, 0, 6, 0, 4]))
    assert (h2h["wilson_low"], h2h["wilson_high"]) == pytest.approx(wilson_interval(14, 20))
    assert h2h["ci_high"] - h2h["ci_low"] < h2h["wilson_high"] - h2h["wilson_low"]


def test_wilson_interval_with_draws_is_the_score_interval_and_not_narrower():
    """A score with draws (wins + draws/2) gets the Wilson interval of that
    fraction; for whole k it matches the formula, and half-points are allowed."""
    lo, hi = wilson_interval(7.5, 20)
    elo, ehi = _wilson(7.5, 20)
    assert (lo, hi) == pytest.approx((elo, ehi))
    assert lo < 7.5 / 20 < hi
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_arena_reports_draws_and_max_turns(tmp_path, capsys):
    """`hotspot arena --max-turns 2`: scripted games on the standard setup run
    past turn 2, so every game is a draw, shown in the draws column, scored
    half a point, with no win at the limit."""
    out = tmp_path / "draws"
    assert (
        main(
            [
                "arena",
                "--pairings",
                "scripted:scripted",
                "--games",
                "3",
                "--out",
                str(out),
                "--workers",
                "1",
                "--no-progress",
                "--max-turns",
                "2",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "draws" in text and "stopped after turn 2" in text
    saved = json.loads((out / "summary.json").read_text())
    (side,) = saved["sides"]
    assert side["draws"] == 3 and side["technocrat_wins"] == side["ziegler_wins"] == 0
    assert side["technocrat_win_rate"] == 0.5 and saved["config"]["max_turns"] == 2 and saved["draws"] == 3
    with pytest.raises(SystemExit):
        main(["arena", "--pairings", "random:random", "--out", str(out), "--max-turns", "zero"])
    assert "--max-turns" in capsys.readouterr().err


def test_deployment_search_writes_a_playable_best_deployment(tmp_path):
    """D21: the deployment search improves one side's set-up by batch
    simulation: candidates are that side's deployments (the opponent's part
    still left to the opponent), successive rounds keep the better half, the
    finalists play fresh seeds, and the best is a scenario file that plays."""
    import json

    from hotspot.arena import read_rows
    from hotspot.arena.match import game_seed
    from hotspot.core import Game
    from hotspot.core.scenario import load_scenario
    from hotspot.design.deployment import FINAL_SEED_OFFSET, search_deployment

    out = tmp_path / "search"
    s = search_deployment(
        "ziegler",
        opponent="random",
        agent="scripted",
        candidates=3,
        random_candidates=1,
        games=2,
        finalists=1,
        final_games=3,
        out=out,
        workers=1,
        progress=False,
        max_turns=30,
    )
    assert [len(r["candidates"]) for r in s["rounds"]] == [3, 2, 1]
    best = load_scenario(str(out / "best.json"))
    assert best["deploy"] == ["technocrat_platforms", "technocrat_units"]  # the Ziegler part is preset
    assert sum(p["kind"] != "platform" for p in best["pieces"]) >= 6
    game = Game(best, seed=1, max_turns=5)
    assert game.phase == 10  # the Technocrat deploys against the searched Ziegler set-up
    final = s["finalists"][0]
    assert final["games"] == 3 and 0.0 <= final["ci_low"] <= final["score"] <= final["ci_high"] <= 1.0
    last = max(int(p.name[5:]) for p in out.glob("round*"))
    seeds = {r["seed"] for r in read_rows(out / f"round{last}" / "games.jsonl").values()}
    assert seeds == {game_seed(0, FINAL_SEED_OFFSET + j) for j in range(3)}  # fresh seeds
    assert json.loads((out / "search.json").read_text())["best"] == str(out / "best.json")


def test_deployment_search_refuses_bad_arguments(tmp_path):
    from hotspot.design.deployment import search_deployment

    with pytest.raises(ArenaError, match="side must be one of"):
        search_deployment("neither", out=tmp_path)
    with pytest.raises(ArenaError, match="finalists"):
        search_deployment("ziegler", candidates=2, finalists=3, out=tmp_path)
    with pytest.raises(ArenaError, match="losses"):
        search_deployment("ziegler", rules={"losses": "robot"}, out=tmp_path)


def test_random_seed_too_long_to_read_is_refused_by_name(tmp_path, capsys):
    """A scenario 'random:SEED' whose seed has more digits than Python reads
    (4300) is refused with a message saying so, in the arena and the balance
    grid, before any game (found by the fuzzer, fuzz/)."""
    name = "random:" + "9" * 5000
    with pytest.raises(ArenaError, match="more than 4300 digits"):
        run_arena(agents=["random"], games=1, scenario=name, out=tmp_path / "a", workers=1, progress=False)
    assert (
        main(
            [
                "balance",
                "--scenarios",
                name,
                "--games",
                "1",
                "--pair",
                "random:random",
                "--workers",
                "1",
                "--no-progress",
                "--no-plot",
                "--out",
                str(tmp_path / "b"),
            ]
        )
        == 2
    )
    assert "more than 4300 digits" in capsys.readouterr().err
    assert not (tmp_path / "a" / "games.jsonl").exists()


def test_game_keys_and_seeds_made_fast_are_the_formats_own():
    """A game's key is the JSON list of its pairing, agents, scenario, rules,
    index, seed and turn limit (and adjudication rules when it has any), sorted
    keys, no spaces: the key every games.jsonl row holds; ``game_seeds`` is
    ``game_seed`` for a run of indices (one compiled call for a plan)."""
    import json

    from hotspot.arena.match import canonical_rules, game_key, game_seed, game_seeds

    def written(pairing, t, z, scenario, rules, index, seed, max_turns=None, adjudication=""):
        fields = [pairing, t, z, scenario, json.loads(canonical_rules(rules)), index, seed, max_turns or None]
        return json.dumps(fields + ([adjudication] if adjudication else []), sort_keys=True, separators=(",", ":"))

    cases = [
        ("a:b", "a", "b", "open", {}, 3, 99, 200, ""),
        ("x\u00e9:y", "x\u00e9", "y", "my.json", {"z": 1, "a": [1, 2]}, 0, 2**62, None, "resign(k=3)"),
        ("a:c", "a", "c", "random", '{"b": 2, "a": 1}', 5, 6, 0, ""),
    ]
    for case in cases:
        assert game_key(*case) == written(*case)
    assert game_seeds(7, 40) == [game_seed(7, i) for i in range(40)]
    assert game_seeds(2**64 - 3, 4) == [game_seed(2**64 - 3, i) for i in range(4)]  # wraps as game_seed does


@pytest.mark.parametrize(
    "settings",
    [
        {"scenario": "open"},
        {"scenario": "standard", "max_turns": None, "rules": '{"platform_move":3,"crustal_move":2}'},
        {"scenario": "open", "max_turns": 20, "adjudication": "resign(turns=3,score=0.95)"},
    ],
)
def test_a_series_of_specs_is_the_specs_made_one_by_one(settings):
    """``GameSpec.series`` (the planners' bulk path: a million specs in about
    a second) makes exactly the specs, and the keys, that one ``GameSpec(...)``
    a game makes: a resumed run finds its games by these keys."""
    import pickle

    from hotspot.arena.match import game_seeds

    seeds = game_seeds(11, 300)
    bulk = GameSpec.series("a:b", "a", "b", seeds, **settings)
    one_by_one = [GameSpec("a:b", "a", "b", i, int(seed), **settings) for i, seed in enumerate(seeds)]
    assert bulk == one_by_one
    assert [s.key for s in bulk] == [s.key for s in one_by_one] and len(set(s.key for s in bulk)) == 300
    assert all(type(s.seed) is int and type(s.index) is int for s in bulk)
    copy = pickle.loads(pickle.dumps(bulk[7]))  # as a worker process or Ray gets it
    assert copy == one_by_one[7] and copy.key == one_by_one[7].key and hash(copy) == hash(one_by_one[7])
