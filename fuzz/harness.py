"""The fuzzer's runner: the target registry (:func:`target`), hypothesis runs
in this process (:func:`run_target`) or in a child process each
(:func:`run_child`), ``--replay`` and the command line (:func:`main`)."""

from __future__ import annotations

import faulthandler
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from benchmarks import _common as C

from .contract import describe, undescribe

DEFAULT_EXAMPLES = 1000
TINY_EXAMPLES = 10
DEFAULT_HANG_S = 120.0
#: the first examples may compile code (numba loads or compiles a function at
#: its first call): only a hang (--hang-s) fails them, not the deadline
WARM_UP_EXAMPLES = 50
MAX_FAILURES_KEPT = 20
CHUNK = 5000  # examples per hypothesis run (see run_target)


@dataclass
class Target:
    name: str
    doc: str
    setup: Callable[[Path], Any]  # builds the pools (once a process), returns a context
    strategy: Callable[[Any], Any]  # context -> hypothesis strategy of inputs
    check: Callable[[Any, Any], str]  # (context, input) -> outcome label; raises on a broken contract
    both: bool = True  # a few hundred examples must give accepted and refused inputs
    deadline_s: float = 5.0  # one example slower than this is a failure (after the warm-up)


TARGETS: dict[str, Target] = {}


def target(name: str, doc: str, setup, strategy, both: bool = True, deadline_s: float = 5.0):
    def deco(fn):
        TARGETS[name] = Target(name, doc, setup, strategy, fn, both, deadline_s)
        return fn

    return deco


def run_target(
    t: Target,
    examples: int,
    seed: int,
    workdir: Path,
    deadline_s: float | None = None,
    hang_s: float = DEFAULT_HANG_S,
    log=None,
) -> dict:
    """Run target ``t`` on ``examples`` hypothesis-drawn inputs in this process;
    its row: examples run, outcomes by kind, failures (with their inputs)."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hseed

    workdir.mkdir(parents=True, exist_ok=True)
    last_input = workdir / "last_input.json"
    crash_log = open(workdir / "faulthandler.txt", "w")  # noqa: SIM115 - open for the process' life
    faulthandler.enable(file=crash_log)
    t_setup = time.perf_counter()
    ctx = t.setup(workdir)
    setup_s = time.perf_counter() - t_setup
    deadline = t.deadline_s if deadline_s is None else deadline_s
    outcomes: dict = {}
    failures: list = []
    stats = {"examples": 0, "failed": 0, "slow": 0, "max_example_s": 0.0}

    def fail(x, kind, message, tb=""):
        stats["failed"] += 1
        if len(failures) < MAX_FAILURES_KEPT:
            failures.append(
                {
                    "example": stats["examples"],
                    "kind": kind,
                    "message": message[:3000],
                    "traceback": tb[-4000:],
                    "input": describe(x),
                }
            )
        if log:
            log(f"  {t.name}: FAILURE at example {stats['examples']}: {kind}: {message[:300]}")

    strategy = t.strategy(ctx)

    def one(x):
        n = stats["examples"]
        last_input.write_text(json.dumps({"target": t.name, "example": n, "seed": seed, "input": describe(x)}))
        faulthandler.dump_traceback_later(hang_s, exit=True, file=crash_log)
        t0 = time.perf_counter()
        try:
            outcome = t.check(ctx, x)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - every other exception breaks the contract
            outcome = None
            fail(
                x,
                type(exc).__name__,
                f"{type(exc).__name__}: {_safe_str(exc)}",
                "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)),
            )
        finally:
            faulthandler.cancel_dump_traceback_later()
        dt = time.perf_counter() - t0
        if dt > stats["max_example_s"]:
            stats["max_example_s"] = dt
            stats["slowest"] = {"example": n, "seconds": dt, "input": describe(x)}
        if dt > deadline and n >= WARM_UP_EXAMPLES:
            stats["slow"] += 1
            fail(x, "slow", f"the example took {dt:.2f} s, more than the deadline of {deadline} s")
        if outcome is not None:
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        stats["examples"] += 1
        if log and stats["examples"] % 1000 == 0:
            log(f"  {t.name}: {stats['examples']:,} examples, {stats['failed']} failures")

    t0 = time.perf_counter()
    # in runs of at most CHUNK examples: hypothesis keeps every example's choices
    # for the length of a run (about 10 MB a thousand state_bytes examples)
    done, part = 0, 0
    while done < examples:
        n = min(CHUNK, examples - done)
        run = settings(
            max_examples=n,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
            verbosity=Verbosity.quiet,
            derandomize=False,
        )(hseed(seed if part == 0 else f"{seed}/{part}")(given(strategy)(one)))
        before = stats["examples"]
        run()
        if stats["examples"] == before:  # hypothesis found nothing new to try
            break
        done += n
        part += 1
    wall = time.perf_counter() - t0
    faulthandler.disable()
    crash_log.close()
    accepted = sum(v for k, v in outcomes.items() if k.startswith("accepted"))
    refusals = sum(v for k, v in outcomes.items() if k.startswith("refused"))
    return {
        "target": t.name,
        "examples": stats["examples"],
        "outcomes": dict(sorted(outcomes.items())),
        "accepted": accepted,
        "refused": refusals,
        "failures": stats["failed"],
        "slow": stats["slow"],
        "failure_examples": failures,
        "wall_s": wall,
        "setup_s": setup_s,
        "examples_per_s": stats["examples"] / wall if wall else None,
        "max_example_s": stats["max_example_s"],
        "slowest_example": stats.get("slowest"),
        "deadline_s": deadline,
        "seed": seed,
        "both_expected": t.both,
        "died": None,
    }


def _safe_str(exc) -> str:
    try:
        return str(exc)
    except Exception:  # noqa: BLE001
        return f"<str() of the {type(exc).__name__} failed>"


def _die_with_parent():  # pragma: no cover - runs in the child before exec
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001 - not Linux: the child may outlive a killed parent
        pass


def run_child(name: str, args, workdir: Path, log) -> dict:
    """Run one target in a child process (``python -m fuzz --in-process``, run
    from the repository's root); a child that dies (signal, hang watchdog,
    timeout) becomes a failure row naming the target and its last input."""
    tdir = workdir / name
    tdir.mkdir(parents=True, exist_ok=True)
    out = tdir / "result.json"
    out.unlink(missing_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "fuzz",
        "--in-process",
        "--target",
        name,
        "--examples",
        str(args.examples),
        "--seed",
        str(args.seed),
        "--out",
        str(out),
        "--workdir",
        str(workdir),
        "--hang-s",
        str(args.hang_s),
    ]
    if args.deadline is not None:
        cmd += ["--deadline", str(args.deadline)]
    t0 = time.perf_counter()
    with open(tdir / "stdout.txt", "w") as so, open(tdir / "stderr.txt", "w") as se:
        proc = subprocess.Popen(
            cmd,
            stdout=so,
            stderr=se,
            env=C.child_env(),
            cwd=str(C.REPO_ROOT),
            preexec_fn=_die_with_parent if os.name == "posix" else None,
        )
        try:
            rc = proc.wait(timeout=args.timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = proc.wait()
            timed_out = True
    wall = time.perf_counter() - t0
    if not timed_out and out.exists():
        row = json.loads(out.read_text())["rows"][0]
        row["child_wall_s"] = wall
        return row
    crash = (tdir / "faulthandler.txt").read_text(errors="replace") if (tdir / "faulthandler.txt").exists() else ""
    stderr = (tdir / "stderr.txt").read_text(errors="replace")
    last = None
    if (tdir / "last_input.json").exists():
        try:
            last = json.loads((tdir / "last_input.json").read_text())
        except ValueError:
            last = None
    if timed_out:
        kind = f"timeout: the child ran past --timeout {args.timeout} s"
    elif rc < 0:
        kind = f"crash: killed by signal {signal.Signals(-rc).name}"
    elif "Timeout (" in crash:
        kind = f"hang: one example ran past --hang-s {args.hang_s} s"
    else:
        kind = f"child exited with status {rc} and no result"
    log(f"  {name}: {kind}; last input: {tdir / 'last_input.json'}")
    return {
        "target": name,
        "examples": None if last is None else last["example"],
        "outcomes": {},
        "accepted": 0,
        "refused": 0,
        "failures": 1,
        "slow": 0,
        "failure_examples": [
            {
                "example": None if last is None else last["example"],
                "kind": kind,
                "message": (crash or stderr)[-4000:],
                "traceback": stderr[-4000:],
                "input": None if last is None else last["input"],
            }
        ],
        "wall_s": wall,
        "child_wall_s": wall,
        "seed": args.seed,
        "both_expected": TARGETS[name].both,
        "died": {"returncode": rc, "kind": kind, "last_input_file": str(tdir / "last_input.json")},
    }


def replay(path: Path) -> int:
    """Run one saved input (a last_input.json, or a failure entry of a result) again."""
    doc = json.loads(Path(path).read_text())
    name = doc["target"]
    x = undescribe(doc["input"])
    t = TARGETS[name]
    with tempfile.TemporaryDirectory(prefix="hotspot-fuzz-replay-") as tmp:
        ctx = t.setup(Path(tmp))
        print(f"{name}: input {describe(x)['repr'][:500]}")
        try:
            print(f"outcome: {t.check(ctx, x)}")
        except BaseException:  # noqa: BLE001
            traceback.print_exc()
            return 1
    return 0


def main(argv=None) -> int:
    p = C.make_parser("fuzz", sys.modules[__package__].__doc__)
    p.prog = "python -m fuzz"
    p.add_argument(
        "--target",
        action="append",
        default=None,
        choices=sorted(TARGETS),
        metavar="NAME",
        help=f"a target to run (repeatable; default all: {', '.join(n for n in TARGETS if n[0] != '_')})",
    )
    p.add_argument(
        "--examples",
        type=int,
        default=None,
        help=f"examples per target (default {DEFAULT_EXAMPLES}, tiny {TINY_EXAMPLES})",
    )
    p.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    p.add_argument(
        "--deadline",
        type=float,
        default=None,
        help="seconds one example may take (default: the target's, 5 s; 30 s for cli_args)",
    )
    p.add_argument(
        "--hang-s",
        type=float,
        default=DEFAULT_HANG_S,
        help="an example running this long is a hang: the child is stopped (default %(default)s)",
    )
    p.add_argument("--timeout", type=float, default=None, help="seconds a target's child may run (default none)")
    p.add_argument("--jobs", type=int, default=1, help="targets run at once, one child each (default 1)")
    p.add_argument(
        "--workdir",
        type=Path,
        default=None,
        help="folder for last inputs and crash logs (default: a temporary one, kept on failure)",
    )
    p.add_argument("--in-process", action="store_true", help="run the targets in this process (no child)")
    p.add_argument(
        "--replay",
        type=Path,
        default=None,
        metavar="FILE",
        help="run the input saved in FILE (last_input.json) once and exit",
    )
    args = p.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    if args.examples is None:
        args.examples = TINY_EXAMPLES if args.tiny else DEFAULT_EXAMPLES
    if args.examples < 1 or args.jobs < 1 or args.hang_s <= 0:
        p.error("--examples, --jobs and --hang-s must be positive")
    names = args.target or [n for n in TARGETS if not n.startswith("_")]

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    own_workdir = args.workdir is None
    workdir = Path(tempfile.mkdtemp(prefix="hotspot-fuzz-")) if own_workdir else args.workdir
    workdir.mkdir(parents=True, exist_ok=True)
    rows = []
    t0 = time.perf_counter()
    if args.in_process:
        for name in names:
            log(f"  {name}: {args.examples:,} examples ...")
            rows.append(
                run_target(TARGETS[name], args.examples, args.seed, workdir / name, args.deadline, args.hang_s, log)
            )
    else:
        pending = list(names)
        if args.jobs == 1:
            for name in pending:
                log(f"  {name}: {args.examples:,} examples (child process) ...")
                rows.append(run_child(name, args, workdir, log))
        else:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(args.jobs) as pool:
                rows = list(pool.map(lambda n: run_child(n, args, workdir, log), pending))
    wall = time.perf_counter() - t0

    print(
        f"{'target':<18} {'examples':>9} {'accepted':>9} {'refused':>9} {'failures':>8} {'wall s':>8} "
        f"{'ex/s':>7} {'max ex s':>8} {'child s':>8}"
    )
    for r in rows:
        print(
            f"{r['target']:<18} {r['examples'] if r['examples'] is not None else '-':>9} {r['accepted']:>9} "
            f"{r['refused']:>9} {r['failures']:>8} {r['wall_s']:>8.1f} "
            f"{(r.get('examples_per_s') or 0):>7.1f} {(r.get('max_example_s') or 0):>8.2f} "
            f"{r.get('child_wall_s') or 0:>8.1f}"
        )
        for f in r["failure_examples"][:3]:
            print(f"    FAILURE ({f['kind']}): {f['message'][:400]}")
    failures = sum(r["failures"] for r in rows)
    summary = {
        "targets": [r["target"] for r in rows],
        "examples": sum(r["examples"] or 0 for r in rows),
        "failures": failures,
        "crashed": [r["target"] for r in rows if r.get("died")],
        "ok": failures == 0,
        "wall_s": wall,
        "workdir": str(workdir),
    }
    C.write_result(
        args,
        "fuzz",
        config={
            "targets": names,
            "examples": args.examples,
            "seed": args.seed,
            "deadline": args.deadline,
            "hang_s": args.hang_s,
            "jobs": args.jobs,
            "in_process": args.in_process,
            "timeout": args.timeout,
        },
        rows=rows,
        summary=summary,
        notes=[
            "accepted: the input worked end to end; refused:<Exception>: the documented refusal, "
            "raised by hotspot on purpose, nothing changed; failures keep their input (--replay)"
        ],
    )
    if failures:
        log(f"{failures} failure(s); inputs and crash logs in {workdir}")
    elif own_workdir:
        shutil.rmtree(workdir, ignore_errors=True)  # nothing to keep (the JSON names it all the same)
    return 1 if failures else 0
