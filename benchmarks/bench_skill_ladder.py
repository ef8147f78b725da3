"""Skill ladder of one agent over its budget (TAG's SkillLadder protocol):
does each doubling of the search budget make the agent stronger?

    python benchmarks/bench_skill_ladder.py                      # ismcts, iterations 16,32,64,128,256, open
    python benchmarks/bench_skill_ladder.py --agent learned-ismcts --budgets 8,16,32,64
    python benchmarks/bench_skill_ladder.py --param think_ms --budgets 50,100,200,400
    python benchmarks/bench_skill_ladder.py --tiny --json /tmp/s.json --plot /tmp/s.png   # smoke sizes

The agent family ``--agent`` (an agent spec: ``ismcts``, or with fixed
parameters ``'ismcts(rollout=random)'``) is played at each budget of
``--budgets``, the value of its parameter ``--param`` (``iterations`` by
default): ``ismcts(iterations=16)``, ``ismcts(iterations=32)``, ...  Each
consecutive pair of budgets is a *rung*: the higher budget against the lower
one on ``--scenario``, with mirrored seeds (game ``i`` of each seating has
the same seed, and both seatings are played: the higher budget as the
Technocrat and as the Ziegler; the arena's ``plan_arena``).

Sequential stopping, per rung: rounds of ``--batch`` games a side; after
each round the higher budget's score over both seatings, (wins + draws / 2)
/ games (a game still going after turn ``--max-turns`` is a draw), and the
95% interval of its game pairs (game ``i`` of both seatings on one seed,
``hotspot.arena.pairs``; the games' Wilson interval beside it).  The rung
stops when the interval excludes 0.5 (``decided``), when its half-width is
at most ``--half-width`` (``precise``), or at ``--max-games`` games a side
(``max games``).  The decision after round ``r`` looks only at the first
``r * batch`` games a side, so a run that is interrupted and run again (the
same command) reaches the same decisions: each rung has its own arena
folder under ``--out``, which resumes (games already in its games.jsonl are
not played again, and a rerun with a larger ``--max-games`` or a smaller
``--half-width`` continues a stopped rung).

Reported per rung: games, the higher budget's score with its interval, its
score as the Technocrat and as the Ziegler (each with its interval), the
draws, the stop reason, the mean wall seconds of a game (both players), the
Elo gap ``400 log10(p / (1 - p))`` with the interval mapped from the score's
(``p`` clipped to ``[1/(2n), 1 - 1/(2n)]`` for ``n`` games, so that a rung
won or lost in every game has a finite gap).  Per budget: an Elo, the gaps
chained from the lowest budget (Elo 0), with a 95% interval from the
rungs' delta-method standard errors ``(400 / ln 10) / sqrt(n p (1 - p))``
added in quadrature (the rungs are independent games).

The ladder is *monotone* (the target) when every doubling scores at least
0.55 with the lower end of its interval above 0.5.

Writes ``--json`` (default ``benchmarks/results/skill_ladder.json``): the
rungs, the Elo per budget, ``summary.monotone``, and every game that
decided a rung (by pairing ``technocrat:ziegler``: seeds, winners as T, Z or
- for a draw, turns; as ``bench_strength.py`` keeps its games), each
replayable from its seed (``hotspot replay`` on the rung's games.jsonl);
and ``--plot`` (default ``docs/skill_ladder.png``; needs matplotlib, else
skipped with a note): each doubling's score against the budget with its
interval, and the Elo against the budget, on a log2 axis.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import _common as C
from bench_strength import compact_games

from hotspot.agents.registry import canonical_agent
from hotspot.arena.folder import read_run_config
from hotspot.arena.match import ArenaError
from hotspot.arena.pairs import pair_summary
from hotspot.arena.stats import format_table, interval_text, json_safe, mean, normal_interval, wilson_interval
from hotspot.arena.tournament import points, run_arena
from hotspot.core.limits import DEFAULT_MAX_TURNS, parse_max_turns

NAME = "bench_skill_ladder"
#: the target of a monotone ladder: every doubling scores at least this, and its interval's lower end > 0.5
TARGET_SCORE = 0.55
ELO_PER_LOGIT = 400.0 / math.log(10.0)
STOP_DECIDED, STOP_PRECISE, STOP_MAX = "decided", "precise", "max games"
#: sizes of --tiny (explicit arguments win): two budgets, one short game a seating
TINY = {"budgets": "1,2", "batch": 1, "max_games": 1, "max_turns": 2}
DEFAULTS = {"budgets": "16,32,64,128,256", "batch": 50, "max_games": 1000, "max_turns": DEFAULT_MAX_TURNS}
GAMES_NOTE = (
    "per rung, by pairing (technocrat:ziegler): game i's seed, winner (T, Z, or - for a game stopped "
    "by max_turns) and turns, the games the rung's decision used; every game replays from its seed"
)


# ------------------------------------------------------------------ specs
def parse_budgets(text: str) -> list:
    """``"16,32,64"`` -> [16, 32, 64]: sorted, distinct, positive (ints where whole)."""
    out = set()
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        try:
            value = float(item)
        except ValueError:
            raise argparse.ArgumentTypeError(f"budget {item!r} is not a number") from None
        if not math.isfinite(value) or value <= 0:
            raise argparse.ArgumentTypeError(f"budget {item!r} must be a positive number")
        out.add(int(value) if value == int(value) else value)
    if len(out) < 2:
        raise argparse.ArgumentTypeError(f"a ladder needs two budgets at least, got {text!r}")
    return sorted(out)


def budget_spec(agent: str, param: str, budget) -> str:
    """The spec of ``agent`` with ``param=budget`` (added to the parameters it already has)."""
    agent = agent.strip()
    if agent.endswith(")"):
        head = agent[:-1].rstrip()
        sep = "" if head.endswith("(") else ","
        return f"{head}{sep}{param}={budget})"
    return f"{agent}({param}={budget})"


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_") or "agent"


def rung_folder(out: Path, agent: str, param: str, low, high) -> Path:
    """The arena folder of the rung ``high`` vs ``low``."""
    return Path(out) / f"{slug(agent)}-{param}-{high}-vs-{low}"


# ------------------------------------------------------------------ statistics
def clip(p: float, n: int) -> float:
    """``p`` kept within half a game of 0 and 1 (``n`` games), so that its logit is finite."""
    eps = 0.5 / n
    return min(max(p, eps), 1.0 - eps)


def elo_gap(p: float, n: int) -> float:
    """The Elo difference that a score ``p`` over ``n`` games means (clipped)."""
    p = clip(p, n)
    return 400.0 * math.log10(p / (1.0 - p))


def rung_stats(rows: list[dict], higher: str) -> dict:
    """The higher budget's score over ``rows`` (both seatings) with the 95%
    interval of its game pairs (the games' Wilson interval beside it), and
    as each side with Wilson intervals."""
    n = len(rows)
    score = sum(points(r, higher) for r in rows)
    wlo, whi = wilson_interval(score, n)
    paired = pair_summary(rows, higher)
    lo, hi = (paired["ci_low"], paired["ci_high"]) if paired["pairs"] else (wlo, whi)
    out = {
        "games": n,
        "score": score / n if n else math.nan,
        "ci_low": lo,
        "ci_high": hi,
        "pairs": paired["pairs"],
        "wilson_low": wlo,
        "wilson_high": whi,
        "half_width": (hi - lo) / 2.0 if n else math.nan,
        "wins": sum(r.get("winner_agent") == higher and r.get("winner") is not None for r in rows),
        "draws": sum(r.get("winner") is None for r in rows),
    }
    for side in ("technocrat", "ziegler"):
        mine = [r for r in rows if r[side] == higher]
        s = sum(points(r, higher) for r in mine)
        slo, shi = wilson_interval(s, len(mine))
        out[f"as_{side}"] = {
            "games": len(mine),
            "score": s / len(mine) if mine else math.nan,
            "ci_low": slo,
            "ci_high": shi,
        }
    return out


def stop_reason(stats: dict, games_a_side: int, half_width: float, max_games: int) -> str | None:
    """Why the rung stops after this round (None: play another round)."""
    if stats["ci_low"] > 0.5 or stats["ci_high"] < 0.5:
        return STOP_DECIDED
    if stats["half_width"] <= half_width:
        return STOP_PRECISE
    if games_a_side >= max_games:
        return STOP_MAX
    return None


def chain_elo(budgets: list, rungs: list[dict]) -> list[dict]:
    """Elo per budget: the rungs' gaps chained from the lowest budget (0), with
    a 95% interval from the gaps' delta-method standard errors in quadrature."""
    out = [
        {
            "budget": budgets[0],
            "spec": rungs[0]["lower_spec"],
            "elo": 0.0,
            "elo_se": 0.0,
            "elo_low": 0.0,
            "elo_high": 0.0,
        }
    ]
    elo, var = 0.0, 0.0
    for rung in rungs:
        n = rung["games"]
        p = clip(rung["score"], n)
        elo += rung["elo_gap"]
        var += (ELO_PER_LOGIT**2) / (n * p * (1.0 - p))
        se = math.sqrt(var)
        lo, hi = normal_interval(elo, se)
        out.append(
            {
                "budget": rung["higher"],
                "spec": rung["higher_spec"],
                "elo": elo,
                "elo_se": se,
                "elo_low": lo,
                "elo_high": hi,
            }
        )
    return out


def meets_target(rung: dict) -> bool:
    return rung["score"] >= TARGET_SCORE and rung["ci_low"] > 0.5


# ------------------------------------------------------------------ one rung
def play_rung(args, low, high, lower_spec: str, higher_spec: str) -> dict:
    """Rounds of ``args.batch`` games a side of ``higher_spec`` against
    ``lower_spec`` until the stopping rule says stop; the rung's row and its games."""
    out = rung_folder(args.out, args.agent, args.param, low, high)
    old = read_run_config(out) if out.exists() else None
    # a folder from an interrupted run: its planned games are finished first (a run may grow, never shrink)
    prev = int(old.get("games", 0)) if old and old.get("kind") == "arena" else 0
    t0 = time.perf_counter()
    have, played, g, rows = 0, 0, 0, []
    while True:
        g = min(g + args.batch, args.max_games)
        if g > have:
            have = max(g, prev)
            summary = run_arena(
                pairings=[(higher_spec, lower_spec)],
                games=have,
                scenario=args.scenario,
                seed=args.seed,
                out=out,
                workers=args.workers,
                progress=False,
                max_turns=args.max_turns,
            )
            rows = summary["result"].rows
            played += summary["result"].played
            if summary["result"].remaining:  # pragma: no cover - run_arena without max_games plays them all
                raise ArenaError(f"{out}: {summary['result'].remaining} game(s) not played")
        used = [r for r in rows if r["index"] < g]
        stats = rung_stats(used, higher_spec)
        reason = stop_reason(stats, g, args.half_width, args.max_games)
        print(
            f"  {higher_spec} vs {lower_spec}: {g} games a side, score {stats['score']:.3f} "
            f"{interval_text(stats['ci_low'], stats['ci_high'])}"
            f"{'  -> stop: ' + reason if reason else ''}",
            flush=True,
        )
        if reason:
            break
    print(
        f"  {played} game(s) played now; {len(rows)} in {out}/games.jsonl, the first {g} a side decided the rung",
        flush=True,
    )
    row = {
        "lower": low,
        "higher": high,
        "lower_spec": lower_spec,
        "higher_spec": higher_spec,
        "games_per_side": g,
        **stats,
        "stop": reason,
        "seconds_per_game": mean(float(r["wall_s"]) for r in used),
        "mean_turns": mean(r["turns"] for r in used),
        "elo_gap": elo_gap(stats["score"], stats["games"]),
        "elo_gap_low": elo_gap(stats["ci_low"], stats["games"]),
        "elo_gap_high": elo_gap(stats["ci_high"], stats["games"]),
        "played_now": played,
        "runs_dir": str(out),
        "wall_s": round(time.perf_counter() - t0, 1),
    }
    row["meets_target"] = meets_target(row)
    return {"row": row, "games": compact_games(used)}


# ------------------------------------------------------------------ output
def print_report(args, rungs: list[dict], elos: list[dict], monotone: bool) -> None:
    print(
        f"\nSkill ladder of {args.agent} over {args.param} on {args.scenario} (the higher budget's score, "
        f"both seatings; 95% Wilson intervals; a draw is half a point):"
    )
    print(
        format_table(
            rungs,
            [
                (lambda r: f"{r['higher']} vs {r['lower']}", "rung"),
                ("games", "games"),
                ("score", "score", ".3f"),
                (lambda r: interval_text(r["ci_low"], r["ci_high"]), "95% CI"),
                (lambda r: r["as_technocrat"]["score"], "as T", ".3f"),
                (lambda r: interval_text(r["as_technocrat"]["ci_low"], r["as_technocrat"]["ci_high"]), "T 95% CI"),
                (lambda r: r["as_ziegler"]["score"], "as Z", ".3f"),
                (lambda r: interval_text(r["as_ziegler"]["ci_low"], r["as_ziegler"]["ci_high"]), "Z 95% CI"),
                ("draws", "draws"),
                ("stop", "stop"),
                ("seconds_per_game", "s/game", ".2f"),
                ("elo_gap", "Elo gap", ".0f"),
                (lambda r: "yes" if r["meets_target"] else "no", "target"),
            ],
        )
    )
    print(f"\nElo per budget ({args.param}; the lowest = 0, the rungs' gaps chained):")
    print(
        format_table(
            elos,
            [
                ("budget", args.param),
                ("spec", "agent"),
                ("elo", "Elo", ".0f"),
                (lambda r: interval_text(r["elo_low"], r["elo_high"], 0), "95% CI"),
            ],
        )
    )
    print(
        f"\nMonotone (every doubling scores >= {TARGET_SCORE} with the interval's lower end above 0.5): "
        f"{'yes' if monotone else 'no'}"
    )


def write_plot(path: Path, args, rungs: list[dict], elos: list[dict]) -> bool:
    """The two panels (score per doubling, Elo per budget); False if matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(
            f"note: matplotlib is not installed: no plot written to {path} (python -m pip install matplotlib)",
            flush=True,
        )
        return False
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    x = [r["higher"] for r in rungs]
    y = [r["score"] for r in rungs]
    err = [[r["score"] - r["ci_low"] for r in rungs], [r["ci_high"] - r["score"] for r in rungs]]
    ax1.errorbar(x, y, yerr=err, fmt="o-", capsize=4)
    ax1.axhline(0.5, color="grey", lw=1)
    ax1.axhline(TARGET_SCORE, color="grey", lw=1, ls="--", label=f"target {TARGET_SCORE}")
    ax1.set_xscale("log", base=2)
    ax1.set_xticks(x, [f"{r['higher']}\nvs {r['lower']}" for r in rungs])
    ax1.set_xlabel(f"{args.param} (higher vs lower budget)")
    ax1.set_ylabel("score of the higher budget (95% CI)")
    ax1.set_ylim(0, 1)
    ax1.legend(loc="lower right")
    bx = [e["budget"] for e in elos]
    ax2.errorbar(
        bx,
        [e["elo"] for e in elos],
        yerr=[[e["elo"] - e["elo_low"] for e in elos], [e["elo_high"] - e["elo"] for e in elos]],
        fmt="o-",
        capsize=4,
    )
    ax2.set_xscale("log", base=2)
    ax2.set_xticks(bx, [str(b) for b in bx])
    ax2.set_xlabel(args.param)
    ax2.set_ylabel(f"Elo ({args.param}={bx[0]} = 0, 95% CI)")
    fig.suptitle(f"Skill ladder: {args.agent} on {args.scenario}")
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(f"wrote {path}")
    return True


# ------------------------------------------------------------------ main
def make_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bench_skill_ladder.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--agent", default="ismcts", help="the agent spec whose budget is laddered (default: %(default)s)")
    p.add_argument("--param", default="iterations", help="the budget parameter (default: %(default)s)")
    p.add_argument(
        "--budgets",
        type=parse_budgets,
        default=None,
        help=f"comma-separated budgets (default: {DEFAULTS['budgets']}; {TINY['budgets']} with --tiny)",
    )
    p.add_argument("--scenario", default="open", help="scenario (default: %(default)s)")
    p.add_argument("--batch", type=int, default=None, help=f"games a side per round (default: {DEFAULTS['batch']})")
    p.add_argument(
        "--max-games", type=int, default=None, help=f"games a side per rung at most (default: {DEFAULTS['max_games']})"
    )
    p.add_argument(
        "--half-width",
        type=float,
        default=0.03,
        help="stop a rung when its interval's half-width is at most this (default: %(default)s)",
    )
    p.add_argument("--workers", type=int, default=None, help="processes (default: the cores)")
    p.add_argument("--seed", type=int, default=0, help="master seed of the games (default: %(default)s)")
    p.add_argument(
        "--out",
        type=Path,
        default=Path("ladder-runs/skill-ladder"),
        help="arena folders, one per rung; a rerun resumes them (default: %(default)s)",
    )
    p.add_argument(
        "--json",
        type=Path,
        default=C.RESULTS_DIR / "skill_ladder.json",
        help="JSON file to write (default: %(default)s)",
    )
    p.add_argument(
        "--plot",
        type=Path,
        default=C.REPO_ROOT / "docs" / "skill_ladder.png",
        help="PNG to write (matplotlib; default: %(default)s)",
    )
    p.add_argument(
        "--max-turns",
        type=parse_max_turns,
        default=argparse.SUPPRESS,
        help=f"games still going after this turn are draws; 'none': no limit "
        f"(default: {DEFAULTS['max_turns']}; {TINY['max_turns']} with --tiny)",
    )
    p.add_argument(
        "--tiny",
        action="store_true",
        help=f"smoke sizes unless given: budgets {TINY['budgets']}, batch {TINY['batch']}, "
        f"max games {TINY['max_games']}, max turns {TINY['max_turns']} (the numbers mean nothing)",
    )
    return p


def main(argv=None) -> int:
    p = make_parser()
    args = p.parse_args(argv)
    sizes = TINY if args.tiny else DEFAULTS
    if args.budgets is None:
        args.budgets = parse_budgets(sizes["budgets"])
    for name in ("batch", "max_games"):
        if getattr(args, name) is None:
            setattr(args, name, sizes[name])
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be a positive integer")
    if not hasattr(args, "max_turns"):  # not given ('none', no limit, is given)
        args.max_turns = sizes["max_turns"]
    if not 0 < args.half_width < 0.5:
        p.error("--half-width must be in (0, 0.5)")
    try:
        specs = [canonical_agent(budget_spec(args.agent, args.param, b)) for b in args.budgets]
    except (ValueError, ArenaError) as exc:  # SpecError, UnknownAgentError
        p.error(str(exc))
    if len(set(specs)) != len(specs):
        p.error(f"the budgets {args.budgets} do not give distinct agents: {specs}")

    t0 = time.perf_counter()
    rungs, games = [], {}
    try:
        for (low, high), (lower_spec, higher_spec) in zip(zip(args.budgets, args.budgets[1:]), zip(specs, specs[1:])):
            print(
                f"\nrung {args.param} {high} vs {low}: {higher_spec} against {lower_spec} on {args.scenario}, "
                f"rounds of {args.batch} games a side (at most {args.max_games})",
                flush=True,
            )
            result = play_rung(args, low, high, lower_spec, higher_spec)
            rungs.append(result["row"])
            games[f"{high}>{low}"] = result["games"]
    except ArenaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    elos = chain_elo(args.budgets, rungs)
    monotone = all(r["meets_target"] for r in rungs)
    print_report(args, rungs, elos, monotone)
    plotted = write_plot(args.plot, args, rungs, elos)
    config = {
        "agent": args.agent,
        "param": args.param,
        "budgets": args.budgets,
        "specs": specs,
        "scenario": args.scenario,
        "batch": args.batch,
        "max_games": args.max_games,
        "half_width": args.half_width,
        "seed": args.seed,
        "max_turns": args.max_turns,
        "workers": args.workers,
        "runs_dir": str(args.out),
        "target_score": TARGET_SCORE,
        "plot": str(args.plot) if plotted else None,
    }
    summary = {
        "monotone": monotone,
        "target": f"every doubling scores >= {TARGET_SCORE} with the 95% interval's lower end above 0.5",
        "rungs": {
            f"{r['higher']}>{r['lower']}": {
                "score": r["score"],
                "ci_low": r["ci_low"],
                "ci_high": r["ci_high"],
                "games": r["games"],
                "stop": r["stop"],
                "meets_target": r["meets_target"],
            }
            for r in rungs
        },
        "elo": {str(e["budget"]): e["elo"] for e in elos},
        "games": sum(r["games"] for r in rungs),
        "played_now": sum(r["played_now"] for r in rungs),
        "wall_s": round(time.perf_counter() - t0, 1),
    }
    C.write_result(
        SimpleNamespace(out=args.json, tiny=args.tiny),
        NAME,
        config,
        json_safe(rungs),
        json_safe(summary),
        extra={"elo": json_safe(elos), "games": games, "games_note": GAMES_NOTE},
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
