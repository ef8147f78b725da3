"""The ladder of every agent: a round robin of the agents, each
pairing played as both sides, rated with Bradley-Terry, checked against the
expected order random < scripted < ismcts < learned-ismcts.

    python benchmarks/bench_ladder.py                          # every available agent, 1,000 games a side
    python benchmarks/bench_ladder.py --agents random,scripted,ismcts --scenario open
    python benchmarks/bench_ladder.py --tiny --agents random,scripted   # smoke sizes (numbers mean nothing)

Agents: by default every available one of ``LADDER_AGENTS`` (random,
scripted, the flat search ``mcts(max_candidates=4,simulations=2)``, ismcts,
portfolio, learned, learned-ismcts); one that is not
available here (its module not landed, or its dependencies missing) is left
out with a printed note.  Every pair of different agents plays ``--games``
games with each agent as the Technocrat (game ``i`` of every pairing and side
has the same seed); no self-play (Bradley-Terry ignores it).

Scenarios: by default ``standard`` and ``open``, **one ladder each** (its own
arena folder, its own fit): the two set-ups favour the sides differently and
only ``open`` has the deployment decisions (3.2, 3.3, D21), so a fit over both
would rate an average of two different games; an agent's rating on each is
what the issue's targets ask for.  ``--scenario`` takes one or more.

Per ladder:

* ratings by seat (``hotspot.arena.rating``, the arena's table: a rating as
  Technocrat and as Ziegler, overall their mean; Elo scale, ``scripted`` =
  1000 or the published scale on ``open``), each with its 95%
  likelihood-ratio interval, a bound for a seat that never won or lost;
* every pairing's head-to-head score (both sides together: wins + draws / 2
  over games; a game still going after turn ``--max-turns`` is a draw) with
  the 95% interval of its game pairs (game i in each seat on one seed,
  ``hotspot.arena.pairs``; the games' Wilson interval beside it);
* the expected order: each adjacent rung ``lower < higher`` of
  ``EXPECTED_ORDER`` (random < scripted, scripted < ismcts, ismcts <
  learned-ismcts) *holds* if the lower end of the higher agent's
  head-to-head score interval is above 0.5, *does not hold* if the upper end
  is below 0.5, else is *undecided*; a rung with an agent not in the ladder
  is *not played*.  The order as a whole holds when every rung holds, does
  not hold when one does not, else is undecided;
* the mean wall time of a game of each agent (both players' time: a cost to
  compare with ``seconds_per_game`` in the registry, not a measure of one
  agent alone).

Writes ``--out`` (default ``benchmarks/results/ladder.json``) and, next to it,
the same name with ``.md``: the tables in Markdown, ready for the README.
Every game is in ``<runs-dir>/<scenario>/games.jsonl`` with its seed
(``hotspot replay ... --game N``); the arena folder resumes, so rerunning the
same command after an interruption plays only the missing games, and a
larger ``--games`` adds games to the same folders.
"""

from __future__ import annotations

import math
import re
import sys
import time
from pathlib import Path

import _common as C

from hotspot.agents.registry import agent_cost, canonical_agent, is_available, registered_agents
from hotspot.arena.stats import json_safe, mean
from hotspot.arena.tournament import round_robin, run_arena
from hotspot.core.limits import DEFAULT_MAX_TURNS, parse_max_turns

#: the agents of the ladder when ``--agents`` is not given (those available)
LADDER_AGENTS = (
    "random",
    "scripted",
    "mcts(max_candidates=4,simulations=2)",
    "ismcts",
    "portfolio",
    "learned",
    "learned-ismcts",
)
#: the order the issue expects, weakest first; each adjacent pair is a rung
EXPECTED_ORDER = ("random", "scripted", "ismcts", "learned-ismcts")
DEFAULT_SCENARIOS = ("standard", "open")
TINY_GAMES = 2


def folder_name(scenario: str) -> str:
    """A folder name for a scenario (``random:3``, a JSON path, ...)."""
    name = Path(scenario).stem if scenario.endswith(".json") else scenario
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name) or "scenario"


def pick_agents(requested) -> tuple[list[str], list[dict]]:
    """(the agents to play, the ones left out with why)."""
    names = list(requested) if requested else list(LADDER_AGENTS)
    known = registered_agents()
    agents, skipped = [], []
    for name in names:
        if is_available(name):
            name = canonical_agent(name)  # the spec as the arena's rows keep it
            if name not in agents:
                agents.append(name)
        else:
            skipped.append(
                {
                    "agent": name,
                    "why": "registered but not available here (its module cannot be loaded)"
                    if name.partition("(")[0] in known
                    else "not registered",
                }
            )
    return agents, skipped


def oriented(h2h: list[dict], agent: str, opponent: str) -> dict | None:
    """The head-to-head row of ``agent`` against ``opponent`` from the agent's
    side: its score, interval and rates as each side; None if not played."""
    for row in h2h:
        if (row["agent_a"], row["agent_b"]) == (agent, opponent):
            return {
                "agent": agent,
                "opponent": opponent,
                "games": row["games"],
                "draws": row["draws"],
                "score": row["a_score"],
                "ci_low": row["ci_low"],  # the game pairs' interval (mirrored seeds)
                "ci_high": row["ci_high"],
                "pairs": row.get("pairs"),
                "wilson_low": row.get("wilson_low"),  # the games' Wilson interval, beside it
                "wilson_high": row.get("wilson_high"),
                "as_technocrat": row["a_as_technocrat_win_rate"],
                "as_ziegler": row["a_as_ziegler_win_rate"],
            }
        if (row["agent_a"], row["agent_b"]) == (opponent, agent):
            return {
                "agent": agent,
                "opponent": opponent,
                "games": row["games"],
                "draws": row["draws"],
                "score": 1.0 - row["a_score"],
                "ci_low": 1.0 - row["ci_high"],
                "ci_high": 1.0 - row["ci_low"],
                "pairs": row.get("pairs"),
                "wilson_low": 1.0 - row["wilson_high"] if "wilson_high" in row else None,
                "wilson_high": 1.0 - row["wilson_low"] if "wilson_low" in row else None,
                "as_technocrat": 1.0 - row["a_as_ziegler_win_rate"],
                "as_ziegler": 1.0 - row["a_as_technocrat_win_rate"],
            }
    return None


def rungs(h2h: list[dict], agents: list[str]) -> list[dict]:
    """Each adjacent rung ``lower < higher`` of EXPECTED_ORDER, judged on the
    higher agent's head-to-head score; a rung with an agent that did not play
    is ``not played``."""
    out = []
    for lower, higher in zip(EXPECTED_ORDER, EXPECTED_ORDER[1:]):
        row = oriented(h2h, higher, lower) if lower in agents and higher in agents else None
        if row is None or not row["games"]:
            absent = [a for a in (lower, higher) if a not in agents]
            out.append(
                {
                    "lower": lower,
                    "higher": higher,
                    "games": 0,
                    "verdict": "not played",
                    "why": f"{' and '.join(absent) or 'the pairing'} not in the ladder",
                }
            )
            continue
        out.append(
            {
                "lower": lower,
                "higher": higher,
                "games": row["games"],
                "draws": row["draws"],
                "score": row["score"],
                "ci_low": row["ci_low"],
                "ci_high": row["ci_high"],
                "verdict": C.verdict(row["ci_low"], row["ci_high"]),
            }
        )
    return out


def overall(rung_rows: list[dict]) -> str:
    """``holds`` if every rung played holds and none is missing, ``does not
    hold`` if one does not, else ``undecided``."""
    verdicts = {r["verdict"] for r in rung_rows}
    if "does not hold" in verdicts:
        return "does not hold"
    if verdicts == {"holds"}:
        return "holds"
    return "undecided"


def ladder(summary: dict, agents: list[str], scenario: str) -> dict:
    """The ladder of one arena's summary."""
    rows = summary["result"].rows
    ratings = []
    for r in summary["ratings"]:
        mine = [g for g in rows if r["agent"] in (g["technocrat"], g["ziegler"])]
        ratings.append(
            {
                "scenario": scenario,
                "agent": r["agent"],
                "rating": r["rating"],
                "rating_low": r["overall"]["low"],
                "rating_high": r["overall"]["high"],
                "rating_text": r["rating_text"],
                "technocrat_text": r["technocrat_text"],
                "ziegler_text": r["ziegler_text"],
                "anchor": r.get("anchor"),
                "games": r["games"],
                "wins": r["wins"],
                "draws": r["draws"],
                "losses": r["losses"],
                "score": r["score"],
                "technocrat_win_rate": r["technocrat_win_rate"],
                "ziegler_win_rate": r["ziegler_win_rate"],
                "seconds_per_game": mean(g["wall_s"] for g in mine),
                "registered_seconds_per_game": agent_cost(r["agent"]),
            }
        )
    rank = {r["agent"]: i for i, r in enumerate(ratings)}  # best first
    pairings = []
    for h in summary["head_to_head"]:  # the better-rated agent as A
        a, b = sorted((h["agent_a"], h["agent_b"]), key=lambda name: rank.get(name, len(rank)))
        row = oriented(summary["head_to_head"], a, b)
        pairings.append(dict(row, scenario=scenario, verdict=C.verdict(row["ci_low"], row["ci_high"])))
    pairings.sort(key=lambda r: (rank.get(r["agent"], len(rank)), rank.get(r["opponent"], len(rank))))
    rung_rows = rungs(summary["head_to_head"], agents)
    return {
        "scenario": scenario,
        "agents": agents,
        "ratings": ratings,
        "pairings": pairings,
        "rungs": rung_rows,
        "order": " < ".join(EXPECTED_ORDER),
        "order_verdict": overall(rung_rows),
        "games": summary["games"],
        "planned": summary["planned"],
        "draws": summary["draws"],
        "mean_turns": summary["mean_turns"],
        "wall_s": summary["wall_s"],
    }


# ------------------------------------------------------------------ output
def _num(x, spec: str) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return format(x, spec)


def _ci(lo, hi, spec=".3f") -> str:
    if lo is None or (isinstance(lo, float) and math.isnan(lo)):
        return "-"
    return f"[{format(lo, spec)}, {format(hi, spec)}]"


def markdown(doc: dict) -> str:
    """The ladders as Markdown tables (``ladder.md``)."""
    cfg = doc["config"]
    machine = doc["machine"]
    lines = [
        f"Measured with `{doc['command']}` ({cfg['games_per_side']} games per pairing and side, "
        f"seed {cfg['seed']}, `max_turns` {cfg['max_turns']}: a game still going after that turn is a "
        f"draw, half a point; {doc['time_utc'][:10]}, commit {str(machine.get('commit'))[:10]}"
        f"{' + local changes' if machine.get('dirty') else ''}, {machine['usable_cores']} cores"
        f"{', TINY SMOKE RUN: the numbers mean nothing' if doc['tiny'] else ''}). "
        f"Every game with its seed in `{cfg['runs_dir']}/<scenario>/games.jsonl`."
    ]
    if doc["skipped"]:
        lines.append("")
        lines.append("Not in the ladder: " + "; ".join(f"`{s['agent']}`: {s['why']}" for s in doc["skipped"]) + ".")
    for lad in doc["ladders"].values():
        anchor = next((r["anchor"] for r in lad["ratings"] if r.get("anchor")), "-")
        lines += [
            "",
            f"#### `{lad['scenario']}`",
            "",
            f"Ratings by seat ({anchor}; overall the mean of the seats; 95% likelihood-ratio intervals, "
            f"'<' / '>' a bound for a seat that never won / never lost):",
            "",
            "| rank | agent | rating | as Technocrat | as Ziegler | games | score "
            "| win as Technocrat | win as Ziegler | s/game |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for i, r in enumerate(lad["ratings"], 1):
            lines.append(
                f"| {i} | `{r['agent']}` | {r['rating_text']} | {r['technocrat_text']} | {r['ziegler_text']} | "
                f"{r['games']} | {_num(r['score'], '.3f')} | {_num(r['technocrat_win_rate'], '.3f')} | "
                f"{_num(r['ziegler_win_rate'], '.3f')} | {_num(r['seconds_per_game'], '.2f')} |"
            )
        lines += [
            "",
            f"Expected order {lad['order']}: **{lad['order_verdict']}** "
            f"(each rung: the higher agent's head-to-head score, both sides, 95% Wilson interval)",
            "",
            "| rung | games | score of the higher | 95% CI | draws | verdict |",
            "|---|---|---|---|---|---|",
        ]
        for r in lad["rungs"]:
            name = f"`{r['lower']}` < `{r['higher']}`"
            if r["verdict"] == "not played":
                lines.append(f"| {name} | 0 | - | - | - | not played ({r['why']}) |")
            else:
                verdict = r["verdict"] if r["verdict"] == "holds" else f"**{r['verdict']}**"
                lines.append(
                    f"| {name} | {r['games']} | {r['score']:.3f} | {_ci(r['ci_low'], r['ci_high'])} | "
                    f"{r['draws']} | {verdict} |"
                )
        lines += [
            "",
            "Every pairing (the better-rated agent A's score against B, both sides):",
            "",
            "| A | B | games | A score | 95% CI | A as Technocrat | A as Ziegler | draws |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for p in lad["pairings"]:
            lines.append(
                f"| `{p['agent']}` | `{p['opponent']}` | {p['games']} | {_num(p['score'], '.3f')} | "
                f"{_ci(p['ci_low'], p['ci_high'])} | {_num(p['as_technocrat'], '.3f')} | "
                f"{_num(p['as_ziegler'], '.3f')} | {p['draws']} |"
            )
    return "\n".join(lines) + "\n"


def print_ladder(lad: dict) -> None:
    C.print_table(
        f"Ladder on {lad['scenario']} ({lad['games']} games; ratings by seat with 95% intervals or bounds)",
        ["agent", "rating", "as Technocrat", "as Ziegler", "games", "score", "s/game"],
        [
            [
                r["agent"],
                r["rating_text"],
                r["technocrat_text"],
                r["ziegler_text"],
                r["games"],
                r["score"],
                r["seconds_per_game"],
            ]
            for r in lad["ratings"]
        ],
    )
    C.print_table(
        f"Expected order {lad['order']} on {lad['scenario']}: {lad['order_verdict']}",
        ["rung", "games", "score", "ci_low", "ci_high", "verdict"],
        [
            [
                f"{r['lower']} < {r['higher']}",
                r["games"],
                r.get("score"),
                r.get("ci_low"),
                r.get("ci_high"),
                r["verdict"],
            ]
            for r in lad["rungs"]
        ],
    )


def main(argv=None) -> int:
    p = C.make_parser("ladder", __doc__)
    p.add_argument(
        "--agents",
        default=None,
        help=f"comma-separated agents (default: the available ones of {','.join(LADDER_AGENTS)})",
    )
    p.add_argument(
        "--scenario", nargs="+", default=None, help=f"one ladder per scenario (default: {' '.join(DEFAULT_SCENARIOS)})"
    )
    p.add_argument(
        "--games", type=int, default=None, help=f"games per pairing and side (default: 1000; {TINY_GAMES} with --tiny)"
    )
    p.add_argument("--workers", type=int, default=None, help="processes (default: the cores)")
    p.add_argument(
        "--runs-dir",
        type=Path,
        default=Path("ladder-runs"),
        help="arena folders, one per scenario; a rerun resumes them (default: %(default)s)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--max-turns",
        type=parse_max_turns,
        default=DEFAULT_MAX_TURNS,
        help="games still going after this turn are draws; 'none': no limit (default: %(default)s)",
    )
    args = p.parse_args(argv)
    games = args.games if args.games is not None else (TINY_GAMES if args.tiny else 1000)
    requested = [a.strip() for a in args.agents.split(",") if a.strip()] if args.agents else None
    agents, skipped = pick_agents(requested)
    for s in skipped:
        print(f"note: {s['agent']} left out of the ladder: {s['why']}", flush=True)
    if len(agents) < 2:
        p.error(f"a ladder needs two agents at least; available: {agents}")
    scenarios = args.scenario or list(DEFAULT_SCENARIOS)
    ladders = {}
    for scenario in scenarios:
        t0 = time.perf_counter()
        out = args.runs_dir / folder_name(scenario)
        print(
            f"\n{scenario}: {len(agents)} agents, {len(round_robin(agents, self_play=False))} pairings x 2 sides "
            f"x {games} games -> {out}",
            flush=True,
        )
        summary = run_arena(
            pairings=round_robin(agents, self_play=False),
            games=games,
            scenario=scenario,
            seed=args.seed,
            out=out,
            workers=args.workers,
            progress=not args.tiny,
            self_play=False,
            max_turns=args.max_turns,
        )
        lad = ladder(summary, agents, scenario)
        lad["runs_dir"] = str(out)
        lad["played_now"], lad["from_file"] = summary["played_now"], summary["from_file"]
        print(
            f"{scenario}: {lad['played_now']} game(s) played now, {lad['from_file']} from {out}/games.jsonl", flush=True
        )
        lad["bench_wall_s"] = round(time.perf_counter() - t0, 1)
        if summary.get("remaining"):
            print(f"{summary['remaining']} game(s) not played yet: rerun the same command to finish", flush=True)
        print_ladder(lad)
        ladders[scenario] = lad
    doc = C.write_result(
        args,
        "bench_ladder",
        {
            "agents": agents,
            "scenarios": scenarios,
            "games_per_side": games,
            "seed": args.seed,
            "max_turns": args.max_turns,
            "runs_dir": str(args.runs_dir),
            "expected_order": list(EXPECTED_ORDER),
        },
        json_safe([r for lad in ladders.values() for r in lad["ratings"]]),
        {
            scenario: {
                "order_verdict": lad["order_verdict"],
                "rungs": {f"{r['lower']}<{r['higher']}": r["verdict"] for r in lad["rungs"]},
                "best": lad["ratings"][0]["agent"] if lad["ratings"] else None,
            }
            for scenario, lad in ladders.items()
        },
        extra={"ladders": json_safe(ladders), "skipped": skipped},
    )
    md = Path(args.out).with_suffix(".md")
    md.write_text(markdown(doc), encoding="utf-8")
    print(f"wrote {md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
