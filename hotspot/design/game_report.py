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
  strongest (the seat model of :mod:`.rating`); **chance against skill**
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
import html
import json
import math
import os
import re
import time
from pathlib import Path
from statistics import NormalDist

import numpy as np

from hotspot.arena.errors import ArenaError
from hotspot.arena.match import game_seed
from hotspot.arena.options import RunOptions
from hotspot.arena.pairs import pair_summary
from hotspot.arena.rating import REFERENCE_LADDER, ratings_by_seat
from hotspot.arena.stats import json_safe, wilson_interval
from hotspot.arena.tournament import canonical_agents, points
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.scenario import ScenarioError, load_scenario

from .calibrate import apply_values, base_value
from .report import DRAW_CLASSES, classify_draws
from .skill import Z95, paired_change

#: the cheap strong agent of ``quick``: the search at horizon 0 valuing plans
#: with the learned value (about as strong as ``best``, a third of its cost)
CHEAP_STRONG = "portfolio(value=learned)"
QUICK_AGENTS = ("scripted", CHEAP_STRONG)
FOG_PROBES = ("fog-technocrat", "fog-ziegler")
#: a force changed by one counter: infantry forces are counted in squads, three to a full counter (10.0)
SQUADS_A_COUNTER = 3
DECIDED = 0.9  # the value above which a side counts as winning (the turn the game is decided)

#: sizes (grid games a cell, probe games a cell, deployments, dice seeds a deployment)
QUICK_SIZES = (16, 60, 10, 10)
FULL_SIZES = (100, 400, 40, 25)


def reference_ladder() -> list[str]:
    """The evaluate protocol's reference ladder (``arena.rating.REFERENCE_LADDER``), weakest first."""
    return list(REFERENCE_LADDER)


def _slug(scenario: str) -> str:
    name = Path(scenario).stem if scenario.endswith(".json") else scenario
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "setup"


# ------------------------------------------------------------------ the readings


def force_variants(scenario: str) -> list[dict]:
    """The set-up's forces one counter smaller and one larger: ``[{"force",
    "step", "label", "data"}]`` (a change the scenario loader
    refuses, or a force at 0 made smaller, is left out)."""
    data = load_scenario(scenario)
    out = []
    for side, forces in sorted((data.get("forces") or {}).items()):
        for key in sorted(forces):
            name = f"forces.{side}.{key}"
            base = base_value(data, name)
            step = SQUADS_A_COUNTER if key.endswith("squads") else 1
            for delta in (-step, step):
                if base + delta < 0:
                    continue
                try:
                    variant = apply_values(data, {name: base + delta})
                except ArenaError:
                    continue
                out.append({"force": name, "step": delta, "label": f"{side} {key} {delta:+d}", "data": variant})
    return out


def _scores_by_cell(rows) -> dict:
    out: dict = {}
    for r in rows:
        out.setdefault((r["scenario"], r["technocrat"], r["ziegler"]), {})[int(r["index"])] = points(
            r, "technocrat", by="side"
        )
    return out


def seat_score(t_cell: dict, z_cell: dict) -> dict:
    """An agent's score over both seats from the cell where it is Technocrat
    (``t_cell``) and the one where it is Ziegler (``z_cell``): the mean of its
    two seat scores, with a 95% normal interval (each seat's binomial
    variance; conservative on mirrored seeds)."""
    a, b = t_cell["technocrat_win_rate"], 1.0 - z_cell["technocrat_win_rate"]
    va = a * (1 - a) / max(t_cell["games"], 1)
    vb = b * (1 - b) / max(z_cell["games"], 1)
    m, se = (a + b) / 2, math.sqrt(va + vb) / 2
    return {"score": m, "ci_low": m - Z95 * se, "ci_high": m + Z95 * se, "as_technocrat": a, "as_ziegler": b}


def skill_depth(cells: list[dict], agents: list[str], rows=None) -> dict:
    """The rungs of the ladder ``agents``, ordered by measured strength (each
    agent's mean score over both seats against every agent), and for each
    rung whether the stronger agent beats the weaker clearly (its score over
    both seats against it has an interval above 0.5).  With the grid's
    ``rows`` (mirrored seeds) a rung's interval is its game pairs'
    (:mod:`.pairs`; ``"interval": "pairs"``), else the two seats' binomial
    intervals combined (``"seats"``)."""
    by = {(c["technocrat"], c["ziegler"]): c for c in cells}
    strength = {}
    for a in agents:
        vals = [by[(a, b)]["technocrat_win_rate"] for b in agents if by.get((a, b), {}).get("games")]
        vals += [1 - by[(b, a)]["technocrat_win_rate"] for b in agents if by.get((b, a), {}).get("games")]
        strength[a] = sum(vals) / len(vals) if vals else math.nan
    order = sorted(agents, key=lambda a: (strength[a], a))
    rungs = []
    for weak, strong in zip(order, order[1:]):
        t, z = by.get((strong, weak)), by.get((weak, strong))
        if not t or not z or not t["games"] or not z["games"]:
            continue
        s = dict(seat_score(t, z), interval="seats")
        paired = pair_summary(rows, strong, weak) if rows is not None else {"pairs": 0}
        if paired["pairs"]:
            s.update(ci_low=paired["ci_low"], ci_high=paired["ci_high"], pairs=paired["pairs"], interval="pairs")
        rungs.append({"weaker": weak, "stronger": strong, **s, "clear": s["ci_low"] > 0.5})
    return {
        "order": order,
        "strength": strength,
        "rungs": rungs,
        "depth": sum(r["clear"] for r in rungs),
        "of": len(rungs),
    }


def upsets(cells: list[dict], order: list[str], rows) -> list[dict]:
    """Chance against skill: for each pair of different agents, how often the
    weaker one (by ``order``, weakest first) won outright, in each seat."""
    rank = {a: i for i, a in enumerate(order)}
    wins: dict = {}
    for r in rows:
        wins.setdefault((r["technocrat"], r["ziegler"]), [0, 0, 0])
        w = wins[(r["technocrat"], r["ziegler"])]
        w[0] += 1
        w[1] += r["winner"] == "technocrat"
        w[2] += r["winner"] == "ziegler"
    out = []
    for (t, z), (n, tw, zw) in sorted(wins.items()):
        if t == z or t not in rank or z not in rank:
            continue
        weaker_is_t = rank[t] < rank[z]
        k = tw if weaker_is_t else zw
        lo, hi = wilson_interval(k, n)
        out.append(
            {
                "technocrat": t,
                "ziegler": z,
                "weaker": t if weaker_is_t else z,
                "weaker_seat": "technocrat" if weaker_is_t else "ziegler",
                "games": n,
                "weaker_wins": k,
                "rate": k / n,
                "ci_low": lo,
                "ci_high": hi,
            }
        )
    return out


def decided_turns(rows, nets=None) -> list[dict]:
    """For each game with a winner: the turn from which the learned value
    (``plan_value``, the shipped networks unless ``nets``) puts the winner
    above :data:`DECIDED` at the start of every half-turn to the end, and
    the game's last turn.  Rows whose actions do not replay are left out."""
    from hotspot.agents.plan_value import game_positions, predict_plan_value, shipped_plan_value
    from hotspot.arena.folder import RowError, record_from_row
    from hotspot.core.game import Game

    if nets is None:
        nets = shipped_plan_value()
    out = []
    for row in rows:
        if row["winner"] not in ("technocrat", "ziegler"):
            continue
        try:
            rec = record_from_row(row)
        except (RowError, ValueError):
            continue
        actions = np.array(rec.actions, dtype=np.int64)
        rec.actions = []
        try:
            data = game_positions([(row["key"], Game.from_record(rec).state, actions, 0.0)])
        except ValueError:
            continue
        if not len(data["half"]):
            continue
        p = (predict_plan_value(nets, data["X"], data["half"]) + 1.0) / 2.0  # the Technocrat's expected score
        if row["winner"] == "ziegler":
            p = 1.0 - p
        turns = np.rint(data["X"][:, 13] * 50).astype(int)  # position feature 13: turn / 50
        below = np.nonzero(p < DECIDED)[0]
        first = int(below[-1]) + 1 if len(below) else 0
        decided = int(turns[first]) if first < len(turns) else int(row["turns"])
        out.append(
            {
                "key": row["key"],
                "technocrat": row["technocrat"],
                "ziegler": row["ziegler"],
                "winner": row["winner"],
                "decided_turn": decided,
                "turns": int(row["turns"]),
            }
        )
    return out


def _median(xs):
    return float(np.median(xs)) if len(xs) else None


def dice_spread(
    scenario: str, deployments: int, dice_seeds: int, *, seed: int = 0, max_turns=DEFAULT_MAX_TURNS
) -> dict:
    """The same deployments under other dice: ``deployments`` set-ups played
    by the scripted players (3.2, 3.3, D21; game ``i``'s set-up on the seed
    ``game_seed(seed, i)``), each played out ``dice_seeds`` times with the
    dice reseeded after the set-up (``dice.seed_state``; the players' own
    generators unchanged).  Returns the scores (a draw half a point) and the
    share of their variance within a deployment."""
    from hotspot.agents.base import POLICY_SCRIPTED
    from hotspot.agents.policies import play_games, policy_action
    from hotspot.core import init
    from hotspot.core.actions import NUM_ACTIONS, apply_action, current_player
    from hotspot.core.dice import seed_state
    from hotspot.core.events import EV_WIDTH
    from hotspot.core.setup import is_setup_phase

    seeds = [game_seed(seed, i) for i in range(deployments)]
    states = init(load_scenario(scenario), seeds=seeds, max_turns=max_turns)
    rng = np.array([[(s * 2 + 1) % 2**64, (s * 2 + 2) % 2**64] for s in seeds], dtype=np.uint64)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev, ev_n = np.zeros((0, EV_WIDTH), dtype=np.int32), np.zeros(1, dtype=np.int32)
    for i in range(deployments):
        s = states[i]
        while is_setup_phase(int(s["phase"])):
            a = int(policy_action(POLICY_SCRIPTED, s, mask, rng[i], current_player(s)))
            if a < 0:
                break
            apply_action(s, a, ev, ev_n)
    batch = np.repeat(states, dice_seeds)
    prng = np.repeat(rng, dice_seeds, axis=0)
    for j in range(len(batch)):
        seed_state(batch[j : j + 1], game_seed(seed + 1, j))
    counts = np.zeros(len(batch), dtype=np.int64)
    play_games(batch, POLICY_SCRIPTED, POLICY_SCRIPTED, prng, 10**7, counts)
    result = batch["result"].astype(int)
    scores = np.where(result == 1, 1.0, np.where(result == 2, 0.0, 0.5)).reshape(deployments, dice_seeds)
    total = float(scores.var())
    within = float(scores.var(axis=1).mean())
    means = scores.mean(axis=1)
    return {
        "deployments": deployments,
        "dice_seeds": dice_seeds,
        "seed": seed,
        "score": float(scores.mean()),
        "deployment_scores": [float(x) for x in means],
        "variance": total,
        "within_deployment_variance": within,
        "dice_share": within / total if total > 0 else None,
        "scores": scores.tolist(),
    }


# ------------------------------------------------------------------ the run


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
    run_options: RunOptions | None = None,
    **run_kwargs,
) -> dict:
    """Play and write the report of ``scenarios`` (names or scenario files)
    into the run options' ``out`` (default ``report``); returns the report
    (``report.json``'s content).  Sizes: :data:`QUICK_SIZES` with ``quick``
    else :data:`FULL_SIZES`, each overridden by its argument.  The run
    options (:class:`.options.RunOptions`: ``run_options`` or its fields as
    keywords: ``seed``, ``out``, ``workers``, ``max_turns``, ...) go to every
    grid it plays; a rerun with the same arguments resumes the games already
    played."""
    from .balance import parse_probes, run_balance

    opts = RunOptions.merge(run_options, run_kwargs, out="report", where="run_report")
    seed, max_turns = opts.seed, opts.max_turns
    t0 = time.perf_counter()
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
    out = Path(opts.out)
    out.mkdir(parents=True, exist_ok=True)
    played = 0  # games played by this call (the rest read from the folders)
    report = {
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
        slug = _slug(scenario)
        folder = out / slug
        grid = run_balance(
            scenarios=[scenario],
            technocrats=agents,
            zieglers=agents,
            games=games,
            plot=plots,
            run_options=dataclasses.replace(opts, out=str(folder / "grid")),
        )
        played += grid["played_now"]
        cells = [c for c in grid["cells"] if c.get("probe") is None]
        from hotspot.arena.folder import scan_games

        rows = sorted(scan_games(folder / "grid" / "games.jsonl").rows.values(), key=lambda r: r["key"])
        grid_rows.append(rows)
        depth = skill_depth(cells, agents, rows)
        ratings, anchor = ratings_by_seat(rows, agents)
        span = max(r["rating"] for r in ratings) - min(r["rating"] for r in ratings) if ratings else None
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

            lengths = plot_lengths(rows, cells, out / f"lengths-{slug}.png")
            if lengths is not None:
                report.setdefault("plots", {})[f"lengths-{slug}"] = lengths.name
        decided = decided_turns([r for r in rows if r["technocrat"] == r["ziegler"]])
        by_agent: dict = {}
        for d in decided:
            by_agent.setdefault(d["technocrat"], []).append(d)
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
            "decided": [
                {
                    "agent": a,
                    "games": len(ds),
                    "median_decided_turn": _median([d["decided_turn"] for d in ds]),
                    "median_turns": _median([d["turns"] for d in ds]),
                    "median_share": _median([d["decided_turn"] / max(d["turns"], 1) for d in ds]),
                    "turns": [d["decided_turn"] for d in ds],
                }
                for a, ds in sorted(by_agent.items())
            ],
            "seat_advantage": [
                {"agent": d["agent"], "technocrat_score": d["technocrat_win_rate"], "ci": [d["ci_low"], d["ci_high"]]}
                for d in diagonal
            ],
            "skill_plot": (grid.get("skill_plots") or [None])[0],
        }
        # the cheap pair: the fog probes and the forces one counter up and down
        pfolder = folder / "probes"
        variants = force_variants(scenario) if ablation else []
        vdir = folder / "setups"
        vdir.mkdir(parents=True, exist_ok=True)
        vpaths = []
        for v in variants:
            path = vdir / f"{slug}.{v['force'].split('.', 1)[1].replace('.', '-')}{v['step']:+d}.json"
            text = json.dumps(v["data"], indent=1, sort_keys=True) + "\n"
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
            v["path"] = str(path)
            vpaths.append(str(path))
        fog = run_balance(
            scenarios=[scenario],
            pairs=[tuple(probe_pair)],
            games=probe_games,
            probes=parse_probes(",".join(FOG_PROBES)),
            probe_pairs=[tuple(probe_pair)],
            plot=False,
            run_options=dataclasses.replace(opts, out=str(pfolder)),
        )
        played += fog["played_now"]
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
                run_options=dataclasses.replace(opts, out=str(ffolder)),
            )["played_now"]
            setup["folders"]["forces"] = str(ffolder)
            setup["games_files"]["forces"] = str(ffolder / "games.jsonl")
            scores = _scores_by_cell(scan_games(ffolder / "games.jsonl").rows.values())
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


# ------------------------------------------------------------------ the paired difference between set-ups

#: from this many per-seed differences on, the paired interval is normal; below it, Student's t
NORMAL_FROM = 30


def mean_interval(diffs, confidence: float = 0.95) -> dict:
    """The mean of ``diffs`` (per-seed differences) with its interval from their
    sample variance: ``n``, ``delta``, ``sd``, ``ci_low``, ``ci_high`` and
    ``interval`` (``"normal"`` from :data:`NORMAL_FROM` values on, ``"t"``,
    Student's t with n - 1 degrees of freedom, below; ``None`` with fewer than
    two values, which have no interval)."""
    diffs = [float(x) for x in diffs]
    n = len(diffs)
    out = {"n": n, "delta": math.fsum(diffs) / n if n else None, "sd": None, "ci_low": None, "ci_high": None}
    out["interval"] = None
    if n < 2:
        return out
    m = out["delta"]
    sd = math.sqrt(math.fsum((x - m) ** 2 for x in diffs) / (n - 1))
    if n >= NORMAL_FROM:
        q, kind = NormalDist().inv_cdf(0.5 + confidence / 2), "normal"
    else:
        from scipy.stats import t as student_t

        q, kind = float(student_t.ppf(0.5 + confidence / 2, n - 1)), "t"
    half = q * sd / math.sqrt(n)
    out.update(sd=sd, ci_low=m - half, ci_high=m + half, interval=kind)
    return out


def _by_game(rows) -> dict:
    return {(r["technocrat"], r["ziegler"], int(r["index"])): r for r in rows}


def paired_difference(base_rows, rows, base: str = "the first set-up") -> dict:
    """The Technocrat's score on ``rows``' set-up minus on ``base_rows``' (the
    grids' games), paired game by game: game ``i`` of a cell (an agent pair)
    in both is played on the same seed, so each such game gives one per-seed
    difference.  ``cells``: each cell in both, its games' base and score and
    :func:`mean_interval` of its differences; ``overall``: the same pooled
    over every cell's differences, with ``seeds`` and ``cells``.  Games that
    cannot be paired (no agent pair in common, game ``i`` on another seed, no
    game index in common): ``paired`` is False and ``why`` says so."""
    a, b = _by_game(base_rows), _by_game(rows)
    out = {"against": base, "paired": False, "why": None, "cells": [], "overall": mean_interval([])}
    pairs = sorted({k[:2] for k in a} & {k[:2] for k in b})
    if not pairs:
        out["why"] = f"no agent pair played on both it and {base} (other agents): its games cannot be paired"
        return out
    cells, pooled, seeds, base_pooled = [], [], set(), []
    for t, z in pairs:
        keys = sorted(k for k in b if k[:2] == (t, z) and k in a)
        for k in keys:
            if int(a[k]["seed"]) != int(b[k]["seed"]):
                out["why"] = (
                    f"game {k[2]} of {t}:{z} has seed {b[k]['seed']} here but {a[k]['seed']} in {base} "
                    "(another --seed?): its games cannot be paired"
                )
                return out
        if not keys:
            continue
        base_pts = [points(a[k], "technocrat", by="side") for k in keys]
        pts = [points(b[k], "technocrat", by="side") for k in keys]
        diffs = [p - q for p, q in zip(pts, base_pts)]
        cells.append({"technocrat": t, "ziegler": z, "base": float(np.mean(base_pts)), "score": float(np.mean(pts))})
        cells[-1].update(mean_interval(diffs))
        pooled += diffs
        base_pooled += base_pts
        seeds.update(int(b[k]["seed"]) for k in keys)
    if not cells:
        out["why"] = f"no game index played on both it and {base}: its games cannot be paired"
        return out
    overall = {"base": float(np.mean(base_pooled)), "score": float(np.mean(base_pooled) + np.mean(pooled))}
    overall.update(mean_interval(pooled))
    out.update(paired=True, cells=cells, overall={**overall, "seeds": len(seeds), "cells": len(cells)})
    return out


def pair_with_first(setups: list[dict], grid_rows: list) -> None:
    """Set each set-up's ``paired_difference``: against the first set-up's
    grid games (``grid_rows[0]``) for every later one, ``None`` for the first."""
    for i, (s, rows) in enumerate(zip(setups, grid_rows, strict=True)):
        s["paired_difference"] = paired_difference(grid_rows[0], rows, setups[0]["scenario"]) if i else None


def paired_text(s: dict) -> str | None:
    """The set-up's paired difference against the first in one sentence
    (``None`` for the first set-up)."""
    pd = s.get("paired_difference")
    if not pd:
        return None
    head = f"{s['scenario']} - {pd['against']}:"
    if not pd["paired"]:
        return f"{head} not paired: {pd['why']}."
    o = pd["overall"]
    over = f"paired over {o['n']} games: {o['seeds']} seeds x {o['cells']} cells"
    if o["interval"] is None:
        return f"{head} Technocrat score {o['delta']:+.3f} ({over}; one game, no interval)"
    return (
        f"{head} Technocrat score {o['delta']:+.3f} {_ci(o['ci_low'], o['ci_high'], '+.3f')} "
        f"({over}; {o['interval']} interval)"
    )


# ------------------------------------------------------------------ the verdicts


def _upset_rate(s: dict):
    games = sum(u["games"] for u in s["upsets"])
    return sum(u["weaker_wins"] for u in s["upsets"]) / games if games else None


def _draw_rate(s: dict):
    games = sum(c["games"] for c in s["cells"])
    return sum(c["draws"] for c in s["cells"]) / games if games else None


def _resolved_forces(s: dict) -> list[dict]:
    """The force changes whose paired interval lies off 0."""
    return [
        f
        for f in s.get("forces") or []
        if f["games"] and f["ci_low"] is not None and (f["ci_low"] > 0 or f["ci_high"] < 0)
    ]


def _seat_verdict(s: dict) -> str | None:
    strongest = s["depth"]["order"][-1]
    d = next((x for x in s["diagonal"] if x["agent"] == strongest), None)
    if d is None or not d["games"]:
        return None
    if d["ci_low"] > 0.5:
        verdict = "the Technocrat's seat is favoured"
    elif d["ci_high"] < 0.5:
        verdict = "the Ziegler's seat is favoured"
    else:
        verdict = "no seat advantage resolved"
    return (
        f"{s['scenario']}: the Technocrat scores {d['technocrat_win_rate']:.2f} {_ci(d['ci_low'], d['ci_high'], '.2f')}"
        f" at the strong pair ({strongest} in both seats, {d['games']} games): {verdict}."
    )


def setup_verdicts(s: dict, cfg: dict) -> list[str]:
    """The set-up's findings in a few plain sentences: the seat balance at the
    strong pair (the strongest agent against itself), skill depth and chance,
    the dice and decisiveness, the fog and the forces that matter."""
    name, out = s["scenario"], []
    seat = _seat_verdict(s)
    if seat:
        out.append(seat)
    d, upset = s["depth"], _upset_rate(s)
    skill = f"{name}: skill depth {d['depth']} of {d['of']} rungs clear ({' < '.join(d['order'])})"
    if s.get("elo_span") is not None:
        skill += f", Elo span {s['elo_span']:.0f}"
    out.append(skill + (f"; the weaker agent still wins {upset:.0%} of its games." if upset is not None else "."))
    facts = []
    share = (s.get("dice") or {}).get("dice_share")
    if share is not None:
        facts.append(f"the dice make {share:.0%} of the outcome's variance")
    if _draw_rate(s) is not None:
        facts.append(f"{_draw_rate(s):.0%} of the grid's games are draws at the turn limit")
    dec = next((x for x in s["decided"] if x["agent"] == d["order"][-1]), None)
    if dec and dec["median_decided_turn"] is not None:
        facts.append(
            f"the strong pair's games are decided at turn {dec['median_decided_turn']:.0f} of "
            f"{dec['median_turns']:.0f} (medians)"
        )
    if facts:
        out.append(f"{name}: " + "; ".join(facts) + ".")
    fog = [
        f"{x['delta']:+.2f} {_ci(x['ci_low'], x['ci_high'], '+.2f')} when the {x['probe'][4:].capitalize()} sees"
        for x in s.get("fog") or []
        if x.get("delta") is not None and x["probe"] in FOG_PROBES
    ]
    forces = ", ".join(f"{f['label']} ({f['delta']:+.2f})" for f in _resolved_forces(s))
    at = f"{name}: at {cfg['probe_pair']} ({cfg['probe_games']} games a change)"
    parts = [f"lifting the fog changes the Technocrat's score by {' and '.join(fog)}"] if fog else []
    if s.get("forces"):
        parts.append(f"forces that matter: {forces}" if forces else "no force change is resolved")
    if parts:
        out.append(f"{at}, " + "; ".join(parts) + ".")
    return out


def verdicts(report: dict) -> list[str]:
    """Every set-up's :func:`setup_verdicts`, then each later set-up's
    :func:`paired_text` against the first: the sentences the page and the
    terminal share."""
    out = [v for s in report["setups"] for v in setup_verdicts(s, report["config"])]
    return out + [t for t in (paired_text(s) for s in report["setups"]) if t]


def terminal_text(report: dict, width: int = 100) -> str:
    """What ``hotspot report`` prints: the trust sentence and the verdicts,
    plain text, each line at most ``width`` columns (a sentence goes on
    indented)."""
    import textwrap

    lines = [report["trust"], *verdicts(report)]
    return "\n".join(
        textwrap.fill(x, width, subsequent_indent="  ", break_on_hyphens=False, break_long_words=True) for x in lines
    )


# ------------------------------------------------------------------ the page


def _n(x, fmt=".3f") -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def _ci(lo, hi, fmt=".3f") -> str:
    return f"[{_n(lo, fmt)}, {_n(hi, fmt)}]"


def _table(headers, rows) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _img(name, alt, caption) -> str:
    return (
        f'<figure><img src="{html.escape(name)}" alt="{html.escape(alt)}">'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


METHODS = (
    "Every cell plays its games on mirrored seeds: game i of every cell has the seed game_seed(seed, i), so the "
    "set-up dice and the game's dice are the same whoever plays, and two cells differ by their agents, not their "
    "luck. A score is the Technocrat's: a win 1, a game still going after the turn limit (D19 revised) half a "
    "point; intervals are 95% Wilson intervals for one cell, normal intervals for an agent's score over both "
    "seats, and paired intervals (game by game over the same seeds) for the probes and the forces. Skill depth "
    "orders the agents by their measured strength (their mean score over both seats against every agent) and "
    "counts the rungs where the stronger agent's score against the weaker, over both seats, has an interval "
    "above 0.5; the Elo span is the spread of the seat model's overall ratings (hotspot.arena.rating). The turn a "
    "game is decided is the first turn from which the search's learned value (agents/plan_value, the shipped "
    "networks) puts the eventual winner above 0.9 at the start of every half-turn to the end. The Ziegler moves "
    "first in every turn (phases A-D before E-H), so the first mover and the seat are the same thing in Hot Spot: "
    "the seat advantage is the diagonal's Technocrat score. Dice against deployment: the scripted players deploy, "
    "then each deployment is played out again under other dice (the dice reseeded after the set-up); the share "
    "of the outcome's variance within a deployment is the dice's."
)


def _comparison(report) -> str:
    setups = report["setups"]
    names = [s["slug"] for s in setups]
    agents = report["config"]["agents"]
    rows = []
    for a in agents:
        row = [f"{a} against itself"]
        for s in setups:
            d = next((x for x in s["diagonal"] if x["agent"] == a), None)
            row.append(f"{_n(d['technocrat_win_rate'])} {_ci(d['ci_low'], d['ci_high'])}" if d else "-")
        rows.append(row)
    rows.append(["skill depth (clear rungs)"] + [f"{s['depth']['depth']} of {s['depth']['of']}" for s in setups])
    rows.append(["Elo span, weakest to strongest"] + [_n(s["elo_span"], ".0f") for s in setups])
    rows.append(["weaker agent wins (all pairs)"] + [_n(_upset_rate(s)) for s in setups])
    rows.append(["draws (all cells)"] + [_n(_draw_rate(s)) for s in setups])
    rows.append(
        ["mean game length (turns)"]
        + [
            _n(
                sum(c["mean_turns"] * c["games"] for c in s["cells"]) / max(1, sum(c["games"] for c in s["cells"])),
                ".1f",
            )
            for s in setups
        ]
    )
    vals = []
    for s in setups:
        strongest = s["depth"]["order"][-1]
        d = next((x for x in s["decided"] if x["agent"] == strongest), None)
        vals.append(f"{_n(d['median_decided_turn'], '.0f')} of {_n(d['median_turns'], '.0f')}" if d else "-")
    rows.append(["median turn decided (strongest agent against itself)"] + vals)
    for probe in FOG_PROBES:
        vals = []
        for s in setups:
            d = next((x for x in s.get("fog") or [] if x["probe"] == probe), None)
            vals.append(f"{_n(d.get('delta'), '+.3f')} {_ci(d.get('ci_low'), d.get('ci_high'), '+.3f')}" if d else "-")
        rows.append([f"{probe} (change)"] + vals)
    rows.append(
        ["dice share of the outcome's variance"] + [_n((s.get("dice") or {}).get("dice_share")) for s in setups]
    )
    rows.append(
        ["forces that matter (interval off 0)"]
        + [
            ", ".join(f"{f['label']} ({f['delta']:+.2f})" for f in _resolved_forces(s)) or "none resolved"
            for s in setups
        ]
    )
    found = "".join(f"<li>{html.escape(v)}</li>" for v in verdicts(report))
    return (
        '<section id="comparison"><h2>The set-ups side by side</h2>'
        + f'<h3>Verdicts</h3><ul class="verdicts">{found}</ul>'
        + _table(["reading"] + names, rows)
        + _paired_section(setups)
        + "</section>"
    )


def _paired_section(setups) -> str:
    """The paired difference of each set-up against the first, by cell and over every cell (a table)."""
    later = [s for s in setups if s.get("paired_difference")]
    if not later:
        return ""
    rows = []
    for s in later:
        pd = s["paired_difference"]
        if not pd["paired"]:
            rows.append([f"{s['scenario']} - {pd['against']}", f"not paired: {pd['why']}"] + ["-"] * 6)
            continue
        for c in [*pd["cells"], {"technocrat": "all cells", "ziegler": "", **pd["overall"]}]:
            rows.append(
                [
                    f"{s['scenario']} - {pd['against']}",
                    f"{c['technocrat']}:{c['ziegler']}" if c["ziegler"] else c["technocrat"],
                    c["n"],
                    _n(c.get("base")),
                    _n(c.get("score")),
                    _n(c["delta"], "+.3f"),
                    _ci(c["ci_low"], c["ci_high"], "+.3f"),
                    c["interval"] or "-",
                ]
            )
    first = later[0]["paired_difference"]["against"]
    return (
        f'<h3 id="paired">Each set-up against {html.escape(first)}, paired game by game</h3><p>Game i of a cell is '
        "played on the same seed with the same agents in every set-up, so each pair of games gives one per-seed "
        "difference of the Technocrat's score (this set-up minus the first); a cell's difference is their mean, "
        "with a 95% interval from their variance (normal from "
        f"{NORMAL_FROM} games on, Student's t below), and the last row pools every cell's differences.</p>"
        + _table(["set-ups", "cell", "games", "first's score", "score", "difference", "95% CI", "interval"], rows)
    )


def _setup_section(s, report, plots) -> str:
    cfg = report["config"]
    parts = [f'<h2 id="{html.escape(s["slug"])}">{html.escape(s["scenario"])}</h2>']
    g = cfg["games_per_cell"]
    parts.append(
        f"<p>Skill grid: {len(s['cells'])} cells, {g} games a cell, seeds game_seed({cfg['seed']}, 0..{g - 1}); "
        f"every game with its seed in <code>{html.escape(s['games_files']['grid'])}</code>.</p>"
    )
    parts.append(
        _table(
            ["Technocrat", "Ziegler", "games", "T score", "95% CI", "T wins", "Z wins", "draws", "mean turns"],
            [
                [
                    c["technocrat"],
                    c["ziegler"],
                    c["games"],
                    _n(c["technocrat_win_rate"]),
                    _ci(c["ci_low"], c["ci_high"]),
                    c["technocrat_wins"],
                    c["ziegler_wins"],
                    c["draws"],
                    _n(c["mean_turns"], ".1f"),
                ]
                for c in s["cells"]
            ],
        )
    )
    if s.get("skill_plot"):
        parts.append(
            _img(
                Path(os.path.relpath(s["skill_plot"], report["out"])).as_posix(),
                "skill grid",
                f"The skill grid of {s['slug']} ({g} games a cell).",
            )
        )
    d = s["depth"]
    parts.append(
        f"<h3>Skill depth</h3><p>{d['depth']} of {d['of']} rungs clear. Agents by measured strength: "
        f"{html.escape(', '.join(d['order']))}. Elo span {_n(s['elo_span'], '.0f')} "
        f"({html.escape(s['rating_anchor'])}).</p>"
        + _table(
            ["weaker", "stronger", "stronger's score, both seats", "95% CI", "as Technocrat", "as Ziegler", "clear"],
            [
                [
                    r["weaker"],
                    r["stronger"],
                    _n(r["score"]),
                    _ci(r["ci_low"], r["ci_high"]),
                    _n(r["as_technocrat"]),
                    _n(r["as_ziegler"]),
                    "yes" if r["clear"] else "no",
                ]
                for r in d["rungs"]
            ],
        )
    )
    parts.append(
        "<h3>Chance against skill</h3><p>How often the weaker agent of a pair won outright, in the seat it played "
        "(95% Wilson interval).</p>"
        + _table(
            ["Technocrat", "Ziegler", "weaker", "games", "weaker's wins", "rate", "95% CI"],
            [
                [
                    u["technocrat"],
                    u["ziegler"],
                    u["weaker"],
                    u["games"],
                    u["weaker_wins"],
                    _n(u["rate"]),
                    _ci(u["ci_low"], u["ci_high"]),
                ]
                for u in s["upsets"]
            ],
        )
    )
    dice = s.get("dice")
    if dice:
        parts.append(
            f"<p>Dice against deployment ({dice['deployments']} scripted deployments, seeds game_seed({dice['seed']}, "
            f"0..{dice['deployments'] - 1}), each played out under {dice['dice_seeds']} dice seeds): the Technocrat "
            f"scores {_n(dice['score'])}; per deployment from {_n(min(dice['deployment_scores']))} to "
            f"{_n(max(dice['deployment_scores']))}; the dice make {_n(dice['dice_share'])} of the outcome's variance "
            f"(<code>{html.escape(s['games_files'].get('dice', ''))}</code>).</p>"
        )
    parts.append(
        "<h3>Decisiveness and the turn the game is decided</h3>"
        + _table(
            [
                "agent against itself",
                "games with a winner",
                "median turn decided",
                "median length",
                "median share of the game",
            ],
            [
                [
                    x["agent"],
                    x["games"],
                    _n(x["median_decided_turn"], ".0f"),
                    _n(x["median_turns"], ".0f"),
                    _n(x["median_share"], ".2f"),
                ]
                for x in s["decided"]
            ],
        )
    )
    kinds = list(DRAW_CLASSES)
    by_cell = {c["cell"]: c for c in s["cells"]}
    if s["draws"]:
        parts.append(
            "<p>Draws (games still going after the turn limit) by final position (15.2, 15.5):</p>"
            + _table(
                ["Technocrat", "Ziegler"] + kinds,
                [
                    [by_cell[x["cell"]]["technocrat"], by_cell[x["cell"]]["ziegler"]]
                    + [x["counts"].get(k, 0) for k in kinds]
                    for x in s["draws"]
                    if x["cell"] in by_cell
                ],
            )
        )
    else:
        parts.append("<p>No draws.</p>")
    if plots.get(f"lengths-{s['slug']}"):
        parts.append(_img(plots[f"lengths-{s['slug']}"], "game lengths", f"Game lengths of every cell of {s['slug']}."))
    pg = cfg["probe_games"]
    parts.append(
        f"<h3>The price of hidden information and the forces</h3><p>At {html.escape(cfg['probe_pair'])}, "
        f"{pg} games a cell on the grid's seeds (game_seed({cfg['seed']}, 0..{pg - 1})), each change paired game by "
        f"game with the base set-up; the games in "
        + " and ".join(
            f"<code>{html.escape(s['games_files'][k])}</code>" for k in ("probes", "forces") if k in s["games_files"]
        )
        + ".</p>"
        + (
            ""
            if s.get("forces")
            else "<p>No force changes: this set-up places its counters itself (no force pools to deploy from, "
            "3.2, 3.3, D21).</p>"
        )
        + _table(
            ["change", "games", "base", "changed", "change", "95% CI"],
            [
                [
                    x["probe"],
                    x["games"],
                    _n(x.get("base_score")),
                    _n(x.get("probe_score")),
                    _n(x.get("delta"), "+.3f"),
                    _ci(x.get("ci_low"), x.get("ci_high"), "+.3f"),
                ]
                for x in s.get("fog") or []
            ]
            + [
                [
                    f"force {x['label']}",
                    x["games"],
                    _n(x.get("base")),
                    _n(x.get("score")),
                    _n(x["delta"], "+.3f"),
                    _ci(x["ci_low"], x["ci_high"], "+.3f"),
                ]
                for x in s.get("forces") or []
            ],
        )
    )
    return "\n".join(parts)


def write_game_report(out, report: dict) -> Path:
    """Write ``out/report.html`` for :func:`run_report`'s ``report``."""
    from .report import html_page

    out = Path(out)
    report["out"] = str(out)
    plots = report.get("plots") or {}
    cfg = report["config"]
    sections = [
        f'<p class="note">Set-ups {html.escape(", ".join(cfg["scenarios"]))}; agents '
        f"{html.escape(', '.join(cfg['agents']))}; master seed {cfg['seed']}; turn limit {cfg['max_turns']}; "
        f"this run {report['wall_s']} s, {report.get('played_now', 0)} games played by it (the others read from "
        "its folders).</p>",
        f"<p><b>How far to trust it.</b> {html.escape(report['trust'])}</p>",
        f'<h2 id="methods">Methods</h2><p>{html.escape(METHODS)}</p>',
        _comparison(report),
    ]
    g = cfg["games_per_cell"]
    if plots.get("diagonal"):
        sections.append(
            _img(
                plots["diagonal"],
                "the skill diagonal",
                f"The Technocrat's score, each agent against itself ({g} games a cell, seeds game_seed({cfg['seed']}, 0..{g - 1})).",
            )
        )
    if plots.get("forces"):
        sections.append(
            _img(
                plots["forces"],
                "the forces",
                f"Each force one counter down and up at {cfg['probe_pair']} ({cfg['probe_games']} paired games a change).",
            )
        )
    if plots.get("decided"):
        sections.append(
            _img(
                plots["decided"],
                "the turn the game is decided",
                "The turn from which the learned value keeps the winner above 0.9: the strongest agent against itself.",
            )
        )
    sections += [_setup_section(s, report, plots) for s in report["setups"]]
    path = out / "report.html"
    path.write_text(
        html_page("Hot Spot game report: " + ", ".join(s["slug"] for s in report["setups"]), sections), encoding="utf-8"
    )
    return path


__all__ = [
    "CHEAP_STRONG",
    "QUICK_AGENTS",
    "decided_turns",
    "dice_spread",
    "force_variants",
    "mean_interval",
    "pair_with_first",
    "paired_difference",
    "paired_text",
    "paired_change",
    "reference_ladder",
    "run_report",
    "seat_score",
    "setup_verdicts",
    "skill_depth",
    "terminal_text",
    "trust_text",
    "upsets",
    "verdicts",
    "write_game_report",
]
