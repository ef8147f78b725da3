"""Monte Carlo search agent (flat Monte Carlo over the legal actions), honest
about hidden information (D20).

The agent acts from its side's *information state* only (``observe(s, side,
fog=True)``: enemy piece damage -1, enemy stack members below the top counter
of type -1, squads of unseen enemy counters -1, the dice cleared).  Each
decision is searched in one compiled call (:func:`search_decide`):

1. **Determinization.**  Before each simulation the information state is
   turned into a playable state by sampling what it hides
   (:func:`determinize`): unknown enemy damage (0 with probability
   ``DMG_P0``, otherwise uniform in 1..rating-1), unknown enemy unit types
   (drawn without replacement from a pool: the side's initial forces of the
   standard set-up minus the enemy types in sight, then in proportion to
   those forces), unknown infantry squads (1-3, mostly 3), and a fresh dice
   seed.  While the game goes on the Technocrat has an engineer squad left
   (D19), so a determinization of the Technocrat always keeps one.  Only
   fields that are -1 in the information state change, and types in place,
   so the ``cell_units`` index (counters per side per cell, which is seen)
   stays exact and the position stays legal.
2. **Simulation.**  Every candidate action is applied to a copy of the same
   determinization, with the same dice and the same rollout generators
   (common random numbers: the candidates are compared on the same luck),
   and the game is played on by a compiled rollout policy
   (``hotspot.agents.rollouts.rollout_action``, the scripted player by
   default) for both sides until the end of the current turn plus
   ``horizon`` turns (``horizon < 0``: the end of the game).
3. **Evaluation.**  A finished game is +1/-1; otherwise a heuristic value in
   (-1, 1) (:func:`evaluate`): the Technocrat's engineer squads left, the
   crustals it controls, its counters on the Central Crustal, the material
   balance and the engineers' distance to the Central Crustal.
4. **Choice.**  The candidate with the best mean value; the rollout
   policy's own choice (computed on the first determinization) unless
   another candidate beats it by more than ``margin``.  With more legal
   actions than ``max_candidates`` the candidates are the policy's choice
   and a random sample of the others.

Decisions with a single legal action are not searched, and neither are the
set-up phases (3.2, 3.3, D21): there the agent plays the scripted player's
deployment plan (``hotspot.agents.scripted.setup``) on its information state,
with a generator drawn from its own seed (a search over some 300 hexes a
placement, with rollouts of a whole deployment, would cost much and the
heuristic value of a position before play has no signal to compare them).
"""

from __future__ import annotations

import numpy as np

from hotspot.agents.base import Agent
from hotspot.core._jit import jit
from hotspot.core.actions import NUM_ACTIONS, action_error, apply_action
from hotspot.core.dice import splitmix64
from hotspot.core.errors import OK
from hotspot.core.events import EV_WIDTH
from hotspot.core.observation import observe
from hotspot.core.setup import is_setup_phase
from hotspot.core.state import STATE_DTYPE

from .beliefs import (
    DMG_P0,
    EVAL_WEIGHTS,
    PRIOR_FORCES,
    SQUAD_PROBS,
    determinize,
    draw,
    draw_below,  # noqa: F401 (re-exported)
    evaluate,
)
from .rollouts import new_rollout_buffers, play_out, rollout_action, rollout_policy_id
from .specs import Param


@jit
def search_decide(  # noqa: C901 (the flat search's phases in one compiled function)
    o,
    given_mask,
    side,
    n_sims,
    horizon,
    policy,
    max_cands,
    margin,
    seed,
    prior,
    squad_p,
    dmg_p0,
    w,
    max_rollout,
    cands,
    sums,
    counts,
):
    """One searched decision of ``side`` on its information state ``o``.

    Returns ``(action, n_candidates, default_action)``; ``cands[:n]``,
    ``sums[:n]`` and ``counts[:n]`` get the candidates, their summed values and
    simulation counts."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    n_legal = 0
    for a in range(NUM_ACTIONS):
        if given_mask[a]:
            n_legal += 1
    if n_legal == 0:
        return -1, 0, -1
    d = np.empty(1, dtype=STATE_DTYPE)
    ws = np.empty(1, dtype=STATE_DTYPE)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    prng = np.zeros(2, dtype=np.uint64)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    obs, work = new_rollout_buffers()
    determinize(o, side, d[0], rng, prior, squad_p, dmg_p0)
    prng[0] = draw(rng)
    prng[1] = draw(rng)
    default = rollout_action(d[0], mask, prng, policy, obs, work)
    if default < 0 or default >= NUM_ACTIONS or not given_mask[default]:
        default = -1
        for a in range(NUM_ACTIONS):
            if given_mask[a]:
                default = a
                break
    if n_legal == 1:
        cands[0] = default
        return default, 0, default
    # candidates: the default first, then the others (a random sample if too many)
    others = np.empty(n_legal, dtype=np.int64)
    n_oth = 0
    for a in range(NUM_ACTIONS):
        if given_mask[a] and a != default:
            others[n_oth] = a
            n_oth += 1
    n = min(n_legal, max(1, max_cands))
    cands[0] = default
    for j in range(1, n):  # partial Fisher-Yates
        r = j - 1 + draw_below(rng, n_oth - (j - 1))
        tmp = others[j - 1]
        others[j - 1] = others[r]
        others[r] = tmp
        cands[j] = others[j - 1]
    for j in range(n):
        sums[j] = 0.0
        counts[j] = 0
    start_turn = int(o["turn"])
    for i in range(n_sims):
        if i > 0:
            determinize(o, side, d[0], rng, prior, squad_p, dmg_p0)
        p0 = draw(rng)
        p1 = draw(rng)
        for j in range(n):
            observe(d[0], side, False, ws[0])
            s = ws[0]
            a = cands[j]
            if action_error(s, a) != OK:
                continue  # not legal in this determinization (rare): no sample
            prng[0] = p0
            prng[1] = p1
            apply_action(s, a, ev, ev_n)
            play_out(s, start_turn, horizon, policy, mask, prng, max_rollout, ev, ev_n, obs, work)
            sums[j] += evaluate(s, side, w)
            counts[j] += 1
    best = 0
    best_v = -1e300
    def_v = -1e300
    if counts[0] > 0:
        def_v = sums[0] / counts[0]
    for j in range(n):
        if counts[j] > 0:
            v = sums[j] / counts[j]
            if v > best_v:
                best_v = v
                best = j
    if counts[0] > 0 and best_v <= def_v + margin:
        best = 0
    return cands[best], n, default


# ------------------------------------------------------------------ the agent

_MASK64 = (1 << 64) - 1


class MCTSAgent(Agent):
    """Flat Monte Carlo search over the legal actions with determinized
    rollouts (see the module docstring).

    Args:
        simulations: determinizations (simulations) per candidate action.
        horizon: turns played after the current one before evaluating
            (0: to the end of the current turn; negative: to the end of the game).
        rollout: the compiled rollout policy, ``"scripted"`` or ``"random"``.
        max_candidates: at most this many candidate actions per decision
            (the rollout policy's choice and a random sample of the others).
        margin: another action replaces the rollout policy's choice only if
            its mean value is higher by more than this.
        seed: the agent's own randomness (determinizations, candidate sample,
            rollout generators): equal seeds, equal play.
    """

    name = "mcts"
    policy_id = None

    def __init__(
        self,
        simulations: int = 8,
        horizon: int = 0,
        rollout: str = "scripted",
        max_candidates: int = 8,
        margin: float = 0.05,
        seed: int | None = None,
        max_rollout_actions: int = 5000,
    ):
        if simulations < 1:
            raise ValueError(f"simulations must be >= 1, got {simulations}")
        if max_candidates < 1:
            raise ValueError(f"max_candidates must be >= 1, got {max_candidates}")
        policy = rollout_policy_id(rollout)
        self.simulations = int(simulations)
        self.horizon = int(horizon)
        self.rollout = rollout
        self.policy = policy
        self.max_candidates = int(max_candidates)
        self.margin = float(margin)
        self.max_rollout_actions = int(max_rollout_actions)
        self._cands = np.zeros(NUM_ACTIONS, dtype=np.int64)
        self._sums = np.zeros(NUM_ACTIONS, dtype=np.float64)
        self._counts = np.zeros(NUM_ACTIONS, dtype=np.int64)
        self._setup_rng = np.zeros(1, dtype=np.uint64)
        self._work = None  # the scripted player's buffers, for the set-up phases
        self.searched = 0  # decisions searched since the last reset
        self.last = None  # (candidates, mean values, counts, default) of the last searched decision
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self._seed = int(seed) & _MASK64
        self.searched = 0

    def _next_seed(self) -> np.uint64:
        """The seed of the next decision's search (the agent's splitmix64 stream)."""
        state, z = splitmix64(np.uint64(self._seed))
        self._seed = int(state)
        return np.uint64(z)

    def act(self, info_state, mask, side) -> int:
        o = np.asarray(info_state)
        if o.dtype != STATE_DTYPE:
            raise TypeError("info_state must be a state record (Game.observation(side))")
        if o.ndim == 0:  # a record (np.void)
            o = o.reshape(1)
        if o.ndim == 1:
            o = o[0]
        m = np.ascontiguousarray(mask, dtype=np.bool_)
        if m.shape != (NUM_ACTIONS,):
            raise ValueError(f"mask must have shape ({NUM_ACTIONS},), got {m.shape}")
        legal = np.flatnonzero(m)
        if legal.size == 0:
            raise ValueError("no legal action to choose from")
        seed = self._next_seed()
        if legal.size == 1:
            return int(legal[0])
        if is_setup_phase(int(o["phase"])):
            return self._setup_act(o, m, int(side), seed)
        a, n, default = search_decide(
            o,
            m,
            int(side),
            np.int64(self.simulations),
            np.int64(self.horizon),
            np.int64(self.policy),
            np.int64(self.max_candidates),
            float(self.margin),
            seed,
            PRIOR_FORCES,
            SQUAD_PROBS,
            float(DMG_P0),
            EVAL_WEIGHTS,
            np.int64(self.max_rollout_actions),
            self._cands,
            self._sums,
            self._counts,
        )
        self.searched += 1
        cnt = self._counts[:n]
        self.last = (
            self._cands[:n].copy(),
            np.where(cnt > 0, self._sums[:n] / np.maximum(cnt, 1), np.nan),
            cnt.copy(),
            int(default),
        )
        a = int(a)
        if not m[a]:  # cannot happen: every candidate comes from the mask
            raise RuntimeError(f"search chose the illegal action {a}")
        return a

    def _setup_act(self, o, m, side, seed) -> int:
        """3.2, 3.3, D21: the scripted deployment plan (not searched)."""
        from hotspot.agents.scripted import make_work, scripted_decide

        if self._work is None:
            self._work = make_work()
        self._setup_rng[0] = seed
        a = int(scripted_decide(o, m, side, self._setup_rng, 0, *self._work))
        if a < 0 or not m[a]:  # cannot happen: the plan returns a legal action
            raise RuntimeError(f"the set-up plan chose the illegal action {a}")
        return a

    def __repr__(self) -> str:
        return (
            f"MCTSAgent(simulations={self.simulations}, horizon={self.horizon}, "
            f"rollout={self.rollout!r}, max_candidates={self.max_candidates})"
        )


#: the parameters an ``mcts`` spec may set (``mcts(simulations=16)``)
SPEC_PARAMS = {
    "simulations": Param("int", 8, 1, 100_000, doc="determinizations a candidate"),
    "horizon": Param("int", 0, -1, 1000, doc="turns after the current one (-1: to the end)"),
    "rollout": Param("choice", "scripted", choices=("scripted", "random")),
    "max_candidates": Param("int", 8, 1, 1000),
    "margin": Param("float", 0.05, 0.0, 2.0),
}
