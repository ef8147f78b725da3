"""Shared plumbing of the benchmark scripts.

Every script in this folder:

* measures one thing and prints a plain-text table (no third-party table
  library);
* writes a JSON document (``--out``, default ``benchmarks/results/<name>.json``)
  holding the machine, the command, the configuration, the rows of the table
  and a ``summary`` of the figures that ``run_all.py`` checks against the
  performance targets;
* has ``--tiny``: sizes small enough for CI to smoke-run it in seconds
  (``tests/test_benchmarks_smoke.py``); the numbers of a tiny run mean nothing.

Timing convention: a *sample* repeats the measured call until at least
``min_time`` seconds have passed and divides the work done by the time taken;
a figure is the median of ``repeats`` samples, taken after a warm-up call that
compiles (or loads from numba's cache) everything that is timed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
RESULTS_DIR = BENCH_DIR / "results"

#: the seconds one sample lasts at least, and the samples per figure
DEFAULT_MIN_TIME = 1.0
DEFAULT_REPEATS = 5
TINY_MIN_TIME = 0.05
TINY_REPEATS = 1

try:  # run from a checkout without ``pip install -e .``: use the repository's package
    import hotspot  # noqa: F401
except ImportError:  # pragma: no cover
    sys.path.append(str(REPO_ROOT))


# --------------------------------------------------------------------- CLI
def make_parser(name: str, description: str) -> argparse.ArgumentParser:
    """The arguments every benchmark script has: --tiny, --out, --repeats, --min-time."""
    p = argparse.ArgumentParser(
        prog=f"{name}.py", description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tiny", action="store_true", help="smoke-test sizes (seconds; the numbers mean nothing)")
    p.add_argument(
        "--out", type=Path, default=RESULTS_DIR / f"{name}.json", help="JSON file to write (default: %(default)s)"
    )
    p.add_argument(
        "--repeats",
        type=int,
        default=None,
        help=f"samples per figure, the median is reported (default {DEFAULT_REPEATS}, tiny {TINY_REPEATS})",
    )
    p.add_argument(
        "--min-time",
        type=float,
        default=None,
        help=f"seconds per sample at least (default {DEFAULT_MIN_TIME}, tiny {TINY_MIN_TIME})",
    )
    return p


def timing_args(args) -> tuple[int, float]:
    """(repeats, min_time) from the parsed arguments, tiny-aware."""
    repeats = args.repeats if args.repeats is not None else (TINY_REPEATS if args.tiny else DEFAULT_REPEATS)
    min_time = args.min_time if args.min_time is not None else (TINY_MIN_TIME if args.tiny else DEFAULT_MIN_TIME)
    if repeats < 1 or min_time < 0:
        raise SystemExit("--repeats must be >= 1 and --min-time >= 0")
    return repeats, min_time


# ----------------------------------------------------------------- machine
def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else what platform knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Processor", "cpu model") and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def usable_cores() -> int:
    """Cores this process may run on (its affinity), else os.cpu_count()."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _version(module_name: str):
    try:
        module = __import__(module_name)
    except Exception:  # noqa: BLE001 - a missing optional package is just "absent"
        return None
    return getattr(module, "__version__", "unknown")


def git_revision() -> dict:
    """The commit of the working tree and whether it has uncommitted changes."""

    def git(*cmd):
        return subprocess.run(["git", *cmd], cwd=REPO_ROOT, capture_output=True, text=True, timeout=10).stdout.strip()

    try:
        return {
            "commit": git("rev-parse", "HEAD") or None,
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
        }
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}


def machine_info() -> dict:
    """Where the benchmark ran: platform, CPU, cores and library versions."""
    import numba

    info = {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "usable_cores": usable_cores(),
        "numba_num_threads": int(numba.config.NUMBA_NUM_THREADS),
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "numba": numba.__version__,
        "numpy": _version("numpy"),
        "gymnasium": _version("gymnasium"),
        "hotspot": _version("hotspot"),
        "numba_disable_jit": os.environ.get("NUMBA_DISABLE_JIT", "0"),
    }
    try:  # known once a parallel function has run in this process
        info["numba_threading_layer"] = numba.threading_layer()
    except ValueError:
        info["numba_threading_layer"] = None
    info.update(git_revision())
    return info


def command_line() -> str:
    """The command that ran this script, as one could type it again."""
    return " ".join(shlex.quote(x) for x in [Path(sys.executable).name, *sys.argv])


# ----------------------------------------------------------------- timing
def sample_rate(run_once, min_time: float) -> dict:
    """Call ``run_once()`` (which returns a dict of work counts, e.g. actions and
    games) until ``min_time`` seconds have passed; the counts summed, the time,
    and ``<count>_per_s`` for each count."""
    totals: dict = {}
    calls = 0
    start = time.perf_counter()
    while True:
        work = run_once()
        calls += 1
        for key, value in work.items():
            totals[key] = totals.get(key, 0) + value
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            break
    out = {"seconds": elapsed, "calls": calls}
    for key, value in totals.items():
        out[key] = value
        out[f"{key}_per_s"] = value / elapsed if elapsed > 0 else float("nan")
    return out


def median_of(samples: list[dict], key: str) -> float:
    return float(statistics.median(s[key] for s in samples))


def ratio(a, b):
    """a / b, or None where either is missing or b is zero."""
    if a is None or b is None or b == 0:
        return None
    return float(a) / float(b)


# ------------------------------------------------------------ core workload
def random_play_workload(batch: int, max_actions: int = 10**6, scenario: str = "standard", seed0: int = 0):
    """A ``run_once`` for :func:`sample_rate`: random legal play (the core's
    compiled random player, which computes the legal mask before every action)
    of a batch of ``batch`` fresh games with ``play_random_batch``, until each
    game ends or has taken ``max_actions`` actions.

    The starting states are built once (``init``) and copied per call, so only
    play is timed; each call uses new player seeds, so the games differ.
    Returns (run_once, warm_up) where warm_up() compiles or loads the code.
    """
    import numpy as np

    from hotspot.core import init
    from hotspot.core.rollout import play_random_batch
    from hotspot.core.rules_data import PHASE_OVER

    base = init(scenario, seeds=range(seed0, seed0 + batch))
    counter = [0]

    def run_once():
        states = base.copy()
        k = counter[0]
        counter[0] += 1
        rng = np.arange(k * batch + 1, (k + 1) * batch + 1, dtype=np.uint64)
        counts = play_random_batch(states, rng, max_actions)
        done = states["phase"] == PHASE_OVER
        return {"actions": int(counts.sum()), "games": int(done.sum()), "actions_in_games": int(counts[done].sum())}

    def warm_up():
        states = base[:1].copy()
        play_random_batch(states, np.ones(1, dtype=np.uint64), 10)

    return run_once, warm_up


def measure_core(batch: int, threads: int, repeats: int, min_time: float, max_actions: int = 10**6) -> dict:
    """Atomic actions/s (and complete games/s, actions/game) of the core's random
    play over a batch of ``batch`` games on ``threads`` numba threads: the
    median of ``repeats`` samples."""
    import numba

    run_once, warm_up = random_play_workload(batch, max_actions)
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        warm_up()  # compiles or loads the code, starts the thread pool
        samples = [sample_rate(run_once, min_time) for _ in range(repeats)]
    finally:
        numba.set_num_threads(previous)
    games = sum(s["games"] for s in samples)
    return {
        "batch": batch,
        "threads": threads,
        "actions_per_s": median_of(samples, "actions_per_s"),
        "games_per_s": median_of(samples, "games_per_s"),
        "actions_per_game": (sum(s["actions_in_games"] for s in samples) / games) if games else None,
        "samples": samples,
    }


def thread_counts() -> list[int]:
    """1, 2 and all of numba's threads (deduplicated, within what numba allows)."""
    import numba

    top = int(numba.config.NUMBA_NUM_THREADS)
    return sorted({t for t in (1, 2, top) if 1 <= t <= top})


# ---------------------------------------------------------------- verdicts
def verdict(lo: float, hi: float, threshold: float = 0.5) -> str:
    """A claim "the rate is above ``threshold``" judged on its interval [lo, hi]
    (the strength and ladder benchmarks): ``holds`` if lo > threshold,
    ``does not hold`` if hi < threshold, else ``undecided``."""
    if lo > threshold:
        return "holds"
    if hi < threshold:
        return "does not hold"
    return "undecided"


# ------------------------------------------------------------------ output
def fmt(value, digits: int = 3) -> str:
    """A number for a table: thousands separators for big ones, ``-`` for None."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value != value:  # NaN
            return "nan"
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        if abs(value) >= 100:
            return f"{value:.1f}"
        return f"{value:.{digits}g}"
    return str(value)


def format_table(headers: list[str], rows: list[list]) -> str:
    """A plain-text table: a header, a rule, and right-aligned numeric cells."""
    cells = [[fmt(c) for c in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    numeric = [
        bool(rows) and all(isinstance(row[i], (int, float)) or row[i] is None for row in rows)
        for i in range(len(headers))
    ]

    def line(values):
        return "  ".join(v.rjust(w) if numeric[i] else v.ljust(w) for i, (v, w) in enumerate(zip(values, widths)))

    return "\n".join([line(headers), "  ".join("-" * w for w in widths)] + [line(r) for r in cells])


def print_table(title: str, headers: list[str], rows: list[list]) -> None:
    print(f"\n{title}")
    print(format_table(headers, rows))


def write_result(
    args, name: str, config: dict, rows: list[dict], summary: dict, notes=None, extra: dict | None = None
) -> dict:
    """Write (and return) the script's JSON document to ``args.out``."""
    doc = {
        "benchmark": name,
        "tiny": bool(args.tiny),
        "machine": machine_info(),
        "command": command_line(),
        "time_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "config": config,
        "rows": rows,
        "summary": summary,
        "notes": list(notes or []),
    }
    if extra:
        doc.update(extra)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2, default=_json_default) + "\n", encoding="utf-8")
    print(f"\nwrote {out}")
    return doc


def _json_default(o):
    import numpy as np

    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.bool_):
        return bool(o)
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serializable: {type(o).__name__}")


def child_env(**overrides) -> dict:
    """The environment for a child Python process: this one's, with ``overrides``
    (a value of None removes the variable), with this folder first on
    PYTHONPATH (for ``_common``) and the repository last (for ``hotspot``
    when it is not installed; an installed one comes first)."""
    env = dict(os.environ)
    paths = [str(BENCH_DIR)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p] + [str(REPO_ROOT)]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = str(value)
    return env
