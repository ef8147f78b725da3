"""How long a person waits for an agent: the wall time of each of
an agent's decisions, and of its whole games, playing ``scripted`` on one
core, as ``hotspot play --technocrat human --ziegler best`` would make a
person wait.

    python benchmarks/bench_decision_time.py                     # best, 20 games a side on open
    python benchmarks/bench_decision_time.py --agent 'portfolio(plans=64)' --games 10
    python benchmarks/bench_decision_time.py --tiny              # smoke sizes (numbers mean nothing)

Each game is played through ``Agent.act`` (the path of ``hotspot play`` and
``hotspot serve``), one process, the agent as each side against the
scripted player on the arena's seeds (game ``i`` of both seatings has the
seed ``game_seed(seed, i)``).  Reported: the agent's decisions (all, and
those with more than one legal action: the searched ones), their wall time
at the median, the 99th percentile and the maximum, and the mean wall time of
a game (both players); the targets: a decision answers in at most 2 s, a
game costs at most 10 s.  A forced decision (one legal action) is never
searched.  The first game compiles (or loads numba's cache); it is played
once before timing starts.
"""

from __future__ import annotations

import sys
import time

import _common as C
import numpy as np

from hotspot.agents.registry import canonical_agent, make_agent
from hotspot.arena.match import agent_seeds, game_seed
from hotspot.core.game import Game
from hotspot.core.limits import DEFAULT_MAX_TURNS

#: the targets: a decision within 2 s, a whole game within 10 s
MAX_DECISION_S = 2.0
MAX_GAME_S = 10.0


def play(agent_spec: str, side: int, seed: int, max_turns: int | None, times: list, searched: list) -> float:
    """One game of ``agent_spec`` as ``side`` (0 Ziegler, 1 Technocrat) against
    scripted; appends each of the agent's decision times; returns the game's
    wall time."""
    seeds = agent_seeds(seed)
    agents = [make_agent("scripted", seed=seeds[0]), make_agent("scripted", seed=seeds[1])]
    agents[side] = make_agent(agent_spec, seed=seeds[side])
    game = Game("open", seed=seed, max_turns=max_turns)
    t_game = time.perf_counter()
    while not game.is_terminal():
        mover = game.current_player()
        mask = game.legal_action_mask()
        obs = game.observation(mover)
        t0 = time.perf_counter()
        a = agents[mover].act(obs, mask, mover)
        dt = time.perf_counter() - t0
        if mover == side:
            times.append(dt)
            searched.append(int(mask.sum()) > 1)
        game.apply_action(a)
    return time.perf_counter() - t_game


def main(argv=None) -> int:
    p = C.make_parser("bench_decision_time", __doc__)
    p.add_argument("--agent", default="best", help="agent spec (default: %(default)s)")
    p.add_argument("--games", type=int, default=20, help="games a side (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    args = p.parse_args(argv)
    spec = canonical_agent(args.agent)
    games = 1 if args.tiny else args.games
    max_turns = 3 if args.tiny else args.max_turns
    play(spec, 0, game_seed(args.seed, 10_000), max_turns, [], [])  # compile or load the cache
    rows, all_games = [], []
    for side, name in ((1, "technocrat"), (0, "ziegler")):
        times, searched, game_s = [], [], []
        for i in range(games):
            game_s.append(play(spec, side, game_seed(args.seed, i), max_turns, times, searched))
        t = np.asarray(times)
        s = t[np.asarray(searched, dtype=bool)] if times else t
        row = {
            "agent": spec,
            "side": name,
            "games": games,
            "decisions": int(t.size),
            "searched_decisions": int(s.size),
            "median_s": float(np.median(s)) if s.size else 0.0,
            "p99_s": float(np.percentile(s, 99)) if s.size else 0.0,
            "max_s": float(s.max()) if s.size else 0.0,
            "game_mean_s": float(np.mean(game_s)),
            "game_max_s": float(np.max(game_s)),
        }
        rows.append(row)
        all_games += game_s
    C.print_table(
        f"decision and game wall time of {spec} against scripted on open (one process)",
        ["side", "games", "decisions", "searched", "median s", "p99 s", "max s", "game mean s", "game max s"],
        [
            [
                r["side"],
                r["games"],
                r["decisions"],
                r["searched_decisions"],
                C.fmt(r["median_s"], 4),
                C.fmt(r["p99_s"], 3),
                C.fmt(r["max_s"], 3),
                C.fmt(r["game_mean_s"], 2),
                C.fmt(r["game_max_s"], 2),
            ]
            for r in rows
        ],
    )
    worst = max(r["max_s"] for r in rows)
    mean_game = float(np.mean(all_games))
    summary = {
        "agent": spec,
        "max_decision_s": worst,
        "mean_game_s": mean_game,
        "decision_target_s": MAX_DECISION_S,
        "game_target_s": MAX_GAME_S,
        "decision_target_holds": worst <= MAX_DECISION_S,
        "game_target_holds": mean_game <= MAX_GAME_S,
    }
    print(
        f"slowest decision {worst:.3f} s (target <= {MAX_DECISION_S:g} s: "
        f"{'holds' if summary['decision_target_holds'] else 'does not hold'}); mean game {mean_game:.2f} s "
        f"(target <= {MAX_GAME_S:g} s: {'holds' if summary['game_target_holds'] else 'does not hold'})"
    )
    C.write_result(
        args,
        "bench_decision_time",
        {"agent": spec, "games_per_side": games, "seed": args.seed, "max_turns": max_turns},
        rows,
        summary,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
