"""Games played with the fast legal-action list checked against the one
legality check: before every action, ``core.actions.legal_set_disagreement``
compares ``legal_actions`` with ``action_error`` on all ``NUM_ACTIONS``
actions.  Used by ``tests/test_fast_legality.py`` (thousands of games) and
``benchmarks/bench_legality.py`` (10^6 random and 10^4 scripted games).
"""

import numpy as np
from numba import prange

from hotspot.core._jit import jit
from hotspot.core.actions import NUM_ACTIONS, apply_action, current_player, legal_set_disagreement
from hotspot.core.events import EV_WIDTH
from hotspot.core.rollout import random_legal_action
from hotspot.core.rules_data import PHASE_OVER

from .scripted import scripted_action


@jit
def checked_game(s, rng, slot, scripted, max_actions):
    """Play ``s`` (random or scripted for both sides; generators ``rng[slot]``
    and ``rng[slot + 1]``) to its end or ``max_actions``, checking the legal
    list before every action.  Returns (actions checked, first action on
    which the list and ``action_error`` disagree, or -1)."""
    acts = np.empty(NUM_ACTIONS, dtype=np.int16)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    checked = 0
    n = 0
    while s["phase"] != PHASE_OVER and n < max_actions:
        bad = legal_set_disagreement(s, acts)
        checked += 1
        if bad >= 0:
            return checked, bad
        if scripted:
            a = scripted_action(s, mask, rng, slot + current_player(s))
        else:
            a = random_legal_action(s, acts, rng, slot)
        if a < 0:
            break
        apply_action(s, a, ev, ev_n)
        n += 1
    return checked, -1


@jit(parallel=True)
def checked_games(states, rng, scripted, max_actions, checked, bad):
    """:func:`checked_game` for every game of ``states`` in parallel (``rng``:
    two generators a game); ``checked[i]`` and ``bad[i]`` get its results."""
    for i in prange(states.shape[0]):
        c, b = checked_game(states[i], rng, 2 * i, scripted, max_actions)
        checked[i] = c
        bad[i] = b
