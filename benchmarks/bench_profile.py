"""Where an atomic action's time goes, and why two threads do not give 2x.

**Profile.**  Random play of a batch of standard games on one thread is
split into its parts by replaying the same games three ways (the same
actions, the same states, so the differences are the parts' costs):

* ``apply``: apply the recorded actions only (``actions.apply_action``);
* ``mask + apply``: compute the legal set (``actions.legal_actions``, the
  list the mask is made from) before each recorded action, then apply it;
* ``full``: the random player (``rollout.play_random_one``: the legal list,
  one draw from the player's splitmix64 generator, apply), which replays the
  very same games because it is given the same generator seeds.

So *mask* (the legal set) = (mask + apply) - apply and *choice* (the draw)
= full - (mask + apply).  The legal set's time is also split by phase
class (crustal movement, unit movement, combat, control, set-up) by timing
it alone on the states of each class.

**Scripted play-outs.**  The play-out every search spends its time in:
scripted against scripted on ``open`` (set-up included), one thread.  The
games are recorded (every state before a decision), then each decision is
replayed part by part, by phase: the legal mask (``legal_action_mask``),
the information state (``observation.observe``, D20), what the player reads
off it hex by hex (``scripted.common.cell_info``), the whole decision
(``scripted_action_buf`` with its buffers held, as the compiled loops run
it; *plan* is what is left of it after the three parts) and applying the
chosen action.

**Thread scaling.**  The same batch on one numba thread, on two, and as two
processes of one thread each playing half the batch at the same time (no
shared memory at all: if those scale like the threads, the cause is the
machine, not numba or false sharing).  The work each thread of ``prange``'s
static schedule gets is computed from the games' action counts (the
imbalance of uneven game lengths), and the batch is also run with numba's
dynamic schedule (``numba.set_parallel_chunksize``).

    python benchmarks/bench_profile.py            # about a minute
    python benchmarks/bench_profile.py --tiny     # CI smoke run
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import _common as C
import numpy as np
from numba import njit

from hotspot.agents.policies import POLICY_SCRIPTED, new_policy_buffers, policy_action_buf
from hotspot.agents.scripted.common import cell_info
from hotspot.core import init
from hotspot.core.actions import NUM_ACTIONS, apply_action, current_player, legal_action_mask, legal_actions
from hotspot.core.events import EV_WIDTH
from hotspot.core.observation import observe
from hotspot.core.rollout import play_random_batch, play_random_one, random_action
from hotspot.core.rules_data import PHASE_OVER
from hotspot.core.sequence import is_combat_phase, is_crustal_phase, is_movement_phase
from hotspot.core.setup import is_setup_phase

NAME = "profile"
CLASSES = ("crustal movement", "unit movement", "combat", "control", "set-up", "loss choice")


@njit(cache=True)
def _phase_class(s):
    p = s["phase"]
    if s["loss_side"] >= 0:
        return 5
    if is_setup_phase(p):
        return 4
    if is_crustal_phase(p):
        return 0
    if is_movement_phase(p):
        return 1
    if is_combat_phase(p):
        return 2
    return 3


@njit(cache=True)
def record_games(states, rng, max_actions, actions, counts):
    """Random play (the core's random player) of every game, one thread,
    keeping each game's actions."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    for i in range(states.shape[0]):
        s = states[i]
        n = 0
        while s["phase"] != PHASE_OVER and n < max_actions:
            a = random_action(s, mask, rng, i)
            if a < 0:
                break
            actions[i, n] = a
            apply_action(s, a, ev, ev_n)
            n += 1
        counts[i] = n


@njit(cache=True)
def replay_apply(states, actions, counts):
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    for i in range(states.shape[0]):
        for j in range(counts[i]):
            apply_action(states[i], actions[i, j], ev, ev_n)


@njit(cache=True)
def replay_mask_apply(states, actions, counts):
    acts = np.empty(NUM_ACTIONS, dtype=np.int16)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    legal = 0
    for i in range(states.shape[0]):
        for j in range(counts[i]):
            n = legal_actions(states[i], acts)
            for k in range(n):
                if acts[k] == actions[i, j]:
                    legal += 1
            apply_action(states[i], actions[i, j], ev, ev_n)
    return legal


@njit(cache=True)
def play_full(states, rng, max_actions):
    total = 0
    for i in range(states.shape[0]):
        total += play_random_one(states[i], rng, i, max_actions)
    return total


@njit(cache=True)
def snapshot_states(states, actions, counts, every, out, classes):
    """States met along the recorded games (every ``every``-th), with their phase class."""
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    k = 0
    for i in range(states.shape[0]):
        s = states[i]
        for j in range(counts[i]):
            if j % every == 0 and k < out.shape[0]:
                out[k] = s
                classes[k] = _phase_class(s)
                k += 1
            apply_action(s, actions[i, j], ev, ev_n)
    return k


@njit(cache=True)
def masks_only(states, repeat):
    """The legal set of each state ``repeat`` times in a row (the state warm in
    the cache, as in play, where it is computed on the state just changed)."""
    acts = np.empty(NUM_ACTIONS, dtype=np.int16)
    legal = 0
    for i in range(states.shape[0]):
        for _ in range(repeat):
            legal += legal_actions(states[i], acts)
    return legal


def _best_time(fn, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def profile(batch: int, repeats: int, max_actions: int) -> dict:
    import numba

    numba.set_num_threads(1)
    base = init("standard", seeds=range(batch))
    seeds = np.arange(1, batch + 1, dtype=np.uint64)
    actions = np.zeros((batch, max_actions), dtype=np.int64)
    counts = np.zeros(batch, dtype=np.int64)
    record_games(base.copy(), seeds.copy(), max_actions, actions, counts)
    total = int(counts.sum())
    # the three replays (warm-up calls compile or load them first)
    for fn in (
        lambda: replay_apply(base[:1].copy(), actions[:1], counts[:1]),
        lambda: replay_mask_apply(base[:1].copy(), actions[:1], counts[:1]),
        lambda: play_full(base[:1].copy(), seeds[:1].copy(), max_actions),
    ):
        fn()
    t_apply = _best_time(lambda: replay_apply(base.copy(), actions, counts), repeats)
    legal = replay_mask_apply(base.copy(), actions, counts)
    assert legal == total, "a recorded action was not legal on replay"
    t_mask_apply = _best_time(lambda: replay_mask_apply(base.copy(), actions, counts), repeats)
    check = base.copy()
    assert play_full(check, seeds.copy(), max_actions) == total, "the random player did not replay the games"
    t_full = _best_time(lambda: play_full(base.copy(), seeds.copy(), max_actions), repeats)
    copy_s = _best_time(lambda: base.copy(), repeats)
    t_apply, t_mask_apply, t_full = (t - copy_s for t in (t_apply, t_mask_apply, t_full))
    per = 1e9 / total
    parts = {
        "apply_ns": t_apply * per,
        "mask_ns": (t_mask_apply - t_apply) * per,
        "choice_ns": (t_full - t_mask_apply) * per,
        "total_ns": t_full * per,
    }
    # the mask by phase class, on states met along the games
    every = 7
    snaps = np.zeros(total // every + batch + 1, dtype=base.dtype)
    classes = np.zeros(snaps.shape[0], dtype=np.int64)
    n = snapshot_states(base.copy(), actions, counts, every, snaps, classes)
    snaps, classes = snaps[:n], classes[:n]
    by_class = []
    masks_only(snaps[:1], 1)
    for c, label in enumerate(CLASSES):
        sel = np.ascontiguousarray(snaps[classes == c])
        if sel.shape[0] == 0:
            continue
        reps = max(2, 40000 // sel.shape[0])
        t = _best_time(lambda sel=sel, reps=reps: masks_only(sel, reps), repeats)
        by_class.append(
            {"class": label, "share_of_actions": float(sel.shape[0] / n), "mask_ns": 1e9 * t / (reps * sel.shape[0])}
        )
    return {
        "batch": batch,
        "actions": total,
        "actions_per_game": total / batch,
        **parts,
        "actions_per_s_1_thread": total / t_full,
        "mask_by_phase_class": by_class,
        "counts": counts,
    }


@njit(cache=True)
def record_scripted(states, rng, snaps, acts):
    """Scripted play of every game (buffers held), keeping the state before
    each decision and the action taken; returns how many were kept."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    obs, work = new_policy_buffers(POLICY_SCRIPTED)
    n = 0
    for i in range(states.shape[0]):
        s = states[i]
        while s["phase"] != PHASE_OVER and n < snaps.shape[0]:
            snaps[n] = s
            a = policy_action_buf(POLICY_SCRIPTED, s, mask, rng[i], current_player(s), obs, work)
            acts[n] = a
            n += 1
            apply_action(s, a, ev, ev_n)
    return n


@njit(cache=True)
def scripted_part(snaps, acts, sel, part):
    """One part of the recorded decisions ``sel``: 0 the mask, 1 + the
    information state, 2 + cell_info, 3 the whole decision, 4 applying."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    obs, work = new_policy_buffers(POLICY_SCRIPTED)
    wc = work[0]
    rng = np.ones(2, dtype=np.uint64)
    tmp = snaps[0:1].copy()
    c = 0
    for j in range(sel.shape[0]):
        i = sel[j]
        tmp[0] = snaps[i]
        s = tmp[0]
        side = current_player(s)
        if part == 0:
            legal_action_mask(s, mask)
        elif part == 1:
            observe(s, side, True, obs[0])
        elif part == 2:
            observe(s, side, True, obs[0])
            cell_info(obs[0], side, wc)
        elif part == 3:
            c += policy_action_buf(POLICY_SCRIPTED, s, mask, rng, side, obs, work)
        else:
            apply_action(s, acts[i], ev, ev_n)
        c += s["phase"]
    return c


@njit(cache=True)
def copies_only(snaps, sel):
    tmp = snaps[0:1].copy()
    c = 0
    for j in range(sel.shape[0]):
        tmp[0] = snaps[sel[j]]
        c += tmp[0]["phase"]
    return c


SCRIPTED_CLASSES = ("set-up", "crustal movement", "unit movement", "combat", "control", "loss choice")


def scripted_profile(games: int, max_turns: int, repeats: int) -> dict:
    """Where a scripted decision's time goes, by phase class (see the module doc)."""
    import numba

    numba.set_num_threads(1)
    base = init("open", seeds=range(games), max_turns=max_turns)
    rng = np.arange(1, 2 * games + 1, dtype=np.uint64).reshape(games, 2)
    snaps = np.zeros(games * 3000, dtype=base.dtype)
    acts = np.zeros(snaps.shape[0], dtype=np.int64)
    n = record_scripted(base.copy(), rng.copy(), snaps, acts)
    snaps, acts = snaps[:n], acts[:n]
    classes = np.array([_phase_class(snaps[i]) for i in range(n)], dtype=np.int64)
    klass = np.array([SCRIPTED_CLASSES.index(CLASSES[c]) if CLASSES[c] in SCRIPTED_CLASSES else 0 for c in classes])
    rows = []
    totals = np.zeros(5)
    for c, label in enumerate(SCRIPTED_CLASSES):
        sel = np.flatnonzero(klass == c)
        if sel.size == 0:
            continue
        for part in range(5):  # compile or load first
            scripted_part(snaps, acts, sel[:2], part)
        copies_only(snaps, sel[:2])
        copy_s = _best_time(lambda sel=sel: copies_only(snaps, sel), repeats)
        us = [
            (_best_time(lambda sel=sel, part=part: scripted_part(snaps, acts, sel, part), repeats) - copy_s)
            * 1e6
            / sel.size
            for part in range(5)
        ]
        mask, obs, info, whole, apply = us
        row = {
            "class": label,
            "share_of_decisions": sel.size / n,
            "mask_us": mask,
            "observe_us": obs,
            "cell_info_us": info - obs,
            "plan_us": whole - info - mask,
            "decision_us": whole,
            "apply_us": apply,
        }
        rows.append(row)
        totals += np.array([mask, obs, info - obs, whole - info - mask, apply]) * sel.size / n
    parts = dict(zip(("mask_us", "observe_us", "cell_info_us", "plan_us", "apply_us"), map(float, totals)))
    return {
        "games": games,
        "max_turns": max_turns,
        "decisions": n,
        "by_class": rows,
        **parts,
        "total_us": float(totals.sum()),
    }


CHILD = r"""
import sys, time, numpy as np, numba
numba.set_num_threads(1)
from hotspot.core import init
from hotspot.core.rollout import play_random_batch
lo, hi, reps = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
base = init("standard", seeds=range(lo, hi))
play_random_batch(base[:1].copy(), np.ones(1, dtype=np.uint64), 10)
sys.stdout.write("ready\n"); sys.stdout.flush()
sys.stdin.readline()
t0 = time.perf_counter(); n = 0
for k in range(reps):
    n += int(play_random_batch(base.copy(), np.arange(lo + 1, hi + 1, dtype=np.uint64) + np.uint64(k), 10**6).sum())
print(n, time.perf_counter() - t0)
"""


def two_processes(batch: int, reps: int) -> dict:
    """Two processes of one thread each, half the batch each, started together."""
    env = C.child_env(NUMBA_NUM_THREADS="1")
    halves = [(0, batch // 2), (batch // 2, batch)]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(lo), str(hi), str(reps)],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for lo, hi in halves
    ]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    t0 = time.perf_counter()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    outs = [p.communicate()[0].split() for p in procs]
    wall = time.perf_counter() - t0  # includes the interpreters' exit: not the rate
    actions = sum(int(o[0]) for o in outs)
    seconds = max(float(o[1]) for o in outs)  # both started together: the slower one's play
    return {
        "actions": actions,
        "seconds": seconds,
        "actions_per_s": actions / seconds,
        "per_process_s": [float(o[1]) for o in outs],
        "wall_with_exit_s": wall,
    }


def threads_run(batch: int, threads: int, reps: int, chunksize: int = 0) -> dict:
    import numba

    base = init("standard", seeds=range(batch))
    numba.set_num_threads(threads)
    play_random_batch(base[:2].copy(), np.ones(2, dtype=np.uint64), 10)
    old = numba.get_parallel_chunksize()
    numba.set_parallel_chunksize(chunksize)
    try:
        t0 = time.perf_counter()
        n = 0
        for k in range(reps):
            n += int(
                play_random_batch(base.copy(), np.arange(1, batch + 1, dtype=np.uint64) + np.uint64(k), 10**6).sum()
            )
        wall = time.perf_counter() - t0
    finally:
        numba.set_parallel_chunksize(old)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return {"threads": threads, "chunksize": chunksize, "actions": n, "seconds": wall, "actions_per_s": n / wall}


def main(argv=None) -> dict:
    p = C.make_parser("bench_profile", __doc__)
    p.add_argument("--batch", type=int, default=None, help="games per batch (default 1024; tiny 16)")
    args = p.parse_args(argv)
    repeats, _ = C.timing_args(args)
    batch = args.batch or (16 if args.tiny else 1024)
    reps = 1 if args.tiny else 4
    prof = profile(batch, repeats, 4000 if args.tiny else 20000)
    counts = prof.pop("counts")
    C.print_table(
        f"Where an atomic action's time goes (random play, batch {batch}, one thread, best of {repeats})",
        ["part", "ns/action", "share"],
        [[k[:-3], prof[k], prof[k] / prof["total_ns"]] for k in ("mask_ns", "apply_ns", "choice_ns")]
        + [["total", prof["total_ns"], 1.0]],
    )
    C.print_table(
        "The legal mask by phase class (states met along the same games)",
        ["phase class", "share of actions", "mask ns"],
        [[r["class"], r["share_of_actions"], r["mask_ns"]] for r in prof["mask_by_phase_class"]],
    )

    sprof = scripted_profile(2 if args.tiny else 40, 4 if args.tiny else 30, repeats)
    C.print_table(
        f"A scripted decision on open, by phase ({sprof['games']} scripted games of at most "
        f"{sprof['max_turns']} turns, {sprof['decisions']:,} decisions, one thread; us)",
        ["phase class", "share", "mask", "observe", "cell_info", "plan", "decision", "apply"],
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
            for r in sprof["by_class"]
        ]
        + [
            [
                "all (weighted)",
                1.0,
                sprof["mask_us"],
                sprof["observe_us"],
                sprof["cell_info_us"],
                sprof["plan_us"],
                sprof["mask_us"] + sprof["observe_us"] + sprof["cell_info_us"] + sprof["plan_us"],
                sprof["apply_us"],
            ]
        ],
    )

    rows = [threads_run(batch, 1, reps), threads_run(batch, 2, reps), threads_run(batch, 2, reps, chunksize=8)]
    procs = two_processes(batch, reps)
    # the static schedule gives each of two threads one contiguous half of the batch
    halves = [int(counts[: batch // 2].sum()), int(counts[batch // 2 :].sum())]
    imbalance = max(halves) / (sum(halves) / 2)
    one = rows[0]["actions_per_s"]
    summary = {
        **{k: v for k, v in prof.items() if k != "mask_by_phase_class"},
        "mask_by_phase_class": prof["mask_by_phase_class"],
        "scripted": sprof,
        "scaling_2_threads": C.ratio(rows[1]["actions_per_s"], one),
        "scaling_2_threads_dynamic": C.ratio(rows[2]["actions_per_s"], one),
        "scaling_2_processes": C.ratio(procs["actions_per_s"], one),
        "static_halves_actions": halves,
        "static_imbalance": imbalance,
        "scaling_bound_from_imbalance": 2 / imbalance,
    }
    C.print_table(
        f"Two-way parallelism at batch {batch} ({reps} batches each)",
        ["run", "actions/s", "x one thread"],
        [
            ["1 thread", one, 1.0],
            ["2 threads (static schedule)", rows[1]["actions_per_s"], summary["scaling_2_threads"]],
            ["2 threads (dynamic, chunks of 8)", rows[2]["actions_per_s"], summary["scaling_2_threads_dynamic"]],
            ["2 processes x 1 thread, half each", procs["actions_per_s"], summary["scaling_2_processes"]],
        ],
    )
    print(
        f"static schedule: the halves hold {halves[0]} and {halves[1]} actions "
        f"(imbalance {imbalance:.3f}: at most {2 / imbalance:.2f}x from two threads)"
    )
    config = {"batch": batch, "repeats": repeats, "reps": reps, "scenario": "standard", "cpu_count": os.cpu_count()}
    return C.write_result(args, NAME, config, rows + [dict(procs, threads="2 processes")], summary)


if __name__ == "__main__":
    main()
