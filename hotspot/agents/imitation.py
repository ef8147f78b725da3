"""Labelled decisions for the per-action policy (``action_policy``): the
features of every legal action at a decision and the one the teacher chose.

Two sources, both compiled:

* :func:`replay_decisions`: a recorded game (the arena's ``games.jsonl``:
  seed and actions) replayed from its started state; the decisions of the
  chosen sides are labelled with the action the game's player took there
  (a search agent's games make search targets);
* :func:`play_dagger`: games in which the policy plays and the compiled
  scripted player labels each decision (DAgger, Ross et al. 2011): the
  policy's own mistakes lead to the positions it learns from.

A decision is kept when it is a phase of play (4.0 A-H) with two legal
actions or more.  Features are those of the acting side's information state
(D20).  Output arrays (filled from index ``nd`` / ``na`` on, grown by the
caller): ``XS[d]`` the decision features, ``XA[r]`` action rows, ``START[d]``
the first row of decision d (its rows run to ``START[d + 1]``), ``TARGET[d]``
the chosen action's position among its rows, ``ACT[r]`` the action index of
row r.  A call stops early, returning ``full`` True, when the next decision
may not fit.
"""

from __future__ import annotations

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import (
    NUM_ACTIONS,
    apply_action,
    current_player,
    legal_actions,
)
from hotspot.core.dice import splitmix64
from hotspot.core.events import EV_WIDTH
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.observation import observe
from hotspot.core.rules_data import (
    ONGOING,
    PHASE_CONTROL,
    PHASE_OVER,
    TECHNOCRAT_WIN,
    ZIEGLER_WIN,
)
from hotspot.core.state import STATE_DTYPE
from hotspot.features.actions import (
    NUM_ACTION_FEATURES,
    action_features,
    new_action_work,
)
from hotspot.features.decision import NUM_DECISION_FEATURES, decision_features

from .action_policy import policy_decide_state
from .base import POLICY_SCRIPTED
from .policies import new_policy_buffers, policy_action_buf


def new_dataset(decisions: int, rows: int) -> dict:
    """Empty output arrays for ``decisions`` decisions and ``rows`` action rows."""
    return {
        "XS": np.zeros((decisions, NUM_DECISION_FEATURES), np.float32),
        "XA": np.zeros((rows, NUM_ACTION_FEATURES), np.float32),
        "START": np.zeros(decisions + 1, np.int64),
        "TARGET": np.zeros(decisions, np.int64),
        "ACT": np.zeros(rows, np.int16),
    }


@jit
def _label(s, side, a, acts, n, obs, w, xs, xa, XS, XA, START, TARGET, ACT, nd, na):
    """Write the decision of ``side`` at ``s`` (legal ``acts[:n]``, taken ``a``)."""
    observe(s, side, True, obs[0])
    decision_features(obs[0], xs)
    action_features(obs[0], acts, n, w, xa)
    t = -1
    for i in range(n):
        if acts[i] == a:
            t = i
        for f in range(NUM_ACTION_FEATURES):
            XA[na + i, f] = xa[i, f]
        ACT[na + i] = acts[i]
    for f in range(NUM_DECISION_FEATURES):
        XS[nd, f] = xs[f]
    START[nd] = na
    START[nd + 1] = na + n
    TARGET[nd] = t
    return t


@jit
def replay_decisions(s, actions, sides, XS, XA, START, TARGET, ACT, nd, na):
    """Replay ``actions`` from started state ``s`` (changed in place), labelling
    the decisions of the sides with ``sides[side]`` True.  Returns ``(nd, na,
    ok)``: ``ok`` False if an action was illegal (the replay stops) or the
    arrays filled up (the game is cut short)."""
    acts = np.empty(NUM_ACTIONS, dtype=np.int64)
    obs = np.empty(1, dtype=STATE_DTYPE)
    w = new_action_work()
    xs = np.zeros(NUM_DECISION_FEATURES)
    xa = np.zeros((NUM_ACTIONS, NUM_ACTION_FEATURES))
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    for a in actions:
        if s["phase"] == PHASE_OVER:
            return nd, na, False
        side = current_player(s)
        n = legal_actions(s, acts)
        legal = False
        for i in range(n):
            if acts[i] == a:
                legal = True
        if not legal:
            return nd, na, False
        if sides[side] and s["phase"] <= PHASE_CONTROL and n >= 2:
            if nd + 1 >= XS.shape[0] or na + n > XA.shape[0]:
                return nd, na, False
            _label(s, side, a, acts, n, obs, w, xs, xa, XS, XA, START, TARGET, ACT, nd, na)
            nd += 1
            na += n
        apply_action(s, a, ev, ev_n)
    return nd, na, True


@jit(inline=True)
def _uniform(coin):
    """A uniform draw in [0, 1) from the generator ``coin`` (1,)."""
    coin[0], z = splitmix64(coin[0])
    return (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit(inline=True)
def _game_buffers():
    """Scratch of a game loop that asks the policy: legal actions, an
    information state, features, scores, a mask, no events."""
    return (
        np.empty(NUM_ACTIONS, dtype=np.int64),
        np.empty(1, dtype=STATE_DTYPE),
        new_action_work(),
        np.zeros(NUM_DECISION_FEATURES),
        np.zeros((NUM_ACTIONS, NUM_ACTION_FEATURES)),
        np.zeros(NUM_ACTIONS),
        np.zeros(NUM_ACTIONS, dtype=np.bool_),
        np.zeros((0, EV_WIDTH), dtype=np.int32),
        np.zeros(1, dtype=np.int32),
    )


@jit
def play_dagger(
    states,
    policy_side,
    beta,
    W0,
    b0,
    W1,
    b1,
    w2,
    b2,
    rng,
    coin,
    XS,
    XA,
    START,
    TARGET,
    ACT,
    nd,
    na,
    record=True,
    opponent=POLICY_SCRIPTED,
):
    """Play the games ``states`` (started; changed in place) with the policy as
    ``policy_side`` against the compiled ``opponent`` (default the scripted
    player), and label the policy side's decisions with the scripted
    player's choice.  The policy side plays the policy's choice, or with
    probability ``beta`` the scripted player's; in the set-up phases (3.2,
    3.3, D21) the scripted deployment plan, as ``ActionPolicyAgent`` does.
    ``rng[i]``: game i's generators (2, splitmix64 states); ``coin``: the
    generator (1,) of the beta draws.  Returns ``(nd, na, games finished)``.
    ``record`` False: play without labelling (an evaluation, ``beta`` 0:
    the policy's own play; the teacher is then asked only in set-up)."""
    acts, obs2, w, xs, xa, out, mask, ev, ev_n = _game_buffers()
    obs, work = new_policy_buffers(POLICY_SCRIPTED)
    done = 0
    for g in range(states.shape[0]):
        s = states[g]
        r = rng[g]
        steps = 0
        while s["phase"] != PHASE_OVER and steps < 100000:
            side = current_player(s)
            if side != policy_side:
                a = policy_action_buf(opponent, s, mask, r, side, obs, work)
            elif s["phase"] > PHASE_CONTROL:
                a = policy_action_buf(POLICY_SCRIPTED, s, mask, r, side, obs, work)
            else:
                n = legal_actions(s, acts)
                a = acts[0] if n > 0 else -1
                if n >= 2:
                    if record or beta > 0.0:
                        a = policy_action_buf(POLICY_SCRIPTED, s, mask, r, side, obs, work)
                    if record:
                        if nd + 1 >= XS.shape[0] or na + n > XA.shape[0]:
                            return nd, na, done
                        _label(s, side, a, acts, n, obs2, w, xs, xa, XS, XA, START, TARGET, ACT, nd, na)
                        nd += 1
                        na += n
                    # the policy's own choice unless the coin says the teacher's
                    if _uniform(coin) >= beta:
                        a = policy_decide_state(s, side, acts, n, W0, b0, W1, b1, w2, b2, obs2, w, xs, xa, out)
            if a < 0:
                break
            apply_action(s, a, ev, ev_n)
            steps += 1
        if s["phase"] == PHASE_OVER:
            done += 1
    return nd, na, done


def _scores(result, side):
    """``side``'s score of each finished game: 1 a win, 0 a loss, 0.5 no winner (D19 revised)."""
    win = TECHNOCRAT_WIN if side == 1 else ZIEGLER_WIN
    return np.where(result == win, 1.0, np.where(result == ONGOING, 0.5, 0.0))


def _started_games(scenario: str, first_seed: int, games: int, max_turns):
    """The started states of games on seeds ``first_seed + i`` and their two
    players' generators (the same for either seat: mirrored)."""
    from hotspot.core.game import Game

    states = np.concatenate([Game(scenario, seed=first_seed + i, max_turns=max_turns).state for i in range(games)])
    seeds = np.arange(first_seed, first_seed + games, dtype=np.uint64)
    return states, np.stack([seeds * np.uint64(2) + np.uint64(1), seeds * np.uint64(2) + np.uint64(2)], axis=1)


def evaluate(
    net,
    scenario: str,
    first_seed: int,
    games: int,
    side: int,
    opponent: int = POLICY_SCRIPTED,
    max_turns: int | None = DEFAULT_MAX_TURNS,
) -> np.ndarray:
    """The policy ``net`` (a ``PolicyNet``) alone as ``side`` against compiled
    ``opponent`` in ``games`` games, game i on seed ``first_seed + i`` (the
    same seeds for either side: mirrored), in compiled code.  Returns the
    policy's score of each game: 1 a win, 0 a loss, 0.5 a draw (a game
    stopped after turn ``max_turns``, D19 revised)."""
    states, rng = _started_games(scenario, first_seed, games, max_turns)
    ds = new_dataset(1, 1)
    play_dagger(
        states,
        side,
        0.0,
        *net.arrays,
        rng,
        np.array([first_seed], np.uint64),
        ds["XS"],
        ds["XA"],
        ds["START"],
        ds["TARGET"],
        ds["ACT"],
        0,
        0,
        False,
        opponent,
    )
    return _scores(states["result"], side)


@jit
def sample_states(states, policy_side, p, W0, b0, W1, b1, w2, b2, rng, coin, out, k):
    """Play the games ``states`` (changed in place) with the policy as
    ``policy_side`` against the compiled scripted player (set-up: the
    scripted plan) and copy the state before each of the policy's decisions
    (a phase of play, two legal actions or more) into ``out[k], out[k+1],
    ...`` with probability ``p`` (``coin``'s draws): the positions the policy
    itself reaches, for a teacher to label (DAgger).  Returns the new ``k``."""
    acts, obs2, w, xs, xa, sc, mask, ev, ev_n = _game_buffers()
    obs, work = new_policy_buffers(POLICY_SCRIPTED)
    for g in range(states.shape[0]):
        s = states[g]
        r = rng[g]
        steps = 0
        while s["phase"] != PHASE_OVER and steps < 100000:
            side = current_player(s)
            if side != policy_side or s["phase"] > PHASE_CONTROL:
                a = policy_action_buf(POLICY_SCRIPTED, s, mask, r, side, obs, work)
            else:
                n = legal_actions(s, acts)
                a = acts[0] if n > 0 else -1
                if n >= 2:
                    if _uniform(coin) < p:
                        if k >= out.shape[0]:
                            return k
                        out[k] = s
                        k += 1
                    a = policy_decide_state(s, side, acts, n, W0, b0, W1, b1, w2, b2, obs2, w, xs, xa, sc)
            if a < 0:
                break
            apply_action(s, a, ev, ev_n)
            steps += 1
    return k


@jit
def label_decision(s, a, XS, XA, START, TARGET, ACT, nd, na):
    """Write the decision of the player to move in ``s`` with the teacher's
    action ``a`` (a phase of play) as decision ``nd`` (rows from ``na``).
    Returns ``(nd, na)`` after it; unchanged if ``a`` is not legal there or
    the arrays are full."""
    acts = np.empty(NUM_ACTIONS, dtype=np.int64)
    n = legal_actions(s, acts)
    if nd + 1 >= XS.shape[0] or na + n > XA.shape[0]:
        return nd, na
    obs = np.empty(1, dtype=STATE_DTYPE)
    xs = np.zeros(NUM_DECISION_FEATURES)
    xa = np.zeros((NUM_ACTIONS, NUM_ACTION_FEATURES))
    t = _label(s, current_player(s), a, acts, n, obs, new_action_work(), xs, xa, XS, XA, START, TARGET, ACT, nd, na)
    if t < 0:
        return nd, na
    return nd + 1, na + n


def scripted_baseline(scenario: str, first_seed: int, games: int, max_turns: int | None = DEFAULT_MAX_TURNS):
    """The Technocrat's score of each scripted-against-scripted game on the
    seeds and generators :func:`evaluate` uses: the baseline of each seat."""
    from .policies import play_games

    states, rng = _started_games(scenario, first_seed, games, max_turns)
    play_games(states, POLICY_SCRIPTED, POLICY_SCRIPTED, rng, 1 << 40, np.zeros(games, np.int64))
    return _scores(states["result"], 1)
