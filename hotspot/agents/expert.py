"""Expert iteration's data: positions of whole games between compiled
policies, each with the game's result, to train the search's value network
(``hotspot.agents.value_net``; the pipeline is ``training/train_expert.py``).

:func:`play_and_record` plays a batch of games in one compiled call and
records the position features (``hotspot.features.position``) of every game
at the start of each turn (phase A, before the Ziegler's crustal movement:
the point where the search values its rollouts).  With probability ``eps`` a
decision is a uniformly random legal action instead of the policy's, so that
the network also sees the positions a search reaches when it deviates from
the policy.  The targets are the results: +1 Technocrat win, -1 Ziegler win,
0 a game stopped by ``max_turns`` (D19 revised).

The policy head's data (``hotspot.agents.policy_net``) is recorded in the
same games when given room (``policy_rows``): at each decision the search
(``POLICY_ISMCTS``) searched (a phase of play, two legal actions or more),
the decision features (``hotspot.features.decision``) of the acting side's
information state, the very record the search was given (D20: never the
true state), its legal actions and the root's visit distribution: each root
child's visits (``ismcts.N_VISITS``) over the root's, 0 for the legal
actions never expanded.
"""

from __future__ import annotations

import warnings

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import (
    NUM_ACTIONS,
    NUM_PLAY_ACTIONS,
    action_error,
    apply_action,
    current_player,
    legal_action_mask,
)
from hotspot.core.dice import splitmix64
from hotspot.core.errors import OK
from hotspot.core.events import EV_WIDTH
from hotspot.core.observation import observe
from hotspot.core.rollout import random_action
from hotspot.core.rules_data import PHASE_OVER, PHASE_Z_CRUSTAL
from hotspot.core.setup import is_setup_phase
from hotspot.core.state import STATE_DTYPE
from hotspot.core.victory import side_return
from hotspot.features.decision import NUM_DECISION_FEATURES, decision_features
from hotspot.features.position import NUM_POSITION_FEATURES, position_features

from .base import POLICY_ISMCTS, POLICY_SCRIPTED
from .ismcts import (
    DEFAULT_PARAMS,
    N_ACTION,
    N_FIRST,
    N_NEXT,
    N_VISITS,
    NO_NET,
    NODE_FIELDS,
    P_ITERATIONS,
    ismcts_decide,
)
from .policies import new_policy_buffers, policy_action_buf


@jit(inline=True)
def record_visits(o, mask, tree, pfeat, ptarget, plegal):
    """The policy target of the decision just searched on information state
    ``o``: its features, legal actions and the root's visit distribution.
    Returns False (nothing usable written) if the root has no visits."""
    total = 0.0
    ch = tree[0, N_FIRST]
    while ch >= 0:
        total += tree[ch, N_VISITS]
        ch = tree[ch, N_NEXT]
    if total <= 0.0:
        return False
    decision_features(o, pfeat)
    for a in range(NUM_PLAY_ACTIONS):
        plegal[a] = mask[a]
        ptarget[a] = 0.0
    ch = tree[0, N_FIRST]
    while ch >= 0:
        ptarget[tree[ch, N_ACTION]] += tree[ch, N_VISITS] / total
        ch = tree[ch, N_NEXT]
    return True


@jit
def play_and_record(
    states,
    policy_z,
    policy_t,
    params,
    net_z,
    net_t,
    eps,
    rng,
    max_actions,
    feats,
    game_of,
    results,
    pfeats,
    ptargets,
    plegal,
    pgame_of,
):
    """Play every game of ``states`` to its end (``policy_z``/``policy_t``:
    compiled policy ids; ``POLICY_ISMCTS`` here is the search with
    ``params`` and the side's value network ``net_z``/``net_t`` (empty: the
    heuristic); ``rng[i, 0]``/``rng[i, 1]`` the sides' generators,
    ``rng[i, 2]`` the exploration draws) and record the features of each
    start of turn in ``feats`` (``game_of[row]`` = the game).  ``results[i]``
    gets the Technocrat's return.  The policy recorder (rows of ``pfeats``,
    ``ptargets``, ``plegal``, ``pgame_of``; zero rows: off) gets every
    searched decision (:func:`record_visits`).  Returns the rows written to
    each, ``(rows, policy rows)`` (at most ``feats.shape[0]`` and
    ``pfeats.shape[0]``)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    o = np.empty(1, dtype=STATE_DTYPE)
    n_nodes = int(params[P_ITERATIONS]) + 1
    tree = np.zeros((n_nodes, NODE_FIELDS), dtype=np.int64)
    value = np.zeros(n_nodes, dtype=np.float64)
    child_of = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    pobs, pwork = new_policy_buffers(POLICY_SCRIPTED)
    row = 0
    prow = 0
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
                    a = ismcts_decide(
                        o[0], mask, side, r, side, params, net_t if side == 1 else net_z, tree, value, child_of
                    )
                    # searched (not set-up, two legal actions or more): the tree is this decision's
                    if prow < pfeats.shape[0] and not is_setup_phase(o[0]["phase"]) and np.sum(mask) > 1:
                        if record_visits(o[0], mask, tree, pfeats[prow], ptargets[prow], plegal[prow]):
                            pgame_of[prow] = i
                            prow += 1
                else:
                    a = policy_action_buf(policy, s, mask, r, side, pobs, pwork)
            if a < 0 or a >= NUM_ACTIONS or action_error(s, a) != OK:
                break
            apply_action(s, a, ev, ev_n)
            n += 1
        results[i] = side_return(s, 1) if s["phase"] == PHASE_OVER else 0.0
    return row, prow


def record_games(
    states,
    policy_z: int,
    policy_t: int,
    eps: float,
    seed: int,
    *,
    params=None,
    net_z=None,
    net_t=None,
    max_actions: int = 100_000,
    policy_targets: bool = False,
):
    """Play ``states`` (changed in place) and return ``(X, y, game_of)``: the
    recorded features, each row's target (the game's Technocrat return) and
    its game index.  ``params``/``net_z``/``net_t``: the search's, for a side
    whose policy is ``POLICY_ISMCTS`` (default: the ismcts agent's).

    ``policy_targets``: also return the policy head's data, a fourth item
    ``(Xp, P, M, pgame_of)``: each searched decision's features, root visit
    distribution over ``NUM_PLAY_ACTIONS`` (rows sum to 1), legal actions and
    game index."""
    params = DEFAULT_PARAMS if params is None else np.asarray(params, dtype=np.float64)
    net_z = NO_NET if net_z is None else np.asarray(net_z, dtype=np.float64)
    net_t = NO_NET if net_t is None else np.asarray(net_t, dtype=np.float64)
    n = len(states)
    rng = np.random.default_rng(seed).integers(1, 2**63, size=(n, 3), dtype=np.uint64)
    rows = max(1, n * 256)
    feats = np.zeros((rows, NUM_POSITION_FEATURES), dtype=np.float64)
    game_of = np.zeros(rows, dtype=np.int64)
    results = np.zeros(n, dtype=np.float64)
    prows = max(1, n * 4096) if policy_targets else 0
    pfeats = np.zeros((prows, NUM_DECISION_FEATURES), dtype=np.float64)
    ptargets = np.zeros((prows, NUM_PLAY_ACTIONS), dtype=np.float64)
    plegal = np.zeros((prows, NUM_PLAY_ACTIONS), dtype=np.bool_)
    pgame_of = np.zeros(prows, dtype=np.int64)
    m, pm = play_and_record(
        states,
        np.int64(policy_z),
        np.int64(policy_t),
        params,
        net_z,
        net_t,
        float(eps),
        rng,
        np.int64(max_actions),
        feats,
        game_of,
        results,
        pfeats,
        ptargets,
        plegal,
        pgame_of,
    )
    for used, room, what in ((m, rows, "start-of-turn rows"), (pm, prows, "policy rows")):
        if room > 1 and used >= room:  # the buffer filled up: later rows were not recorded
            warnings.warn(
                f"record_games: the {room} {what} are full; later ones were dropped (record fewer games a call)",
                RuntimeWarning,
                stacklevel=2,
            )
    out = (feats[:m].copy(), results[game_of[:m]], game_of[:m].copy())
    if policy_targets:
        out += ((pfeats[:pm].copy(), ptargets[:pm].copy(), plegal[:pm].copy(), pgame_of[:pm].copy()),)
    return out
