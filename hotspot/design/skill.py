"""Reading a balance grid: balance as a function of skill, and what a
restricted-play probe changes.

* :func:`skill_summaries`: for a skill grid (every Technocrat agent against
  every Ziegler agent, ``hotspot balance --technocrat A,B --ziegler A,B``) the
  Technocrat's score matrix, each side's agents ranked by their measured
  strength (never by the order given), how much each side's score moves from
  its weakest agent to its strongest (which side gains more from skill), and
  the diagonal (the agents that play both sides, each against itself) from
  the weakest to the strongest: does the Technocrat's edge grow or shrink as
  both sides play better.
* :func:`probe_deltas`: the change of the Technocrat's score that a probe
  (``hotspot.design.balance.PROBES``) makes, paired game by game over the
  mirrored seeds of its base cell (game ``i`` of both cells has the same
  seed), with a 95% interval.

Scores are the Technocrat's (a draw half a point, D19 revised); a Ziegler
agent's score is one minus it.  Intervals of a difference of two cells use
the normal approximation with each cell's binomial variance, which is
conservative for cells played on mirrored seeds (their results are
positively correlated); the probes' paired intervals use the paired games.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from statistics import NormalDist
from typing import Any

from hotspot.arena.gamerow import points
from hotspot.arena.match import canonical_rules

Z95 = NormalDist().inv_cdf(0.975)

#: Restricted-play probes (Jaffe et al. 2012): name -> (rules overrides, what it measures).
PROBES: dict[str, tuple[dict[str, Any], str]] = {
    "fog-technocrat": (
        {"sees_through_fog": "technocrat"},
        "the Technocrat sees through the fog (D20 off for him, R9.5b): what hidden stacks cost him",
    ),
    "fog-ziegler": (
        {"sees_through_fog": "ziegler"},
        "the Ziegler sees through the fog (D20 off for him, R9.5b): what hidden stacks cost him",
    ),
    "no-hover-second-move": (
        {"hover_second_move": 0},
        "the Ziegler hovercraft without their second movement (13.1): what it is worth",
    ),
    "no-close-assaults": (
        {"cia_enabled": False},
        "no close infantry assaults (11.2, D15): what they are worth to the Ziegler",
    ),
}


def _score(row) -> float:
    return points(row, "technocrat", by="side")


def _var(cell) -> float:
    """Variance of a cell's score estimate (binomial, conservative with draws)."""
    n, p = cell["games"], cell["technocrat_win_rate"]
    return p * (1 - p) / n if n else math.nan


def _difference(a, b) -> dict:
    """a - b of two cells' Technocrat scores with a 95% normal interval."""
    d = a["technocrat_win_rate"] - b["technocrat_win_rate"]
    se = math.sqrt(_var(a) + _var(b))
    return {"value": d, "ci_low": d - Z95 * se, "ci_high": d + Z95 * se}


def _mean_difference(pairs) -> dict:
    """The mean of the differences a - b over ``pairs`` of cells, with a 95% interval."""
    m = len(pairs)
    d = sum(a["technocrat_win_rate"] - b["technocrat_win_rate"] for a, b in pairs) / m
    se = math.sqrt(sum(_var(a) + _var(b) for a, b in pairs)) / m
    return {"value": d, "ci_low": d - Z95 * se, "ci_high": d + Z95 * se}


def _clear(diff) -> int:
    """+1 if the interval lies above 0, -1 below, 0 if it holds 0."""
    return 1 if diff["ci_low"] > 0 else -1 if diff["ci_high"] < 0 else 0


def skill_summaries(table, technocrats, zieglers) -> list[dict]:
    """One summary for each (scenario, rules) of the grid (probe cells left out)."""
    groups: dict = {}
    for cell in table:
        if cell.get("probe") is None:
            groups.setdefault((cell["scenario"], canonical_rules(cell["rules"])), []).append(cell)
    return [skill_summary(cells, technocrats, zieglers) for cells in groups.values()]


def skill_summary(cells, technocrats, zieglers) -> dict:
    by = {(c["technocrat"], c["ziegler"]): c for c in cells}
    grid = {
        "scenario": cells[0]["scenario"],
        "rules": cells[0]["rules"],
        "technocrats": list(technocrats),
        "zieglers": list(zieglers),
        "cells": [[_cell_view(by.get((t, z))) for z in zieglers] for t in technocrats],
    }
    if any(by.get((t, z)) is None or not by[(t, z)]["games"] for t in technocrats for z in zieglers):
        grid["incomplete"] = True
        return grid
    t_strength = {t: sum(by[(t, z)]["technocrat_win_rate"] for z in zieglers) / len(zieglers) for t in technocrats}
    z_strength = {
        z: sum(1 - by[(t, z)]["technocrat_win_rate"] for t in technocrats) / len(technocrats) for z in zieglers
    }
    t_rank = sorted(technocrats, key=lambda a: t_strength[a])
    z_rank = sorted(zieglers, key=lambda a: z_strength[a])
    grid["technocrat_strength"] = t_strength
    grid["ziegler_strength"] = z_strength
    grid["technocrat_order"] = t_rank  # weakest first, by measured strength
    grid["ziegler_order"] = z_rank
    if len(technocrats) > 1:  # the Technocrat's score from his weakest agent to his strongest
        grid["technocrat_gain"] = dict(
            _mean_difference([(by[(t_rank[-1], z)], by[(t_rank[0], z)]) for z in zieglers]),
            weakest=t_rank[0],
            strongest=t_rank[-1],
        )
    if len(zieglers) > 1:  # the Ziegler's score (1 - T's) from his weakest agent to his strongest
        grid["ziegler_gain"] = dict(
            _mean_difference([(by[(t, z_rank[0])], by[(t, z_rank[-1])]) for t in technocrats]),
            weakest=z_rank[0],
            strongest=z_rank[-1],
        )
    if "technocrat_gain" in grid and "ziegler_gain" in grid:
        tg, zg = grid["technocrat_gain"], grid["ziegler_gain"]
        d = tg["value"] - zg["value"]
        se = math.sqrt(
            ((tg["ci_high"] - tg["ci_low"]) / (2 * Z95)) ** 2 + ((zg["ci_high"] - zg["ci_low"]) / (2 * Z95)) ** 2
        )
        grid["gains_more"] = {1: "technocrat", -1: "ziegler", 0: None}[
            _clear({"ci_low": d - Z95 * se, "ci_high": d + Z95 * se})
        ]
    both = [a for a in technocrats if a in zieglers]
    if len(both) > 1:
        order = sorted(both, key=lambda a: t_strength[a] + z_strength[a])
        diagonal = [dict(agent=a, **_cell_view(by[(a, a)])) for a in order]
        change = _difference(by[(order[-1], order[-1])], by[(order[0], order[0])])
        grid["diagonal"] = diagonal
        grid["diagonal_change"] = change
        grid["diagonal_trend"] = {1: "grows", -1: "shrinks", 0: "no clear change"}[_clear(change)]
    # An agent that loses every game it plays as a side (a Technocrat scoring 0
    # in every cell, a Ziegler against whom every Technocrat scores 1) makes
    # that side's "gain from skill" the distance from a player who never wins;
    # the grid is then read again without such agents.
    # (repeated: without a hopeless Technocrat, a Ziegler may lose every game left)
    rest_t, rest_z, hopeless = list(technocrats), list(zieglers), []
    while True:
        out_t = [t for t in rest_t if all(by[(t, z)]["technocrat_win_rate"] == 0.0 for z in rest_z)]
        out_z = [z for z in rest_z if all(by[(t, z)]["technocrat_win_rate"] == 1.0 for t in rest_t)]
        if not (out_t or out_z) or len(rest_t) - len(out_t) < 2 or len(rest_z) - len(out_z) < 2:
            break
        hopeless += [f"{a} as Technocrat" for a in out_t] + [f"{a} as Ziegler" for a in out_z]
        rest_t = [t for t in rest_t if t not in out_t]
        rest_z = [z for z in rest_z if z not in out_z]
    if hopeless:
        grid["without"] = hopeless
        grid["competent"] = skill_summary([by[(t, z)] for t in rest_t for z in rest_z], rest_t, rest_z)
    return grid


def _cell_view(cell) -> dict:
    if cell is None:
        return {"games": 0, "score": math.nan, "ci_low": math.nan, "ci_high": math.nan, "stopped": ""}
    return {
        "games": cell["games"],
        "score": cell["technocrat_win_rate"],
        "ci_low": cell["ci_low"],
        "ci_high": cell["ci_high"],
        "stopped": cell.get("stopped", ""),
        "draws": cell["draws"],
        "mean_turns": cell["mean_turns"],
    }


def _pm(d) -> str:
    return f"{d['value']:+.3f} [{d['ci_low']:+.3f}, {d['ci_high']:+.3f}]"


def skill_text(grid: dict) -> str:
    """The grid's reading in sentences, from its numbers."""
    where = grid["scenario"] + (f" ({json.dumps(grid['rules'], sort_keys=True)})" if grid["rules"] else "")
    if grid.get("incomplete"):
        return f"Skill grid on {where}: not every cell has games yet; rerun to finish it."
    lines = [f"Skill grid on {where} (Technocrat score, 95% intervals of differences):"]
    tg, zg = grid.get("technocrat_gain"), grid.get("ziegler_gain")
    if tg:
        lines.append(
            f"- The Technocrat's score moves {_pm(tg)} from his weakest agent ({tg['weakest']}) to his "
            f"strongest ({tg['strongest']}), averaged over the Ziegler agents."
        )
    if zg:
        lines.append(
            f"- The Ziegler's score moves {_pm(zg)} from his weakest agent ({zg['weakest']}) to his "
            f"strongest ({zg['strongest']}), averaged over the Technocrat agents."
        )
    if tg and zg:
        who = grid.get("gains_more")
        lines.append(
            f"- {'The ' + who.capitalize() + ' gains more from skill.' if who else 'Neither side gains clearly more from skill (the difference of the two gains holds 0).'}"
        )
    if grid.get("diagonal"):
        seq = ", ".join(f"{d['agent']} {d['score']:.3f}" for d in grid["diagonal"])
        lines.append(
            f"- Along the diagonal (each agent against itself, weakest to strongest: {seq}) the "
            f"Technocrat's edge {grid['diagonal_trend']} ({_pm(grid['diagonal_change'])} from "
            f"{grid['diagonal'][0]['agent']} to {grid['diagonal'][-1]['agent']})."
        )
    if grid.get("competent"):
        lines.append(
            f"Without {', '.join(grid['without'])} (never winning a game there, so a gain measured from it "
            f"is the distance from a player who never wins):"
        )
        lines += skill_text(grid["competent"]).splitlines()[1:]
    return "\n".join(lines)


def plot_skill_grid(grid: dict, path) -> Path:
    """A heatmap PNG of the Technocrat's score for every pair, with intervals and games."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(
            "the skill grid's heatmap needs matplotlib: python -m pip install 'hotspot[plots]' (or pass --no-plot)"
        ) from None

    ts, zs = grid["technocrats"], grid["zieglers"]
    values = [[c["score"] for c in row] for row in grid["cells"]]
    fig = Figure(figsize=(1.9 * len(zs) + 2.6, 1.1 * len(ts) + 1.8))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    image = ax.imshow(values, cmap="RdBu_r", vmin=0.0, vmax=1.0, aspect="auto")
    for i, row in enumerate(grid["cells"]):
        for j, c in enumerate(row):
            if not c["games"]:
                continue
            half = (c["ci_high"] - c["ci_low"]) / 2
            ink = "white" if abs(c["score"] - 0.5) > 0.3 else "black"
            ax.text(
                j, i, f"{c['score']:.3f}\n±{half:.3f}\nn={c['games']}", ha="center", va="center", fontsize=8, color=ink
            )
    ax.set_xticks(range(len(zs)))
    ax.set_xticklabels(zs, rotation=20, ha="right", fontsize=8)
    ax.set_yticks(range(len(ts)))
    ax.set_yticklabels(ts, fontsize=8)
    ax.set_xlabel("Ziegler agent")
    ax.set_ylabel("Technocrat agent")
    ax.set_title(f"Technocrat score on {grid['scenario']} (95% Wilson half-width, games)", fontsize=10)
    fig.colorbar(image, ax=ax, label="Technocrat score")
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path


def probe_deltas(table, rows) -> list[dict]:
    """For each probe cell: the Technocrat's score in it and in its base cell
    over the games both have played (same seeds), and the paired change
    with its 95% interval."""
    scores: dict = {}
    for row in rows:
        key = (row["scenario"], canonical_rules(row.get("rules") or {}), row["technocrat"], row["ziegler"])
        scores.setdefault(key, {})[int(row["index"])] = _score(row)
    out = []
    for cell in table:
        if cell.get("probe") is None:
            continue
        base_key = (cell["scenario"], canonical_rules(cell["base_rules"]), cell["technocrat"], cell["ziegler"])
        probe_key = (cell["scenario"], canonical_rules(cell["rules"]), cell["technocrat"], cell["ziegler"])
        base, probe = scores.get(base_key, {}), scores.get(probe_key, {})
        common = sorted(set(base) & set(probe))
        entry = {
            "probe": cell["probe"],
            "scenario": cell["scenario"],
            "rules": cell["base_rules"],
            "technocrat": cell["technocrat"],
            "ziegler": cell["ziegler"],
            "games": len(common),
        }
        entry["measures"] = PROBES[cell["probe"]][1] if cell["probe"] in PROBES else f"rules {cell['probe']}"
        if common:
            d = paired_change(base, probe)
            entry.update(
                base_score=d["base"], probe_score=d["score"], delta=d["delta"], ci_low=d["ci_low"], ci_high=d["ci_high"]
            )
        out.append(entry)
    return out


def paired_change(base: dict, other: dict) -> dict:
    """The change from ``base`` to ``other`` (game index -> score), paired over
    the games both have (the same seeds): ``games``, the two mean scores
    (``base``, ``score``), the mean difference ``delta`` and its 95% interval."""
    common = sorted(set(base) & set(other))
    n = len(common)
    if not n:
        return {"games": 0, "delta": None, "ci_low": None, "ci_high": None}
    d = [other[i] - base[i] for i in common]
    m = sum(d) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1)) if n > 1 else math.nan
    half = Z95 * sd / math.sqrt(n) if n > 1 else math.nan
    return {
        "games": n,
        "base": sum(base[i] for i in common) / n,
        "score": sum(other[i] for i in common) / n,
        "delta": m,
        "ci_low": m - half,
        "ci_high": m + half,
    }


def probes_text(deltas) -> str:
    lines = ["Restricted-play probes: the change of the Technocrat's score, paired over the same seeds (95% interval):"]
    for d in deltas:
        if not d["games"]:
            lines.append(f"- {d['probe']} ({d['technocrat']} vs {d['ziegler']}): no games yet")
            continue
        lines.append(
            f"- {d['probe']} ({d['technocrat']} vs {d['ziegler']}, {d['scenario']}, {d['games']} games): "
            f"{d['base_score']:.3f} -> {d['probe_score']:.3f}, change {d['delta']:+.3f} "
            f"[{d['ci_low']:+.3f}, {d['ci_high']:+.3f}]; {d['measures']}"
        )
    return "\n".join(lines)


__all__ = [
    "PROBES",
    "paired_change",
    "plot_skill_grid",
    "probe_deltas",
    "probes_text",
    "skill_summaries",
    "skill_summary",
    "skill_text",
]
