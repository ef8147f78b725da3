"""``hotspot report``: a game report of one or more set-ups, side by side.

For each set-up (a preset name or a scenario file) the report plays, on
mirrored seeds (game ``i`` of every cell has the seed ``game_seed(seed, i)``):

* **the skill grid**: every agent of ``agents`` (default: the evaluate
  protocol's reference ladder; ``quick``: ``scripted`` and one cheap strong
  agent) against every one, in both seats (``hotspot balance --technocrat
  A,B --ziegler A,B``).  From it: the Technocrat's score along the diagonal
  (each agent against itself) and off it; **skill depth** (of the ladder's
  rungs, ordered by measured strength, how many the next agent beats
  clearly: its score against the one below, over both seats, has a 95%
  interval above 0.5), and the Elo span from the weakest agent to the
  strongest (the seat model of :mod:`hotspot.arena.rating`); **chance against skill**
  (how often the weaker agent of each pair still wins, per seat);
  **decisiveness** (decided games, draws at the turn limit by final
  position, game lengths); **the seat advantage** (the Technocrat's score
  when both seats play alike: in Hot Spot the Ziegler moves first in every
  turn, phases A-D before E-H, 4.0, so the first mover and the seat are one
  and the same and cannot be told apart); **the turn the game is decided**:
  the first turn from which the search's learned value
  (:mod:`hotspot.agents.plan_value`, the shipped networks) puts the
  eventual winner above 0.9 and keeps him there to the end.
* **the cheap pair's probes** (``probe_pair``, default
  ``scripted:scripted``, ``probe_games`` games a cell; ``ablation=False``
  leaves out the forces' variants): the price of
  hidden information (the fog probes, R9.5b: each side in turn sees
  through the fog) and **which counters matter**: each force of the set-up
  (3.2, 3.3) one counter smaller and one larger (an infantry force by three
  squads, a full counter, 10.0), each paired game by game with the base.
* **dice against deployment**: ``dice_deployments`` set-ups played by the
  scripted players, each replayed with ``dice_seeds`` dice seeds (the same
  deployment, other dice): the share of the outcome's variance that is the
  dice's (the mean variance within a deployment over the total).

Written to ``out``: ``report.json`` (every number; the folders of every
game, with seeds) and ``report.html`` with its PNGs (a static page: no
script, no network).  The games live in ``out/<set-up>/grid`` and
``out/<set-up>/probes`` (arena folders: a rerun resumes them, ``hotspot
replay`` reads them) and ``out/<set-up>/dice.json``.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from pathlib import Path
from typing import Any

from hotspot.arena.errors import ArenaError
from hotspot.arena.options import RunOptions
from hotspot.arena.rating import REFERENCE_LADDER, ratings_by_seat
from hotspot.arena.stats import json_safe
from hotspot.arena.tournament import canonical_agents
from hotspot.core.scenario import ScenarioError, load_scenario

from .readings import (
    FOG_PROBES,
    decided_turns,
    dice_spread,
    force_variants,
    median,
    pair_with_first,
    scores_by_cell,
    skill_depth,
    upsets,
    verdicts,
)
from .report import classify_draws
from .report_page import write_game_report
from .skill import paired_change

#: the cheap strong agent of ``quick``: the search at horizon 0 valuing plans
#: with the learned value (about as strong as ``best``, a third of its cost)
CHEAP_STRONG = "portfolio(value=learned)"
QUICK_AGENTS = ("scripted", CHEAP_STRONG)

#: sizes (grid games a cell, probe games a cell, deployments, dice seeds a deployment)
QUICK_SIZES = (16, 60, 10, 10)
FULL_SIZES = (100, 400, 40, 25)


def reference_ladder() -> list[str]:
    """The evaluate protocol's reference ladder (``arena.rating.REFERENCE_LADDER``), weakest first."""
    return list(REFERENCE_LADDER)


def _slug(scenario: str) -> str:
    name = Path(scenario).stem if scenario.endswith(".json") else scenario
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "setup"


# ------------------------------------------------------------------ the run


def check_setups(scenarios) -> list[str]:
    """The set-ups named (presets or scenario files), each loaded once to
    check it; a one-line :class:`ArenaError` for none, a repeat, a random
    set-up or one that does not load."""
    scenarios = [s.strip() for s in scenarios if s and s.strip()]
    if not scenarios:
        raise ArenaError("report: name at least one set-up (a preset such as open, or a scenario file)")
    if len(set(scenarios)) != len(scenarios):
        raise ArenaError("report: a set-up is named twice")
    for s in scenarios:
        if s == "random" or s.startswith("random:"):
            raise ArenaError(f"report: {s!r} is not one set-up; save one with `hotspot scenario random:N --out FILE`")
        try:
            load_scenario(s)
        except (ScenarioError, OSError, ValueError) as exc:
            raise ArenaError(f"report: set-up {s!r}: {exc}") from None
    if len({_slug(s) for s in scenarios}) != len(scenarios):
        raise ArenaError("report: two set-ups have the same name; rename one file")
    return scenarios


def check_agents(agents) -> list[str]:
    agents = [a.strip() for a in agents if a and a.strip()]
    if len(agents) < 2:
        raise ArenaError("report: give at least two agents (--agents A,B,...), e.g. scripted,best")
    if len(set(agents)) != len(agents):
        raise ArenaError("report: an agent is named twice in --agents")
    return agents


def run_report(
    scenarios,
    *,
    agents=None,
    quick: bool = False,
    games: int | None = None,
    probe_games: int | None = None,
    deployments: int | None = None,
    dice_seeds: int | None = None,
    probe_pair=("scripted", "scripted"),
    ablation: bool = True,
    plots: bool = True,
    options: RunOptions | None = None,
    run_options: RunOptions | None = None,
    **run_kwargs,
) -> dict:
    """Play and write the report of ``scenarios`` (names or scenario files)
    into the run options' ``out`` (default ``report``); returns the report
    (``report.json``'s content).  Sizes: :data:`QUICK_SIZES` with ``quick``
    else :data:`FULL_SIZES`, each overridden by its argument.  The run
    options (``options`` or its fields as keywords; ``run_options=``, its
    old name, warns until 0.4) go to every grid it plays; a rerun with the
    same arguments resumes the games already played."""
    options = RunOptions.renamed("run_report", options, run_options)
    opts = RunOptions.merge(options, run_kwargs, out="report", where="run_report")
    seed, max_turns = opts.seed, opts.max_turns
    t0 = time.perf_counter()
    scenarios = check_setups(scenarios)
    size = QUICK_SIZES if quick else FULL_SIZES
    from hotspot.arena.runner import check_count

    games = check_count("games", games if games is not None else size[0])
    probe_games = check_count("probe games", probe_games if probe_games is not None else size[1])
    deployments = check_count("deployments", deployments if deployments is not None else size[2])
    dice_seeds = check_count("dice seeds", dice_seeds if dice_seeds is not None else size[3])
    agents = check_agents(agents if agents is not None else (QUICK_AGENTS if quick else reference_ladder()))
    agents = check_agents(canonical_agents(agents))  # an agent that does not load: refused before any folder
    probe_pair = tuple(canonical_agents(probe_pair))
    if plots:
        try:
            import matplotlib  # noqa: F401  (checked before any game: the plots come last)
        except ImportError:
            raise ImportError(
                "the report's plots need matplotlib: python -m pip install 'hotspot[plots]' (or pass --no-plot)"
            ) from None
    out = opts.folder
    out.mkdir(parents=True, exist_ok=True)
    played = 0  # games played by this call (the rest read from the folders)
    report: dict[str, Any] = {
        "format": "hotspot-game-report",
        "version": 1,
        "config": {
            "scenarios": scenarios,
            "agents": agents,
            "quick": quick,
            "games_per_cell": games,
            "probe_games": probe_games,
            "probe_pair": f"{probe_pair[0]}:{probe_pair[1]}",
            "deployments": deployments,
            "dice_seeds": dice_seeds,
            "seed": seed,
            "max_turns": max_turns,
        },
        "setups": [],
    }
    grid_rows = []  # each set-up's grid games, paired with the first's after the loop
    for scenario in scenarios:
        folder = out / _slug(scenario)
        setup, rows, played_grid = _play_grid(scenario, folder, agents, games, plots, opts, report)
        grid_rows.append(rows)
        played += played_grid + _play_probes(setup, folder, probe_pair, probe_games, ablation, opts)
        setup["dice"] = dice_spread(scenario, deployments, dice_seeds, seed=seed, max_turns=max_turns)
        (folder / "dice.json").write_text(json.dumps(setup["dice"]) + "\n", encoding="utf-8")
        setup["games_files"]["dice"] = str(folder / "dice.json")
        report["setups"].append(setup)
    report["wall_s"] = round(time.perf_counter() - t0, 1)
    report["played_now"] = played
    pair_with_first(report["setups"], grid_rows)
    report["trust"] = trust_text(report)
    report["verdicts"] = verdicts(report)
    if plots:
        from .balance_plots import plot_report

        report["plots"] = {**report.get("plots", {}), **plot_report(report, out)}
    (out / "report.json").write_text(json.dumps(json_safe(report), indent=1) + "\n", encoding="utf-8")
    report["html"] = str(write_game_report(out, report))
    return report


def _play_grid(scenario, folder, agents, games, plots: bool, opts, report: dict) -> tuple[dict, list, int]:
    """A set-up's skill grid (``agents`` against each other, ``games`` a cell,
    in ``folder/grid``) and what is read from it: (the set-up's entry, the
    grid's rows, the games played now); its game-length plot's name into
    ``report``."""
    from hotspot.arena.folder import scan_games

    from .balance import run_balance

    slug = _slug(scenario)
    grid = run_balance(
        scenarios=[scenario],
        technocrats=agents,
        zieglers=agents,
        games=games,
        plot=plots,
        options=dataclasses.replace(opts, out=str(folder / "grid")),
    )
    cells = [c for c in grid["cells"] if c.get("probe") is None]
    rows = sorted(scan_games(folder / "grid" / "games.jsonl").rows.values(), key=lambda r: r["key"])
    depth = skill_depth(cells, agents, rows)
    ratings, anchor = ratings_by_seat(rows, agents)
    rated = [r["rating"] for r in ratings if r["rating"] is not None]
    span = max(rated) - min(rated) if rated else None
    diagonal = [
        {
            "agent": a,
            **{k: c[k] for k in ("games", "technocrat_win_rate", "ci_low", "ci_high", "draws", "mean_turns")},
        }
        for a in depth["order"]
        for c in cells
        if c["technocrat"] == a and c["ziegler"] == a
    ]
    if plots:
        from .balance_plots import plot_lengths

        lengths = plot_lengths(rows, cells, folder.parent / f"lengths-{slug}.png")
        if lengths is not None:
            report.setdefault("plots", {})[f"lengths-{slug}"] = lengths.name
    setup = {
        "scenario": scenario,
        "slug": slug,
        "folders": {"grid": str(folder / "grid")},
        "games_files": {"grid": str(folder / "grid" / "games.jsonl")},
        "cells": cells,
        "diagonal": diagonal,
        "skill": grid["skill"][0] if grid.get("skill") else None,
        "depth": depth,
        "ratings": ratings,
        "rating_anchor": anchor,
        "elo_span": span,
        "upsets": upsets(cells, depth["order"], rows),
        "draws": classify_draws(rows, cells),
        "decided": _decided_by_agent(rows),
        "seat_advantage": [
            {"agent": d["agent"], "technocrat_score": d["technocrat_win_rate"], "ci": [d["ci_low"], d["ci_high"]]}
            for d in diagonal
        ],
        "skill_plot": (grid.get("skill_plots") or [None])[0],
    }
    return setup, rows, grid["played_now"]


def _decided_by_agent(rows) -> list[dict]:
    """Each agent against itself: its games with a winner and the medians of
    the turn they were decided, their length and the share of it."""
    by_agent: dict = {}
    for d in decided_turns([r for r in rows if r["technocrat"] == r["ziegler"]]):
        by_agent.setdefault(d["technocrat"], []).append(d)
    return [
        {
            "agent": a,
            "games": len(ds),
            "median_decided_turn": median([d["decided_turn"] for d in ds]),
            "median_turns": median([d["turns"] for d in ds]),
            "median_share": median([d["decided_turn"] / max(d["turns"], 1) for d in ds]),
            "turns": [d["decided_turn"] for d in ds],
        }
        for a, ds in sorted(by_agent.items())
    ]


def _play_probes(setup: dict, folder, probe_pair, probe_games: int, ablation: bool, opts) -> int:
    """At the cheap pair: the fog probes and the forces one counter up and
    down (``ablation``), ``probe_games`` games a cell on the grid's seeds,
    into ``setup``; the games played now."""
    from hotspot.arena.folder import scan_games

    from .balance import parse_probes, run_balance

    scenario, slug = setup["scenario"], setup["slug"]
    pfolder = folder / "probes"
    variants = force_variants(scenario) if ablation else []
    vpaths = _write_variants(variants, folder / "setups", slug)
    fog = run_balance(
        scenarios=[scenario],
        pairs=[tuple(probe_pair)],
        games=probe_games,
        probes=parse_probes(",".join(FOG_PROBES)),
        probe_pairs=[tuple(probe_pair)],
        plot=False,
        options=dataclasses.replace(opts, out=str(pfolder)),
    )
    played = fog["played_now"]
    setup["folders"]["probes"] = str(pfolder)
    setup["games_files"]["probes"] = str(pfolder / "games.jsonl")
    setup["fog"] = fog["probes"]
    scores = {}
    if variants:
        ffolder = folder / "forces"
        played += run_balance(
            scenarios=[scenario] + vpaths,
            pairs=[tuple(probe_pair)],
            games=probe_games,
            plot=False,
            options=dataclasses.replace(opts, out=str(ffolder)),
        )["played_now"]
        setup["folders"]["forces"] = str(ffolder)
        setup["games_files"]["forces"] = str(ffolder / "games.jsonl")
        scores = scores_by_cell(scan_games(ffolder / "games.jsonl").rows.values())
    base = scores.get((scenario, *probe_pair), {})
    setup["forces"] = [
        {
            "force": v["force"],
            "step": v["step"],
            "label": v["label"],
            "scenario": v["path"],
            **paired_change(base, scores.get((v["path"], *probe_pair), {})),
        }
        for v in variants
    ]
    return played


def _write_variants(variants: list[dict], vdir, slug: str) -> list[str]:
    """Each force variant's scenario file in ``vdir`` (rewritten only when it
    changed, so a rerun resumes its games); their paths, also into ``v["path"]``."""
    vdir.mkdir(parents=True, exist_ok=True)
    vpaths = []
    for v in variants:
        path = vdir / f"{slug}.{v['force'].split('.', 1)[1].replace('.', '-')}{v['step']:+d}.json"
        text = json.dumps(v["data"], indent=1, sort_keys=True) + "\n"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        v["path"] = str(path)
        vpaths.append(str(path))
    return vpaths


def trust_text(report: dict) -> str:
    """How far to trust the report: its widest intervals, in one sentence."""
    widest = 0.0
    for s in report["setups"]:
        for c in s["cells"]:
            if c["games"]:
                widest = max(widest, (c["ci_high"] - c["ci_low"]) / 2)
    g = report["config"]["games_per_cell"]
    quick = " (--quick)" if report["config"]["quick"] else ""
    pg = report["config"]["probe_games"]
    probes = (
        f"the forces and fog probes ({pg} paired games at {report['config']['probe_pair']}) resolve smaller changes"
        if pg > g
        else f"the forces and fog probes have {pg} paired games each"
    )
    return (
        f"{g} games a cell{quick}: a cell's 95% interval is up to +-{widest:.2f} wide, so differences between cells "
        f"smaller than about {2 * widest:.2f} are not resolved here; {probes}. Rerun with more --games (the same "
        "--out resumes) where a reading matters."
    )


__all__ = ["CHEAP_STRONG", "QUICK_AGENTS", "reference_ladder", "run_report", "trust_text"]
