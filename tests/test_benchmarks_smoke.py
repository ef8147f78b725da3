"""Smoke runs of the benchmark suite (benchmarks/), the soak
(``python -m soak.soak``), the fuzzer (``python -m fuzz``) and expert iteration
(``python -m training.train_expert``).

Each script runs once with ``--tiny`` in a subprocess (seconds each once the
core is compiled) writing its JSON to a temporary directory; the tests check
that the scripts finish and that their JSON has the expected keys.  They
never assert anything about timings: tiny numbers mean nothing.  The
OpenSpiel rows are only expected when ``pyspiel`` is installed.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
SCRIPTS = ("core", "nojit", "env", "openspiel", "memory", "compile", "profile", "playout", "legality")
HAVE_PYSPIEL = importlib.util.find_spec("pyspiel") is not None
# generous: on a fresh checkout the first script to run compiles the core
TIMEOUT_S = 1200

MACHINE_KEYS = {"platform", "cpu_model", "cpu_count", "usable_cores", "numba_num_threads", "python", "numba", "numpy"}
DOC_KEYS = {"benchmark", "tiny", "machine", "command", "time_utc", "config", "rows", "summary", "notes"}


def run(args, cwd=ROOT):
    proc = subprocess.run(
        [sys.executable, *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env=dict(os.environ),
    )
    assert proc.returncode == 0, f"{args} failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return proc


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """``tiny(name)``: run ``bench_<name>.py --tiny`` once (per test module); its JSON and stdout."""
    out_dir = tmp_path_factory.mktemp("bench")
    done = {}

    def get(name):
        if name not in done:
            out = out_dir / f"{name}.json"
            proc = run([BENCH / f"bench_{name}.py", "--tiny", "--out", out])
            done[name] = (json.loads(out.read_text()), proc.stdout)
        return done[name]

    get.dir = out_dir
    return get


def check_doc(doc, name, summary_keys, row_keys):
    assert DOC_KEYS <= doc.keys()
    assert doc["benchmark"] == name and doc["tiny"] is True
    assert MACHINE_KEYS <= doc["machine"].keys()
    assert doc["command"] and isinstance(doc["config"], dict)
    assert summary_keys <= doc["summary"].keys(), summary_keys - doc["summary"].keys()
    assert doc["rows"], "no rows"
    for row in doc["rows"]:
        assert row_keys <= row.keys(), row_keys - row.keys()


def positive(x):
    return isinstance(x, (int, float)) and x > 0


def test_bench_core(tiny):
    doc, stdout = tiny("core")
    check_doc(
        doc,
        "core",
        {
            "reference_batch",
            "threads_all",
            "ref_actions_per_s_1_thread",
            "ref_actions_per_s_2_threads",
            "ref_actions_per_s_all_threads",
            "scaling_2_vs_1",
            "scaling_all_vs_1",
            "actions_per_game",
        },
        {"batch", "threads", "actions_per_s", "games_per_s", "actions_per_game", "samples"},
    )
    assert {r["batch"] for r in doc["rows"]} == set(doc["config"]["batches"])
    assert 1 in {r["threads"] for r in doc["rows"]}
    assert all(positive(r["actions_per_s"]) for r in doc["rows"])
    assert "actions/s" in stdout


def test_bench_nojit(tiny):
    doc, stdout = tiny("nojit")
    check_doc(
        doc,
        "nojit",
        {"nojit_actions_per_s", "jit_actions_per_s", "speedup_jit_vs_nojit", "same_work"},
        {"mode", "jit_disabled", "actions_per_s", "actions_per_call", "batch", "max_actions"},
    )
    assert [r["jit_disabled"] for r in doc["rows"]] == [True, False]
    assert positive(doc["summary"]["speedup_jit_vs_nojit"])
    assert "compiled / uncompiled" in stdout


def test_bench_env(tiny):
    doc, stdout = tiny("env")
    check_doc(
        doc,
        "env",
        {
            "num_envs",
            "env_steps_per_s",
            "env_atomic_actions_per_s",
            "env_atomic_per_step",
            "vector_steps_per_s_all_threads",
            "vector_atomic_actions_per_s_all_threads",
            "vector_atomic_per_step",
            "core_actions_per_s_1_thread",
            "core_actions_per_s_all_threads",
            "vector_vs_core_all_threads",
            "vector_vs_core_1_thread",
        },
        {
            "what",
            "batch",
            "threads",
            "steps_per_s",
            "atomic_actions_per_s",
            "atomic_per_step",
            "vs_core_1_thread",
            "vs_core_same_threads",
        },
    )
    whats = {r["what"] for r in doc["rows"]}
    assert {"HotspotEnv", "HotspotVectorEnv", "HotspotVectorEnv compact", "core play_random_batch"} <= whats
    assert 0 <= doc["summary"]["vector_sampler_share_all_threads"] < 1
    assert positive(doc["summary"]["compact_vector_vs_core_all_threads"])
    # a step is the learner's action and the opponent's replies: at least one atomic action
    assert doc["summary"]["env_atomic_per_step"] >= 1 and doc["summary"]["vector_atomic_per_step"] >= 1


def test_bench_openspiel(tiny):
    doc, stdout = tiny("openspiel")
    check_doc(
        doc,
        "openspiel",
        {
            "available",
            "core_batch",
            "core_actions_per_s_1_thread",
            "chess_actions_per_s",
            "backgammon_actions_per_s",
            "core_vs_chess",
            "core_vs_backgammon",
        },
        {"what", "game", "actions_per_s", "games_per_s", "actions_per_game", "core_vs_this"},
    )
    assert doc["summary"]["available"] is HAVE_PYSPIEL
    games = {r["game"] for r in doc["rows"]}
    assert "hotspot" in games
    if HAVE_PYSPIEL:
        assert {"chess", "backgammon"} <= games
        assert positive(doc["summary"]["core_vs_chess"])
    else:
        assert games == {"hotspot"} and doc["summary"]["core_vs_chess"] is None
        assert "pyspiel is not installed" in stdout


def test_bench_memory(tiny):
    doc, _ = tiny("memory")
    check_doc(
        doc,
        "memory",
        {
            "state_bytes",
            "state_target_bytes",
            "state_within_target",
            "games",
            "peak_rss_delta_bytes",
            "peak_rss_bytes_per_game",
            "tracemalloc_peak_bytes",
        },
        {"what", "bytes", "per_game"},
    )
    state_bytes = doc["summary"]["state_bytes"]
    assert positive(state_bytes) and doc["worker"]["state_bytes"] == state_bytes
    assert doc["worker"]["batch_nbytes"] == state_bytes * doc["summary"]["games"]


def test_bench_compile(tiny):
    doc, _ = tiny("compile")
    check_doc(
        doc,
        "compile",
        {
            "fresh_cache",
            "first_process_first_step_s",
            "second_process_first_step_s",
            "target_second_start_s",
            "second_start_within_target",
        },
        {"phase", "first_process_s", "second_process_s"},
    )
    assert doc["summary"]["fresh_cache"] is False  # tiny uses the project's cache
    phases = [r["phase"] for r in doc["rows"]]
    assert "step" in phases and "TIME TO FIRST STEP (from spawn)" in phases
    assert positive(doc["summary"]["second_process_first_step_s"])


def test_bench_profile(tiny):
    """Where an action's time goes (mask, apply, choice) and the
    measurements behind the two-thread scaling."""
    doc, stdout = tiny("profile")
    check_doc(
        doc,
        "profile",
        {
            "apply_ns",
            "mask_ns",
            "choice_ns",
            "total_ns",
            "mask_by_phase_class",
            "scaling_2_threads",
            "scaling_2_threads_dynamic",
            "scaling_2_processes",
            "static_imbalance",
        },
        {"actions", "seconds", "actions_per_s"},
    )
    s = doc["summary"]
    # at tiny sizes the parts are differences of a few milliseconds' timings (the copy's
    # time taken off): noise on a shared machine can make one negative, so only finite here
    assert all(math.isfinite(s[k]) for k in ("total_ns", "apply_ns", "mask_ns", "choice_ns"))
    # the parts add up to the whole by construction (differences of the replays)
    assert abs(s["apply_ns"] + s["mask_ns"] + s["choice_ns"] - s["total_ns"]) < 1e-6 * s["total_ns"] + 1e-9
    assert {r["class"] for r in s["mask_by_phase_class"]} <= {
        "crustal movement",
        "unit movement",
        "combat",
        "control",
        "set-up",
        "loss choice",
    }
    assert s["static_imbalance"] >= 1.0
    assert "Where an atomic action's time goes" in stdout
    # the scripted play-out profile, by phase class (timings at tiny sizes are noise)
    sp = s["scripted"]
    assert sp["decisions"] > 100 and sp["games"] == 2
    assert {r["class"] for r in sp["by_class"]} <= {
        "set-up",
        "crustal movement",
        "unit movement",
        "combat",
        "control",
        "loss choice",
    }
    assert abs(sum(r["share_of_decisions"] for r in sp["by_class"]) - 1.0) < 1e-9
    assert "A scripted decision on open" in stdout


def test_bench_playout(tiny):
    """The play-out players against a reference, the same games on
    the same seeds (the tiny run: this tree against itself)."""
    doc, stdout = tiny("playout")
    check_doc(
        doc,
        "playout",
        {"reference", "random_ratio", "scripted_ratio", "ismcts_ratio"},
        {"workload", "this", "reference", "ratio", "same_games"},
    )
    assert [r["workload"] for r in doc["rows"]] == ["random", "scripted", "ismcts"]
    assert all(r["same_games"] for r in doc["rows"])  # the same code plays the same games
    assert all(positive(r["this"]) and positive(r["reference"]) for r in doc["rows"])
    assert "Play-out speed" in stdout


def test_bench_legality(tiny):
    """The fast legal-action list agrees with action_error before
    every action of random and scripted games (the run fails otherwise)."""
    doc, stdout = tiny("legality")
    check_doc(
        doc,
        "legality",
        {"random_games", "scripted_games", "actions_checked", "disagreements"},
        {"kind", "games", "actions_checked", "disagreements"},
    )
    s = doc["summary"]
    assert s["disagreements"] == 0
    assert s["random_games"] == 200 and s["scripted_games"] == 6
    assert s["actions_checked"] > 200 * 20
    assert "legal_actions against action_error" in stdout


def test_run_all_report(tiny):
    for name in SCRIPTS:
        tiny(name)
    md = tiny.dir / "report.md"
    proc = run([BENCH / "run_all.py", "--reuse", "--results-dir", tiny.dir, "--markdown", md])
    doc = json.loads((tiny.dir / "all.json").read_text())
    assert {"machine", "command", "tiny", "targets", "results", "failures"} <= doc.keys()
    assert doc["tiny"] is True and doc["failures"] == []
    assert set(doc["results"]) == set(SCRIPTS)
    assert len(doc["targets"]) == 12
    assert {t["status"] for t in doc["targets"]} <= {"PASS", "FAIL", "N/A"}
    assert all({"target", "value", "threshold", "status", "measured"} <= t.keys() for t in doc["targets"])
    text = md.read_text()
    assert "| target | measured | status |" in text and "tiny smoke run" in text
    assert "### Targets" in proc.stdout


def test_bench_strength(tmp_path):
    """The strength script plays every claim's pairings as both sides
    (one game each when tiny), rates each side with a Wilson interval and a
    verdict, and keeps every game in its arena folder and, by seed, winner and
    turns, in the JSON file (a clone has the games behind every claim)."""
    out = tmp_path / "strength.json"
    run([BENCH / "bench_strength.py", "--tiny", "--out", out, "--runs-dir", tmp_path / "runs", "--workers", "1"])
    doc = json.loads(out.read_text())
    check_doc(
        doc,
        "bench_strength",
        {"scripted", "learned", "search"},
        {"agent", "opponent", "side", "games", "win_rate", "ci_low", "ci_high", "verdict"},
    )
    claims = doc["claims"]
    assert {r["side"] for r in claims["search"]["rows"]} == {"technocrat", "ziegler"}
    assert claims["search"]["baseline"] and claims["search"]["scenario"] == "random"
    assert claims["search"]["rule"] == "score" and claims["search"]["score"]["games"] == 2
    assert all(c["verdict"] in ("holds", "does not hold", "undecided") for c in claims.values())
    for claim in claims.values():
        for r in claim["rows"] + claim["baseline"]:
            assert r["games"] == 1 and 0.0 <= r["ci_low"] <= r["win_rate"] <= r["ci_high"] <= 1.0
            assert r["verdict"] in (
                ("see score",) if claim["rule"] == "score" else ("holds", "does not hold", "undecided")
            )
    assert (tmp_path / "runs" / "search" / "games.jsonl").exists()
    for claim in claims.values():
        played = {
            f"{r['agent']}:{r['opponent']}" if r["side"] == "technocrat" else f"{r['opponent']}:{r['agent']}"
            for r in claim["rows"] + claim["baseline"]
        }
        assert set(claim["games"]) == played
        for cell in claim["games"].values():
            assert len(cell["seeds"]) == len(cell["turns"]) == len(cell["winners"]) == 1
            assert set(cell["winners"]) <= set("TZ-") and cell["turns"][0] >= 1
    rows = {(r["agent"], r["side"]): r for r in claims["search"]["rows"]}
    cell = claims["search"]["games"]["mcts(max_candidates=4,simulations=2):scripted"]
    assert (
        rows[("mcts(max_candidates=4,simulations=2)", "technocrat")]["win_rate"]
        == {"T": 1.0, "Z": 0.0, "-": 0.5}[cell["winners"]]
    )


def test_bench_ladder(tmp_path):
    """The ladder script: a round robin of the agents on each
    scenario (two games a side when tiny), Bradley-Terry ratings with 95%
    intervals, each pairing's Wilson interval, the expected order's rungs
    judged, an unavailable agent left out with a note; ladder.json and
    ladder.md written, every game kept in the arena folder; a rerun resumes."""
    out = tmp_path / "ladder.json"
    args = [
        BENCH / "bench_ladder.py",
        "--tiny",
        "--agents",
        "random,scripted,no-such-agent",
        "--out",
        out,
        "--runs-dir",
        tmp_path / "runs",
        "--workers",
        "1",
    ]
    proc = run(args)
    assert "note: no-such-agent left out" in proc.stdout
    doc = json.loads(out.read_text())
    check_doc(
        doc,
        "bench_ladder",
        {"standard", "open"},
        {
            "scenario",
            "agent",
            "rating",
            "rating_low",
            "rating_high",
            "rating_text",
            "games",
            "score",
            "seconds_per_game",
        },
    )
    assert doc["config"]["agents"] == ["random", "scripted"] and doc["config"]["games_per_side"] == 2
    assert doc["skipped"] == [{"agent": "no-such-agent", "why": "not registered"}]
    for scenario in ("standard", "open"):
        lad = doc["ladders"][scenario]
        assert {r["agent"] for r in lad["ratings"]} == {"random", "scripted"}
        for r in lad["ratings"]:
            assert r["games"] == 4
        # random never wins against scripted: its rating is an upper bound, not an interval
        # (on open, the protocol's scenario, both hold their published ratings instead)
        random_row = next(r for r in lad["ratings"] if r["agent"] == "random")
        assert random_row["rating_low"] is None and "scripted" in random_row["anchor"]
        if scenario == "standard":
            assert random_row["rating_text"].startswith("< ")
        (pair,) = lad["pairings"]
        assert pair["games"] == 4 and 0.0 <= pair["ci_low"] <= pair["score"] <= pair["ci_high"] <= 1.0
        first, *rest = lad["rungs"]
        assert (first["lower"], first["higher"], first["games"]) == ("random", "scripted", 4)
        assert first["verdict"] in ("holds", "does not hold", "undecided")
        assert [r["verdict"] for r in rest] == ["not played", "not played"]  # no ismcts in this ladder
        assert lad["order_verdict"] in ("undecided", "does not hold")
        assert doc["summary"][scenario]["rungs"]["random<scripted"] == first["verdict"]
        games = (tmp_path / "runs" / scenario / "games.jsonl").read_text().splitlines()
        assert len(games) == 4 and all("seed" in json.loads(g) for g in games)
    md = out.with_suffix(".md").read_text()
    assert (
        "#### `standard`" in md
        and "#### `open`" in md
        and "| rank | agent | rating | as Technocrat | as Ziegler |" in md
    )
    assert "`random` < `scripted`" in md and "not played" in md
    again = run(args)  # resumes: nothing left to play
    assert "0 game(s) played now" in again.stdout


def test_bench_game_lengths(tmp_path):
    """The game-length script (D19 revised: the measurement behind the
    harnesses' default max_turns) plays every cell to its end or the cap and
    writes the distribution, the share each candidate limit would truncate and
    every game's raw turns and result."""
    out = tmp_path / "game_lengths.json"
    proc = run([BENCH / "bench_game_lengths.py", "--tiny", "--out", out])
    doc = json.loads(out.read_text())
    check_doc(
        doc,
        "game_lengths",
        {
            "default_max_turns",
            "cap",
            "games_per_cell",
            "longest_game_with_a_winner",
            "worst_cell_truncated_share",
            "truncated_share_at_default",
            "games_unfinished_at_cap",
        },
        {
            "scenario",
            "pair",
            "games",
            "technocrat_wins",
            "ziegler_wins",
            "unfinished_at_cap",
            "p50",
            "p90",
            "p99",
            "max",
            "truncated_share",
            "histogram",
        },
    )
    from hotspot.core.limits import DEFAULT_MAX_TURNS

    assert doc["summary"]["default_max_turns"] == DEFAULT_MAX_TURNS
    cells = {(r["scenario"], r["pair"]) for r in doc["rows"]}
    assert cells == {
        (s, p)
        for s in ("standard", "random")
        for p in ("scripted:scripted", "scripted:random", "random:scripted", "random:random")
    }
    for r in doc["rows"]:
        assert r["technocrat_wins"] + r["ziegler_wins"] + r["unfinished_at_cap"] == r["games"]
        assert r["p50"] <= r["p90"] <= r["p99"] <= r["max"] <= doc["config"]["cap"]
        raw = doc["raw"][f"{r['scenario']} {r['pair']}"]
        assert len(raw["turns"]) == len(raw["result"]) == r["games"]
        shares = [r["truncated_share"][str(L)] for L in doc["config"]["candidates"]]
        assert shares == sorted(shares, reverse=True)  # a higher limit truncates no more games
    assert "longest game that ended with a winner" in proc.stdout


def test_measured_game_lengths_back_the_default_max_turns():
    """D19 revised: the committed measurement (benchmarks/results/game_lengths.json)
    is what the default max_turns was chosen from: no game that ended with a
    winner ended after it, so the default cuts only games that never end."""
    from hotspot.core.limits import DEFAULT_MAX_TURNS

    doc = json.loads((BENCH / "results" / "game_lengths.json").read_text())
    assert doc["tiny"] is False and doc["summary"]["default_max_turns"] == DEFAULT_MAX_TURNS
    assert doc["summary"]["longest_game_with_a_winner"] < DEFAULT_MAX_TURNS
    for r in doc["rows"]:
        share = r["truncated_share"][str(DEFAULT_MAX_TURNS)]
        assert share == pytest.approx(r["unfinished_at_cap"] / r["games"])


def test_bench_balance(tmp_path):
    """The balance script plays scripted vs scripted on standard and
    open under the defaults and each D22 reading, keeps every game's seed and
    result, and runs the deployment search for both sides."""
    out = tmp_path / "balance.json"
    proc = run([BENCH / "bench_balance.py", "--tiny", "--out", out, "--runs-dir", tmp_path / "runs", "--workers", "1"])
    doc = json.loads(out.read_text())
    check_doc(
        doc,
        "bench_balance",
        {"cells", "deployment_search"},
        {"scenario", "rules", "games", "technocrat_win_rate", "ci_low", "ci_high", "draws"},
    )
    assert {r["scenario"] for r in doc["rows"]} == {"standard", "open"}
    assert len(doc["rows"]) == 2 * (1 + len(doc["config"]["options"]))
    assert len(doc["games"]) == len(doc["rows"])
    for cell in doc["games"].values():
        assert len(cell["seeds"]) == len(cell["winners"]) == len(cell["turns"]) > 0
        assert set(cell["winners"]) <= set("TZ-")
    for side in ("ziegler", "technocrat"):
        assert doc["summary"]["deployment_search"][side]["finalists"]
        assert (tmp_path / "runs" / f"search-{side}" / "best.json").exists()
    assert "Deployment search" in proc.stdout


def test_soak(tmp_path):
    """The soak plays random and scripted games checking every
    invariant after every action (integrity.state_fault) and reports every
    violation with its seed; a tiny run finds none."""
    out = tmp_path / "soak.json"
    run(["-m", "soak.soak", "--tiny", "--out", out])
    doc = json.loads(out.read_text())
    check_doc(
        doc,
        "soak",
        {"games", "actions_checked", "violations"},
        {"policy", "games", "actions_checked", "violations", "batches"},
    )
    assert doc["summary"]["violations"] == 0
    assert doc["summary"]["games"] == {"random": 16, "scripted": 4}
    for row in doc["rows"]:
        assert sum(b["games"] for b in row["batches"]) == row["games"]
        assert {b["scenario"] for b in row["batches"]} <= {"standard", "open"}


def test_committed_soak_meets_the_issue():
    """The committed soak played 10^6 random and 10^4 scripted games
    with every invariant checked after every action, with zero violations, and
    random games again under NUMBA_BOUNDSCHECK=1 with no out-of-bounds access."""
    doc = json.loads((BENCH / "results" / "soak.json").read_text())
    assert doc["tiny"] is False
    assert doc["summary"]["games"]["random"] >= 10**6 and doc["summary"]["games"]["scripted"] >= 10**4
    assert doc["summary"]["violations"] == 0
    assert doc["summary"]["boundscheck_ok"] is True and doc["summary"]["boundscheck_games"] > 0


def test_fuzz_tiny(tmp_path):
    """The fuzzer (``python -m fuzz``, the package fuzz/) runs every
    target in a child process of its own (two at a time here) and writes one
    row per target: examples, outcomes by kind, failures with their inputs; a
    tiny run of the current library has no failure."""
    out = tmp_path / "fuzz.json"
    proc = run(["-m", "fuzz", "--tiny", "--jobs", "2", "--out", out])
    doc = json.loads(out.read_text())
    check_doc(
        doc,
        "fuzz",
        {"targets", "examples", "failures", "crashed", "ok"},
        {
            "target",
            "examples",
            "outcomes",
            "accepted",
            "refused",
            "failures",
            "failure_examples",
            "wall_s",
            "child_wall_s",
            "died",
        },
    )
    public = {
        "state_bytes",
        "record",
        "scenario_file",
        "actions",
        "env_step",
        "vector_env_step",
        "pettingzoo_step",
        "cli_args",
        "saved_game",
        "play_load",
    }
    assert {r["target"] for r in doc["rows"]} == public
    assert doc["summary"]["ok"] and doc["summary"]["failures"] == 0 and doc["summary"]["crashed"] == []
    assert all(r["examples"] == 10 and sum(r["outcomes"].values()) == 10 for r in doc["rows"])
    assert "child s" in proc.stdout


def test_rewriting_benchmarks_md_keeps_the_hand_written_part():
    """run_all.py --write-benchmarks-md rewrites the measured part of
    BENCHMARKS.md and keeps everything from its hand-written marker on (the
    analysis, the soak and the fuzzing results are not lost)."""
    import sys

    sys.path.insert(0, str(BENCH))
    try:
        import run_all
    finally:
        sys.path.remove(str(BENCH))
    current = (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")
    tail = current[current.index(run_all.HAND_WRITTEN_MARKER) :]
    assert "## Soak" in tail and "## Fuzzing" in tail
    assert run_all.benchmarks_md(None).endswith(tail)


def test_committed_long_fuzz_run_meets_the_issue():
    """The long fuzz run in benchmarks/results/fuzz.json (the one
    BENCHMARKS.md reports) covers every target of that run (the fuzzer's
    targets but the later saved_game and play_load) with 100,000 examples and
    found no failure."""
    doc = json.loads((BENCH / "results" / "fuzz.json").read_text())
    assert doc["benchmark"] == "fuzz" and not doc["tiny"]
    targets = {r["target"]: r for r in doc["rows"]}
    assert set(targets) == {
        "state_bytes",
        "record",
        "scenario_file",
        "actions",
        "env_step",
        "vector_env_step",
        "pettingzoo_step",
        "cli_args",
    }
    for name, row in targets.items():
        assert row["examples"] >= 100_000, name
        assert row["failures"] == 0 and not row["failure_examples"] and row["died"] is None, name
    assert doc["summary"]["ok"] is True and doc["summary"]["crashed"] == []


def test_train_expert(tmp_path):
    """Expert iteration at smoke sizes: generation 0 from compiled
    games, one search generation (value and policy heads) rated against it,
    every generation's network written and loadable, the JSON rows with the
    fits (the policy's held-out cross-entropy and top-1) and the rating."""
    from hotspot.agents.policy_net import load_expert
    from hotspot.agents.value_net import load_net

    out = tmp_path / "train_expert.json"
    run(
        [
            "-m",
            "training.train_expert",
            "--tiny",
            "--workers",
            "1",
            "--out",
            out,
            "--net-dir",
            tmp_path / "nets",
        ]
    )
    doc = json.loads(out.read_text())
    assert doc["benchmark"] == "train_expert" and doc["tiny"] is True
    gens = doc["rows"]
    assert [g["generation"] for g in gens] == [0, 1]
    assert gens[0]["positions"] > 0 and 0 <= gens[0]["test_mse"] < 4
    assert gens[1]["policy_decisions"] > 0 and gens[1]["policy_train_loss"] >= 0
    held = gens[1]["policy_held_out"]
    assert held["rows"] == 0 or (held["cross_entropy"] >= 0 and 0 <= held["top1"] <= 1)
    rating = gens[1]["rating_vs_previous"]
    assert rating["games"] == 4 and 0 <= rating["ci95"][0] <= rating["score"] <= rating["ci95"][1] <= 1
    assert load_net(tmp_path / "nets" / "value_gen0.npz").ndim == 1
    value, policy = load_expert(tmp_path / "nets" / "expert_gen1.npz")
    assert value.ndim == 1 and policy.ndim == 1


def test_bench_setup_search(tmp_path):
    """The set-up search ablation (3.2, 3.3, D21) plays every game
    twice, the side's plan and the search's choice, and reports both scores,
    their paired difference with its interval, and keeps every game."""
    out = tmp_path / "setup_search.json"
    proc = run([BENCH / "bench_setup_search.py", "--tiny", "--out", out])
    doc = json.loads(out.read_text())
    check_doc(
        doc,
        "bench_setup_search",
        {"ziegler", "technocrat"},
        {
            "side",
            "games",
            "plan_score",
            "search_score",
            "difference",
            "difference_ci_low",
            "difference_ci_high",
            "verdict",
            "search_s_mean",
        },
    )
    for row in doc["rows"]:
        games = doc["raw"][row["side"]]
        assert len(games) == row["games"] == doc["config"]["games_per_side"]
        assert all(g["plan"] in (0.0, 0.5, 1.0) and g["search"] in (0.0, 0.5, 1.0) for g in games)
        assert row["difference"] == pytest.approx(row["search_score"] - row["plan_score"])
        assert row["difference_ci_low"] <= row["difference"] <= row["difference_ci_high"]
    assert "Set-up search on open" in proc.stdout


def test_bench_skill_ladder(tmp_path):
    """The skill ladder (TAG's SkillLadder protocol): ISMCTS at 2 iterations
    against 1 (no set-up search, games stopped after turn 2), rounds of one
    game a side on mirrored seeds until 2 a side; the rung's score with its
    interval, per seat, its stop reason, the Elo per budget and the
    monotone verdict in the JSON with every game and its seed; a run cut
    short resumes, playing only the games it lacks; the stopping rule's three
    reasons."""
    out, runs, plot = tmp_path / "skill_ladder.json", tmp_path / "runs", tmp_path / "skill_ladder.png"
    args = [
        BENCH / "bench_skill_ladder.py",
        "--tiny",
        "--agent",
        "ismcts(deploy_candidates=0)",
        "--budgets",
        "2,1",
        "--batch",
        "1",
        "--max-games",
        "2",
        "--max-turns",
        "2",
        "--workers",
        "1",
        "--out",
        runs,
        "--json",
        out,
        "--plot",
        plot,
    ]
    proc = run(args)
    doc = json.loads(out.read_text())
    check_doc(
        doc,
        "bench_skill_ladder",
        {"monotone", "target", "rungs", "elo", "games"},
        {
            "lower",
            "higher",
            "lower_spec",
            "higher_spec",
            "games_per_side",
            "games",
            "score",
            "ci_low",
            "ci_high",
            "as_technocrat",
            "as_ziegler",
            "draws",
            "stop",
            "seconds_per_game",
            "elo_gap",
            "meets_target",
        },
    )
    assert doc["config"]["budgets"] == [1, 2] and doc["config"]["max_turns"] == 2
    (rung,) = doc["rows"]
    assert (rung["lower_spec"], rung["higher_spec"]) == (
        "ismcts(deploy_candidates=0,iterations=1)",
        "ismcts(deploy_candidates=0,iterations=2)",
    )
    assert rung["games_per_side"] == 2 and rung["games"] == 4 and rung["stop"] in ("decided", "max games")
    assert 0.0 <= rung["ci_low"] <= rung["score"] <= rung["ci_high"] <= 1.0
    for seat in ("as_technocrat", "as_ziegler"):
        assert rung[seat]["games"] == 2 and 0.0 <= rung[seat]["ci_low"] <= rung[seat]["ci_high"] <= 1.0
    assert rung["score"] == pytest.approx((rung["as_technocrat"]["score"] + rung["as_ziegler"]["score"]) / 2)
    assert doc["summary"]["monotone"] == (rung["score"] >= 0.55 and rung["ci_low"] > 0.5) == rung["meets_target"]
    elo = doc["elo"]
    assert [e["budget"] for e in elo] == [1, 2] and elo[0]["elo"] == 0
    assert elo[1]["elo"] == pytest.approx(rung["elo_gap"]) and math.isfinite(rung["elo_gap"])
    seatings = doc["games"]["2>1"]
    assert len(seatings) == 2
    first, second = seatings.values()
    assert first["seeds"] == second["seeds"] and len(first["seeds"]) == 2  # mirrored seeds
    assert all(len(c["winners"]) == len(c["turns"]) == 2 and set(c["winners"]) <= set("TZ-") for c in seatings.values())
    assert plot.exists() or "matplotlib is not installed" in proc.stdout
    assert "4 game(s) played now" in proc.stdout
    # cut the run short (its last game lost) and run it again: only that game is played
    (folder,) = runs.iterdir()
    lines = (folder / "games.jsonl").read_text().splitlines(keepends=True)
    (folder / "games.jsonl").write_text("".join(lines[:-1]))
    again = run(args)
    assert "1 game(s) played now" in again.stdout
    assert json.loads(out.read_text())["games"] == doc["games"]

    sys.path.insert(0, str(BENCH))
    try:
        import bench_skill_ladder as sl
    finally:
        sys.path.remove(str(BENCH))
    wide = {"ci_low": 0.4, "ci_high": 0.7, "half_width": 0.15}
    assert sl.stop_reason({"ci_low": 0.52, "ci_high": 0.6, "half_width": 0.04}, 50, 0.03, 1000) == "decided"
    assert sl.stop_reason({"ci_low": 0.47, "ci_high": 0.53, "half_width": 0.03}, 50, 0.03, 1000) == "precise"
    assert sl.stop_reason(wide, 1000, 0.03, 1000) == "max games" and sl.stop_reason(wide, 50, 0.03, 1000) is None
    assert sl.budget_spec("ismcts(c=1)", "iterations", 8) == "ismcts(c=1,iterations=8)"


def test_bench_decision_time(tiny):
    """The decision-time script: the wall time of each of the
    agent's decisions against scripted, as each side, with the targets (a
    decision <= 2 s, a game <= 10 s) judged in the summary; ``best`` is
    resolved to its spec."""
    doc, out = tiny("decision_time")
    check_doc(
        doc,
        "bench_decision_time",
        {"agent", "max_decision_s", "mean_game_s", "decision_target_holds"},
        {"agent", "side", "games", "decisions", "searched_decisions", "median_s", "p99_s", "max_s"},
    )
    assert {r["side"] for r in doc["rows"]} == {"technocrat", "ziegler"}
    for r in doc["rows"]:
        assert r["agent"] == doc["summary"]["agent"] == doc["config"]["agent"] != "best"
        assert r["decisions"] >= r["searched_decisions"] >= 0 and 0.0 <= r["median_s"] <= r["p99_s"] <= r["max_s"]
    assert doc["summary"]["max_decision_s"] == max(r["max_s"] for r in doc["rows"])
    assert "slowest decision" in out


def test_bench_plan_cost(tiny):
    """The portfolio search's cost of one plan valuation by horizon and value
    (hand-written or learned), each relative to horizon 2's hand-written
    valuation (1 by definition); a longer horizon never plays less."""
    doc, out = tiny("plan_cost")
    check_doc(
        doc,
        "bench_plan_cost",
        set(),
        {"config", "horizon", "value", "positions", "ms_per_search", "plans_per_search", "ms_per_plan"},
    )
    rows = {(r["horizon"], r["value"]): r for r in doc["rows"]}
    assert rows[(2, "evaluate")]["cost_vs_horizon2"] == 1.0
    assert all(r["ms_per_plan"] > 0 and r["plans_per_search"] >= 1 for r in doc["rows"])
    assert "a plan valuation's cost" in out


def test_bench_kill_resume(tiny):
    """Kill and resume: every folder-writing command killed with SIGKILL at
    random moments resumes to exactly the rows of an uninterrupted run (no
    duplicate, no foreign row), and a second writer is refused every time; a
    tiny run kills a few times and finds no failure."""
    doc, _ = tiny("kill_resume")
    check_doc(
        doc,
        "kill_resume",
        {"kills", "refused", "second_writers", "failures", "duplicates", "foreign", "holds"},
        {"command", "rounds", "kills", "failures"},
    )
    assert doc["summary"]["kills"] >= 4 and doc["summary"]["complete"] is True
    assert doc["summary"]["failures"] == 0 and doc["failures"] == []
    assert doc["summary"]["duplicates"] == 0 and doc["summary"]["foreign"] == 0
    assert doc["summary"]["refused"] == doc["summary"]["second_writers"]


def test_bench_kill_resume_ray(tmp_path):
    """The Ray fault campaign at a tiny size: Ray's worker processes killed
    with SIGKILL while an arena run on a local Ray instance plays (Ray plays
    a killed worker's task again); the folder ends with exactly the rows of
    an unkilled Ray run: none lost, none duplicated."""
    pytest.importorskip("ray")
    out = tmp_path / "kill_resume_ray.json"
    run([BENCH / "bench_kill_resume.py", "--backend", "ray", "--tiny", "--out", out])
    doc = json.loads(out.read_text())
    check_doc(doc, "kill_resume_ray", {"kills", "driver_kills", "failures", "duplicates", "holds"}, {"command"})
    assert doc["summary"]["kills"] >= 4 and doc["summary"]["complete"] is True
    assert doc["summary"]["failures"] == 0 and doc["failures"] == []
    assert doc["summary"]["duplicates"] == 0 and doc["summary"]["foreign"] == 0


def test_bench_web_load(tiny):
    """The web app under load: concurrent clients click, play, undo, save,
    load and advance against one server; no 5xx, no dropped connection, and
    every saved game loads back to the state it replays to (a tiny run)."""
    doc, _ = tiny("web_load")
    check_doc(
        doc,
        "web_load",
        {"clients", "requests", "errors", "lost_games", "loads_checked", "click_p99_ms"},
        {"request", "n", "p50_ms", "p99_ms"},
    )
    assert doc["summary"]["errors"] == 0 and doc["summary"]["lost_games"] == 0, doc["errors_seen"]
    assert doc["summary"]["server_alive"] and doc["summary"]["requests"] > 0
    assert doc["summary"]["loads_checked"] > 0
    assert not any(code.startswith("5") for code in doc["summary"]["status"])


@pytest.mark.skipif(importlib.util.find_spec("sb3_contrib") is None, reason="needs sb3-contrib (the train extra)")
def test_stock_rl_curves_smoke(tmp_path):
    """bench_stock_rl.py at tiny sizes: a stock MaskablePPO run and a run of
    the project's PPO write their curves (win rates in [0, 1]), the plot, and
    a stock model that enters the arena by name for the seat it learned."""
    from hotspot.agents.registry import make_agent

    out, png = tmp_path / "stock_rl.json", tmp_path / "stock_rl.png"
    runs = "stock:technocrat:random,project:ziegler:scripted"
    run([BENCH / "bench_stock_rl.py", "--tiny", "--runs", runs, "--work", tmp_path, "--out", out, "--plot", png])
    doc = json.loads(out.read_text())
    assert [(r["learner"], r["side"], r["opponent"]) for r in doc["runs"]] == [
        ("stock", "technocrat", "random"),
        ("project", "ziegler", "scripted"),
    ]
    for r in doc["runs"]:
        assert r["rows"], r
        for row in r["rows"]:
            assert row["env_steps"] >= 0 and row["wall_s"] >= 0
            assert all(0.0 <= row[f"{o}_win"] <= 1.0 for o in ("random", "scripted")), row
    assert png.stat().st_size > 0
    agent = make_agent(f"sb3(path={tmp_path / 'stock-technocrat-random.zip'})", seed=0)
    assert agent.seats == (1,)  # a LearnerEnv model of the Technocrat plays that seat only


def test_bench_adjudication(tiny):
    """The adjudication validation replays committed games through the rules'
    points; each rule set's overall row counts its adjudications and wrong
    results, and a wrong result is never more than an adjudication."""
    doc, stdout = tiny("adjudication")
    check_doc(doc, "bench_adjudication", {"resign(score=0.99,turns=6)", "draw(turns=60)"}, {"rules", "pairing"})
    overall = [r for r in doc["rows"] if r["pairing"] == "all" and "+" not in r["rules"]]  # "+": the approach
    assert [r["rules"] for r in overall] == ["resign(score=0.99,turns=6)", "draw(turns=60)"]
    assert all(0 <= r["wrong"] <= r["adjudicated"] <= r["games"] == doc["config"]["games"] for r in overall)
    assert all(0 <= r["time_kept"] <= 1 for r in overall)
    assert "Adjudication against the played result" in stdout
    # the Technocrat's approach as progress (5.0, 15.5), measured beside the rules: a turn of progress
    # only ever resets the count, so the variant draws no more games than draw(turns=60) itself
    (approach,) = [r for r in doc["rows"] if r["rules"] == "draw(turns=60)+approach"]
    assert 0 <= approach["wrong"] <= approach["adjudicated"] <= overall[1]["adjudicated"]
    assert "approach as progress" in stdout


def test_bench_evaluate(tiny):
    """bench_evaluate runs the protocol (here: random only, a few pairs) and
    reports each opponent's pairs and games and the wall time."""
    doc, stdout = tiny("evaluate")
    check_doc(doc, "bench_evaluate", {"wall_minutes", "games", "within_target"}, {"opponent", "pairs", "games"})
    (row,) = doc["rows"]
    assert row["opponent"] == "random" and row["games"] == 2 * row["pairs"] > 0
    assert "hotspot evaluate scripted" in stdout


def test_bench_planes(tiny):
    """bench_planes times the planes' encoding and the network's forward pass (tiny: a few positions)."""
    doc, _ = tiny("planes")
    check_doc(doc, "bench_planes", {"encode_ms", "encode_batch_ms", "forward_ms"}, {"what", "states", "ms"})
    assert doc["config"]["positions"] > 10 and all(positive(r["ms"]) for r in doc["rows"])


def test_bench_dataset(tiny):
    """bench_dataset plays a few scripted games, reads them back as a table
    and makes a Minari dataset of each seat (tiny: 6 games)."""
    pytest.importorskip("minari")
    pytest.importorskip("pyarrow")
    doc, _ = tiny("dataset")
    check_doc(doc, "bench_dataset", {"dataset_seconds_a_seat", "within_target"}, {"what"})
    seats = [r for r in doc["rows"] if r["what"].startswith("hotspot dataset")]
    assert len(seats) == 2 and all(r["episodes"] == 6 and r["steps"] > 0 and r["bytes_a_step"] > 0 for r in seats)


def test_bench_scale(tiny):
    """bench_scale plays a run folder of random games, resumes it and reads it
    back whole, without its actions and a batch at a time, each step in a
    process of its own (tiny: 200 games)."""
    pytest.importorskip("pyarrow")
    doc, _ = tiny("scale")
    check_doc(doc, "bench_scale", {"resume_seconds", "read_games_seconds", "peak_mb"}, {"what", "seconds", "peak_mb"})
    reads = [r for r in doc["rows"] if r["what"].startswith(("read_games", "iter_games"))]
    assert len(reads) == 3 and all(r["rows"] == doc["config"]["games"] for r in reads)
    assert all(r["rc"] == 0 for r in doc["rows"] if "rc" in r)


def test_fit_reference_ratings_refits_the_committed_games(tmp_path):
    """``fit_reference_ratings.py --games-csv`` refits the committed reference
    games without playing one, and writes the published file's ratings (seat
    and overall) elsewhere when asked (``--ratings-out``)."""
    from hotspot.arena.rating import RATINGS_FILE

    out = tmp_path / "ratings.json"
    games = ROOT / "benchmarks" / "results" / "reference" / "games.csv"
    run(
        [BENCH / "fit_reference_ratings.py", "--games-csv", games, "--ratings-out", out, "--out", tmp_path / "fit.json"]
    )
    fitted, published = json.loads(out.read_text()), json.loads(RATINGS_FILE.read_text())
    assert fitted["version"] == published["version"] == 2
    for agent, entry in published["agents"].items():
        for key in ("technocrat", "ziegler"):
            assert fitted["agents"][agent][key] == entry[key]
        assert fitted["agents"][agent]["overall"]["fitted"] == entry["overall"]["fitted"]
    assert fitted["game_set"]["games"] == published["game_set"]["games"] == 11600
