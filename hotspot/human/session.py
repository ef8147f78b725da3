"""One game between people and agents: the model behind ``hotspot play`` and the web app.

>>> from hotspot.human import Session
>>> session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=7)
>>> session.advance()               # the agents move until a person is to move
>>> session.to_move()               # {'side': 'technocrat', 'human': True, 'controller': 'human'}
>>> session.legal()[0]              # LegalAction(action=242, caption='set up: choose ...', command='choose ...')
>>> session.play("choose attack-platform")   # or an action id; refused with the rule's reason if illegal
>>> session.auto("phase")            # the scripted player finishes the phase for the person
>>> session.undo()                  # the person's last decision, unless a die was rolled since
>>> session.concede()               # 5.0: the person gives up; the other side wins
>>> session.save("game.json"); Session.load("game.json")

A ``Session`` holds a ``hotspot.core.game.Game`` (the scenario, ``open``'s
set-up phases 3.2, 3.3 and D21 included, rules options, the dice seed, the
turn limit), a controller for each side (``"human"`` or the name of an agent
of ``hotspot.agents.registry``) and the history of every decision with what
it caused.

Determinism: everything follows from the settings and the decisions.  The
dice come from the seed (2.3); each agent is made from the registry with the
arena's seed for its side (``arena.match.agent_seeds``) and a compiled agent
moves as the arena moves it, so the same settings and the same human
decisions give the same game, and a session between agents is the arena's
game of its seed.  ``undo`` and ``load`` rebuild
the session by replaying its decisions from the start, the agents included
(each agent is asked again and must choose what it chose: a saved game whose
agent moves were altered is refused), so an agent's own state is what it was.

Undo (of the person's own last decision) is refused once a die has been
rolled since that decision: the core reports every roll as an event
(``core.dice.roll_die``), and a decision after which any roll was reported
cannot be taken back (else a player could undo until the dice please him).

Help from an agent: ``suggest()`` is the action the scripted player (or
another registered agent) would choose for the person to move, from that
side's information state (D20); ``auto("action" | "phase" | "setup")``
plays such choices for the person through ``play`` (the same legality
path as a typed command): one decision, the rest of the phase, or the rest
of the set-up (3.2, 3.3, D21).  They are the person's decisions: saved,
logged and undone like typed ones (``undo(decisions=N)`` takes back N at
once).

Concession (5.0: "either player may concede at any time"): a person
concedes for his own side (``concede``); the other side wins, the game is
over, and the concession is final (no undo) and kept in the save.  Agents
never concede.

Hidden information (D20, 9.5, 14.2, 14.3): the board and the log are shown
as one side may know them, by default the human side's (with two humans, the
side to move; with none, everything): ``board_text(side)``, ``log(side)``.

Every refusal raises ``SessionError`` (a ``ValueError``) with the reason and
leaves the session unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from hotspot.agents.policies import policy_action
from hotspot.agents.registry import CodeNotAllowedError, make_agent
from hotspot.arena.match import agent_seeds, setup_seed
from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.dice import mix64_int
from hotspot.core.game import Game, IllegalActionError, action_to_string
from hotspot.core.hexgrid import col_row
from hotspot.core.jsonfile import JSONInputError, read_json
from hotspot.core.limits import check_max_turns
from hotspot.core.render import LEGEND, describe_events, piece_name, render_compact, render_text, unit_name
from hotspot.core.rules_data import (
    NO_PIECE,
    PHASE_LETTERS,
    PHASE_NAMES,
    PHASE_OVER,
    PIECE_NAMES,
    SIDE_NAMES,
    UNIT_NAMES,
    UNIT_SIDE,
    UNKNOWN_UNIT,
    RulesOptions,
    side_index,
)
from hotspot.core.scenario import ScenarioError, with_rules
from hotspot.core.setup import is_setup_phase
from hotspot.core.state import MAX_PIECES, MAX_UNITS

from .commands import CommandError, command_of, parse_command

HUMAN = "human"
#: the agent whose choices ``suggest`` and ``auto`` play for a person
HELPER = "scripted"
#: ``auto`` stops after this many decisions (a phase has far fewer)
AUTO_LIMIT = 5000
FORMAT = "hotspot-session"
VERSION = 1
#: the views of the log: everything (None), the Ziegler's, the Technocrat's
_VIEWS = (None, 0, 1)


class SessionError(ValueError):
    """A refused request (an illegal or unknown move, nothing to undo, a bad
    save file); the session is unchanged."""


class LegalAction(NamedTuple):
    """One legal action: its id, the core's caption and the short command."""

    action: int
    caption: str
    command: str


@dataclass
class Decision:
    """One decision of the game and what it caused."""

    index: int  # its position in the game's action list
    turn: int
    phase: str  # the phase letter (4.0) when it was made
    side: int  # 0 Ziegler, 1 Technocrat
    by: str  # "human" or the agent's name
    action: int
    rolled: bool  # the core reported a die roll (2.3) caused by it
    captions: dict = field(default_factory=dict)  # view -> the action's caption as that view saw it
    details: dict = field(default_factory=dict)  # view -> the events in words (describe_events)

    def lines(self, view=None) -> list[str]:
        """The log lines of this decision for ``view`` (None: everything; 0, 1: a side's)."""
        head = f"T{self.turn}{self.phase} {SIDE_NAMES[self.side]} ({self.by}): {self.captions[view]}"
        return [head] + ["    " + line for line in self.details[view]]

    def as_dict(self, view=None) -> dict:
        """JSON-ready, as ``view`` saw it (None: everything; 0, 1: a side's)."""
        return {
            "index": self.index,
            "turn": self.turn,
            "phase": self.phase,
            "side": SIDE_NAMES[self.side],
            "by": self.by,
            "action": self.action,
            "rolled": self.rolled,
            "caption": self.captions[view],
            "details": list(self.details[view]),
        }


def _check_controller(name, side: str) -> str:
    if not isinstance(name, str) or not name:
        raise SessionError(f"{side}: a controller is 'human' or an agent's name, got {name!r}")
    return name


class _Agents:
    """The agents of a session, made from the registry with the arena's seed
    for their side (``arena.match.agent_seeds``).  A compiled agent
    (``policy_id``) decides by its compiled policy with the arena's generator,
    as ``arena.match`` plays it, so a session between compiled agents is the
    arena's game of its seed; any other agent by ``Agent.act`` on its side's
    information state (D20) and the legal actions."""

    def __init__(self, controllers, seed: int, allow_code=True):
        seeds = agent_seeds(seed)
        self.names = controllers
        self.rng = np.array(seeds, dtype=np.uint64)  # rng[side]: a compiled policy's generator
        self.mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        self.by_side = {}
        for side, name in enumerate(controllers):
            if name != HUMAN:
                allowed = allow_code if isinstance(allow_code, bool) else name in allow_code
                try:
                    self.by_side[side] = make_agent(name, seed=seeds[side], allow_code=allowed)
                except CodeNotAllowedError as exc:
                    raise SessionError(
                        f"{SIDE_NAMES[side]}: {exc}; an agent that runs code from a module or file must be named "
                        f"by the person who starts the game (hotspot play --{SIDE_NAMES[side]} {name})"
                    ) from None
                except (ValueError, ImportError, OSError) as exc:
                    raise SessionError(f"{SIDE_NAMES[side]}: {exc}") from None
                if side not in getattr(self.by_side[side], "seats", (0, 1)):
                    raise SessionError(
                        f"{SIDE_NAMES[side]}: agent {name!r} cannot play the {SIDE_NAMES[side]} "
                        f"(a model trained for the other seat)"
                    )

    def decide(self, game: Game, side: int) -> int:
        agent = self.by_side[side]
        policy = getattr(agent, "policy_id", None)
        if policy is not None:
            action = policy_action(int(policy), game.s, self.mask, self.rng, side)
        else:
            action = agent.act(game.observation(side), game.legal_action_mask(), side)
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise SessionError(f"the {self.names[side]} agent returned {action!r}, not an action")
        return int(action)


class Session:
    """One game between people (``"human"``) and agents; see the module's docstring."""

    def __init__(self, settings: dict, scenario: dict, allow_code=True):
        """Use :meth:`new` or :meth:`load`."""
        self.settings = settings  # JSON-ready: technocrat, ziegler, scenario, seed, rules, max_turns
        self.scenario = scenario  # the scenario dict, rules merged: what the game starts from
        # which agent specs may import a module or read a file (hotspot.agents.registry's allow_code):
        # True, False, or a set of the specs the person named
        self.allow_code = allow_code if isinstance(allow_code, bool) else frozenset(allow_code)
        self.controllers = (settings["ziegler"], settings["technocrat"])  # indexed by side
        self.game, self.agents, self.history = self._start()
        self.conceded: int | None = None  # the side that conceded (5.0), if one did
        self._helpers: dict = {}  # (agent name, side) -> the agent that suggests the person's moves (auto)

    # ------------------------------------------------------------ making one
    @classmethod
    def new(
        cls,
        technocrat: str = HUMAN,
        ziegler: str = "scripted",
        scenario="standard",
        seed: int = 0,
        rules=None,
        max_turns: int | None = None,
        *,
        allow_code=True,
    ) -> "Session":
        """A new game.  ``technocrat`` / ``ziegler``: ``"human"`` or an agent of
        ``hotspot.agents.registry``; ``allow_code``: whether an agent may be a
        ``module:attribute`` or read a model file (True, False, or the set of
        specs that may; the web app's requests pass False); ``scenario``: a built-in name (``standard``,
        ``open``, ``random``, ``random:N``), a JSON path or a dict (``random``
        draws the set-up from the seed, as the arena does); ``rules``: rules
        option overrides; ``max_turns``: None (the rulebook: no limit, D19) or a
        turn after which the game stops without a winner."""
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise SessionError(f"seed must be a non-negative integer, got {seed!r}")
        try:
            max_turns = check_max_turns(max_turns) or None
        except ValueError as exc:
            raise SessionError(str(exc)) from None
        name = scenario if isinstance(scenario, str) else "custom"
        if scenario == "random":  # the arena's rule: the set-up follows from the game's seed
            scenario = name = f"random:{setup_seed(int(seed))}"
        try:
            data = with_rules(scenario, rules)
        except (ScenarioError, ValueError, OSError) as exc:
            raise SessionError(f"scenario {name!r}: {exc}") from None
        settings = {
            "technocrat": _check_controller(technocrat, "technocrat"),
            "ziegler": _check_controller(ziegler, "ziegler"),
            "scenario": str(name),
            "seed": int(seed),
            "rules": _rules_dict(rules),
            "max_turns": max_turns,
        }
        return cls(settings, data, allow_code)

    def _start(self):
        """A fresh game, fresh agents (seeded as the arena seeds them) and an empty history."""
        try:
            game = Game(self.scenario, seed=self.settings["seed"], max_turns=self.settings["max_turns"])
        except (ScenarioError, ValueError) as exc:
            raise SessionError(f"the game cannot start: {exc}") from None
        agents = _Agents(self.controllers, self.settings["seed"], self.allow_code)
        return game, agents, []

    # ------------------------------------------------------------ queries
    def is_over(self) -> bool:
        return self.game.is_terminal()

    def to_move(self) -> dict | None:
        """``{"side", "human", "controller"}`` of the side to decide now (the
        losing side while a loss it names is pending, D22); None once the game is over."""
        if self.is_over():
            return None
        side = self.game.current_player()
        name = self.controllers[side]
        return {"side": SIDE_NAMES[side], "human": name == HUMAN, "controller": name}

    def humans(self) -> list[int]:
        """The sides played by people."""
        return [side for side, name in enumerate(self.controllers) if name == HUMAN]

    def default_view(self):
        """Whose eyes the board and the log use by default (D20): the human
        side; with two, the side to move (the last mover once over); with none, everything."""
        humans = self.humans()
        if not humans:
            return None
        if len(humans) == 1:
            return humans[0]
        if not self.is_over():
            return self.game.current_player()
        return self.history[-1].side if self.history else 0

    def legal(self) -> list[LegalAction]:
        """The legal actions now, with the core's captions and their short commands."""
        s = self.game.s
        return [
            LegalAction(int(a), action_to_string(s, int(a)), command_of(s, int(a))) for a in self.game.legal_actions()
        ]

    def result(self) -> str:
        """The result in words: 'ongoing', 'technocrat wins', 'ziegler wins', or a stop by max_turns."""
        if self.game.is_truncated():
            return f"no winner: stopped after turn {self.game.turn} by max_turns (D19)"
        if self.conceded is not None:
            return f"{self.game.result()} (the {SIDE_NAMES[self.conceded].capitalize()} conceded, 5.0)"
        return self.game.result()

    def status(self) -> str:
        """One line: the turn and phase, who is to move, or the result."""
        if self.is_over():
            return f"Game over after turn {self.game.turn}: {self.result()}"
        who = self.to_move()
        phase = self.game.phase
        return (
            f"Turn {self.game.turn}, phase {PHASE_LETTERS[phase]} ({PHASE_NAMES[phase]}): "
            f"the {who['side'].capitalize()} ({who['controller']}) to move"
        )

    def log(self, view="default", since: int = 0) -> list[str]:
        """The log lines of the decisions from ``since`` on, for ``view``
        (``"default"``: :meth:`default_view`; None: everything; 0/1 or a side name)."""
        view = self._view(view)
        return [line for d in self.history[since:] for line in d.lines(view)]

    def board_text(self, view="default", legend: bool = True, compact: bool = False) -> str:
        """The board as text (``core.render.render_text``) as ``view`` sees it
        (D20), with the key to its symbols and hex coordinates; ``compact``:
        the map alone in 22 lines (``core.render.render_compact``)."""
        view = self._view(view)
        state = self.game.state if view is None else self.game.observation(view)
        text = render_compact(state) if compact else render_text(state)
        return text + "\n" + LEGEND if legend else text

    def _view(self, view):
        if view == "default":
            return self.default_view()
        if view is None:
            return None
        try:
            return side_index(view)
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise SessionError(f"view must be None, 0, 1, 'ziegler' or 'technocrat', got {view!r}") from exc

    # ------------------------------------------------------------ deciding
    def _person_to_move(self) -> int:
        """The side to move, if a person plays it; ``SessionError`` if the game
        is over or an agent is to move."""
        if self.is_over():
            raise SessionError(f"the game is over: {self.result()}")
        side = self.game.current_player()
        if self.controllers[side] != HUMAN:
            raise SessionError(
                f"the {SIDE_NAMES[side].capitalize()} is played by the {self.controllers[side]} "
                f"agent: let it move (advance)"
            )
        return side

    def play(self, move) -> Decision:
        """The person to move decides ``move``: an action id (int) or a typed
        command (str, ``hotspot.human.commands``).  An illegal or unknown move
        is refused with the rule's reason (``SessionError``), the game unchanged."""
        self._person_to_move()
        if isinstance(move, str):
            try:
                move = parse_command(self.game.s, move, self.game.legal_actions())
            except CommandError as exc:
                raise SessionError(str(exc)) from None
        elif isinstance(move, (bool, np.bool_)) or not isinstance(move, (int, np.integer)):
            raise SessionError(f"a move is an action id (int) or a command (str), got {move!r}")
        try:
            return self._apply(int(move), HUMAN)
        except IllegalActionError as exc:
            raise SessionError(str(exc)) from None

    def advance(self, max_actions: int | None = None) -> list[Decision]:
        """Let the agents decide until a person is to move or the game is over
        (or ``max_actions`` decisions); returns their decisions."""
        done = []
        while not self.is_over() and (max_actions is None or len(done) < max_actions):
            side = self.game.current_player()
            if self.controllers[side] == HUMAN:
                break
            action = self.agents.decide(self.game, side)
            done.append(self._apply(action, self.controllers[side]))
        return done

    # ------------------------------------------------------------ the helper's choices
    def suggest(self, agent: str = HELPER) -> int:
        """The action ``agent`` (a registered agent, by default the scripted
        player) would choose for the person to move now, from that side's
        information state (D20) and the legal actions; nothing is played.

        The helper agent is asked through the agent API (``Agent.act``) and
        reseeded for every decision from the game's seed, the side and the
        number of decisions so far, so that its choice at a given point of a
        given game is always the same (after an undo, after a load)."""
        side = self._person_to_move()
        helper = self._helpers.get((agent, side))
        if helper is None:
            try:  # a registered agent only: the helper is named by the program, not read from a file
                helper = make_agent(agent, seed=0, allow_code=False)
            except (ValueError, ImportError, OSError) as exc:
                raise SessionError(f"helper {agent!r}: {exc}") from None
            self._helpers[(agent, side)] = helper
        helper.reset(mix64_int(agent_seeds(self.settings["seed"])[side] ^ len(self.history)))
        action = helper.act(self.game.observation(side), self.game.legal_action_mask(), side)
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise SessionError(f"the helper {agent!r} returned {action!r}, not an action")
        return int(action)

    def auto(self, scope: str = "action", agent: str = HELPER) -> list[Decision]:
        """Play ``agent``'s choices (:meth:`suggest`) for the person to move, by
        :meth:`play` (the legality path of a typed action: each is checked,
        recorded as the person's decision, saved and undone as one).

        ``scope``: ``"action"`` one decision; ``"phase"`` every decision of
        the people until the turn or the phase (4.0) changes or the game ends
        (the agents' decisions in between, such as an owner's losses, D22,
        are theirs, one at a time); ``"setup"`` the same, refused outside the
        set-up phases (3.2, 3.3, D21): it deploys everything left to place.
        Returns every decision made, the agents' included."""
        if scope not in ("action", "phase", "setup"):
            raise SessionError(f"scope must be 'action', 'phase' or 'setup', got {scope!r}")
        if scope == "setup" and not self.is_over() and not is_setup_phase(self.game.phase):
            raise SessionError(
                f"the set-up (3.2, 3.3, D21) is over: this is turn {self.game.turn}, phase "
                f"{PHASE_LETTERS[self.game.phase]} ({PHASE_NAMES[self.game.phase]}); 'auto phase' plays a phase"
            )
        start = (self.game.turn, self.game.phase)
        done = [self.play(self.suggest(agent))]
        while scope != "action" and not self.is_over() and (self.game.turn, self.game.phase) == start:
            if len(done) >= AUTO_LIMIT:  # a safeguard: a phase ends long before
                break
            if self.controllers[self.game.current_player()] == HUMAN:
                done.append(self.play(self.suggest(agent)))
            else:
                done.extend(self.advance(max_actions=1))
        return done

    def _apply(self, action: int, by: str, game: Game | None = None, history=None) -> Decision:
        """Apply ``action`` (raises ``IllegalActionError``, game unchanged) and record what it caused."""
        game = self.game if game is None else game
        history = self.history if history is None else history
        before = game.s.copy()
        side, turn, phase = game.current_player(), game.turn, PHASE_LETTERS[game.phase]
        seen = {view: (before if view is None else game.observation(view)[0]) for view in _VIEWS}
        events = game.apply_action(action, events=True)
        decision = Decision(
            index=len(history),
            turn=turn,
            phase=phase,
            side=side,
            by=by,
            action=action,
            rolled=any(e["event"] == "roll" for e in events),
        )
        for view in _VIEWS:
            decision.captions[view] = action_to_string(seen[view], action)
            decision.details[view] = describe_events(before, events, view)
        history.append(decision)
        return decision

    # ------------------------------------------------------------ concession
    def concede(self, side=None) -> str:
        """5.0: ``side`` (default: the only person, or with two the person to
        move) concedes and the other side wins; returns the result.  Refused
        for a side an agent plays and once the game is over."""
        if self.is_over():
            raise SessionError(f"the game is over: {self.result()}")
        side = self._person(side, "concede")
        self.game.concede(side)
        self.conceded = side
        return self.result()

    def _person(self, side, what: str) -> int:
        """The side a person plays that ``what`` is for: ``side`` if given, else
        the only person, or with two people the side to move."""
        humans = self.humans()
        if side is not None:
            side = self._view(side)
            if side not in humans:
                raise SessionError(
                    f"the {SIDE_NAMES[side].capitalize()} is played by the "
                    f"{self.controllers[side]} agent: a person cannot {what} for it"
                )
            return side
        if not humans:
            raise SessionError(f"no person plays in this game: no one to {what}")
        if len(humans) == 1:
            return humans[0]
        return self.game.current_player()

    # ------------------------------------------------------------ undo
    def undo(self, side=None, decisions: int = 1) -> list[Decision]:
        """Take back ``side``'s last decision (default: the person to move, or the
        only person) and every agent decision after it; returns what was taken back.
        ``decisions``: take back that many of the side's own last decisions (all
        it made if fewer), e.g. everything an ``auto`` block played for it.

        Refused if that side has made no decision, if a die was rolled since
        it (the dice are not to be re-rolled), or if the other person has
        decided since, or after a concession (final, 5.0)."""
        if self.conceded is not None:
            raise SessionError(f"cannot undo: the {SIDE_NAMES[self.conceded].capitalize()} conceded (final, 5.0)")
        if isinstance(decisions, (bool, np.bool_)) or not isinstance(decisions, (int, np.integer)) or decisions < 1:
            raise SessionError(f"decisions must be a positive integer, got {decisions!r}")
        side = self._undo_side(side)
        mine = [d.index for d in self.history if d.side == side and d.by == HUMAN]
        if not mine:
            raise SessionError(f"nothing to undo: the {SIDE_NAMES[side].capitalize()} has made no decision yet")
        index = mine[-min(int(decisions), len(mine))]
        later = self.history[index:]
        rolled = next((d for d in later if d.rolled), None)
        if rolled is not None:
            raise SessionError(
                f"cannot undo '{self.history[index].captions[None]}': a die was rolled since "
                f"(turn {rolled.turn}, phase {rolled.phase}: {rolled.captions[side]})"
            )
        other = next((d for d in later[1:] if d.by == HUMAN and d.side != side), None)
        if other is not None:
            raise SessionError(f"cannot undo: the {SIDE_NAMES[other.side].capitalize()} has decided since")
        self._rebuild([d.action for d in self.history[:index]])
        return later

    def _undo_side(self, side) -> int:
        humans = self.humans()
        if side is not None or len(humans) != 2:
            return self._person(side, "undo")
        # two people at one keyboard: the last one who decided takes it back
        last = next((d.side for d in reversed(self.history) if d.by == HUMAN), None)
        return self.game.current_player() if last is None else last

    def _rebuild(self, actions: list[int]) -> None:
        """Replay ``actions`` from the start (agents asked again, see the module's
        docstring); the session changes only if every action replays."""
        game, agents, history = self._start()
        for i, action in enumerate(actions):
            if game.is_terminal():
                raise SessionError(f"actions[{i}]: the game was already over")
            side = game.current_player()
            by = self.controllers[side]
            if by != HUMAN:
                chosen = agents.decide(game, side)
                if chosen != action:
                    raise SessionError(
                        f"actions[{i}] = {action} ({action_to_string(game.s, action)}) is the {by} agent's "
                        f"decision for the {SIDE_NAMES[side].capitalize()}, but it decides {chosen} "
                        f"({action_to_string(game.s, chosen)}) there: the file was made with other settings, "
                        f"another version, or altered"
                    )
            try:
                self._apply(action, by, game, history)
            except IllegalActionError as exc:
                raise SessionError(f"actions[{i}] does not replay: {exc}") from None
        self.game, self.agents, self.history = game, agents, history

    # ------------------------------------------------------------ save and load
    def to_json(self) -> dict:
        """The save: format, version, settings, the scenario, every action, the
        side that conceded (5.0; null if none), and a checksum."""
        body = {
            "format": FORMAT,
            "version": VERSION,
            "settings": self.settings,
            "scenario": self.scenario,
            "actions": [d.action for d in self.history],
            "conceded": None if self.conceded is None else SIDE_NAMES[self.conceded],
        }
        return {**body, "checksum": _checksum(body)}

    def save(self, path) -> Path:
        """Write the save to ``path`` (JSON; written whole or not at all)."""
        path = Path(path)
        text = json.dumps(self.to_json(), indent=1)
        fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=".hotspot-save-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    @classmethod
    def load(cls, path, *, allow_code=False) -> "Session":
        """The session saved in ``path``, replayed; a file that is not a save,
        is damaged, was altered or does not replay is refused (``SessionError``).
        ``allow_code``: as in :meth:`new`; by default a saved game's agents
        are registered ones only (the file, not the person, names them), or
        the specs given in the set."""
        try:
            data = read_json(path)  # the one reader's limits (core.jsonfile)
        except OSError as exc:
            raise SessionError(f"{path}: cannot read: {exc.strerror or exc}") from None
        except JSONInputError as exc:
            raise SessionError(f"{path}: not a saved game (bad JSON: {exc})") from None
        except ValueError as exc:  # a name the OS cannot take
            raise SessionError(f"{path}: cannot read: {exc}") from None
        try:
            return cls.from_json(data, allow_code=allow_code)
        except SessionError as exc:
            raise SessionError(f"{path}: {exc}") from None

    @classmethod
    def from_json(cls, data, *, allow_code=False) -> "Session":
        """The session of a save's JSON (see :meth:`to_json`), replayed
        (``allow_code``: as in :meth:`load`)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SessionError(f'not a saved game (no "format": "{FORMAT}")')
        if data.get("version") != VERSION:
            raise SessionError(f"save version {data.get('version')!r}; this program reads version {VERSION}")
        missing = [k for k in ("settings", "scenario", "actions", "checksum") if k not in data]
        if missing:
            raise SessionError(f"the save lacks {', '.join(missing)}")
        body = {k: v for k, v in data.items() if k != "checksum"}
        if data["checksum"] != _checksum(body):
            raise SessionError("the save was changed after it was written (its checksum does not match)")
        settings, scenario, actions = data["settings"], data["scenario"], data["actions"]
        keys = {"technocrat", "ziegler", "scenario", "seed", "rules", "max_turns"}
        if not isinstance(settings, dict) or set(settings) != keys:
            raise SessionError(f"settings must have exactly the keys {sorted(keys)}")
        if not isinstance(scenario, dict):
            raise SessionError("scenario must be a scenario object")
        if not isinstance(settings["rules"], dict) or not isinstance(settings["scenario"], str):
            raise SessionError("settings: rules must be an object and scenario a name")
        if not isinstance(actions, list) or not all(type(a) is int for a in actions):
            raise SessionError("actions must be a list of integers")
        conceded = data.get("conceded")  # absent in saves written before concessions were kept
        if conceded is not None and conceded not in SIDE_NAMES:
            raise SessionError(f"conceded must be null, {SIDE_NAMES[0]!r} or {SIDE_NAMES[1]!r}, got {conceded!r}")
        session = cls.new(
            settings["technocrat"],
            settings["ziegler"],
            scenario,
            settings["seed"],
            settings["rules"] or None,
            settings["max_turns"],
            allow_code=allow_code,
        )
        session.settings["scenario"] = settings["scenario"]
        session._rebuild(actions)
        if conceded is not None:
            session.concede(conceded)  # refused if the game was over or an agent played that side
        return session

    # ------------------------------------------------------------ for the web
    def state_dict(self, view="default", *, board: bool = True, text: bool = True, log: int | None = None) -> dict:
        """Everything a front end shows, JSON-ready: settings, turn, phase,
        who is to move, the result, the board as ``view`` sees it (D20), the
        legal actions (when a person is to move) and the log.

        A front end that draws the board itself leaves out ``board`` and the
        board as ``text`` (``board=False``, ``text=False``: the keys are
        absent); ``log=N`` keeps the last N decisions of the log."""
        view = self._view(view)
        game = self.game
        who = self.to_move()
        history = self.history if log is None else self.history[max(0, len(self.history) - log) :]
        data = {
            "settings": dict(self.settings),
            "turn": game.turn,
            "phase": PHASE_LETTERS[game.phase],
            "phase_name": PHASE_NAMES[game.phase],
            "to_move": who,
            "over": self.is_over(),
            "result": self.result(),
            "status": self.status(),
            "view": None if view is None else SIDE_NAMES[view],
            "legal": [a._asdict() for a in self.legal()] if who and who["human"] else [],
            "log": [d.as_dict(view) for d in history],
            "can_undo": self.can_undo(),
            "can_concede": not self.is_over() and bool(self.humans()),
            "conceded": None if self.conceded is None else SIDE_NAMES[self.conceded],
        }
        if board:
            data["board"] = board_dict(game.state[0] if view is None else game.observation(view)[0], view)
        if text:
            data["text"] = self.board_text(view, legend=False)
        return data

    def can_undo(self, side=None) -> bool:
        """Whether :meth:`undo` would take a decision back now."""
        if self.conceded is not None:
            return False
        try:
            side = self._undo_side(side)
        except SessionError:
            return False
        for d in reversed(self.history):
            if d.rolled or (d.by == HUMAN and d.side != side):
                return False
            if d.by == HUMAN and d.side == side:
                return True
        return False


def board_dict(s, view=None) -> dict:
    """The pieces and counters of state (or information state) ``s`` as JSON:
    hexes as ``[col, row]`` (D1); a counter ``view`` cannot see has type
    ``"?"`` (D20: hidden counters are the other side's), hidden damage is -1."""
    pieces = []
    for k in range(1, MAX_PIECES):
        kind = int(s["piece_kind"][k])
        if kind == NO_PIECE:
            continue
        pieces.append(
            {
                "id": k,
                "name": piece_name(s, k),
                "kind": PIECE_NAMES[kind],
                "hexes": [list(col_row(int(c))) for c in s["piece_cells"][k] if c >= 0],
                "controller": SIDE_NAMES[int(s["piece_controller"][k])],
                "neutralized": bool(s["piece_neutralized"][k]),
                "damage": int(s["piece_damage"][k]),
                "damage_rating": int(s["rules"]["damage_rating"][kind]),
            }
        )
    units = []
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t == 0:
            continue
        hidden = t == UNKNOWN_UNIT
        side = (1 - view) if hidden else int(UNIT_SIDE[t])
        units.append(
            {
                "id": u,
                "side": SIDE_NAMES[side],
                "type": "?" if hidden else UNIT_NAMES[t],
                "squads": int(s["unit_squads"][u]),
                "hex": list(col_row(int(s["unit_cell"][u]))),
                "name": unit_name(s, u),
            }
        )
    return {"pieces": pieces, "units": units, "over": int(s["phase"]) == PHASE_OVER}


def _rules_dict(rules) -> dict:
    """Rules overrides as a JSON-ready dict (``RulesOptions`` or a dict; None: none)."""
    if rules is None:
        return {}
    return rules.to_dict() if isinstance(rules, RulesOptions) else dict(rules)


def _checksum(body: dict) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()
