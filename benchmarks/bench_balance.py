"""The balance of the game: scripted vs scripted on ``standard`` and
``open`` under the default rules and each disputed reading of D22, and the
best deployment found by the deployment search.

    python benchmarks/bench_balance.py                    # 1,000 games a cell (about half an hour on 2 cores)
    python benchmarks/bench_balance.py --games 200        # fewer
    python benchmarks/bench_balance.py --tiny             # smoke sizes (the numbers mean nothing)
    python benchmarks/bench_balance.py --search-games 0   # no deployment search

A cell is (scenario, one rules option at its non-default value, or the
defaults).  Every cell plays ``--games`` games between the scripted players
with the arena's seeds (game ``i`` of every cell has the same dice seed:
common random numbers), truncated by the harness default ``max_turns`` (a
draw, half a point, D19 revised), through ``hotspot.design.balance``: the
games (seeds and actions) are in ``--runs-dir``/<cell group>/games.jsonl,
and this script's JSON keeps every game's seed, winner and length.  The
Technocrat's win rate gets a 95% Wilson interval; the plot
(``docs/balance.png``) shows every cell with its interval.

Then the deployment search (``hotspot search-deployment``): first
the Ziegler's (on ``open``: the scripted Technocrat deploys against each
candidate), then the Technocrat's against the best Ziegler deployment found,
with ``--search-final`` games for each finalist; the best deployments are
written to ``benchmarks/results/best_<side>_deployment.json``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import _common as C

from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.rules_data import RulesOptions
from hotspot.design.balance import run_balance
from hotspot.design.deployment import search_deployment

SCENARIOS = ("standard", "open")
# one disputed reading at a time (D22), at its non-default value; counter_cap 14
# = the 14 three-squad counters the standard set-up gives the Ziegler player
OPTIONS = (
    ("combat_table", "diagonal"),
    ("stress_timing", "moving_side"),
    ("forward_into_blocked", "refuse"),
    ("collision_count", "per_hex"),
    ("losses", "owner"),
    ("control_blocker", "hex"),
    ("counter_cap", 14),
)


def cell_label(rules: dict) -> str:
    return "defaults" if not rules else ", ".join(f"{k}={v}" for k, v in rules.items())


def plot(rows, path: Path) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    labels = [cell_label(r["rules"]) for r in rows if r["scenario"] == SCENARIOS[0]]
    fig, axes = plt.subplots(1, len(SCENARIOS), figsize=(11, 0.45 * len(labels) + 1.8), sharey=True)
    for ax, scenario in zip(axes, SCENARIOS):
        cells = [r for r in rows if r["scenario"] == scenario]
        y = list(range(len(cells)))[::-1]
        rate = [c["technocrat_win_rate"] for c in cells]
        err = [
            [c["technocrat_win_rate"] - c["ci_low"] for c in cells],
            [c["ci_high"] - c["technocrat_win_rate"] for c in cells],
        ]
        ax.errorbar(rate, y, xerr=err, fmt="o", color="tab:red", ecolor="black", capsize=3)
        ax.axvline(0.5, color="grey", lw=0.8, ls="--")
        ax.set_xlim(0, 1)
        ax.set_title(f"{scenario} (scripted vs scripted, {cells[0]['games']} games a cell)")
        ax.set_xlabel("Technocrat win rate (draws half), 95% Wilson interval")
        ax.set_yticks(y)
        ax.set_yticklabels([cell_label(c["rules"]) for c in cells])
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv=None) -> int:
    p = C.make_parser("balance", __doc__)
    p.add_argument("--games", type=int, default=1000, help="games a cell (default: %(default)s)")
    p.add_argument(
        "--runs-dir", type=Path, default=Path("balance-runs"), help="arena output folders (default: %(default)s)"
    )
    p.add_argument("--plot", type=Path, default=C.REPO_ROOT / "docs" / "balance.png")
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--search-games",
        type=int,
        default=50,
        help="deployment search: first-round games a candidate; 0 skips the search",
    )
    p.add_argument("--search-final", type=int, default=1000, help="deployment search: games a finalist")
    p.add_argument("--search-candidates", type=int, default=16)
    args = p.parse_args(argv)
    games = 2 if args.tiny else args.games
    t0 = time.perf_counter()
    groups = [("defaults", [])] + [(name, [(name, [value])]) for name, value in OPTIONS]
    rows, per_game = [], {}
    for group, options in groups:
        summary = run_balance(
            scenarios=list(SCENARIOS),
            rules=options,
            pairs=[("scripted", "scripted")],
            games=games,
            seed=args.seed,
            out=args.runs_dir / group,
            workers=args.workers,
            progress=not args.tiny,
            plot=False,
            max_turns=DEFAULT_MAX_TURNS,
        )
        for cell in summary["cells"]:
            row = {
                k: cell[k]
                for k in (
                    "scenario",
                    "rules",
                    "games",
                    "technocrat_wins",
                    "ziegler_wins",
                    "draws",
                    "technocrat_win_rate",
                    "ci_low",
                    "ci_high",
                    "mean_turns",
                    "mean_actions",
                )
            }
            rows.append(row)
            print(
                f"{row['scenario']:9s} {cell_label(row['rules']):32s} {row['games']:5d} games  "
                f"T {row['technocrat_win_rate']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}]  "
                f"draws {row['draws']:4d}  turns {row['mean_turns']:.1f}",
                flush=True,
            )
        for r in sorted(summary["result"].rows, key=lambda r: r["index"]):
            cell = per_game.setdefault(
                f"{r['scenario']} {cell_label(r.get('rules') or {})}", {"seeds": [], "winners": "", "turns": []}
            )
            cell["seeds"].append(r["seed"])
            cell["winners"] += {"technocrat": "T", "ziegler": "Z"}.get(r["winner"], "-")
            cell["turns"].append(r["turns"])
    order = {s: i for i, s in enumerate(SCENARIOS)}
    rows.sort(
        key=lambda r: (
            order[r["scenario"]],
            0 if not r["rules"] else 1 + [o[0] for o in OPTIONS].index(next(iter(r["rules"]))),
        )
    )
    png = None if args.tiny else plot(rows, args.plot)
    searches = {}
    if args.search_games > 0:
        base = None
        for side in ("ziegler", "technocrat"):
            # the Technocrat searches against the best Ziegler deployment just found
            s = search_deployment(
                side,
                base=base,
                games=1 if args.tiny else args.search_games,
                final_games=2 if args.tiny else args.search_final,
                candidates=4 if args.tiny else args.search_candidates,
                random_candidates=1 if args.tiny else 4,
                seed=args.seed,
                out=args.runs_dir / f"search-{side}",
                workers=args.workers,
                progress=not args.tiny,
            )
            print(s["text"], flush=True)
            best = Path(s["best"])
            base = json.loads(best.read_text(encoding="utf-8"))
            if not args.tiny:
                target = C.REPO_ROOT / "benchmarks" / "results" / f"best_{side}_deployment.json"
                target.write_text(best.read_text(encoding="utf-8"), encoding="utf-8")
                s["best"] = str(target.relative_to(C.REPO_ROOT))
            searches[side] = {k: v for k, v in s.items() if k != "text"}
    C.write_result(
        args,
        "bench_balance",
        {
            "games_per_cell": games,
            "scenarios": list(SCENARIOS),
            "options": [list(o) for o in OPTIONS],
            "pair": "scripted:scripted",
            "max_turns": DEFAULT_MAX_TURNS,
            "seed": args.seed,
            "defaults": RulesOptions().to_dict(),
        },
        rows,
        {
            "cells": len(rows),
            "plot": str(png) if png else None,
            "deployment_search": searches,
            "wall_s": round(time.perf_counter() - t0, 1),
        },
        extra={
            "games": per_game,
            "games_note": "per cell: game i's seed, winner (T, Z, or - for a draw stopped by max_turns) and turns",
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
