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

Then the Technocrat's approach as progress (5.0, 15.5: his engineers must
reach the Central Crustal), measured beside the rules and not a rule of the
package: each game's Technocrat units' hex distance to the Central Crustal
at the same points, and ``draw`` with a turn also counted as progress when
an engineer (``+approach``) or any Technocrat unit (``+approach-any``)
stands nearer than ever before in the game, or never counted as still while
an engineer is within one hex of it (``+near``).
"""

from __future__ import annotations

import glob
import gzip
import json
from collections import defaultdict

import _common as C
import numpy as np

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
#: the approach variants of ``draw`` measured beside the rules (see the module's docstring)
APPROACH = ["draw(turns=60)+approach", "draw(turns=60)+approach-any", "draw(turns=60)+near", "draw(turns=100)+near"]


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


def start_of(row: dict):
    """The started state (shape (1,)) of a recorded game's row."""
    spec = GameSpec(
        row["pairing"], row["technocrat"], row["ziegler"], row["index"], row["seed"], row["scenario"],
        canonical_rules(row["rules"]), max_turns=row["max_turns"],
    )  # fmt: skip
    return initial_state(spec)


def points_of(rows, nets) -> list[dict]:
    out = []
    for row in rows:
        points = game_points(start_of(row), row["actions"], nets)
        if not points["ok"]:
            raise SystemExit(f"game {row['key']}: its actions do not replay")
        out.append(points)
    return out


def _approach_kernel():
    """The compiled replay of :func:`approach_of` (made on first use)."""
    from numba import njit

    from hotspot.core.actions import apply_action
    from hotspot.core.events import EV_WIDTH
    from hotspot.core.hexgrid import DISTANCE_TO_CENTRAL
    from hotspot.core.rules_data import NO_UNIT, PHASE_OVER, PHASE_Z_SETUP, T_ENGINEER, TECHNOCRAT, UNIT_SIDE

    @njit
    def kernel(s, actions, engineer, anyone):
        ev, ev_n = np.zeros((0, EV_WIDTH), dtype=np.int32), np.zeros(1, dtype=np.int32)
        last, n = -1, 0
        for i in range(actions.shape[0] + 1):
            if s["phase"] == PHASE_OVER:
                break
            if s["phase"] < PHASE_Z_SETUP and s["turn"] != last:  # the first state of a turn, as game_points
                last = s["turn"]
                best_e = best_a = 999
                for u in range(s["unit_type"].shape[0]):
                    t = s["unit_type"][u]
                    if t == NO_UNIT or s["unit_squads"][u] <= 0 or UNIT_SIDE[t] != TECHNOCRAT:
                        continue
                    d = DISTANCE_TO_CENTRAL[s["unit_cell"][u]]  # D2: 0 on the Central Crustal
                    best_a = min(best_a, d)
                    if t == T_ENGINEER:
                        best_e = min(best_e, d)
                engineer[n], anyone[n] = best_e, best_a
                n += 1
            if i == actions.shape[0]:
                break
            apply_action(s, actions[i], ev, ev_n)
        return n

    return kernel


def approach_of(rows) -> list[dict]:
    """Each game's nearest Technocrat engineer and unit to the Central
    Crustal (hexes; 999 for none) at the first state of each turn of play."""
    kernel = _approach_kernel()
    out = []
    for row in rows:
        cap = 1024
        engineer, anyone = np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int64)
        n = kernel(start_of(row).copy()[0], np.asarray(row["actions"], dtype=np.int64), engineer, anyone)
        out.append({"engineer": engineer[:n], "any": anyone[:n]})
    return out


def approach_cut(variant: str, pts: dict, near: dict, actions: int) -> int | None:
    """The actions played before ``variant`` (``draw(turns=N)+approach``,
    ``+approach-any`` or ``+near``) draws the game, or None."""
    base, kind = variant.split("+")
    turns = parse_adjudication(base).draw_turns
    still, last, record = 0, None, 999
    for i, (h, start) in enumerate(zip(pts["hash"], pts["start"])):
        d = near["any" if kind == "approach-any" else "engineer"][i]
        progress = d < record if kind.startswith("approach") else d <= 1
        record = min(record, d)
        still = still + 1 if (h == last and not progress) else 0
        last = h
        if still >= turns:
            return int(start)
    return None


def measure_approach(variant: str, rows, points, near) -> dict:
    """The overall row of an approach variant (as :func:`measure`'s)."""
    adjudicated = wrong = 0
    wall = kept = long_wall = long_kept = 0.0
    for row, pts, nr in zip(rows, points, near):
        cut = approach_cut(variant, pts, nr, len(row["actions"]))
        share = 1.0 if cut is None else cut / max(1, len(row["actions"]))
        wall, kept = wall + row["wall_s"], kept + row["wall_s"] * share
        if cut is not None:
            adjudicated += 1
            wrong += row["winner"] is not None
        if row["truncated"] and not (row["technocrat"] in CHEAP and row["ziegler"] in CHEAP):
            long_wall, long_kept = long_wall + row["wall_s"], long_kept + row["wall_s"] * share
    return {
        "rules": variant,
        "pairing": "all",
        "games": len(rows),
        "adjudicated": adjudicated,
        "wrong": wrong,
        "wrong_share": wrong / adjudicated if adjudicated else 0.0,
        "wrong_upper_95": upper_bound(wrong, adjudicated),
        "time_kept": kept / wall if wall else float("nan"),
        "turn200_time_kept": long_kept / long_wall if long_wall else float("nan"),
    }


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
    near = approach_of(rows)
    approach = [measure_approach(v, rows, points, near) for v in (APPROACH[:1] if args.tiny else APPROACH)]
    C.print_table(
        "draw with the Technocrat's approach as progress (measured beside the rules, not a rule)",
        ["variant", "adjudicated", "wrong", "wrong (95% upper)", "time left", "turn-200 search games: time left"],
        [
            [
                r["rules"],
                r["adjudicated"],
                r["wrong"],
                f"{r['wrong_share']:.4f} ({r['wrong_upper_95']:.4f})",
                f"{r['time_kept']:.3f}",
                f"{r['turn200_time_kept']:.3f}",
            ]
            for r in approach
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
        overall + per_pairing + approach,
        {
            r["rules"]: {"wrong": r["wrong"], "adjudicated": r["adjudicated"], "time_kept": r["time_kept"]}
            for r in overall + approach
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
