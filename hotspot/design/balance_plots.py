"""The balance tool's plots: the Technocrat's score per cell with its 95%
interval (``balance.png``, :func:`plot_balance`) and the report's game-length
histograms (``lengths.png``, :func:`plot_lengths`).  Each needs matplotlib
(``pip install 'hotspot[plots]'``), imported when a plot is drawn.

A score here, as everywhere in the arena, counts a draw (a game stopped by
``max_turns`` without a winner) as half a point.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from hotspot.arena.match import canonical_rules
from hotspot.arena.tournament import is_draw


def _options_label(rules: dict) -> str:
    return (
        " ".join(f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in rules.items()) or "default rules"
    )


def plot_balance(table: list[dict], path, title: str = "Hot Spot balance") -> Path:
    """A PNG of the Technocrat score per cell (a draw half a point) with 95% Wilson error bars.

    With one varied numeric option the x axis is that option (a line per
    scenario and pair); otherwise each (scenario, options) is a category and
    each agent pair a series."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(
            "the balance plot needs matplotlib: python -m pip install 'hotspot[plots]' (or pass --no-plot)"
        ) from None

    path = Path(path)
    table = [t for t in table if t["games"] > 0]
    keys = []
    for t in table:
        for k in t["rules"]:
            if k not in keys:
                keys.append(k)
    varied = [k for k in keys if len({json.dumps(t["rules"].get(k)) for t in table}) > 1]
    numeric_x = len(varied) == 1 and all(
        isinstance(t["rules"].get(varied[0]), (int, float)) and not isinstance(t["rules"].get(varied[0]), bool)
        for t in table
    )
    categories = []
    if not numeric_x:
        for t in table:
            label = _cell_label(t, len({x["scenario"] for x in table}) > 1)
            if label not in categories:
                categories.append(label)
    width = 7.0 if numeric_x else max(6.0, 1.1 * len(categories) + 2.5)
    fig = Figure(figsize=(width, 4.8))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    series: dict[str, list[dict]] = {}
    for t in table:
        name = f"T {t['technocrat']} vs Z {t['ziegler']}"
        if numeric_x and len({x["scenario"] for x in table}) > 1:
            name = f"{t['scenario']}: {name}"
        series.setdefault(name, []).append(t)
    n_series = max(1, len(series))
    for j, (name, items) in enumerate(series.items()):
        if numeric_x:
            items = sorted(items, key=lambda t: t["rules"][varied[0]])
            values = sorted({t["rules"][varied[0]] for t in table})
            span = (values[-1] - values[0]) or 1.0
            offset = (j - (n_series - 1) / 2) * 0.015 * span  # keep overlapping series apart
            xs = [t["rules"][varied[0]] + offset for t in items]
        else:
            offset = (j - (n_series - 1) / 2) * 0.8 / n_series
            xs = [categories.index(_cell_label(t, len({x["scenario"] for x in table}) > 1)) + offset for t in items]
        ys = [t["technocrat_win_rate"] for t in items]
        yerr = [
            [max(0.0, t["technocrat_win_rate"] - t["ci_low"]) for t in items],
            [max(0.0, t["ci_high"] - t["technocrat_win_rate"]) for t in items],
        ]
        ax.errorbar(xs, ys, yerr=yerr, fmt="o-" if numeric_x else "o", capsize=4, label=name)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_ylim(-0.02, 1.02)
    ax.set_ylabel("Technocrat score (95% Wilson CI; a draw: half a point)")
    if numeric_x:
        ax.set_xlabel(varied[0])
        ax.set_xticks(sorted({t["rules"][varied[0]] for t in table}))
    else:
        ax.set_xticks(range(len(categories)))
        ax.set_xticklabels(
            categories,
            rotation=20 if len(categories) > 3 else 0,
            ha="right" if len(categories) > 3 else "center",
            fontsize=8,
        )
    games = sorted({t["games"] for t in table})
    ax.set_title(
        f"{title} ({games[0] if len(games) == 1 else f'{games[0]}-{games[-1]}'} games a cell)" if games else title
    )
    if series:
        ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path


def _cell_label(t: dict, with_scenario: bool) -> str:
    if not t["rules"]:
        return t["scenario"] if with_scenario else "default rules"
    opts = _options_label(t["rules"])
    return f"{t['scenario']}\n{opts}" if with_scenario else opts


def cell_label(cell: dict) -> str:
    """A cell as the report names it: its agents, and its probe or its rules options."""
    label = f"T {cell['technocrat']} vs Z {cell['ziegler']}"
    if cell.get("probe"):
        label += f" [{cell['probe']}]"
    elif cell["rules"]:
        label += " " + json.dumps(cell["rules"], sort_keys=True)
    return label


def panel_title(cell: dict) -> str:
    """A panel of ``lengths.png``: its cell's scenario, then the cell (:func:`cell_label`)."""
    return f"{cell['scenario']}: {cell_label(cell)}"


def plot_lengths(rows, cells, path) -> Path | None:
    """One histogram of game lengths (turns) per cell, wins and draws stacked, each
    panel titled by its cell's scenario and agents (and probe or rules options)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("the report's plots need matplotlib: python -m pip install 'hotspot[plots]'") from None

    index = {(c["scenario"], canonical_rules(c["rules"]), c["technocrat"], c["ziegler"]): c["cell"] for c in cells}
    turns: dict[int, dict[str, list[int]]] = {}
    for row in rows:
        c = index.get((row["scenario"], canonical_rules(row.get("rules") or {}), row["technocrat"], row["ziegler"]))
        if c is None:
            continue
        kind = "draw" if is_draw(row) else row["winner"]
        turns.setdefault(c, {"technocrat": [], "ziegler": [], "draw": []})[kind].append(int(row["turns"]))
    shown = [c for c in cells if c["cell"] in turns]
    if not shown:
        return None
    cols = min(4, len(shown))
    rows_n = math.ceil(len(shown) / cols)
    fig = Figure(figsize=(3.6 * cols, 2.6 * rows_n))
    FigureCanvasAgg(fig)
    for i, cell in enumerate(shown):
        ax = fig.add_subplot(rows_n, cols, i + 1)
        data = turns[cell["cell"]]
        top = max(max(v) for v in data.values() if v)
        bins = np.arange(0.5, top + 1.5, max(1, math.ceil(top / 30))).tolist()
        ax.hist(
            [data["technocrat"], data["ziegler"], data["draw"]],
            bins=bins,
            stacked=True,
            label=["Technocrat wins", "Ziegler wins", "draws"],
            color=["#b2182b", "#2166ac", "#999999"],
        )
        ax.set_title(panel_title(cell), fontsize=7)
        ax.tick_params(labelsize=7)
        if i == 0:
            ax.legend(fontsize=6)
        if i % cols == 0:
            ax.set_ylabel("games", fontsize=7)
        ax.set_xlabel("turns", fontsize=7)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=90)
    return path


def _figure(width, height):
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("the report's plots need matplotlib: python -m pip install 'hotspot[plots]'") from None
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def plot_report(report: dict, out) -> dict:
    """The game report's figures (``hotspot report``), in ``out``: the
    Technocrat's score along the skill diagonal for every set-up
    (``diagonal.png``), the forces one counter down and up (``forces.png``),
    the turn the game is decided (``decided.png``) and the game lengths of
    each set-up's grid (``lengths-SETUP.png``).  Returns {figure: file name}."""
    out = Path(out)
    setups = report["setups"]
    names = {}
    colours = ["#b2182b", "#2166ac", "#1b7837", "#762a83", "#e08214", "#555555"]
    # 1. the diagonal, one line a set-up
    fig = _figure(7.0, 3.6)
    ax = fig.add_subplot(1, 1, 1)
    for i, s in enumerate(setups):
        xs = np.arange(len(s["diagonal"])) + (i - (len(setups) - 1) / 2) * 0.08
        ys = [d["technocrat_win_rate"] for d in s["diagonal"]]
        err = [
            [y - d["ci_low"] for y, d in zip(ys, s["diagonal"])],
            [d["ci_high"] - y for y, d in zip(ys, s["diagonal"])],
        ]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=s["slug"], color=colours[i % len(colours)])
    if setups:
        ax.set_xticks(range(len(setups[0]["diagonal"])))
        ax.set_xticklabels([d["agent"] for d in setups[0]["diagonal"]], fontsize=7, rotation=15)
    ax.axhline(0.5, color="#999999", lw=0.8, ls="--")
    ax.set_ylim(-0.02, 1.02)
    ax.set_ylabel("Technocrat score (95% CI)")
    ax.set_title("Each agent against itself, weakest to strongest (the order of the first set-up)", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "diagonal.png", dpi=90)
    names["diagonal"] = "diagonal.png"
    # 2. the forces, one panel a set-up
    with_forces = [s for s in setups if s.get("forces")]
    if with_forces:
        fig = _figure(7.0, 0.5 + 2.6 * len(with_forces))
        for i, s in enumerate(with_forces):
            ax = fig.add_subplot(len(with_forces), 1, i + 1)
            f = [x for x in s["forces"] if x["games"]]
            at = np.arange(len(f))
            ds = [x["delta"] for x in f]
            err = [[x["delta"] - x["ci_low"] for x in f], [x["ci_high"] - x["delta"] for x in f]]
            ax.barh(at, ds, xerr=err, color=["#b2182b" if d > 0 else "#2166ac" for d in ds], capsize=2)
            ax.set_yticks(at)
            ax.set_yticklabels([x["label"] for x in f], fontsize=6)
            ax.axvline(0, color="#333333", lw=0.8)
            ax.set_title(f"{s['slug']}: change of the Technocrat's score (paired, 95% CI)", fontsize=8)
            ax.tick_params(labelsize=7)
        fig.tight_layout()
        fig.savefig(out / "forces.png", dpi=90)
        names["forces"] = "forces.png"
    # 3. the turn the game is decided, for the strongest agent against itself
    fig = _figure(7.0, 3.2)
    ax = fig.add_subplot(1, 1, 1)
    shown = False
    for s in setups:
        strongest = s["depth"]["order"][-1] if s["depth"]["order"] else None
        d = next((x for x in s["decided"] if x["agent"] == strongest), None)
        if d and d["turns"]:
            ax.hist(d["turns"], bins=range(0, max(d["turns"]) + 2), alpha=0.55, label=f"{s['slug']} ({strongest})")
            shown = True
    ax.set_xlabel("turn from which the learned value keeps the winner above 0.9")
    ax.set_ylabel("games")
    if shown:
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "decided.png", dpi=90)
    names["decided"] = "decided.png"
    return names


__all__ = ["cell_label", "panel_title", "plot_balance", "plot_lengths", "plot_report"]
