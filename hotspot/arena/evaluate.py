"""``hotspot evaluate AGENT``: the standard evaluation protocol, a result card
and a rating on a published, fixed scale.

The protocol (the way to report a result; docs/evaluate.md):

* **opponents**: the reference ladder :data:`REFERENCE_LADDER`, each pinned
  by its canonical spec (``random``, ``scripted``, ``ismcts``,
  ``portfolio``, ``portfolio(horizon=2)``, today's ``best``); an opponent
  that is the evaluated agent itself is left out;
* **games**: against each opponent, game ``i`` is played with the agent as
  Technocrat and as Ziegler on the same seed (mirrored seeds: the same
  dice and set-up draws, ``hotspot.arena.match.game_seed``), seed 0, on
  ``open`` (the rulebook game), stopped as a draw after turn 200 (D19
  revised);
* **stopping**: in steps of 50 games a side; an opponent is done when the
  95% Wilson interval of the agent's score against it (both seats, a draw
  half a point) has a half-width of at most 0.05, or after 1000 games a
  side.  (The interval is not widened for the repeated looks: it is the
  interval of the games played, a stopping rule, not a test.)
* **rating**: the agent's rating as Technocrat, as Ziegler and overall
  (their mean) on the seat model of :mod:`hotspot.arena.rating`, against
  the reference agents held at their **published ratings**
  (``reference_ratings.json`` beside this module: fitted once from a large
  game set between them, committed with its games, ``scripted`` = 1000
  overall), each with a 95% likelihood-ratio interval; an agent that never
  wins a seat gets an upper bound there, one that never loses a lower
  bound.  Two people's ratings compare without replaying the ladder.

The run folder (``--out``) holds every game (``games.jsonl``, each with its
seed and actions), ``run.json`` (a rerun resumes it; another agent or
protocol is refused; one writer at a time), ``card.json``, ``card.txt`` and
``card.png``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .balance import check_precision
from .folder import scenario_files, writer_lock
from .match import ArenaError, begin_compiling, canonical_rules, check_scenario
from .rating import (
    ANCHOR_RATING,
    PROTOCOL,
    RATINGS_FILE,
    REFERENCE_LADDER,
    load_reference,
    rate_in,
    seat_results,
    technocrat_points,
)
from .options import RunOptions
from .runner import check_count, run_in_steps, spec_max_turns
from .stats import format_table, interval_text, json_safe, wilson_interval
from .tournament import canonical_agents, plan_arena

DEFAULT_PRECISION = 0.05
DEFAULT_STEP = 50
DEFAULT_GAMES = 1000


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.+-]+", "-", spec).strip("-.")[:80] or "agent"


def run_evaluate(
    agent: str,
    *,
    opponents=None,
    scenario: str = PROTOCOL["scenario"],
    games: int = DEFAULT_GAMES,
    precision: float = DEFAULT_PRECISION,
    step: int = DEFAULT_STEP,
    ratings=None,
    plot: bool = True,
    options: RunOptions | None = None,
    **run_options,
) -> dict:
    """Evaluate ``agent`` (any agent spec: a registered name, ``module:attribute``,
    ``sb3(path=...)``) by the protocol; returns its card (a dict, with
    ``"text"``) and writes the run folder ``out`` (default
    ``evaluate-results/<agent>``).  ``opponents``: a subset of the reference
    ladder (default all of it); ``ratings``: another reference file.  The
    run options (:class:`hotspot.arena.options.RunOptions`: ``options``, or
    its fields as keywords) as :func:`hotspot.arena.tournament.run_arena`'s;
    their defaults (seed 0, ``max_turns`` 200) are the protocol's."""
    opts = RunOptions.merge(options, run_options, where="run_evaluate")
    seed, max_turns = opts.seed, opts.max_turns
    (agent,) = canonical_agents([agent])
    reference = load_reference(ratings)
    published = reference["agents"]
    ladder = list(REFERENCE_LADDER) if opponents is None else list(dict.fromkeys(canonical_agents(opponents)))
    unknown = [o for o in ladder if o not in published]
    if unknown:
        raise ArenaError(
            f"opponent(s) {', '.join(unknown)} have no published rating; the reference agents are "
            f"{', '.join(published)}"
        )
    left_out = [o for o in ladder if o == agent]
    ladder = [o for o in ladder if o != agent]
    if not ladder:
        raise ArenaError(f"no opponent left: {agent} is the only reference agent given")
    games = check_count("games", games)
    step = check_count("step", step)
    precision = check_precision(precision)
    out = Path(opts.out) if opts.out is not None else Path("evaluate-results") / _slug(agent)
    if opts.backend == "local":
        begin_compiling(opts.resolved_workers())
    check_scenario(scenario, None)
    specs = plan_arena(
        [(agent, o) for o in ladder],
        games,
        scenario=scenario,
        seed=seed,
        max_turns=max_turns,
        max_actions=opts.max_actions,
    )
    by_opponent = {o: {} for o in ladder}
    for spec in specs:
        opponent = spec.ziegler if spec.technocrat == agent else spec.technocrat
        by_opponent[opponent].setdefault(spec.index, []).append(spec)
    groups = {o: [units[i] for i in sorted(units)] for o, units in by_opponent.items()}
    config = {
        "kind": "evaluate",
        "agent": agent,
        "opponents": ladder,
        "scenario": scenario,
        "scenario_files": scenario_files([scenario]),
        "rules": {},
        "seed": int(seed),
        "max_turns": spec_max_turns(max_turns),
        "games": int(games),
        "precision": precision,
        "step": step,
    }

    def enough(opponent, rows):
        score = sum(_agent_points(r, agent) for r in rows)
        lo, hi = wilson_interval(score, len(rows))
        return (hi - lo) / 2 <= precision

    with writer_lock(out):
        run = run_in_steps(
            groups,
            out,
            games=games,
            step=step,
            enough=enough,
            plan=specs,
            config=config,
            options=opts,
            desc="evaluate",
        )
        rows = [run.rows[s.key] for s in specs if s.key in run.rows]
        protocol = {
            "scenario": scenario,
            "rules": json.loads(canonical_rules(None)),
            "max_turns": specs[0].max_turns if specs else max_turns,
            "seed": seed,
            "precision": precision,
            "step": step,
            "games": games,
        }
        card = evaluation_card(agent, rows, ladder, run.stopped, reference, protocol)
        card.update(
            {
                "left_out": left_out,
                "played_now": run.played,
                "remaining": run.remaining,
                "wall_s": round(run.wall_s, 3),
                "warm_up_s": round(run.warm_up_s, 3),
                "folder": str(out),
            }
        )
        card["text"] = card_text(card)
        (out / "card.json").write_text(json.dumps(json_safe(card), indent=1) + "\n", encoding="utf-8")
        (out / "card.txt").write_text(card["text"] + "\n", encoding="utf-8")
        card["plot"] = str(plot_card(card, out / "card.png")) if plot and rows else None
        return card


def _agent_points(row, agent: str) -> float:
    t = technocrat_points(row)
    return t if row["technocrat"] == agent else 1.0 - t


def _rate(points: float, n: int) -> dict:
    lo, hi = wilson_interval(points, n) if n else (float("nan"), float("nan"))
    return {"games": n, "score": points / n if n else float("nan"), "ci_low": lo, "ci_high": hi}


def evaluation_card(agent: str, rows, opponents, stopped: dict, reference: dict, protocol: dict) -> dict:
    """The card of ``agent`` from its games ``rows`` against ``opponents``: per
    opponent and seat, its score with a 95% Wilson interval (a draw half a
    point), and its ratings on the reference's scale when the games were
    played by the reference's protocol (scenario, rules, turn limit)."""
    per = []
    for o in opponents:
        mine = [r for r in rows if o in (r["technocrat"], r["ziegler"])]
        as_t = [r for r in mine if r["technocrat"] == agent]
        as_z = [r for r in mine if r["ziegler"] == agent]
        entry = {"opponent": o, "stopped": stopped.get(o, "not finished")}
        entry.update(_rate(sum(_agent_points(r, agent) for r in mine), len(mine)))
        entry["as_technocrat"] = _rate(sum(_agent_points(r, agent) for r in as_t), len(as_t))
        entry["as_ziegler"] = _rate(sum(_agent_points(r, agent) for r in as_z), len(as_z))
        entry["draws"] = sum(r.get("winner") is None for r in mine)
        entry["mean_wall_s"] = sum(r["wall_s"] for r in mine) / len(mine) if mine else float("nan")
        per.append(entry)
    ref_protocol = reference.get("protocol", {})
    same = all(ref_protocol.get(k) == protocol.get(k) for k in ("scenario", "rules", "max_turns"))
    published = {a: (e["technocrat"], e["ziegler"]) for a, e in reference["agents"].items()}
    ratings = None
    if same and rows:
        estimates = rate_in(seat_results(rows), agent, published)
        ratings = {seat: est.as_dict() for seat, est in estimates.items()}
    return {
        "format": "hotspot-evaluation-card",
        "version": 1,
        "agent": agent,
        "protocol": protocol,
        "games": len(rows),
        "opponents": per,
        "ratings": ratings,
        "on_published_scale": bool(same),
        "scale": {
            "anchor": reference.get("anchor", {"agent": "scripted", "rating": ANCHOR_RATING}),
            "reference_file": str(reference.get("_path", RATINGS_FILE.name)),
            "reference_games": reference.get("game_set", {}).get("games"),
            "reference": {
                a: {"technocrat": e["technocrat"], "ziegler": e["ziegler"], "overall": e.get("overall")}
                for a, e in reference["agents"].items()
            },
        },
    }


def _ci(entry) -> str:
    return interval_text(entry["ci_low"], entry["ci_high"])


def card_text(card: dict) -> str:
    """The card as printed by ``hotspot evaluate``."""
    p = card["protocol"]
    lines = [
        f"Evaluation of {card['agent']}: {card['games']} games on {p['scenario']} (max_turns {p['max_turns']}, "
        f"seed {p['seed']}, mirrored seeds; each opponent until the score's 95% interval is within "
        f"+-{p['precision']:g} or {p['games']} games a side)",
        "",
        "Score against each reference agent (a draw, a game stopped at the turn limit, is half a point; "
        "95% Wilson intervals):",
    ]
    rows = [
        {
            "opponent": e["opponent"],
            "side": e["as_technocrat"]["games"],
            "score": e["score"],
            "ci": _ci(e),
            "t": e["as_technocrat"]["score"],
            "tci": _ci(e["as_technocrat"]),
            "z": e["as_ziegler"]["score"],
            "zci": _ci(e["as_ziegler"]),
            "draws": e["draws"],
            "stopped": e["stopped"],
        }
        for e in card["opponents"]
    ]
    lines.append(
        format_table(
            rows,
            [
                ("opponent", "opponent"),
                ("side", "games a side"),
                ("score", "score", ".3f"),
                ("ci", "95% CI"),
                ("t", "as Technocrat", ".3f"),
                ("tci", "95% CI"),
                ("z", "as Ziegler", ".3f"),
                ("zci", "95% CI"),
                ("draws", "draws"),
                ("stopped", "stopped by"),
            ],
        )
    )
    scale = card["scale"]
    anchor = scale["anchor"]
    lines.append("")
    if card["ratings"] is None:
        lines.append(
            "Rating: not on the published scale (it is fitted for the protocol's scenario "
            f"and turn limit; these games were played on {p['scenario']}, max_turns {p['max_turns']})."
        )
    else:
        lines.append(
            f"Rating on the published scale ({anchor['agent']} = {anchor['rating']:g} overall; 400 points are "
            f"odds of 10 to 1; 95% likelihood-ratio intervals, '<' an upper bound where a seat never won):"
        )
        r = card["ratings"]
        lines.append(
            f"  overall {r['overall']['text']}   as Technocrat {r['technocrat']['text']}   "
            f"as Ziegler {r['ziegler']['text']}"
        )
        ref = ", ".join(f"{a} {_overall_text(e)}" for a, e in sorted(scale["reference"].items(), key=_reference_order))
        lines.append(f"  reference ladder (overall): {ref}")
    if card.get("left_out"):
        lines.append(f"  ({', '.join(card['left_out'])} left out: the agent itself)")
    if card.get("remaining"):
        lines.append(f"Not finished: {card['remaining']} game(s) left; run the same command again to go on.")
    return "\n".join(lines)


def _overall_text(entry) -> str:
    """A reference agent's published overall rating (the fitted one, which the
    scale uses), or its bound where its games alone give only one."""
    overall = entry.get("overall") if isinstance(entry.get("overall"), dict) else {}
    fitted = overall.get("fitted", (entry["technocrat"] + entry["ziegler"]) / 2)
    if overall.get("low") is None and overall.get("high") is not None:
        return f"{fitted:.0f} (games alone: < {overall['high']:.0f})"
    if overall.get("high") is None and overall.get("low") is not None:
        return f"{fitted:.0f} (games alone: > {overall['low']:.0f})"
    return f"{fitted:.0f}"


def _reference_order(item):
    name, entry = item
    return (entry["technocrat"] + entry["ziegler"]) / 2


def plot_card(card: dict, path) -> Path | None:
    """``card.png``: the score against each opponent by seat, and the rating
    beside the reference ladder's (matplotlib, the ``plots`` extra; None
    without it)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return None
    import textwrap

    fig = Figure(figsize=(10, 4.6))
    FigureCanvasAgg(fig)
    fig.suptitle("\n".join(textwrap.wrap(f"Evaluation of {card['agent']}", 110)), fontsize=10)
    ax, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    ops = card["opponents"]
    xs = range(len(ops))
    for dx, key, label, color in (
        (-0.12, "as_technocrat", "as Technocrat", "#333"),
        (0.12, "as_ziegler", "as Ziegler", "#c60"),
    ):
        ys = [e[key]["score"] for e in ops]
        lo = [e[key]["score"] - e[key]["ci_low"] for e in ops]
        hi = [e[key]["ci_high"] - e[key]["score"] for e in ops]
        ax.errorbar([x + dx for x in xs], ys, yerr=[lo, hi], fmt="o", color=color, capsize=3, label=label)
    ax.set_xticks(list(xs), [e["opponent"] for e in ops], rotation=15, fontsize=8)
    ax.set_ylim(-0.03, 1.03)
    ax.axhline(0.5, color="#aaa", lw=0.8, ls=":")
    ax.set_ylabel("score (draw = 1/2)")
    ax.set_title("score by opponent and seat (95% CI)", fontsize=9)
    ax.legend(fontsize=8, loc="best")
    ref = sorted(card["scale"]["reference"].items(), key=_reference_order)
    names = [a for a, _ in ref] + ["this agent"]
    ax2.set_title("overall rating, published scale", fontsize=9)
    for i, (_, e) in enumerate(ref):
        ax2.plot([(e["technocrat"] + e["ziegler"]) / 2], [i], "s", color="#888")
    r = (card.get("ratings") or {}).get("overall")
    if r and r["games"]:
        y = len(ref)
        lo, hi = r["low"], r["high"]
        xmin = min((e["technocrat"] + e["ziegler"]) / 2 for _, e in ref) - 300
        xmax = max((e["technocrat"] + e["ziegler"]) / 2 for _, e in ref) + 300
        a, b = lo if lo is not None else xmin, hi if hi is not None else xmax
        ax2.plot([a, b], [y, y], color="#06c", lw=2)
        if r["rating"] is not None:
            ax2.plot([r["rating"]], [y], "o", color="#06c")
        ax2.text((a + b) / 2, y + 0.3, r["text"], fontsize=8, ha="center")
        ax2.set_ylim(-0.5, y + 0.9)
    ax2.set_yticks(range(len(names)), names, fontsize=8)
    ax2.set_xlabel(f"rating ({card['scale']['anchor']['agent']} = {card['scale']['anchor']['rating']:g})")
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=100)
    return path


__all__ = [
    "DEFAULT_GAMES",
    "DEFAULT_PRECISION",
    "DEFAULT_STEP",
    "PROTOCOL",
    "RATINGS_FILE",
    "REFERENCE_LADDER",
    "card_text",
    "evaluation_card",
    "load_reference",
    "run_evaluate",
]
