"""Play-out speed against a reference commit, measured in the same run.

Every search spends its time in play-outs, so the speed of the play-out
players is measured against the code of a reference commit (default
``e727776``, before the play-out work) on the same machine minutes apart:
the reference is exported with ``git archive`` into a temporary folder and
each side runs in its own fresh worker process (``PYTHONPATH`` pointing at
its package; each compiles into its own numba cache folder, untimed).

Workloads, one numba thread, the same games on the same seeds:

* ``random``: the core's random player, ``play_random_batch`` on a batch of
  1024 fresh ``standard`` games (atomic actions/s);
* ``scripted``: the scripted player on both sides of ``open`` games (its
  set-up plans included, 3.2, 3.3, D21), ``agents.policies.play_games``, turn
  cap ``--max-turns`` (actions/s);
* ``ismcts``: ``ISMCTSAgent(iterations=N)`` deciding for both sides of one
  ``open`` game through the Python agent API, the first ``--decisions``
  decisions after the set-up (searched decisions/s).

The two sides' workers are alternated ``--rounds`` times (default 3: this
tree, the reference, this tree, ...; only the first of each compiles), and
each workload keeps its fastest round on each side: on a machine whose speed
drifts over minutes (a shared virtual machine), a ratio of two runs taken
one after the other measures the drift as much as the code.

Reported: each side's rate, the ratio, and whether the two sides played the
same games (a checksum of the final states' turns, results and action
counts); where they differ, the algorithm changed and the ratio compares
different games.

    python benchmarks/bench_playout.py            # a few minutes (two cold compiles)
    python benchmarks/bench_playout.py --tiny     # CI smoke run: the tree against itself, the project's cache
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import _common as C

NAME = "playout"
REFERENCE = "e727776"
TARGET_RATIO = 3.0  # the target: scripted play-outs and ISMCTS decisions >= 3x the reference


def worker(args) -> dict:
    """In a fresh process: the three workloads on the package on sys.path."""
    import numba
    import numpy as np

    numba.set_num_threads(1)
    import hotspot
    from hotspot.agents.base import POLICY_SCRIPTED
    from hotspot.agents.ismcts import ISMCTSAgent
    from hotspot.agents.policies import play_games
    from hotspot.core import Game, init
    from hotspot.core.rollout import play_random_batch

    out = {"package": str(Path(hotspot.__file__).resolve().parent)}

    def best_of(run, repeats):
        best = None
        for _ in range(repeats):
            t0 = time.perf_counter()
            value = run()
            dt = time.perf_counter() - t0
            best = dt if best is None or dt < best else best
        return best, value

    # random play
    batch = 64 if args.tiny else 1024
    base = init("standard", seeds=range(batch))
    seeds = np.arange(1, batch + 1, dtype=np.uint64)

    def random_run():
        s = base.copy()
        counts = play_random_batch(s, seeds.copy(), 10**6)
        return int(counts.sum()), int(s["turn"].sum()) * 7 + int(s["result"].sum())

    random_run()  # compile, untimed
    dt, (actions, check) = best_of(random_run, args.repeats)
    out["random"] = {"actions": actions, "seconds": dt, "rate": actions / dt, "checksum": check}

    # scripted play-outs
    games = args.scripted_games
    sbase = init("open", seeds=range(games), max_turns=args.max_turns)
    srng = np.arange(1, 2 * games + 1, dtype=np.uint64).reshape(games, 2)

    def scripted_run():
        s = sbase.copy()
        counts = np.zeros(games, dtype=np.int64)
        play_games(s, POLICY_SCRIPTED, POLICY_SCRIPTED, srng.copy(), 10**6, counts)
        n = int(s["n_actions"].sum())
        return n, int(s["turn"].sum()) * 7 + int(s["result"].sum()) + 3 * n

    play_games(
        init("open", seeds=[0], max_turns=2),
        POLICY_SCRIPTED,
        POLICY_SCRIPTED,
        np.ones((1, 2), dtype=np.uint64),
        10**6,
        np.zeros(1, dtype=np.int64),
    )  # compile
    dt, (actions, check) = best_of(scripted_run, args.repeats)
    out["scripted"] = {"actions": actions, "seconds": dt, "rate": actions / dt, "checksum": check}

    # ISMCTS at a fixed iteration budget, through the agent API
    def ismcts_run():
        game = Game("open", seed=5, max_turns=args.max_turns)
        agents = [ISMCTSAgent(iterations=args.iterations, seed=11), ISMCTSAgent(iterations=args.iterations, seed=12)]
        searched = 0
        played = []
        t_search = 0.0
        while not game.is_terminal() and searched < args.decisions:
            side = game.current_player()
            mask = game.legal_action_mask()
            setting_up = game.phase > 8  # set-up phases Z and T (9, 10): the set-up search, not timed
            t0 = time.perf_counter()
            a = int(agents[side].act(game.observation(side), mask, side))
            if not setting_up:
                t_search += time.perf_counter() - t0
                searched += 1
            played.append(a)
            game.apply_action(a)
        return t_search, searched, hash(tuple(played)) & 0xFFFFFFFF

    ismcts_run()  # compile, untimed
    best = None
    for _ in range(args.repeats):
        t_search, searched, check = ismcts_run()
        best = t_search if best is None or t_search < best else best
    out["ismcts"] = {"decisions": searched, "seconds": best, "rate": searched / best, "checksum": check}
    return out


def export_reference(commit: str, where: Path) -> Path:
    """The package of ``commit`` (``git archive``) under ``where``; its root."""
    proc = subprocess.run(["git", "archive", "--format=tar", commit, "hotspot"], cwd=C.REPO_ROOT, capture_output=True)
    if proc.returncode != 0:
        raise SystemExit(f"cannot export commit {commit}: {proc.stderr.decode(errors='replace').strip()}")
    where.mkdir(parents=True, exist_ok=True)
    tar_path = where / "ref.tar"
    tar_path.write_bytes(proc.stdout)
    with tarfile.open(tar_path) as tar:
        tar.extractall(where, filter="data")
    return where


def spawn(root: Path | None, argv: list[str], cache: Path | None) -> dict:
    """One worker on the package under ``root`` (None: this tree's) with numba
    cache ``cache`` (None: the project's own)."""
    env = C.child_env(NUMBA_CACHE_DIR=str(cache)) if cache is not None else C.child_env()
    if root is not None:
        env["PYTHONPATH"] = f"{root}:{env.get('PYTHONPATH', '')}"
    proc = subprocess.run(
        [sys.executable, __file__, "--worker"] + argv,
        env=env,
        capture_output=True,
        text=True,
        cwd=str(root or C.REPO_ROOT),
    )
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
        raise SystemExit(f"play-out worker failed with exit code {proc.returncode}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def best_run(runs: list[dict]) -> dict:
    """Each workload's fastest of the rounds' worker results (``rounds``: how
    many there were; ``checksums_agree``: every round played the same games)."""
    best = dict(runs[0])
    for what in ("random", "scripted", "ismcts"):
        best[what] = max((r[what] for r in runs), key=lambda w: w["rate"])
        best[what]["checksums_agree"] = len({r[what]["checksum"] for r in runs}) == 1
        best[what]["rates"] = [r[what]["rate"] for r in runs]
    best["rounds"] = len(runs)
    return best


def main(argv=None) -> dict:
    p = C.make_parser("bench_playout", __doc__)
    p.add_argument(
        "--reference",
        default=None,
        help=f"commit to compare with (default {REFERENCE}; tiny: this tree against itself)",
    )
    p.add_argument("--scripted-games", type=int, default=None, help="scripted games (default 100, tiny 4)")
    p.add_argument("--max-turns", type=int, default=40, help="turn cap of the scripted and ISMCTS games")
    p.add_argument("--iterations", type=int, default=None, help="ISMCTS iterations a decision (default 64, tiny 4)")
    p.add_argument("--decisions", type=int, default=None, help="searched decisions timed (default 150, tiny 5)")
    p.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="worker rounds, this tree and the reference alternated, the best of each kept (default 3, tiny 1)",
    )
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.repeats = args.repeats or (1 if args.tiny else 3)
    args.rounds = args.rounds or (1 if args.tiny else 3)
    args.scripted_games = args.scripted_games or (4 if args.tiny else 100)
    args.iterations = args.iterations or (4 if args.tiny else 64)
    args.decisions = args.decisions or (5 if args.tiny else 150)
    if args.worker:
        print(json.dumps(worker(args)))
        return {}
    wargv = [
        "--repeats",
        str(args.repeats),
        "--scripted-games",
        str(args.scripted_games),
        "--max-turns",
        str(args.max_turns),
        "--iterations",
        str(args.iterations),
        "--decisions",
        str(args.decisions),
    ] + (["--tiny"] if args.tiny else [])
    runs_this, runs_ref = [], []
    if args.tiny and args.reference is None:  # the tree against itself: no export, no cold compile
        reference = "this tree"
        for _ in range(args.rounds):
            runs_this.append(spawn(None, wargv, None))
            runs_ref.append(spawn(None, wargv, None))
    else:
        reference = args.reference or REFERENCE
        tmp = Path(tempfile.mkdtemp(prefix="hotspot-playout-"))
        try:
            ref_root = export_reference(reference, tmp / "ref")
            (tmp / "cache-ref").mkdir()
            (tmp / "cache-this").mkdir()
            for _ in range(args.rounds):  # alternated: a machine whose speed drifts slows both sides alike
                runs_this.append(spawn(None, wargv, tmp / "cache-this"))
                runs_ref.append(spawn(ref_root, wargv, tmp / "cache-ref"))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    this, ref = best_run(runs_this), best_run(runs_ref)
    rows = []
    for what, unit in (("random", "actions/s"), ("scripted", "actions/s"), ("ismcts", "searched decisions/s")):
        rows.append(
            {
                "workload": what,
                "unit": unit,
                "this": this[what]["rate"],
                "reference": ref[what]["rate"],
                "ratio": this[what]["rate"] / ref[what]["rate"],
                "same_games": this[what]["checksum"] == ref[what]["checksum"]
                and this[what]["checksums_agree"]
                and ref[what]["checksums_agree"],
            }
        )
    C.print_table(
        f"Play-out speed, this tree against {reference} (one thread, same run)",
        ["workload", "unit", "this", "reference", "ratio", "same games"],
        [[r["workload"], r["unit"], r["this"], r["reference"], r["ratio"], r["same_games"]] for r in rows],
    )
    summary = {"reference": reference, "target_ratio": TARGET_RATIO}
    for r in rows:
        summary[f"{r['workload']}_ratio"] = r["ratio"]
        summary[f"{r['workload']}_same_games"] = r["same_games"]
    config = {
        "reference": reference,
        "scripted_games": args.scripted_games,
        "max_turns": args.max_turns,
        "iterations": args.iterations,
        "decisions": args.decisions,
        "repeats": args.repeats,
        "rounds": args.rounds,
    }
    return C.write_result(args, NAME, config, rows, summary, extra={"this": this, "reference_run": ref})


if __name__ == "__main__":
    main()
