"""Game lengths with no turn limit (D19 revised): the measurement
behind the harnesses' default ``max_turns`` (``hotspot.core.limits``).

    python benchmarks/bench_game_lengths.py                # 1,000 games a cell (a few minutes)
    python benchmarks/bench_game_lengths.py --games 300    # fewer
    python benchmarks/bench_game_lengths.py --tiny         # smoke sizes (the numbers mean nothing)

The rulebook has no turn limit (5.0), so a harness that must finish its
games needs one of its own, and that limit should cut (almost) no game that
would have ended with a winner.  This script plays the compiled agents
(``scripted``, ``random``) against each other, both ways round, on the
``standard`` scenario and on random setups (``random``: a D12 setup per
game, ``random:N`` with N from the game seed, as ``hotspot arena --scenario
random``) with a very high limit (``--cap``, default 1,000 turns), and
reports per cell: the results, the distribution of game lengths in turns
(median, 90th and 99th percentile, maximum; a game still going at the cap
counts as the cap), and the share of games that each candidate limit would
truncate (a game that ends on turn t with a winner is cut by a limit L < t;
one still going at the cap is cut by every limit).

Each game is game ``i`` of the arena with ``--seed`` (``hotspot.arena.match``:
same dice, agent seeds and random setup), played in one compiled call per
cell (``hotspot.agents.policies.play_games``); so any game can be replayed
with ``hotspot arena --pairings T:Z --scenario S --max-turns CAP``.
The JSON (``benchmarks/results/game_lengths.json``) keeps every game's turns
and result (``raw``).
"""

from __future__ import annotations

import time

import _common as C
import numpy as np

from hotspot.agents.policies import POLICY_NAMES, play_games
from hotspot.arena.match import GameSpec, agent_seeds, game_seed, initial_state, scenario_data
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.rules_data import ONGOING, RESULT_NAMES, TECHNOCRAT_WIN, ZIEGLER_WIN

PAIRS = ("scripted:scripted", "scripted:random", "random:scripted", "random:random")  # Technocrat:Ziegler
SCENARIOS = ("standard", "random")
CANDIDATES = (15, 20, 30, 50, 75, 100, 150, 200, 300, 500)
PERCENTILES = (50, 90, 99)


def play_cell(scenario: str, pair: str, games: int, cap: int, seed: int) -> dict:
    """Play ``games`` games of one cell to their end or the cap; per-game turns and results."""
    tech, zieg = pair.split(":")
    states = []
    rng = np.zeros((games, 2), dtype=np.uint64)
    for i in range(games):
        spec = GameSpec(pair, tech, zieg, i, game_seed(seed, i), scenario, max_turns=cap)
        data = scenario_data(spec.scenario, spec.rules, spec.seed)[0] if scenario == "random" else None
        states.append(initial_state(spec, data))
        rng[i] = agent_seeds(spec.seed)  # (Ziegler, Technocrat), as the arena
    states = np.concatenate(states)
    counts = np.zeros(games, dtype=np.int64)
    t0 = time.perf_counter()
    play_games(
        states, np.int64(POLICY_NAMES.index(zieg)), np.int64(POLICY_NAMES.index(tech)), rng, np.int64(10**7), counts
    )
    wall = time.perf_counter() - t0
    if (counts < 0).any():
        raise SystemExit(f"{scenario} {pair}: a policy failed in game {int(np.flatnonzero(counts < 0)[0])}")
    return {
        "turns": states["turn"].astype(int).tolist(),
        "result": states["result"].astype(int).tolist(),
        "truncated": states["truncated"].astype(bool).tolist(),
        "actions": counts.tolist(),
        "wall_s": wall,
    }


def cell_stats(raw: dict, cap: int) -> dict:
    turns = np.array(raw["turns"])
    result = np.array(raw["result"])
    trunc = np.array(raw["truncated"])
    n = len(turns)
    ended = ~trunc
    stats = {
        "games": n,
        "technocrat_wins": int((result == TECHNOCRAT_WIN).sum()),
        "ziegler_wins": int((result == ZIEGLER_WIN).sum()),
        "unfinished_at_cap": int(((result == ONGOING) & trunc).sum()),
        "mean_turns": float(turns.mean()),
        "max_turns_ended": int(turns[ended].max()) if ended.any() else None,
        "mean_actions": float(np.mean(raw["actions"])),
        "wall_s": raw["wall_s"],
    }
    for q in PERCENTILES:
        stats[f"p{q}"] = float(np.percentile(turns, q))  # unfinished games count as the cap
    for q in PERCENTILES:  # the games that ended with a winner only
        stats[f"ended_p{q}"] = float(np.percentile(turns[ended], q)) if ended.any() else None
    stats["max"] = int(turns.max())
    # a limit L truncates a game that ended after turn L, and every unfinished one
    stats["truncated_share"] = {str(L): float(((turns > L) | trunc).mean()) for L in CANDIDATES if L <= cap}
    stats["histogram"] = {str(t): int(c) for t, c in zip(*np.unique(turns, return_counts=True))}
    return stats


def main(argv=None) -> int:
    p = C.make_parser("game_lengths", __doc__)
    p.add_argument("--games", type=int, default=1000, help="games a cell (default: %(default)s)")
    p.add_argument(
        "--cap", type=int, default=1000, help="the very high turn limit the games are played to (default: %(default)s)"
    )
    p.add_argument("--seed", type=int, default=0, help="the arena's master seed (default: %(default)s)")
    p.add_argument("--scenarios", nargs="+", default=list(SCENARIOS))
    p.add_argument("--pairs", nargs="+", default=list(PAIRS), help="TECHNOCRAT:ZIEGLER compiled agents")
    args = p.parse_args(argv)
    games = 3 if args.tiny else args.games
    cap = min(args.cap, 60) if args.tiny else args.cap
    if games < 1 or cap < 1:
        raise SystemExit("--games and --cap must be positive")
    for pair in args.pairs:
        if any(a not in POLICY_NAMES for a in pair.split(":")) or pair.count(":") != 1:
            raise SystemExit(f"--pairs: {pair!r} is not TECHNOCRAT:ZIEGLER of {POLICY_NAMES}")
    # compile (or load) the compiled game first, so the cells time play only
    play_cell("standard", "random:random", 1, 2, args.seed)
    rows, raw = [], {}
    for scenario in args.scenarios:
        for pair in args.pairs:
            cell = play_cell(scenario, pair, games, cap, args.seed)
            stats = cell_stats(cell, cap)
            rows.append({"scenario": scenario, "pair": pair, **stats})
            raw[f"{scenario} {pair}"] = {"turns": cell["turns"], "result": [RESULT_NAMES[r] for r in cell["result"]]}
            print(f"{scenario:8s} {pair:18s} {games} games in {cell['wall_s']:.1f} s", flush=True)
    shown = [L for L in (50, 100, 200) if L <= cap] + (
        [DEFAULT_MAX_TURNS] if DEFAULT_MAX_TURNS not in (50, 100, 200) and DEFAULT_MAX_TURNS <= cap else []
    )
    headers = [
        "scenario",
        "T:Z",
        "games",
        "T wins",
        "Z wins",
        "unfinished",
        "median",
        "p90",
        "p99",
        "p99 ended",
        "max ended",
    ]
    headers += [f"cut@{L}" for L in shown]
    C.print_table(
        f"Game lengths in turns with no limit (cap {cap}), {games} games a cell",
        headers,
        [
            [
                r["scenario"],
                r["pair"],
                r["games"],
                r["technocrat_wins"],
                r["ziegler_wins"],
                r["unfinished_at_cap"],
                r["p50"],
                r["p90"],
                r["p99"],
                r["ended_p99"],
                r["max_turns_ended"],
            ]
            + [r["truncated_share"][str(L)] for L in shown]
            for r in rows
        ],
    )
    worst = {str(L): max(r["truncated_share"][str(L)] for r in rows) for L in CANDIDATES if L <= cap}
    ended = [r["max_turns_ended"] for r in rows if r["max_turns_ended"] is not None]
    summary = {
        "default_max_turns": DEFAULT_MAX_TURNS,
        "cap": cap,
        "games_per_cell": games,
        "longest_game_with_a_winner": max(ended) if ended else None,
        "worst_cell_truncated_share": worst,
        "truncated_share_at_default": {
            f"{r['scenario']} {r['pair']}": r["truncated_share"].get(str(DEFAULT_MAX_TURNS)) for r in rows
        },
        "games_unfinished_at_cap": sum(r["unfinished_at_cap"] for r in rows),
    }
    print(
        f"\nlongest game that ended with a winner: {summary['longest_game_with_a_winner']} turns; "
        f"games still going at turn {cap}: {summary['games_unfinished_at_cap']}"
    )
    print("worst cell's share truncated by a limit of L turns: " + ", ".join(f"{L}: {v:.4f}" for L, v in worst.items()))
    config = {
        "games": games,
        "cap": cap,
        "seed": args.seed,
        "scenarios": args.scenarios,
        "pairs": args.pairs,
        "candidates": [L for L in CANDIDATES if L <= cap],
        "percentiles": list(PERCENTILES),
    }
    notes = [
        "a game still going at the cap counts as `cap` turns in the percentiles",
        "truncated_share[L]: the share of games that max_turns=L would stop without a winner "
        "(ended after turn L, or unfinished at the cap)",
        "pairs are TECHNOCRAT:ZIEGLER; game i of every cell has the arena's seed game_seed(seed, i)",
    ]
    C.write_result(args, "game_lengths", config, rows, summary, notes, extra={"raw": raw})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
