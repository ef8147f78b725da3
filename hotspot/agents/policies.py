"""Compiled policies, chosen by id, so that opponents can move inside compiled
batch rollouts and the vector environment's step (no Python in the loop).

``POLICY_RANDOM``: uniform over legal actions (``core.rollout.random_action``).
``POLICY_SCRIPTED``: the scripted heuristics of ``hotspot.agents.scripted``
(they see only the mover's information state, D20), with the deployment plan
of ``hotspot.agents.scripted.setup`` in the set-up phases (3.2, 3.3, D21).
The search agents are not among them: a search decision costs milliseconds,
so the arena, the environments and the terminal drive them from Python
(``agent.act``, whose search is compiled), and their compiled code is built
only when a search agent plays (a cold start of ``hotspot arena`` or of an
environment with these two players does not compile the searches).

Both play every phase, the set-up phases included.  The side to move is
``actions.current_player`` (the losing side while a loss it names is pending,
D22), not the phase's player.
"""

import numpy as np

from hotspot.core._jit import borrowed, jit
from hotspot.core.actions import NUM_ACTIONS, action_error, apply_action, current_player
from hotspot.core.errors import OK
from hotspot.core.events import EV_WIDTH
from hotspot.core.rollout import play_random_until, random_action
from hotspot.core.rules_data import PHASE_OVER
from hotspot.core.state import STATE_DTYPE

from .base import POLICY_NAMES, POLICY_RANDOM, POLICY_SCRIPTED
from .scripted import new_work, no_work, scripted_action_buf

MAX_RANDOM_ACTIONS = 1 << 62  # play_policy_until's random opponent: no cap (every phase ends, R4.2)

__all__ = [
    "POLICY_NAMES",
    "POLICY_RANDOM",
    "POLICY_SCRIPTED",
    "new_game_buffers",
    "new_policy_buffers",
    "play_games",
    "play_policy_until",
    "play_random_policy_until",
    "policy_player",
    "policy_action",
    "policy_action_buf",
]


@jit(inline=True)
def new_policy_buffers(policy):
    """``(obs, work)`` for :func:`policy_action_buf`: an information-state
    record and the scripted player's scratch buffers (about 200 KB, for a
    loop of decisions, not one a decision); empty ones for the random policy,
    which needs none."""
    if policy == POLICY_SCRIPTED:
        return np.empty(1, dtype=STATE_DTYPE), new_work()
    return np.empty(1, dtype=STATE_DTYPE), no_work()


@jit(inline=True)
def new_game_buffers(policy_z, policy_t):
    """``new_policy_buffers`` for a game between ``policy_z`` and ``policy_t``."""
    return new_policy_buffers(POLICY_SCRIPTED if POLICY_SCRIPTED in (policy_z, policy_t) else POLICY_RANDOM)


@jit(inline=True)
def borrowed_work(work):
    """The scripted player's buffers ``work`` as views without reference
    counts (``core._jit.borrowed``): for a function whose argument ``work`` is."""
    wc, wu, bd, bp, bk, mo = work
    return borrowed(wc), borrowed(wu), borrowed(bd), borrowed(bp), borrowed(bk), borrowed(mo)


@jit(inline=True)
def policy_action_buf(policy, s, mask, rng, slot, obs, work):
    """The action of compiled policy ``policy`` in state ``s`` (the player to
    move's), with the buffers of ``new_policy_buffers(policy)``."""
    if policy == POLICY_SCRIPTED:
        wc, wu, bd, bp, bk, mo = work
        return scripted_action_buf(s, mask, rng, slot, obs, wc, wu, bd, bp, bk, mo)
    # the random policy sees only what random_action needs: the legal mask
    return random_action(s, mask, rng, slot)


@jit(inline=True)
def policy_action(policy, s, mask, rng, slot):
    """``policy_action_buf`` for one decision, with buffers of its own: for
    callers from Python."""
    obs, work = new_policy_buffers(policy)
    return policy_action_buf(policy, s, mask, rng, slot, obs, work)


@jit
def play_random_policy_until(s, stop_side, mask, rng, slot, ev, ev_n):
    """``play_policy_until`` for ``POLICY_RANDOM``: the random policy needs no
    buffers and no scripted player, so this compiles without them (an
    environment with a random opponent compiles only this)."""
    return play_random_until(s, rng, slot, MAX_RANDOM_ACTIONS, stop_side, ev, ev_n)


@jit
def play_policy_until(s, stop_side, policy, mask, rng, slot, ev, ev_n):
    """Let compiled ``policy`` play for whoever is to move until ``stop_side``
    is to move or the game is over.  Returns the number of actions taken."""
    if policy != POLICY_SCRIPTED:
        return play_random_policy_until(s, stop_side, mask, rng, slot, ev, ev_n)
    n = 0
    if s["phase"] == PHASE_OVER or current_player(s) == stop_side:
        return n
    obs, work = new_policy_buffers(policy)
    while s["phase"] != PHASE_OVER and current_player(s) != stop_side:
        a = policy_action_buf(policy, s, mask, rng, slot, obs, work)
        if a < 0:
            break
        apply_action(s, a, ev, ev_n)
        n += 1
    return n


def policy_player(policy: int):
    """A compiled ``f(s, stop_side, mask, rng, slot, ev, ev_n)`` that lets
    compiled ``policy`` move, as ``play_policy_until`` does: for callers from
    Python, so that a random opponent compiles no scripted player (a cold
    start of an environment with the default opponent)."""
    if policy == POLICY_SCRIPTED:

        def play(s, stop_side, mask, rng, slot, ev, ev_n):
            return play_policy_until(s, stop_side, POLICY_SCRIPTED, mask, rng, slot, ev, ev_n)

        return play
    return play_random_policy_until


@jit
def play_games(states, policy_z, policy_t, rng, max_actions, counts):
    """Play every game of ``states`` to its end between compiled policies:
    ``policy_z`` for the Ziegler (generator ``rng[i, 0]``) and ``policy_t``
    for the Technocrat (``rng[i, 1]``).  ``counts[i]`` gets the actions taken,
    or -1 if a policy returned no action or an illegal one, or if the game
    did not end within ``max_actions``."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    obs, work = new_game_buffers(policy_z, policy_t)
    _play_games(states, policy_z, policy_t, rng, max_actions, counts, mask, ev, ev_n, obs, work)


@jit
def _play_games(states, policy_z, policy_t, rng, max_actions, counts, mask, ev, ev_n, obs, work):
    """``play_games`` with the buffers of its caller, used without reference counts (``borrowed``)."""
    mask = borrowed(mask)
    ev = borrowed(ev)
    ev_n = borrowed(ev_n)
    work = borrowed_work(work)
    rng = borrowed(rng)
    for i in range(states.shape[0]):
        s = states[i]
        r = rng[i]
        n = 0
        while s["phase"] != PHASE_OVER and n < max_actions:
            side = current_player(s)
            a = policy_action_buf(policy_t if side == 1 else policy_z, s, mask, r, side, obs, work)
            if a < 0 or a >= NUM_ACTIONS or action_error(s, a) != OK:
                n = -1
                break
            apply_action(s, a, ev, ev_n)
            n += 1
        if s["phase"] != PHASE_OVER:
            n = -1
        counts[i] = n
