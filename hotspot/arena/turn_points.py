"""The points an adjudication rule reads (:mod:`.adjudication`), compiled:
at the first state of each turn of play, the judge's value (the Technocrat's
expected score by the shipped learned plan value) and a hash of the
material.  Kept apart from the rules so that tuning a rule does not touch
compiled code (numba's cache key is made of the compiled modules' sources)."""

import numpy as np

from hotspot.agents.plan_value import plan_value
from hotspot.core._jit import jit
from hotspot.core.actions import NUM_ACTIONS, action_error, apply_action
from hotspot.core.errors import OK
from hotspot.core.events import EV_WIDTH
from hotspot.core.rules_data import PHASE_OVER, PHASE_Z_SETUP, TECHNOCRAT
from hotspot.features.position import NUM_POSITION_FEATURES


@jit
def material_hash(s):
    """A 64-bit hash of the material: every unit's type and squads, every
    piece's kind, damage, controller and neutralization (not where they are:
    the crustals drift every turn, 6.0)."""
    h = np.uint64(1469598103934665603)
    p = np.uint64(1099511628211)
    for u in range(s["unit_type"].shape[0]):
        h = (h ^ np.uint64(np.int64(s["unit_type"][u]) & 0xFF)) * p
        h = (h ^ np.uint64(np.int64(s["unit_squads"][u]) & 0xFF)) * p
    for i in range(s["piece_kind"].shape[0]):
        h = (h ^ np.uint64(np.int64(s["piece_kind"][i]) & 0xFF)) * p
        h = (h ^ np.uint64(np.int64(s["piece_damage"][i]) & 0xFF)) * p
        h = (h ^ np.uint64(np.int64(s["piece_controller"][i]) & 0xFF)) * p
        h = (h ^ np.uint64(np.int64(s["piece_neutralized"][i]) & 0xFF)) * p
    return h


@jit
def judge_score(s, nets, feat):
    """The judge: the Technocrat's expected score in [0, 1] at state ``s``
    (the plan value's ``(v + 1) / 2``; a game over scores its result)."""
    return (plan_value(s, TECHNOCRAT, nets, feat) + 1.0) / 2.0


@jit
def replay_turn_points(s, actions, nets, turns, values, hashes, starts):
    """Replay ``actions`` from the started state ``s`` (changed in place) and
    record, at the first state of each turn of play (not the set-up, D21),
    the turn (``turns``), the judge's value (``values``; ``nets`` the plan value's networks), the
    material hash (``hashes``) and the number of actions played before it
    (``starts``).  Returns ``(n, ok)``: the points recorded, and False if an
    action was illegal or the arrays filled up."""
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    feat = np.zeros(NUM_POSITION_FEATURES)
    last = -1
    n = 0
    for i in range(actions.shape[0] + 1):
        p = s["phase"]
        if p == PHASE_OVER:
            break
        if p < PHASE_Z_SETUP and s["turn"] != last:
            last = s["turn"]
            if n >= values.shape[0]:
                return n, False
            turns[n] = s["turn"]
            values[n] = judge_score(s, nets, feat)
            hashes[n] = material_hash(s)
            starts[n] = i
            n += 1
        if i == actions.shape[0]:
            break
        a = actions[i]
        if a < 0 or a >= NUM_ACTIONS or action_error(s, a) != OK:
            return n, False
        apply_action(s, a, ev, ev_n)
    return n, True


@jit
def state_point(s, nets):
    """(the judge's value, the material hash) of the state ``s``."""
    feat = np.zeros(NUM_POSITION_FEATURES)
    return judge_score(s, nets, feat), material_hash(s)
