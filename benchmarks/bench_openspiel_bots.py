"""OpenSpiel's ISMCTS against hotspot's, at equal time per decision.

    python benchmarks/bench_openspiel_bots.py                     # 200 games a side, 20 ms a decision, open
    python benchmarks/bench_openspiel_bots.py --time-budget 2400  # stop adding games after 40 minutes
    python benchmarks/bench_openspiel_bots.py --tiny              # smoke sizes (the numbers mean nothing)

The agents are the arena's ``openspiel-ismcts(think_ms=T)`` (OpenSpiel's own
Python ``ISMCTSBot``, unmodified, from the side's information state, with
uniformly random rollouts to the end of the game played in the core's
compiled code; ``hotspot.env.openspiel``) and ``ismcts(think_ms=T)`` (the
project's compiled single-observer ISMCTS: scripted rollouts, heuristic
evaluation, set-up search).  Both stop a searched decision when ``T``
milliseconds are spent (OpenSpiel's after the simulation that passes it, at
least two simulations; the project's set-up search, about a second a game,
is not bound by ``T``).  A decision with one legal action is not searched
by either.

The games: ``hotspot.arena.run_arena`` with the pairing
``(openspiel-ismcts, ismcts)`` on ``--scenario`` (default ``open``, both
deployments by the players), game ``i`` of both seatings on the same seed
(mirrored: the same dice with the seats swapped), games still going after
``--max-turns`` drawn (half a point each).  One worker process.  The games
are added in rounds of ``--step`` a side (both seatings each round), so that
a run cut by ``--time-budget`` (seconds; no new round starts after it) still
has as many games in each seat; a rerun with the same ``--runs-dir``
resumes.  Every game is in ``<runs-dir>/games.jsonl`` with its seed and
actions, and in the JSON file each game's seed, winner and turns.

Reported: OpenSpiel's ISMCTS's score (wins + draws / 2) as each side and
over both, with 95% Wilson intervals, the project's ismcts's being one
minus it; and the measured wall time of the two agents' searched decisions
on the same positions (a separate pass over ``--timing-games`` games'
positions, each agent deciding each position once).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import _common as C
import numpy as np

from hotspot.agents.registry import canonical_agent, make_agent
from hotspot.arena.match import game_seed
from hotspot.arena.stats import wilson_interval
from hotspot.arena.tournament import run_arena
from hotspot.core.game import Game
from hotspot.core.limits import DEFAULT_MAX_TURNS, parse_max_turns
from hotspot.core.setup import is_setup_phase

NAME = "bench_openspiel_bots"
GAMES_NOTE = (
    "by seating (technocrat:ziegler): game i's seed, winner (T, Z, or - for a game stopped by "
    "max_turns) and turns; game i of both seatings has the same seed; every game replays from "
    "<runs-dir>/games.jsonl"
)


def compact_games(rows) -> dict:
    games = {}
    for r in sorted(rows, key=lambda r: (r["technocrat"], r["ziegler"], r["index"])):
        cell = games.setdefault(f"{r['technocrat']}:{r['ziegler']}", {"seeds": [], "winners": "", "turns": []})
        cell["seeds"].append(int(r["seed"]))
        cell["winners"] += {"technocrat": "T", "ziegler": "Z"}.get(r["winner"], "-")
        cell["turns"].append(int(r["turns"]))
    return games


def seat_rows(rows, agent: str) -> list[dict]:
    """``agent``'s score as each side, from the arena's game rows, with intervals."""
    out = []
    for side in ("technocrat", "ziegler"):
        games = [r for r in rows if r[side] == agent]
        n = len(games)
        wins = sum(r["winner"] == side for r in games)
        draws = sum(r["winner"] is None for r in games)
        k = wins + draws / 2
        lo, hi = wilson_interval(k, n)
        out.append(
            {
                "agent": agent,
                "side": side,
                "games": n,
                "wins": wins,
                "draws": draws,
                "losses": n - wins - draws,
                "score": k / n if n else float("nan"),
                "ci_low": lo,
                "ci_high": hi,
                "mean_turns": float(np.mean([r["turns"] for r in games])) if games else float("nan"),
                "mean_game_s": float(np.mean([r["wall_s"] for r in games])) if games else float("nan"),
            }
        )
    return out


def decision_times(specs, scenario: str, max_turns, games: int, seed: int, max_decisions: int) -> dict:
    """Each agent's wall time on the same searched positions (more than one legal
    action, past the set-up): positions of ``games`` games of the two agents
    (both seatings), each agent deciding each position once (a fresh agent a
    game, its seed fixed)."""
    positions = []
    for i in range(games):
        for tech, zieg in (specs, specs[::-1]):
            agents = {0: make_agent(zieg, seed=2 * i), 1: make_agent(tech, seed=2 * i + 1)}
            game = Game(scenario, seed=game_seed(seed, 10_000 + i), max_turns=max_turns)
            while not game.is_terminal():
                side = game.current_player()
                mask = game.legal_action_mask()
                if mask.sum() > 1 and not is_setup_phase(game.phase):
                    positions.append((game.observation(side), mask, side))
                game.apply_action(agents[side].act(game.observation(side), mask, side))
    rng = np.random.default_rng(seed)
    if len(positions) > max_decisions:
        positions = [positions[j] for j in sorted(rng.choice(len(positions), max_decisions, replace=False))]
    out = {}
    for spec in specs:
        agent = make_agent(spec, seed=seed)
        agent.act(*positions[0])  # warm-up
        times = []
        for obs, mask, side in positions:
            t0 = time.perf_counter()
            agent.act(obs, mask.copy(), side)
            times.append(time.perf_counter() - t0)
        t = np.asarray(times) * 1e3
        out[spec] = {
            "decisions": len(t),
            "mean_ms": float(t.mean()),
            "median_ms": float(np.median(t)),
            "p99_ms": float(np.percentile(t, 99)),
            "max_ms": float(t.max()),
        }
    return out


def main(argv=None) -> int:
    p = C.make_parser(NAME, __doc__)
    p.set_defaults(out=C.RESULTS_DIR / "openspiel_bots.json")  # the file behind docs/results.md
    p.add_argument("--games", type=int, default=200, help="games a side (default: %(default)s)")
    p.add_argument("--step", type=int, default=20, help="games a side added each round (default: %(default)s)")
    p.add_argument(
        "--time-budget", type=float, default=None, help="seconds after which no new round starts (default: none)"
    )
    p.add_argument("--think-ms", type=int, default=20, help="milliseconds a searched decision (default: %(default)s)")
    p.add_argument(
        "--rollout",
        choices=("compiled", "python"),
        default="compiled",
        help="openspiel-ismcts's random rollouts (default: %(default)s)",
    )
    p.add_argument("--scenario", default="open")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--max-turns",
        type=parse_max_turns,
        default=DEFAULT_MAX_TURNS,
        help="games still going after this turn are draws; 'none': no limit (default: %(default)s)",
    )
    p.add_argument(
        "--runs-dir",
        type=Path,
        default=Path("runs") / "openspiel-bots",
        help="the arena's folder (default: %(default)s)",
    )
    p.add_argument(
        "--timing-games",
        type=int,
        default=2,
        help="games a seating whose positions the decision timing uses (default: %(default)s)",
    )
    args = p.parse_args(argv)
    target = 1 if args.tiny else args.games
    step = 1 if args.tiny else max(1, args.step)
    max_turns = 1 if args.tiny else args.max_turns
    scenario = "standard" if args.tiny else args.scenario
    think = 5 if args.tiny else args.think_ms
    extra = "" if args.rollout == "compiled" else ",rollout=python"
    openspiel = canonical_agent(f"openspiel-ismcts(think_ms={think}{extra})")
    ours = canonical_agent(f"ismcts(think_ms={think})")
    t0 = time.perf_counter()
    played, cut = 0, False
    while True:
        played = min(target, played + step)
        summary = run_arena(
            pairings=[(openspiel, ours)],
            games=played,
            scenario=scenario,
            seed=args.seed,
            out=args.runs_dir,
            workers=1,
            progress=False,
            max_turns=max_turns,
        )
        rows = summary["result"].rows
        done = seat_rows(rows, openspiel)
        print(
            f"{played:4d} games a side, {time.perf_counter() - t0:7.0f} s: openspiel-ismcts scores "
            + ", ".join(f"{r['score']:.3f} as {r['side']}" for r in done),
            flush=True,
        )
        if played >= target:
            break
        if args.time_budget is not None and time.perf_counter() - t0 >= args.time_budget:
            cut = True
            break
    wall = time.perf_counter() - t0
    per_seat = seat_rows(rows, openspiel)
    n = sum(r["games"] for r in per_seat)
    k = sum(r["wins"] + r["draws"] / 2 for r in per_seat)
    lo, hi = wilson_interval(k, n)
    overall = {
        "agent": openspiel,
        "opponent": ours,
        "games": n,
        "score": k / n if n else float("nan"),
        "ci_low": lo,
        "ci_high": hi,
        "verdict": C.verdict(lo, hi),
    }
    winner = openspiel if lo > 0.5 else ours if hi < 0.5 else "undecided"
    timing = decision_times(
        (openspiel, ours),
        scenario,
        max_turns,
        1 if args.tiny else args.timing_games,
        args.seed,
        20 if args.tiny else 200,
    )
    C.print_table(
        f"{openspiel} against {ours} on {scenario} (max_turns {max_turns}), score of {openspiel}",
        ["side", "games", "wins", "draws", "losses", "score", "95% interval", "mean turns"],
        [
            [
                r["side"],
                r["games"],
                r["wins"],
                r["draws"],
                r["losses"],
                C.fmt(r["score"]),
                f"[{C.fmt(r['ci_low'])}, {C.fmt(r['ci_high'])}]",
                C.fmt(r["mean_turns"]),
            ]
            for r in per_seat
        ]
        + [["both", n, "", "", "", C.fmt(overall["score"]), f"[{C.fmt(lo)}, {C.fmt(hi)}]", ""]],
    )
    C.print_table(
        "wall time of a searched decision (same positions)",
        ["agent", "decisions", "mean ms", "median ms", "p99 ms", "max ms"],
        [
            [spec, t["decisions"], C.fmt(t["mean_ms"]), C.fmt(t["median_ms"]), C.fmt(t["p99_ms"]), C.fmt(t["max_ms"])]
            for spec, t in timing.items()
        ],
    )
    print(
        f"\nwinner: {winner}" + (f"; {n // 2} games a side of the {target} asked: cut by --time-budget" if cut else "")
    )
    C.write_result(
        args,
        NAME,
        {
            "openspiel_agent": openspiel,
            "hotspot_agent": ours,
            "think_ms": think,
            "scenario": scenario,
            "max_turns": max_turns,
            "seed": args.seed,
            "games_per_side_target": target,
            "games_per_side": n // 2,
            "cut_by_time_budget": cut,
            "time_budget_s": args.time_budget,
            "workers": 1,
            "runs_dir": str(args.runs_dir),
        },
        per_seat,
        {
            "overall": overall,
            "per_seat": {r["side"]: r for r in per_seat},
            "winner": winner,
            "target_met": n // 2 >= target,
            "decision_ms": timing,
            "wall_s": round(wall, 1),
        },
        extra={"games": compact_games(rows), "games_note": GAMES_NOTE},
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
