"""Set-up search (3.2, 3.3, D21): a side chooses its whole deployment by
simulation, at the first decision of its set-up.

The set-up is some fifty atomic decisions (choose an item, a hex, a facing)
whose worth shows only turns later, so a tree search over them would spend
its budget on noise.  Instead the searcher compares whole deployments:

1. **Candidates.**  ``candidates`` deployments of the scripted plan
   (``hotspot.agents.scripted.setup``), each named by a seed of the plan's
   generator: the plan is a function of the information state and that
   generator only, so a seed *is* a deployment.
2. **Play-outs.**  Each candidate is played from a determinization of the
   side's information state (``beliefs.determinize``: the enemy's hidden
   stacks and damage sampled, nothing read from the true state, D20): the
   candidate's set-up, the enemy's set-up if it is still to come (3.3: the
   Technocrat deploys after the Ziegler, seeing the candidate), then both
   sides' play by the rollout policy, to the end of the game or to the end of
   turn ``turns``, valued by ``beliefs.evaluate`` from the searcher's point
   of view (+1 / -1 for a finished game, the heuristic otherwise).
3. **Successive halving.**  Every candidate plays ``games`` play-outs, the
   better half twice as many, and so on until one remains; within a round
   every candidate meets the same determinizations and enemy seeds (common
   random numbers), so candidates are compared on equal games.

The winner's seed becomes the agent's generator state, and the plan then
plays exactly that deployment in the real game
(``tests/test_setup_search.py`` checks it).  A side part of whose deployment
a scenario presets (``deployment_untouched`` is false) plays the plan
without a search.

This is the same method as the arena's offline deployment search
(``hotspot.design.deployment``, ``hotspot balance --search-deployment``),
made small enough to run inside every game: the arena's search fixes one
deployment for a scenario over thousands of games; this one chooses afresh
each game, from what the side sees.
"""

from __future__ import annotations

import warnings

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.dice import splitmix64
from hotspot.core.events import EV_WIDTH
from hotspot.core.rules_data import (
    CENTRAL,
    NO_PIECE,
    PHASE_T_SETUP,
    PHASE_Z_SETUP,
    PLATFORM,
    TECHNOCRAT,
    UNIT_SIDE,
    ZIEGLER,
)
from hotspot.core.state import MAX_PIECES, MAX_UNITS, STATE_DTYPE

from .beliefs import EVAL_WEIGHTS, PRIOR_FORCES, SQUAD_PROBS, determinize, draw, evaluate
from .rollouts import new_rollout_buffers, play_out
from .scripted.setup import setup_decide
from .specs import Param

#: longest play-out, in actions (a safety bound: play-outs end by turn)
MAX_PLAYOUT_ACTIONS = 20_000

#: the set-up search's parameters (3.2, 3.3, D21), declared once for the
#: searches that choose their deployment by it (``ismcts``, ``portfolio``)
DEPLOY_PARAMS = {
    "deploy_candidates": Param(
        "int",
        8,
        0,
        256,
        doc="the set-up search: scripted deployments compared (0 or 1: none, the plan with the agent's seed)",
    ),
    "deploy_games": Param(
        "int", 4, 0, 4096, doc="the set-up search: play-outs a candidate in the first round of its halving"
    ),
    "deploy_turns": Param(
        "int", 12, 0, 1000, doc="the set-up search: turns a play-out lasts (then valued by the heuristic)"
    ),
}


@jit
def deployment_untouched(o, side):
    """Is ``o`` the first decision of ``side``'s whole deployment: its set-up
    phase (3.2 / 3.3), no item chosen, and none of its pieces or counters on
    the map yet?"""
    if side == ZIEGLER and o["phase"] != PHASE_Z_SETUP:
        return False
    if side == TECHNOCRAT and o["phase"] != PHASE_T_SETUP:
        return False
    if o["setup_item"] >= 0:
        return False
    for k in range(MAX_PIECES):
        kind = o["piece_kind"][k]
        if kind == NO_PIECE or kind == CENTRAL:
            continue
        if (kind == PLATFORM) == (side == TECHNOCRAT):
            return False
    for u in range(MAX_UNITS):
        t = o["unit_type"][u]
        if t > 0 and UNIT_SIDE[t] == side:  # t < 0: an enemy counter not seen (9.5)
            return False
    return True


@jit
def play_candidate(d, side, candidate, enemy_seed, start_turn, turns, rollout, mask, prng, ev, ev_n, obs, work):
    """Play determinized game ``d`` from ``side``'s set-up decision: ``side``'s
    plan with generator ``candidate``, the enemy with ``enemy_seed``, both by
    the rollout policy (``rollouts.play_out``), until the game ends or turn
    ``start_turn + turns`` is over.  Returns ``side``'s value of the position
    reached (``beliefs.evaluate``)."""
    prng[side] = candidate
    prng[1 - side] = enemy_seed
    play_out(d, start_turn, turns, rollout, mask, prng, MAX_PLAYOUT_ACTIONS, ev, ev_n, obs, work)
    return evaluate(d, side, EVAL_WEIGHTS)


@jit
def deployment_seed_by_playouts(o, side, seed, candidates, games, turns, rollout, dmg_p0):
    """The generator seed of the best of ``candidates`` scripted deployments of
    ``side`` on its information state ``o`` (successive halving, ``games``
    play-outs a candidate in the first round, each play-out to the end of turn
    ``o.turn + turns``).  Deterministic in ``seed``."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    cand = np.empty(candidates, dtype=np.uint64)
    for k in range(candidates):
        cand[k] = draw(rng)
    if candidates <= 1 or games <= 0:
        return cand[0]
    alive = np.ones(candidates, dtype=np.bool_)
    score = np.zeros(candidates, dtype=np.float64)
    d = np.empty(1, dtype=STATE_DTYPE)
    drng = np.empty(1, dtype=np.uint64)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    prng = np.zeros(2, dtype=np.uint64)
    obs, work = new_rollout_buffers()
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)  # events are not kept
    ev_n = np.zeros(1, dtype=np.int32)
    start_turn = int(o["turn"])
    n_alive = candidates
    n = games
    while n_alive > 1:
        seeds = np.empty((n, 2), dtype=np.uint64)  # common random numbers for the round
        for j in range(n):
            seeds[j, 0] = draw(rng)
            seeds[j, 1] = draw(rng)
        for k in range(candidates):
            if not alive[k]:
                continue
            total = 0.0
            for j in range(n):
                drng[0] = seeds[j, 0]
                determinize(o, side, d[0], drng, PRIOR_FORCES, SQUAD_PROBS, dmg_p0)
                total += play_candidate(
                    d[0], side, cand[k], seeds[j, 1], start_turn, turns, rollout, mask, prng, ev, ev_n, obs, work
                )
            score[k] = total / n
        # keep the better half (ties: the earlier candidate)
        keep = (n_alive + 1) // 2
        for _ in range(n_alive - keep):
            worst = -1
            for k in range(candidates):
                if alive[k] and (worst < 0 or score[k] <= score[worst]):
                    worst = k
            alive[worst] = False
        n_alive = keep
        n *= 2
    for k in range(candidates):
        if alive[k]:
            return cand[k]
    return cand[0]


@jit
def searched_setup_decide(o, mask, side, rng, slot, candidates, games, turns, rollout, dmg_p0):
    """A searching agent's set-up decision (3.2, 3.3, D21): at the first
    decision of its whole deployment, :func:`deployment_seed_by_playouts` (when
    ``candidates > 1`` and the scenario leaves the deployment to the side)
    sets the plan's generator ``rng[slot]`` to the best deployment's seed;
    every decision then plays the scripted plan with that generator."""
    if candidates > 1 and deployment_untouched(o, side):
        rng[slot], seed = splitmix64(rng[slot])
        rng[slot] = deployment_seed_by_playouts(o, side, seed, candidates, games, turns, rollout, dmg_p0)
    return setup_decide(o, mask, side, rng, slot)


def __getattr__(name):
    """``deployment_search`` (renamed in 0.3.0, removed in 0.4.0) is
    :func:`deployment_seed_by_playouts`: the in-game search from the side's
    information state, not the arena's offline ``search_deployment``."""
    if name == "deployment_search":
        warnings.warn(
            "hotspot.agents.setup_search.deployment_search is deprecated since hotspot 0.3.0 and will be removed "
            "in 0.4.0; use hotspot.agents.setup_search.deployment_seed_by_playouts",
            DeprecationWarning,
            stacklevel=2,
        )
        return deployment_seed_by_playouts
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
