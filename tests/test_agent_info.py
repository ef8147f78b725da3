"""The accessors of an agent's info_state (hotspot.agents.info, docs/evaluate.md
"Enter it by name"): on what the arena gives ``Agent.act`` they return plain
Python values equal to the core's own, a wrong input is one line naming what
was given, and the docs' example agent plays a game."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

import hotspot
from hotspot.agents import (
    action_to_string,
    is_setup_phase,
    legal_actions,
    phase_name,
    phase_of,
    side_to_move,
    side_to_move_name,
    turn_of,
)
from hotspot.agents.registry import make_agent
from hotspot.arena.match import GameSpec, play_game
from hotspot.core.rules_data import PHASE_NAMES, PHASE_T_SETUP, PHASE_Z_SETUP, SIDE_NAMES
from hotspot.core.state import STATE_DTYPE

EVALUATE_MD = Path(__file__).resolve().parent.parent / "docs" / "evaluate.md"


def _decisions(seed: int = 1, max_turns: int = 30):
    """(game, info_state, mask, side) at every decision of a scripted game on
    ``open``, ``info_state`` and ``mask`` exactly as the arena passes them to
    ``act`` (hotspot.arena.match._play_python)."""
    game = hotspot.Game("open", seed=seed, max_turns=max_turns)
    agents = [make_agent("scripted", seed=0), make_agent("scripted", seed=1)]
    while not game.is_terminal():
        side = game.current_player()
        info_state, mask = game.observation(side), game.legal_action_mask()
        yield game, info_state, mask, side
        game.apply_action(int(agents[side].act(info_state, mask, side)))


def test_what_act_receives_is_a_one_element_record_array():
    """The docs' words: shape (1,) of STATE_DTYPE, ``[0]`` the record; a field of the array is an array of one."""
    game = hotspot.Game("open", seed=1)
    info_state = game.observation(game.current_player())
    assert info_state.shape == (1,) and info_state.dtype == STATE_DTYPE
    assert isinstance(info_state[0], np.void) and int(info_state[0]["phase"]) == phase_of(info_state)
    assert info_state["phase"].shape == (1,)


def test_each_accessor_equals_the_cores_own_fields_at_every_decision_of_a_game():
    """Phase, its name, turn, side to move (and name), set-up or not, the legal
    actions and every legal action's text, at each decision of a whole game:
    equal to the full state's fields, ``Game.current_player`` (the ``side`` of
    ``act``) and ``Game.action_to_string`` on the full state; plain Python types."""
    seen = set()
    for game, info_state, mask, side in _decisions():
        phase = int(game.s["phase"])
        seen.add(phase)
        assert type(phase_of(info_state)) is int and phase_of(info_state) == phase
        assert phase_name(info_state) == PHASE_NAMES[phase]
        assert type(turn_of(info_state)) is int and turn_of(info_state) == game.turn
        assert type(side_to_move(info_state)) is int and side_to_move(info_state) == side
        assert side_to_move_name(info_state) == SIDE_NAMES[side]
        assert is_setup_phase(info_state) is (phase in (PHASE_Z_SETUP, PHASE_T_SETUP))
        legal = legal_actions(mask)
        assert legal == np.flatnonzero(mask).tolist() and all(type(a) is int for a in legal)
        for a in legal:  # a legal action names only what its side may see (D20)
            assert action_to_string(info_state, a) == game.action_to_string(a)
    assert {PHASE_Z_SETUP, PHASE_T_SETUP} <= seen and len(seen) >= 6  # set-up and turns both checked


def test_a_record_and_a_0d_view_read_the_same_as_the_array():
    game = hotspot.Game("open", seed=1)
    info_state = game.observation(game.current_player())
    action = legal_actions(game.legal_action_mask())[0]
    for form in (info_state[0], info_state.reshape(())):
        assert phase_of(form) == phase_of(info_state) and turn_of(form) == turn_of(info_state)
        assert side_to_move_name(form) == side_to_move_name(info_state) == "ziegler"
        assert phase_name(form) == "Ziegler set-up" and is_setup_phase(form)
        assert action_to_string(form, action) == game.action_to_string(action)


def test_the_finished_game_has_no_side_to_move():
    game = list(_decisions(max_turns=2))[-1][0]  # played to its end
    assert game.is_terminal()
    over = game.observation(0)
    assert phase_name(over) == "game over" and side_to_move(over) == -1 and side_to_move_name(over) is None
    assert not is_setup_phase(over)


@pytest.mark.parametrize(
    "given, error, words",
    [
        ({"phase": 9}, TypeError, "got dict"),
        (None, TypeError, "got NoneType"),
        (np.zeros(1), TypeError, "dtype float64"),
        (np.zeros(1, dtype=[("phase", "i1")]), TypeError, "shape (1,) and dtype"),
        (np.zeros(0, dtype=STATE_DTYPE), ValueError, "shape (0,) and dtype STATE_DTYPE"),
        (np.zeros(2, dtype=STATE_DTYPE), ValueError, "shape (2,) and dtype STATE_DTYPE"),
    ],
)
def test_a_wrong_info_state_is_one_line_naming_what_was_given(given, error, words):
    for accessor in (phase_of, phase_name, turn_of, side_to_move, side_to_move_name, is_setup_phase):
        with pytest.raises(error) as exc:
            accessor(given)
        assert str(exc.value).startswith("info_state: expected") and words in str(exc.value)
        assert "\n" not in str(exc.value)
    with pytest.raises(error, match=re.escape(words)):
        action_to_string(given, 0)


def test_a_mask_of_the_wrong_shape_is_one_line():
    with pytest.raises(ValueError, match=r"^mask: expected a legal-action mask of shape \(\d+,\), got .*shape \(5,\)"):
        legal_actions(np.ones(5, dtype=bool))


def _docs_mybots(tmp_path, monkeypatch):
    """The module ``mybots`` exactly as docs/evaluate.md's block writes it."""
    text = EVALUATE_MD.read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if 'Path("mybots.py")' in b)
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "docs/evaluate.md", "exec"), {"__name__": "__main__"})
    spec = importlib.util.spec_from_file_location("mybots_from_docs", tmp_path / "mybots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docs_example_agent_plays_a_game_through_the_arena(tmp_path, monkeypatch, capsys):
    """``Greedy`` of the docs, one seat verbose, plays a game on ``open`` through
    ``play_game`` (the arena's Python path); its printed lines name the phase
    and the action."""
    mybots = _docs_mybots(tmp_path, monkeypatch)
    spec = GameSpec("greedy:scripted", "greedy", "scripted", 0, 11, "open", max_turns=3)
    row = play_game(spec, agents=(mybots.Greedy(verbose=True), mybots.Greedy(offset=1)))
    assert row["path"] == "python" and row["actions_count"] > 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and lines[0] == "turn 1, Ziegler set-up: set up: choose one-hex crustal"
    assert all(line.startswith("turn ") for line in lines)
