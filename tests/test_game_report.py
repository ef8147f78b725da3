"""``hotspot report``: the game report of set-ups (hotspot.design.game_report).

A tiny report (random and scripted, a few games a cell) is played once for
the module; the tests read its numbers against the games it kept, check the
readings' arithmetic on grids made by hand, and open the page in headless
Chromium."""

import copy
import html
import json
import math

import numpy as np
import pytest
from test_viewer import chromium_page, needs_chromium

from hotspot.arena import scan_games
from hotspot.cli import main
from hotspot.core.scenario import load_scenario
from hotspot.design.calibrate import base_value
from hotspot.design.game_report import run_report, trust_text
from hotspot.design.readings import (
    FOG_PROBES,
    SQUADS_A_COUNTER,
    decided_turns,
    dice_spread,
    force_variants,
    mean_interval,
    pair_with_first,
    paired_difference,
    paired_text,
    seat_score,
    skill_depth,
    terminal_text,
    verdicts,
)
from hotspot.design.skill import paired_change

SIZES = dict(agents=["random", "scripted"], games=4, probe_games=4, deployments=2, dice_seeds=2)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    rep = run_report(["open"], out=str(out), workers=1, progress=False, **SIZES)
    return out, rep


def test_the_report_holds_every_reading_of_every_setup(report):
    """report.json: the grid (every agent against every one, both seats), the
    depth, the upsets, the turn decided, the fog probes, the forces, the dice."""
    out, rep = report
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["format"] == "hotspot-game-report"
    (s,) = data["setups"]
    pairs = {(c["technocrat"], c["ziegler"]) for c in s["cells"]}
    assert pairs == {(a, b) for a in SIZES["agents"] for b in SIZES["agents"]}
    assert all(c["games"] == SIZES["games"] for c in s["cells"])
    assert [d["agent"] for d in s["diagonal"]] == s["depth"]["order"]
    assert {p["probe"] for p in s["fog"]} == set(FOG_PROBES)
    assert all(p["games"] == SIZES["probe_games"] for p in s["fog"])
    assert s["forces"] and all(f["games"] == SIZES["probe_games"] for f in s["forces"])
    dice = s["dice"]
    assert np.array(dice["scores"]).shape == (SIZES["deployments"], SIZES["dice_seeds"])
    assert 0.0 <= dice["dice_share"] <= 1.0 or dice["dice_share"] is None
    assert data["played_now"] > 0 and data["trust"].startswith("4 games a cell")


def test_the_grid_cells_are_the_kept_games(report):
    """Each cell's score is its games' (a win 1, a draw half a point, D19 revised), read from games.jsonl."""
    out, rep = report
    rows = scan_games(out / "open" / "grid" / "games.jsonl").rows.values()
    for c in rep["setups"][0]["cells"]:
        games = [r for r in rows if (r["technocrat"], r["ziegler"]) == (c["technocrat"], c["ziegler"])]
        pts = sum(1.0 if r["winner"] == "technocrat" else 0.0 if r["winner"] == "ziegler" else 0.5 for r in games)
        assert len(games) == c["games"] and math.isclose(pts / len(games), c["technocrat_win_rate"])


def test_the_weaker_agent_is_the_one_measured_weaker(report):
    """Chance against skill counts the outright wins of the agent ranked lower by the grid itself."""
    _, rep = report
    s = rep["setups"][0]
    order = s["depth"]["order"]
    for u in s["upsets"]:
        other = u["ziegler"] if u["weaker"] == u["technocrat"] else u["technocrat"]
        assert order.index(u["weaker"]) < order.index(other)
        assert 0 <= u["weaker_wins"] <= u["games"]


def test_a_game_is_decided_no_later_than_its_end(report):
    """The turn the learned value keeps the winner above 0.9 lies within the game (15.5: the game ends when won)."""
    out, rep = report
    rows = [r for r in scan_games(out / "open" / "grid" / "games.jsonl").rows.values()]
    decided = decided_turns(rows)
    assert decided, "the tiny grid has games with a winner"
    for d in decided:
        assert 0 <= d["decided_turn"] <= d["turns"]


def test_a_rerun_resumes_without_playing(report):
    """The same command again reads the folders: no game is played twice."""
    out, rep = report
    again = run_report(["open"], out=str(out), workers=1, progress=False, **SIZES)
    assert again["played_now"] == 0
    assert again["setups"][0]["cells"] == rep["setups"][0]["cells"]


def test_force_variants_change_one_force_by_one_counter():
    """3.2, 3.3: each variant is the set-up with one force one counter smaller
    or larger (an infantry force by three squads: a full counter, 10.0); the rest unchanged."""
    base = load_scenario("open")
    variants = force_variants("open")
    assert variants
    for v in variants:
        changed = [
            (side, key)
            for side, forces in base["forces"].items()
            for key in forces
            if v["data"]["forces"][side][key] != forces[key]
        ]
        side, key = v["force"].split(".")[1:]
        assert changed == [(side, key)]
        step = SQUADS_A_COUNTER if key.endswith("squads") else 1
        assert v["data"]["forces"][side][key] - base_value(base, v["force"]) == v["step"] and abs(v["step"]) == step


def cell(t, z, p, n=400):
    return {"technocrat": t, "ziegler": z, "technocrat_win_rate": p, "games": n}


def test_skill_depth_counts_the_clear_rungs():
    """A rung is clear when the stronger agent's score over both seats has an interval above 0.5."""

    # a beats b clearly (0.9 as Technocrat, 0.8 as Ziegler); b and c cannot be told apart
    cells = [
        cell("a", "a", 0.5),
        cell("b", "b", 0.5),
        cell("c", "c", 0.5),
        cell("a", "b", 0.9),
        cell("b", "a", 0.2),
        cell("a", "c", 0.9),
        cell("c", "a", 0.2),
        cell("b", "c", 0.51),
        cell("c", "b", 0.5),
    ]
    depth = skill_depth(cells, ["c", "a", "b"])
    assert depth["order"][-1] == "a"
    assert (depth["depth"], depth["of"]) == (1, 2)
    top = depth["rungs"][-1]
    assert top["stronger"] == "a" and math.isclose(top["score"], 0.85) and top["clear"]
    s = seat_score(cell("a", "b", 0.9), cell("b", "a", 0.2))
    assert math.isclose(s["as_ziegler"], 0.8) and s["ci_low"] < 0.85 < s["ci_high"]
    assert top["interval"] == "seats"  # no rows: the two seats' intervals


def test_a_rung_of_the_skill_ladder_takes_its_interval_from_the_game_pairs():
    """On mirrored seeds the rung 'a over b' is judged by a's pairs (game i in each seat on one seed)."""
    from hotspot.arena.pairs import pair_summary

    def row(t, z, winner, i):
        return {"technocrat": t, "ziegler": z, "winner": winner, "index": i, "seed": 50 + i}

    rows = []
    for i in range(20):  # a wins every game as Technocrat, and as Ziegler every other game
        rows += [row("a", "b", "technocrat", i), row("b", "a", "ziegler" if i % 2 else "technocrat", i)]
    cells = [cell("a", "b", 1.0), cell("b", "a", 0.5), cell("a", "a", 0.5), cell("b", "b", 0.5)]
    (rung,) = skill_depth(cells, ["a", "b"], rows)["rungs"]
    expected = pair_summary(rows, "a", "b")
    assert rung["interval"] == "pairs" and rung["pairs"] == 20
    assert (rung["ci_low"], rung["ci_high"]) == (expected["ci_low"], expected["ci_high"])


def test_paired_change_is_the_mean_of_the_game_by_game_differences():
    base = {0: 1.0, 1: 0.0, 2: 0.5, 3: 1.0}
    other = {0: 1.0, 1: 1.0, 2: 0.5, 9: 0.0}  # game 9 has no base game: left out
    d = paired_change(base, other)
    assert d["games"] == 3 and math.isclose(d["delta"], 1 / 3)
    assert d["ci_low"] < d["delta"] < d["ci_high"]
    assert paired_change(base, {})["games"] == 0


def test_dice_spread_is_deterministic_and_one_seed_has_no_dice_variance():
    """The same seed gives the same games; with one dice seed a deployment has no spread of its own."""
    a = dice_spread("open", 2, 2, seed=5, max_turns=30)
    b = dice_spread("open", 2, 2, seed=5, max_turns=30)
    assert a["scores"] == b["scores"]
    one = dice_spread("open", 2, 1, seed=5, max_turns=30)
    assert one["within_deployment_variance"] == 0.0


T975 = {3: 3.182446305284263, 7: 2.364624251592785}  # Student's t, 97.5% quantile, by degrees of freedom (tables)


def _game(t, z, i, winner, seed=None):
    """A grid game row: agents, index, seed (game i's, unless given) and winner (None: a draw)."""
    return {"technocrat": t, "ziegler": z, "index": i, "seed": 1000 + i if seed is None else seed, "winner": winner}


def _rows(cell, winners):
    return [_game(*cell, i, w) for i, w in enumerate(winners)]


def test_the_paired_difference_is_the_mean_of_per_seed_differences_with_a_t_interval():
    """By hand: a cell whose per-seed differences (set-up minus first) are 1, 0, 1/2, -1/2 has the
    difference 1/4, sd sqrt(1.25 / 3) and, from 4 seeds (fewer than 30), the half-width t(0.975, 3) sd / 2;
    pooled with a cell of no change (8 differences) the mean is 1/8, the variance 1.375 / 7, t with 7 df."""
    T, Z = "technocrat", "ziegler"
    base = _rows(("a", "b"), [Z, Z, Z, T]) + _rows(("b", "a"), [T, Z, None, T])
    other = _rows(("a", "b"), [T, Z, None, None]) + _rows(("b", "a"), [T, Z, None, T])
    pd = paired_difference(base, other, "base")
    assert pd["paired"] and pd["why"] is None and pd["against"] == "base"
    ab, ba = pd["cells"]
    assert (ab["technocrat"], ab["ziegler"], ab["n"], ab["interval"]) == ("a", "b", 4, "t")
    assert math.isclose(ab["base"], 0.25) and math.isclose(ab["score"], 0.5) and math.isclose(ab["delta"], 0.25)
    half = T975[3] * math.sqrt(1.25 / 3) / math.sqrt(4)
    assert math.isclose(ab["ci_low"], 0.25 - half) and math.isclose(ab["ci_high"], 0.25 + half)
    assert ba["delta"] == 0.0 and ba["ci_low"] == ba["ci_high"] == 0.0
    o = pd["overall"]
    assert (o["n"], o["seeds"], o["cells"], o["interval"]) == (8, 4, 2, "t")
    half = T975[7] * math.sqrt(1.375 / 7) / math.sqrt(8)
    assert math.isclose(o["delta"], 0.125) and math.isclose(o["ci_low"], 0.125 - half)
    assert math.isclose(o["ci_high"], 0.125 + half)
    s = {"scenario": "mine.json", "paired_difference": pd}
    assert paired_text(s) == (
        f"mine.json - base: Technocrat score +0.125 [{0.125 - half:+.3f}, {0.125 + half:+.3f}] "
        "(paired over 8 games: 4 seeds x 2 cells; t interval)"
    )


def test_from_30_differences_on_the_interval_is_normal():
    """Fewer than 30 per-seed differences: Student's t; 30 or more: the normal quantile (1.96)."""
    thirty, twenty_nine = mean_interval([0.0, 1.0] * 15), mean_interval([0.0, 1.0] * 14 + [0.5])
    assert thirty["interval"] == "normal" and twenty_nine["interval"] == "t"
    sd = math.sqrt(30 * 0.25 / 29)
    assert math.isclose(thirty["ci_high"] - thirty["delta"], 1.959963984540054 * sd / math.sqrt(30))
    assert mean_interval([0.5])["interval"] is None and mean_interval([])["n"] == 0


def test_identical_setups_differ_by_zero_with_a_zero_width_interval(report):
    """The fixture's grid paired with itself: every per-seed difference is 0, so every cell and the pool
    have the difference 0 and an interval of width 0 (the variance is the per-seed differences')."""
    out, rep = report
    rows = list(scan_games(out / "open" / "grid" / "games.jsonl").rows.values())
    pd = paired_difference(rows, rows, "open")
    assert pd["paired"] and len(pd["cells"]) == len(SIZES["agents"]) ** 2
    for c in [*pd["cells"], pd["overall"]]:
        assert c["delta"] == 0.0 and c["ci_low"] == c["ci_high"] == 0.0
    assert pd["overall"]["n"] == SIZES["games"] * len(pd["cells"]) and pd["overall"]["seeds"] == SIZES["games"]
    assert rep["setups"][0]["paired_difference"] is None  # the first set-up is the one the others pair with


def test_games_that_cannot_be_paired_are_refused_in_a_sentence():
    """Game i on another seed, or no agent pair in common: no number, a sentence saying why."""
    T = "technocrat"
    base = _rows(("a", "b"), [T, T])
    reseeded = [_game("a", "b", 0, T), _game("a", "b", 1, T, seed=7)]
    pd = paired_difference(base, reseeded, "open")
    assert not pd["paired"] and pd["overall"]["delta"] is None
    text = paired_text({"scenario": "mine.json", "paired_difference": pd})
    assert text.startswith("mine.json - open: not paired: game 1 of a:b has seed 7 here but 1001 in open")
    assert "\n" not in text and text.endswith("cannot be paired.")
    other_agents = paired_difference(base, _rows(("c", "d"), [T, T]), "open")
    assert not other_agents["paired"] and "no agent pair" in other_agents["why"]


def _unwrapped(text: str) -> str:
    """The terminal's sentences back on one line each (a sentence goes on in lines indented by two)."""
    return text.replace("\n  ", " ")


def test_the_cli_prints_the_verdicts(report, capsys):
    """`hotspot report open` again on the fixture's folder (it resumes): the trust sentence, then every
    verdict of the page, plain text, no line over 100 columns; one set-up, so no paired line."""
    out, rep = report
    argv = ["report", "open", "--agents", "random,scripted", "--games", "4", "--probe-games", "4"]
    argv += ["--deployments", "2", "--dice-seeds", "2", "--workers", "1", "--no-progress", "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert all(len(line) <= 100 for line in printed.splitlines() if not line.startswith("Report: ")), printed
    text = _unwrapped(printed)
    assert text.startswith(rep["trust"])
    assert rep["verdicts"] and all(v in text for v in rep["verdicts"])
    assert "open: the Technocrat scores" in text and "at the strong pair (scripted in both seats, 4 games)" in text
    assert " - open:" not in text


def test_the_cli_and_the_page_print_each_setup_paired_with_the_first(report, tmp_path, capsys, monkeypatch):
    """Two set-ups (the fixture's open and a copy of it, its grid's games the same): the terminal prints
    the paired line, and the page holds the same sentences and the paired table."""
    out, rep = report
    two = copy.deepcopy(rep)
    again = {**copy.deepcopy(rep["setups"][0]), "scenario": "again.json", "slug": "again"}
    two["setups"].append(again)
    rows = list(scan_games(out / "open" / "grid" / "games.jsonl").rows.values())
    pair_with_first(two["setups"], [rows, rows])
    two["trust"], two["verdicts"] = trust_text(two), verdicts(two)
    two["html"] = str(tmp_path / "report.html")
    monkeypatch.setattr("hotspot.design.game_report.run_report", lambda *a, **k: two)
    assert main(["report", "open", "again.json", "--out", str(tmp_path), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert all(len(line) <= 100 for line in printed.splitlines() if not line.startswith("Report: ")), printed
    line = "again.json - open: Technocrat score +0.000 [+0.000, +0.000] (paired over 16 games: 4 seeds x 4 cells; t interval)"
    assert line in _unwrapped(printed) and _unwrapped(terminal_text(two)) in _unwrapped(printed)
    from hotspot.design.report_page import write_game_report

    page = write_game_report(tmp_path, two).read_text(encoding="utf-8")
    assert all(html.escape(v) in page for v in verdicts(two)) and html.escape(line) in page
    assert 'id="paired"' in page and "all cells" in page


@pytest.mark.parametrize(
    "argv, words",
    [
        (["report", "no-such-setup", "--quick"], "no-such-setup"),
        (["report", "random:3", "--quick"], "not one set-up"),
        (["report", "open", "--agents", "scripted"], "at least two agents"),
        (["report", "open", "--agents", "scripted,scripted"], "named twice"),
        (["report", "open", "open"], "named twice"),
        (["report", "open", "--probe-pair", "scripted"], "probe"),
        (["report", "open", "--agents", "nobody,scripted"], "nobody"),
    ],
)
def test_bad_input_is_refused_in_one_line(tmp_path, capsys, argv, words):
    """A wrong set-up, agent list or pair: one line naming it, and no folder written."""
    out = tmp_path / "r"
    assert main([*argv, "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("hotspot: error:") and "\n" not in err and words in err
    assert not out.exists() or not any(out.iterdir())


@needs_chromium
def test_the_report_page_reads_in_a_real_browser(report):
    """The page a designer opens: no console errors, every figure drawn, every section there."""
    out, rep = report
    errors: list = []
    with chromium_page(errors) as page:
        page.goto((out / "report.html").resolve().as_uri())
        page.wait_for_load_state("load")
        assert page.title().startswith("Hot Spot game report")
        images = page.eval_on_selector_all("img", "els => els.map(e => [e.getAttribute('src'), e.naturalWidth])")
        assert {"diagonal.png", "forces.png", "decided.png", "lengths-open.png"} <= {src for src, _ in images}
        assert all(width > 100 for _, width in images)
        for anchor in ("#methods", "#comparison", "#open"):
            assert page.inner_text(anchor)
        assert "skill depth" in page.inner_text("#comparison table")
    assert errors == []
