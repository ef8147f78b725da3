"""The published rating scale of ``hotspot evaluate``: the reference ladder
plays a round robin, and its ratings are fitted once and held fixed.

    python benchmarks/fit_reference_ratings.py                 # the published set (hours on two cores)
    python benchmarks/fit_reference_ratings.py --tiny --no-write  # smoke sizes
    python benchmarks/fit_reference_ratings.py --games-csv benchmarks/results/reference/games.csv
                                                 # refit the committed games (seconds)

The reference agents (``hotspot.arena.evaluate.REFERENCE_LADDER``, by their
canonical specs) play on the protocol's scenario and turn limit (``open``,
200), each pairing as both seats on mirrored seeds, from a master seed of
its own (``--seed``, default 1: other dice than the protocol's seed 0, so
that evaluating a reference agent by the protocol replicates its rating on
fresh games).  The pairings of ``random`` and ``scripted`` (with self-play)
play ``--games`` games a side; every pairing with a search agent
(``ismcts``, ``portfolio``, ``portfolio(horizon=2)``) against ``random``,
``scripted`` and each other (no self-play between searches) ``--search-games``.
The games go to two arena folders under ``--runs-dir`` (a rerun resumes them).

The ratings (``hotspot.arena.rating``: each agent as Technocrat and as
Ziegler by ``fit_ratings``, one virtual drawn game of each seat against
scripted's other seat as the prior; overall, the Elo of its score over both
seats, by ``fit_overall``, one virtual drawn pair against scripted as the
prior; ``scripted`` = 1000 overall in both; so ``random``, which never
wins, gets a finite estimate, and its 95% interval from the games alone is
an upper bound) are written to ``hotspot/arena/reference_ratings.json`` (the
package's published scale), and every game (seed, agents, winner, turns) to
``benchmarks/results/reference/games.csv``.
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path

from _common import REPO_ROOT, RESULTS_DIR, command_line, machine_info, make_parser

from hotspot.arena.evaluate import PROTOCOL, RATINGS_FILE, REFERENCE_LADDER
from hotspot.arena.rating import (
    ANCHOR_RATING,
    fit_overall,
    fit_ratings,
    load_reference,
    rate_in,
    rate_overall,
    scores_against,
    seat_results,
    two_seat_scores,
)
from hotspot.arena.tournament import run_arena

CHEAP = REFERENCE_LADDER[:2]  # random, scripted
SEARCH = REFERENCE_LADDER[2:]  # ismcts, portfolio, portfolio(horizon=2)


def pairings():
    """(cheap pairings, search pairings) of the reference round robin."""
    cheap = [(a, b) for i, a in enumerate(CHEAP) for b in CHEAP[i:]]
    search = [(s, c) for s in SEARCH for c in CHEAP]
    search += [(a, b) for i, a in enumerate(SEARCH) for b in SEARCH[i + 1 :]]
    return cheap, search


def play(args) -> list[dict]:
    """The reference round robin's game rows (the arena folders resume)."""
    cheap, search = pairings()
    rows = []
    for name, pairs, games in (("cheap", cheap, args.games), ("search", search, args.search_games)):
        summary = run_arena(
            pairings=pairs,
            games=games,
            scenario=PROTOCOL["scenario"],
            seed=args.seed,
            max_turns=PROTOCOL["max_turns"],
            out=args.runs_dir / name,
            workers=args.workers,
            progress=not args.tiny,
        )
        rows += summary["result"].rows
        print(f"{name}: {len(summary['result'].rows)} games ({summary['result'].played} played now)")
    return rows


def read_csv(path: Path) -> list[dict]:
    """The game rows of a ``games.csv`` this script wrote (a draw's winner written ``draw``)."""
    with path.open(encoding="utf-8") as f:
        return [{**r, "winner": None if r["winner"] == "draw" else r["winner"]} for r in csv.DictReader(f)]


def fit(rows) -> tuple[dict, dict]:
    """(the seats' results, each reference agent's published entry) of the games ``rows``."""
    results = seat_results(rows)
    fitted = fit_ratings(results, anchor="scripted", anchor_rating=ANCHOR_RATING, prior=1.0)
    scores = two_seat_scores(rows)
    overall = fit_overall(scores, anchor="scripted", anchor_rating=ANCHOR_RATING, prior=1.0)
    agents = {}
    for agent in REFERENCE_LADDER:
        t, z = fitted[agent]
        est = rate_in(results, agent, fitted)
        agents[agent] = {
            "technocrat": round(t, 1),
            "ziegler": round(z, 1),
            "overall": {
                **rate_overall(scores_against(scores, agent), overall).as_dict(),
                "fitted": round(overall[agent], 1),
            },
            "technocrat_interval": est["technocrat"].as_dict(),
            "ziegler_interval": est["ziegler"].as_dict(),
        }
    return results, agents


def main(argv=None) -> int:
    p = make_parser("fit_reference_ratings", __doc__.split("\n\n")[0])
    p.set_defaults(out=RESULTS_DIR / "reference" / "fit.json")
    p.add_argument("--games", type=int, default=2000, help="games a side of the random/scripted pairings")
    p.add_argument("--search-games", type=int, default=200, help="games a side of a pairing with a search agent")
    p.add_argument("--seed", type=int, default=1, help="master seed of the reference games (default 1)")
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--runs-dir", type=Path, default=Path("reference-runs"))
    p.add_argument("--no-write", action="store_true", help="do not replace the package's reference_ratings.json")
    p.add_argument(
        "--ratings-out", type=Path, default=None, help="write the ratings here instead of the package's file"
    )
    p.add_argument("--games-csv", type=Path, default=None, help="refit the games of this games.csv, playing none")
    args = p.parse_args(argv)
    if args.tiny:
        args.games, args.search_games = 4, 2
    t0 = time.time()
    rows = read_csv(args.games_csv) if args.games_csv else play(args)
    results, agents = fit(rows)
    csv_path = RESULTS_DIR / "reference" / "games.csv"
    game_set = {
        "games": len(rows),
        "seed": args.seed,
        "games_a_side": {"random/scripted pairings": args.games, "pairings with a search agent": args.search_games},
        "file": str(csv_path.relative_to(REPO_ROOT)),
        "command": command_line(),
        "time_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    if args.games_csv:  # the committed set's games: keep how they were made, add how they were fitted
        made = {k: v for k, v in load_reference()["game_set"].items() if not k.startswith("fit_")}
        game_set = {**made, "fit_command": game_set["command"], "fit_time_utc": game_set["time_utc"]}
    doc = {
        "format": "hotspot-reference-ratings",
        "version": 2,
        "scale": "Elo points (400 = odds of 10 to 1) of hotspot.arena.rating: a rating as Technocrat and one as "
        "Ziegler (the seat model), and overall the Elo of the score over both seats",
        "anchor": {"agent": "scripted", "rating": ANCHOR_RATING},
        "prior": "one virtual drawn game of each seat of each agent against scripted's other seat (the seats); "
        "one virtual drawn pair against scripted (overall)",
        "protocol": {
            "scenario": PROTOCOL["scenario"],
            "rules": PROTOCOL["rules"],
            "max_turns": PROTOCOL["max_turns"],
            "ladder": list(REFERENCE_LADDER),
        },
        "game_set": game_set,
        "agents": agents,
    }
    for (t, z), (pts, n) in sorted(results.items()):
        print(f"{t:>22s} vs {z:<22s} {n:5d} games  Technocrat score {pts / n:.3f}")
    for agent, e in agents.items():
        print(
            f"{agent:>22s}  T {e['technocrat']:7.1f}  Z {e['ziegler']:7.1f}  overall {e['overall']['fitted']:7.1f}"
            f" ({e['overall']['text']}; T {e['technocrat_interval']['text']}, Z {e['ziegler_interval']['text']})"
        )
    if args.ratings_out is not None:
        args.ratings_out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.ratings_out}")
        return 0
    if args.tiny or args.no_write:
        print("(tiny or --no-write: the package's reference_ratings.json is left as it is)")
        return 0
    RATINGS_FILE.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    if not args.games_csv:
        csv_path.parent.mkdir(parents=True, exist_ok=True)
        with csv_path.open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["technocrat", "ziegler", "index", "seed", "winner", "turns"])
            for r in rows:
                w.writerow([r["technocrat"], r["ziegler"], r["index"], r["seed"], r["winner"] or "draw", r["turns"]])
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(
        json.dumps({**doc, "machine": machine_info(), "wall_s": round(time.time() - t0, 1)}, indent=1) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {RATINGS_FILE} and {args.out}" + ("" if args.games_csv else f" and {csv_path}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
