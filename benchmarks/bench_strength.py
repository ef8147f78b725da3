"""Agent strength: the head-to-head results behind docs/results.md's
strength table, each pairing played as both sides on mirrored seeds (game
i of each side on one seed).

    python benchmarks/bench_strength.py                  # 1,000 games per side, every claim
    python benchmarks/bench_strength.py --only learned   # one claim
    python benchmarks/bench_strength.py --tiny           # smoke sizes (the numbers mean nothing)

The claims and where each is measured:

* ``scripted``: scripted beats random on both sides (standard scenario).
* ``learned``: learned beats random on both sides (standard scenario).
* ``learned-scripted``, ``learned-scripted-standard``: learned,
  without search, beats scripted: score over both sides on ``open`` and on
  ``standard``, ``scripted:scripted`` on the same seeds the baseline.
* ``search``: search beats scripted.  Measured on random setups
  (``--scenario random``, a D12 setup per game): on the standard setup
  scripted players always end in a Ziegler win (README), which would hide any
  difference.  ``scripted:scripted`` on the same setups is the baseline: the
  search beats scripted when its score against scripted is above 0.5, i.e.
  it wins more as either side than scripted does in its seat.

* ``ismcts-open``, ``ismcts-standard``: ISMCTS beats scripted,
  score over both sides against scripted on ``open`` (the rulebook game, both
  deployments by the players) and on ``standard``; ``scripted:scripted`` on
  the same seeds is the baseline.
* ``learned-ismcts``: the search with the learned value beats plain ISMCTS;
  ``learned-ismcts-scripted``: it beats scripted (``open``).
* ``portfolio-open``: the portfolio search at its defaults
  against scripted on ``open``.
* ``best-open``, ``best-standard``: ``best`` (the alias of the
  strongest agent at <= 10 s a game; its spec is what is played and kept in
  the rows) against scripted, score over both sides and per seat, on
  ``open`` and ``standard``; ``scripted:scripted`` on the same seeds the
  baseline of each seat.
* ``guided-ismcts``: ``ismcts(guide=true,iterations=4)`` (the
  learned per-action policy names the root's default) against plain
  ``ismcts`` at 16 iterations, score over both sides (0.5 between equals on
  the same seeds).
* ``learned``, ``learned-scripted*`` measure the agent named ``learned`` at
  the time (the per-action policy; before it, the flat MLP cloned
  from the scripted player, whose results were replaced by the rerun).
* ``expert-policy``, ``expert-policy-scripted``, ``expert-ismcts`` (expert
  iteration): measured, then retired with their agents (each
  weaker than a simpler agent in both seats); their results stay in the JSON
  file.

``--only`` runs some claims and keeps the others' results in the JSON file.

"Beats on both sides" (scripted, learned) means wins more than half of the
games on each side; "beats" (search) means scores more than half of the
games of the pairing, both sides together (the setups favour one side, so a
side's rate alone says little: the scripted:scripted baseline on the same
seeds shows each seat's rate).  Games still going after turn ``--max-turns``
(default ``hotspot.core.limits.DEFAULT_MAX_TURNS``; D19 revised: the rules
have no turn limit) are draws, half a point to each side (``draws`` in each
row).  A score over both sides is judged on the 95% interval of its game
pairs (game i in each seat on one seed, ``hotspot.arena.pairs``; the games'
Wilson interval beside it in ``wilson_low``/``wilson_high``), a side's rate
on its Wilson interval (``lower > 0.5``: holds; ``upper < 0.5``: does not
hold; else undecided).  Every game is in ``<out>/<claim>/games.jsonl``
with its seed (``hotspot replay ... --game N``), and in the JSON file each
game's seed, winner and turns (``claims.NAME.games``); a rerun resumes.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import _common as C

from hotspot.agents.registry import canonical_agent
from hotspot.arena.pairs import pair_summary
from hotspot.arena.stats import wilson_interval
from hotspot.arena.tournament import run_arena
from hotspot.core.limits import DEFAULT_MAX_TURNS, parse_max_turns

#: the spec that ``best`` names now (the rows keep the spec, not the alias)
BEST = canonical_agent("best")

#: today's ``best`` pinned by its spec: what a new strongest agent is measured against
PINNED_BEST = "portfolio(horizon=2)"

#: claim -> (pairings (A, B): A is the agent under test, scenario, what is claimed)
#: rule: "each side" (every side's win rate) or "score" (both sides together)
CLAIMS = {
    "scripted": ([("scripted", "random")], "standard", "scripted beats random on both sides", "each side"),
    "learned": ([("learned", "random")], "standard", "learned beats random on both sides", "each side"),
    # the learned agent without search against scripted, on both scenarios
    "learned-scripted": (
        [("learned", "scripted"), ("scripted", "scripted")],
        "open",
        "learned (no search) beats scripted (open)",
        "score",
    ),
    "learned-scripted-standard": (
        [("learned", "scripted"), ("scripted", "scripted")],
        "standard",
        "learned (no search) beats scripted (standard)",
        "score",
    ),
    "search": (
        [("mcts(max_candidates=4,simulations=2)", "scripted"), ("scripted", "scripted")],
        "random",
        "search beats scripted",
        "score",
    ),
    # the tree search and the learned value
    "ismcts-open": (
        [("ismcts", "scripted"), ("scripted", "scripted")],
        "open",
        "ISMCTS beats scripted (open, the rulebook game)",
        "score",
    ),
    "ismcts-standard": (
        [("ismcts", "scripted"), ("scripted", "scripted")],
        "standard",
        "ISMCTS beats scripted (standard)",
        "score",
    ),
    "learned-ismcts": ([("learned-ismcts", "ismcts")], "open", "learned+search beats plain ISMCTS (open)", "score"),
    "learned-ismcts-scripted": (
        [("learned-ismcts", "scripted"), ("scripted", "scripted")],
        "open",
        "learned+search beats scripted (open)",
        "score",
    ),
    # the portfolio search at its defaults, and the strongest agent (the alias ``best``,
    # resolved to its spec) against scripted
    "portfolio-open": (
        [("portfolio", "scripted"), ("scripted", "scripted")],
        "open",
        "portfolio beats scripted (open)",
        "score",
    ),
    "best-open": ([(BEST, "scripted"), ("scripted", "scripted")], "open", "best beats scripted (open)", "score"),
    "best-standard": (
        [(BEST, "scripted"), ("scripted", "scripted")],
        "standard",
        "best beats scripted (standard)",
        "score",
    ),
    # the portfolio search valuing with the learned plan value (hotspot.agents.plan_value)
    "value-best": (
        [("portfolio(value=learned)", PINNED_BEST)],
        "open",
        "the search with the learned value beats portfolio(horizon=2) (open)",
        "score",
    ),
    "value-h1-best": (
        [("portfolio(horizon=1,value=learned)", PINNED_BEST)],
        "open",
        "the search with the learned value at horizon 1 beats portfolio(horizon=2) (open)",
        "score",
    ),
    "value-scripted": (
        [("portfolio(value=learned)", "scripted"), ("scripted", "scripted")],
        "open",
        "the search with the learned value beats scripted (open)",
        "score",
    ),
    # the per-action policy as the search's root default, at a quarter of the budget
    "guided-ismcts": (
        [("ismcts(guide=true,iterations=4)", "ismcts")],
        "open",
        "search guided by the learned policy at N=4 iterations beats the search at 4N=16 (open)",
        "score",
    ),
}


verdict = C.verdict  # lower end > 0.5: holds; upper end < 0.5: does not hold; else undecided

GAMES_NOTE = (
    "per claim and pairing (technocrat:ziegler): game i's seed, winner (T, Z, or - for a game "
    "stopped by max_turns) and turns; every game replays from its seed (hotspot replay, or the "
    "arena rerun with the same settings)"
)


def compact_games(rows) -> dict:
    """Every game of an arena run, compactly, by pairing ("technocrat:ziegler"):
    the seeds, the winners as one string (T, Z, -) and the turns, in game order."""
    games = {}
    for r in sorted(rows, key=lambda r: (r["technocrat"], r["ziegler"], r["index"])):
        cell = games.setdefault(f"{r['technocrat']}:{r['ziegler']}", {"seeds": [], "winners": "", "turns": []})
        cell["seeds"].append(int(r["seed"]))
        cell["winners"] += {"technocrat": "T", "ziegler": "Z"}.get(r["winner"], "-")
        cell["turns"].append(int(r["turns"]))
    return games


def claim_rows(summary: dict, agent: str, opponent: str) -> list[dict]:
    """The agent's win rate as each side against the opponent, with intervals."""
    rows = []
    for s in summary["sides"]:
        if {s["technocrat"], s["ziegler"]} != {agent, opponent} or (agent == opponent and s["technocrat"] != agent):
            continue
        side = "technocrat" if s["technocrat"] == agent else "ziegler"
        if side == "technocrat":
            rate, lo, hi = s["technocrat_win_rate"], s["ci_low"], s["ci_high"]
        else:
            rate, lo, hi = 1.0 - s["technocrat_win_rate"], 1.0 - s["ci_high"], 1.0 - s["ci_low"]
        rows.append(
            {
                "agent": agent,
                "opponent": opponent,
                "side": side,
                "games": s["games"],
                "win_rate": rate,
                "ci_low": lo,
                "ci_high": hi,
                "verdict": verdict(lo, hi),
                "draws": s.get("draws", 0),
                "truncated_rate": s.get("truncated_rate"),
                "mean_turns": s.get("mean_turns"),
                "mean_actions": s.get("mean_actions"),
            }
        )
    return rows


def main(argv=None) -> int:
    p = C.make_parser("bench_strength", __doc__)
    p.set_defaults(out=C.RESULTS_DIR / "strength.json")  # the file behind docs/results.md and BENCHMARKS.md
    p.add_argument("--games", type=int, default=1000, help="games per pairing and side (default: %(default)s)")
    p.add_argument("--only", nargs="+", choices=sorted(CLAIMS), default=None)
    p.add_argument("--workers", type=int, default=None, help="processes (default: the cores)")
    p.add_argument(
        "--runs-dir",
        type=Path,
        default=Path("strength-runs"),
        help="arena output folders, one per claim (default: %(default)s)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--max-turns",
        type=parse_max_turns,
        default=DEFAULT_MAX_TURNS,
        help="games still going after this turn are draws; 'none': no limit (default: %(default)s)",
    )
    args = p.parse_args(argv)
    games = 1 if args.tiny else args.games
    claims = args.only or list(CLAIMS)
    results, played = {}, {}
    for name in claims:
        pairings, scenario, text, rule = CLAIMS[name]
        t0 = time.perf_counter()
        summary = run_arena(
            pairings=pairings,
            games=games,
            scenario=scenario,
            seed=args.seed,
            out=args.runs_dir / name,
            workers=args.workers,
            progress=not args.tiny,
            self_play=True,
            max_turns=args.max_turns,
        )
        agent, opponent = pairings[0]
        rows = claim_rows(summary, agent, opponent)
        baseline = []
        for a, b in pairings[1:]:
            baseline += claim_rows(summary, a, b)
        n = sum(r["games"] for r in rows)
        k = sum(r["win_rate"] * r["games"] for r in rows)  # points: a draw is half a win
        lo, hi = wilson_interval(k, n)
        paired = pair_summary(summary["result"].rows, agent, opponent) if agent != opponent else {"pairs": 0}
        score = {
            "games": n,
            "wins": k,
            "score": k / n if n else float("nan"),
            "wilson_low": lo,
            "wilson_high": hi,
            "pairs": paired["pairs"],
            "pentanomial": paired.get("pentanomial"),
        }
        if paired["pairs"]:  # the game pairs' interval (mirrored seeds), the games' Wilson interval beside it
            lo, hi = paired["ci_low"], paired["ci_high"]
        score.update({"ci_low": lo, "ci_high": hi, "interval": "pairs" if paired["pairs"] else "wilson"})
        score["verdict"] = verdict(lo, hi)
        if rule == "score":  # a side's rate alone decides nothing here (see the baseline)
            for r in rows + baseline:
                r["verdict"] = "see score"
        if rule == "each side":
            verdicts = {r["verdict"] for r in rows}
            overall = (
                "holds" if verdicts == {"holds"} else "does not hold" if "does not hold" in verdicts else "undecided"
            )
        else:
            overall = score["verdict"]
        results[name] = {
            "claim": text,
            "rule": rule,
            "scenario": scenario,
            "games_per_side": games,
            "rows": rows,
            "baseline": baseline,
            "score": score,
            "verdict": overall,
            "wall_s": round(time.perf_counter() - t0, 1),
            "holds": overall == "holds",
            # the games' own times summed (one worker's seconds; a resumed run counts every game)
            "game_s": round(sum(float(r.get("wall_s", 0.0)) for r in summary["result"].rows), 1),
            "games": compact_games(summary["result"].rows),
        }
        played[name] = summary["result"].played
        for r in rows + baseline:
            print(
                f"{name:9s} {r['agent']:>10s} as {r['side']:10s} vs {r['opponent']:9s} {r['games']:5d} games  "
                f"win {r['win_rate']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]  {r['verdict']}",
                flush=True,
            )
        print(
            f"{name:9s} score {score['score']:.3f} [{lo:.3f}, {hi:.3f}] over {n} games; {text} ({rule}): {overall}",
            flush=True,
        )
    if args.only and not args.tiny and Path(args.out).exists():  # keep the other claims' results
        try:
            old = json.loads(Path(args.out).read_text()).get("claims", {})
        except (OSError, ValueError):
            old = {}
        for name, v in results.items():  # a rerun that played no game keeps the wall time of the run that did
            if name in old and played[name] == 0:
                v["wall_s"] = old[name].get("wall_s", v["wall_s"])
        results = {**{k: v for k, v in old.items() if k not in results}, **results}
        claims = list(results)
    C.write_result(
        args,
        "bench_strength",
        {"games_per_side": games, "claims": claims, "seed": args.seed, "max_turns": args.max_turns},
        [r for v in results.values() for r in v["rows"] + v["baseline"]],
        {name: {"holds": v["holds"], "verdict": v["verdict"], "claim": v["claim"]} for name, v in results.items()},
        extra={"claims": results, "games_note": GAMES_NOTE},
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
