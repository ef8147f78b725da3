"""The balance tool's reports say what they show: a score counts a draw as
half a point, so every such column is labelled "score", never "win rate";
the report's game-length panels and its draws table name each cell's
scenario (two scenarios' cells of the same agents are told apart)."""

from __future__ import annotations

import re

import pytest

from hotspot.arena import run_arena
from hotspot.design import run_balance
from hotspot.design.balance_plots import panel_title

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def two_scenarios(tmp_path_factory):
    out = tmp_path_factory.mktemp("two") / "bal"
    summary = run_balance(
        scenarios=("standard", "open"),
        pairs=[("random", "random")],
        games=3,
        max_turns=1,  # every game stopped after turn 1: draws
        report=True,
        out=out,
        workers=1,
        progress=False,
    )
    return out, summary


def test_the_console_labels_scores_as_scores(two_scenarios, tmp_path):
    _, summary = two_scenarios
    assert "T score" in summary["text"] and "win rate" not in summary["text"]
    arena = run_arena(pairings=[("random", "random")], games=2, max_turns=1, out=tmp_path / "a", progress=False)
    assert "T score" in arena["text"] and "Scores by side" in arena["text"]
    assert "win rate" not in arena["text"].lower() and "win as" not in arena["text"]


def test_the_draws_table_has_a_scenario_column(two_scenarios):
    out, summary = two_scenarios
    assert summary["cells"][0]["draws"] > 0
    page = (out / "report.html").read_text(encoding="utf-8")
    draws = page[page.index('id="draws"') :]
    table = draws[draws.index("<table") : draws.index("</table>")]
    assert re.search(r"<th>cell</th><th>scenario</th>", table)
    assert "<td>standard</td>" in table and "<td>open</td>" in table


def test_each_length_panel_is_titled_by_its_scenario(two_scenarios):
    _, summary = two_scenarios
    titles = [panel_title(c) for c in summary["cells"]]
    assert len(set(titles)) == len(titles) == 2
    assert titles[0].startswith("standard: ") and titles[1].startswith("open: ")
