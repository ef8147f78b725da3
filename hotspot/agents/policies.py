"""Compiled policies, chosen by id, so that opponents can move inside compiled
batch rollouts and the vector environment's step (no Python in the loop).

``POLICY_RANDOM``: uniform over legal actions (``core.rollout.random_action``).
"""
import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import apply_action
from hotspot.core.rollout import random_action
from hotspot.core.rules_data import PHASE_OVER, PHASE_PLAYER

POLICY_RANDOM = 0
POLICY_NAMES = ("random",)


@jit
def policy_action(policy, s, mask, rng, slot):
    """The action of compiled policy ``policy`` in state ``s`` (the player to move's)."""
    # every compiled policy sees only what random_action needs: the legal mask
    return random_action(s, mask, rng, slot)


@jit
def play_policy_until(s, stop_side, policy, mask, rng, slot, ev, ev_n):
    """Let compiled ``policy`` play for whoever is to move until ``stop_side``
    is to move or the game is over.  Returns the number of actions taken."""
    n = 0
    while s["phase"] != PHASE_OVER and PHASE_PLAYER[s["phase"]] != stop_side:
        a = policy_action(policy, s, mask, rng, slot)
        if a < 0:
            break
        apply_action(s, a, ev, ev_n)
        n += 1
    return n
