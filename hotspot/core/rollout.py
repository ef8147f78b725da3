"""Batch play in one compiled call: random legal play over a batch of states.

``random_action`` is the compiled uniform random player (the random agent and
the benchmarks use it); ``random_legal_action`` makes the same pick from the
list of legal actions (``actions.legal_actions``) without a mask.  The
agent's own generator is separate from the dice, so a game is fixed by
(scenario, dice seed, agent seeds).

Turn limit (D19 revised): the rulebook has none.  A game stops early only at
its state's ``max_turns`` (set by ``init(..., max_turns=)``,
``batch.set_max_turns`` or ``play_random_batch(..., max_turns=)``): after the
Crustal Control phase of that turn it is over with no winner (``result``
ONGOING, ``truncated`` 1).  ``max_actions`` is only a safety stop: a game cut
by it is not over at all.
"""

import numpy as np
from numba import prange

from ._jit import jit
from .actions import NUM_ACTIONS, apply_action, current_player, legal_action_mask, legal_actions
from .dice import splitmix64
from .events import EV_WIDTH
from .rules_data import PHASE_OVER


@jit
def random_action(s, mask, rng, slot):
    """A uniformly random legal action for state s; ``rng[slot]`` is the player's generator."""
    legal_action_mask(s, mask)
    return random_choice(mask, rng, slot)


@jit
def random_legal_action(s, acts, rng, slot):
    """``random_action`` without a mask: the same pick (the k-th legal action
    in index order, k drawn from ``rng[slot]``), from the legal actions
    written into ``acts`` (an integer array of ``NUM_ACTIONS`` entries)."""
    n = legal_actions(s, acts)
    if n == 0:
        return -1
    rng[slot], z = splitmix64(rng[slot])
    return int(acts[int(z % np.uint64(n))])


@jit
def random_choice(mask, rng, slot):
    """A uniformly random action among those set in ``mask`` (-1 if none): the
    k-th legal action in index order, k drawn from ``rng[slot]``."""
    n = 0
    for a in range(NUM_ACTIONS):
        if mask[a]:
            n += 1
    if n == 0:
        return -1
    rng[slot], z = splitmix64(rng[slot])
    pick = int(z % np.uint64(n))
    for a in range(NUM_ACTIONS):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


@jit
def play_random_one(s, rng, slot, max_actions):
    """Random legal play of one game until it ends or ``max_actions``; returns actions taken."""
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    return play_random_until(s, rng, slot, max_actions, NOBODY, ev, ev_n)


NOBODY = -2  # play_random_until's stop_side when no side stops it (current_player is 0, 1 or -1)


@jit
def play_random_until(s, rng, slot, max_actions, stop_side, ev, ev_n):
    """Random legal play of ``s`` (generator ``rng[slot]``) until the game
    ends, ``max_actions`` are played or ``stop_side`` is to move (``NOBODY``:
    no side stops it); returns the actions taken."""
    acts = np.empty(NUM_ACTIONS, dtype=np.int16)
    n = 0
    while s["phase"] != PHASE_OVER and n < max_actions and current_player(s) != stop_side:
        a = random_legal_action(s, acts, rng, slot)
        if a < 0:
            break
        apply_action(s, a, ev, ev_n)
        n += 1
    return n


KEEP = "keep"  # play_random_batch's max_turns: each state's own limit


def play_random_batch(states, rng, max_actions, max_turns=KEEP):
    """Random legal play of every game of a batch, in parallel over the cores
    (one compiled call).

    ``rng`` holds one uint64 generator per game.  ``max_turns``: ``"keep"``
    (default: each state's own ``max_turns``, as ``init`` set it), None (no
    limit, 5.0) or a positive turn after whose Crustal Control phase a game
    stops without a winner (D19 revised); it is written into the states.
    Returns the actions taken per game.
    """
    if not (isinstance(max_turns, str) and max_turns == KEEP):
        from .batch import set_max_turns

        set_max_turns(states, max_turns)
    return _play_random_batch(states, rng, max_actions)


@jit(parallel=True)
def _play_random_batch(states, rng, max_actions):
    """The compiled body of :func:`play_random_batch`."""
    counts = np.zeros(states.shape[0], dtype=np.int64)
    for i in prange(states.shape[0]):
        counts[i] = play_random_one(states[i], rng, i, max_actions)
    return counts
