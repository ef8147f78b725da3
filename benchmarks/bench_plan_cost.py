"""What a plan valuation of the portfolio search costs, by horizon and value:
the price of the horizon, and what the learned value saves.

    python benchmarks/bench_plan_cost.py            # about two minutes
    python benchmarks/bench_plan_cost.py --tiny     # CI smoke run (the numbers mean nothing)

Positions: the first decision of each planned phase (A, B, D for the Ziegler;
E, F for the Technocrat) of scripted-against-scripted games on ``open``,
as the side to move sees them (its information state, D20).  On each, the
search (``portfolio.portfolio_search``, one thread, the same seed for every
configuration) is run at each configuration of ``CONFIGS``: the horizon
(whole turns after the enemy's reply) and the value (the hand-written
``beliefs.evaluate`` or the shipped learned plan value).  Reported per
configuration: the mean milliseconds of a phase's search, the plans valued,
the milliseconds of one plan valuation (a valuation is ``determinizations``
play-outs), and its cost relative to the hand-written evaluation at
horizon 2 (today's ``best``).  The first search of each configuration
compiles (or loads numba's cache) and is not timed.
"""

from __future__ import annotations

import time

import _common as C
import numpy as np

from hotspot.agents.plan_value import NO_NETS, shipped_plan_value
from hotspot.agents.portfolio import NO_PRIOR, NO_STATS, PARAMS, PLAN_SIZE, planned_phase, portfolio_search
from hotspot.agents.registry import make_agent
from hotspot.core.game import Game

#: (label, horizon, value)
CONFIGS = [
    ("horizon 0, evaluate", 0, "evaluate"),
    ("horizon 0, learned", 0, "learned"),
    ("horizon 1, evaluate", 1, "evaluate"),
    ("horizon 1, learned", 1, "learned"),
    ("horizon 2, evaluate", 2, "evaluate"),
]


def positions(games: int, seed: int) -> list:
    """(information state, mask, side) at the first decision of each planned phase."""
    out = []
    for g in range(games):
        game = Game("open", seed=seed + g)
        agents = [make_agent("scripted", seed=seed + g), make_agent("scripted", seed=seed + g + 1)]
        last = None
        while not game.is_terminal() and game.turn <= 12:
            side = game.current_player()
            mask = game.legal_action_mask()
            key = (game.turn, game.phase, side)
            if planned_phase(game.phase) and key != last and mask.sum() > 1:
                last = key
                out.append((game.observation(side).copy(), mask.copy(), side))
            game.apply_action(agents[side].act(game.observation(side), mask, side))
    return out


def main(argv=None) -> int:
    p = C.make_parser("bench_plan_cost", __doc__)
    p.add_argument("--games", type=int, default=6, help="scripted games the positions come from (default 6)")
    p.add_argument("--seed", type=int, default=40)
    args = p.parse_args(argv)
    games = 1 if args.tiny else args.games
    pos = positions(games, args.seed)
    if args.tiny:
        pos = pos[:3]
    rows = []
    plan = np.zeros(PLAN_SIZE, dtype=np.int8)
    for label, horizon, value in CONFIGS:
        params = PARAMS.vector(horizon=horizon)
        nets = shipped_plan_value() if value == "learned" else NO_NETS
        o, mask, side = pos[0]
        portfolio_search(o[0], mask, side, params, np.uint64(1), plan, nets, NO_PRIOR, NO_STATS)  # compile
        seconds, valued = 0.0, 0
        for i, (o, mask, side) in enumerate(pos):
            t0 = time.perf_counter()
            valued += portfolio_search(o[0], mask, side, params, np.uint64(1000 + i), plan, nets, NO_PRIOR, NO_STATS)
            seconds += time.perf_counter() - t0
        rows.append(
            {
                "config": label,
                "horizon": horizon,
                "value": value,
                "positions": len(pos),
                "ms_per_search": 1000 * seconds / len(pos),
                "plans_per_search": valued / len(pos),
                "ms_per_plan": 1000 * seconds / max(1, valued),
            }
        )
    ref = next(r for r in rows if r["horizon"] == 2 and r["value"] == "evaluate")["ms_per_plan"]
    for r in rows:
        r["cost_vs_horizon2"] = r["ms_per_plan"] / ref if ref > 0 else float("nan")
    C.print_table(
        f"Portfolio search: a plan valuation's cost ({len(pos)} positions of {games} scripted games on open)",
        ["configuration", "ms a phase", "plans a phase", "ms a plan", "vs horizon 2"],
        [
            [
                r["config"],
                f"{r['ms_per_search']:.1f}",
                f"{r['plans_per_search']:.1f}",
                f"{r['ms_per_plan']:.2f}",
                f"{r['cost_vs_horizon2']:.2f}",
            ]
            for r in rows
        ],
    )
    C.write_result(
        args,
        "bench_plan_cost",
        {"games": games, "positions": len(pos), "seed": args.seed, "params": "portfolio defaults but horizon"},
        rows,
        {r["config"]: r["ms_per_plan"] for r in rows},
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
