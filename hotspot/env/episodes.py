"""Compiled episode handling shared by every environment: reset a game from a
template position with an episode seed, let the compiled opponent move, step
the learner's action.  ``HotspotEnv`` is this with one game, and
``HotspotVectorEnv`` with N games in one compiled call, so the two agree game
for game.

Seeds: an *episode seed* (uint64) fixes the episode: the template position
(when there are several), the dice and the opponent's randomness.  The next
episode's seed is ``next_episode_seed(seed)``, so a sequence of episodes is
fixed by the first seed, whether played in one env or in a vector env.

Illegal actions: refused (nothing changes), or, under the environments'
default ``illegal_action="lose"``, the end of the episode as a loss for the
learner (reward -1, terminated) with the game state as it was.

Autoreset (the vector env): a game whose episode has ended has exactly one
legal action until its next step resets it, ``RESET_ACTION`` (end phase),
so that no mask row is ever empty; that step ignores the action it is given.
"""

import numpy as np
from numba import prange

from hotspot.agents.policies import play_policy_until
from hotspot.core._jit import jit
from hotspot.core.actions import A_END_PHASE, action_error, apply_action, legal_action_mask, start
from hotspot.core.dice import mix64
from hotspot.core.errors import OK
from hotspot.core.events import EV_WIDTH
from hotspot.core.rules_data import PHASE_OVER
from hotspot.core.victory import side_return
from hotspot.features.encoding import encode

_K_DICE = np.uint64(0x5DEECE66D)
_K_AGENT = np.uint64(0xA0761D6478BD642F)
_K_TEMPLATE = np.uint64(0xE7037ED1A0B428DB)
#: the one legal action of a vector env's game between its episode's end and its reset
RESET_ACTION = A_END_PHASE


@jit
def next_episode_seed(seed):
    return mix64(seed ^ np.uint64(0x2545F4914F6CDD1D))


@jit
def begin_episode(states, i, templates, seed, opp_rng, ev, ev_n):
    """Begin episode ``seed`` in ``states[i]``: its position, dice and the
    opponent's generator; nobody has moved yet."""
    k = int(mix64(seed ^ _K_TEMPLATE) % np.uint64(templates.shape[0]))
    states[i] = templates[k]
    s = states[i]
    s["rng"] = mix64(seed ^ _K_DICE)
    opp_rng[i] = mix64(seed ^ _K_AGENT)
    start(s, ev, ev_n)


@jit
def reset_game(states, i, templates, seed, side, policy, opp_rng, mask, ev, ev_n):
    """Begin episode ``seed`` in ``states[i]`` and let the opponent move until ``side`` is to move."""
    begin_episode(states, i, templates, seed, opp_rng, ev, ev_n)
    s = states[i]
    if policy >= 0:  # a compiled opponent; -1: the caller moves a Python opponent
        play_policy_until(s, side, policy, mask, opp_rng, i, ev, ev_n)


@jit
def outcome(s, side):
    """(reward, terminated, truncated) for the learner playing ``side``.

    A victory (5.0) is terminated with +1/-1; a game stopped by ``max_turns``
    is truncated with reward 0: it has no winner (D19 revised)."""
    if s["phase"] != PHASE_OVER:
        return 0.0, False, False
    reward = side_return(s, side)
    if s["truncated"]:
        return reward, False, True
    return reward, True, False


@jit
def step_game(states, i, action, side, policy, opp_rng, mask, ev, ev_n):
    """Apply the learner's (legal) action, then the opponent's moves."""
    s = states[i]
    apply_action(s, action, ev, ev_n)
    if policy >= 0:
        play_policy_until(s, side, policy, mask, opp_rng, i, ev, ev_n)


@jit(parallel=True)
def vector_step(
    states,
    actions,
    templates,
    seeds,
    needs_reset,
    side,
    policy,
    opp_rng,
    fog,
    with_board,
    lose,
    rewards,
    terminated,
    truncated,
    illegal,
    masks,
    scratch,
    board,
    units,
    pieces,
    globs,
):
    """One step of every game (next-step autoreset): a game whose episode ended
    at the previous step is reset to its next episode and ignores its action.

    An illegal action: without ``lose`` nothing at all changes and the index
    of the first game with one is returned; with ``lose`` that game's episode
    ends as a loss for the learner (reward -1, terminated, ``illegal[i]``
    set) and its state stays as it was.  Otherwise returns -1.  The mask of
    a game whose episode has ended holds RESET_ACTION alone.  Without
    ``with_board`` (the compact observation) ``board`` is not written: it
    may be empty, shape (n, 0, 0, 0)."""
    n = states.shape[0]
    first = -1
    for i in range(n):
        illegal[i] = not needs_reset[i] and action_error(states[i], actions[i]) != OK
        if illegal[i] and first < 0:
            first = i
    if first >= 0 and not lose:
        illegal[:] = False
        return first
    for i in prange(n):
        ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
        ev_n = np.zeros(1, dtype=np.int32)
        if needs_reset[i]:
            seeds[i] = next_episode_seed(seeds[i])
            reset_game(states, i, templates, seeds[i], side, policy, opp_rng, masks[i], ev, ev_n)
            needs_reset[i] = False
            rewards[i] = 0.0
            terminated[i] = False
            truncated[i] = False
        elif illegal[i]:
            rewards[i] = -1.0
            terminated[i] = True
            truncated[i] = False
            needs_reset[i] = True
        else:
            step_game(states, i, actions[i], side, policy, opp_rng, masks[i], ev, ev_n)
            r, te, tr = outcome(states[i], side)
            rewards[i] = r
            terminated[i] = te
            truncated[i] = tr
            needs_reset[i] = te or tr
        if needs_reset[i]:
            masks[i, :] = False
            masks[i, RESET_ACTION] = True
        else:
            legal_action_mask(states[i], masks[i])
        encode(states[i], side, fog, with_board, scratch[i], board[i], units[i], pieces[i], globs[i])
    return -1


@jit(parallel=True)
def vector_reset(
    states, templates, seeds, side, policy, opp_rng, fog, with_board, masks, scratch, board, units, pieces, globs
):
    """Begin episode ``seeds[i]`` in every game."""
    for i in prange(states.shape[0]):
        ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
        ev_n = np.zeros(1, dtype=np.int32)
        reset_game(states, i, templates, seeds[i], side, policy, opp_rng, masks[i], ev, ev_n)
        legal_action_mask(states[i], masks[i])
        encode(states[i], side, fog, with_board, scratch[i], board[i], units[i], pieces[i], globs[i])
