"""The balance tool's reports: the printed text (:func:`balance_text`: every
cell's Technocrat score, a draw half a point, with its interval) and one HTML
page for a designer: ``hotspot balance --report`` writes ``report.html`` (and
the PNGs it shows, drawn by :mod:`.balance_plots`) into the run's folder.

The page holds, from the folder's summary and games: the skill grid (its
heatmap, its reading in sentences, every cell's score, interval, draws and the
games the cell needed), the restricted-play probes (the paired change of the
Technocrat's score), a calibration's trials when the folder holds one
(``calibration.json``), a game-length histogram per cell (``lengths.png``,
each panel titled by its scenario), and the draws, by cell and scenario,
classified by their final position (:func:`draw_position`: the
position is replayed from the row's actions by the core's own rules).

The page is static: no script, no network; the images are files beside it.
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path

import numpy as np

from hotspot.arena.folder import RowError, record_from_row
from hotspot.arena.runner import GAMES_FILE
from hotspot.arena.stats import format_table, interval_text
from hotspot.arena.tournament import dropped_text, is_draw
from hotspot.core.control import tally_by_piece
from hotspot.core.game import Game
from hotspot.core.rules_data import CENTRAL, NO_UNIT
from hotspot.core.state import MAX_PIECES, MAX_UNITS

from .balance_plots import cell_label, plot_lengths
from .skill import probes_text, skill_text

#: The classes of a drawn game's final position, in the order they are tested.
DRAW_CLASSES = (
    "engineers on the Central Crustal beside Ziegler units",
    "engineers on the Central Crustal, no Ziegler combat unit there",
    "the Central Crustal empty",
    "engineers elsewhere",
    "no engineers left",
)


def draw_position(s) -> str:
    """The class (:data:`DRAW_CLASSES`) of a final position ``s`` (a state).

    15.2, 15.5: the Technocrat wins by taking the Central Crustal (piece 0,
    D2) with engineers while no Ziegler combat unit (D6) stands on it; a game
    stopped by a harness's turn limit (D19 revised) ends somewhere on that
    road.  The counts are ``control.tally_by_piece``'s."""
    engineers = np.zeros(MAX_PIECES, dtype=np.int64)
    blockers = np.zeros(MAX_PIECES, dtype=np.int64)
    tally_by_piece(s, engineers, blockers)
    central = 0
    for k in range(MAX_PIECES):
        if s["piece_kind"][k] == CENTRAL:
            central = k
    on_central = sum(
        1
        for u in range(MAX_UNITS)
        if s["unit_type"][u] != NO_UNIT and s["unit_cell"][u] >= 0 and s["board"][s["unit_cell"][u]] == central
    )
    if engineers[central] > 0:
        return DRAW_CLASSES[0] if blockers[central] > 0 else DRAW_CLASSES[1]
    if on_central == 0:
        return DRAW_CLASSES[2]
    return DRAW_CLASSES[3] if engineers.sum() > 0 else DRAW_CLASSES[4]


def final_state(row: dict):
    """The final state of a games.jsonl row, replayed (checked) from its actions."""
    return Game.from_record(record_from_row(row)).s


def classify_draws(rows, cells) -> list[dict]:
    """For each cell with draws: how many of its draws fall in each class."""
    from hotspot.arena.match import canonical_rules

    index = {(c["scenario"], canonical_rules(c["rules"]), c["technocrat"], c["ziegler"]): c for c in cells}
    counts: dict[int, dict[str, int]] = {}
    for row in rows:
        if not is_draw(row):
            continue
        cell = index.get((row["scenario"], canonical_rules(row.get("rules") or {}), row["technocrat"], row["ziegler"]))
        if cell is None:
            continue
        try:
            kind = draw_position(final_state(row))
        except (RowError, ValueError):
            kind = "not replayable"
        counts.setdefault(cell["cell"], {}).setdefault(kind, 0)
        counts[cell["cell"]][kind] += 1
    return [{"cell": c, "counts": counts[c]} for c in sorted(counts)]


def _num(x, fmt=".3f") -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def _table(headers, rows, cls="") -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.6em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.55em; text-align: right; }
th { background: #f2f2f2; } td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; border: 1px solid #eee; } p.note { color: #555; font-size: 0.9em; }
pre { background: #f7f7f7; padding: 0.8em; white-space: pre-wrap; }
"""


def html_page(title: str, sections: list[str]) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>\n"
        + "\n".join(sections)
        + "\n</body></html>\n"
    )


def _calibration_sections(summary: dict, prefix: str = "") -> list[str]:
    knobs = [k["name"] for k in summary["knobs"]]
    pairs = summary["pairs"]
    headers = ["trial"] + knobs + [f"{p} score [95% CI]" for p in pairs] + ["objective"]
    rows = []
    for r in summary["trials"]:
        rows.append(
            [r["trial"]]
            + [r["values"][k] for k in knobs]
            + [f"{_num(p['score'])} [{_num(p['ci_low'])}, {_num(p['ci_high'])}]" for p in r["pairs"]]
            + [_num(r["objective"], ".4f")]
        )
    confirm = [
        [c["pair"], c["games"], _num(c["score"]), f"[{_num(c['ci_low'])}, {_num(c['ci_high'])}]", "yes" if ok else "no"]
        for c, ok in zip(summary["confirm"], summary["confirm_within_band"])
    ]
    t = summary["target"]
    return [
        f'<h2 id="calibration">Calibration</h2><p>Knobs searched with optuna (TPE) towards a Technocrat score '
        f"of {t}, {summary['games']} mirrored games a trial at {html.escape(', '.join(pairs))}. Best setting: "
        f"<code>{html.escape(json.dumps(summary['best']['values']))}</code> (<code>"
        f"{html.escape(prefix + Path(summary['calibrated']).name)}</code>).</p>",
        "<h3>Confirmation</h3>"
        + _table(["pair", "games", "Technocrat score", "95% CI", f"inside [{t - 0.05:.2f}, {t + 0.05:.2f}]"], confirm),
        "<h3>Every trial</h3>" + _table(headers, rows, "trials"),
    ]


def balance_text(table: list[dict], summary: dict) -> str:
    """The balance tool's printed report: every cell's Technocrat score (a draw
    half a point) with its interval, the games, the skill grids and probes."""
    keys = []
    for t in table:
        for k in t["rules"]:
            if k not in keys:
                keys.append(k)
    columns: list[tuple] = [("scenario", "scenario")]  # (key or row -> text, header[, format])
    columns += [((lambda r, k=k: json.dumps(r["rules"].get(k)) if k in r["rules"] else ""), k) for k in keys]
    if any(t.get("probe") for t in table):
        columns.append((lambda r: r.get("probe") or "", "probe"))
    columns += [
        ("technocrat", "technocrat"),
        ("ziegler", "ziegler"),
        ("games", "games"),
        ("technocrat_wins", "T wins"),
        ("technocrat_win_rate", "T score", ".3f"),
        (lambda r: interval_text(r["ci_low"], r["ci_high"]), "95% CI"),
        ("ziegler_wins", "Z wins"),
        ("draws", "draws"),
        ("mean_turns", "turns", ".1f"),
        ("mean_actions", "actions", ".0f"),
    ]
    if summary.get("config", {}).get("precision"):
        columns.append((lambda r: r.get("stopped") or "-", "stopped by"))
    limit = summary.get("config", {}).get("max_turns")
    lines = [
        "Technocrat score by cell (95% Wilson intervals; a draw, a game stopped after turn "
        f"{'(no limit)' if limit is None else limit} without a winner (D19), is half a point):",
        format_table(table, columns),
        "",
    ]
    lines.append(
        f"Games: {summary['games']} of {summary['planned']} planned; wall time {summary['wall_s']:.1f} s "
        f"({summary['played_now']} played now, {summary['from_file']} from {GAMES_FILE})"
    )
    lines += dropped_text(summary)
    precision = summary.get("config", {}).get("precision")
    if precision:
        conf = summary["config"].get("interval_confidence", 0.95)
        lines.append(
            f"Sequential stopping: each cell played steps of {summary['config']['step']} games until its "
            f"interval's half-width was <= {precision} or it reached "
            f"{summary['config']['games_per_cell']} games (the games column: the games it needed). The intervals "
            f"are corrected for the repeated looks (Bonferroni: each look's interval at {conf:.2%}, so that all "
            "looks together hold the score with 95% confidence)."
        )
    for grid in summary.get("skill") or []:
        lines += ["", skill_text(grid)]
    if summary.get("probes"):
        lines += ["", probes_text(summary["probes"])]
    for name in summary.get("skill_plots") or []:
        lines.append(f"Skill grid heatmap: {name}")
    if summary.get("report"):
        lines.append(f"Report: {summary['report']}")
    if summary.get("plot"):
        lines.append(f"Plot: {summary['plot']}")
    if summary.get("remaining"):
        lines.append(f"{summary['remaining']} planned game(s) not played yet: rerun the same command to finish.")
    return "\n".join(lines)


def write_report(out, summary: dict, rows) -> Path:
    """Write ``out/report.html`` (and ``lengths.png``) for a balance run."""
    out = Path(out)
    cells = summary["cells"]
    sections = _run_sections(summary)
    sections.append('<h2 id="cells">Every cell</h2>' + _cells_table(cells))
    if summary.get("plot"):
        sections.append(f'<img src="{html.escape(Path(summary["plot"]).name)}" alt="balance plot">')
    if summary.get("probes"):
        sections.append(_probes_section(summary["probes"]))
    calibration = out / "calibration.json"
    if calibration.exists():
        try:
            sections += _calibration_sections(json.loads(calibration.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError):
            sections.append("<p>calibration.json could not be read.</p>")
    lengths = plot_lengths(rows, cells, out / "lengths.png")
    if lengths is not None:
        sections.append(
            '<h2 id="lengths">Game lengths</h2><p>Turns a game lasted, per cell (each panel titled by its '
            "scenario); red: Technocrat wins, blue: Ziegler wins, grey: draws.</p>"
            '<img src="lengths.png" alt="game-length histograms">'
        )
    sections.append(_draws_section(rows, cells))
    path = out / "report.html"
    path.write_text(html_page("Hot Spot balance report", sections), encoding="utf-8")
    return path


def _run_sections(summary: dict) -> list[str]:
    """The report's opening: the run's settings, its stopping rule, its skill grids."""
    config = summary["config"]
    sections = [
        f'<p class="note">Scenarios {html.escape(", ".join(config["scenarios"]))}; master seed '
        f"{config['seed']} (game <i>i</i> of every cell has the same seed: mirrored dice); turn limit "
        f"{config['max_turns']} (a game still going then is a draw, half a point, D19 revised); "
        f"{summary['games']} games in all. Every game with its seed is in games.jsonl.</p>"
    ]
    if config.get("precision"):
        sections.append(
            f'<p class="note">Sequential stopping: steps of {config["step"]} games until a cell\'s '
            f"interval has a half-width &le; {config['precision']} or {config['games_per_cell']} "
            f"games; the intervals are corrected for the repeated looks (Bonferroni: each look at "
            f"{config.get('interval_confidence', 0.95):.2%}, all of them together 95%).</p>"
        )
    for grid, name in zip(summary.get("skill") or [], summary.get("skill_plots") or []):
        sections.append(
            f'<h2 id="skill">Skill grid: {html.escape(grid["scenario"])}</h2>'
            f'<img src="{html.escape(Path(name).name)}" alt="skill grid heatmap">'
            f"<pre>{html.escape(skill_text(grid))}</pre>"
        )
    return sections


def _cells_table(cells: list[dict]) -> str:
    """Every cell of a balance run as an HTML table."""
    headers = [
        "cell",
        "scenario",
        "rules",
        "Technocrat",
        "Ziegler",
        "games",
        "stopped by",
        "T score",
        "95% CI",
        "T wins",
        "Z wins",
        "draws",
        "mean turns",
    ]
    table = [
        [
            cell_label(c),
            c["scenario"],
            json.dumps(c["rules"], sort_keys=True) if c["rules"] else "-",
            c["technocrat"],
            c["ziegler"],
            c["games"],
            c.get("stopped") or "-",
            _num(c["technocrat_win_rate"]),
            f"[{_num(c['ci_low'])}, {_num(c['ci_high'])}]",
            c["technocrat_wins"],
            c["ziegler_wins"],
            c["draws"],
            _num(c["mean_turns"], ".1f"),
        ]
        for c in cells
    ]
    return _table(headers, table, "cells")


def _probes_section(probes: list[dict]) -> str:
    """The restricted-play probes: each probe's paired change of the Technocrat's score."""
    probe_rows = [
        [
            d["probe"],
            f"{d['technocrat']} vs {d['ziegler']}",
            d["scenario"],
            d["games"],
            _num(d.get("base_score")),
            _num(d.get("probe_score")),
            _num(d.get("delta"), "+.3f"),
            f"[{_num(d.get('ci_low'), '+.3f')}, {_num(d.get('ci_high'), '+.3f')}]",
            d["measures"],
        ]
        for d in probes
    ]
    return (
        '<h2 id="probes">Restricted-play probes</h2><p>The change of the Technocrat\'s score when '
        "one side plays restricted or with more knowledge, paired over the same seeds.</p>"
        + _table(
            [
                "probe",
                "agents",
                "scenario",
                "paired games",
                "base",
                "probe",
                "change",
                "95% CI",
                "what it measures",
            ],
            probe_rows,
            "probes",
        )
        + f"<pre>{html.escape(probes_text(probes))}</pre>"
    )


def _draws_section(rows, cells: list[dict]) -> str:
    """Each draw replayed to its final position and classified, counted by cell."""
    draws = classify_draws(rows, cells)
    by_cell = {c["cell"]: c for c in cells}
    kinds = list(DRAW_CLASSES) + sorted({k for d in draws for k in d["counts"] if k not in DRAW_CLASSES})
    return (
        '<h2 id="draws">Draws by final position</h2><p>Each draw (a game still going after the turn '
        "limit) replayed to its final position and classified: where the Technocrat's engineers stand "
        "with respect to the Central Crustal (15.2, 15.5).</p>"
        + (
            _table(
                ["cell", "scenario"] + kinds,
                [
                    [cell_label(by_cell[d["cell"]]), by_cell[d["cell"]]["scenario"]]
                    + [d["counts"].get(k, 0) for k in kinds]
                    for d in draws
                ],
                "draws",
            )
            if draws
            else "<p>No draws.</p>"
        )
    )


def write_calibration_report(out, summary: dict) -> Path:
    """Write ``out/report.html`` for a calibration run."""
    path = Path(out) / "report.html"
    path.write_text(html_page("Hot Spot calibration report", _calibration_sections(summary)), encoding="utf-8")
    return path


__all__ = [
    "DRAW_CLASSES",
    "balance_text",
    "classify_draws",
    "draw_position",
    "plot_lengths",
    "write_calibration_report",
    "write_report",
]
