"""Portfolio search over counters: whole-phase plans built from a portfolio
of per-counter intents (Churchill and Buro's Portfolio Greedy Search, 2013),
compiled, honest about hidden information (D20).

A turn of Hot Spot is dozens of atomic decisions (select a counter, step it a
hex, end its move, ...) whose worth shows only when the whole phase and the
enemy's reply have been played.  So the searcher plans a *phase* at a time:

1. **Intents.**  Each counter that may act in the phase gets one intent
   (``INTENT_NAMES``), written on the core's and the scripted player's
   functions:

   ``script``   what the scripted player (``hotspot.agents.scripted``) does
                with it: its roles, its attack planner, its paths;
   ``hold``     it does not move this phase (selected, then its move ended);
   ``advance``  units: step by step towards the Central Crustal (15.5),
                never into molten rock (8.2); crustals and platforms: the
                scripted player's path towards it (``crustal_to_central``);
   ``attack``   units: towards the nearest hex with enemy counters seen,
                into it (12.1: combat where the stacks meet);
   ``ram``      Ziegler one-hex crustals without units: at a hex next to a
                loaded platform (7.1, 14.3; the scripted player's ``z_ram``).

   A *plan* gives every counter an intent; the all-``script`` plan is the
   scripted player, so the search starts from it and keeps it unless another
   plan values higher on the same games.
2. **Valuing a plan.**  From ``determinizations`` samples of the side's
   information state (``beliefs.determinize``: hidden stacks, damage and
   dice drawn, nothing read from the true state), the plan plays the rest of
   the phase, the scripted player both sides' later phases up to the end of
   the enemy's reply (the Ziegler's plan is valued after the Technocrat's
   phases E-H of the same turn, the Technocrat's after the Ziegler's phases
   A-D of the next) and ``horizon`` whole turns more, and
   ``beliefs.evaluate`` values the position (+1/-1 for a finished game).
   A longer horizon sees more of a plan's consequences (a fortress left to
   chase a stack, engineers exposed) at the cost of longer play-outs.  Every plan meets the same determinizations, dice and
   rollout seeds (common random numbers), so plans are compared on equal
   games.
3. **Greedy improvement.**  Hill-climbing over single-counter changes in
   random order (``order=learned``: the changes whose (side, phase kind,
   counter kind, intent) the search kept most often first, the intent
   prior of ``training/train_generations.py intents``; ties in random
   order): a change is kept when the plan's value rises by more than
   ``margin``; passes repeat until one finds nothing or the budget is spent
   (``plans`` valuations, or ``think_ms`` milliseconds).

The plan is made at the side's first decision of each phase with a choice
to make (A, B, D for the Ziegler; E, F for the Technocrat) and followed by
:func:`plan_decide` for the rest of the phase: counters with an active
intent (advance, attack, ram) move first, then the scripted player moves the
others, a ``hold`` counter being ended as soon as it is selected.  Combat
order (C, G), neutralization (H, 15.4) and the owner's losses (D22) are the
scripted player's.  The set-up (3.2, 3.3, D21) is the set-up search of the
ISMCTS agent (``setup_search``), which compares whole scripted deployments
by play-outs.
"""

from __future__ import annotations

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import (
    A_END_PIECE,
    A_MANEUVER,
    A_SELECT_PIECE,
    A_SELECT_UNIT,
    NUM_ACTIONS,
    action_error,
    apply_action,
    current_player,
    legal_action_mask,
)
from hotspot.core.dice import splitmix64
from hotspot.core.errors import OK
from hotspot.core.events import EV_WIDTH
from hotspot.core.hexgrid import NEIGHBOUR, hex_distance
from hotspot.core.observation import observe
from hotspot.core.rules_data import CENTRAL, NO_PIECE, ONE_HEX, PHASE_CONTROL, PHASE_OVER, PHASE_T_CRUSTAL, ZIEGLER
from hotspot.core.sequence import is_crustal_phase, is_movement_phase
from hotspot.core.setup import is_setup_phase
from hotspot.core.state import MAX_PIECES, MAX_UNITS, STATE_DTYPE
from hotspot.features.position import NUM_POSITION_FEATURES

from .base import POLICY_SCRIPTED, Agent, agent_generator, checked_act_arguments
from .beliefs import DMG_P0, PRIOR_FORCES, SQUAD_PROBS, determinize, draw, draw_below
from .clock import now_seconds
from .params import ParamTable
from .plan_value import NO_NETS, load_plan_value, plan_value, shipped_plan_value
from .rollouts import new_rollout_buffers, rollout_action
from .scripted import scripted_decide
from .scripted.common import C_ENCNT, DCEN, NC, cell_info
from .scripted.crustals import z_ram
from .scripted.paths import crustal_to_central
from .setup_search import DEPLOY_PARAMS, searched_setup_decide
from .specs import Param
from .value_net import WEIGHTS_DIR

# ------------------------------------------------------------------ intents

I_SCRIPT = 0
I_HOLD = 1
I_ADVANCE = 2
I_ATTACK = 3
I_RAM = 4
INTENT_NAMES = ("script", "hold", "advance", "attack", "ram")

#: a plan: one intent for each unit (0 .. MAX_UNITS-1), then each piece
PIECE0 = MAX_UNITS
PLAN_SIZE = MAX_UNITS + MAX_PIECES

# ------------------------------------------------------------------ parameters

#: the plan valuations a search given ``think_ms`` and no ``plans`` may make
THINK_PLANS = 100_000

#: the ``portfolio`` agent's parameters, declared once (``hotspot.agents.params``):
#: the vector of :func:`portfolio_search` (its slots in this order), the spec
#: parameters, the constructor's checks and the docs all come from here
PARAMS = ParamTable(
    "portfolio",
    {
        "plans": Param("int", 24, 1, THINK_PLANS, doc="plan valuations a phase (the all-script plan included)"),
        "determinizations": Param("int", 4, 1, 256, doc="determinizations each plan is played on"),
        "think_ms": Param("int", 0, 0, 600_000, doc="time budget of a phase's search (0: none; plans still caps it)"),
        "margin": Param("float", 0.002, 0.0, 2.0, doc="a change is kept when the plan's value rises by more than this"),
        "dmg_p0": Param("float", DMG_P0, 0.0, 1.0, doc="determinization: P(hidden damage is 0)", spec=False),
        **DEPLOY_PARAMS,
        "max_actions": Param("int", 5000, 0, None, doc="at most this many actions in a play-out", spec=False),
        "horizon": Param("int", 0, 0, 50, doc="whole turns after the enemy's reply before valuing"),
        "value": Param(
            "choice",
            "evaluate",
            doc="how a play-out's last position is valued: the hand-written evaluation or the learned plan value",
            choices=("evaluate", "learned"),
            vector=False,
        ),
        "order": Param(
            "choice",
            "random",
            doc="the order the greedy changes are tried in: random, or the learned intent prior's (most often kept first)",
            choices=("random", "learned"),
            vector=False,
        ),
        "value_net": Param(
            "path",
            "",
            doc="a plan value file (hotspot.agents.plan_value; Python: also a 2 x n array); implies learned",
            vector=False,
        ),
    },
)

#: indices into the float64 parameter vector of :func:`portfolio_search` (``PARAMS``)
P_PLANS = PARAMS.index("plans")
P_DETERMINIZATIONS = PARAMS.index("determinizations")
P_THINK_MS = PARAMS.index("think_ms")
P_MARGIN = PARAMS.index("margin")
P_DMG_P0 = PARAMS.index("dmg_p0")
P_DEPLOY_CANDIDATES = PARAMS.index("deploy_candidates")
P_DEPLOY_GAMES = PARAMS.index("deploy_games")
P_DEPLOY_TURNS = PARAMS.index("deploy_turns")
P_MAX_ACTIONS = PARAMS.index("max_actions")
P_HORIZON = PARAMS.index("horizon")
NUM_PARAMS = PARAMS.size

DEFAULT_PARAMS = PARAMS.defaults()

#: the parameters a ``portfolio`` spec may set (``portfolio(plans=64,think_ms=500)``)
SPEC_PARAMS = PARAMS.spec_params()


@jit
def planned_phase(p):
    """Phases whose moves are planned: the crustal phases (A, E; 6.0) and the
    movement phases (B, D, F; 8.0, 13.3); the others are scripted."""
    return is_crustal_phase(p) or is_movement_phase(p)


# ------------------------------------------------------------------ following a plan


@jit
def _nearest_enemy(wc, x):
    """Hexes from cell ``x`` to the nearest hex with enemy counters seen
    (``wc``: ``cell_info``); 1 << 30 if none."""
    near = 1 << 30
    for c in range(NC):
        if wc[C_ENCNT, c] > 0:
            dist = hex_distance(x, c)
            if dist < near:
                near = dist
    return near


@jit
def _unit_step(o, mask, u, intent, wc):
    """The step of selected unit u under ``intent`` (advance, attack), or
    END_PIECE when it has none that brings it closer."""
    src = o["unit_cell"][u]
    best = -1
    if src >= 0:
        if intent == I_ADVANCE:
            score = DCEN[src]
            for d in range(6):
                y = NEIGHBOUR[src, d]
                if y >= 0 and mask[A_MANEUVER + d] and o["board"][y] >= 0 and DCEN[y] < score:
                    score = DCEN[y]
                    best = A_MANEUVER + d
        elif intent == I_ATTACK and wc[C_ENCNT, src] == 0:
            score = _nearest_enemy(wc, src)
            for d in range(6):
                y = NEIGHBOUR[src, d]
                if y < 0 or not mask[A_MANEUVER + d] or o["board"][y] < 0:
                    continue
                near = _nearest_enemy(wc, y)
                if near < score:
                    score = near
                    best = A_MANEUVER + d
    if best >= 0:
        return best
    return A_END_PIECE if mask[A_END_PIECE] else -1


@jit
def _piece_step(o, mask, k, intent, wc, mo):
    """The maneuver of selected piece k under ``intent`` (advance, ram), or END_PIECE."""
    a = -1
    if intent == I_ADVANCE:
        a = crustal_to_central(o, mask, wc, mo, k)
    elif intent == I_RAM:
        a = z_ram(o, mask, wc, k)
    if a >= 0 and mask[a]:
        return a
    return A_END_PIECE if mask[A_END_PIECE] else -1


@jit
def plan_decide(o, mask, side, plan, rng, slot, wc, wu, bd, bp, bk, mo):
    """The action of ``side`` following ``plan`` on its information state
    ``o`` (legal ``mask``): a selected counter with an intent other than
    ``script`` follows it; with nothing selected, a counter with an active
    intent (advance, attack, ram) is selected first; else the scripted
    player decides (and a ``hold`` counter it selects is ended at once)."""
    p = o["phase"]
    if not planned_phase(p) or o["loss_side"] >= 0 or is_setup_phase(p):
        return scripted_decide(o, mask, side, rng, slot, wc, wu, bd, bp, bk, mo)
    crustal = is_crustal_phase(p)
    sel = o["sel_piece"] if crustal else o["sel_unit"]
    if sel >= 0:
        intent = plan[PIECE0 + sel] if crustal else plan[sel]
        if intent != I_SCRIPT:
            if intent == I_HOLD:
                if mask[A_END_PIECE]:
                    return A_END_PIECE
            else:
                cell_info(o, side, wc)
                a = _piece_step(o, mask, sel, intent, wc, mo) if crustal else _unit_step(o, mask, sel, intent, wc)
                if a >= 0 and mask[a]:
                    return a
    else:
        if crustal:
            for k in range(MAX_PIECES):
                it = plan[PIECE0 + k]
                if (it == I_ADVANCE or it == I_RAM) and mask[A_SELECT_PIECE + k]:
                    return A_SELECT_PIECE + k
        else:
            for u in range(MAX_UNITS):
                it = plan[u]
                if (it == I_ADVANCE or it == I_ATTACK) and mask[A_SELECT_UNIT + u]:
                    return A_SELECT_UNIT + u
    return scripted_decide(o, mask, side, rng, slot, wc, wu, bd, bp, bk, mo)


# ------------------------------------------------------------------ the search


@jit
def _reply_done(s, side, start_turn):
    """Has the play-out reached the end of the enemy's reply to ``side``'s
    phase (and ``start_turn``'s later turns: pass ``start_turn + horizon``)?"""
    if s["turn"] <= start_turn:
        return False
    if side == ZIEGLER:
        return True  # the Technocrat's phases E-H of the same turn are over
    p = s["phase"]
    return p >= PHASE_T_CRUSTAL and p <= PHASE_CONTROL  # the Ziegler's A-D of the next turn are over


@jit
def value_plan(dets, prngs, side, plan, start_turn, start_phase, horizon, max_actions, scratch, nets):
    """The mean value for ``side`` of ``plan`` over the determinizations
    ``dets`` (each played with its own rollout seeds ``prngs[k]``): the plan
    for the rest of phase ``start_phase``, the scripted player for the rest of
    the enemy's reply and ``horizon`` whole turns more; the position then is
    valued by ``plan_value`` (``nets`` empty: ``beliefs.evaluate``).
    ``scratch``: the search's buffers ``(sw, mask, obs, work, ev, ev_n, feat)``."""
    sw, mask, obs, work, ev, ev_n, feat = scratch
    wc, wu, bd, bp, bk, mo = work
    prng = np.zeros(2, dtype=np.uint64)
    total = 0.0
    for k in range(dets.shape[0]):
        sw[0] = dets[k]
        s = sw[0]
        prng[0] = prngs[k, 0]
        prng[1] = prngs[k, 1]
        n = 0
        while s["phase"] != PHASE_OVER and n < max_actions and not _reply_done(s, side, start_turn + horizon):
            actor = current_player(s)
            if actor == side and s["turn"] == start_turn and s["phase"] == start_phase:
                legal_action_mask(s, mask)
                observe(s, side, True, obs[0])
                a = plan_decide(obs[0], mask, side, plan, prng, side, wc, wu, bd, bp, bk, mo)
            else:
                a = rollout_action(s, mask, prng, POLICY_SCRIPTED, obs, work)
            if a < 0 or a >= NUM_ACTIONS or action_error(s, a) != OK:
                break
            apply_action(s, a, ev, ev_n)
            n += 1
        total += plan_value(s, side, nets, feat)
    return total / dets.shape[0]


@jit
def _candidates(o, given_mask, side, out_idx, out_kind):
    """The counters that may act in this phase (plan indices) and their kind
    (0 unit, 1 one-hex crustal, 2 other piece); returns how many."""
    p = o["phase"]
    n = 0
    if is_crustal_phase(p):
        for k in range(MAX_PIECES):
            if given_mask[A_SELECT_PIECE + k] or o["sel_piece"] == k:
                kind = o["piece_kind"][k]
                if kind == NO_PIECE or kind == CENTRAL:
                    continue
                out_idx[n] = PIECE0 + k
                out_kind[n] = 1 if kind == ONE_HEX else 2
                n += 1
    else:
        for u in range(MAX_UNITS):
            if given_mask[A_SELECT_UNIT + u] or o["sel_unit"] == u:
                out_idx[n] = u
                out_kind[n] = 0
                n += 1
    return n


#: the intent prior: P(a change is kept) by (side, phase kind: 0 crustal A/E,
#: 1 movement B/D/F, counter kind: 0 unit, 1 one-hex crustal, 2 other piece, intent)
PRIOR_SHAPE = (2, 2, 3, len(INTENT_NAMES))
#: ... and the counts it is made of: the same, then (tried, kept)
STATS_SHAPE = PRIOR_SHAPE + (2,)
NO_PRIOR = np.zeros((0,) + PRIOR_SHAPE[1:], dtype=np.float64)
NO_STATS = np.zeros((0,) + STATS_SHAPE[1:], dtype=np.float64)


@jit
def _order_by_prior(moves, n_moves, prior, side, pk, score):
    """Sort the first ``n_moves`` rows of ``moves`` by the prior of their
    (counter kind, intent), highest first; stable (insertion sort)."""
    for i in range(n_moves):
        score[i] = prior[side, pk, moves[i, 2], moves[i, 1]]
    for i in range(1, n_moves):
        key = score[i]
        m0, m1, m2 = moves[i, 0], moves[i, 1], moves[i, 2]
        j = i - 1
        while j >= 0 and score[j] < key:
            score[j + 1] = score[j]
            moves[j + 1, 0] = moves[j, 0]
            moves[j + 1, 1] = moves[j, 1]
            moves[j + 1, 2] = moves[j, 2]
            j -= 1
        score[j + 1] = key
        moves[j + 1, 0] = m0
        moves[j + 1, 1] = m1
        moves[j + 1, 2] = m2


@jit
def portfolio_search(o, given_mask, side, params, seed, plan, nets, prior, stats):
    """Fill ``plan`` (int8 of PLAN_SIZE) with the best plan found for ``side``'s
    current phase on its information state ``o``, valuing positions with the
    networks ``nets`` (``plan_value``; empty: the hand-written evaluation)
    and trying the changes in the order of the intent prior ``prior``
    (:data:`PRIOR_SHAPE`; empty: a random order); ``stats``
    (:data:`STATS_SHAPE`, empty: none) counts the changes tried and kept.
    Returns the number of plans valued (0: nothing to plan)."""
    for i in range(PLAN_SIZE):
        plan[i] = I_SCRIPT
    budget = int(params[P_PLANS])
    n_det = max(1, int(params[P_DETERMINIZATIONS]))
    think_ms = params[P_THINK_MS]
    margin = params[P_MARGIN]
    max_actions = int(params[P_MAX_ACTIONS])
    t_end = now_seconds() + think_ms / 1000.0 if think_ms > 0.0 else 0.0
    cand = np.zeros(PLAN_SIZE, dtype=np.int64)
    kinds = np.zeros(PLAN_SIZE, dtype=np.int64)
    n_cand = _candidates(o, given_mask, side, cand, kinds)
    if n_cand == 0 or budget <= 1:
        return 0
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    dets = np.empty(n_det, dtype=STATE_DTYPE)
    prngs = np.zeros((n_det, 2), dtype=np.uint64)
    for k in range(n_det):
        determinize(o, side, dets[k], rng, PRIOR_FORCES, SQUAD_PROBS, params[P_DMG_P0])
        prngs[k, 0] = draw(rng)
        prngs[k, 1] = draw(rng)
    sw = np.empty(1, dtype=STATE_DTYPE)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    obs, work = new_rollout_buffers()
    start_turn = int(o["turn"])
    start_phase = int(o["phase"])
    horizon = int(params[P_HORIZON])
    feat = np.zeros(NUM_POSITION_FEATURES, dtype=np.float64)
    scratch = (sw, mask, obs, work, ev, ev_n, feat)
    best = value_plan(dets, prngs, side, plan, start_turn, start_phase, horizon, max_actions, scratch, nets)
    valued = 1
    # the moves: (candidate, intent) pairs
    moves = np.zeros((n_cand * 3, 3), dtype=np.int64)  # (plan index, intent, counter kind)
    n_moves = 0
    for j in range(n_cand):
        kind = kinds[j]
        for it in (I_HOLD, I_ADVANCE, I_ATTACK, I_RAM):
            if (it == I_ATTACK and kind != 0) or (it == I_RAM and (kind != 1 or side != ZIEGLER)):
                continue
            moves[n_moves, 0] = cand[j]
            moves[n_moves, 1] = it
            moves[n_moves, 2] = kind
            n_moves += 1
    pk = 0 if is_crustal_phase(start_phase) else 1
    score = np.zeros(n_moves, dtype=np.float64)
    improved = True
    while improved and valued < budget:
        improved = False
        for i in range(n_moves - 1, 0, -1):  # a fresh random order each pass
            j = draw_below(rng, i + 1)
            for c in range(3):
                tmp = moves[i, c]
                moves[i, c] = moves[j, c]
                moves[j, c] = tmp
        if prior.shape[0] > 0:  # the intent prior first: a stable sort, so that ties keep the random order
            _order_by_prior(moves, n_moves, prior, side, pk, score)
        for i in range(n_moves):
            if valued >= budget or (think_ms > 0.0 and now_seconds() >= t_end):
                break
            x = moves[i, 0]
            it = moves[i, 1]
            if plan[x] == it:
                continue
            old = plan[x]
            plan[x] = it
            v = value_plan(dets, prngs, side, plan, start_turn, start_phase, horizon, max_actions, scratch, nets)
            valued += 1
            kept = v > best + margin
            if stats.shape[0] > 0:
                stats[side, pk, moves[i, 2], it, 0] += 1.0
                if kept:
                    stats[side, pk, moves[i, 2], it, 1] += 1.0
            if kept:
                best = v
                improved = True
            else:
                plan[x] = old
        if think_ms > 0.0 and now_seconds() >= t_end:
            break
    return valued


@jit
def portfolio_decide(o, mask, side, rng, slot, params, plan, key, work, nets, prior, stats):
    """The portfolio agent's action on information state ``o`` (legal
    ``mask``); ``plan``/``key``: the current plan and the (turn, phase, side)
    it was made for, kept between calls; ``rng[slot]``: the agent's generator;
    ``nets``: the learned value (``plan_value``; empty: none); ``prior``,
    ``stats``: :func:`portfolio_search`'s."""
    p = o["phase"]
    wc, wu, bd, bp, bk, mo = work
    if is_setup_phase(p):
        return searched_setup_decide(
            o,
            mask,
            side,
            rng,
            slot,
            int(params[P_DEPLOY_CANDIDATES]),
            int(params[P_DEPLOY_GAMES]),
            int(params[P_DEPLOY_TURNS]),
            POLICY_SCRIPTED,
            params[P_DMG_P0],
        )
    n_legal = 0
    only = -1
    for a in range(NUM_ACTIONS):
        if mask[a]:
            n_legal += 1
            only = a
    if n_legal == 1:
        return only  # a forced decision costs nothing
    if planned_phase(p) and o["loss_side"] < 0:
        if key[0] != o["turn"] or key[1] != p or key[2] != side:
            rng[slot], seed = splitmix64(rng[slot])
            portfolio_search(o, mask, side, params, seed, plan, nets, prior, stats)
            key[0] = o["turn"]
            key[1] = p
            key[2] = side
        return plan_decide(o, mask, side, plan, rng, slot, wc, wu, bd, bp, bk, mo)
    return scripted_decide(o, mask, side, rng, slot, wc, wu, bd, bp, bk, mo)


# ------------------------------------------------------------------ the agent


class PortfolioAgent(Agent):
    """Portfolio search over counters (see the module docstring).

    The parameters are :data:`PARAMS`'s (listed below; ``max_actions`` and
    ``dmg_p0`` are fixed), and ``seed``, the agent's own randomness
    (determinizations, order of the changes tried): equal seeds, equal play.
    ``think_ms`` stops the search at ``plans`` or when the time is spent
    (given ``think_ms`` and no ``plans``, the cap is :data:`THINK_PLANS`); a
    time budget makes play depend on the machine's speed: such games are not
    reproducible from their seed.  ``horizon`` 0: valued right after the
    enemy's reply.  The set-up search is ``setup_search``'s, as for
    :class:`~hotspot.agents.ismcts.ISMCTSAgent`.

    Parameters (``PARAMS``):
    """

    name = "portfolio"

    def __init__(
        self,
        plans: int | None = None,
        determinizations: int | None = None,
        think_ms: int | None = None,
        margin: float | None = None,
        deploy_candidates: int | None = None,
        deploy_games: int | None = None,
        deploy_turns: int | None = None,
        horizon: int | None = None,
        value: str | None = None,
        order: str | None = None,
        value_net=None,
        seed: int | None = None,
    ):
        self.order = PARAMS.check("order", order) if order is not None else "random"
        self.prior = shipped_intent_prior() if self.order == "learned" else NO_PRIOR
        #: the changes the searches tried and kept, by STATS_SHAPE (what an intent prior is made of)
        self.stats = np.zeros(STATS_SHAPE, dtype=np.float64)
        if value is not None:
            value = PARAMS.check("value", value)
        if value_net is not None and not (isinstance(value_net, str) and value_net == ""):
            self.nets = (
                load_plan_value(value_net)
                if not isinstance(value_net, np.ndarray)
                else np.ascontiguousarray(value_net, dtype=np.float64)
            )
            if self.nets.ndim != 2 or self.nets.shape[0] != 2:
                raise ValueError(f"portfolio: value_net must be 2 networks (2 x n), got shape {self.nets.shape}")
            value = "learned"
        elif value == "learned":
            self.nets = shipped_plan_value()
        else:
            self.nets = NO_NETS
        self.value = value or "evaluate"
        if think_ms is not None and plans is None:
            plans = THINK_PLANS
        params = PARAMS.vector(
            plans=plans,
            determinizations=determinizations,
            think_ms=think_ms,
            margin=margin,
            deploy_candidates=deploy_candidates,
            deploy_games=deploy_games,
            deploy_turns=deploy_turns,
            horizon=horizon,
        )
        self.params = params
        self.plan = np.zeros(PLAN_SIZE, dtype=np.int8)
        self._key = np.full(3, -1, dtype=np.int64)
        self._work = None
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = agent_generator(seed)
        self._key[:] = -1

    def act(self, info_state, mask, side) -> int:
        o, m = checked_act_arguments(info_state, mask, side)
        if self._work is None:
            _, self._work = _buffers()
        a = int(
            portfolio_decide(
                o[0],
                m,
                int(side),
                self._rng,
                0,
                self.params,
                self.plan,
                self._key,
                self._work,
                self.nets,
                self.prior,
                self.stats,
            )
        )
        if a < 0 or not m[a]:  # cannot happen: every action comes from the mask
            raise RuntimeError(f"the portfolio search chose the illegal action {a}")
        return a

    def plan_intents(self) -> dict[int, str]:
        """The current plan's intents other than ``script``, by plan index
        (units 0..MAX_UNITS-1, then pieces from :data:`PIECE0`)."""
        return {int(i): INTENT_NAMES[int(v)] for i, v in enumerate(self.plan) if v != I_SCRIPT}

    def __repr__(self) -> str:
        return PARAMS.repr("PortfolioAgent", self.params, value=self.value, order=self.order)


if PortfolioAgent.__doc__:  # (None under python -OO)
    PortfolioAgent.__doc__ = PortfolioAgent.__doc__.rstrip() + "\n" + PARAMS.doc("        ") + "\n"


@jit
def _buffers():
    return new_rollout_buffers()


# ------------------------------------------------------------------ the intent prior

INTENT_PRIOR_FILE = WEIGHTS_DIR / "intent_prior.npz"


def intent_prior(stats: np.ndarray, pseudo: float = 1.0) -> np.ndarray:
    """The prior of counts ``stats`` (:data:`STATS_SHAPE`): each (side, phase
    kind, counter kind, intent)'s share of changes kept, with ``pseudo``
    changes of the overall share added (a cell never tried gets the overall
    share)."""
    stats = np.asarray(stats, dtype=np.float64)
    tried, kept = stats[..., 0], stats[..., 1]
    overall = kept.sum() / max(tried.sum(), 1.0)
    return (kept + pseudo * overall) / (tried + pseudo)


def save_intent_prior(path, stats: np.ndarray) -> None:
    stats = np.asarray(stats, dtype=np.float64)
    np.savez(path, prior=intent_prior(stats), stats=stats, intents=np.array(INTENT_NAMES))


def load_intent_prior(path) -> np.ndarray:
    """The prior of a file written by :func:`save_intent_prior`, checked (one-line ``ValueError``)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            prior = np.ascontiguousarray(data["prior"], dtype=np.float64) if "prior" in data else None
    except Exception as exc:  # noqa: BLE001  (unreadable, not an .npz: one line)
        raise ValueError(f"{path}: cannot read the intent prior ({type(exc).__name__})") from None
    if prior is None or prior.shape != PRIOR_SHAPE or not np.all(np.isfinite(prior)):
        raise ValueError(f"{path}: not an intent prior of shape {PRIOR_SHAPE}")
    return prior


_SHIPPED_PRIOR: list = []


def shipped_intent_prior() -> np.ndarray:
    if not _SHIPPED_PRIOR:
        _SHIPPED_PRIOR.append(load_intent_prior(INTENT_PRIOR_FILE))
    return _SHIPPED_PRIOR[0]
