"""The game report's page (``hotspot report``, :mod:`.game_report`):
``report.html`` written from a finished report dict, a static page (no
script, no network) showing the PNGs the run drew."""

from __future__ import annotations

import html
import os
from pathlib import Path

from hotspot.arena.stats import interval_text, number_text

from .readings import FOG_PROBES, NORMAL_FROM, draw_rate, resolved_forces, upset_rate, verdicts
from .report import DRAW_CLASSES

# ------------------------------------------------------------------ the page


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
    "above 0.5; the Elo span is the spread of the agents' overall ratings (the Elo of each one's score over both "
    "seats, hotspot.arena.rating). The turn a "
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
            row.append(
                f"{number_text(d['technocrat_win_rate'])} {interval_text(d['ci_low'], d['ci_high'])}" if d else "-"
            )
        rows.append(row)
    rows.append(["skill depth (clear rungs)"] + [f"{s['depth']['depth']} of {s['depth']['of']}" for s in setups])
    rows.append(["Elo span, weakest to strongest"] + [number_text(s["elo_span"], ".0f") for s in setups])
    rows.append(["weaker agent wins (all pairs)"] + [number_text(upset_rate(s)) for s in setups])
    rows.append(["draws (all cells)"] + [number_text(draw_rate(s)) for s in setups])
    rows.append(
        ["mean game length (turns)"]
        + [
            number_text(
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
        vals.append(
            f"{number_text(d['median_decided_turn'], '.0f')} of {number_text(d['median_turns'], '.0f')}" if d else "-"
        )
    rows.append(["median turn decided (strongest agent against itself)"] + vals)
    for probe in FOG_PROBES:
        vals = []
        for s in setups:
            d = next((x for x in s.get("fog") or [] if x["probe"] == probe), None)
            vals.append(
                f"{number_text(d.get('delta'), '+.3f')} {interval_text(d.get('ci_low'), d.get('ci_high'), '+.3f')}"
                if d
                else "-"
            )
        rows.append([f"{probe} (change)"] + vals)
    rows.append(
        ["dice share of the outcome's variance"]
        + [number_text((s.get("dice") or {}).get("dice_share")) for s in setups]
    )
    rows.append(
        ["forces that matter (interval off 0)"]
        + [
            ", ".join(f"{f['label']} ({f['delta']:+.2f})" for f in resolved_forces(s)) or "none resolved"
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
                    number_text(c.get("base")),
                    number_text(c.get("score")),
                    number_text(c["delta"], "+.3f"),
                    interval_text(c["ci_low"], c["ci_high"], "+.3f"),
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


def _grid_part(s, report) -> list[str]:
    """The skill grid's table and plot."""
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
                    number_text(c["technocrat_win_rate"]),
                    interval_text(c["ci_low"], c["ci_high"]),
                    c["technocrat_wins"],
                    c["ziegler_wins"],
                    c["draws"],
                    number_text(c["mean_turns"], ".1f"),
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
    return parts


def _depth_part(s) -> list[str]:
    """Skill depth and chance against skill."""
    parts = []
    d = s["depth"]
    parts.append(
        f"<h3>Skill depth</h3><p>{d['depth']} of {d['of']} rungs clear. Agents by measured strength: "
        f"{html.escape(', '.join(d['order']))}. Elo span {number_text(s['elo_span'], '.0f')} "
        f"({html.escape(s['rating_anchor'])}).</p>"
        + _table(
            ["weaker", "stronger", "stronger's score, both seats", "95% CI", "as Technocrat", "as Ziegler", "clear"],
            [
                [
                    r["weaker"],
                    r["stronger"],
                    number_text(r["score"]),
                    interval_text(r["ci_low"], r["ci_high"]),
                    number_text(r["as_technocrat"]),
                    number_text(r["as_ziegler"]),
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
                    number_text(u["rate"]),
                    interval_text(u["ci_low"], u["ci_high"]),
                ]
                for u in s["upsets"]
            ],
        )
    )
    return parts


def _dice_part(s) -> list[str]:
    """Dice against deployment, where it was measured."""
    parts = []
    dice = s.get("dice")
    if dice:
        parts.append(
            f"<p>Dice against deployment ({dice['deployments']} scripted deployments, seeds game_seed({dice['seed']}, "
            f"0..{dice['deployments'] - 1}), each played out under {dice['dice_seeds']} dice seeds): the Technocrat "
            f"scores {number_text(dice['score'])}; per deployment from {number_text(min(dice['deployment_scores']))} to "
            f"{number_text(max(dice['deployment_scores']))}; the dice make {number_text(dice['dice_share'])} of the outcome's variance "
            f"(<code>{html.escape(s['games_files'].get('dice', ''))}</code>).</p>"
        )
    return parts


def _decided_part(s, plots) -> list[str]:
    """Decisiveness, the turn a game is decided, the draws and the game lengths."""
    parts = []
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
                    number_text(x["median_decided_turn"], ".0f"),
                    number_text(x["median_turns"], ".0f"),
                    number_text(x["median_share"], ".2f"),
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
    return parts


def _probes_part(s, cfg) -> list[str]:
    """The price of hidden information and the forces."""
    parts = []
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
                    number_text(x.get("base_score")),
                    number_text(x.get("probe_score")),
                    number_text(x.get("delta"), "+.3f"),
                    interval_text(x.get("ci_low"), x.get("ci_high"), "+.3f"),
                ]
                for x in s.get("fog") or []
            ]
            + [
                [
                    f"force {x['label']}",
                    x["games"],
                    number_text(x.get("base")),
                    number_text(x.get("score")),
                    number_text(x["delta"], "+.3f"),
                    interval_text(x["ci_low"], x["ci_high"], "+.3f"),
                ]
                for x in s.get("forces") or []
            ],
        )
    )
    return parts


def _setup_section(s, report, plots) -> str:
    """One set-up's section of the page."""
    parts = _grid_part(s, report) + _depth_part(s) + _dice_part(s) + _decided_part(s, plots)
    return "\n".join(parts + _probes_part(s, report["config"]))


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


__all__ = ["write_game_report"]
