"""The rollout policies of the searches (flat Monte Carlo in ``search.py`` and
ISMCTS in ``ismcts.py``): the compiled random player or the scripted player,
playing both sides of a determinized game.

One function, :func:`rollout_action`, with caller-owned buffers: a search
plays thousands of rollout moves a decision, and the scripted player's
scratch buffers (about 210 KB) are allocated once a decision
(:func:`new_rollout_buffers`), not once a move.  Kept apart from
``policies.policy_action`` (which can also run the ISMCTS agent) so that the
searches' compiled code does not contain a search inside its rollouts.
"""
import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import current_player
from hotspot.core.rollout import random_action
from hotspot.core.state import STATE_DTYPE

from .base import POLICY_NAMES, POLICY_RANDOM, POLICY_SCRIPTED
from .scripted import new_work, scripted_action_buf

#: the rollout policies by name (their ids are the compiled policy ids)
ROLLOUT_NAMES = (POLICY_NAMES[POLICY_RANDOM], POLICY_NAMES[POLICY_SCRIPTED])


def rollout_policy_id(name: str) -> int:
    """The compiled id of rollout policy ``name`` ("random" or "scripted")."""
    if name not in ROLLOUT_NAMES:
        raise ValueError(f"unknown rollout policy {name!r}; known: {list(ROLLOUT_NAMES)}")
    return int(POLICY_NAMES.index(name))


@jit(inline=True)
def new_rollout_buffers():
    """``(obs, work)``: an information-state record and the scripted player's
    scratch buffers, for :func:`rollout_action`."""
    return np.empty(1, dtype=STATE_DTYPE), new_work()


@jit(inline=True)
def rollout_action(s, mask, prng, rollout, obs, work):
    """The action of rollout policy ``rollout`` (``POLICY_SCRIPTED`` or
    ``POLICY_RANDOM``) for the player to move in ``s``, with that player's
    generator ``prng[side]`` (fills ``mask``).  The scripted player sees only
    that player's information state (D20), built in ``obs``."""
    side = current_player(s)
    if rollout == POLICY_SCRIPTED:
        wc, wu, bd, bp, bk, mo = work
        return scripted_action_buf(s, mask, prng, side, obs, wc, wu, bd, bp, bk, mo)
    return random_action(s, mask, prng, side)
