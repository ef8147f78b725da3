"""Adjudication validated: how often a rule's result differs from the game's
real end, and how much of the games' time it saves.

    python benchmarks/bench_adjudication.py          # the committed games: about two minutes
    python benchmarks/bench_adjudication.py --tiny   # CI smoke run (the numbers mean nothing)

The games: every game with its actions committed under ``benchmarks/results``
(``*.games.jsonl.gz``) on ``open`` with the rulebook's rules and a turn
limit of 200, played to its real end (a victory condition, or the turn limit:
D19 revised) by the agents of the reference ladder and their variants
(random, scripted, ismcts and ismcts(iterations=4), portfolio, its learned
values, portfolio(horizon=2)), or ``--games FILE...``.  Each is replayed in
compiled code through the points the rules read
(:func:`hotspot.arena.adjudication.game_points`: the judge's value and the
material at the first state of each turn), and each rule set of ``RULES`` is
applied to those points as a run would apply it.  An adjudication is
*wrong* when its result (the judged winner; a draw for ``no progress``)
differs from the played one.  Reported per rule set, overall and per
pairing (the two agents, either seat): games, adjudicated, wrong, the wrong
share with its 95% Clopper-Pearson upper bound, and the share of the games'
wall time left (a game's wall time times the share of its actions played
before the rule stopped it), overall and for the games against a search
agent that reached turn 200.
"""

from __future__ import annotations

import glob
import gzip
import json
from collections import defaultdict

import _common as C

from hotspot.arena.adjudication import Adjudicator, game_points, judge_nets, parse_adjudication
from hotspot.arena.match import GameSpec, canonical_rules, initial_state

#: the rule sets measured: each rule at its defaults, then at other settings
RULES = [
    "resign",
    "draw",
    "resign(score=0.99,turns=4)",
    "resign(score=0.98,turns=4)",
    "resign(score=0.97,turns=3)",
    "resign(score=0.95,turns=2)",
    "draw(turns=20)",
    "draw(turns=40)",
    "draw(turns=100)",
]
CHEAP = ("random", "scripted")


def committed_games(paths=None) -> list[dict]:
    """The committed games on open, rulebook rules, max_turns 200, with actions."""
    rows = []
    for path in paths or sorted(glob.glob(str(C.RESULTS_DIR / "**" / "*.games.jsonl.gz"), recursive=True)):
        opener = gzip.open if str(path).endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                if row["scenario"] == "open" and not row["rules"] and row["max_turns"] == 200 and row.get("actions"):
                    if not row.get("adjudication"):
                        rows.append(row)
    return rows


def points_of(rows, nets) -> list[dict]:
    out = []
    for row in rows:
        spec = GameSpec(
            row["pairing"], row["technocrat"], row["ziegler"], row["index"], row["seed"], row["scenario"],
            canonical_rules(row["rules"]), max_turns=row["max_turns"],
        )  # fmt: skip
        points = game_points(initial_state(spec), row["actions"], nets)
        if not points["ok"]:
            raise SystemExit(f"game {row['key']}: its actions do not replay")
        out.append(points)
    return out


def upper_bound(k: int, n: int) -> float:
    """The 95% Clopper-Pearson upper bound of k wrong in n."""
    from scipy.stats import beta

    return 1.0 if n == 0 else (1.0 if k >= n else float(beta.ppf(0.975, k + 1, n - k)))


def measure(rule: str, rows, points, nets) -> tuple[dict, list[dict]]:
    """(the overall row, the rows per pairing) of one rule set."""
    groups = defaultdict(lambda: {"games": 0, "adjudicated": 0, "wrong": 0, "wall": 0.0, "kept": 0.0})
    long = {"wall": 0.0, "kept": 0.0, "games": 0}
    for row, pts in zip(rows, points):
        verdict, cut = Adjudicator(rule, nets).over_points(pts, len(row["actions"]))
        share = cut / max(1, len(row["actions"]))
        for key in ("all", " vs ".join(sorted((row["technocrat"], row["ziegler"])))):
            g = groups[key]
            g["games"] += 1
            g["wall"] += row["wall_s"]
            g["kept"] += row["wall_s"] * share
            if verdict is not None:
                g["adjudicated"] += 1
                g["wrong"] += verdict.winner != row["winner"]
        searched = not (row["technocrat"] in CHEAP and row["ziegler"] in CHEAP)
        if row["truncated"] and searched:
            long["games"] += 1
            long["wall"] += row["wall_s"]
            long["kept"] += row["wall_s"] * share
    out = []
    for key, g in groups.items():
        out.append(
            {
                "rules": parse_adjudication(rule).text(),
                "pairing": key,
                "games": g["games"],
                "adjudicated": g["adjudicated"],
                "wrong": g["wrong"],
                "wrong_share": g["wrong"] / g["adjudicated"] if g["adjudicated"] else 0.0,
                "wrong_upper_95": upper_bound(g["wrong"], g["adjudicated"]),
                "time_kept": g["kept"] / g["wall"] if g["wall"] else float("nan"),
            }
        )
    overall = next(r for r in out if r["pairing"] == "all")
    overall["turn200_search_games"] = long["games"]
    overall["turn200_time_kept"] = long["kept"] / long["wall"] if long["wall"] else float("nan")
    return overall, sorted((r for r in out if r["pairing"] != "all"), key=lambda r: r["pairing"])


def main(argv=None) -> int:
    p = C.make_parser("bench_adjudication", __doc__)
    p.add_argument("--games", nargs="*", default=None, help="games.jsonl(.gz) files (default: the committed games)")
    args = p.parse_args(argv)
    rows = committed_games(args.games)
    if args.tiny:
        rows = rows[:40]
    nets = judge_nets()
    points = points_of(rows, nets)
    overall, per_pairing = [], []
    for rule in RULES[:2] if args.tiny else RULES:
        o, per = measure(rule, rows, points, nets)
        overall.append(o)
        per_pairing += per
    C.print_table(
        f"Adjudication against the played result ({len(rows)} games on open played to their real end)",
        ["rules", "adjudicated", "wrong", "wrong (95% upper)", "time left", "turn-200 search games: time left"],
        [
            [
                r["rules"],
                r["adjudicated"],
                r["wrong"],
                f"{r['wrong_share']:.4f} ({r['wrong_upper_95']:.4f})",
                f"{r['time_kept']:.3f}",
                f"{r['turn200_time_kept']:.3f} of {r['turn200_search_games']}",
            ]
            for r in overall
        ],
    )
    defaults = [r for r in per_pairing if r["rules"] in {o["rules"] for o in overall[:2]}]
    C.print_table(
        "The default rules by pairing",
        ["rules", "pairing", "games", "adjudicated", "wrong"],
        [[r["rules"], r["pairing"], r["games"], r["adjudicated"], r["wrong"]] for r in defaults],
    )
    C.write_result(
        args,
        "bench_adjudication",
        {"games": len(rows), "source": "committed games on open, max_turns 200" if not args.games else args.games},
        overall + per_pairing,
        {
            r["rules"]: {"wrong": r["wrong"], "adjudicated": r["adjudicated"], "time_kept": r["time_kept"]}
            for r in overall
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
