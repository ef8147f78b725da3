"""Plain Python values from the information state an agent is given.

``Agent.act(info_state, mask, side)`` receives ``info_state`` as
``Game.observation(side)`` returns it: a one-element record array (shape
``(1,)``, dtype ``hotspot.core.STATE_DTYPE``, D20's fog applied);
``info_state[0]`` is the record itself.  The functions here take either (or a
0-d view) and return ints, strings and bools: the phase (4.0) by number and
rulebook name, the turn, the side to move, whether it is a set-up phase
(3.2, 3.3, D21), an action's text (OpenSpiel's ``action_to_string``, the
core's own) and the legal actions of a mask (OpenSpiel's ``legal_actions``).
"""

from __future__ import annotations

import numpy as np

from hotspot.core.actions import NUM_ACTIONS, current_player
from hotspot.core.errors import short_repr
from hotspot.core.game import action_to_string as _core_action_to_string
from hotspot.core.rules_data import PHASE_NAMES, PHASE_T_SETUP, PHASE_Z_SETUP, SIDE_NAMES
from hotspot.core.state import STATE_DTYPE

__all__ = [
    "phase_of",
    "phase_name",
    "turn_of",
    "side_to_move",
    "side_to_move_name",
    "is_setup_phase",
    "action_to_string",
    "legal_actions",
]


def _given(value) -> str:
    """What was given, for an error message (one line)."""
    if isinstance(value, (np.ndarray, np.void)):
        dtype = "STATE_DTYPE" if value.dtype == STATE_DTYPE else str(value.dtype)
        dtype = dtype if len(dtype) <= 60 else dtype[:57] + "..."
        return f"{'a record' if isinstance(value, np.void) else 'an array'} of shape {value.shape} and dtype {dtype}"
    return f"{type(value).__name__} {short_repr(value, 60)}"


def _record(info_state):
    """The state record (``numpy.void``) of ``info_state``: a (1,) array, a
    0-d array or a record of ``STATE_DTYPE``; a one-line error otherwise."""
    if isinstance(info_state, np.void) and info_state.dtype == STATE_DTYPE:
        return info_state
    if not isinstance(info_state, np.ndarray) or info_state.dtype != STATE_DTYPE:
        raise TypeError(
            "info_state: expected a state record of STATE_DTYPE (as Agent.act receives it, "
            f"Game.observation(side): shape (1,)), got {_given(info_state)}"
        )
    if info_state.size != 1:
        raise ValueError(f"info_state: expected one state record, got {_given(info_state)}")
    return info_state.reshape(-1)[0]


def phase_of(info_state) -> int:
    """The phase's number (``hotspot.core.rules_data.PHASE_*``: 0-7 the phases
    A-H of a turn, 4.0; 8 the game is over; 9 and 10 the Ziegler and
    Technocrat set-up, D21)."""
    return int(_record(info_state)["phase"])


def phase_name(info_state) -> str:
    """The phase's rulebook name, e.g. ``"Ziegler regular movement"`` or ``"Technocrat set-up"``."""
    return PHASE_NAMES[phase_of(info_state)]


def turn_of(info_state) -> int:
    """The game turn (1 while setting up and in the first turn, 4.0)."""
    return int(_record(info_state)["turn"])


def side_to_move(info_state) -> int:
    """0 (Ziegler) or 1 (Technocrat), the side that chooses the next action
    (the ``side`` of ``act``); -1 once the game is over (``Game.current_player``)."""
    return int(current_player(_record(info_state)))


def side_to_move_name(info_state) -> str | None:
    """``"ziegler"`` or ``"technocrat"`` (the names the command line and
    ``side_index`` take) for the side to move; None once the game is over."""
    side = side_to_move(info_state)
    return SIDE_NAMES[side] if side >= 0 else None


def is_setup_phase(info_state) -> bool:
    """True while a side sets up its forces before the first turn (3.2, 3.3, D21)."""
    return phase_of(info_state) in (PHASE_Z_SETUP, PHASE_T_SETUP)


def action_to_string(info_state, action: int) -> str:
    """The action's text in this state, e.g. ``"set up: choose one-hex
    crustal"`` (the core's ``action_to_string``, as ``Game.action_to_string``
    and the replays write it; a hidden stack or damage stays hidden, D20)."""
    return _core_action_to_string(_record(info_state), action)


def legal_actions(mask) -> list[int]:
    """The legal actions of a legal-action mask, ascending (``np.flatnonzero``)."""
    m = np.asarray(mask)
    if m.shape != (NUM_ACTIONS,):
        raise ValueError(f"mask: expected a legal-action mask of shape ({NUM_ACTIONS},), got {_given(mask)}")
    return np.flatnonzero(m).tolist()
