"""The Python API: a small facade over the compiled core (OpenSpiel's vocabulary).

>>> from hotspot import Game
>>> game = Game("standard", seed=7)
>>> while not game.is_terminal():
...     game.apply_action(game.legal_actions()[0])

``Game`` holds one state record (``game.state``, shape (1,)), the record of
the game (scenario, seed, actions), and offers: ``legal_actions``,
``legal_action_mask``, ``apply_action`` (raises ``IllegalActionError`` naming
the reason and leaves the game unchanged), ``current_player``,
``is_terminal``, ``returns``, ``observation(side, fog=True)`` (D20),
``clone``, ``to_bytes`` / ``Game.from_bytes``, ``render`` and ``concede``.
Chance is explicit but internal: the dice come from the generator stored in
the state (seeded here) or from scripted rolls (``script_dice``).
"""

from __future__ import annotations

import base64
import binascii

import numpy as np

from .action_parts import caption, decode_action
from .actions import (
    A_SETUP_CHOOSE,
    A_SETUP_HEX,
    NUM_ACTIONS,
    action_error,
    apply_action,
    current_player,
    legal_action_mask,
)
from .dice import script_dice
from .errors import ERR_BAD_ACTION, ERR_COUNTER_CAP, ERR_LEAVES_NO_ROOM, ERR_POOL_SHORT, MESSAGES, OK, short_repr
from .events import EVENT_FIELDS, EVENT_NAMES, event_buffer, no_events
from .integrity import from_bytes
from .limits import check_max_turns
from .observation import observe
from .record import GameRecord, RecordError
from .render import render_text
from .rules_data import (
    ITEM_AMOUNT,
    ITEM_NAMES,
    ITEM_PIECE_KIND,
    ITEM_POOL,
    PHASE_LETTERS,
    PHASE_OVER,
    POOL_NAMES,
    RESULT_NAMES,
    TECHNOCRAT,
    TECHNOCRAT_WIN,
    ZIEGLER,
    ZIEGLER_WIN,
    side_index,
)
from .scenario import ScenarioError, scenario_to_state, start_states, with_rules
from .state import STATE_DTYPE, StateError, to_bytes
from .victory import end_game, side_return, winner


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the game is left unchanged."""

    def __init__(self, action, code: int, message: str):
        super().__init__(message)
        self.action = action
        self.code = code


class Game:
    """One game of Hot Spot.

    Args:
        scenario: a built-in scenario name (``"standard"``, ``"random"``,
            ``"random:SEED"``), a path to a scenario JSON file, or a scenario dict.
        seed: seed of the dice (non-negative integer).
        rules: a ``RulesOptions`` or a dict of option overrides, applied on top
            of the scenario's own rules.
        max_turns: None (the rulebook game: no turn limit, 5.0, D19 revised)
            or a positive turn after whose Crustal Control phase the game is
            *truncated*: over, with no winner (``is_truncated()``, returns 0).
    """

    def __init__(
        self, scenario="standard", seed: int = 0, rules=None, *, max_turns: int | None = None, _state=None, _record=None
    ):
        if _state is not None:
            self.state = _state
            self.record = _record
            return
        data = with_rules(scenario, rules)
        limit = check_max_turns(max_turns)
        self.state = start_states(scenario_to_state(data, seed), seed, max_turns)
        self.record = GameRecord(scenario=data, seed=int(seed), max_turns=limit or None)

    # ------------------------------------------------------------ queries
    @property
    def s(self):
        return self.state[0]

    def current_player(self) -> int:
        """0 (Ziegler) or 1 (Technocrat); -1 once the game is over."""
        return int(current_player(self.s))

    def is_terminal(self) -> bool:
        return int(self.s["phase"]) == PHASE_OVER

    def is_truncated(self) -> bool:
        """D19 revised: the game was stopped by ``max_turns``, without a winner."""
        return bool(self.s["truncated"])

    @property
    def turn(self) -> int:
        return int(self.s["turn"])

    @property
    def phase(self) -> int:
        return int(self.s["phase"])

    def result(self) -> str:
        return RESULT_NAMES[int(self.s["result"])]

    def winner(self) -> int:
        """0 Ziegler, 1 Technocrat, -1 while the game goes on."""
        return int(winner(self.s))

    def returns(self) -> np.ndarray:
        """+1 for the winner, -1 for the loser, 0 for both while the game goes on
        (indexed by side: 0 Ziegler, 1 Technocrat)."""
        return np.array([side_return(self.s, ZIEGLER), side_return(self.s, TECHNOCRAT)])

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        legal_action_mask(self.s, mask)
        return mask

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_action_mask())

    def why_illegal(self, action) -> str | None:
        """None if ``action`` is legal now, else the reason."""
        code = self._error(action)
        return None if code == OK else MESSAGES[code]

    def _error(self, action) -> int:
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action is an integer in [0, {NUM_ACTIONS}), got {short_repr(action)}")
        a = int(action)
        if not 0 <= a < NUM_ACTIONS:  # also beyond 64 bits: refused before compiled code sees it
            return ERR_BAD_ACTION
        return int(action_error(self.s, a))

    # ------------------------------------------------------------ acting
    def apply_action(self, action, events: bool = False):
        """Apply ``action``; with ``events=True`` return the decoded events it caused."""
        code = self._error(action)
        if code != OK:
            raise IllegalActionError(
                action,
                code,
                f"illegal action {short_repr(int(action))} ({self.action_to_string(int(action))}) "
                f"in turn {self.turn}, phase {PHASE_LETTERS[self.phase]}: "
                f"{explain_error(self.s, int(action), code)}",
            )
        ev, ev_n = event_buffer() if events else no_events()
        apply_action(self.s, int(action), ev, ev_n)
        self.record.actions.append(int(action))
        if self.is_terminal():
            self.record.result = self.result()
        if events:
            return decode_events(ev[: min(int(ev_n[0]), ev.shape[0])])
        return None

    def concede(self, side) -> None:
        """5.0: ``side`` concedes; the other side wins (not an action of the learning space)."""
        side = side_index(side)
        if self.is_terminal():
            raise ValueError("the game is already over")
        if int(self.s["phase"]) > PHASE_OVER:  # during the set-up (D21): what is not placed never will be
            self.s["pool"][:] = 0
            self.s["setup_item"] = -1
            self.s["setup_cell"] = -1
        ev, ev_n = no_events()
        end_game(self.s, TECHNOCRAT_WIN if side == ZIEGLER else ZIEGLER_WIN, 0, ev, ev_n)
        self.record.result = self.result() + " (concession)"

    def script_dice(self, rolls) -> None:
        """Force the next die rolls (for tests and worked examples)."""
        script_dice(self.s, rolls)

    # ------------------------------------------------------------ views
    def observation(self, side, fog: bool = True) -> np.ndarray:
        """The state as ``side`` may see it (D20); ``fog=False`` is full observability."""
        out = np.zeros(1, dtype=STATE_DTYPE)
        observe(self.s, side_index(side), bool(fog), out[0])
        return out

    def render(self) -> str:
        return render_text(self.state)

    def __str__(self) -> str:
        return self.render()

    def action_to_string(self, action: int) -> str:
        return action_to_string(self.s, action)

    # ------------------------------------------------------------ copies
    def clone(self) -> "Game":
        rec = GameRecord(
            self.record.scenario,
            self.record.seed,
            list(self.record.actions),
            self.record.result,
            self.record.initial_state,
            self.record.max_turns,
        )
        return Game(_state=self.state.copy(), _record=rec)

    def to_bytes(self) -> bytes:
        """The state as bytes (the record is kept separately: ``game.record``)."""
        return to_bytes(self.state)

    @classmethod
    def from_bytes(cls, data: bytes) -> "Game":
        """A game from state bytes; its record replays from this state (``initial_state``).

        Refuses bytes that are not exactly one valid state with ``StateError``
        (a ``ValueError``) naming the field (``hotspot.core.from_bytes``)."""
        states = from_bytes(data)
        if states.shape[0] != 1:
            raise StateError(f"state bytes: expected the bytes of one state, got a batch of {states.shape[0]}")
        initial = base64.b64encode(states.tobytes()).decode("ascii")
        return cls(_state=states, _record=GameRecord(None, 0, [], initial_state=initial))

    @classmethod
    def from_record(cls, record: GameRecord) -> "Game":
        """The game ``record`` describes, replayed action by action.

        Raises ``RecordError`` if its starting position is not valid or an
        action is illegal at its point."""
        if record.initial_state is not None:
            try:
                game = cls.from_bytes(base64.b64decode(record.initial_state))
            except (binascii.Error, ValueError) as exc:
                raise RecordError(f"record field 'initial_state' is corrupt: {exc}") from None
        else:
            try:
                game = cls(record.scenario, seed=record.seed, max_turns=record.max_turns)
            except ScenarioError as exc:
                raise RecordError(f"record field 'scenario' is not a valid scenario: {exc}") from None
        for i, a in enumerate(record.actions):
            try:
                game.apply_action(a)
            except IllegalActionError as exc:
                raise RecordError(f"actions[{i}] = {short_repr(a)} does not replay: {exc}") from None
        return game


def action_to_string(s, action: int) -> str:
    """A short description of ``action`` in state ``s``, written from its
    parts (``core.action_parts.decode_action``)."""
    return caption(decode_action(s, action))


def explain_error(s, action: int, code: int) -> str:
    """The refusal message of ``code``, naming the force pool for set-up refusals (3.2, 3.3)."""
    text = MESSAGES[code]
    a = int(action)
    if code in (ERR_POOL_SHORT, ERR_LEAVES_NO_ROOM, ERR_COUNTER_CAP) and A_SETUP_CHOOSE <= a < A_SETUP_HEX:
        item = a - A_SETUP_CHOOSE
        pool = int(ITEM_POOL[item])
        what = "hexes" if ITEM_PIECE_KIND[item] and pool == 0 else "left"
        text += (
            f": {ITEM_NAMES[item]} takes {int(ITEM_AMOUNT[item])} from the {POOL_NAMES[pool]} pool, "
            f"which has {int(s['pool'][pool])} {what}"
        )
    return text


def decode_events(rows) -> list[dict]:
    """Event rows as dicts: ``{"event": name, field: value, ...}``."""
    out = []
    for row in rows:
        kind = int(row[0])
        d = {"event": EVENT_NAMES[kind]}
        for name, value in zip(EVENT_FIELDS[kind], row[1:]):
            if name:
                d[name] = int(value)
        out.append(d)
    return out
