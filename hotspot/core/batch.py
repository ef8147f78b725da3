"""Batched versions of the core API: a batch of games is one array of states.

Each function is one compiled call over the whole batch (in parallel over the
cores where marked), so Python is not in the loop.  ``set_max_turns`` sets a
harness's turn limit (D19 revised) on every game of a batch.
"""

import numpy as np
from numba import prange

from ._jit import jit
from .actions import action_error, apply_action, current_player, legal_action_mask
from .errors import OK
from .events import EV_WIDTH
from .rules_data import PHASE_OVER


@jit(parallel=True)
def step_batch(states, actions, errors):
    """Apply ``actions[i]`` to ``states[i]``; ``errors[i]`` gets 0 or the refusal code
    (a refused game is left unchanged).  Games already over are skipped (error 1)."""
    for i in prange(states.shape[0]):
        ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
        ev_n = np.zeros(1, dtype=np.int32)
        err = action_error(states[i], actions[i])
        errors[i] = err
        if err == OK:
            apply_action(states[i], actions[i], ev, ev_n)


@jit(parallel=True)
def legal_action_mask_batch(states, masks):
    """``masks[i]`` = legal actions of ``states[i]`` (shape (N, NUM_ACTIONS), bool)."""
    for i in prange(states.shape[0]):
        legal_action_mask(states[i], masks[i])


@jit
def status_batch(states, player, terminal, result, truncated):
    """Player to move, terminal flag, result and truncation of every game."""
    for i in range(states.shape[0]):
        player[i] = current_player(states[i])
        terminal[i] = states[i]["phase"] == PHASE_OVER
        result[i] = states[i]["result"]
        truncated[i] = states[i]["truncated"]


def set_max_turns(states, max_turns) -> None:
    """Set the turn limit of every game of ``states`` (D19 revised): None for
    none (the rulebook's 5.0), or a positive turn after whose Crustal Control
    phase a game stops with no winner (``truncated`` 1, returns 0).  A game
    already past that turn stops at the end of its current turn."""
    from .limits import check_max_turns

    states["max_turns"] = check_max_turns(max_turns)
