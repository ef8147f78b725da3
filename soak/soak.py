"""Soak: play many games and check every invariant of the state
after every action.

    python -m soak.soak                                   # 10^6 random + 10^4 scripted games (hours)
    python -m soak.soak --random-games 20000 --scripted-games 1000
    python -m soak.soak --boundscheck-games 2000          # also a run under NUMBA_BOUNDSCHECK=1
    python -m soak.soak --tiny                            # smoke sizes

Every game is a fresh start of ``standard`` or ``open`` (the rulebook game:
both set-ups played, D21), alternating, under rules options drawn per batch
from every D22 choice (``CHOICE_OPTIONS``) and the harness default
``max_turns`` (200, D19 revised).  The compiled players (``random``:
uniform over the legal mask; ``scripted``) play both sides; after every
action ``hotspot.core.integrity.state_fault`` checks the whole state (every
index in range, the board and the cell index matching the pieces and units,
pools, pending choices: docs/state-layout.md), and the action chosen from
the mask must be accepted by ``action_error`` (one legality check behind both,
so a disagreement is a violation) and a game not over must have a legal
action.  A game stops at its first violation, which is reported with its
seed, scenario and options so that it can be replayed.

``--boundscheck-games N`` plays N random games again in a child process
with ``NUMBA_BOUNDSCHECK=1`` (numba then raises IndexError on any
out-of-bounds array access inside compiled code) and its own numba cache.
The JSON keeps every batch's seeds and options, and every violation.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from numba import prange

from benchmarks import _common as C
from hotspot.agents.policies import POLICY_NAMES, policy_action
from hotspot.core import init
from hotspot.core._jit import jit
from hotspot.core.actions import NUM_ACTIONS, action_error, apply_action, current_player
from hotspot.core.errors import OK
from hotspot.core.events import EV_WIDTH
from hotspot.core.integrity import FAULTS, state_fault
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.rules_data import CHOICE_OPTIONS, PHASE_OVER

F_NO_MOVE = len(FAULTS)  # the player returned no action in a game not over
F_REFUSED = len(FAULTS) + 1  # an action from the mask refused by action_error
VIOLATIONS = FAULTS + (
    "the player returned no action in a game not over",
    "an action of the mask refused by action_error",
)
SCENARIOS = ("standard", "open")
MAX_ACTIONS = 10**6  # a safety stop; a game is over long before (max_turns)


@jit(parallel=True)
def soak_games(states, policy, rng, max_actions, actions, fault, where):
    """Play every game with compiled ``policy`` on both sides, checking the
    state after every action; per game the actions taken and the first
    violation (code, index) or (0, 0)."""
    for i in prange(states.shape[0]):
        s = states[i]
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
        ev_n = np.zeros(1, dtype=np.int32)
        code, j = state_fault(s)
        n = 0
        while code == OK and s["phase"] != PHASE_OVER and n < max_actions:
            side = current_player(s)
            a = policy_action(policy, s, mask, rng[i], side)
            if a < 0:
                code, j = F_NO_MOVE, n
                break
            if action_error(s, a) != OK:
                code, j = F_REFUSED, a
                break
            apply_action(s, a, ev, ev_n)
            n += 1
            code, j = state_fault(s)
        actions[i] = n
        fault[i] = code
        where[i] = j


def batch_rules(rng: np.random.Generator) -> dict:
    """Rules options for one batch: every D22 choice drawn uniformly."""
    return {name: str(rng.choice(values)) for name, values in CHOICE_OPTIONS.items()}


def soak(policy: str, games: int, batch: int, seed: int, max_turns: int, log) -> dict:
    """Play ``games`` games of ``policy`` against itself in batches; totals and violations."""
    pid = np.int64(POLICY_NAMES.index(policy))
    options_rng = np.random.default_rng(seed)
    done = actions_total = 0
    violations, batches = [], []
    t0 = time.perf_counter()
    b = 0
    while done < games:
        n = min(batch, games - done)
        scenario = SCENARIOS[b % len(SCENARIOS)]
        rules = batch_rules(options_rng)
        first = seed + done
        states = init(scenario, seeds=range(first, first + n), rules=rules, max_turns=max_turns)
        rng = np.zeros((n, 2), dtype=np.uint64)
        rng[:, 0] = np.arange(first, first + n, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        rng[:, 1] = np.arange(first, first + n, dtype=np.uint64) * np.uint64(2) + np.uint64(2)
        actions = np.zeros(n, dtype=np.int64)
        fault = np.zeros(n, dtype=np.int64)
        where = np.zeros(n, dtype=np.int64)
        soak_games(states, pid, rng, np.int64(MAX_ACTIONS), actions, fault, where)
        for i in np.flatnonzero(fault):
            violations.append(
                {
                    "policy": policy,
                    "scenario": scenario,
                    "rules": rules,
                    "dice_seed": first + int(i),
                    "agent_seeds": [2 * (first + int(i)) + 1, 2 * (first + int(i)) + 2],
                    "after_actions": int(actions[i]),
                    "violation": VIOLATIONS[int(fault[i])],
                    "index": int(where[i]),
                }
            )
        batches.append(
            {
                "scenario": scenario,
                "rules": rules,
                "first_seed": first,
                "games": n,
                "actions": int(actions.sum()),
                "unfinished": int((states["phase"] != PHASE_OVER).sum()),
            }
        )
        done += n
        actions_total += int(actions.sum())
        b += 1
        wall = time.perf_counter() - t0
        log(
            f"  {policy}: {done:,}/{games:,} games, {actions_total:,} actions checked, "
            f"{len(violations)} violations, {wall:,.0f} s"
        )
    wall = time.perf_counter() - t0
    return {
        "policy": policy,
        "games": done,
        "actions_checked": actions_total,
        "violations": violations,
        "wall_s": wall,
        "games_per_s": done / wall if wall else None,
        "batches": batches,
    }


def boundscheck_run(games: int, batch: int, seed: int, max_turns: int) -> dict:
    """``games`` random games in a child process under NUMBA_BOUNDSCHECK=1, own cache."""
    with tempfile.TemporaryDirectory(prefix="hotspot-boundscheck-") as cache, tempfile.TemporaryDirectory() as out_dir:
        out = os.path.join(out_dir, "bc.json")
        env = C.child_env(NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=cache)
        cmd = [
            sys.executable,
            "-m",
            "soak.soak",
            "--random-games",
            str(games),
            "--scripted-games",
            "0",
            "--batch",
            str(batch),
            "--seed",
            str(seed),
            "--max-turns",
            str(max_turns),
            "--out",
            out,
        ]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, env=env, cwd=C.REPO_ROOT, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            return {
                "games": games,
                "ok": False,
                "returncode": proc.returncode,
                "wall_s": wall,
                "stderr_tail": proc.stderr[-4000:],
            }
        doc = json.loads(open(out).read())
        run = doc["rows"][0]
        return {
            "games": run["games"],
            "ok": not run["violations"],
            "returncode": 0,
            "wall_s": wall,
            "actions_checked": run["actions_checked"],
            "violations": run["violations"],
        }


def main(argv=None) -> int:
    p = C.make_parser("soak", __doc__)
    p.add_argument("--random-games", type=int, default=10**6)
    p.add_argument("--scripted-games", type=int, default=10**4)
    p.add_argument(
        "--boundscheck-games",
        type=int,
        default=0,
        help="random games to play again under NUMBA_BOUNDSCHECK=1 (default none)",
    )
    p.add_argument("--batch", type=int, default=4096)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    args = p.parse_args(argv)
    if args.tiny:
        args.random_games, args.scripted_games, args.batch = 16, 4, 8
    for name in ("random_games", "scripted_games", "boundscheck_games"):
        if getattr(args, name) < 0:
            p.error(f"--{name.replace('_', '-')} must be >= 0")
    if args.batch < 1 or args.max_turns < 1:
        p.error("--batch and --max-turns must be >= 1")

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    rows = []
    for policy, games in (("random", args.random_games), ("scripted", args.scripted_games)):
        if games:
            rows.append(soak(policy, games, args.batch, args.seed, args.max_turns, log))
    bc = None
    if args.boundscheck_games:
        log(f"  boundscheck: {args.boundscheck_games:,} random games under NUMBA_BOUNDSCHECK=1 ...")
        bc = boundscheck_run(args.boundscheck_games, min(args.batch, 1024), args.seed, args.max_turns)
    print(f"{'policy':<10} {'games':>10} {'actions checked':>16} {'violations':>10} {'games/s':>9}")
    for r in rows:
        print(
            f"{r['policy']:<10} {r['games']:>10,} {r['actions_checked']:>16,} {len(r['violations']):>10} "
            f"{r['games_per_s']:>9,.0f}"
        )
    if bc is not None:
        print(
            f"boundscheck: {bc['games']:,} random games, {'no' if bc['ok'] else 'SOME'} out-of-bounds "
            f"access or violation (rc {bc['returncode']})"
        )
    total = sum(len(r["violations"]) for r in rows) + (0 if bc is None or bc["ok"] else 1)
    summary = {
        "games": {r["policy"]: r["games"] for r in rows},
        "actions_checked": sum(r["actions_checked"] for r in rows),
        "violations": sum(len(r["violations"]) for r in rows),
        "boundscheck_games": 0 if bc is None else bc["games"],
        "boundscheck_ok": None if bc is None else bc["ok"],
    }
    C.write_result(
        args,
        "soak",
        config=vars(args) | {"out": str(args.out)},
        rows=rows,
        summary=summary,
        notes=[
            "every invariant of docs/state-layout.md checked after every action (hotspot.core.integrity.state_fault)"
        ],
        extra={"boundscheck": bc},
    )
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
