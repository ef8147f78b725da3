"""An action in parts: the one decoder of the action space (``actions``) that
the words of an action are made from.

:func:`decode_action` turns an action id in a state into an
:class:`ActionParts` (its kind and the piece, counter, direction, slot, hex
or set-up item it names); the caption (``game.action_to_string``,
:func:`caption`) and the typed command of the terminal
(``hotspot.human.commands.command_of``) are both written from those parts,
so neither is ever read back from the other's text.

The kinds, by the action ranges of ``actions`` (a state decides some: a
SELECT_PIECE of the Crustal Control phase neutralizes, 15.4; a SELECT_UNIT
resolves a combat in a combat phase, 12.7, and names the counter that loses a
squad while a loss waits, D22):

==================  ==============  ==========================================
kind                action          parts
==================  ==============  ==========================================
``select_piece``    SELECT_PIECE k  ``piece``, ``piece_name``
``neutralize``      SELECT_PIECE k  ``piece``, ``piece_name`` (phase H)
``select_unit``     SELECT_UNIT u   ``unit``, ``unit_name``, ``hex``
``resolve_combat``  SELECT_UNIT u   the same (phases C, G)
``lose_squad``      SELECT_UNIT u   the same (a loss waits, D22)
``combine``         COMBINE_WITH v  ``unit``
``step``            MANEUVER 0..5   ``direction`` ("N" .. "NW", 8.1)
``forward``         MANEUVER 6      (6.4, 6.6)
``turn``            MANEUVER 7, 8   ``direction`` ("left", "right", 6.4)
``rotate``          MANEUVER 9..    ``slot``, ``clockwise`` (6.5, 6.6)
``split``           SPLIT           (10.0)
``end_move``        END_PIECE
``end_phase``       END_PHASE
``choose``          SETUP_CHOOSE i  ``item`` (rules_data.ITEM_*, 3.2, 3.3, D21)
``setup_hex``       SETUP_HEX h     ``hex``
``setup_facing``    SETUP_FACING f  ``direction`` ("N" .. "NW")
``out_of_range``    any other int   nothing
==================  ==============  ==========================================

``piece_name`` is the counter's identification (2.2.2, 2.2.3: "A", "P1"), or
the index where no piece is; ``unit_name`` and ``hex`` (col, row) are None
where no counter is.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import (
    A_COMBINE,
    A_END_PHASE,
    A_END_PIECE,
    A_MANEUVER,
    A_SELECT_PIECE,
    A_SELECT_UNIT,
    A_SETUP_CHOOSE,
    A_SETUP_FACING,
    A_SETUP_HEX,
    A_SPLIT,
    NUM_ACTIONS,
)
from .crustal_movement import M_FORWARD, M_ROTATE, M_TURN_LEFT, M_TURN_RIGHT
from .errors import short_repr
from .hexgrid import DIRECTION_NAMES, MAP_COLS, col_row
from .render import piece_name, unit_name
from .rules_data import ITEM_NAMES, PHASE_CONTROL, PHASE_T_COMBAT, PHASE_Z_COMBAT

#: every kind :func:`decode_action` gives, in action order (see the module's table)
ACTION_KINDS = (
    "select_piece",
    "neutralize",
    "select_unit",
    "resolve_combat",
    "lose_squad",
    "combine",
    "step",
    "forward",
    "turn",
    "rotate",
    "split",
    "end_move",
    "end_phase",
    "choose",
    "setup_hex",
    "setup_facing",
    "out_of_range",
)


class ActionParts(NamedTuple):
    """An action decoded in a state (:func:`decode_action`); parts an action
    does not have are None."""

    action: int
    kind: str
    piece: int | None = None
    piece_name: str | None = None
    unit: int | None = None
    unit_name: str | None = None
    hex: tuple | None = None
    direction: str | None = None
    slot: int | None = None
    clockwise: bool | None = None
    item: int | None = None


def decode_action(s, action: int) -> ActionParts:
    """The parts of ``action`` in state ``s`` (any int: outside the action
    space, kind ``out_of_range``).  Legality is not checked (``actions.action_error``)."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        return ActionParts(a, "out_of_range")
    phase = int(s["phase"])
    if a < A_SELECT_UNIT:
        k = a - A_SELECT_PIECE
        name = piece_name(s, k) if s["piece_kind"][k] else str(k)
        return ActionParts(a, "neutralize" if phase == PHASE_CONTROL else "select_piece", piece=k, piece_name=name)
    if a < A_COMBINE:
        u = a - A_SELECT_UNIT
        if int(s["loss_side"]) >= 0:
            kind = "lose_squad"
        elif phase in (PHASE_Z_COMBAT, PHASE_T_COMBAT):
            kind = "resolve_combat"
        else:
            kind = "select_unit"
        if s["unit_type"][u] > 0:
            return ActionParts(a, kind, unit=u, unit_name=unit_name(s, u), hex=col_row(int(s["unit_cell"][u])))
        return ActionParts(a, kind, unit=u)
    if a < A_MANEUVER:
        return ActionParts(a, "combine", unit=a - A_COMBINE)
    if a < A_SPLIT:
        m = a - A_MANEUVER
        if m < 6:
            return ActionParts(a, "step", direction=DIRECTION_NAMES[m])
        if m == M_FORWARD:
            return ActionParts(a, "forward")
        if m in (M_TURN_LEFT, M_TURN_RIGHT):
            return ActionParts(a, "turn", direction="left" if m == M_TURN_LEFT else "right")
        p, r = divmod(m - M_ROTATE, 2)
        return ActionParts(a, "rotate", slot=p, clockwise=r == 0)
    if a == A_SPLIT:
        return ActionParts(a, "split")
    if a == A_END_PIECE:
        return ActionParts(a, "end_move")
    if a == A_END_PHASE:
        return ActionParts(a, "end_phase")
    if a < A_SETUP_HEX:
        return ActionParts(a, "choose", item=a - A_SETUP_CHOOSE)
    if a < A_SETUP_FACING:
        h = a - A_SETUP_HEX
        return ActionParts(a, "setup_hex", hex=(h % MAP_COLS, h // MAP_COLS))
    return ActionParts(a, "setup_facing", direction=DIRECTION_NAMES[a - A_SETUP_FACING])


_UNIT_VERBS = {
    "select_unit": "select unit",
    "resolve_combat": "resolve combat of unit",
    "lose_squad": "lose a squad from unit",
}
_FIXED = {"forward": "forward two", "split": "split one squad", "end_move": "end move", "end_phase": "end phase"}


def caption(parts: ActionParts) -> str:
    """The short description of a decoded action (``game.action_to_string``)."""
    kind = parts.kind
    if kind == "out_of_range":
        return f"out-of-range action {short_repr(parts.action)}"
    if kind in ("select_piece", "neutralize"):
        return f"{'neutralize' if kind == 'neutralize' else 'select piece'} {parts.piece_name}"
    if kind in _UNIT_VERBS:
        where = f" {parts.unit_name} at {parts.hex}" if parts.unit_name is not None else ""
        return f"{_UNIT_VERBS[kind]} {parts.unit}{where}"
    if kind == "combine":
        return f"combine with unit {parts.unit}"
    if kind == "step":
        return f"step {parts.direction}"
    if kind == "turn":
        return f"turn {parts.direction}"
    if kind == "rotate":
        return f"rotate about slot {parts.slot} {'clockwise' if parts.clockwise else 'counter-clockwise'}"
    if kind == "choose":
        return f"set up: choose {ITEM_NAMES[parts.item]}"
    if kind == "setup_hex":
        return f"set up at hex ({parts.hex[0]}, {parts.hex[1]})"
    if kind == "setup_facing":
        return f"set up facing {parts.direction}"
    return _FIXED[kind]
