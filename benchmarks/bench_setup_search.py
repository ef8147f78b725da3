"""What the set-up search alone is worth (3.2, 3.3, D21).

    python benchmarks/bench_setup_search.py               # 1,000 paired games a side (about 45 min on 2 cores)
    python benchmarks/bench_setup_search.py --games 200   # fewer
    python benchmarks/bench_setup_search.py --tiny        # smoke sizes (the numbers mean nothing)

An ablation on ``open`` (both sides deploy, D21): for each side and each game
``i`` of the arena (``--seed``: the game's dice and both agents' seeds as
``hotspot arena`` draws them), the game is played twice between scripted
players, once with the side's own deployment plan on its own seed (the
baseline, exactly the arena's ``scripted`` against ``scripted``) and once
with the deployment chosen by ``hotspot.agents.setup_search`` (the
``ismcts`` agent's set-up search at its default parameters: 8 candidates,
successive halving from 4 play-outs, play-outs of 12 turns) from the side's
information state at its first set-up decision; everything after the
set-up is the scripted player on both sides.  Paired games (same dice, same
opponent seed) make the difference sharp.  Reported per side: the side's
score (a win 1, a game stopped at ``--max-turns`` one half, D19 revised)
with and without the search, their 95% Wilson intervals, the mean paired
difference with a normal 95% interval, and the search's time a game.  Every
game's seed and both results are in the JSON (``raw``).
"""

from __future__ import annotations

import math
import multiprocessing
import time
from functools import partial

import _common as C
import numpy as np

from hotspot.agents.beliefs import DMG_P0
from hotspot.agents.ismcts import DEFAULT_PARAMS, P_DEPLOY_CANDIDATES, P_DEPLOY_GAMES, P_DEPLOY_TURNS, P_ROLLOUT
from hotspot.agents.policies import POLICY_SCRIPTED, play_games, play_policy_until
from hotspot.agents.setup_search import deployment_seed_by_playouts
from hotspot.arena.match import GameSpec, agent_seeds, game_seed, initial_state, mix64_int, pool_context
from hotspot.arena.stats import wilson_interval
from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.events import no_events
from hotspot.core.limits import DEFAULT_MAX_TURNS, parse_max_turns
from hotspot.core.observation import observe
from hotspot.core.rules_data import TECHNOCRAT, TECHNOCRAT_WIN, ZIEGLER, ZIEGLER_WIN
from hotspot.core.state import STATE_DTYPE

SIDES = {"ziegler": ZIEGLER, "technocrat": TECHNOCRAT}
SEARCH_SEED_SALT = 0x5E7AB5EA4C4  # the search's own stream, apart from the agents' seeds


def points(state, side: int) -> float:
    r = int(state["result"])
    if r == (ZIEGLER_WIN if side == ZIEGLER else TECHNOCRAT_WIN):
        return 1.0
    return 0.0 if r != 0 else 0.5


def play_pair(i: int, side: int, seed: int, max_turns: int, params) -> dict:
    """Game ``i`` twice: the side's plan on its own seed, and the set-up search's choice."""
    spec = GameSpec("scripted:scripted", "scripted", "scripted", i, game_seed(seed, i), "open", max_turns=max_turns)
    states = initial_state(spec, None)
    rng = np.array([agent_seeds(spec.seed)], dtype=np.uint64)  # (Ziegler, Technocrat), as the arena
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev, ev_n = no_events()
    if side == TECHNOCRAT:  # the Ziegler deploys first (3.2, 3.3)
        play_policy_until(states[0], TECHNOCRAT, POLICY_SCRIPTED, mask, rng[0], 0, ev, ev_n)
    o = np.empty(1, dtype=STATE_DTYPE)
    observe(states[0], side, True, o[0])
    search_seed = np.uint64(mix64_int(spec.seed ^ SEARCH_SEED_SALT))
    t0 = time.perf_counter()
    chosen = deployment_seed_by_playouts(
        o[0],
        side,
        search_seed,
        int(params[P_DEPLOY_CANDIDATES]),
        int(params[P_DEPLOY_GAMES]),
        int(params[P_DEPLOY_TURNS]),
        int(params[P_ROLLOUT]),
        DMG_P0,
    )
    search_s = time.perf_counter() - t0
    out = {"game": i, "seed": int(spec.seed), "search_s": search_s}
    for name, gen in (("plan", rng[0, side]), ("search", chosen)):
        s = states.copy()
        r = rng.copy()
        r[0, side] = gen
        counts = np.zeros(1, dtype=np.int64)
        play_games(s, POLICY_SCRIPTED, POLICY_SCRIPTED, r, np.int64(10**7), counts)
        if counts[0] < 0:
            raise SystemExit(f"game {i}: a policy failed")
        out[name] = points(s[0], side)
        out[name + "_turns"] = int(s[0]["turn"])
    return out


def side_row(side_name: str, games: list[dict]) -> dict:
    n = len(games)
    plan = np.array([g["plan"] for g in games])
    search = np.array([g["search"] for g in games])
    diff = search - plan
    half = 1.96 * (diff.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    row = {"side": side_name, "games": n}
    for name, v in (("plan", plan), ("search", search)):
        lo, hi = wilson_interval(float(v.sum()), n)
        row.update(
            {
                f"{name}_score": float(v.mean()),
                f"{name}_ci_low": lo,
                f"{name}_ci_high": hi,
                f"{name}_draws": int((v == 0.5).sum()),
            }
        )
    row.update(
        {
            "difference": float(diff.mean()),
            "difference_ci_low": float(diff.mean() - half),
            "difference_ci_high": float(diff.mean() + half),
            "verdict": C.verdict(float(diff.mean() - half), float(diff.mean() + half), 0.0),
            "search_s_mean": float(np.mean([g["search_s"] for g in games])),
        }
    )
    return row


def main(argv=None) -> int:
    p = C.make_parser("setup_search", __doc__)
    p.add_argument("--games", type=int, default=1000, help="paired games a side (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="the arena's master seed (default: %(default)s)")
    p.add_argument("--sides", nargs="+", choices=sorted(SIDES), default=["ziegler", "technocrat"])
    p.add_argument(
        "--max-turns",
        type=parse_max_turns,
        default=DEFAULT_MAX_TURNS,
        help="the harness's turn limit (default: %(default)s; D19 revised)",
    )
    p.add_argument("--workers", type=int, default=None, help="processes (default: the usable cores)")
    args = p.parse_args(argv)
    workers = args.workers or C.usable_cores()
    if workers < 1:
        raise SystemExit("--workers must be positive")
    games = 2 if args.tiny else args.games
    if games < 1:
        raise SystemExit("--games must be positive")
    params = DEFAULT_PARAMS.copy()
    if args.tiny:
        params[P_DEPLOY_CANDIDATES], params[P_DEPLOY_GAMES], params[P_DEPLOY_TURNS] = 2, 1, 1
    rows, raw = [], {}
    # compile (or load) once in the parent, so that forked workers share it
    play_pair(0, ZIEGLER, args.seed, args.max_turns, params)
    for side_name in args.sides:
        t0 = time.perf_counter()
        job = partial(play_pair, side=SIDES[side_name], seed=args.seed, max_turns=args.max_turns, params=params)
        if workers == 1:
            played = [job(i) for i in range(games)]
        else:
            with (pool_context() or multiprocessing).Pool(workers) as pool:
                played = pool.map(job, range(games), chunksize=4)
        rows.append(side_row(side_name, played))
        raw[side_name] = played
        print(f"{side_name}: {games} paired games in {time.perf_counter() - t0:.0f} s", flush=True)
    C.print_table(
        "Set-up search on open: the side's score with its plan and with the search (scripted play)",
        ["side", "games", "plan", "95% CI", "search", "95% CI", "difference", "95% CI", "verdict", "search s/game"],
        [
            [
                r["side"],
                r["games"],
                r["plan_score"],
                f"[{C.fmt(r['plan_ci_low'])}, {C.fmt(r['plan_ci_high'])}]",
                r["search_score"],
                f"[{C.fmt(r['search_ci_low'])}, {C.fmt(r['search_ci_high'])}]",
                r["difference"],
                f"[{C.fmt(r['difference_ci_low'])}, {C.fmt(r['difference_ci_high'])}]",
                r["verdict"],
                r["search_s_mean"],
            ]
            for r in rows
        ],
    )
    config = {
        "games_per_side": games,
        "seed": args.seed,
        "max_turns": args.max_turns,
        "scenario": "open",
        "deploy_candidates": int(params[P_DEPLOY_CANDIDATES]),
        "deploy_games": int(params[P_DEPLOY_GAMES]),
        "deploy_turns": int(params[P_DEPLOY_TURNS]),
        "workers": workers,
    }
    summary = {r["side"]: {"difference": r["difference"], "verdict": r["verdict"]} for r in rows}
    C.write_result(
        args,
        "bench_setup_search",
        config,
        rows,
        summary,
        notes=[
            "difference: the search's score minus the plan's in the same game (paired); "
            "verdict: holds when the difference's 95% interval is above 0"
        ],
        extra={"raw": raw},
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
