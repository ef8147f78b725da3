"""Playing in the terminal (hotspot/human/terminal.py, ``hotspot play`` with a
human side, ``hotspot replay --step / --moves``): a person plays a
whole game against the scripted agent by typed lines, the set-up of ``open``
included (3.2, 3.3, D21); refused lines change nothing; save, quit and
``--load`` continue the same game; a damaged save is refused and the game
goes on; ``hotspot play`` without a human side still plays by itself."""

from __future__ import annotations

import io
import random

import pytest

from hotspot.cli import main
from hotspot.core.game import Game
from hotspot.human import Session
from hotspot.human.terminal import Terminal, step_through


class TypedLines:
    """A person at the keyboard: a seeded-random number from the list, with
    other commands among the first lines and 'undo' every 20th line."""

    FIRST = {2: "fly away", 4: "0", 6: "help", 8: "board", 10: "log 3", 12: "unit 999", 14: "key", 16: "undo"}

    def __init__(self, seed: int, limit: int = 20000, extras: bool = True):
        self.rng = random.Random(seed)
        self.terminal = None
        self.limit = limit
        self.extras = extras
        self.typed: list[str] = []

    def readline(self) -> str:
        n = len(self.typed)
        if n >= self.limit:
            return ""  # the end of input: the terminal stops
        if self.extras and n in self.FIRST:
            line = self.FIRST[n]
        elif self.extras and n % 20 == 19:
            line = "undo"
        else:
            line = str(self.rng.randint(1, len(self.terminal.session.legal())))
        self.typed.append(line)
        return line + "\n"


def _terminal(session, seed=1, limit=20000, save_path=None, extras=True):
    typed = TypedLines(seed, limit, extras)
    out = io.StringIO()
    terminal = Terminal(session, typed, out, save_path=save_path)
    typed.terminal = terminal
    return terminal, typed, out


@pytest.mark.parametrize("scenario,human", [("standard", "technocrat"), ("open", "ziegler")])
def test_a_person_plays_a_whole_game_in_the_terminal(scenario, human):
    """Typed numbers and commands to the end of the game: the board with its
    key and coordinates, the numbered legal actions, refusals with reasons,
    the log of rolls and results, and the final result."""
    other = "ziegler" if human == "technocrat" else "technocrat"
    session = Session.new(**{human: "human", other: "scripted"}, scenario=scenario, seed=3, max_turns=60)
    terminal, typed, out = _terminal(session)
    assert terminal.run() == 0
    text = out.getvalue()
    assert terminal.session.is_over(), "the game did not end"
    assert "Game over after turn" in text and "Key:" in text and "Stacks:" in text
    assert "     0         2" in text  # the columns' coordinates
    assert "Refused: no action is called 'fly away'" in text and "No action 0" in text
    assert "Undone:" in text or "Refused: cannot undo" in text
    assert all(line in text for line in terminal.session.log())  # the log, as the person's side sees it
    assert "game over: " in text or "stopped by max_turns" in text
    record = terminal.session.game.record
    assert Game.from_record(record).to_bytes() == terminal.session.game.to_bytes()
    if scenario == "open":  # the person's own deployment (3.2)
        assert "ziegler (human): set up: choose" in text


def test_refused_lines_change_nothing():
    """An unknown command, an illegal one (with the rule's reason) and a number
    off the list are refused; the game is as it was."""
    session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=2)
    session.advance()
    before = session.game.to_bytes()
    out = io.StringIO()
    lines = io.StringIO("warp 9\nchoose one-hex\n99\nundo\nquit\n")
    assert Terminal(session, lines, out).run() == 0
    text = out.getvalue()
    reason = session.game.why_illegal(242)
    assert f"Refused: illegal action 242 (set up: choose one-hex crustal) in turn 1, phase T: {reason}" in text
    assert "Refused: no action is called 'warp 9'" in text and "No action 99: choose 1 to 1." in text
    assert "Refused: nothing to undo" in text
    assert session.game.to_bytes() == before and text.rstrip().endswith("'save FILE' before 'quit'.)")


def test_save_quit_and_load_continue_the_same_game(tmp_path, monkeypatch, capsys):
    """'save FILE' then quit; ``hotspot play --load FILE`` resumes at the same
    point; a damaged file is refused, by 'load' (the game goes on) and by --load."""
    path = tmp_path / "game.json"
    session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=4)
    terminal, typed, out = _terminal(session, seed=2, limit=80, extras=False)
    terminal.run()
    terminal.inp = io.StringIO(f"save {path}\nload {tmp_path / 'nothing.json'}\nquit\n")
    terminal.run()
    assert f"Saved to {path}" in out.getvalue() and "Not loaded (this game goes on)" in out.getvalue()
    saved = terminal.session
    loaded = Session.load(path)
    assert loaded.game.to_bytes() == saved.game.to_bytes() and len(loaded.history) == len(saved.history)
    monkeypatch.setattr("sys.stdin", io.StringIO("log 1\nquit\n"))
    assert main(["play", "--load", str(path)]) == 0
    assert saved.log()[-1] in capsys.readouterr().out
    path.write_text(path.read_text()[:-30])
    assert main(["play", "--load", str(path)]) == 2
    assert "not a saved game" in capsys.readouterr().err


def test_autosave_after_every_decision(tmp_path):
    """--save FILE: the file holds the game after each decision."""
    path = tmp_path / "auto.json"
    session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=4)
    terminal = Terminal(session, io.StringIO("1\n1\n"), io.StringIO(), save_path=path, autosave=True)
    terminal.run()
    assert Session.load(path).game.to_bytes() == terminal.session.game.to_bytes()


def test_play_without_a_person_reads_no_input(monkeypatch, capsys):
    """`hotspot play` (two random players) and agents only: no prompt, a result."""

    class NoInput:
        def readline(self):
            raise AssertionError("hotspot play read input")

    monkeypatch.setattr("sys.stdin", NoInput())
    assert main(["play", "--quiet"]) == 0
    assert "Result:" in capsys.readouterr().out
    assert (
        main(
            [
                "play",
                "--technocrat",
                "scripted",
                "--ziegler",
                "random",
                "--scenario",
                "open",
                "--max-turns",
                "20",
                "--quiet",
            ]
        )
        == 0
    )
    assert "Result:" in capsys.readouterr().out
    assert main(["play", "--technocrat", "nobody"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err


def _record(tmp_path):
    path = tmp_path / "g.json"
    session = Session.new(technocrat="scripted", ziegler="scripted", scenario="standard", seed=5, max_turns=3)
    session.advance()
    session.game.record.save(path)
    return path, session.game.record


def test_replay_step_and_moves(tmp_path, capsys):
    """`hotspot replay FILE --step` lists every move with its rolls and results
    (non-interactive without a terminal); --moves the plain move list."""
    path, record = _record(tmp_path)
    assert main(["replay", str(path), "--step"]) == 0
    text = capsys.readouterr().out
    game = Game(record.scenario, seed=record.seed, max_turns=record.max_turns)
    rolls = 0
    for i, a in enumerate(record.actions):
        assert f"{i + 1:5d}. T{game.turn}" in text and game.action_to_string(a) in text
        rolls += sum(e["event"] == "roll" for e in game.apply_action(a, events=True))
    assert rolls and text.count("roll ") == rolls
    assert "Result:" in text and "Pieces:" in text
    assert main(["replay", str(path), "--moves"]) == 0
    text = capsys.readouterr().out
    assert len([x for x in text.splitlines() if x[:5].strip().isdigit()]) == len(record.actions)
    assert "roll " not in text and "Pieces:" not in text and "Result:" in text


def test_step_through_waits_for_enter():
    """Interactive stepping: Enter shows the next move, b the board, q stops."""
    session = Session.new(technocrat="random", ziegler="random", scenario="standard", seed=1, max_turns=2)
    session.advance()
    out = io.StringIO()
    shown = step_through(session.game.record, io.StringIO("\nb\nq\n"), out, interactive=True)
    assert shown == 2 and out.getvalue().count("Pieces:") == 1


def test_concede_ends_the_game_for_the_other_side():
    """5.0: typing 'concede' gives the game to the other side; the loop ends with the result."""
    session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=2)
    out = io.StringIO()
    assert Terminal(session, io.StringIO("concede\nquit\n"), out).run() == 0
    text = out.getvalue()
    assert "Conceded: ziegler wins (the Technocrat conceded, 5.0)." in text
    assert text.rstrip().endswith("Game over after turn 1: ziegler wins (the Technocrat conceded, 5.0)")
    assert session.is_over() and session.game.winner() == 0
