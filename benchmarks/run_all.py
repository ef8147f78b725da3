"""Run the whole benchmark suite and check its speed targets.

Runs every ``bench_*.py`` of this folder in its own process (each writes its
JSON to ``--results-dir``), then writes ``<results-dir>/all.json`` (the
machine, the command, every script's document and the targets) and prints a
markdown report: the targets as measured values with PASS/FAIL, then each
benchmark's table.

    python benchmarks/run_all.py                         # full suite: about an hour on two cores
    python benchmarks/run_all.py --markdown report.md    # the report to a file too
    python benchmarks/run_all.py --write-benchmarks-md   # and rewrite BENCHMARKS.md
    python benchmarks/run_all.py --tiny                  # smoke run: the numbers mean nothing
    python benchmarks/run_all.py --only core env         # some of the scripts
    python benchmarks/run_all.py --reuse                 # report on the JSONs already there
    python benchmarks/run_all.py --placeholder-md        # BENCHMARKS.md without numbers

Exit status: 0, or 1 when a script failed (or, with ``--check``, a target
failed).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import _common as C

#: (name, script): the order they run in
SCRIPTS = (
    ("core", "bench_core.py"),
    ("nojit", "bench_nojit.py"),
    ("env", "bench_env.py"),
    ("openspiel", "bench_openspiel.py"),
    ("memory", "bench_memory.py"),
    ("compile", "bench_compile.py"),
    ("profile", "bench_profile.py"),
    ("playout", "bench_playout.py"),
    ("legality", "bench_legality.py"),
)
BENCHMARKS_MD = C.REPO_ROOT / "BENCHMARKS.md"


# ---------------------------------------------------------------- targets
def _get(results, name, key):
    doc = results.get(name)
    return None if doc is None else doc.get("summary", {}).get(key)


def _x(value):
    return None if value is None else f"{value:.2f}x"


def compute_targets(results: dict) -> list[dict]:
    """The speed targets, each with its measured value and PASS, FAIL or N/A."""
    targets = []

    def add(target, value, threshold, passed, measured, why_na="not measured"):
        status = "N/A" if value is None else ("PASS" if passed else "FAIL")
        targets.append(
            {
                "target": target,
                "value": value,
                "threshold": threshold,
                "status": status,
                "measured": measured if value is not None else why_na,
            }
        )

    v = _get(results, "openspiel", "core_vs_chess")
    batch = _get(results, "openspiel", "core_batch") or 1024
    add(
        f"core, batch {batch}, 1 thread >= 15x OpenSpiel chess (Python-driven random play)",
        v,
        15.0,
        v is not None and v >= 15.0,
        f"{_x(v)}: core {C.fmt(_get(results, 'openspiel', 'core_actions_per_s_1_thread'))} vs chess "
        f"{C.fmt(_get(results, 'openspiel', 'chess_actions_per_s'))} actions/s"
        if v is not None
        else None,
        "pyspiel not installed"
        if "openspiel" in results and not _get(results, "openspiel", "available")
        else "not measured",
    )

    v = _get(results, "nojit", "speedup_jit_vs_nojit")
    add(
        ">= 100x the uncompiled core (NUMBA_DISABLE_JIT=1), same workload, 1 thread",
        v,
        100.0,
        v is not None and v >= 100.0,
        f"{_x(v)}: {C.fmt(_get(results, 'nojit', 'jit_actions_per_s'))} vs "
        f"{C.fmt(_get(results, 'nojit', 'nojit_actions_per_s'))} actions/s"
        if v is not None
        else None,
    )

    v = _get(results, "core", "scaling_2_vs_1")
    batch = _get(results, "core", "reference_batch") or 1024
    add(
        f"2 cores >= 1.8x one thread (core, batch {batch})",
        v,
        1.8,
        v is not None and v >= 1.8,
        f"{_x(v)}: {C.fmt(_get(results, 'core', 'ref_actions_per_s_2_threads'))} vs "
        f"{C.fmt(_get(results, 'core', 'ref_actions_per_s_1_thread'))} actions/s"
        if v is not None
        else None,
        "fewer than 2 numba threads" if "core" in results else "not measured",
    )

    full = _get(results, "env", "vector_vs_core_all_threads")
    v = _get(results, "env", "compact_vector_vs_core_all_threads")
    n = _get(results, "env", "num_envs") or 1024
    add(
        f"HotspotVectorEnv at batch {n} >= 0.6x the core (atomic actions/s, all threads; observation='compact')",
        v,
        0.6,
        v is not None and v >= 0.6,
        f"{_x(v)} compact, {_x(full)} with the full observation (core "
        f"{C.fmt(_get(results, 'env', 'core_actions_per_s_all_threads'))} atomic actions/s)"
        if v is not None
        else None,
    )

    steps = _get(results, "env", "compact_vector_steps_per_s_all_threads")
    chess = _get(results, "openspiel", "chess_actions_per_s")
    v = C.ratio(steps, chess)
    add(
        f"HotspotVectorEnv at batch {n}: env steps/s >= 3x OpenSpiel chess actions/s (compact)",
        v,
        3.0,
        v is not None and v >= 3.0,
        f"{_x(v)}: {C.fmt(steps)} env steps/s (compact; full: "
        f"{C.fmt(_get(results, 'env', 'vector_steps_per_s_all_threads'))}) vs chess {C.fmt(chess)} actions/s"
        if v is not None
        else None,
        "pyspiel not installed"
        if "openspiel" in results and not _get(results, "openspiel", "available")
        else "not measured",
    )

    for what, label in (
        ("scripted", "scripted vs scripted play-outs on `open`, 1 thread: actions/s"),
        ("ismcts", "ISMCTS at a fixed iteration budget: searched decisions/s"),
    ):
        v = _get(results, "playout", f"{what}_ratio")
        ref = _get(results, "playout", "reference") or "e727776"
        same = _get(results, "playout", f"{what}_same_games")
        add(
            f"{label} >= 3x commit {ref} (same run)",
            v,
            3.0,
            v is not None and v >= 3.0,
            f"{_x(v)} ({'the same games' if same else 'not the same games'})" if v is not None else None,
        )

    v = _get(results, "memory", "state_bytes")
    add(
        "game state <= 4 KiB",
        v,
        4096,
        v is not None and v <= 4096,
        f"{C.fmt(v)} bytes ({v / 4096:.2f} of 4 KiB)" if v is not None else None,
    )

    v = _get(results, "compile", "second_process_first_step_max_s")
    fresh = _get(results, "compile", "fresh_cache")
    runs = _get(results, "compile", "second_process_runs")
    add(
        "second process: first completed step <= 1 s in every run (from spawn, numba cache filled)",
        v,
        1.0,
        v is not None and v <= 1.0,
        f"slowest of {runs}: {v:.2f} s, median {_get(results, 'compile', 'second_process_first_step_s'):.2f} s "
        f"(first process: {_get(results, 'compile', 'first_process_first_step_s'):.2f} s"
        f"{', fresh cache' if fresh else ', project cache'})"
        if v is not None
        else None,
    )

    v = _get(results, "compile", "arena_cold_s")
    add(
        "first `hotspot arena` table from an empty numba cache <= 30 s (two cores)",
        v,
        30.0,
        v is not None and v <= 30.0,
        f"{v:.1f} s (the same run with the cache filled: {_get(results, 'compile', 'arena_warm_s'):.1f} s)"
        if v is not None
        else None,
    )

    v = _get(results, "compile", "env_cold_s")
    add(
        "first `HotspotEnv().step` from an empty numba cache <= 30 s (two cores)",
        v,
        30.0,
        v is not None and v <= 30.0,
        f"{v:.1f} s (the same with the cache filled: {_get(results, 'compile', 'env_warm_s'):.1f} s)"
        if v is not None
        else None,
    )

    bad = _get(results, "legality", "disagreements")
    rnd = _get(results, "legality", "random_games") or 0
    scr = _get(results, "legality", "scripted_games") or 0
    add(
        "fast legal list == action_error before every action of >= 10^6 random and 10^4 scripted games",
        bad,
        0,
        bad == 0 and rnd >= 10**6 and scr >= 10**4,
        f"{C.fmt(bad)} disagreements in {C.fmt(_get(results, 'legality', 'actions_checked'))} actions of "
        f"{C.fmt(rnd)} random and {C.fmt(scr)} scripted games"
        if bad is not None
        else None,
    )
    return targets


# --------------------------------------------------------------- markdown
def md_table(headers, rows) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(" --- " for _ in headers) + "|"]
    lines += ["| " + " | ".join(C.fmt(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def targets_markdown(targets) -> str:
    return md_table(
        ["target", "measured", "status"], [[t["target"], t["measured"], f"**{t['status']}**"] for t in targets]
    )


def details_markdown(results: dict) -> str:
    """One table per benchmark, from the rows of its JSON."""
    parts = []
    doc = results.get("core")
    if doc:
        parts.append(
            "### Core random play (`bench_core.py`)\n\n"
            + md_table(
                ["batch", "threads", "actions/s", "games/s", "actions/game"],
                [
                    [r["batch"], r["threads"], r["actions_per_s"], r["games_per_s"], r["actions_per_game"]]
                    for r in doc["rows"]
                ],
            )
        )
    doc = results.get("nojit")
    if doc:
        parts.append(
            "### Without compilation (`bench_nojit.py`)\n\n"
            + md_table(
                ["mode", "games", "actions/game cap", "actions/s"],
                [[r["mode"], r["batch"], r["max_actions"], r["actions_per_s"]] for r in doc["rows"]],
            )
        )
    doc = results.get("env")
    if doc:
        parts.append(
            "### Environments vs the core (`bench_env.py`)\n\n"
            + md_table(
                [
                    "what",
                    "batch",
                    "threads",
                    "env steps/s",
                    "atomic actions/step",
                    "atomic actions/s",
                    "x core, same threads",
                    "env alone x core",
                    "sampler share",
                ],
                [
                    [
                        r["what"],
                        r["batch"],
                        r["threads"],
                        r["steps_per_s"],
                        r["atomic_per_step"],
                        r["atomic_actions_per_s"],
                        r["vs_core_same_threads"],
                        r.get("env_alone_vs_core_same_threads"),
                        r.get("sampler_share"),
                    ]
                    for r in doc["rows"]
                ],
            )
        )
    doc = results.get("openspiel")
    if doc:
        body = md_table(
            ["what", "actions/s", "games/s", "actions/game", "core / this"],
            [
                [r["what"], r["actions_per_s"], r["games_per_s"], r["actions_per_game"], r["core_vs_this"]]
                for r in doc["rows"]
            ],
        )
        if not doc["summary"].get("available"):
            body += "\n\npyspiel was not installed: no OpenSpiel rows."
        parts.append("### OpenSpiel peer (`bench_openspiel.py`)\n\n" + body)
    doc = results.get("memory")
    if doc:
        parts.append(
            "### Memory (`bench_memory.py`)\n\n"
            + md_table(["what", "bytes", "bytes/game"], [[r["what"], r["bytes"], r["per_game"]] for r in doc["rows"]])
        )
    doc = results.get("compile")
    if doc:
        body = md_table(
            ["phase", "first process s", "second process s"],
            [[r["phase"], r["first_process_s"], r["second_process_s"]] for r in doc["rows"]],
        )
        if doc["summary"].get("arena_cold_s") is not None:
            body += (
                f"\n\n`hotspot arena --games 2` from an empty numba cache: "
                f"{doc['summary']['arena_cold_s']:.1f} s; again with the cache filled: "
                f"{doc['summary']['arena_warm_s']:.1f} s."
            )
        if doc["summary"].get("env_cold_s") is not None:
            body += (
                f"  `HotspotEnv()`, `reset` and one `step` in a new process from an empty cache: "
                f"{doc['summary']['env_cold_s']:.1f} s; with the cache filled: "
                f"{doc['summary']['env_warm_s']:.1f} s."
            )
        parts.append("### Compilation and cache (`bench_compile.py`)\n\n" + body)
    doc = results.get("profile")
    if doc:
        s = doc["summary"]
        body = md_table(
            ["part", "ns per atomic action", "share"],
            [[k[:-3], s[k], s[k] / s["total_ns"]] for k in ("mask_ns", "apply_ns", "choice_ns")]
            + [["total (one thread)", s["total_ns"], 1.0]],
        )
        body += "\n\n" + md_table(
            ["phase class", "share of actions", "mask ns (warm state)"],
            [[r["class"], r["share_of_actions"], r["mask_ns"]] for r in s["mask_by_phase_class"]],
        )
        body += "\n\n" + md_table(
            ["two-way parallelism", "x one thread"],
            [
                ["2 threads, static schedule", s["scaling_2_threads"]],
                ["2 threads, dynamic schedule (chunks of 8)", s["scaling_2_threads_dynamic"]],
                ["2 processes of 1 thread, half the batch each", s["scaling_2_processes"]],
                ["bound from the static schedule's imbalance", s["scaling_bound_from_imbalance"]],
            ],
        )
        sp = s.get("scripted")
        if sp:
            body += (
                f"\n\nA scripted decision on `open` ({sp['games']} scripted games of at most {sp['max_turns']} "
                f"turns, {sp['decisions']:,} decisions, one thread; microseconds; *plan* is the decision "
                f"less the mask, the information state and `cell_info`):\n\n"
                + md_table(
                    ["phase class", "share of decisions", "mask", "observe", "cell_info", "plan", "decision", "apply"],
                    [
                        [
                            r["class"],
                            r["share_of_decisions"],
                            r["mask_us"],
                            r["observe_us"],
                            r["cell_info_us"],
                            r["plan_us"],
                            r["decision_us"],
                            r["apply_us"],
                        ]
                        for r in sp["by_class"]
                    ],
                )
            )
        parts.append(f"### Where the time goes (`bench_profile.py`, batch {doc['config']['batch']})\n\n" + body)
    doc = results.get("playout")
    if doc:
        parts.append(
            f"### Play-outs against commit {doc['summary']['reference']} (`bench_playout.py`)\n\n"
            + md_table(
                ["workload", "unit", "this tree", "reference", "ratio", "same games"],
                [
                    [r["workload"], r["unit"], r["this"], r["reference"], r["ratio"], r["same_games"]]
                    for r in doc["rows"]
                ],
            )
        )
    doc = results.get("legality")
    if doc:
        parts.append(
            "### The fast legal list against `action_error` (`bench_legality.py`)\n\n"
            + md_table(
                ["player", "games", "actions checked", "disagreements", "seconds"],
                [[r["kind"], r["games"], r["actions_checked"], r["disagreements"], r["seconds"]] for r in doc["rows"]],
            )
        )
    return "\n\n".join(parts)


def machine_markdown(machine: dict) -> str:
    keys = (
        "platform",
        "cpu_model",
        "cpu_count",
        "usable_cores",
        "numba_num_threads",
        "python",
        "numba",
        "numpy",
        "gymnasium",
        "hotspot",
        "commit",
        "dirty",
    )
    return md_table(["machine", ""], [[k, machine.get(k)] for k in keys])


def report_markdown(doc: dict) -> str:
    head = "## Results" + (" (tiny smoke run: the numbers mean nothing)" if doc["tiny"] else "")
    return (
        "\n\n".join(
            [
                head,
                f"Measured {doc['time_utc']} with `{doc['command']}`.",
                machine_markdown(doc["machine"]),
                "### Targets\n\n" + targets_markdown(doc["targets"]),
                details_markdown(doc["results"]),
            ]
        )
        + "\n"
    )


METHOD_MD = """\
# Benchmarks

The benchmark suite: scripts in `benchmarks/`, each printing a
table and writing JSON to `benchmarks/results/<name>.json` (`--out`), each
with `--tiny` for a smoke run in seconds (what `tests/test_benchmarks_smoke.py`
runs; tiny numbers mean nothing). `benchmarks/run_all.py` runs them all,
writes `benchmarks/results/all.json` and the report below, and checks the
targets.

## Commands

```bash
python -m pip install -e ".[benchmark]"          # OpenSpiel for the peer comparison (optional)
python benchmarks/run_all.py --write-benchmarks-md  # everything; rewrites this file's results
python benchmarks/bench_core.py                     # or one script (see --help)
```

Measure on an otherwise idle machine: every figure is throughput.

## Method

Every figure is the median of `--repeats` samples (default 5), each of
which repeats the timed call for at least `--min-time` seconds (default 1),
after a warm-up call that compiles or loads the compiled code from numba's
cache.  An *action* is one of the core's atomic actions (select a piece or
unit, a maneuver or step, split/combine, resolve a combat, end a move, end a
phase); the random player computes the full legal-action mask before each.

- `bench_core.py`: `hotspot.core.rollout.play_random_batch` (one compiled
  call, `prange` over the games) playing batches of 1, 64, 1024 and 8192
  fresh standard games (`hotspot.core.init("standard", seeds=range(n))`,
  built once and copied per call, so only play is timed) to their end, on 1,
  2 and all numba threads: actions/s, complete games/s, actions per game.
- `bench_nojit.py`: the same workload (2 games, at most 200 actions each) in
  a worker process under `NUMBA_DISABLE_JIT=1` and in one compiled, one
  thread, same games; the ratio is what compilation buys.
- `bench_env.py`: `HotspotEnv` (one game, a Python loop picking a random
  legal action from `info["action_mask"]`) and `HotspotVectorEnv` at batch
  1024 (a vectorized numpy choice from the masks; the env's defaults: no
  copy of the returned batch), with the full observation and with
  `observation="compact"`, against the core's random play at the same
  batch on one and all threads.  An env step is the learner's action plus
  the opponent's replies; atomic actions per step come from the state's
  `n_actions` counter, which gives the env's atomic actions/s to compare
  with the core's.  The time of the benchmark's own numpy sampler is
  measured too: "env alone" takes it out.
- `bench_openspiel.py`: OpenSpiel's random play of chess and backgammon
  driven from Python (`legal_actions()` and a uniform pick per decision,
  chance outcomes sampled from `chance_outcomes()`), against the core at
  batch 1024 on one thread, measured in the same run.
- `bench_memory.py`: `STATE_BYTES`, and the peak memory of building a batch
  of 100,000 games and playing 2 random actions in each, in a fresh process:
  `tracemalloc` peak and peak-RSS growth.
- `bench_compile.py`: fresh processes sharing a new empty `NUMBA_CACHE_DIR`
  (the project's cache is not touched): the first compiles everything
  (first-call cost per function), the next ones load the cache; the time to
  the first completed step is counted from the spawn of the process.  Then
  `hotspot arena --games 2` (default agents and workers) from another new
  empty cache, and again with that cache filled.
- `bench_profile.py`: where an atomic action's time goes: the
  same recorded random games replayed applying the actions only, computing
  the legal set before each, and played by the random player (the differences
  are the mask, the apply and the choice), the mask by phase class; a
  scripted decision on `open` by phase class, part by part (the mask, the
  information state, `cell_info`, the plan, applying the action), replayed
  from recorded scripted games; and two threads against one, against two
  single-thread processes on half the batch each (nothing shared), with the
  static schedule's imbalance and numba's dynamic schedule.
- `bench_playout.py`: the play-out players against the code of a reference
  commit (default `e727776`), exported with `git archive` and run in its
  own worker process in the same run, one thread, the same games on the
  same seeds: random play (batch 1024, `standard`), scripted against
  scripted on `open` (set-up included, 40 turns at most), and
  `ISMCTSAgent(iterations=64)` deciding for both sides of an `open` game
  through the agent API (searched decisions/s, the set-up not counted).
- `bench_legality.py`: the fast legal-action list (`legal_actions`) against
  `action_error` on every one of the 578 actions before every action of
  10^6 random and 10^4 scripted games (`standard`, `open` and random
  set-ups, in chunks under each rules option of D22), every disagreement
  reported with its scenario, rules and seed.

Each script measures the core it is given in the same run, so every ratio
compares figures taken minutes apart on the same machine.

"""

PLACEHOLDER_MD = """\
## Results

**Not yet measured.**  Run `python benchmarks/run_all.py --write-benchmarks-md`
on the reference machine to fill this in.

| target | measured | status |
| --- | --- | --- |
| core, batch 1024, 1 thread >= 15x OpenSpiel chess | not yet measured | - |
| >= 100x the uncompiled core (NUMBA_DISABLE_JIT=1) | not yet measured | - |
| 2 cores >= 1.8x one thread (core, batch 1024) | not yet measured | - |
| HotspotVectorEnv at batch 1024 >= 0.6x the core | not yet measured | - |
| HotspotVectorEnv env steps/s >= 3x OpenSpiel chess | not yet measured | - |
| game state <= 4 KiB | not yet measured | - |
| second process: first completed step <= 1 s | not yet measured | - |
| first `hotspot arena` table from an empty cache <= 30 s | not yet measured | - |
"""


#: BENCHMARKS.md from this line on is written by hand (analysis, the soak, the
#: fuzzing) and kept as it is when the measured part above it is rewritten
HAND_WRITTEN_MARKER = "<!-- Hand-written below: run_all.py --write-benchmarks-md keeps this part. -->"


def hand_written_part() -> str:
    """The part of the current BENCHMARKS.md from HAND_WRITTEN_MARKER on ("" if none)."""
    try:
        text = BENCHMARKS_MD.read_text(encoding="utf-8")
    except OSError:
        return ""
    i = text.find(HAND_WRITTEN_MARKER)
    return "" if i < 0 else "\n" + text[i:]


def benchmarks_md(doc: dict | None) -> str:
    return METHOD_MD + (PLACEHOLDER_MD if doc is None else report_markdown(doc)) + hand_written_part()


# ------------------------------------------------------------------- main
def run_script(name: str, script: str, out: Path, tiny: bool, extra: list[str]) -> dict:
    cmd = [sys.executable, str(C.BENCH_DIR / script), "--out", str(out)] + (["--tiny"] if tiny else []) + extra
    print(f"\n=== {name}: {' '.join(cmd[1:])}", flush=True)
    t0 = time.perf_counter()
    rc = subprocess.call(cmd, env=C.child_env(), cwd=C.REPO_ROOT)
    return {"name": name, "returncode": rc, "seconds": time.perf_counter() - t0}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="run_all.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tiny", action="store_true", help="smoke-test sizes for every script")
    p.add_argument("--results-dir", type=Path, default=C.RESULTS_DIR, help="where the JSON goes (default: %(default)s)")
    p.add_argument("--markdown", type=Path, default=None, help="also write the markdown report to this file")
    p.add_argument(
        "--write-benchmarks-md",
        action="store_true",
        help=f"rewrite {BENCHMARKS_MD.name} with the method and these results (not with --tiny)",
    )
    p.add_argument(
        "--placeholder-md",
        action="store_true",
        help=f"write {BENCHMARKS_MD.name} with the method and a 'not yet measured' table; run nothing",
    )
    names = [n for n, _ in SCRIPTS]
    p.add_argument("--only", nargs="+", choices=names, default=None, help="run only these")
    p.add_argument("--skip", nargs="+", choices=names, default=[], help="do not run these")
    p.add_argument(
        "--reuse", action="store_true", help="run nothing: report on the JSON files already in --results-dir"
    )
    p.add_argument("--check", action="store_true", help="exit 1 when a target fails")
    p.add_argument("--repeats", type=int, default=None, help="passed on to every script")
    p.add_argument("--min-time", type=float, default=None, help="passed on to every script")
    args = p.parse_args(argv)

    if args.placeholder_md:
        BENCHMARKS_MD.write_text(benchmarks_md(None), encoding="utf-8")
        print(f"wrote {BENCHMARKS_MD}")
        return 0
    if args.write_benchmarks_md and args.tiny:
        p.error("--write-benchmarks-md records real measurements: not with --tiny")

    selected = [(n, s) for n, s in SCRIPTS if (args.only is None or n in args.only) and n not in args.skip]
    extra = ([] if args.repeats is None else ["--repeats", str(args.repeats)]) + (
        [] if args.min_time is None else ["--min-time", str(args.min_time)]
    )
    args.results_dir.mkdir(parents=True, exist_ok=True)
    runs = []
    if not args.reuse:
        for name, script in selected:
            runs.append(run_script(name, script, args.results_dir / f"{name}.json", args.tiny, extra))

    results, failures = {}, [r for r in runs if r["returncode"] != 0]
    for name, _ in selected:
        path = args.results_dir / f"{name}.json"
        if any(f["name"] == name for f in failures) or not path.exists():
            continue
        results[name] = json.loads(path.read_text(encoding="utf-8"))
    tiny = args.tiny or any(d.get("tiny") for d in results.values())

    doc = {
        "benchmark": "all",
        "tiny": tiny,
        "machine": C.machine_info(),
        "command": C.command_line(),
        "time_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "runs": runs,
        "failures": [f["name"] for f in failures],
        "targets": compute_targets(results),
        "results": results,
    }
    out = args.results_dir / "all.json"
    out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    report = report_markdown(doc)
    print("\n" + report)
    print(f"wrote {out}")
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(report, encoding="utf-8")
        print(f"wrote {args.markdown}")
    if args.write_benchmarks_md:
        if tiny:
            print(f"not writing {BENCHMARKS_MD.name}: the results come from a tiny run")
        else:
            BENCHMARKS_MD.write_text(benchmarks_md(doc), encoding="utf-8")
            print(f"wrote {BENCHMARKS_MD}")
    if failures:
        print(f"FAILED scripts: {', '.join(f['name'] for f in failures)}", file=sys.stderr)
        return 1
    if args.check and any(t["status"] == "FAIL" for t in doc["targets"]):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
