"""Playing in the terminal: ``hotspot play --technocrat human --ziegler scripted``.

The loop lets the agents move (``Session.advance``), prints what happened
since the person last looked (the log, in the rulebook's words, as the
person's side may know it, D20), then, before each of the person's
decisions, a menu that fits an 80x24 screen: a status line or two (turn,
phase, who is to move, the selected piece or unit, what is left to place in
a set-up, the last decision) and the legal actions, numbered (a long list
in columns of commands, a group too long for the screen summed up in one
line, e.g. ``hex COL ROW: 68 choices ... ('list hex' shows them)``); then
reads one line.  The map (``core.render.render_compact``: with its title and
a status line it fits 80x24) is drawn when the turn, the phase (4.0) or the
side to move changes, not after every step; ``board`` shows the full board
with every piece and stack.  Every line printed is at most 80 characters
(longer ones are wrapped).

    a number               the listed action of that number
    a command              the action's short command (shown in brackets, see
                           ``hotspot.human.commands``), its caption, or a unique
                           beginning of a legal one (``choose tri``)
    auto                   the scripted player's choice for this decision, played for you
    auto phase             the scripted player finishes this phase for you
    deploy rest            set-up (3.2, 3.3, D21): the scripted player places all the rest
                           (also ``auto setup``)
    list [WORD]            every legal action, or those whose command begins with WORD
    undo [N]               take back your last decision, or N of them; right after an
                           auto command: everything it played (not once a die was rolled since)
    concede                give up the game: the other side wins (5.0; final)
    save [FILE]            save the game (resume: hotspot play --load FILE)
    load FILE              continue a saved game instead (a bad file changes nothing)
    board / key / log [N]  the board again / its key / the last N lines of the log
    help                   this list
    quit                   stop (end of input too)

``auto``, ``auto phase`` and ``deploy rest`` ask the scripted player
(``Session.auto``, the agent API on the person's information state) and play
its choices through ``Session.play``, the path of a typed action: each is
checked by the rules, logged, saved and can be undone.  ``undo`` right after
one of them takes back the whole block it played (``undo 1``: only the last
decision of it).

A refused line (an illegal action, with the rule's reason; an unknown
command) changes nothing.  ``Terminal(session, stdin, stdout)`` takes any
streams, for tests; ``stdin`` is read line by line, and a line read from a
stream that is not a terminal is echoed after the prompt (a transcript).
"""

from __future__ import annotations

import sys
import textwrap

from hotspot.core.hexgrid import col_row
from hotspot.core.render import LEGEND, piece_name, unit_name
from hotspot.core.rules_data import ITEM_NAMES, PHASE_LETTERS, PHASE_NAMES, POOL_KEYS, POOL_SIDE, SIDE_NAMES
from hotspot.core.setup import is_setup_phase

from .session import HUMAN, Session, SessionError

HELP = """\
Type the number of a listed action or its command (in brackets), e.g.
'select a', 'unit 12', 'ne', 'end', 'end phase', 'choose triangular',
'hex 3 4', 'face ne'; a unique beginning of a legal command also works
('choose tri').  Hexes are (col, row) as on the board.
Other commands:
  auto          the scripted player's choice for this decision, played for you
  auto phase    the scripted player finishes this phase for you
  deploy rest   set-up (rules 3.2, 3.3): the scripted player places all the
                rest of your force (also 'auto setup')
  list [WORD]   every legal action, or those beginning with WORD ('list hex')
  undo [N]      take back your last decision (N: that many); right after an
                auto command, all it played; refused once a die was rolled since
  concede       give up the game: the other side wins (rule 5.0; final)
  save [FILE]   save the game; resume it with: hotspot play --load FILE
  load FILE     continue a saved game instead of this one
  board         show the board again     key    the key to the board's symbols
  log [N]       the last N lines of the log (default 30)
  help          this text                quit   stop playing"""

#: the width of the screen: longer lines are wrapped
WIDTH = 80
#: the legal actions take at most this many lines of the menu (with the status
#: lines and the prompt the menu stays within 18 lines of a 24-line screen)
MENU_ROWS = 15
DEFAULT_SAVE = "hotspot-save.json"
#: how a summed-up group of commands is typed
_PATTERNS = {
    "hex": "hex COL ROW",
    "face": "face DIR",
    "choose": "choose ITEM",
    "unit": "unit ID",
    "combat": "combat ID",
    "lose": "lose ID",
    "combine": "combine ID",
    "select": "select PIECE",
    "neutralize": "neutralize PIECE",
    "rotate": "rotate SLOT cw|ccw",
}
_POOL_WORDS = {"crustal_hexes": "crustal hexes", "infantry_squads": "infantry squads", "heavy_beamers": "heavy beamers"}
_AUTO = {
    "auto": "action",
    "auto phase": "phase",
    "auto end phase": "phase",
    "deploy rest": "setup",
    "auto setup": "setup",
}


def wrap(text: str, width: int = WIDTH) -> list[str]:
    """The lines of ``text``, each at most ``width`` characters: a longer line
    is broken at spaces, its continuation indented four more than the line
    (a word longer than the line, such as a file name, is kept whole)."""
    lines = []
    for line in str(text).split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = " " * min(len(line) - len(line.lstrip(" ")) + 4, width // 2)
        lines.extend(
            textwrap.wrap(
                line,
                width,
                subsequent_indent=indent,
                break_on_hyphens=False,
                break_long_words=False,  # a file name stays whole, to be copied
                drop_whitespace=True,
                replace_whitespace=False,
            )
            or [line[:width]]
        )
    return lines


def key_text(width: int = WIDTH) -> str:
    """The key to the board's symbols (``core.render.LEGEND``) within ``width``:
    its table as it is, its closing paragraph of prose filled anew."""
    lines = LEGEND.split("\n")
    prose = next(i for i, line in enumerate(lines) if line.startswith("Hex (col, row)"))
    return "\n".join(wrap("\n".join(lines[:prose]), width) + textwrap.wrap(" ".join(lines[prose:]), width))


def _clip(line: str, width: int = WIDTH) -> str:
    return line if len(line) <= width else line[: width - 3] + "..."


def _columns(cells: list[str], width: int = WIDTH) -> list[str]:
    """``cells`` row by row in columns of equal width, within ``width``."""
    if not cells:
        return []
    cell = max(len(c) for c in cells) + 2
    per_row = max(1, (width - 2) // cell)
    return [
        _clip("  " + "".join(c.ljust(cell) for c in cells[i : i + per_row]).rstrip(), width)
        for i in range(0, len(cells), per_row)
    ]


def _word(command: str) -> str:
    return command.split(" ", 1)[0]


def menu_lines(legal, rows: int = MENU_ROWS, width: int = WIDTH) -> list[str]:
    """The legal actions in at most ``rows`` lines of at most ``width``
    characters, numbered as in ``legal`` (1-based).

    Few: one a line with the core's caption and the command.  More: the
    numbered commands in columns.  Too many for that: the largest groups of
    commands (by their first word: ``hex``, ``unit`` ...) are summed up in
    one line each, until the rest fits in columns."""
    if len(legal) <= rows:
        lines = []
        for i, a in enumerate(legal, 1):
            same = " ".join(a.caption.lower().replace("(", " ").replace(")", " ").replace(",", " ").split())
            text = a.caption if same == a.command else f"{a.caption}  [{a.command}]"
            lines.append(_clip(f"  {i:3d}. {text}", width))
        return lines
    groups: dict[str, list] = {}
    for i, a in enumerate(legal, 1):
        groups.setdefault(_word(a.command), []).append((i, a.command))
    summed: list[str] = []
    while True:
        digits = len(str(len(legal)))
        cells = [f"{i:{digits}d}. {c}" for w, g in groups.items() if w not in summed for i, c in g]
        cells.sort(key=lambda c: int(c.split(".")[0]))
        lines = _columns(cells, width)
        left = [w for w in groups if w not in summed]
        if len(lines) + len(summed) <= rows or not left:
            break
        summed.append(max(left, key=lambda w: len(groups[w])))
    out = []
    for w in summed:
        g = groups[w]
        pattern = _PATTERNS.get(w, w)
        out.append(
            _clip(f"  {pattern}: {len(g)} choices, {g[0][1]} (#{g[0][0]}) .. {g[-1][1]}; 'list {w}' shows them", width)
        )
    return lines + out


class Terminal:
    """The text front end of a :class:`Session` (see the module's docstring)."""

    def __init__(self, session: Session, stdin=None, stdout=None, save_path=None, autosave: bool = False):
        self.session = session
        self.inp = sys.stdin if stdin is None else stdin
        self.out = sys.stdout if stdout is None else stdout
        self.save_path = save_path
        self.autosave = autosave and save_path is not None
        self.shown = 0  # log lines already shown: the decisions before this index
        self.board_at = None  # (turn, phase, side to move) of the last board drawn; None: draw it
        self.key_shown = False  # the key to the board comes with the first board (then: 'key')
        self.auto_from: int | None = None  # the history index where the last auto block began (for undo)

    # ------------------------------------------------------------ output
    def say(self, text: str = "") -> None:
        print("\n".join(wrap(text)), file=self.out)

    def _interactive(self) -> bool:
        return self.inp is sys.stdin and self.out is sys.stdout and sys.stdin.isatty()

    def _ask(self, prompt: str) -> str | None:
        """One line of input, stripped; None at the end of input."""
        if self._interactive():
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
        self.out.write(line.strip() + "\n")  # the transcript shows what was read
        return line.strip()

    def _show_news(self) -> None:
        lines = self.session.log(since=self.shown)
        self.shown = len(self.session.history)
        if lines:
            self.say("\n".join(lines))

    def _show_board(self, full: bool = True) -> None:
        """The board as the person's side sees it: ``full``, the map with every
        piece and stack ('board', the game's end); else the map alone, which
        with its title and a status line fits a 24-line screen."""
        game = self.session.game
        view = self.session.default_view()
        if full:
            eyes = "everything" if view is None else f"as the {SIDE_NAMES[view].capitalize()} sees it (D20)"
        else:  # the title of a 24-line screen: one line of at most 80 characters
            eyes = ("everything" if view is None else f"the {SIDE_NAMES[view].capitalize()}'s view (D20)") + (
                "; 'board': stacks"
            )
        self.say(f"== Board: turn {game.turn}, phase {PHASE_LETTERS[game.phase]}, {eyes} ==")
        self.say(self.session.board_text(legend=False, compact=not full))
        if not self.key_shown:
            self.say(key_text())
            self.key_shown = True

    def status_lines(self) -> list[str]:
        """The status: the turn, the phase, who is to move; then (if any) the
        selected piece or unit, what is left to place, what just happened."""
        session, game = self.session, self.session.game
        if session.is_over():
            return wrap(session.status())
        side = game.current_player()
        letter, name = PHASE_LETTERS[game.phase], PHASE_NAMES[game.phase]
        who = (
            f"you ({SIDE_NAMES[side].capitalize()})"
            if len(session.humans()) == 1 and session.controllers[side] == HUMAN
            else f"the {SIDE_NAMES[side].capitalize()} ({session.controllers[side]})"
        )
        lines = [_clip(f"T{game.turn}{letter} {name}: {who} to move")]
        last = self._last()
        for part in (self._selection(side), self._to_place(side), f"last: {last}" if last else ""):
            if not part:
                continue
            if len(lines[-1]) + 2 + len(part) <= WIDTH:
                lines[-1] += "; " + part
            elif len(lines) < 2:
                lines.append(_clip(" " + part))
            else:
                lines[-1] = _clip(lines[-1] + "; " + part)
        return lines

    def _selection(self, side: int) -> str:
        s = self.session.game.observation(side)[0]  # the side's own pieces and units: nothing hidden from it
        if is_setup_phase(int(s["phase"])):
            item = int(s["setup_item"])
            if item < 0:
                return ""
            cell = int(s["setup_cell"])
            return f"placing {ITEM_NAMES[item]}" + (f" at {col_row(cell)}, facing next" if cell >= 0 else "")
        k, u = int(s["sel_piece"]), int(s["sel_unit"])
        if k >= 0:
            hexes = " ".join(str(col_row(int(c))) for c in s["piece_cells"][k] if c >= 0)
            return f"selected {piece_name(s, k)} at {hexes}"
        if u >= 0:
            return (
                f"selected #{u} {unit_name(s, u)} at {col_row(int(s['unit_cell'][u]))}, "
                f"{int(s['unit_moves'][u])} to move"
            )
        return ""

    def _to_place(self, side: int) -> str:
        s = self.session.game.s
        if not is_setup_phase(int(s["phase"])):
            return ""
        left = [
            f"{int(n)} {_POOL_WORDS.get(POOL_KEYS[i], POOL_KEYS[i].replace('_', ' '))}"
            for i, n in enumerate(s["pool"])
            if int(POOL_SIDE[i]) == side and n > 0
        ]
        return "left: " + ", ".join(left) if left else ""

    def _last(self) -> str:
        if not self.session.history:
            return ""
        d = self.session.history[-1]
        view = self.session.default_view()
        by = "you" if d.by == HUMAN and len(self.session.humans()) == 1 else SIDE_NAMES[d.side]
        return f"{by}: {d.captions[view]}"

    def _menu(self, legal) -> list[str]:
        """The menu: the status lines and the legal actions (the prompt follows)."""
        return self.status_lines() + menu_lines(legal)

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
                self._show_board()
                self.say(f"\n{self.session.status()}")
                return 0
            game = self.session.game
            at = (game.turn, game.phase, game.current_player())
            if at != self.board_at:
                self._show_board(full=False)
                self.board_at = at
            legal = self.session.legal()
            self.say("\n".join(self._menu(legal)))
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
        key = " ".join(line.lower().split())
        if not line:
            return
        if word == "help" or line == "?":
            self.say(HELP)
        elif word == "board" and not rest:
            self._show_board()
        elif word in ("key", "legend") and not rest:
            self.say(key_text())
        elif word == "log" and (not rest or rest.isdigit()):
            n = int(rest) if rest else 30
            self.say("\n".join(self.session.log()[-n:]) or "(nothing yet)")
        elif word == "list":
            self._list(legal, rest.lower())
        elif key in _AUTO:
            self._auto(_AUTO[key], key)
        elif word == "undo" and (not rest or rest.isdigit()):
            self._undo(int(rest) if rest else None)
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

    def _list(self, legal, start: str) -> None:
        chosen = [(i, a) for i, a in enumerate(legal, 1) if a.command.startswith(start)]
        if not chosen:
            self.say(f"No legal action's command begins with {start!r}.")
            return
        digits = len(str(chosen[-1][0]))
        self.say("\n".join(_columns([f"{i:{digits}d}. {a.command}" for i, a in chosen])))

    def _play(self, move) -> None:
        try:
            self.session.play(move)
        except SessionError as exc:
            self.say(f"Refused: {exc}")
            return
        self.auto_from = None
        self._after_change()

    def _auto(self, scope: str, typed: str) -> None:
        start = len(self.session.history)
        try:
            done = self.session.auto(scope)
        except SessionError as exc:
            self.say(f"Refused: {exc}")
            if len(self.session.history) == start:
                return
            done = self.session.history[start:]
        mine = sum(d.by == HUMAN for d in done)
        self.auto_from = start
        if scope != "action":
            self.say(f"'{typed}': the scripted player made {mine} decision(s) for you.")
        self._after_change()

    def _after_change(self) -> None:
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

    def _undo(self, count: int | None) -> None:
        """``undo``: the last decision, or right after an auto command the whole
        block it played; ``undo N``: N of the person's own decisions."""
        block = count is None and self.auto_from is not None and self.auto_from < len(self.session.history)
        if block:
            side = next((d.side for d in reversed(self.session.history[self.auto_from :]) if d.by == HUMAN), None)
            count = sum(d.by == HUMAN and d.side == side for d in self.session.history[self.auto_from :]) or 1
        try:
            taken = self.session.undo(decisions=count or 1)
        except SessionError as exc:
            self.say(f"Refused: {exc}" + (" ('undo 1' takes back only your last decision)" if block else ""))
            return
        self.auto_from = None
        self.shown = min(self.shown, len(self.session.history))
        own = sum(d.by == HUMAN for d in taken)
        others = len(taken) - own
        self.say(
            f"Undone: {taken[0].captions[None]}"
            + (f" and {own - 1} more of your decision(s)" if own > 1 else "")
            + (f" and {others} agent decision(s) after it" if others else "")
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
        self.board_at = None
        self.auto_from = None
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
