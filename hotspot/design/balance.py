"""Balance studies: the Technocrat's score over a grid of setups and rules
options, for chosen agent pairs.  ``hotspot balance`` is :func:`run_balance`.

A *cell* is (scenario, rules overrides, Technocrat agent, Ziegler agent); each
cell plays ``games`` games with the seeds of the arena (game ``i`` of every
cell has the same seed), through the same parallel and resumable runner.
Every game row records its rules options (``rules``) and turn limit
(``max_turns``).

Rules options (``--option NAME=V1,V2``) are checked against
``RulesOptions.describe()`` before any game is played: an unknown name or a
bad value is refused with one line listing the valid ones.  String-valued
D22 options take their names (``combat_table=d13,diagonal``,
``losses=automatic,owner``).

Skill grid: ``technocrats`` x ``zieglers`` (``--technocrat A,B --ziegler
A,B``) is every pairing of the two lists; :mod:`.skill` reads the grid (which
side gains more from skill, the diagonal) and draws its heatmap.

Mirrored seeds: game ``i`` of every cell has the seed ``game_seed(seed, i)``,
which fixes the set-up dice and the game's dice whichever agents play, so
that two cells differ by their agents (or rules), not by their dice.

Sequential stopping (``precision``): the cells are played in steps of
``step`` games; after each step a cell whose 95% interval has a half-width
<= ``precision``, or that has played ``games`` games, stops.  Which cells go
on depends only on the rows of finished steps, so a rerun resumes to the
same games.  The intervals are corrected for the repeated looks
(:func:`look_confidence`: Bonferroni over the planned looks, each look's
interval at ``1 - 0.05 / looks``), both the ones that decide the stop and
the ones reported: the chance that any look's interval misses is at most
5%, so the interval of the look that stopped is a 95% interval whatever
the stopping did.

Restricted-play probes (``probes``, :data:`PROBES`): each probe is a cell of
its own, the same agents and seeds as its base cell under the probe's rules
overrides (e.g. ``sees_through_fog``, R9.5b, the price of hidden
information); :func:`.skill.probe_deltas` reports the change of the
Technocrat's score, paired game by game.

Draws (D19 revised): a game still going after turn ``max_turns`` (default
``hotspot.core.limits.DEFAULT_MAX_TURNS``; None: no limit) is stopped with
no winner.  It is counted in the ``draws`` column and as half a point: the
Technocrat score of a cell (the tables' "T score"; ``technocrat_win_rate`` in
the files) is (Technocrat wins + draws / 2) / games,
with the Wilson interval of that score (conservative with draws, see
``stats.wilson_interval``).

This module parses, plans and runs a grid; :mod:`.balance_plots` draws its
plots (``balance.png``, the report's ``lengths.png``) and :mod:`.report`
writes its reports (the printed text, ``report.html``).
"""

from __future__ import annotations

import itertools
import json
import math
import warnings
from typing import Any

from hotspot.agents.registry import is_available
from hotspot.arena.folder import GAMES_FILE, read_rows, scenario_files, writer_lock
from hotspot.arena.gamerow import GAME_CSV_FIELDS, to_csv_row
from hotspot.arena.match import ArenaError, GameSpec, canonical_rules, check_scenario, game_seeds
from hotspot.arena.options import RunOptions, check_precision
from hotspot.arena.runner import check_count, run_in_steps, spec_max_turns
from hotspot.arena.stats import json_safe, mean, wilson_interval, write_csv
from hotspot.arena.tournament import canonical_agents, is_draw, parse_pairings, points
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.rules_data import RulesOptions

from .balance_plots import plot_balance
from .report import balance_text, write_report
from .skill import PROBES, plot_skill_grid, probe_deltas, skill_summaries

CELL_FIELDS = [
    "cell",
    "scenario",
    "rules",
    "probe",
    "max_turns",
    "technocrat",
    "ziegler",
    "games",
    "planned",
    "stopped",
    "technocrat_wins",
    "ziegler_wins",
    "draws",
    "technocrat_win_rate",
    "ci_low",
    "ci_high",
    "half_width",
    "truncated_rate",
    "mean_turns",
    "mean_actions",
]

#: games.csv: every game of the grid with its seed, without its actions (those are in games.jsonl)
GAME_FIELDS = GAME_CSV_FIELDS


def parse_probes(text: str) -> list[tuple[str, dict]]:
    """``"fog-technocrat,no-hover-second-move"`` -> [(name, overrides), ...].

    A probe is a name of :data:`PROBES` or ``NAME=VALUE`` for any one rules
    option (checked as ``--option``)."""
    out = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        if item in PROBES:
            out.append((item, dict(PROBES[item][0])))
        elif "=" in item:
            key, values = parse_option(item)
            if len(values) != 1:
                raise ArenaError(f"probe {item!r}: one value")
            out.append((item, {key: values[0]}))
        else:
            raise ArenaError(
                f"unknown probe {item!r}; valid probes: {', '.join(PROBES)}, or NAME=VALUE for one rules option"
            )
    if not out:
        raise ArenaError(f"no probe given; valid probes: {', '.join(PROBES)}")
    if len({n for n, _ in out}) != len(out):
        raise ArenaError("a probe is given twice")
    return out


def parse_agent_list(text: str, side: str) -> list[str]:
    """``"random,scripted,ismcts(iterations=8)"`` -> canonical agent specs (one side of a skill grid)."""
    from hotspot.arena.tournament import parse_agents

    names = canonical_agents(parse_agents(text))
    if not names:
        raise ArenaError(f"--{side}: no agent given")
    if len(set(names)) != len(names):
        raise ArenaError(f"--{side}: an agent is given twice")
    return names


def grid_pairs(technocrats, zieglers) -> list[tuple[str, str]]:
    """Every (Technocrat, Ziegler) pairing of the two lists: a skill grid."""
    return [(t, z) for t in technocrats for z in zieglers]


def parse_scenarios(text: str) -> list[str]:
    out = [s.strip() for s in text.split(",") if s.strip()]
    if not out:
        raise ArenaError("no scenario given")
    return out


def parse_value(text: str):
    """``"10"`` -> 10, ``"true"`` -> True, ``'{"platform": 3}'`` -> dict; else the text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _valid_text(name: str, valid) -> str:
    if isinstance(valid, list):
        return ", ".join(valid)
    return valid


def check_option(name: str, value) -> None:
    """Refuse (``ArenaError``, one line) a rules option name or value that
    ``RulesOptions`` does not take, listing the valid names or values."""
    valid = RulesOptions.describe()
    if name == "turn_limit":
        raise ArenaError(
            "option 'turn_limit' is no longer a rules option: the rulebook has no turn limit "
            "(5.0, D19 revised); use --max-turns N to stop games after turn N as draws"
        )
    if name not in valid:
        listing = "; ".join(f"{k} ({_valid_text(k, v)})" for k, v in valid.items())
        raise ArenaError(f"unknown rules option {name!r}; valid options: {listing}")
    try:
        RulesOptions.from_dict({name: value})
    except (ValueError, TypeError):
        raise ArenaError(
            f"rules option {name}: {value!r} is not a valid value; valid: {_valid_text(name, valid[name])}"
        ) from None


def parse_option(text: str) -> tuple[str, list]:
    """``"combat_table=d13,diagonal"`` -> ("combat_table", ["d13", "diagonal"]);
    ``"platform_turns=3,4,5"`` -> ("platform_turns", [3, 4, 5]).

    Each value is checked against ``RulesOptions`` (:func:`check_option`)."""
    key, sep, values = text.partition("=")
    key = key.strip()
    if not sep or not key or not values.strip():
        raise ArenaError(
            f"option {text!r}: expected NAME=VALUE[,VALUE...], e.g. platform_turns=3,4,5 or combat_table=d13,diagonal"
        )
    parsed = [parse_value(v.strip()) for v in values.split(",") if v.strip()]
    for value in parsed:
        check_option(key, value)
    return key, parsed


def option_grid(options: list[tuple[str, list]]) -> list[dict]:
    """Every combination of the options' values (one empty dict for no options)."""
    keys = []
    for key, _ in options:
        if key in keys:
            raise ArenaError(f"option {key!r} given twice")
        keys.append(key)
    values = [vals for _, vals in options]
    return [dict(zip(keys, combo)) for combo in itertools.product(*values)]


def plan_balance(
    scenarios,
    options,
    pairs,
    games: int,
    *,
    seed: int = 0,
    max_actions=None,
    max_turns: int | None = DEFAULT_MAX_TURNS,
    probes=(),
    probe_pairs=None,
):
    """(cells, specs): the cells of the grid and their games (each stopped as a
    draw after turn ``max_turns``; None: no limit), ``games`` a cell.

    ``probes``: (name, rules overrides) pairs (:func:`parse_probes`); each adds,
    for every base cell whose pair is in ``probe_pairs`` (None: every pair),
    a cell with the same agents and seeds under the base rules plus the
    overrides.  A probe may not set an option that ``options`` varies."""
    games = check_count("games", games)
    for key, values in options:
        for value in values:
            check_option(key, value)
    varied = {key for key, _ in options}
    for name, overrides in probes:
        clash = sorted(varied & set(overrides))
        if clash:
            raise ArenaError(f"probe {name!r} sets {', '.join(clash)}, which --option varies: drop one of them")
    extra: dict[str, Any] = {"max_turns": max_turns}
    if max_actions is not None:
        extra["max_actions"] = check_count("max_actions", max_actions)
    limit = GameSpec("", "", "", 0, 0, **extra).max_turns
    seeds = game_seeds(seed, games)  # game i of every cell: one seed
    cells: list[dict] = []
    specs: list[GameSpec] = []
    for scenario in scenarios:
        for rules in option_grid(options):
            check_scenario(scenario, rules)
            for tech, zieg in pairs:
                variants = [(None, rules)]
                if probe_pairs is None or (tech, zieg) in probe_pairs:
                    variants += [(name, {**rules, **overrides}) for name, overrides in probes]
                for probe, cell_rules in variants:
                    if probe is not None:
                        check_scenario(scenario, cell_rules)
                    cells.append(
                        {
                            "cell": len(cells),
                            "scenario": scenario,
                            "rules": cell_rules,
                            "probe": probe,
                            "base_rules": rules,
                            "max_turns": limit,
                            "technocrat": tech,
                            "ziegler": zieg,
                        }
                    )
                    specs += GameSpec.series(
                        f"{tech}:{zieg}",
                        tech,
                        zieg,
                        seeds,
                        scenario=scenario,
                        rules=canonical_rules(cell_rules),
                        **extra,
                    )
    return cells, specs


def _cell_key(scenario, rules, tech, zieg):
    return (scenario, canonical_rules(rules), tech, zieg)


def cell_specs(cells, specs) -> list[list[GameSpec]]:
    """The planned games of each cell, in game order."""
    index = {_cell_key(c["scenario"], c["rules"], c["technocrat"], c["ziegler"]): c["cell"] for c in cells}
    out: list[list[GameSpec]] = [[] for _ in cells]
    for spec in specs:
        out[index[_cell_key(spec.scenario, spec.rules, spec.technocrat, spec.ziegler)]].append(spec)
    for games in out:
        games.sort(key=lambda s: s.index)
    return out


def balance_run_config(
    scenarios, options, pairs, games: int, seed: int, max_turns, probes=(), probe_pairs=None
) -> dict:
    """What decides a balance grid's games, recorded in its folder's run.json
    (a rerun with other values is refused; ``games`` may grow): the scenarios
    (and the digests of scenario files), each option's values, the agent
    pairs (each in any order), the master seed, ``max_turns`` and the games a
    cell."""

    def values(vals):
        return sorted(vals, key=lambda v: json.dumps(v, sort_keys=True))

    config = {
        "kind": "balance",
        "scenarios": sorted(set(scenarios)),
        "scenario_files": scenario_files(scenarios),
        "options": {k: values(v) for k, v in options},
        "pairs": sorted({f"{a}:{b}" for a, b in pairs}),
        "seed": int(seed),
        "max_turns": spec_max_turns(max_turns),
        "games": int(games),
    }
    if probes:  # (only then: an older folder's run.json has no such key)
        config["probes"] = sorted(f"{name}={json.dumps(over, sort_keys=True)}" for name, over in probes)
        config["probe_pairs"] = None if probe_pairs is None else sorted(f"{a}:{b}" for a, b in probe_pairs)
    return config


def look_confidence(games: int, step: int | None, precision) -> float:
    """The confidence of each look's interval under sequential stopping: 95%
    shared by the planned looks (``ceil(games / step)``) with Bonferroni's
    correction, so that the chance that any look's interval misses the true
    score is at most 5% (each at ``1 - 0.05 / looks``); 0.95 without
    ``precision`` (one look)."""
    if not precision or not step:
        return 0.95
    return 1.0 - 0.05 / max(1, math.ceil(games / step))


def cell_table(rows, cells, specs, stopped=None, confidence: float = 0.95) -> list[dict]:
    """One entry a cell: its games, score (a draw half a point), Wilson
    interval (``confidence``: 95%, or :func:`look_confidence` under
    sequential stopping) and its half-width, lengths; ``stopped``: why each
    cell stopped (``"precision"`` or ``"games"``, sequential stopping)."""
    ckey = _cell_key

    by: dict[tuple, list[dict]] = {ckey(c["scenario"], c["rules"], c["technocrat"], c["ziegler"]): [] for c in cells}
    planned: dict[tuple, int] = {}
    for spec in specs:
        k = ckey(spec.scenario, spec.rules, spec.technocrat, spec.ziegler)
        planned[k] = planned.get(k, 0) + 1
    for row in rows:
        k = ckey(row["scenario"], row.get("rules") or {}, row["technocrat"], row["ziegler"])
        if k in by:
            by[k].append(row)
    out = []
    for c in cells:
        k = ckey(c["scenario"], c["rules"], c["technocrat"], c["ziegler"])
        rs = by[k]
        n = len(rs)
        tw = sum(r["winner"] == "technocrat" for r in rs)
        draws = sum(is_draw(r) for r in rs)
        score = tw + 0.5 * draws  # a draw (stopped by max_turns) is half a point
        lo, hi = wilson_interval(score, n, confidence)
        entry = dict(c)
        entry.update(
            {
                "games": n,
                "planned": planned.get(k, 0),
                "technocrat_wins": tw,
                "ziegler_wins": n - tw - draws,
                "draws": draws,
                "technocrat_win_rate": score / n if n else math.nan,
                "ci_low": lo,
                "ci_high": hi,
                "half_width": (hi - lo) / 2 if n else math.nan,
                "stopped": (stopped or {}).get(c["cell"], ""),
                "truncated_rate": mean(float(r["truncated"]) for r in rs),
                "mean_turns": mean(r["turns"] for r in rs),
                "mean_actions": mean(r["actions_count"] for r in rs),
            }
        )
        out.append(entry)
    return out


#: the printed report's old name here (it lives in :mod:`.report`, beside the HTML page)
report_text = balance_text


def default_pair() -> tuple[str, str]:
    return ("scripted", "scripted") if is_available("scripted") else ("random", "random")


def _probe_pairs(probes, probe_pairs, pairs):
    """The pairs the probes are played for: ``probe_pairs`` (each among the
    grid's ``pairs``), or by default the grid's agents against themselves,
    else every pair."""
    if probe_pairs is None and probes:
        mirror = [p for p in pairs if p[0] == p[1]]
        return mirror or list(pairs)
    if probe_pairs is not None:
        probe_pairs = [tuple(canonical_agents(p)) for p in probe_pairs]
        unknown = [f"{a}:{b}" for a, b in probe_pairs if (a, b) not in pairs]
        if unknown:
            raise ArenaError(
                f"probe pair(s) {', '.join(unknown)} not among the grid's pairs "
                f"{', '.join(f'{a}:{b}' for a, b in pairs)}"
            )
    return probe_pairs


def _old_keywords(rules, options, run_options):
    """``(rules, options)`` after the keywords deprecated until 0.4:
    ``options=`` a list of (name, values) pairs (the grid's rules options,
    now ``rules=``) and ``run_options=`` (now ``options=``), each warning."""
    if options is not None and not isinstance(options, RunOptions):
        warnings.warn(
            "run_balance(options=[(name, values), ...]) is run_balance(rules=...); options= is the run options "
            "(a RunOptions), as in every runner (the old meaning goes in 0.4)",
            DeprecationWarning,
            stacklevel=3,
        )
        if rules:
            raise TypeError("run_balance(): give rules= (the rules options), not the old options= as well")
        rules, options = options, None
    return rules, RunOptions.renamed("run_balance", options, run_options)


def _checked_pairs(pairs, technocrats, zieglers) -> tuple[list, list | None, list | None]:
    """(the grid's agent pairs, the skill grid's Technocrats and Zieglers or None):
    ``pairs``, or every pairing of a skill grid (one side given alone is used
    for both); never both, never a pair twice."""
    if technocrats or zieglers:
        if pairs:
            raise ArenaError("give either --pair or --technocrat/--ziegler (a skill grid), not both")
        technocrats = list(technocrats or zieglers)
        zieglers = list(zieglers or technocrats)
        pairs = grid_pairs(technocrats, zieglers)
    pairs = [tuple(canonical_agents(p)) for p in (pairs or [default_pair()])]
    if len(set(pairs)) != len(pairs):
        raise ArenaError("an agent pair is given twice")
    return pairs, technocrats, zieglers


def _summary_config(scenarios, rules, grid, probe_pairs, games, precision, step, confidence, cells, opts, result):
    """The summary's ``config``: what the grid played, as the summary names it."""
    return {
        "scenarios": list(scenarios),
        "options": {k: v for k, v in rules},  # the rules options (the summary's name for them)
        "pairs": [f"{a}:{b}" for a, b in grid["pairs"]],
        "games_per_cell": games,
        "seed": opts.seed,
        "precision": precision,
        "step": step if precision else None,
        "interval_confidence": confidence,
        "technocrats": grid["technocrats"],
        "zieglers": grid["zieglers"],
        "probes": {name: over for name, over in grid["probes"]},
        "probe_pairs": [f"{a}:{b}" for a, b in probe_pairs or []],
        "max_turns": cells[0]["max_turns"] if cells else opts.max_turns,
        "workers": result.workers if result else opts.workers,
        "backend": opts.backend,
    }


def _write_outputs(summary: dict, table, kept, out, plot: bool, report: bool) -> None:
    """The grid's files in ``out``: balance.png and skill.png (``plot``),
    summary.json, summary.csv, games.csv and report.html (``report``); the
    plots' and the report's paths into ``summary``."""
    if plot and any(t["games"] for t in table):
        summary["plot"] = str(plot_balance([t for t in table if t["probe"] is None], out / "balance.png"))
        for i, grid in enumerate(summary["skill"]):
            name = "skill.png" if len(summary["skill"]) == 1 else f"skill-{i + 1}.png"
            grid["plot"] = str(plot_skill_grid(grid, out / name))
            summary["skill_plots"].append(grid["plot"])
    (out / "summary.json").write_text(json.dumps(json_safe(summary), indent=1) + "\n", encoding="utf-8")
    csv_rows = [dict(t, rules=json.dumps(t["rules"], sort_keys=True)) for t in table]
    write_csv(out / "summary.csv", csv_rows, CELL_FIELDS)
    write_csv(out / "games.csv", [to_csv_row(r) for r in kept], GAME_CSV_FIELDS)
    if report:  # the draws' final positions are replayed: their actions from games.jsonl
        full = read_rows(out / GAMES_FILE) if any(is_draw(r) for r in kept) else {}
        summary["report"] = str(write_report(out, summary, [full.get(r["key"], r) for r in kept]))


def run_balance(
    *,
    scenarios=("standard",),
    rules=(),
    pairs=None,
    technocrats=None,
    zieglers=None,
    games: int | None = None,
    precision: float | None = None,
    step: int = 100,
    probes=(),
    probe_pairs=None,
    plot=True,
    report: bool = False,
    options: RunOptions | None = None,
    run_options: RunOptions | None = None,
    **run_kwargs,
) -> dict:
    """Run a balance grid; writes games.jsonl, run.json, summary.json,
    summary.csv, games.csv (each game's seed and result), balance.png (and skill.png for a skill grid, report.html
    with ``report``) into ``out``; returns the summary (with ``"text"``).

    ``pairs``: (Technocrat, Ziegler) agent pairs; ``technocrats`` and
    ``zieglers``: the two sides of a skill grid (every pairing; one given
    alone is used for both).  ``rules``: (name, values) pairs, checked
    against ``RulesOptions`` (every combination is a cell); ``max_turns``: games still going after that
    turn are draws (None: no limit).  ``games``: a cell's games (default 100;
    with ``precision`` the most a cell may play, default 2000), played in
    steps of ``step`` until the cell's 95% interval has a half-width <=
    ``precision``.  ``probes``: (name, overrides) of :func:`parse_probes`,
    played for ``probe_pairs`` (default: the grid's agents against
    themselves, else every pair).  A rerun with the same ``out`` resumes;
    ``out`` holding another grid (:func:`balance_run_config` differs) or a
    damaged games.jsonl line is refused, the latter unless ``drop_damaged``
    (``hotspot.arena.folder``).

    The run options (:class:`hotspot.arena.options.RunOptions`:
    ``options``, or its fields as keywords: ``seed``, ``out`` (default
    ``"balance-results"``), ``workers``, ``backend``, ``address``,
    ``chunk``, ``max_games``, ``progress``, ``max_actions``, ``max_turns``,
    ``drop_damaged``) are checked before anything else (the old keywords:
    :func:`_old_keywords`)."""
    rules, options = _old_keywords(rules, options, run_options)
    opts = RunOptions.merge(options, run_kwargs, out="balance-results", where="run_balance")
    seed, out, max_turns = opts.seed, opts.out, opts.max_turns
    precision = check_precision(precision)
    games = check_count("games", games if games is not None else (2000 if precision else 100))
    step = check_count("step", step)
    pairs, technocrats, zieglers = _checked_pairs(pairs, technocrats, zieglers)
    probes = list(probes)
    probe_pairs = _probe_pairs(probes, probe_pairs, pairs)
    cells, specs = plan_balance(
        list(scenarios),
        list(rules),
        pairs,
        games,
        seed=seed,
        max_actions=opts.max_actions,
        max_turns=max_turns,
        probes=probes,
        probe_pairs=probe_pairs,
    )
    rules = list(rules)
    config = balance_run_config(scenarios, rules, pairs, games, seed, max_turns, probes, probe_pairs)
    with writer_lock(out):  # one writer a folder, for the whole run
        by_cell = cell_specs(cells, specs)

        confidence = look_confidence(games, step, precision)

        def enough(cell, done):
            lo, hi = wilson_interval(sum(points(r, "technocrat", by="side") for r in done), len(done), confidence)
            return (hi - lo) / 2 <= precision

        run = run_in_steps(
            {c["cell"]: [[s] for s in by_cell[c["cell"]]] for c in cells},
            out,
            games=games,
            step=step if precision else None,
            enough=enough,
            plan=specs,
            config=config,
            options=opts,
            desc="balance",
        )
        rows, stopped, result, remaining = run.rows, run.stopped, run.last, run.remaining
        kept = [rows[s.key] for games_of in by_cell for s in games_of if s.key in rows]
        table = cell_table(kept, cells, specs, stopped, confidence)
        grid = {"pairs": pairs, "technocrats": technocrats, "zieglers": zieglers, "probes": probes}
        summary = {
            "format": "hotspot-balance-summary",
            "version": 2,
            "config": _summary_config(
                scenarios, rules, grid, probe_pairs, games, precision, step, confidence, cells, opts, result
            ),
            "games": len(kept),
            "planned": sum(t["games"] for t in table) + remaining,
            "played_now": run.played,
            "from_file": len(kept) - run.played,
            "remaining": remaining,
            "wall_s": round(run.wall_s, 3),
            "warm_up_s": round(run.warm_up_s, 3),
            "dropped_lines": [d.line for d in run.dropped],
            "cells": table,
            "plot": None,
            "skill_plots": [],
            "report": None,
        }
        summary["skill"] = skill_summaries(table, technocrats, zieglers) if technocrats else []
        summary["probes"] = probe_deltas(table, kept) if probes else []
        _write_outputs(summary, table, kept, opts.folder, plot, report)
        summary["text"] = balance_text(table, summary)
        summary["result"] = result
        return summary


__all__ = [
    "PROBES",
    "grid_pairs",
    "parse_agent_list",
    "parse_option",
    "parse_pairings",
    "parse_probes",
    "parse_scenarios",
    "plan_balance",
    "plot_balance",
    "run_balance",
]
