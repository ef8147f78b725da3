"""Short typed commands for the actions, so that a person can play by typing.

Every action of the action space has one short command in a given state,
written from the action's parts (``core.action_parts.decode_action``, the
decoder the core's own caption ``core.game.action_to_string`` is written
from) and names (piece letters 2.2.2, platform numbers 2.2.3, unit ids as
the board's Stacks legend lists them, the directions N NE SE S SW NW,
``(col, row)`` hexes, D1):

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

from hotspot.core.action_parts import ActionParts, decode_action
from hotspot.core.actions import NUM_ACTIONS, legal_action_mask
from hotspot.core.game import action_to_string
from hotspot.core.rules_data import ITEM_NAMES

_UNIT_WORDS = {"select_unit": "unit", "resolve_combat": "combat", "lose_squad": "lose", "combine": "combine"}
_FIXED_WORDS = {"forward": "forward", "split": "split", "end_move": "end", "end_phase": "end phase"}


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
    """The short command of ``action`` in state ``s`` (see the module's table).

    Written from the action's parts (``core.action_parts.decode_action``), as
    its caption is; ``ValueError`` for an int outside the action space."""
    return command_of_parts(decode_action(s, action))


def command_of_parts(parts: ActionParts) -> str:
    """The short command of a decoded action (``core.action_parts.ActionParts``)."""
    kind = parts.kind
    if kind in ("select_piece", "neutralize"):
        return f"{'neutralize' if kind == 'neutralize' else 'select'} {parts.piece_name}".lower()
    if kind in _UNIT_WORDS:
        return f"{_UNIT_WORDS[kind]} {parts.unit}"
    if kind in ("step", "turn"):
        return parts.direction.lower()
    if kind == "rotate":
        return f"rotate {parts.slot} {'cw' if parts.clockwise else 'ccw'}"
    if kind == "choose":
        return f"choose {_item_word(parts.item)}"
    if kind == "setup_hex":
        return f"hex {parts.hex[0]} {parts.hex[1]}"
    if kind == "setup_facing":
        return f"face {parts.direction.lower()}"
    if kind in _FIXED_WORDS:
        return _FIXED_WORDS[kind]
    raise ValueError(f"action {parts.action} is outside the action space (0..{NUM_ACTIONS - 1}): it has no command")


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
    raise CommandError(
        f"no action is called {text.strip()!r}: type the number of a listed action, "
        f"its command (in brackets), or 'help'"
    )
