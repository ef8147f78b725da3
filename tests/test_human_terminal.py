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
from hotspot.human.terminal import Terminal, menu_lines, step_through


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


def _flat(text: str) -> str:
    """``text`` with every run of white space one space (the terminal wraps long lines)."""
    return " ".join(str(text).split())


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
    flat = _flat(text)  # lines longer than the screen are wrapped
    assert all(_flat(line) in flat for line in terminal.session.log())  # the log, as the person's side sees it
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
    assert _flat(f"Refused: illegal action 242 (set up: choose one-hex crustal) in turn 1, phase T: {reason}") in _flat(
        text
    )
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
    said = " ".join(out.getvalue().split())  # a long line is wrapped at 80 columns, a file name kept whole
    assert f"Saved to {path}" in said and "Not loaded (this game goes on)" in said
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


# ------------------------------------------------------------ a game a person can finish on an 80x24 screen


def _auto_lines(n: int = 400) -> str:
    return "deploy rest\n" + "auto phase\n" * n


def test_a_whole_game_by_deploy_rest_and_auto_phase(tmp_path, monkeypatch, capsys):
    """`hotspot play --technocrat human --ziegler scripted --scenario open`, fed
    'deploy rest' (the Technocrat's set-up, 3.3, D21, by the scripted player)
    and one 'auto phase' per Technocrat phase (4.0: E, F, G, H), plays to the
    end: a result, the record replays, every Technocrat decision is the
    person's (played through the legality path), and far fewer lines were
    typed than decisions made."""
    record = tmp_path / "game.json"
    lines = io.StringIO(_auto_lines())
    monkeypatch.setattr("sys.stdin", lines)
    args = ["play", "--technocrat", "human", "--ziegler", "scripted", "--scenario", "open", "--seed", "1"]
    assert main(args + ["--max-turns", "60", "--record", str(record)]) == 0
    text = capsys.readouterr().out
    assert "Traceback" not in text and "Refused" not in text
    assert (
        "Game over after turn" in text
        and "'deploy rest': the scripted player made" in text
        and "'auto phase': the scripted" in text
    )
    from hotspot.core.record import GameRecord

    game = Game.from_record(GameRecord.load(record))
    assert game.is_terminal() and not game.is_truncated() and game.result() in ("technocrat wins", "ziegler wins")
    typed = lines.getvalue()[: lines.tell()].count("\n")
    assert typed * 10 < len(game.record.actions)
    assert text.count("technocrat (human): set up:") >= 20  # the deployment, logged as the person's


def test_deploy_rest_then_undo_takes_back_the_whole_deployment():
    """Set-up decisions roll no die (3.2, 3.3), so 'undo' right after the
    Ziegler's 'deploy rest' (the Technocrat agent has set up since) takes back
    everything it placed at once; the scripted player's choices depend only on
    the game and its point, so a second 'deploy rest' places the same force
    the same way.  'deploy rest' outside the set-up is refused."""
    reference = Session.new(ziegler="human", technocrat="scripted", scenario="open", seed=5)
    out = io.StringIO()
    terminal = Terminal(
        Session.new(ziegler="human", technocrat="scripted", scenario="open", seed=5),
        io.StringIO("deploy rest\nundo\nquit\n"),
        out,
    )
    terminal.run()
    text = out.getvalue()
    session = terminal.session
    assert "'deploy rest': the scripted player made" in text
    assert "Undone: set up: choose" in text and "more of your decision(s) and" in _flat(text)
    assert session.game.to_bytes() == reference.game.to_bytes() and not session.history  # back at the start
    deployed = [d.action for d in reference.auto("setup")]
    assert len(deployed) > 20 and all(d.by == "human" for d in reference.history)
    terminal.inp = io.StringIO("deploy rest\ndeploy rest\nquit\n")
    terminal.run()
    again = out.getvalue()[len(text) :]
    assert [d.action for d in session.history[: len(deployed)]] == deployed
    assert "Refused: the set-up (3.2, 3.3, D21) is over" in _flat(again)


def test_auto_plays_one_decision_of_the_scripted_player():
    """'auto': one decision, the scripted player's (Session.suggest), logged as
    the person's; 'undo' takes back just that one."""
    session = Session.new(technocrat="human", ziegler="scripted", scenario="standard", seed=2)
    session.advance()
    expected = session.suggest()
    out = io.StringIO()
    terminal = Terminal(session, io.StringIO("auto\nquit\n"), out)
    terminal.run()
    assert session.history[-1].action == expected and session.history[-1].by == "human"
    n = len(session.history)
    terminal.inp = io.StringIO("undo\nquit\n")
    terminal.run()
    assert len(terminal.session.history) == n - 1


class Recorder(TypedLines):
    """TypedLines that also notes, at every prompt, the turn, the phase and the
    side to move, and the menu the terminal printed."""

    def __init__(self, *args, commands=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.points = []
        self.commands = list(commands)

    def readline(self) -> str:
        game = self.terminal.session.game
        self.points.append((game.turn, game.phase, game.current_player()))
        if self.commands and len(self.typed) < self.limit:
            line = self.commands.pop(0)
            self.typed.append(line)
            return line + "\n"
        return super().readline()


def test_the_board_is_drawn_once_a_phase_not_after_every_step():
    """The board (its header '== Board:') is drawn when the turn, the phase
    (4.0) or the side to move changes, once at the start, on 'board', and at
    the end; the steps in between print only the log and the status lines.
    Drawn by itself it is the compact map; 'board' and the game's end give
    the full board with its pieces and stacks."""
    session = Session.new(technocrat="human", ziegler="scripted", scenario="standard", seed=3, max_turns=4)
    typed = Recorder(7, extras=False, commands=["board"])
    out = io.StringIO()
    terminal = Terminal(session, typed, out)
    typed.terminal = terminal
    assert terminal.run() == 0 and terminal.session.is_over()
    text = out.getvalue()
    changes = sum(1 for i, p in enumerate(typed.points) if i == 0 or p != typed.points[i - 1])
    boards = text.count("== Board:")
    assert boards == changes + 1 + 1  # + 'board' + the final board
    assert len(typed.points) > 3 * boards  # many steps a phase, one board
    assert text.count("Pieces:") == 2 and text.count("Key: each hex") == 1  # 'board' and the end
    assert text.count("'board': stacks ==") == changes


def test_the_compact_map_and_its_title_fit_a_24_line_screen_with_the_status_line():
    """Drawn once a phase, the map (the title, the column numbers and one line
    a row) fits 80x24 with a status line: 23 lines of at most 80 characters,
    each hex's token the full board's (the same symbols, D1's columns)."""
    from hotspot.core.hexgrid import MAP_COLS, MAP_ROWS
    from hotspot.core.render import render_compact, render_text

    session = Session.new(technocrat="human", ziegler="scripted", scenario="standard", seed=3, max_turns=2)
    session.advance()
    out = io.StringIO()
    terminal = Terminal(session, io.StringIO(), out)
    terminal.key_shown = True  # the key comes once, with the game's first board
    terminal._show_board(full=False)
    lines = out.getvalue().rstrip("\n").split("\n")
    status = terminal.status_lines()
    assert len(lines) + len(status[:1]) <= 24 and len(lines) == 23
    assert all(len(line) <= 80 for line in lines + status)
    state = session.game.observation(1)  # the Technocrat's view (D20), as the person sees it
    full = render_text(state).splitlines()
    compact = render_compact(state).splitlines()
    for row in range(MAP_ROWS):
        tokens = compact[1 + row][3:].split(" ")
        line = [full[3 + 2 * row][5:], full[4 + 2 * row][10:]]  # even columns' line, odd columns' line
        for col in range(MAP_COLS):
            token = compact[1 + row][3 + 5 * col : 7 + 5 * col]
            start = 10 * (col // 2)
            assert token.rstrip() == line[col % 2][start : start + 4].rstrip(), (col, row)
        assert len(tokens) >= MAP_COLS


@pytest.mark.parametrize("human", ["technocrat", "ziegler"])
def test_every_line_fits_80_columns_and_every_menu_a_24_line_screen(human, monkeypatch):
    """The whole output (logs, boards, the key, help, 'list', refusals) is at
    most 80 characters a line, and every menu (status lines, legal actions,
    prompt) at most 18 lines, also where the legal actions are many (the
    Ziegler's 308 set-up hexes, 3.2; a Technocrat stack's units)."""
    other = "ziegler" if human == "technocrat" else "technocrat"
    session = Session.new(**{human: "human", other: "scripted"}, scenario="open", seed=6, max_turns=6)
    commands = ["help", "key", "list", "list hex", "log 40", "board", "fly away", "undo"]
    typed = Recorder(4, commands=commands, extras=False)
    out = io.StringIO()
    terminal = Terminal(session, typed, out)
    typed.terminal = terminal
    menus = []
    menu = Terminal._menu

    def spy(self, legal):
        lines = menu(self, legal)
        menus.append((len(legal), lines))
        return lines

    monkeypatch.setattr(Terminal, "_menu", spy)
    assert terminal.run() == 0 and terminal.session.is_over()
    text = out.getvalue()
    too_long = [line for line in text.splitlines() if len(line) > 80]
    assert not too_long, too_long[:3]
    assert max(n for n, _ in menus) > 60  # long lists were among them
    assert all(len(lines) + 1 <= 18 and all(len(x) <= 80 for x in lines) for _, lines in menus)
    for _, lines in menus:
        assert "\n".join(lines) in text


def test_a_summed_up_action_can_still_be_chosen_by_its_number():
    """With the 308 hexes of the Ziegler's set-up (3.2) the menu sums the hexes
    up in one line ('list hex' shows them); the number of any legal action
    still plays it."""
    session = Session.new(ziegler="human", technocrat="scripted", scenario="open", seed=2)
    session.advance()
    session.play("choose one-hex")
    legal = session.legal()
    lines = menu_lines(legal)
    assert len(legal) > 300 and len(lines) <= 15
    assert any(line.startswith(f"  hex COL ROW: {len(legal)} choices") for line in lines)
    out = io.StringIO()
    Terminal(session, io.StringIO("list hex\n200\nquit\n"), out).run()
    assert session.history[-1].action == legal[199].action
    assert f"200. {legal[199].command}" in out.getvalue()


def _pty_play(args, lines, timeout=600.0):  # a fresh cache compiles the game first: minutes on CI
    """Run ``python -m hotspot play ARGS`` on a pseudo-terminal of 24 rows and
    80 columns, typing each of ``lines`` after the next prompt; returns the
    exit status and everything the terminal showed."""
    import fcntl
    import os
    import re
    import select
    import struct
    import subprocess
    import sys
    import termios
    import time

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, TERM="xterm", COLUMNS="80", LINES="24")
    proc = subprocess.Popen(
        [sys.executable, "-m", "hotspot", "play", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    shown = b""
    pending = list(lines)
    prompts = 0
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the other end closed: the program ended
                    break
                if not chunk:
                    break
                shown += chunk
                if shown.count(b"> ") > prompts and pending and shown.rstrip().endswith(b">"):
                    prompts = shown.count(b"> ")
                    os.write(master, (pending.pop(0) + "\n").encode())
            elif proc.poll() is not None:
                break
        rc = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]", "", shown.decode("utf-8", "replace")).replace("\r", "")
    return rc, text


def test_a_game_on_a_24x80_pseudo_terminal():
    """At a real (pseudo) terminal of 24 rows and 80 columns: 'deploy rest', a
    few 'auto phase', then 'concede' (5.0); the program ends with status 0, no
    traceback, the result, and no line wider than the screen."""
    args = ["--technocrat", "human", "--ziegler", "scripted", "--seed", "1", "--scenario", "open"]
    rc, text = _pty_play(args, ["deploy rest", "auto phase", "auto phase", "board", "auto phase", "concede"])
    assert rc == 0, text[-2000:]
    assert "Traceback" not in text
    assert "'deploy rest': the scripted player made" in text and "'auto phase': the scripted" in text
    assert "Conceded: ziegler wins (the Technocrat conceded, 5.0)." in text
    assert "Game over after turn" in text
    assert max(len(line) for line in text.splitlines()) <= 80
