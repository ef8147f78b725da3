"""Short typed commands for the actions, so that a person can play by typing.

Every action of the action space has one short command in a given state,
made from the core's own caption (``core.game.action_to_string``) and names
(piece letters 2.2.2, platform numbers 2.2.3, unit ids as the board's Stacks
legend lists them, the directions N NE SE S SW NW, ``(col, row)`` hexes, D1):

==============================  =====================  ============================
caption (the core's words)      command                phase
==============================  =====================  ============================
select piece A                  ``select A``           A, E: crustal movement
neutralize A                    ``neutralize A``       H: Crustal Control (15.4)
select unit 12 ...              ``unit 12``            B, D, F: regular movement
resolve combat of unit 12 ...   ``combat 12``          C, G: combat (12.7)
lose a squad from unit 12 ...   ``lose 12``            D22 losses="owner"
combine with unit 7             ``combine 7``          B, F: breakdowns (10.0)
step N (NE, SE, S, SW, NW)      ``n`` (``ne`` ...)     a move of one hex
forward two                     ``forward``            6.4, 6.6
turn left / turn right          ``left`` / ``right``   6.4
rotate about slot 1 clockwise   ``rotate 1 cw``        6.5, 6.6 (``ccw``: counter-)
split one squad                 ``split``              10.0
end move                        ``end``                the selected piece or unit
end phase                       ``end phase``
set up: choose triangular ...   ``choose triangular``  set-up (3.2, 3.3, D21)
set up at hex (3, 4)            ``hex 3 4``
set up facing NE                ``face ne``
==============================  =====================  ============================

:func:`parse_command` reads a command, or the caption itself, case and
punctuation aside (``Hex (3, 4)`` is ``hex 3 4``), or a unique beginning of a
legal action's command (``choose tri``).  It returns the action even where the
action is illegal, so that the game can say why (``Game.why_illegal``).
"""
from __future__ import annotations

import re

import numpy as np

from hotspot.core.actions import (A_COMBINE, A_END_PHASE, A_END_PIECE, A_MANEUVER, A_SELECT_PIECE,
                                  A_SELECT_UNIT, A_SETUP_CHOOSE, A_SETUP_FACING, A_SETUP_HEX, A_SPLIT,
                                  NUM_ACTIONS, legal_action_mask)
from hotspot.core.game import action_to_string
from hotspot.core.rules_data import ITEM_NAMES


class CommandError(ValueError):
    """A typed command that names no action."""


def normalize(text: str) -> str:
    """Lower case, punctuation as spaces, one space between words: ``"Hex (3, 4)"`` -> ``"hex 3 4"``."""
    return " ".join(re.sub(r"[(),:;]", " ", str(text)).lower().split())


def _item_word(item: int) -> str:
    """A set-up item's name as one word: ``triangular crustal`` -> ``triangular``,
    ``Ziegler infantry (2 squads)`` -> ``ziegler-infantry-x2``."""
    name = re.sub(r"\((\d+) squads?\)", r"x\1", ITEM_NAMES[item].lower()).replace(" crustal", "")
    return "-".join(name.split())


def command_of(s, action: int) -> str:
    """The short command of ``action`` in state ``s`` (see the module's table)."""
    a = int(action)
    caption = action_to_string(s, a)
    if A_SELECT_PIECE <= a < A_SELECT_UNIT:
        verb, _, name = caption.rpartition(" ")
        return f"{'neutralize' if verb == 'neutralize' else 'select'} {name}".lower()
    if a < A_COMBINE:
        u = a - A_SELECT_UNIT
        if caption.startswith("lose"):
            return f"lose {u}"
        if caption.startswith("resolve"):
            return f"combat {u}"
        return f"unit {u}"
    if a < A_MANEUVER:
        return f"combine {a - A_COMBINE}"
    if a < A_SPLIT:
        if caption.startswith("step "):
            return caption[5:].lower()
        if caption == "forward two":
            return "forward"
        if caption.startswith("turn "):
            return caption[5:]
        slot, sense = re.fullmatch(r"rotate about slot (\d+) (\S+)", caption).groups()
        return f"rotate {slot} {'cw' if sense == 'clockwise' else 'ccw'}"
    if a == A_SPLIT:
        return "split"
    if a == A_END_PIECE:
        return "end"
    if a == A_END_PHASE:
        return "end phase"
    if a < A_SETUP_HEX:
        return f"choose {_item_word(a - A_SETUP_CHOOSE)}"
    if a < A_SETUP_FACING:
        return "hex " + normalize(caption[len("set up at hex "):])
    return f"face {caption.rsplit(' ', 1)[1].lower()}"


def command_table(s) -> dict[str, int]:
    """Every command and every caption of state ``s`` (normalized) -> its action.

    Where two actions would share a command (never in the built-in
    scenarios), the first keeps it."""
    table: dict[str, int] = {}
    for a in range(NUM_ACTIONS):
        table.setdefault(command_of(s, a), a)
    for a in range(NUM_ACTIONS):
        table.setdefault(normalize(action_to_string(s, a)), a)
    return table


def parse_command(s, text: str, legal=None) -> int:
    """The action that ``text`` names in state ``s``.

    ``legal``: the legal actions (for a unique beginning of a legal action's
    command); None: the state's own.  Raises ``CommandError`` naming the
    text if it names no action, or begins more than one legal command."""
    key = normalize(text)
    if not key:
        raise CommandError("an empty command")
    table = command_table(s)
    if key in table:
        return table[key]
    if legal is None:
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        legal_action_mask(s, mask)
        legal = np.flatnonzero(mask)
    starts = sorted({int(a) for a in legal if command_of(s, int(a)).startswith(key)})
    if len(starts) == 1:
        return starts[0]
    if starts:
        options = ", ".join(command_of(s, a) for a in starts[:6]) + (", ..." if len(starts) > 6 else "")
        raise CommandError(f"{text.strip()!r} could be any of: {options}")
    raise CommandError(f"no action is called {text.strip()!r}: type the number of a listed action, "
                       f"its command (in brackets), or 'help'")
