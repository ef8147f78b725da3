"""Balance as a function of skill (``hotspot balance``): the skill grid and its
reading, mirrored seeds, sequential stopping, restricted-play probes, the
calibration of knobs and the report page.

The rules behind the figures: a game's score is the Technocrat's (a win 1, a
game stopped by the harness's turn limit half a point, D19 revised); the
probe ``fog-*`` turns D20 (9.5, 14.2, 14.3) off for one side (R9.5b); the
draw classes read the final position by 15.2 and 15.5 (engineers, Ziegler
combat units of D6, the Central Crustal of D2).
"""

from __future__ import annotations

import csv
import json
import math

import pytest
from helpers import C
from test_viewer import chromium_page, needs_chromium

from hotspot.arena.match import ArenaError, game_seed
from hotspot.arena.stats import wilson_interval
from hotspot.cli import main
from hotspot.core.hexgrid import CENTRAL_CELLS
from hotspot.core.placement import blank_state, place_piece, place_unit
from hotspot.core.rules_data import ONE_HEX, T_ENGINEER, TECHNOCRAT, Z_HOVERCRAFT, Z_INFANTRY
from hotspot.core.scenario import load_scenario
from hotspot.design.balance import PROBES, parse_probes, run_balance
from hotspot.design.calibrate import Knob, apply_values, knob_names, parse_knob, run_calibration
from hotspot.design.report import DRAW_CLASSES, draw_position
from hotspot.design.skill import probe_deltas, skill_summary, skill_text


def _rows(path):
    return [json.loads(line) for line in open(path, encoding="utf-8")]


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    out = tmp_path_factory.mktemp("grid")
    summary = run_balance(
        scenarios=["open"],
        technocrats=["random", "scripted"],
        zieglers=["random", "scripted"],
        precision=0.12,
        step=10,
        games=40,
        probes=parse_probes("fog-technocrat"),
        probe_pairs=[("scripted", "scripted")],
        out=out,
        workers=1,
        progress=False,
        max_turns=60,
        report=True,
    )
    return out, summary


def test_skill_grid_plays_every_pairing_and_mirrors_the_seeds(grid):
    out, summary = grid
    base = [c for c in summary["cells"] if c["probe"] is None]
    assert {(c["technocrat"], c["ziegler"]) for c in base} == {
        ("random", "random"),
        ("random", "scripted"),
        ("scripted", "random"),
        ("scripted", "scripted"),
    }
    rows = _rows(out / "games.jsonl")
    seeds = {}
    for row in rows:  # game i has the same seed (set-up dice and game dice) in every cell
        seeds.setdefault(row["index"], set()).add(row["seed"])
    assert all(s == {game_seed(0, i)} for i, s in seeds.items())
    assert len({r["key"] for r in rows}) == len(rows)  # every game once
    with open(out / "games.csv", encoding="utf-8") as f:  # every game counted, with its seed
        kept = list(csv.DictReader(f))
    assert len(kept) == summary["games"] and all(int(g["seed"]) == game_seed(0, int(g["index"])) for g in kept)


def test_sequential_stopping_stops_each_cell_by_its_own_interval(grid):
    """A cell stops at the first look (every 10 games) where its Wilson
    interval's half-width is <= 0.12, or at 40 games; the intervals are
    corrected for the four looks (Bonferroni: each at 1 - 0.05 / 4)."""
    out, summary = grid
    rows = _rows(out / "games.jsonl")
    for c in summary["cells"]:
        mine = sorted(
            (
                r
                for r in rows
                if r["technocrat"] == c["technocrat"] and r["ziegler"] == c["ziegler"] and r["rules"] == c["rules"]
            ),
            key=lambda r: r["index"],
        )
        assert c["games"] % 10 == 0 and 10 <= c["games"] <= 40

        def half(n, mine=mine):
            score = sum(1.0 if r["winner"] == "technocrat" else 0.5 if r["winner"] is None else 0.0 for r in mine[:n])
            lo, hi = wilson_interval(score, n, 1 - 0.05 / 4)
            return (hi - lo) / 2

        assert summary["config"]["interval_confidence"] == 1 - 0.05 / 4
        assert all(half(n) > 0.12 for n in range(10, c["games"], 10))  # no earlier look was precise
        if c["stopped"] == "precision":
            assert half(c["games"]) <= 0.12 and c["half_width"] <= 0.12
        else:
            assert c["stopped"] == "games" and c["games"] == 40
    # a one-sided cell (random Technocrat) stops early: 0 of 20 gives [0, 0.238] at 98.75%
    rr = next(c for c in summary["cells"] if (c["technocrat"], c["ziegler"]) == ("random", "scripted"))
    assert rr["games"] == 20 and rr["stopped"] == "precision" and rr["technocrat_win_rate"] == 0.0


def test_a_rerun_resumes_to_the_same_table_without_playing(grid):
    out, summary = grid
    again = run_balance(
        scenarios=["open"],
        technocrats=["random", "scripted"],
        zieglers=["random", "scripted"],
        precision=0.12,
        step=10,
        games=40,
        probes=parse_probes("fog-technocrat"),
        probe_pairs=[("scripted", "scripted")],
        out=out,
        workers=1,
        progress=False,
        max_turns=60,
    )
    assert again["played_now"] == 0
    strip = ("cell",)
    assert [{k: v for k, v in c.items() if k not in strip} for c in again["cells"]] == [
        {k: v for k, v in c.items() if k not in strip} for c in summary["cells"]
    ]


def test_a_looser_precision_reads_the_same_folder(grid):
    """Rows of steps a looser run does not reach are games of the plan, not foreign rows."""
    out, summary = grid
    loose = run_balance(
        scenarios=["open"],
        technocrats=["random", "scripted"],
        zieglers=["random", "scripted"],
        precision=0.45,
        step=10,
        games=40,
        probes=parse_probes("fog-technocrat"),
        probe_pairs=[("scripted", "scripted")],
        out=out,
        workers=1,
        progress=False,
        max_turns=60,
        plot=False,
    )
    assert loose["played_now"] == 0
    assert all(c["games"] == 10 for c in loose["cells"])


def test_probe_cells_play_the_base_seeds_under_the_probe_rules(grid):
    out, summary = grid
    probe = next(c for c in summary["cells"] if c["probe"] == "fog-technocrat")
    assert probe["rules"] == {"sees_through_fog": "technocrat"}
    assert (probe["technocrat"], probe["ziegler"]) == ("scripted", "scripted")
    rows = [r for r in _rows(out / "games.jsonl") if r["rules"] == {"sees_through_fog": "technocrat"}]
    assert rows and all(r["seed"] == game_seed(0, r["index"]) for r in rows)
    (delta,) = summary["probes"]
    assert delta["probe"] == "fog-technocrat" and delta["games"] == min(probe["games"], 40)
    assert delta["ci_low"] <= delta["delta"] <= delta["ci_high"]


def test_probe_delta_is_paired_game_by_game():
    cells = [
        {
            "cell": 0,
            "scenario": "open",
            "rules": {},
            "base_rules": {},
            "probe": None,
            "technocrat": "a",
            "ziegler": "b",
        },
        {
            "cell": 1,
            "scenario": "open",
            "rules": {"x": 1},
            "base_rules": {},
            "probe": "fog-ziegler",
            "technocrat": "a",
            "ziegler": "b",
        },
    ]

    def row(rules, i, winner):
        return {"scenario": "open", "rules": rules, "technocrat": "a", "ziegler": "b", "index": i, "winner": winner}

    rows = [row({}, i, "technocrat") for i in range(4)] + [
        row({"x": 1}, i, w) for i, w in enumerate(["technocrat", "ziegler", None, "ziegler"])
    ]
    rows.append(row({}, 9, "ziegler"))  # unpaired: left out
    (d,) = probe_deltas(cells, rows)
    assert d["games"] == 4 and d["base_score"] == 1.0 and d["probe_score"] == pytest.approx(1.5 / 4)
    assert d["delta"] == pytest.approx(-0.625)
    assert d["ci_low"] < d["delta"] < d["ci_high"] < 0


def _cell(t, z, p, n=1000):
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return {
        "technocrat": t,
        "ziegler": z,
        "technocrat_win_rate": p,
        "games": n,
        "ci_low": p - half,
        "ci_high": p + half,
        "scenario": "open",
        "rules": {},
        "draws": 0,
        "mean_turns": 10.0,
    }


def test_skill_reading_follows_the_numbers():
    """Strength is measured, not the order given: the strong agent is listed first."""
    cells = [
        _cell("strong", "strong", 0.80),
        _cell("strong", "weak", 0.95),
        _cell("weak", "strong", 0.30),
        _cell("weak", "weak", 0.60),
    ]
    grid = skill_summary(cells, ["strong", "weak"], ["strong", "weak"])
    assert grid["technocrat_order"] == ["weak", "strong"] and grid["ziegler_order"] == ["weak", "strong"]
    assert grid["technocrat_gain"]["value"] == pytest.approx((0.50 + 0.35) / 2)
    assert grid["ziegler_gain"]["value"] == pytest.approx((0.15 + 0.30) / 2)
    assert grid["gains_more"] == "technocrat"
    assert grid["diagonal_trend"] == "grows" and grid["diagonal_change"]["value"] == pytest.approx(0.20)
    text = skill_text(grid)
    assert "The Technocrat gains more from skill" in text and "edge grows" in text
    even = skill_summary(
        [_cell("s", "s", 0.5), _cell("s", "w", 0.6), _cell("w", "s", 0.4), _cell("w", "w", 0.5)], ["s", "w"], ["s", "w"]
    )
    assert even["gains_more"] is None and even["diagonal_trend"] == "no clear change"


def test_report_page_has_every_section(grid):
    out, summary = grid
    page = (out / "report.html").read_text(encoding="utf-8")
    for anchor in ('id="skill"', 'id="cells"', 'id="probes"', 'id="lengths"', 'id="draws"'):
        assert anchor in page
    for image in ("skill.png", "balance.png", "lengths.png"):
        assert f'src="{image}"' in page and (out / image).stat().st_size > 1000


def _position(
    engineers_on_central: bool, ziegler_on_central: bool, engineers: bool = True, anyone_on_central: bool = True
):
    states = blank_state()
    k = place_piece(states, ONE_HEX, [C(3, 4)], controller=TECHNOCRAT)
    assert k > 0
    centre = [int(c) for c in CENTRAL_CELLS]
    if engineers:
        place_unit(states, T_ENGINEER, centre[0] if engineers_on_central else C(3, 4))
    if ziegler_on_central:
        place_unit(states, Z_INFANTRY, centre[1], squads=2)
    elif anyone_on_central and not engineers_on_central:
        place_unit(states, Z_HOVERCRAFT, centre[2])
        states["unit_type"][0, states["unit_type"][0] == Z_HOVERCRAFT] = Z_HOVERCRAFT
    return states[0]


def test_draws_are_classified_by_the_final_position():
    """15.2/15.5: engineers on the Central Crustal are blocked by a Ziegler combat unit (D6) on it."""
    assert draw_position(_position(True, True)) == DRAW_CLASSES[0]
    assert draw_position(_position(True, False)) == DRAW_CLASSES[1]
    assert draw_position(_position(False, False, anyone_on_central=False)) == DRAW_CLASSES[2]
    assert draw_position(_position(False, True)) == DRAW_CLASSES[3]
    assert draw_position(_position(False, True, engineers=False)) == DRAW_CLASSES[4]


def test_knobs_are_checked_with_a_one_line_error():
    assert parse_knob("platform_turns=3..6") == Knob("platform_turns", 3, 6)
    assert parse_knob("attack.technocrat_crawler=1..4").name == "attack.technocrat_crawler"
    assert "forces.ziegler.hovercraft" in knob_names()
    for bad, words in [
        ("platform_turns=6..3", "not within"),
        ("platform_turns=0..3", "not within"),
        ("bogus=1..2", "valid knobs: "),
        ("platform_turns=3", "NAME=LOW..HIGH"),
        ("attack.nobody=1..2", "unknown knob"),
    ]:
        with pytest.raises(ArenaError, match=words) as info:
            parse_knob(bad)
        assert "\n" not in str(info.value)


def test_knob_values_reach_the_scenario():
    data = apply_values(
        load_scenario("open"), {"platform_turns": 5, "attack.technocrat_crawler": 2, "forces.ziegler.hovercraft": 8}
    )
    assert data["rules"]["platform_turns"] == 5
    assert data["rules"]["attack"]["technocrat_crawler"] == 2
    assert data["forces"]["ziegler"]["hovercraft"] == 8


def test_calibration_searches_confirms_and_resumes(tmp_path):
    pytest.importorskip("optuna")
    kwargs = dict(
        pairs=[("scripted", "scripted")],
        trials=3,
        games=8,
        confirm_games=8,
        finalists=2,
        out=tmp_path,
        workers=1,
        progress=False,
        max_turns=40,
        seed=1,
    )
    summary = run_calibration("open", [parse_knob("forces.technocrat.engineers=1..3")], **kwargs)
    assert len(summary["trials"]) == 3
    assert summary["trials"][0]["values"] == {"forces.technocrat.engineers": 3}  # the scenario's own value first
    best = summary["best"]  # the finalists (the best distinct trials) played again; the nearest chosen
    finals = summary["finals"]
    assert 1 <= len(finals) <= 2 and len({f["digest"] for f in finals}) == len(finals)
    assert best["objective"] == min(f["objective"] for f in finals)
    ranked = sorted(summary["trials"], key=lambda t: (t["objective"], t["trial"]))
    assert finals[0]["digest"] == ranked[0]["digest"]
    scenario = load_scenario(str(tmp_path / "calibrated.json"))
    assert scenario["forces"]["technocrat"]["engineers"] == best["values"]["forces.technocrat.engineers"]
    with open(tmp_path / "trials.csv", encoding="utf-8") as f:
        assert len(list(csv.DictReader(f))) == 3
    (confirm,) = summary["confirm"]
    assert confirm["games"] == 8 and confirm["ci_low"] <= confirm["score"] <= confirm["ci_high"]
    again = run_calibration("open", [parse_knob("forces.technocrat.engineers=1..3")], **kwargs)
    assert [t["values"] for t in again["trials"]] == [t["values"] for t in summary["trials"]]
    assert [t["objective"] for t in again["trials"]] == [t["objective"] for t in summary["trials"]]


def test_halving_keeps_the_nearest_half_and_plays_the_last_to_its_games(tmp_path):
    """--halving: every candidate plays the first round; each round keeps the
    half nearest the target and doubles the games on the same seeds; the last
    one plays on to the confirming games, and a rerun plays nothing new."""
    pytest.importorskip("optuna")
    from hotspot.arena import RunOptions
    from hotspot.design.calibrate import run_halving

    kwargs = dict(
        pair=("scripted", "scripted"),
        candidates=4,
        games=4,
        confirm_games=20,
        options=RunOptions(out=tmp_path, workers=1, progress=False, max_turns=40, seed=2),
    )
    knobs = [parse_knob("forces.technocrat.engineers=1..3"), parse_knob("platform_turns=3..5")]
    summary = run_halving("open", knobs, **kwargs)
    rounds = summary["rounds"]
    assert [len(r["results"]) for r in rounds] == [4, 2, 1]
    assert [r["games"] for r in rounds] == [4, 8, 20]
    first = next(r for r in rounds[0]["results"] if r["candidate"] == 0)
    assert first["values"] == {"forces.technocrat.engineers": 3, "platform_turns": 4}  # the scenario's own values
    for before, after in zip(rounds, rounds[1:]):
        nearest = sorted(before["results"], key=lambda r: (abs(r["score"] - 0.5), r["candidate"]))
        assert before["kept"] == [r["candidate"] for r in nearest[: len(after["results"])]]
        assert {r["candidate"] for r in after["results"]} == set(before["kept"])
    best = summary["best"]
    assert best["games"] == 20 and best["ci_low"] <= best["score"] <= best["ci_high"]
    scenario = load_scenario(str(tmp_path / "calibrated.json"))
    assert scenario["forces"]["technocrat"]["engineers"] == best["values"]["forces.technocrat.engineers"]
    again = run_halving("open", knobs, **kwargs)
    assert again["rounds"] == rounds


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--precision", "0.7"], "--precision"),
        (["--precision", "abc"], "--precision"),
        (["--probe", "x-ray"], "unknown probe 'x-ray'; valid probes: " + ", ".join(PROBES)),
        (["--technocrat", "nobody"], "nobody"),
        (["--technocrat", "random", "--pair", "random:random"], "not both"),
        (["--probe", "fog-ziegler", "--option", "sees_through_fog=neither,both"], "which --option varies"),
        (["--calibrate", "platform_turns=9..2"], "not within"),
        (["--calibrate", "speed=1..2"], "valid knobs"),
        (["--calibrate", "platform_turns=3..4", "--precision", "0.05"], "not --precision"),
        (["--calibrate", "platform_turns=3..4", "--target", "1.5"], "target must be"),
        (["--calibrate", "platform_turns=3..4", "--confirm-pair", "random:nobody"], "nobody"),
        (["--step", "0"], "--step"),
        (["--calibrate", "platform_turns=3..4", "--halving"], "one --pair"),
    ],
)
def test_bad_flags_are_refused_in_one_line_and_change_nothing(tmp_path, capsys, argv, words):
    out = tmp_path / "out"
    with pytest.raises(SystemExit) if argv[0] in ("--precision", "--step") else _no_raise():
        code = main(["balance", "--scenarios", "open", "--out", str(out), "--no-progress", *argv])
        assert code == 2
    err = capsys.readouterr().err.strip()
    errors = [line for line in err.splitlines() if "error:" in line]  # (argparse prints its usage first)
    assert len(errors) == 1 and words in errors[0] and "Traceback" not in err
    assert not out.exists()


class _no_raise:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@needs_chromium
def test_report_page_reads_in_a_real_browser(grid):
    """The page a designer opens: it loads without console errors, every image
    is drawn, and the tables show every cell and the probe."""
    out, summary = grid
    errors: list = []
    with chromium_page(errors) as page:
        page.goto((out / "report.html").resolve().as_uri())
        page.wait_for_load_state("load")
        assert page.title() == "Hot Spot balance report"
        images = page.eval_on_selector_all("img", "els => els.map(e => [e.getAttribute('src'), e.naturalWidth])")
        assert {src for src, _ in images} >= {"skill.png", "balance.png", "lengths.png"}
        assert all(width > 100 for _, width in images)
        cells = page.eval_on_selector_all("table.cells tbody tr", "rows => rows.length")
        assert cells == len(summary["cells"])
        assert "fog-technocrat" in page.inner_text("table.probes")
        assert page.inner_text("#draws").startswith("Draws by final position")
    assert errors == []


def test_max_games_stops_between_steps_and_a_rerun_finishes_the_same_grid(tmp_path, grid):
    """--max-games cuts a sequential run anywhere; the reruns give the rows and
    the table of the uninterrupted run (the fixture's)."""
    out, summary = grid
    kwargs = dict(
        scenarios=["open"],
        technocrats=["random", "scripted"],
        zieglers=["random", "scripted"],
        precision=0.12,
        step=10,
        games=40,
        probes=parse_probes("fog-technocrat"),
        probe_pairs=[("scripted", "scripted")],
        out=tmp_path,
        workers=1,
        progress=False,
        max_turns=60,
        plot=False,
    )
    rounds = 0
    while True:
        part = run_balance(max_games=17, **kwargs)
        rounds += 1
        assert part["played_now"] <= 17
        if not part["remaining"]:
            break
        assert "rerun the same command" in part["text"]
    assert rounds > 2
    assert sorted(r["key"] for r in _rows(tmp_path / "games.jsonl")) == sorted(
        r["key"] for r in _rows(out / "games.jsonl")
    )
    assert [(c["games"], c["stopped"], c["technocrat_win_rate"]) for c in part["cells"]] == [
        (c["games"], c["stopped"], c["technocrat_win_rate"]) for c in summary["cells"]
    ]


def _cell(t, z, score, games=400):
    lo, hi = wilson_interval(score * games, games)
    return {
        "scenario": "open",
        "rules": {},
        "probe": None,
        "technocrat": t,
        "ziegler": z,
        "games": games,
        "technocrat_win_rate": score,
        "ci_low": lo,
        "ci_high": hi,
        "draws": 0,
        "mean_turns": 40.0,
    }


def test_the_grid_is_read_again_without_agents_that_never_win():
    """Balance across skill: a side's gain from skill measured from an agent
    that loses every game it plays (here a Technocrat scoring 0 everywhere,
    and then a Ziegler every remaining Technocrat beats) is the distance from
    a player who never wins; the reading names such agents and reads the grid
    again without them, where the other side may be the one that gains more."""
    from hotspot.design.skill import skill_summary, skill_text

    agents = ["weak", "mid", "strong", "hopeless"]
    score = {  # Technocrat score by (technocrat, ziegler)
        ("hopeless", "hopeless"): 0.0,
        ("hopeless", "mid"): 0.0,
        ("hopeless", "strong"): 0.0,
        ("hopeless", "weak"): 0.0,
        ("weak", "hopeless"): 1.0,
        ("mid", "hopeless"): 1.0,
        ("strong", "hopeless"): 1.0,
        ("weak", "weak"): 0.90,
        ("weak", "mid"): 0.70,
        ("weak", "strong"): 0.40,
        ("mid", "weak"): 0.92,
        ("mid", "mid"): 0.75,
        ("mid", "strong"): 0.45,
        ("strong", "weak"): 0.95,
        ("strong", "mid"): 0.80,
        ("strong", "strong"): 0.55,
    }
    grid = skill_summary([_cell(t, z, score[(t, z)]) for t in agents for z in agents], agents, agents)
    assert grid["gains_more"] == "technocrat"  # from the hopeless Technocrat: +0.7 and more
    assert grid["without"] == ["hopeless as Technocrat", "hopeless as Ziegler"]
    core = grid["competent"]
    assert core["technocrats"] == ["weak", "mid", "strong"] == core["zieglers"]
    assert core["gains_more"] == "ziegler" and core["diagonal_trend"] == "shrinks"
    text = skill_text(grid)
    assert "Without hopeless as Technocrat, hopeless as Ziegler" in text and "The Ziegler gains more" in text


@pytest.mark.parametrize(
    "argv, words",
    [
        (["platform_turns=9..2"], "not within"),
        (["speed=1..2"], "valid knobs"),
        (["platform_turns=3..4", "--target", "1.5"], "target must be"),
        (["platform_turns=3..4", "--confirm-pair", "random:nobody"], "nobody"),
        (["platform_turns=3..4", "--halving"], "one --pair"),
        (["platform_turns=3..4", "--scenario", "open,standard"], "one scenario"),
        (["platform_turns=3..4", "--option", "losses=automatic,owner"], "one value an option"),
    ],
)
def test_hotspot_calibrate_refuses_bad_input_in_one_line(tmp_path, capsys, argv, words):
    """``hotspot calibrate`` (the calibration's own command) refuses what
    ``hotspot balance --calibrate`` refuses, in one line, writing nothing."""
    out = tmp_path / "out"
    assert main(["calibrate", *argv, "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err and err.startswith("hotspot: error:")
    assert not out.exists()


def test_calibrate_and_search_deployment_are_commands_and_the_old_flags_say_so(tmp_path, capsys):
    """``hotspot calibrate`` and ``hotspot search-deployment`` run the
    calibration and the deployment search (their defaults the library's,
    declared once); ``hotspot balance --calibrate`` / ``--search-deployment``
    still do, with a one-line warning naming the new command."""
    tiny = ["--workers", "1", "--no-progress", "--max-turns", "1"]
    knob = ["platform_turns=3..4", "--trials", "2", "--games", "2", "--finalists", "1", "--confirm-games", "2"]
    assert main(["calibrate", *knob, "--scenario", "open", "--out", str(tmp_path / "cal"), *tiny]) == 0
    assert (tmp_path / "cal" / "calibrated.json").is_file() and "warning" not in capsys.readouterr().err
    search = ["ziegler", "--candidates", "2", "--random-candidates", "0", "--finalists", "1", "--games", "1"]
    search += ["--final-games", "1"]
    assert main(["search-deployment", *search, "--out", str(tmp_path / "dep"), *tiny]) == 0
    assert (tmp_path / "dep" / "best.json").is_file() and "warning" not in capsys.readouterr().err
    old = ["balance", "--search-deployment", *search, "--out", str(tmp_path / "old"), *tiny]
    assert main(old) == 0
    err = capsys.readouterr().err
    assert "'hotspot balance --search-deployment SIDE' is now 'hotspot search-deployment SIDE'" in err
    assert json.loads((tmp_path / "old" / "best.json").read_text()) == json.loads(
        (tmp_path / "dep" / "best.json").read_text()
    )  # the same search, by either name
