"""Adjudication (hotspot.arena.adjudication): the rules' parsing and their
one-line errors, the resign and no-progress rules turn by turn, and a game
stopped by them on both paths (compiled, Python), its row and its replay."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hotspot.arena import replay_row
from hotspot.arena.adjudication import (
    NO_RULES,
    AdjudicationError,
    Adjudicator,
    canonical_adjudication,
    parse_adjudication,
)
from hotspot.arena.folder import check_row
from hotspot.arena.match import GameSpec, game_seed, play_game
from hotspot.arena.options import RunOptions


def test_rules_parse_to_one_canonical_text_with_the_defaults_filled_in():
    assert canonical_adjudication("resign,draw") == canonical_adjudication("draw(turns=60), resign")
    assert canonical_adjudication("resign") == "resign(score=0.99,turns=6)"
    assert canonical_adjudication("draw(turns=12)") == "draw(turns=12)"
    assert parse_adjudication("none") == NO_RULES and parse_adjudication("") == NO_RULES and not NO_RULES


@pytest.mark.parametrize(
    "text, message",
    [
        ("resgin", "unknown adjudication rule 'resgin'; the rules are resign, draw"),
        ("draw(moves=3)", "unknown parameter 'moves'"),
        ("draw(turns=0)", "turns must be a whole number of turns"),
        ("draw(turns=2.5)", "turns must be a whole number of turns"),
        ("resign(score=0.4)", "score must be in (0.5, 1)"),
        ("resign(score=high)", "score must be a number"),
        ("draw,draw", "given twice"),
    ],
)
def test_a_bad_rule_is_a_one_line_error_naming_it(text, message):
    with pytest.raises(AdjudicationError) as info:
        parse_adjudication(text)
    assert message in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(AdjudicationError):  # the run options refuse it before any folder is touched
        RunOptions(adjudicate=text)


def test_no_progress_is_a_draw_after_n_turns_in_a_row_without_a_change_of_material():
    judge = Adjudicator("draw(turns=3)")
    material = [1, 1, 1, 2, 2, 2, 2]  # changes at the 4th turn: the count starts again
    verdicts = [judge.point(t, 0.5, h) for t, h in enumerate(material, start=1)]
    assert verdicts[:6] == [None] * 6
    assert verdicts[6].ended == "no progress" and verdicts[6].winner is None and verdicts[6].turn == 7


def test_resign_gives_the_game_to_the_side_the_judge_favours_for_k_turns_in_a_row():
    judge = Adjudicator("resign(score=0.9,turns=2)")
    assert judge.point(1, 0.95, 0) is None
    assert judge.point(2, 0.5, 0) is None  # the streak is broken
    assert judge.point(3, 0.91, 0) is None
    verdict = judge.point(4, 0.99, 0)
    assert (verdict.ended, verdict.winner, verdict.turn, verdict.judge) == ("resign", "technocrat", 4, 0.99)
    judge = Adjudicator("resign(score=0.9,turns=1)")
    assert judge.point(1, 0.05, 0).winner == "ziegler"  # at most 1 - score: the Ziegler's


SEED = game_seed(0, 3)


@pytest.fixture(scope="module")
def played():
    """One scripted game on open: to its end, and under a resign rule that fires early, on both paths."""
    rules = "resign(score=0.9,turns=2)"
    spec = GameSpec("s:s", "scripted", "scripted", 3, SEED, "open")
    adjudicated = GameSpec("s:s", "scripted", "scripted", 3, SEED, "open", adjudication=rules)
    return {
        "full": play_game(spec),
        "compiled": play_game(adjudicated),
        "python": play_game(adjudicated, force_python=True),
    }


def test_an_adjudicated_game_is_the_played_game_cut_where_the_rule_fired(played):
    full, cut = played["full"], played["compiled"]
    assert full["ended"] in ("rules", "turn limit") and full["judge"] is None and full["adjudication"] == ""
    assert cut["ended"] == "resign" and cut["adjudication"] == "resign(score=0.9,turns=2)"
    assert cut["actions"] == full["actions"][: len(cut["actions"])] and len(cut["actions"]) < len(full["actions"])
    assert cut["turns"] < full["turns"] and cut["judge"] >= 0.9
    assert cut["winner"] == "technocrat" and cut["result"] == "technocrat wins" and not cut["truncated"]
    assert cut["key"] != full["key"]  # the rules are part of the game's identity


def test_the_compiled_and_the_python_path_stop_at_the_same_action(played):
    """The compiled game is cut after the fact; the Python path asks at each turn: the same row."""
    a, b = played["compiled"], played["python"]
    for field in ("actions", "ended", "winner", "turns", "judge", "key"):
        assert a[field] == b[field], field


def test_an_adjudicated_row_checks_and_replays_to_the_turn_it_was_stopped(played):
    row = json.loads(json.dumps(played["compiled"]))
    assert check_row(row) == row["key"]
    game = replay_row(row)
    assert not game.is_terminal() and game.turn == row["turns"]
    with pytest.raises(ValueError, match="adjudicated"):
        replay_row(dict(row, turns=row["turns"] + 1))


def test_a_bad_adjudicate_option_on_the_command_line_is_one_line_and_writes_nothing(tmp_path):
    out = tmp_path / "arena"
    proc = subprocess.run(
        [sys.executable, "-m", "hotspot", "arena", "--games", "1", "--out", str(out), "--adjudicate", "resgin"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "unknown adjudication rule 'resgin'" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_an_evaluation_under_a_rule_says_so_on_its_card(tmp_path):
    """The protocol plays games to their real end; a card of games played under a rule names it and counts
    how the games ended."""
    from hotspot.arena.evaluate import run_evaluate

    card = run_evaluate(
        "scripted", opponents=["random"], games=2, step=2, adjudicate="resign", out=tmp_path, workers=1, plot=False
    )
    assert card["protocol"]["adjudication"] == "resign(score=0.99,turns=6)"
    assert "Adjudication: resign(score=0.99,turns=6)" in card["text"]
    assert sum(card["opponents"][0]["ended"].values()) == card["games"]
    assert json.loads((tmp_path / "run.json").read_text())["config"]["adjudication"] == "resign(score=0.99,turns=6)"
