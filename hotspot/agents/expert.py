"""Expert iteration's data: positions of whole games between compiled
policies, each with the game's result, to train the search's value network
(``hotspot.agents.value_net``; the pipeline is ``benchmarks/train_expert.py``).

:func:`play_and_record` plays a batch of games in one compiled call and
records the position features (``hotspot.features.position``) of every game
at the start of each turn (phase A, before the Ziegler's crustal movement:
the point where the search values its rollouts).  With probability ``eps`` a
decision is a uniformly random legal action instead of the policy's, so that
the network also sees the positions a search reaches when it deviates from
the policy.  The targets are the results: +1 Technocrat win, -1 Ziegler win,
0 a game stopped by ``max_turns`` (D19 revised).
"""
from __future__ import annotations

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import NUM_ACTIONS, action_error, apply_action, current_player, legal_action_mask
from hotspot.core.dice import splitmix64
from hotspot.core.errors import OK
from hotspot.core.events import EV_WIDTH
from hotspot.core.observation import observe
from hotspot.core.rollout import random_action
from hotspot.core.rules_data import PHASE_OVER, PHASE_Z_CRUSTAL
from hotspot.core.state import STATE_DTYPE
from hotspot.core.victory import side_return
from hotspot.features.position import NUM_POSITION_FEATURES, position_features

from .base import POLICY_ISMCTS
from .ismcts import DEFAULT_PARAMS, NO_NET, NODE_FIELDS, P_ITERATIONS, ismcts_decide
from .policies import policy_action


@jit
def play_and_record(states, policy_z, policy_t, params, net_z, net_t, eps, rng, max_actions, feats, game_of,
                    results):
    """Play every game of ``states`` to its end (``policy_z``/``policy_t``:
    compiled policy ids; ``POLICY_ISMCTS`` here is the search with
    ``params`` and the side's value network ``net_z``/``net_t`` (empty: the
    heuristic); ``rng[i, 0]``/``rng[i, 1]`` the sides' generators,
    ``rng[i, 2]`` the exploration draws) and record the features of each
    start of turn in ``feats`` (``game_of[row]`` = the game).  ``results[i]``
    gets the Technocrat's return.  Returns the rows written (at most
    ``feats.shape[0]``)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    o = np.empty(1, dtype=STATE_DTYPE)
    n_nodes = int(params[P_ITERATIONS]) + 1
    tree = np.zeros((n_nodes, NODE_FIELDS), dtype=np.int64)
    value = np.zeros(n_nodes, dtype=np.float64)
    child_of = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    row = 0
    for i in range(states.shape[0]):
        s = states[i]
        r = rng[i]
        n = 0
        last_turn = -1
        while s["phase"] != PHASE_OVER and n < max_actions:
            if s["phase"] == PHASE_Z_CRUSTAL and s["turn"] != last_turn:
                last_turn = s["turn"]
                if row < feats.shape[0]:
                    position_features(s, feats[row])
                    game_of[row] = i
                    row += 1
            side = current_player(s)
            r[2], z = splitmix64(r[2])
            if eps > 0.0 and float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0) < eps:
                a = random_action(s, mask, r, 2)
            else:
                policy = policy_t if side == 1 else policy_z
                if policy == POLICY_ISMCTS:
                    legal_action_mask(s, mask)
                    observe(s, side, True, o[0])
                    a = ismcts_decide(o[0], mask, side, r, side, params, net_t if side == 1 else net_z,
                                      tree, value, child_of)
                else:
                    a = policy_action(policy, s, mask, r, side)
            if a < 0 or a >= NUM_ACTIONS or action_error(s, a) != OK:
                break
            apply_action(s, a, ev, ev_n)
            n += 1
        results[i] = side_return(s, 1) if s["phase"] == PHASE_OVER else 0.0
    return row


def record_games(states, policy_z: int, policy_t: int, eps: float, seed: int, *, params=None, net_z=None,
                 net_t=None, max_actions: int = 100_000):
    """Play ``states`` (changed in place) and return ``(X, y, game_of)``: the
    recorded features, each row's target (the game's Technocrat return) and
    its game index.  ``params``/``net_z``/``net_t``: the search's, for a side
    whose policy is ``POLICY_ISMCTS`` (default: the ismcts agent's)."""
    params = DEFAULT_PARAMS if params is None else np.asarray(params, dtype=np.float64)
    net_z = NO_NET if net_z is None else np.asarray(net_z, dtype=np.float64)
    net_t = NO_NET if net_t is None else np.asarray(net_t, dtype=np.float64)
    n = len(states)
    rng = np.random.default_rng(seed).integers(1, 2**63, size=(n, 3), dtype=np.uint64)
    rows = max(1, n * 256)
    feats = np.zeros((rows, NUM_POSITION_FEATURES), dtype=np.float64)
    game_of = np.zeros(rows, dtype=np.int64)
    results = np.zeros(n, dtype=np.float64)
    m = play_and_record(states, np.int64(policy_z), np.int64(policy_t), params, net_z, net_t, float(eps), rng,
                        np.int64(max_actions), feats, game_of, results)
    return feats[:m].copy(), results[game_of[:m]], game_of[:m].copy()
