"""Playing in the terminal: ``hotspot play --technocrat human --ziegler scripted``.

The loop lets the agents move (``Session.advance``), prints what happened
since the person last looked (the log, in the rulebook's words, as the
person's side may know it, D20), the board with its key, and the legal
actions, numbered; then reads one line:

    a number               the listed action of that number
    a command              the action's short command (shown in brackets, see
                           ``hotspot.human.commands``), its caption, or a unique
                           beginning of a legal one (``choose tri``)
    undo                   take back your last decision (not once a die was rolled since)
    concede                give up the game: the other side wins (5.0; final)
    save [FILE]            save the game (resume: hotspot play --load FILE)
    load FILE              continue a saved game instead (a bad file changes nothing)
    board / key / log [N]  the board again / its key / the last N lines of the log
    help                   this list
    quit                   stop (end of input too)

A refused line (an illegal action, with the rule's reason; an unknown
command) changes nothing.  ``Terminal(session, stdin, stdout)`` takes any
streams, for tests; ``stdin`` is read line by line.
"""

from __future__ import annotations

import sys

from hotspot.core.render import LEGEND
from hotspot.core.rules_data import SIDE_NAMES

from .session import HUMAN, Session, SessionError

HELP = """\
Type the number of a listed action, or its command (in brackets), e.g. 'select A', 'unit 12', 'ne',
'end', 'end phase', 'choose triangular', 'hex 3 4', 'face ne' (a unique beginning of a listed
command also works: 'choose tri').  Hexes are (col, row) as on the board.
Other commands:
  undo            take back your last decision (refused once a die was rolled since)
  concede         give up the game: the other side wins (rule 5.0; cannot be undone)
  save [FILE]     save the game; resume it with: hotspot play --load FILE
  load FILE       continue a saved game instead of this one
  board           show the board again        key     the key to the board's symbols
  log [N]         the last N lines of the log (default 30)
  help            this text                   quit    stop playing"""

#: the legal actions are listed with their captions up to this many; more are listed by command only
LONG_LIST = 24
DEFAULT_SAVE = "hotspot-save.json"


class Terminal:
    """The text front end of a :class:`Session` (see the module's docstring)."""

    def __init__(self, session: Session, stdin=None, stdout=None, save_path=None, autosave: bool = False):
        self.session = session
        self.inp = sys.stdin if stdin is None else stdin
        self.out = sys.stdout if stdout is None else stdout
        self.save_path = save_path
        self.autosave = autosave and save_path is not None
        self.shown = 0  # log lines already shown: the decisions before this index
        self.show_board = True  # print the board before the next prompt
        self.key_shown = False  # the key to the board comes with the first board (then: 'key')

    # ------------------------------------------------------------ output
    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def _ask(self, prompt: str) -> str | None:
        """One line of input, stripped; None at the end of input."""
        if self.inp is sys.stdin and self.out is sys.stdout and sys.stdin.isatty():
            try:  # input(): line editing where the readline module is loaded
                return input(prompt).strip()
            except EOFError:
                self.say()
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        return line.strip()

    def _show_news(self) -> None:
        lines = self.session.log(since=self.shown)
        self.shown = len(self.session.history)
        if lines:
            self.say("\n".join(lines))

    def _show_legal(self, legal) -> None:
        if len(legal) <= LONG_LIST:
            for i, a in enumerate(legal, 1):
                self.say(f"  {i:3d}. {a.caption}  [{a.command}]")
            return
        cells = [f"{i:3d}. {a.command}" for i, a in enumerate(legal, 1)]
        width = max(len(c) for c in cells) + 2
        per_row = max(1, 100 // width)
        for row in range(0, len(cells), per_row):
            self.say("  " + "".join(c.ljust(width) for c in cells[row : row + per_row]).rstrip())

    # ------------------------------------------------------------ the loop
    def run(self) -> int:
        """Play until the game ends, the person quits, or the input ends; returns 0."""
        self.say(
            f"Hot Spot: the Technocrat is {self._who(1)}, the Ziegler is {self._who(0)} "
            f"(scenario {self.session.settings['scenario']}, seed {self.session.settings['seed']}). "
            f"Type 'help' for the commands."
        )
        while True:
            self.session.advance()
            self._show_news()
            if self.session.is_over():
                self.say(self.session.board_text(legend=False))
                self.say(f"\n{self.session.status()}")
                return 0
            if self.show_board:
                self.say(self.session.board_text(legend=not self.key_shown))
                self.key_shown = True
                self.show_board = False
            legal = self.session.legal()
            self.say(f"\n{self.session.status()}")
            self._show_legal(legal)
            line = self._ask(f"{self.session.to_move()['side']}> ")
            if line is None or line.lower() in ("quit", "exit", "q"):
                self.say(
                    "Stopped."
                    + (
                        f" Saved to {self.save_path}."
                        if self.autosave
                        else " (To keep the game: 'save FILE' before 'quit'.)"
                    )
                )
                return 0
            self._handle(line, legal)

    def _who(self, side: int) -> str:
        name = self.session.controllers[side]
        return "you" if name == HUMAN and len(self.session.humans()) == 1 else name

    def _handle(self, line: str, legal) -> None:
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if not line:
            return
        if word == "help" or line == "?":
            self.say(HELP)
        elif word == "board" and not rest:
            self.say(self.session.board_text(legend=False))
        elif word in ("key", "legend") and not rest:
            self.say(LEGEND)
        elif word == "log" and (not rest or rest.isdigit()):
            n = int(rest) if rest else 30
            self.say("\n".join(self.session.log()[-n:]) or "(nothing yet)")
        elif word == "undo" and not rest:
            self._undo()
        elif word == "concede" and not rest:
            self._concede()
        elif word == "save":
            self._save(rest or self.save_path or DEFAULT_SAVE)
        elif word == "load" and rest:
            self._load(rest)
        elif line.isdigit():
            n = int(line)
            if not 1 <= n <= len(legal):
                self.say(f"No action {n}: choose 1 to {len(legal)}.")
                return
            self._play(legal[n - 1].action)
        else:
            self._play(line)

    def _play(self, move) -> None:
        try:
            self.session.play(move)
        except SessionError as exc:
            self.say(f"Refused: {exc}")
            return
        self._after_change()

    def _after_change(self) -> None:
        self.show_board = True
        if self.autosave:
            self._save(self.save_path, quiet=True)

    def _concede(self) -> None:
        try:
            result = self.session.concede()
        except SessionError as exc:
            self.say(f"Refused: {exc}")
            return
        self.say(f"Conceded: {result}.")
        if self.autosave:
            self._save(self.save_path, quiet=True)

    def _undo(self) -> None:
        try:
            taken = self.session.undo()
        except SessionError as exc:
            self.say(f"Refused: {exc}")
            return
        self.shown = min(self.shown, len(self.session.history))
        self.say(
            f"Undone: {taken[0].captions[None]}"
            + (f" and {len(taken) - 1} agent decision(s) after it" if len(taken) > 1 else "")
        )
        self._after_change()

    def _save(self, path, quiet: bool = False) -> None:
        try:
            self.session.save(path)
        except OSError as exc:
            self.say(f"Not saved: {exc}")
            return
        if not quiet:
            self.say(f"Saved to {path} (resume: hotspot play --load {path})")

    def _load(self, path) -> None:
        try:
            session = Session.load(path, allow_code=self.session.allow_code)
        except SessionError as exc:
            self.say(f"Not loaded (this game goes on): {exc}")
            return
        self.session = session
        self.shown = 0
        self.show_board = True
        self.say(f"Loaded {path}: {len(session.history)} decisions so far.")


def play_in_terminal(session: Session, stdin=None, stdout=None, save_path=None, autosave: bool = False) -> int:
    """Run the terminal front end on ``session``; returns the exit status (0)."""
    if stdin is None and sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history for the prompt)
        except ImportError:
            pass
    return Terminal(session, stdin, stdout, save_path, autosave).run()


STEP_HELP = "Enter: next move, b: the board, c: continue to the end, q: stop"


def step_through(record, stdin=None, stdout=None, interactive: bool = False, moves_only: bool = False) -> int:
    """``hotspot replay FILE --step`` / ``--moves``: the record's moves, one by
    one, with their captions and (unless ``moves_only``) what each caused.

    ``interactive``: wait for a line after each move (``STEP_HELP``); else
    print every move.  Returns the number of moves shown."""
    from hotspot.env.viewer import replay_steps  # the viewer's replay, here as text

    inp = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    if interactive:
        print(STEP_HELP, file=out)
    shown = 0
    for step in replay_steps(record):
        print(f"{step.index + 1:5d}. T{step.turn}{step.phase} {SIDE_NAMES[step.side]}: {step.caption}", file=out)
        if not moves_only:
            for line in step.details:
                print(f"         {line}", file=out)
        shown += 1
        while interactive:
            out.write("> ")
            out.flush()
            line = inp.readline()
            answer = line.strip().lower()
            if not line or answer == "q":
                return shown
            if answer == "b":
                print(step.game.render(), file=out)
                continue
            if answer == "c":
                interactive = False
            break
    return shown
