"""``hotspot compare A B``: is A stronger than B?  A sequential test on game pairs.

Game ``i`` is played twice on the same seed (mirrored seeds,
:func:`hotspot.arena.match.game_seed`): A as Technocrat against B, and B as
Technocrat against A.  The two games are a *pair*, scored for A 0, 1/2, 1,
3/2 or 2 (a draw half a point); the pairs' counts are the pentanomial of
:mod:`.pairs`.  After every ``step`` pairs the test looks at them:
fishtest's GSPRT (:func:`.pairs.gsprt`) weighs "A is ``elo1`` logistic Elo
stronger than B" (H1) against "A is at most ``elo0`` stronger" (H0), and
stops at the first look where the log-likelihood ratio leaves
``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``: H1 accepted (A is
stronger) or H0 accepted (it is not shown to be), with error rates at most
``alpha`` (accepting H1 when A is only ``elo0`` stronger) and ``beta``
(accepting H0 when A is ``elo1`` stronger).  A test still undecided after
``games`` pairs stops there, undecided.  About ``640000 / nElo**2`` games
decide a test near its bounds; a test far from them ends in tens of pairs.

The run folder (``--out``) holds every game (``games.jsonl``, with its seed
and actions), ``run.json`` (a rerun resumes; other settings are refused),
``result.json`` and ``result.txt``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TypedDict

from .folder import scenario_files, writer_lock
from .gamerow import endings
from .match import ArenaError, begin_compiling, canonical_rules, check_scenario
from .options import RunOptions, check_count
from .pairs import check_sprt, elo_interval, gsprt, pair_scores, pair_summary, pentanomial, points
from .runner import run_in_steps, spec_max_turns
from .stats import interval_text, json_safe, wilson_interval
from .tournament import canonical_agents, plan_arena


class _Defaults(TypedDict):
    """:data:`DEFAULTS`' fields: the test's Elo bounds and error rates, and its counts of pairs."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    games: int  # the most pairs played
    step: int  # pairs between looks


DEFAULTS: _Defaults = {"elo0": 0.0, "elo1": 30.0, "alpha": 0.05, "beta": 0.05, "games": 2000, "step": 10}
VERDICTS = {
    "H1": "H1 accepted: {a} is stronger than {b} (by {elo1:g} Elo or more, at error rate {beta:g})",
    "H0": "H0 accepted: {a} is not shown stronger than {b} (at most {elo0:g} Elo, at error rate {alpha:g})",
    None: "undecided",
}


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.+-]+", "-", text).strip("-.")[:60] or "agent"


def run_compare(
    a: str,
    b: str,
    *,
    elo0: float = DEFAULTS["elo0"],
    elo1: float = DEFAULTS["elo1"],
    alpha: float = DEFAULTS["alpha"],
    beta: float = DEFAULTS["beta"],
    games: int = DEFAULTS["games"],
    step: int = DEFAULTS["step"],
    scenario: str = "open",
    rules=None,
    options: RunOptions | None = None,
    **run_options,
) -> dict:
    """The sequential test of ``a`` against ``b`` (any agent specs): plays
    pairs of games until the GSPRT decides or ``games`` pairs are played;
    returns the result (a dict with ``"text"``) and writes the run folder
    (default ``compare-results/<a>-vs-<b>``).  ``options`` (or its fields as
    keywords) as :func:`hotspot.arena.tournament.run_arena`'s; a rerun
    resumes.  Every argument is checked before any folder is written."""
    check_sprt(elo0, elo1, alpha, beta)
    opts = RunOptions.merge(options, run_options, where="run_compare")
    a, b = canonical_agents([a, b])
    if a == b:
        raise ArenaError(f"compare needs two different agents, got {a} twice")
    games = check_count("games", games)
    step = check_count("step", step)
    rules = canonical_rules(rules)
    check_scenario(scenario, rules)
    out = Path(opts.out) if opts.out is not None else Path("compare-results") / f"{_slug(a)}-vs-{_slug(b)}"
    if opts.backend == "local":
        begin_compiling(opts.resolved_workers())
    specs = plan_arena(
        [(a, b)],
        games,
        scenario=scenario,
        seed=opts.seed,
        rules=rules,
        max_actions=opts.max_actions,
        max_turns=opts.max_turns,
        adjudication=opts.adjudicate,
    )
    units: dict[int, list] = {}
    for spec in specs:
        units.setdefault(spec.index, []).append(spec)
    groups = {"pairs": [units[i] for i in sorted(units)]}
    test = {"elo0": float(elo0), "elo1": float(elo1), "alpha": float(alpha), "beta": float(beta)}
    config = {
        "kind": "compare",
        "agents": [a, b],
        "scenario": scenario,
        "scenario_files": scenario_files([scenario]),
        "rules": json.loads(rules),
        "seed": int(opts.seed),
        "max_turns": spec_max_turns(opts.max_turns),
        "games": int(games),
        "step": step,
        **test,
    }
    if opts.adjudicate:
        config["adjudication"] = opts.adjudicate

    def decided(_key, rows) -> bool:
        return gsprt(pentanomial(pair_scores(rows, a, b)), **test)["decision"] is not None

    with writer_lock(out):
        run = run_in_steps(
            groups, out, games=games, step=step, enough=decided, plan=specs, config=config, options=opts, desc="pairs"
        )
        rows = [run.rows[s.key] for s in specs if s.key in run.rows]
        result = compare_result(a, b, rows, test)
        result.update(
            {
                "scenario": scenario,
                "rules": json.loads(rules),
                "adjudication": opts.adjudicate,
                "max_pairs": games,
                "remaining": run.remaining,
                "played_now": run.played,
                "wall_s": round(run.wall_s, 3),
                "folder": str(out),
            }
        )
        result["text"] = result_text(result)
        (out / "result.json").write_text(json.dumps(json_safe(result), indent=1) + "\n", encoding="utf-8")
        (out / "result.txt").write_text(result["text"] + "\n", encoding="utf-8")
    return result


def compare_result(a: str, b: str, rows, test: dict) -> dict:
    """The test's state on the games ``rows`` of ``a`` against ``b``: the
    GSPRT, the pairs' score and Elo with their intervals, the games' Wilson
    interval beside them, and ``a``'s score in each seat."""
    summary = pair_summary(rows, a, b)
    sprt = gsprt(summary["pentanomial"], **test)
    elo, elo_lo, elo_hi = elo_interval(summary["pentanomial"])
    seats = {}
    for seat in ("technocrat", "ziegler"):
        mine = [r for r in rows if r[seat] == a]
        score = sum(points(r, a) for r in mine)
        lo, hi = wilson_interval(score, len(mine)) if mine else (float("nan"), float("nan"))
        seats[seat] = {"games": len(mine), "score": score / len(mine) if mine else float("nan"), "low": lo, "high": hi}
    return {
        "format": "hotspot-compare",
        "agents": [a, b],
        "sprt": sprt,
        "verdict": VERDICTS[sprt["decision"]].format(a=a, b=b, **test),
        "pairs": summary,
        "elo": {"elo": elo, "low": elo_lo, "high": elo_hi},
        "seats": seats,
        "ended": endings(rows),
    }


def result_text(result: dict) -> str:
    """The result as ``hotspot compare`` prints it (lines of at most 80 columns where the agents' names allow)."""
    a, b = result["agents"]
    s, p, e = result["sprt"], result["pairs"], result["elo"]
    lines = [
        f"{a} vs {b} on {result['scenario']}: {result['verdict']}",
        f"  after {p['pairs']} pairs ({p['games']} games); LLR {s['llr']:.2f} in ({s['lower']:.2f}, {s['upper']:.2f})",
        f"  (elo0 {s['elo0']:g}, elo1 {s['elo1']:g}, alpha {s['alpha']:g}, beta {s['beta']:g})",
        f"  score a game {p['score']:.3f} {interval_text(p['ci_low'], p['ci_high'])} over the pairs",
        f"  (the games' Wilson interval: {interval_text(p['wilson_low'], p['wilson_high'])}); "
        f"Elo {e['elo']:+.0f} {interval_text(e['low'], e['high'], 0)}",
        f"  pairs scoring 0, 1/2, 1, 3/2, 2: {p['pentanomial']}",
    ]
    seats = result["seats"]
    t, z = seats["technocrat"], seats["ziegler"]
    lines.append(
        f"  {a} as Technocrat {t['score']:.3f} {interval_text(t['low'], t['high'])}, "
        f"as Ziegler {z['score']:.3f} {interval_text(z['low'], z['high'])}"
    )
    ends = ", ".join(f"{k} {v}" for k, v in sorted(result.get("ended", {}).items()))
    if ends:
        lines.append(
            f"  games ended by: {ends}"
            + (f" (adjudication {result['adjudication']})" if result.get("adjudication") else "")
        )
    if result.get("remaining"):
        lines.append(
            f"Not finished: {result['remaining']} game(s) of the next look left; rerun the same command to go on."
        )
    elif s["decision"] is None:
        lines.append(f"  stopped undecided at the cap of {result['max_pairs']} pairs (--games)")
    return "\n".join(lines)


__all__ = ["DEFAULTS", "compare_result", "result_text", "run_compare"]
