"""``hotspot evaluate AGENT``: the standard evaluation protocol, a result card
and a rating on a published, fixed scale.

The protocol (the way to report a result; docs/evaluate.md):

* **opponents**: the reference ladder :data:`REFERENCE_LADDER`, each pinned
  by its canonical spec (``random``, ``scripted``, ``ismcts``,
  ``portfolio``, ``portfolio(horizon=2)``, today's ``best``); an opponent
  that is the evaluated agent itself is left out;
* **games**: against each opponent, game ``i`` is played with the agent as
  Technocrat and as Ziegler on the same seed (mirrored seeds: the same
  dice and set-up draws, ``hotspot.arena.match.game_seed``): the two games
  are a *pair* (:mod:`hotspot.arena.pairs`); seed 0, on ``open`` (the
  rulebook game), stopped as a draw after turn 200 (D19 revised);
* **stopping**: the pair is counted, not the game.  The seat decides most
  games (the Technocrat wins 0.92 between two scripted players), so the
  agent's points over a pair (0, 1/2, 1, 3/2 or 2) vary far less than two
  independent games would.  In steps of 50 pairs, an opponent is done when
  the 95% interval of the agent's score a game from its pairs' scores
  (:func:`hotspot.arena.pairs.pair_summary`: mean and variance of the pair
  scores) has a half-width of at most 0.05, or after 1000 pairs.  (The
  interval is not widened for the repeated looks: it is the interval of the
  games played, a stopping rule, not a test.)  The card gives the games'
  binomial Wilson interval beside it, and the measured saving: the *games
  ratio* ``r = 2 Var(pair mean) / (p (1 - p))``, the share of the games the
  Wilson interval needs for the same half-width that the pairs need, so
  that the Wilson interval would have needed about ``n_Wilson = n_played /
  r`` games (``n_played = 2 * pairs``).  A one-seat evaluation
  (``seat=``) has no pairs: it stops on the Wilson interval of that seat's
  games, and is rated in that seat alone;
* **rating**: the agent's rating as Technocrat and as Ziegler (the seat
  model of :mod:`hotspot.arena.rating`, each with a 95% likelihood-ratio
  interval; an agent that never wins a seat gets an upper bound there, one
  that never loses a lower bound) and overall (the Elo of its score over
  both seats, its interval from the pairs' scores), against the reference
  agents held at their **published ratings** (``reference_ratings.json``
  beside this module: fitted once from a large game set between them,
  committed with its games, ``scripted`` = 1000 overall).  Two people's ratings compare without replaying the ladder; the
  intervals are relative to the references held fixed, so comparing two
  evaluated agents adds both intervals.

A run may stop early and leave the rest for a rerun, which resumes it:
``--max-games``, a time budget (``minutes``: no step, and within a step no
task, starts after it) or Ctrl-C (:class:`EvaluationInterrupted`, after the
card of the games finished so far is written).  Such a card is *partial*
(``card.json`` ``"partial"``, its reason, and card.txt's first line).

The run folder (``--out``) holds every game (``games.jsonl``, each with its
seed and actions), ``run.json`` (a rerun resumes it; another agent, seat or
protocol is refused; one writer at a time), ``card.json``, ``card.txt`` (the
card as printed, at most 80 columns, then the full table) and ``card.png``.
"""

from __future__ import annotations

import json
import math
import re
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .folder import GAMES_FILE, RunConfigError, read_run_config, scan_games, scenario_files, writer_lock
from .gamerow import endings
from .match import ArenaError, GameSpec, begin_compiling, canonical_rules, check_scenario
from .options import RunOptions, check_precision
from .pairs import half_width, pair_mean_var, pair_summary, points
from .rating import (
    ANCHOR_RATING,
    PROTOCOL,
    RATINGS_FILE,
    REFERENCE_LADDER,
    load_reference,
    published_ratings,
    rate_in,
    rate_overall,
    seat_results,
)
from .runner import check_count, run_in_steps, spec_max_turns
from .stats import format_table, interval_text, json_safe, wilson_interval
from .tournament import canonical_agents, plan_arena

DEFAULT_PRECISION = 0.05
DEFAULT_STEP = 50
DEFAULT_GAMES = 1000
#: the seats a one-seat evaluation may name
SEATS = ("technocrat", "ziegler")
#: seconds between two progress lines in a log (and one at every look)
PROGRESS_EVERY = 30.0
#: the printed card's width
CARD_WIDTH = 80


class EvaluationInterrupted(KeyboardInterrupt):
    """Ctrl-C during an evaluation's games: the games finished so far are in
    games.jsonl and their partial card (``card``; None if the run had not
    started its folder) is written."""

    def __init__(self, card: dict | None):
        super().__init__("evaluation interrupted")
        self.card = card


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.+-]+", "-", spec).strip("-.")[:80] or "agent"


def check_seat(seat) -> str | None:
    """None (both seats) or ``"technocrat"`` / ``"ziegler"``; else a one-line ``ArenaError``."""
    if seat is None or seat in SEATS:
        return seat
    raise ArenaError(f"seat must be technocrat or ziegler (or None: both), got {seat!r}")


def check_minutes(minutes) -> float | None:
    """None (no time budget) or a positive, finite number of minutes; else a one-line ``ArenaError``."""
    if minutes is None:
        return None
    ok = isinstance(minutes, (int, float)) and not isinstance(minutes, bool)
    if not ok or not math.isfinite(minutes) or minutes <= 0:
        raise ArenaError(f"minutes must be a positive number (the time budget), got {minutes!r}")
    return float(minutes)


def _check_agent(agent: str, seat: str | None) -> str:
    """The agent's canonical spec; a one-seat run accepts a model of that seat only."""
    if seat is None:
        (agent,) = canonical_agents([agent])
        return agent
    from hotspot.agents.registry import SpecError, check_agent
    from hotspot.core.rules_data import TECHNOCRAT, ZIEGLER

    try:
        return check_agent(agent, seats=(TECHNOCRAT if seat == "technocrat" else ZIEGLER,))
    except SpecError as exc:
        raise ArenaError(str(exc)) from None


def _ladder(agent: str, opponents, published: dict) -> tuple[list[str], list[str]]:
    """(the opponents, those left out as the agent itself), checked against the published ratings."""
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
    return ladder, left_out


def _plan(agent, ladder, seat, games, scenario, opts) -> tuple[Sequence[GameSpec], dict]:
    """(every game the run may play, {opponent: its units}): a unit is game i's
    pair (the agent as Technocrat, then as Ziegler), or its one game in ``seat``."""
    specs: Sequence[GameSpec] = plan_arena(
        [(agent, o) for o in ladder],
        games,
        scenario=scenario,
        seed=opts.seed,
        max_turns=opts.max_turns,
        max_actions=opts.max_actions,
        adjudication=opts.adjudicate,
    )
    if seat is not None:
        specs = [s for s in specs if getattr(s, seat) == agent]
    by_opponent: dict[str, dict[int, list[GameSpec]]] = {o: {} for o in ladder}
    for spec in specs:
        opponent = spec.ziegler if spec.technocrat == agent else spec.technocrat
        by_opponent[opponent].setdefault(spec.index, []).append(spec)
    return specs, {o: [units[i] for i in sorted(units)] for o, units in by_opponent.items()}


def stopping_rule(agent: str, seat: str | None, precision: float):
    """``enough(opponent, rows)``: the pairs' 95% interval (both seats) or
    the seat's games' Wilson interval (one seat) has a half-width of at most
    ``precision``."""

    def enough(opponent, rows):
        if seat is None:
            return half_width(pair_summary(rows, agent, opponent)) <= precision
        lo, hi = wilson_interval(sum(points(r, agent) for r in rows), len(rows)) if rows else (0.0, 1.0)
        return (hi - lo) / 2 <= precision

    return enough


def replay_stops(groups: dict, rows: dict, games: int, step: int, enough) -> dict:
    """The stops :func:`hotspot.arena.runner.run_in_steps` would have decided
    from the finished ``rows`` (by key): an opponent whose games to a look are
    not all there is not finished (for the card of an interrupted run)."""
    stopped, active, n = {}, list(groups), 0
    while active and n < games:
        n = min(games, n + step)
        still = []
        for key in active:
            units = groups[key][:n]
            if any(s.key not in rows for unit in units for s in unit):
                continue  # not finished
            if n >= games:
                stopped[key] = "games"
            elif enough(key, [rows[s.key] for unit in units for s in unit]):
                stopped[key] = "precision"
            else:
                still.append(key)
        active = still
    return stopped


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds // 60 % 60:02d}m"


class LogLines:
    """Plain progress lines on stderr for a log (tqdm's bar is off when
    stderr is no terminal): ``evaluate: 120/400 games, 3 of 5 opponents
    done, 4m10s``, at most one every ``every`` seconds while games finish,
    and one at every look.  Called as ``run_in_steps``' ``on_progress``."""

    def __init__(self, opponents: int, unit: str = "pairs", every: float = PROGRESS_EVERY, desc: str = "evaluate"):
        self.opponents, self.unit, self.every, self.desc = opponents, unit, every, desc
        self.t0 = time.monotonic()
        self.last: float | None = None

    def __call__(self, done: int, planned: int, groups_done: int, look: int | None) -> None:
        now = time.monotonic()
        if look is None and self.last is not None and now - self.last < self.every:
            return
        self.last = now
        where = f" (look at {look} {self.unit})" if look is not None else ""
        print(
            f"{self.desc}: {done}/{planned} games, {groups_done} of {self.opponents} opponents done, "
            f"{_clock(now - self.t0)}{where}",
            file=sys.stderr,
            flush=True,
        )


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


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
    seat: str | None = None,
    minutes: float | None = None,
    options: RunOptions | None = None,
    **run_options,
) -> dict:
    """Evaluate ``agent`` (any agent spec: a registered name, ``module:attribute``,
    ``sb3(path=...)``) by the protocol; returns its card (a dict, with
    ``"text"``) and writes the run folder ``out`` (default
    ``evaluate-results/<agent>``, ``<agent>-<seat>`` for one seat).
    ``opponents``: a subset of the reference ladder (default all of it);
    ``ratings``: another reference file; ``games``: the most pairs (one seat:
    games) against an opponent; ``seat``: ``"technocrat"`` or ``"ziegler"``
    to play and rate the agent in that seat only; ``minutes``: a time budget
    (the card is then partial; a rerun goes on).  Ctrl-C writes the partial
    card and raises :class:`EvaluationInterrupted`.  The run options
    (:class:`hotspot.arena.options.RunOptions`: ``options``, or its fields as
    keywords) as :func:`hotspot.arena.tournament.run_arena`'s; their
    defaults (seed 0, ``max_turns`` 200) are the protocol's."""
    t0 = time.monotonic()
    opts = RunOptions.merge(options, run_options, where="run_evaluate")
    seat, minutes = check_seat(seat), check_minutes(minutes)
    games, step, precision = check_count("games", games), check_count("step", step), check_precision(precision)
    agent = _check_agent(agent, seat)
    reference = load_reference(ratings)
    ladder, left_out = _ladder(agent, opponents, reference["agents"])
    default_out = Path("evaluate-results") / (_slug(agent) + (f"-{seat}" if seat else ""))
    out = Path(opts.out) if opts.out is not None else default_out
    if opts.backend == "local":
        begin_compiling(opts.resolved_workers())
    check_scenario(scenario, None)
    specs, groups = _plan(agent, ladder, seat, games, scenario, opts)
    config, protocol = _settings(agent, ladder, scenario, games, precision, step, seat, minutes, opts, specs)
    enough = stopping_rule(agent, seat, precision)
    logged = opts.progress and not _is_terminal(sys.stderr)
    with writer_lock(out):
        try:
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
                deadline=None if minutes is None else t0 + 60.0 * minutes,
                on_progress=LogLines(len(ladder), "games" if seat else "pairs") if logged else None,
            )
        except KeyboardInterrupt:
            card = _interrupted_card(agent, specs, groups, config, protocol, reference, enough, out, left_out, t0)
            if card is not None and plot:
                card["plot"] = _plot(card, out)
            raise EvaluationInterrupted(card) from None
        rows = [run.rows[s.key] for s in specs if s.key in run.rows]
        card = evaluation_card(agent, rows, ladder, run.stopped, reference, protocol)
        partial = _partial_reason(run.stop_reason, minutes, opts.max_games)
        extra = {"played_now": run.played, "wall_s": round(run.wall_s, 3), "warm_up_s": round(run.warm_up_s, 3)}
        _finish(card, partial, left_out, out, extra)
        card["plot"] = _plot(card, out) if plot and rows else None
        return card


def _settings(agent, ladder, scenario, games, precision, step, seat, minutes, opts, specs) -> tuple[dict, dict]:
    """(the run's configuration, recorded in run.json: a rerun with others is
    refused; the protocol as the card states it)."""
    config = {
        "kind": "evaluate",
        "agent": agent,
        "opponents": ladder,
        "scenario": scenario,
        "scenario_files": scenario_files([scenario]),
        "rules": {},
        "seed": int(opts.seed),
        "max_turns": spec_max_turns(opts.max_turns),
        "games": int(games),
        "precision": precision,
        "step": step,
        "seat": seat,  # None: both seats (as a folder from before one-seat runs reads)
    }
    if opts.adjudicate:  # (a folder from before adjudication has no such entry)
        config["adjudication"] = opts.adjudicate
    protocol = {
        "scenario": scenario,
        "rules": json.loads(canonical_rules(None)),
        "max_turns": specs[0].max_turns if specs else opts.max_turns,
        "seed": opts.seed,
        "precision": precision,
        "step": step,
        "games": games,
        "seat": seat,
        "minutes": minutes,
        "adjudication": opts.adjudicate,
    }
    return config, protocol


def _partial_reason(stop_reason: str | None, minutes, max_games) -> str | None:
    if stop_reason == "time":
        return f"the time budget (--minutes {minutes:g}) was spent"
    if stop_reason == "max_games":
        return f"--max-games {max_games} new games were played"
    return None


def _interrupted_card(agent, specs, groups, config, protocol, reference, enough, out, left_out, t0) -> dict | None:
    """The partial card of the games finished before Ctrl-C (read back from
    games.jsonl), written; None when the folder is not (yet) this run's."""
    try:
        if read_run_config(out) != json.loads(json.dumps(config)):
            return None
    except RunConfigError:
        return None
    found = scan_games(out / GAMES_FILE).rows
    rows = {s.key: found[s.key] for s in specs if s.key in found}
    stopped = replay_stops(groups, rows, protocol["games"], protocol["step"], enough)
    card = evaluation_card(agent, list(rows.values()), list(groups), stopped, reference, protocol)
    extra = {"played_now": None, "wall_s": round(time.monotonic() - t0, 3), "warm_up_s": None}
    _finish(card, "interrupted (Ctrl-C)", left_out, out, extra)
    return card


def _finish(card: dict, partial: str | None, left_out, out: Path, extra: dict) -> None:
    """Complete ``card`` (partial or not, the games left, the folder) and write card.json and card.txt."""
    p = card["protocol"]
    cap = p["games"] * (1 if p.get("seat") else 2)  # the most games against one opponent
    left = sum(max(0, cap - e["games"]) for e in card["opponents"] if e["stopped"] == "not finished")
    card.update({"partial": partial is not None, "partial_reason": partial, "left_out": left_out})
    card.update({"remaining": left, **extra, "folder": str(out)})
    card["text"] = card_text(card)
    (out / "card.json").write_text(json.dumps(json_safe(card), indent=1) + "\n", encoding="utf-8")
    wide = f"{card['text']}\n\nFull table (every column; card.json has them all):\n{full_table(card)}\n"
    (out / "card.txt").write_text(wide, encoding="utf-8")


def _plot(card: dict, out: Path) -> str | None:
    path = plot_card(card, out / "card.png") if card["games"] else None
    return str(path) if path else None


def _rate(points_: float, n: int) -> dict:
    lo, hi = wilson_interval(points_, n) if n else (float("nan"), float("nan"))
    return {"games": n, "score": points_ / n if n else float("nan"), "ci_low": lo, "ci_high": hi}


def wilson_games(played: int, ratio: float) -> float:
    """The games the Wilson interval would have needed for the half-width the
    pairs reached in ``played`` games: ``played / ratio`` (nan without a
    ratio; inf where the pairs' scores did not vary)."""
    if ratio is None or not math.isfinite(ratio):
        return math.nan
    return math.inf if ratio <= 0 else played / ratio


def _opponent_entry(agent: str, opponent: str, mine: list, seat: str | None) -> dict:
    """One opponent's line of the card: the pairs' score and interval, the
    games' Wilson interval, each seat's Wilson interval (one seat: its games)."""
    as_t = [r for r in mine if r["technocrat"] == agent]
    as_z = [r for r in mine if r["ziegler"] == agent]
    entry: dict[str, Any] = {"opponent": opponent}
    if seat is None:
        s = pair_summary(mine, agent, opponent)
        entry.update(s)
        entry["wilson_games"] = wilson_games(2 * s["pairs"], s["games_ratio"])
    else:
        own = _rate(sum(points(r, agent) for r in mine), len(mine))
        entry.update(own)
        entry.update({"pairs": None, "pentanomial": None, "games_score": own["score"], "games_ratio": None})
        entry.update({"wilson_low": own["ci_low"], "wilson_high": own["ci_high"], "wilson_games": None})
    entry["as_technocrat"] = _rate(sum(points(r, agent) for r in as_t), len(as_t))
    entry["as_ziegler"] = _rate(sum(points(r, agent) for r in as_z), len(as_z))
    entry["draws"] = sum(r.get("winner") is None for r in mine)
    entry["ended"] = endings(mine)
    walls = [r["wall_s"] for r in mine if "wall_s" in r]  # (a game set without timings has none)
    entry["mean_wall_s"] = sum(walls) / len(walls) if walls else float("nan")
    return entry


def evaluation_card(agent: str, rows, opponents, stopped: dict, reference: dict, protocol: dict) -> dict:
    """The card of ``agent`` from its games ``rows`` against ``opponents``.
    Per opponent: its score a game from the pairs (game i as Technocrat and
    as Ziegler on one seed) with their 95% interval (``score``, ``ci_low``,
    ``ci_high``; :func:`hotspot.arena.pairs.pair_summary`), the pentanomial
    counts, the games' binomial Wilson interval (``wilson_low``,
    ``wilson_high``), the games ratio ``r`` and ``wilson_games`` = ``2 *
    pairs / r``, the games the Wilson interval would have needed for the
    same half-width; per seat, the Wilson interval of that seat's games (a
    draw half a point).  A one-seat card (``protocol["seat"]``) has that
    seat's games and Wilson interval only.  Its ratings are on the
    reference's scale when the games were played by the reference's protocol
    (scenario, rules, turn limit); a one-seat card rates that seat only."""
    seat = protocol.get("seat")
    per = []
    for o in opponents:
        mine = [r for r in rows if o in (r["technocrat"], r["ziegler"])]
        per.append({**_opponent_entry(agent, o, mine, seat), "stopped": stopped.get(o, "not finished")})
    ref_protocol = reference.get("protocol", {})
    same = all(ref_protocol.get(k) == protocol.get(k) for k in ("scenario", "rules", "max_turns"))
    published = published_ratings(reference)
    ratings = None
    if same and rows:
        estimates = rate_in(seat_results(rows), agent, {a: r[:2] for a, r in published.items()})
        if seat is None:
            estimates["overall"] = rate_overall(_pair_scores(per), {a: r[2] for a, r in published.items()})
        ratings = {k: est.as_dict() for k, est in estimates.items() if seat is None or k == seat}
    pairs = sum(e["pairs"] or 0 for e in per)
    return {
        "format": "hotspot-evaluation-card",
        "version": 2,
        "agent": agent,
        "seat": seat,
        "protocol": protocol,
        "games": len(rows),
        "pairs": None if seat else pairs,
        "opponents": per,
        "ratings": ratings,
        "on_published_scale": bool(same),
        "scale": _scale(reference),
    }


def _pair_scores(per: list[dict]) -> dict[str, tuple[float, float, int]]:
    """``{opponent: (score a game over its pairs, the variance of that score,
    games)}`` of the card's opponents with pairs, for the overall rating."""
    out = {}
    for e in per:
        if e.get("pairs"):
            _, var = pair_mean_var(e["pentanomial"])
            out[e["opponent"]] = (e["score"], var / e["pairs"], 2 * e["pairs"])
    return out


def _scale(reference: dict) -> dict:
    keys = ("overall", "technocrat_interval", "ziegler_interval")
    return {
        "anchor": reference.get("anchor", {"agent": "scripted", "rating": ANCHOR_RATING}),
        "reference_file": str(reference.get("_path", RATINGS_FILE.name)),
        "reference_games": reference.get("game_set", {}).get("games"),
        "reference": {
            a: {"technocrat": e["technocrat"], "ziegler": e["ziegler"], **{k: e.get(k) for k in keys}}
            for a, e in reference["agents"].items()
        },
    }


# ------------------------------------------------------------ the card as text


def _ci(entry) -> str:
    return interval_text(entry["ci_low"], entry["ci_high"])


def _wrap(text: str, indent: str = "") -> list[str]:
    """``text`` in lines of at most :data:`CARD_WIDTH` columns; an interval
    (``[967, 1034]``) is never split."""
    text = re.sub(r"\[([^\]\s]+), ", "[\\1,\u00a0", text)
    text = re.sub(r"([<>]) (-?\d)", "\\1\u00a0\\2", text)
    lines = textwrap.wrap(text, CARD_WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [""]
    return [line.replace("\u00a0", " ") for line in lines]


def _table(rows: list[dict], columns: list[tuple], right=()) -> str:
    """:func:`format_table` with the text columns ``right`` (``-`` and numbers mixed) right-aligned."""
    for key, header, *_ in columns:
        if key in right:
            width = max([len(header)] + [len(r[key]) for r in rows])
            for r in rows:
                r[key] = r[key].rjust(width)
    return format_table(rows, columns)


def _count(value) -> str:
    return "-" if value is None or not math.isfinite(value) else f"{value:.0f}"


def _ratio(value) -> str:
    return "-" if value is None or not math.isfinite(value) else f"{value:.2f}"


def _seat_name(seat: str) -> str:
    return seat.capitalize()


def card_text(card: dict) -> str:
    """The card as printed by ``hotspot evaluate``: at most 80 columns a line
    (:data:`CARD_WIDTH`; card.txt adds :func:`full_table` below it)."""
    lines = _head_lines(card)
    lines += ["", *_score_lines(card)]
    if card.get("seat") is None:
        lines += ["", *_pair_lines(card)]
    lines += ["", *_rating_lines(card), *_tail_lines(card)]
    return "\n".join(lines)


def _head_lines(card: dict) -> list[str]:
    p = card["protocol"]
    lines = []
    if card.get("partial"):
        lines += _wrap(
            f"PARTIAL card: {card['partial_reason']}; {_left_text(card)}: run the same command again to go on."
        )
    seat = card.get("seat")
    if seat is None:
        lines += _wrap(
            f"Evaluation of {card['agent']}: {card['games']} games ({card['pairs']} pairs) on {p['scenario']} "
            f"(max_turns {p['max_turns']}, seed {p['seed']})."
        )
        lines += _wrap(
            "Protocol: game i against an opponent is played with the agent as Technocrat and as Ziegler on one "
            f"seed, a pair; in steps of {p['step']} pairs, each opponent until the 95% interval of the pairs' "
            f"score is within +-{p['precision']:g}, or {p['games']} pairs."
        )
    else:
        lines += _wrap(
            f"Evaluation of {card['agent']} as {_seat_name(seat)} only: {card['games']} games on {p['scenario']} "
            f"(max_turns {p['max_turns']}, seed {p['seed']})."
        )
        lines += _wrap(
            f"Protocol: the agent plays the {_seat_name(seat)} seat only; in steps of {p['step']} games, each "
            f"opponent until the 95% Wilson interval of its score is within +-{p['precision']:g}, or "
            f"{p['games']} games."
        )
    if p.get("adjudication"):
        ends: dict[str, int] = {}
        for e in card["opponents"]:
            for k, v in (e.get("ended") or {}).items():
                ends[k] = ends.get(k, 0) + v
        told = ", ".join(f"{k} {v}" for k, v in sorted(ends.items()))
        lines += _wrap(
            f"Adjudication: {p['adjudication']} (not the protocol: games end before their real end; "
            f"docs/arena.md#adjudication)" + (f"; games ended by {told}." if told else ".")
        )
    return lines


def _score_lines(card: dict) -> list[str]:
    seat = card.get("seat")
    rows = [
        {
            "opponent": e["opponent"],
            "pairs": e["pairs"],
            "games": e["games"],
            "score": e["score"],
            "ci": _ci(e),
            "t": e["as_technocrat"]["score"],
            "z": e["as_ziegler"]["score"],
            "draws": e["draws"],
        }
        for e in card["opponents"]
    ]
    if seat is None:
        lead = (
            "Score against each reference agent (a draw, a game stopped at the turn limit, is half a point; "
            "the 95% interval from the pairs; the score by seat):"
        )
        columns = [("pairs", "pairs"), ("score", "score", ".3f"), ("ci", "95% CI")]
        columns += [("t", "Technocrat", ".3f"), ("z", "Ziegler", ".3f")]
    else:
        lead = (
            f"Score as {_seat_name(seat)} against each reference agent (a draw, a game stopped at the turn "
            "limit, is half a point; 95% Wilson intervals):"
        )
        columns = [("games", "games"), ("score", "score", ".3f"), ("ci", "95% CI"), ("draws", "draws")]
    return [*_wrap(lead), format_table(rows, [("opponent", "opponent"), *columns]), *_stop_lines(card)]


def _stop_lines(card: dict) -> list[str]:
    p = card["protocol"]
    unit = "games" if card.get("seat") else "pairs"
    by: dict[str, list[str]] = {}
    for e in card["opponents"]:
        by.setdefault(e["stopped"], []).append(e["opponent"])
    words = {
        "precision": f"interval within +-{p['precision']:g}",
        "games": f"at the cap of {p['games']} {unit}",
        "not finished": "not finished",
    }
    parts = [f"{words.get(k, k)}: {', '.join(v)}" for k, v in by.items()]
    return _wrap(f"Stopped: {'; '.join(parts)}.", "  ")


def _pair_lines(card: dict) -> list[str]:
    rows = [
        {
            "opponent": e["opponent"],
            "penta": " ".join(str(c) for c in e["pentanomial"]),
            "games": 2 * e["pairs"],
            "wn": _count(e["wilson_games"]),
            "ratio": _ratio(e["games_ratio"]),
            "wci": interval_text(e["wilson_low"], e["wilson_high"]),
        }
        for e in card["opponents"]
    ]
    lead = (
        "Pairs: pentanomial = the pairs where the agent scored 0, 1/2, 1, 3/2, 2 points; Wilson n = the games "
        "the Wilson interval (independent games) would have needed for the same half-width, about games / "
        "ratio; ratio = games / Wilson n, the pairs' saving:"
    )
    columns = [("opponent", "opponent"), ("penta", "pentanomial"), ("games", "games"), ("wn", "Wilson n")]
    columns += [("ratio", "ratio"), ("wci", "Wilson 95% CI")]
    return [*_wrap(lead), _table(rows, columns, right=("wn", "ratio"))]


def _rating_lines(card: dict) -> list[str]:
    p = card["protocol"]
    scale = card["scale"]
    anchor = scale["anchor"]
    if card["ratings"] is None:
        return _wrap(
            "Rating: not on the published scale (it is fitted for the protocol's scenario and turn limit; "
            f"these games were played on {p['scenario']}, max_turns {p['max_turns']})."
        )
    lines = _wrap(
        f"Rating on the published scale ({anchor['agent']} = {anchor['rating']:g} overall; 400 points are "
        "odds of 10 to 1; overall: the Elo of the score over both seats, its 95% interval from the pairs; "
        "by seat: 95% likelihood-ratio intervals, '<' an upper bound where a seat never won):"
    )
    names = {"overall": "overall", "technocrat": "as Technocrat", "ziegler": "as Ziegler"}
    lines += [f"  {label:<14} {card['ratings'][k]['text']}" for k, label in names.items() if k in card["ratings"]]
    which = card.get("seat") or "overall"
    ref = ", ".join(f"{a} {_reference_text(e, which)}" for a, e in _reference_items(scale, which))
    label = "overall" if which == "overall" else f"as {_seat_name(which)}"
    lines += _wrap(f"Reference ladder ({label}, 95%): {ref}.", "  ")
    lines += _wrap(
        "The intervals above are relative to the reference agents held at their published ratings (the "
        "references' own intervals are not in them): comparing two evaluated agents adds both agents' intervals."
    )
    return lines


def _tail_lines(card: dict) -> list[str]:
    lines = []
    if card.get("left_out"):
        lines += _wrap(f"({', '.join(card['left_out'])} left out: the agent itself.)")
    if any(e["stopped"] == "not finished" for e in card["opponents"]):
        lines += _wrap(f"Not finished: {_left_text(card)}; run the same command again to go on.")
    return lines


def _left_text(card: dict) -> str:
    p = card["protocol"]
    what = "its interval" if card.get("seat") is None else "its Wilson interval"
    return (
        f"at most {card.get('remaining', 0)} game(s) left (each opponent stops when {what} is within "
        f"+-{p['precision']:g})"
    )


def full_table(card: dict) -> str:
    """Every column of the card's opponents in one (wide) table: card.txt's "Full table"."""
    rows = []
    for e in card["opponents"]:
        penta = e.get("pentanomial")
        rows.append(
            {
                "opponent": e["opponent"],
                "pairs": "-" if e["pairs"] is None else str(e["pairs"]),
                "games": e["games"],
                "score": e["score"],
                "ci": _ci(e),
                "wci": interval_text(e["wilson_low"], e["wilson_high"]),
                "penta": "-" if penta is None else " ".join(str(c) for c in penta),
                "ratio": _ratio(e["games_ratio"]),
                "wn": _count(e["wilson_games"]),
                "t": e["as_technocrat"]["score"],
                "tci": _ci(e["as_technocrat"]),
                "z": e["as_ziegler"]["score"],
                "zci": _ci(e["as_ziegler"]),
                "draws": e["draws"],
                "stopped": e["stopped"],
            }
        )
    columns = [("opponent", "opponent"), ("pairs", "pairs"), ("games", "games"), ("score", "score", ".3f")]
    columns += [("ci", "95% CI"), ("wci", "Wilson 95% CI"), ("penta", "pentanomial"), ("ratio", "ratio")]
    columns += [("wn", "Wilson n"), ("t", "as Technocrat", ".3f"), ("tci", "95% CI"), ("z", "as Ziegler", ".3f")]
    columns += [("zci", "95% CI"), ("draws", "draws"), ("stopped", "stopped by")]
    return _table(rows, columns, right=("pairs", "ratio", "wn"))


def _reference_value(entry, which: str) -> float:
    if which == "overall":
        return entry["overall"]["fitted"]
    return entry[which]


def _reference_items(scale: dict, which: str = "overall"):
    return sorted(scale["reference"].items(), key=lambda item: _reference_value(item[1], which))


def _reference_interval(entry, which: str) -> dict:
    found = entry.get("overall" if which == "overall" else f"{which}_interval")
    return found if isinstance(found, dict) else {}


def _reference_text(entry, which: str = "overall") -> str:
    """A reference agent's published rating (the fitted one, which the scale
    uses; ``which``: overall or a seat) and the 95% interval from its own
    games (others held at theirs), or the bound they give."""
    fitted = _reference_value(entry, which)
    found = _reference_interval(entry, which)
    low, high = found.get("low"), found.get("high")
    if low is None and high is not None:
        return f"{fitted:.0f} (< {high:.0f})"
    if high is None and low is not None:
        return f"{fitted:.0f} (> {low:.0f})"
    if low is not None:
        return f"{fitted:.0f} [{low:.0f}, {high:.0f}]"
    return f"{fitted:.0f}"


# ------------------------------------------------------------ the card as a picture


def card_title(card: dict) -> str:
    """card.png's title: the agent (and its seat), after ``PARTIAL (reason):`` for a partial card."""
    title = f"Evaluation of {card['agent']}" + (f" as {_seat_name(card['seat'])}" if card.get("seat") else "")
    return f"PARTIAL ({card['partial_reason']}): {title}" if card.get("partial") else title


def plot_card(card: dict, path) -> Path | None:
    """``card.png``: the score against each opponent (the pairs' interval)
    and by seat, and the rating beside the reference ladder's with their
    intervals (matplotlib, the ``plots`` extra; None without it).  A partial
    card says so in its title."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return None
    fig = Figure(figsize=(10, 4.6))
    FigureCanvasAgg(fig)
    fig.suptitle("\n".join(textwrap.wrap(card_title(card), 110)), fontsize=10)
    ax, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    _plot_scores(ax, card)
    _plot_rating(ax2, card)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=100)
    return path


def _plot_scores(ax, card: dict) -> None:
    ops = card["opponents"]
    xs = range(len(ops))
    series: list[tuple[float, str | None, str, str]] = [
        (-0.12, "as_technocrat", "as Technocrat", "#333"),
        (0.12, "as_ziegler", "as Ziegler", "#c60"),
    ]
    if card.get("seat"):
        series = [(0.0, f"as_{card['seat']}", f"as {_seat_name(card['seat'])}", "#333")]
    else:
        series.insert(1, (0.0, None, "both seats (pairs)", "#06c"))
    for dx, key, label, color in series:
        es = [e if key is None else e[key] for e in ops]
        ys = [e["score"] for e in es]
        lo = [e["score"] - e["ci_low"] for e in es]
        hi = [e["ci_high"] - e["score"] for e in es]
        ax.errorbar([x + dx for x in xs], ys, yerr=[lo, hi], fmt="o", color=color, capsize=3, label=label)
    ax.set_xticks(list(xs), [e["opponent"] for e in ops], rotation=15, fontsize=8)
    ax.set_ylim(-0.03, 1.03)
    ax.axhline(0.5, color="#aaa", lw=0.8, ls=":")
    ax.set_ylabel("score (draw = 1/2)")
    ax.set_title("score by opponent (95% CI)", fontsize=9)
    ax.legend(fontsize=8, loc="best")


def _rating_view(ref, values, which: str, rating: dict | None) -> tuple[float, float]:
    """The x range of the rating panel: the references' intervals and bounds
    (their values, but where the games bound them on one side only) and the
    agent's rating, with a margin."""
    seen = []
    for (_, e), v in zip(ref, values):
        found = _reference_interval(e, which)
        ends = [found.get("low"), found.get("high")]
        bounded = [x for x in ends if x is not None]
        seen += bounded + ([v] if len(bounded) != 1 else [])  # a one-sided bound: the value is the prior's
    if rating and rating.get("games"):
        seen += [x for x in (rating.get("rating"), rating.get("low"), rating.get("high")) if x is not None]
    return min(seen) - 200, max(seen) + 200


def _plot_rating(ax2, card: dict) -> None:
    which = card.get("seat") or "overall"
    ref = _reference_items(card["scale"], which)
    names = [a for a, _ in ref] + ["this agent"]
    values = [_reference_value(e, which) for _, e in ref]
    r = (card.get("ratings") or {}).get(which)
    xmin, xmax = _rating_view(ref, values, which, r)
    label = "overall rating" if which == "overall" else f"rating as {_seat_name(which)}"
    ax2.set_title(f"{label}, published scale (95% CI)", fontsize=9)
    for i, (_, e) in enumerate(ref):
        found = _reference_interval(e, which)
        lo, hi = found.get("low"), found.get("high")
        if lo is not None or hi is not None:
            ax2.plot([xmin if lo is None else lo, xmax if hi is None else hi], [i, i], color="#bbb", lw=2)
        if xmin <= values[i] <= xmax:
            ax2.plot([values[i]], [i], "s", color="#888")
        else:  # a value the prior gave, off the view of what the games say: its side marked
            ax2.plot([xmin if values[i] < xmin else xmax], [i], "<" if values[i] < xmin else ">", color="#888")
    if r and r["games"]:
        y = len(ref)
        a, b = r["low"] if r["low"] is not None else xmin, r["high"] if r["high"] is not None else xmax
        ax2.plot([a, b], [y, y], color="#06c", lw=2)
        if r["rating"] is not None:
            ax2.plot([r["rating"]], [y], "o", color="#06c")
        ax2.text((a + b) / 2, y + 0.3, r["text"], fontsize=8, ha="center")
        ax2.set_ylim(-0.5, y + 0.9)
    ax2.set_yticks(range(len(names)), names, fontsize=8)
    ax2.set_xlabel(f"rating ({card['scale']['anchor']['agent']} = {card['scale']['anchor']['rating']:g})")


__all__ = [
    "DEFAULT_GAMES",
    "DEFAULT_PRECISION",
    "DEFAULT_STEP",
    "EvaluationInterrupted",
    "LogLines",
    "PROTOCOL",
    "RATINGS_FILE",
    "REFERENCE_LADDER",
    "SEATS",
    "card_text",
    "card_title",
    "check_minutes",
    "check_seat",
    "evaluation_card",
    "full_table",
    "load_reference",
    "plot_card",
    "replay_stops",
    "run_evaluate",
    "stopping_rule",
    "wilson_games",
]
