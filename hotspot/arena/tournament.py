"""The arena: a round robin (or chosen pairings) of agents, each pairing
played as both sides, with scores, Wilson intervals and Bradley-Terry
ratings.  ``hotspot arena`` is :func:`run_arena` with the command's options.

Draws (D19 revised): the rulebook has no turn limit, but the arena stops a
game after turn ``max_turns`` (default ``hotspot.core.limits.DEFAULT_MAX_TURNS``,
``--max-turns``; None: no limit).  Such a game has no winner; it is a draw,
counted in its own column (``draws``) and worth half a point to each side:
every score here is (wins + draws / 2) / games (the tables label it "score";
the files keep their ``*_win_rate`` column names), its Wilson interval is
that of this score (conservative with draws: ``stats.wilson_interval``), and
Bradley-Terry fits a draw as half a win each way.  The Ziegler score is 1 -
the Technocrat's.
"""

from __future__ import annotations

import json
import math
from itertools import combinations_with_replacement, repeat
from pathlib import Path

import numpy as np

from hotspot.agents.registry import SpecError, UnknownAgentError, available_agents, check_agent, default_agents
from hotspot.agents.specs import split_top
from hotspot.core.limits import DEFAULT_MAX_TURNS

from .folder import scenario_files, writer_lock
from .gamerow import draws_of, is_draw, points, side_points, total_points  # noqa: F401  (is_draw, points re-exported: their old home)
from .match import (
    ArenaError,
    Plan,
    SpecSeries,
    begin_compiling,
    canonical_rules,
    check_scenario,
    game_seeds,
    spec_groups,
)
from .options import RunOptions
from .pairs import pair_summary
from .rating import on_published_scale, ratings_by_seat
from .rowtable import as_rows, column, select
from .runner import GAMES_FILE, check_count, run_games, spec_max_turns
from .stats import format_table, interval_text, json_safe, mean, wilson_interval, write_csv

SIDE_FIELDS = [
    "pairing",
    "technocrat",
    "ziegler",
    "games",
    "planned",
    "technocrat_wins",
    "ziegler_wins",
    "draws",
    "technocrat_win_rate",
    "ci_low",
    "ci_high",
    "truncated_rate",
    "mean_turns",
    "mean_actions",
    "mean_wall_s",
]
H2H_FIELDS = [
    "agent_a",
    "agent_b",
    "games",
    "a_wins",
    "b_wins",
    "draws",
    "a_score",
    "ci_low",
    "ci_high",
    "a_as_technocrat_win_rate",
    "a_as_ziegler_win_rate",
]
RATING_FIELDS = [
    "agent",
    "rating",
    "technocrat_rating",
    "ziegler_rating",
    "rating_text",
    "technocrat_text",
    "ziegler_text",
    "games",
    "wins",
    "draws",
    "losses",
    "score",
    "technocrat_games",
    "technocrat_win_rate",
    "ziegler_games",
    "ziegler_win_rate",
]


def parse_agents(text: str) -> list[str]:
    """``"a,b(k=1,j=2)"`` -> ["a", "b(k=1,j=2)"]: a comma-separated list of
    agent specs (commas inside a spec's parentheses belong to the spec)."""
    try:
        return [a.strip() for a in split_top(text, ",") if a.strip()]
    except SpecError as exc:
        raise ArenaError(f"agents: {exc}") from None


#: the separator of a pairing that names a ``module:attribute`` agent
PAIRING_VS = " vs "


def parse_pairing(item: str) -> tuple[str, str]:
    """One pairing, ``TECHNOCRAT:ZIEGLER`` (``random:scripted``,
    ``'ismcts(iterations=64):scripted'``) or ``TECHNOCRAT vs ZIEGLER``, the
    spelling for a ``module:attribute`` agent, whose own colon would make
    ``A:B`` ambiguous (``'mybots:Greedy vs scripted'``)."""
    text = item.strip()
    if PAIRING_VS in f" {text} ":
        parts = [p.strip() for p in f" {text} ".split(PAIRING_VS)]
        if len(parts) == 2 and all(parts):
            return parts[0], parts[1]
    else:
        parts = [p.strip() for p in split_top(text, ":")]
        if len(parts) == 2 and all(parts):
            return parts[0], parts[1]
        if len(parts) > 2:
            raise ArenaError(
                f"pairing {item!r}: more than one ':' (a module:attribute agent has a colon of its own); "
                f"write it TECHNOCRAT vs ZIEGLER, e.g. 'mybots:Greedy vs scripted'"
            )
    raise ArenaError(
        f"pairing {item!r}: expected TECHNOCRAT:ZIEGLER or TECHNOCRAT vs ZIEGLER, e.g. random:scripted, "
        f"'ismcts(iterations=64):scripted' or 'mybots:Greedy vs scripted'"
    )


def parse_pairings(text: str) -> list[tuple[str, str]]:
    """``"a:b,c(k=1,j=2):d,m:X vs e"`` -> [("a", "b"), ("c(k=1,j=2)", "d"), ("m:X", "e")]:
    a comma-separated list of pairings (:func:`parse_pairing`)."""
    try:
        out = [parse_pairing(item) for item in parse_agents(text)]
    except SpecError as exc:
        raise ArenaError(f"pairings: {exc}") from None
    if not out:
        raise ArenaError("no pairing given")
    return out


def round_robin(agents: list[str], self_play: bool = True) -> list[tuple[str, str]]:
    """Every pair of distinct agents, and each agent against itself when ``self_play``."""
    return [(a, b) for a, b in combinations_with_replacement(agents, 2) if self_play or a != b]


def canonical_agents(names) -> list[str]:
    """The canonical spelling of each agent spec (``hotspot.agents.registry.canonical_agent``):
    the agent's identity in the rows, run.json and resume keys.  An agent
    from outside the package (a module, a plugin, a model file) is made once
    here (``check_agent``), so that one that does not load is refused
    before a folder is touched."""
    out = []
    for name in names:
        try:
            out.append(check_agent(name))
        except UnknownAgentError as exc:
            raise ArenaError(f"{exc} (available now: {available_agents()})") from None
        except SpecError as exc:
            raise ArenaError(str(exc)) from None
    return out


def plan_arena(
    pairings,
    games: int,
    *,
    scenario: str = "standard",
    seed: int = 0,
    rules=None,
    max_actions: int | None = None,
    max_turns: int | None = DEFAULT_MAX_TURNS,
    adjudication: str = "",
) -> Plan:
    """The games of an arena (a :class:`.match.Plan`, a sequence of
    :class:`.match.GameSpec` made as they are read): for each pairing (a, b), ``games`` games with a as
    the Technocrat and, unless a == b, ``games`` with b as the Technocrat.
    Game ``i`` of every pairing and side has the same seed (same dice, same
    random setup).  ``max_turns``: the turn after which a game is stopped as
    a draw (None: no limit; D19 revised); ``adjudication``: the rules that may
    end a game sooner (:mod:`.adjudication`; "" for none)."""
    games = check_count("games", games)
    rules = canonical_rules(rules)
    extra = {"max_turns": max_turns, "adjudication": adjudication}
    if max_actions is not None:
        extra["max_actions"] = check_count("max_actions", max_actions)
    seeds = game_seeds(seed, games)  # game i of every pairing and side: one seed
    seen = set()
    parts = []
    for a, b in pairings:
        if (a, b) in seen:
            continue
        seen.add((a, b))
        label = f"{a}:{b}"
        for tech, zieg in [(a, b)] if a == b else [(a, b), (b, a)]:
            parts.append(SpecSeries(label, tech, zieg, seeds, scenario=scenario, rules=rules, **extra))
    return Plan(parts)


def arena_run_config(pairings, games: int, scenario: str, seed: int, rules, max_turns, adjudication="") -> dict:
    """What decides an arena's games, recorded in its folder's run.json (a
    rerun with other values is refused; ``games`` may grow): the pairings (in
    any order), the scenario (and its digest if it is a file), the rules
    options, the master seed, ``max_turns``, the games a side and the
    adjudication rules (only when there are any)."""
    config = {
        "kind": "arena",
        "pairings": sorted({f"{a}:{b}" for a, b in pairings}),
        "scenario": scenario,
        "scenario_files": scenario_files([scenario]),
        "rules": json.loads(canonical_rules(rules)),
        "seed": int(seed),
        "max_turns": spec_max_turns(max_turns),
        "games": int(games),
    }
    if adjudication:
        config["adjudication"] = adjudication
    return config


def side_sums(rows, specs) -> tuple[list, dict, dict]:
    """(the (pairing, Technocrat, Ziegler) groups in plan order, the games
    planned in each, and each group's sums over ``rows`` in one pass: games,
    Technocrat wins, draws, truncated games, turns, actions, seconds); the
    rows of no planned group are summed under None."""
    planned = dict(spec_groups(specs))
    order = list(planned)
    rows = as_rows(rows)
    groups = {k: i for i, k in enumerate(order)}
    n = len(order) + 1  # the last: rows of no planned group
    keys = zip(column(rows, "pairing"), column(rows, "technocrat"), column(rows, "ziegler"))
    gid = np.fromiter(map(groups.get, keys, repeat(len(order))), dtype=np.int64, count=len(rows))
    winners = column(rows, "winner")

    def total(values=None):
        return np.bincount(gid, weights=values, minlength=n)

    columns = [
        total(),
        total(winners == "technocrat"),
        total(draws_of(winners)),
        total(column(rows, "truncated").astype(bool)),
        total(column(rows, "turns").astype(float)),
        total(column(rows, "actions_count").astype(float)),
        total(column(rows, "wall_s").astype(float)),
    ]
    sums = {}
    for i, k in enumerate([*order, None]):
        sums[k] = [int(c[i]) for c in columns[:6]] + [float(columns[6][i])]
    return order, planned, sums


def side_table(rows, specs, sums=None) -> list[dict]:
    """One entry per (pairing, Technocrat agent, Ziegler agent), in plan order
    (``sums``: :func:`side_sums` of the same rows, if made already)."""
    order, planned, sums = sums or side_sums(rows, specs)
    out = []
    for k in order:
        n, tw, draws, truncated, turns, actions, wall = sums[k]
        score = total_points(tw, draws)  # the Technocrat's points: a draw is half a point
        lo, hi = wilson_interval(score, n)
        out.append(
            {
                "pairing": k[0],
                "technocrat": k[1],
                "ziegler": k[2],
                "games": n,
                "planned": planned[k],
                "technocrat_wins": tw,
                "ziegler_wins": n - tw - draws,
                "draws": draws,
                "technocrat_win_rate": score / n if n else math.nan,
                "ci_low": lo,
                "ci_high": hi,
                "truncated_rate": truncated / n if n else math.nan,
                "mean_turns": turns / n if n else math.nan,
                "mean_actions": actions / n if n else math.nan,
                "mean_wall_s": wall / n if n else math.nan,
            }
        )
    return out


def head_to_head(rows, pairings) -> list[dict]:
    """Each pairing of two agents over both seats: A's wins, draws and score;
    ``ci_low``/``ci_high`` the 95% interval from the game pairs (game i as
    Technocrat and as Ziegler on one seed, :mod:`.pairs`), ``wilson_low``/
    ``wilson_high`` the games' Wilson interval beside it (independent
    games), ``pentanomial`` and ``games_ratio`` (the pairs' share of the
    games the Wilson interval needs for the same half-width); A's score in
    each seat."""
    rows = as_rows(rows)
    labels = column(rows, "pairing")
    out = []
    seen = set()
    for a, b in pairings:
        if a == b or (a, b) in seen:
            continue
        seen.add((a, b))
        rs = select(rows, labels == f"{a}:{b}")
        n = len(rs)
        draw = draws_of(column(rs, "winner"))
        won = column(rs, "winner_agent") == a
        aw, draws = int(won.sum()), int(draw.sum())
        score = total_points(aw, draws)
        mine = total_points(won.astype(float), draw)  # a's points in each game
        technocrat = column(rs, "technocrat") == a
        lo, hi = wilson_interval(score, n)
        paired = pair_summary(rs, a, b)
        out.append(
            {
                "agent_a": a,
                "agent_b": b,
                "games": n,
                "a_wins": aw,
                "b_wins": n - aw - draws,
                "draws": draws,
                "a_score": score / n if n else math.nan,
                "pairs": paired["pairs"],
                "ci_low": paired["ci_low"],
                "ci_high": paired["ci_high"],
                "pentanomial": paired["pentanomial"],
                "games_ratio": paired["games_ratio"],
                "wilson_low": lo,
                "wilson_high": hi,
                "a_as_technocrat_win_rate": mean(mine[technocrat]),
                "a_as_ziegler_win_rate": mean(mine[column(rs, "ziegler") == a]),
            }
        )
    return out


def ratings_table(rows, agents=None, config=None) -> list[dict]:
    """Ratings by seat (``hotspot.arena.rating``: a rating as Technocrat and
    one as Ziegler, 95% likelihood-ratio intervals; overall the Elo of the
    score over both seats, its interval from that score's; Elo scale, a
    bound for a seat that never won or never lost), on
    ``hotspot evaluate``'s published scale when the games were played by its
    protocol (``config``'s scenario, rules and max_turns) and a reference
    agent played, else with ``scripted`` (or the first agent) at 1000; with
    each agent's games, score and score by side (a draw, a game stopped
    by max_turns, is half a point)."""
    config = config or {}
    published = on_published_scale(config.get("scenario"), config.get("rules"), config.get("max_turns"))
    table, anchor = ratings_by_seat(rows, agents or (), published)
    rows = as_rows(rows)
    tech, zieg = column(rows, "technocrat"), column(rows, "ziegler")
    vs = tech != zieg
    winners = column(rows, "winner")
    draw, won_by = draws_of(winners), column(rows, "winner_agent")
    technocrat_points, ziegler_points = side_points(winners, "technocrat"), side_points(winners, "ziegler")
    for entry in table:
        a = entry["agent"]
        mine = vs & ((tech == a) | (zieg == a))
        wins = int((mine & (won_by == a)).sum())
        draws = int((mine & draw).sum())
        games = int(mine.sum())
        t, z = vs & (tech == a), vs & (zieg == a)
        entry.update(
            {
                "games": games,
                "wins": wins,
                "draws": draws,
                "losses": games - wins - draws,
                "score": total_points(wins, draws) / games if games else math.nan,
                "technocrat_games": int(t.sum()),
                "technocrat_win_rate": mean(technocrat_points[t]),
                "ziegler_games": int(z.sum()),
                "ziegler_win_rate": mean(ziegler_points[z]),
                "anchor": anchor,
                "rating_text": _rating_text(entry, "overall", entry["rating"]),
                "technocrat_text": _rating_text(entry, "technocrat", entry["technocrat_rating"]),
                "ziegler_text": _rating_text(entry, "ziegler", entry["ziegler_rating"]),
            }
        )
    return table


def summarize(rows, specs, pairings, result=None, config=None) -> dict:
    sums = side_sums(rows, specs)
    sides = side_table(rows, specs, sums)
    n, _, draws, truncated, turns, actions, wall = (sum(column) for column in zip(*sums[2].values()))
    summary = {
        "format": "hotspot-arena-summary",
        "version": 1,
        "config": config or {},
        "games": len(rows),
        "planned": len(specs),
        "played_now": None if result is None else result.played,
        "from_file": None if result is None else result.reused,
        "remaining": None if result is None else result.remaining,
        "wall_s": None if result is None else round(result.wall_s, 3),
        "warm_up_s": None if result is None else round(result.warm_up_s, 3),
        "dropped_lines": [] if result is None else [d.line for d in result.dropped],
        "games_wall_s": round(wall, 3),
        "mean_turns": turns / n if n else math.nan,
        "mean_actions": actions / n if n else math.nan,
        "truncated_rate": truncated / n if n else math.nan,
        "draws": draws,
        "sides": sides,
        "head_to_head": head_to_head(rows, pairings),
        "ratings": ratings_table(rows, sorted({a for p in pairings for a in p}), config),
    }
    return summary


def write_summary(summary: dict, out_dir, csv_rows, csv_fields) -> None:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "summary.json").write_text(json.dumps(json_safe(summary), indent=1) + "\n", encoding="utf-8")
    write_csv(out_dir / "summary.csv", csv_rows, csv_fields)


def report_text(summary: dict) -> str:
    """The arena's printed report."""
    lines = []
    sides = summary["sides"]
    for s in sides:
        s.setdefault("ziegler_win_rate", 1.0 - s["technocrat_win_rate"] if s["games"] else math.nan)
    limit = (summary.get("config") or {}).get("max_turns", "unknown")
    lines.append(
        "Scores by side (95% Wilson intervals; a score counts a draw, a game stopped by max_turns "
        "without a winner, as half a point to each side):"
    )
    lines.append(
        format_table(
            sides,
            [
                ("technocrat", "technocrat"),
                ("ziegler", "ziegler"),
                ("games", "games"),
                ("technocrat_wins", "T wins"),
                ("ziegler_wins", "Z wins"),
                ("draws", "draws"),
                ("technocrat_win_rate", "T score", ".3f"),
                (lambda r: interval_text(r["ci_low"], r["ci_high"]), "95% CI"),
                ("ziegler_win_rate", "Z score", ".3f"),
                ("mean_turns", "turns", ".1f"),
                ("mean_actions", "actions", ".0f"),
            ],
        )
        if sides
        else "  (no games)"
    )
    h2h = summary["head_to_head"]
    if h2h:
        lines.append("")
        lines.append(
            "Head to head (both sides; 95% CI from the game pairs, game i in each seat on one seed; "
            "Wilson: the games as independent):"
        )
        lines.append(
            format_table(
                h2h,
                [
                    ("agent_a", "agent A"),
                    ("agent_b", "agent B"),
                    ("games", "games"),
                    ("pairs", "pairs"),
                    ("a_wins", "A wins"),
                    ("draws", "draws"),
                    ("a_score", "A score", ".3f"),
                    (lambda r: interval_text(r["ci_low"], r["ci_high"]), "95% CI"),
                    (lambda r: interval_text(r["wilson_low"], r["wilson_high"]), "Wilson"),
                    ("a_as_technocrat_win_rate", "A as T", ".3f"),
                    ("a_as_ziegler_win_rate", "A as Z", ".3f"),
                ],
            )
        )
    ratings = summary["ratings"]
    if ratings:
        lines.append("")
        lines.append(
            f"Ratings by seat (Elo scale, 400 points = odds of 10 to 1; {ratings[0]['anchor']}; overall = the "
            f"Elo of the score over both seats, against the agents met in both; 95% intervals from each agent's "
            f"games, the others held at their ratings; '<' or '>': a bound, for a seat that never won or never "
            f"lost; '-': no agent met in both seats):"
        )
        lines.append(
            format_table(
                ratings,
                [
                    ("agent", "agent"),
                    ("rating_text", "rating"),
                    ("technocrat_text", "as Technocrat"),
                    ("ziegler_text", "as Ziegler"),
                    ("games", "games"),
                    ("wins", "wins"),
                    ("draws", "draws"),
                    ("score", "score", ".3f"),
                    ("technocrat_win_rate", "score as T", ".3f"),
                    ("ziegler_win_rate", "score as Z", ".3f"),
                ],
            )
        )
    lines.append("")
    lines.append(
        f"Games: {summary['games']} of {summary['planned']} planned; average length "
        f"{_fmt(summary['mean_turns'], '.2f')} turns, {_fmt(summary['mean_actions'], '.1f')} actions; "
        f"draws (stopped after turn {'none: no limit' if limit is None else limit} without a winner, "
        f"D19): {summary.get('draws', 0)} ({_fmt(summary['truncated_rate'], '.3f')})"
    )
    if summary.get("wall_s") is not None:
        compiling = (
            f", {summary['warm_up_s']:.1f} s of it compiling or loading the compiled code"
            if summary.get("warm_up_s", 0) >= 0.1
            else ""
        )
        lines.append(
            f"Wall time: {summary['wall_s']:.1f} s{compiling} ({summary['played_now']} game(s) played "
            f"now, {summary['from_file']} from {GAMES_FILE}; {summary['games_wall_s']:.1f} s of game "
            f"time in all)"
        )
    lines += dropped_text(summary)
    if summary.get("remaining"):
        lines.append(f"{summary['remaining']} planned game(s) not played yet: rerun the same command to finish.")
    return "\n".join(lines)


def _rating_text(entry: dict, seat: str, fitted: float) -> str:
    """A rating as the table shows it: the published value of a reference
    agent held fixed; else the games' own interval or bound."""
    if entry.get("fixed") and fitted is not None:
        return f"{fitted:.0f} (published)"
    return entry[seat]["text"]


def dropped_text(summary: dict) -> list[str]:
    """The report's line on damaged games.jsonl lines dropped by this run (none: no line)."""
    dropped = summary.get("dropped_lines")
    if not dropped:
        return []
    return [
        f"Dropped {len(dropped)} damaged line(s) of {GAMES_FILE} (line(s) "
        f"{', '.join(map(str, dropped))}); the planned games they held were played again."
    ]


def _fmt(value, spec):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return format(value, spec)


def run_arena(
    *,
    agents=None,
    pairings=None,
    games: int = 100,
    scenario: str = "open",
    rules=None,
    self_play=True,
    options: RunOptions | None = None,
    **run_options,
) -> dict:
    """Run an arena and write games.jsonl, run.json, summary.json, summary.csv
    and ratings.csv into ``out``; returns the summary (with ``"text"``, the report).

    A rerun with the same ``out`` resumes the run; ``out`` holding another
    run (:func:`arena_run_config` differs) or a damaged games.jsonl line is
    refused, the latter unless ``drop_damaged`` (see ``hotspot.arena.folder``).

    The run options (:class:`hotspot.arena.options.RunOptions`: ``options``,
    or its fields as keywords: ``seed``, ``out`` (default
    ``"arena-results"``), ``workers``, ``backend``, ``address``, ``chunk``,
    ``max_games``, ``progress``, ``max_actions``, ``max_turns``,
    ``drop_damaged``) are checked before anything else.  ``max_turns``: a
    game still going after that turn's Crustal Control phase is stopped as
    a draw (D19 revised); None: no limit (the rulebook game; ``max_actions``
    then still stops a game that never ends, as an error)."""
    opts = RunOptions.merge(options, run_options, out="arena-results", where="run_arena")
    seed, out, max_turns = opts.seed, opts.out, opts.max_turns
    if pairings is None:
        agents = (available_agents() if agents == ["all"] else list(agents)) if agents else default_agents()
        agents = list(dict.fromkeys(canonical_agents(agents)))
        pairings = round_robin(agents, self_play=self_play)
    else:
        pairings = [tuple(canonical_agents(p)) for p in pairings]
    if not pairings:
        raise ArenaError("no pairing to play")
    if opts.backend == "local":  # a cold numba cache: half the compiling in a helper, from now on
        begin_compiling(opts.resolved_workers())
    check_scenario(scenario, rules)
    specs = plan_arena(
        pairings,
        games,
        scenario=scenario,
        seed=seed,
        rules=rules,
        max_actions=opts.max_actions,
        max_turns=max_turns,
        adjudication=opts.adjudicate,
    )
    with writer_lock(out):  # one writer a folder, for the whole run
        result = run_games(
            specs,
            out,
            options=opts,
            desc="arena",
            config=arena_run_config(pairings, games, scenario, seed, rules, max_turns, opts.adjudicate),
        )
        config = {
            "pairings": [f"{a}:{b}" for a, b in pairings],
            "games_per_side": games,
            "scenario": scenario,
            "seed": seed,
            "rules": json.loads(canonical_rules(rules)),
            "max_turns": specs[0].max_turns if specs else max_turns,
            "workers": result.workers,
            "backend": opts.backend,
        }
        summary = summarize(result.rows, specs, pairings, result, config)
        for s in summary["sides"]:
            s["ziegler_win_rate"] = 1.0 - s["technocrat_win_rate"] if s["games"] else math.nan
        write_summary(summary, out, summary["sides"], SIDE_FIELDS + ["ziegler_win_rate"])
        write_csv(opts.folder / "ratings.csv", summary["ratings"], RATING_FIELDS)
        summary["text"] = report_text(summary)
        summary["result"] = result
        return summary
