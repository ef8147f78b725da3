"""Scripted players for both sides (compiled: ``POLICY_SCRIPTED``).

Hand-written heuristics that play the evident plans of the game, honest about
hidden information (D20): every decision is made from the side's information
state (``observation.observe(s, side, fog=True)``) and the legal-action mask,
never from the state itself.  The only randomness is the player's own
generator ``rng[slot]`` (``core.dice.splitmix64``): the seeded variety
of the set-up plan, and in play only when the heuristics find nothing to do
and no END_PHASE/END_PIECE is legal.  Of an enemy stack seen only by its
count and top counter (9.5) a hidden counter is reckoned at two factors, an
infantry counter of unknown size at two squads.
Crustals other than one-hex ones plan up to three maneuvers ahead (one a
turn, 6.4-6.6); one-hex crustals and platforms path-find around zones of
contact.

Technocrat (phases E-H)
    E  Attack platforms carrying units sail to a docking hex: a molten hex next
       to the Central Crustal (best), or next to a crustal near it (a Ziegler
       crustal without Ziegler units scores high: engineers landed there can
       take control, 15.2); a platform carrying engineers prefers a dock next
       to a hex without enemy units (12.2: engineers cannot enter one) and on
       its last turn accepts no other.  Paths avoid every zone of contact on
       the way (entering one is a collision that ends the move, 7.3); the dock
       itself is in the zone of contact of the crustal it serves, so docking
       collides once (7.1, accepted).  Docks that cannot be reached before the
       platforms break up (14.5) are not chosen.  Controlled crustals carrying
       units move towards the Central Crustal, never off the map.
    F  Infantry in one hex combines into three-squad counters (10.0; stacking
       limits count counters, 9.1).  Engineers pick the best hex they can
       reach (the Central Crustal, a crustal they can take or hold, their
       platform before its last turn) and never stand without a unit with a
       defense factor (12.3, 13.3): a guard (the unit with the least attack)
       moves first and stays.  Every other
       unit takes part in attacks planned greedily target by target (Central
       Crustal hexes first), aiming at 4:1 (D14) and accepting 1:1 (1:2 on the
       Central Crustal: attacking costs the attacker nothing but a retreat,
       12.5).  A unit in a contested hex stays (an overrunning crawler that
       left would face a Close Infantry Assault, 11.2).  On the last platform
       turn everything leaves the platforms.
    G  Combats are resolved in unit order (12.7: any order).
    H  Neutralization (15.4) only of a controlled crustal touching the Central
       Crustal (it can then never revert and needs no more movement).

Ziegler (phases A-D)
    A  A crustal carrying Technocrat units and too few Ziegler defenders is
       driven off the map (6.9, 14.4: everything on it is lost); a crustal
       carrying Ziegler units sails to the Central Crustal so that they can
       join its defence (``GATHER``); optionally (``RAM``, off: it measured
       no better) crustals without units ram loaded platforms (7.1, 14.3).
    B  The Central Crustal is the whole game (15.5): its units gather in one
       fortress hex of up to nine counters (9.1: the Technocrat can then bring
       only three counters against it) and infantry on it splits up to the
       limit (``SPLIT``, 10.0: more counters, the same squads); threatened
       crustals keep a unit (15.2: one Ziegler combat unit on a crustal
       prevents its capture); free units attack Technocrat stacks at 1:1 or
       better (engineer-only stacks at any odds), and the rest move towards
       the Central Crustal.  Never a step into molten rock (8.2).
    C  Combats in unit order.
    D  Hovercraft strike stacks of engineers only (13.3, D17).

Set-up (3.2, 3.3, D21; phases Z and T)
    The deployment plan of ``hotspot.agents.scripted.setup`` (the Ziegler
    screens the Central Crustal with crustals at 2-4 hexes and holds it with
    strong stacks, hovercraft in reserve; the Technocrat lands near the
    shortest approaches and spreads its engineers over escorted platforms),
    with seeded variety drawn from ``rng[slot]``.

``scripted_action(s, mask, rng, slot)`` is the compiled entry point (fills
``mask`` from ``s`` and acts for the player to move); ``scripted_decide`` is
the pure decision on an information state and a mask, shared by the compiled
policy and :class:`ScriptedAgent`.

The package, by phase (both sides share one function wherever their plans
agree: the attack planner, the mover of free units, the crustal paths):

    common     scratch buffers, what the side sees hex by hex, select-and-move actions
    paths      unit move trees, one-hex piece paths, the maneuver look-ahead (A, E)
    crustals   phases A (Ziegler) and E (Technocrat)
    movement   phases B, D (Ziegler) and F (Technocrat)
    combat     the attack planner (B, F), combat order (C, G), owner's losses (D22)
    control    phase H (Technocrat)
    setup      the deployment plan (phases Z and T)

The rules it plays by are the core's own functions, safe on information
states (``units.side_seen_by``, ``attack_of``, ``defense_of``,
``type_factor``; ``stacking.room_left``, ``side_limit``;
``collisions.in_zone_of_contact``; ``crustal_movement.maneuver_geometry``;
``hexgrid.direction_between``, ``hex_distance``).
"""

from __future__ import annotations

import numpy as np

from hotspot.core._jit import borrowed, jit
from hotspot.core.actions import A_END_PHASE, A_END_PIECE, NUM_ACTIONS, current_player, legal_action_mask
from hotspot.core.observation import keep_alive, observe
from hotspot.core.rollout import random_choice
from hotspot.core.rules_data import (
    PHASE_CONTROL,
    PHASE_OVER,
    PHASE_T_COMBAT,
    PHASE_T_CRUSTAL,
    PHASE_T_MOVE,
    PHASE_Z_COMBAT,
    PHASE_Z_CRUSTAL,
    PHASE_Z_MOVE,
    PHASE_Z_SECOND,
    ZIEGLER,
)
from hotspot.core.setup import is_setup_phase
from hotspot.core.state import STATE_DTYPE

from ..base import POLICY_SCRIPTED, Agent
from .combat import combat_choice, loss_choice
from .common import NSLOT, cell_info, make_work, new_work, no_work
from .control import t_control
from .crustals import t_crustal, z_crustal
from .movement import t_move, z_move, z_second
from .setup import setup_decide

__all__ = [
    "ScriptedAgent",
    "make_work",
    "new_work",
    "no_work",
    "scripted_action",
    "scripted_action_buf",
    "scripted_decide",
    "setup_decide",
]


@jit
def scripted_decide(o, mask, side, rng, slot, wc, wu, bd, bp, bk, mo):
    """The scripted action of ``side`` on its information state ``o`` with the
    legal actions ``mask``.  Reads nothing but ``o`` and ``mask``; ``rng[slot]``
    is used by the set-up plan (its seeded variety, ``setup``) and
    otherwise only if the heuristics find nothing legal to do."""
    p = o["phase"]
    if p == PHASE_OVER:
        return -1
    # views without reference counts: the caller holds the buffers for the call
    mask = borrowed(mask)
    wc = borrowed(wc)
    wu = borrowed(wu)
    bd = borrowed(bd)
    bp = borrowed(bp)
    bk = borrowed(bk)
    mo = borrowed(mo)
    if is_setup_phase(p):  # 3.2, 3.3, D21: the deployment plan
        return setup_decide(o, mask, side, rng, slot)
    if o["loss_side"] >= 0:  # D22 losses="owner": this side names the counter
        return loss_choice(o, mask)
    bk[NSLOT, 0] = 0
    cell_info(o, side, wc)
    turn = int(o["turn"])
    last = int(o["rules"]["platform_turns"])
    a = -1
    if side == ZIEGLER:
        if p == PHASE_Z_CRUSTAL:
            a = z_crustal(o, mask, wc, mo)
        elif p == PHASE_Z_MOVE:
            a = z_move(o, mask, wc, wu, bd, bp, bk)
        elif p == PHASE_Z_COMBAT:
            a = combat_choice(mask)
        elif p == PHASE_Z_SECOND:
            a = z_second(o, mask, wc, bd, bp, bk)
    else:
        if p == PHASE_T_CRUSTAL:
            a = t_crustal(o, mask, wc, mo, turn, last)
        elif p == PHASE_T_MOVE:
            a = t_move(o, mask, wc, wu, bd, bp, bk, turn, last)
        elif p == PHASE_T_COMBAT:
            a = combat_choice(mask)
        elif p == PHASE_CONTROL:
            a = t_control(o, mask)
    if a >= 0 and a < NUM_ACTIONS and mask[a]:
        return a
    if mask[A_END_PHASE]:
        return A_END_PHASE
    if mask[A_END_PIECE]:
        return A_END_PIECE
    return random_choice(mask, rng, slot)


@jit(inline=True)
def scripted_action_buf(s, mask, rng, slot, obs, wc, wu, bd, bp, bk, mo):
    """``scripted_action`` with caller-owned buffers (``obs``: a (1,) STATE_DTYPE array).

    It reads the record ``obs[0]``, which does not keep ``obs`` alive
    (numba#8051): inlined into a caller whose own ``obs`` it is, numba could
    free ``obs`` after its last use as an array and the player would read
    freed memory (decisions that changed with the heap), so it returns through
    ``keep_alive(obs, ...)`` (``tests/test_heap_independence.py``)."""
    legal_action_mask(s, mask)
    side = current_player(s)  # the losing side while a loss it names is pending (D22)
    if side < 0:
        return -1
    observe(s, side, True, obs[0])
    a = scripted_decide(obs[0], mask, side, rng, slot, wc, wu, bd, bp, bk, mo)
    return keep_alive(obs, a)


@jit(inline=True)
def scripted_action(s, mask, rng, slot):
    """The scripted action for the player to move in ``s`` (fills ``mask``).

    Honest (D20): the decision sees only ``observe(s, side, fog=True)`` and the
    legal mask."""
    obs = np.empty(1, dtype=STATE_DTYPE)
    wc, wu, bd, bp, bk, mo = new_work()
    return scripted_action_buf(s, mask, rng, slot, obs, wc, wu, bd, bp, bk, mo)


class ScriptedAgent(Agent):
    """The scripted player (compiled: ``POLICY_SCRIPTED``).

    ``act`` runs the same compiled heuristics as the compiled policy on the
    information state it is given, so that Python and compiled play agree
    when the agent's generator starts from the same seed."""

    name = "scripted"
    policy_id = POLICY_SCRIPTED

    def __init__(self, seed: int | None = None):
        self._work = make_work()
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self._rng = np.array([seed], dtype=np.uint64)

    def act(self, info_state, mask, side) -> int:
        o = np.asarray(info_state)
        if o.ndim == 0:  # a record (np.void): the compiled code takes a record of an array
            o = o.reshape(1)
        if o.ndim == 1:
            o = o[0]
        m = np.ascontiguousarray(mask, dtype=np.bool_)
        a = int(scripted_decide(o, m, int(side), self._rng, 0, *self._work))
        if a < 0:
            raise ValueError("no legal action to choose from")
        return a
