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
    The deployment plan of ``hotspot.agents.scripted_setup`` (the Ziegler
    screens the Central Crustal with crustals at 2-4 hexes and holds it with
    strong stacks, hovercraft in reserve; the Technocrat lands near the
    shortest approaches and spreads its engineers over escorted platforms),
    with seeded variety drawn from ``rng[slot]``.

``scripted_action(s, mask, rng, slot)`` is the compiled entry point (fills
``mask`` from ``s`` and acts for the player to move); ``scripted_decide`` is
the pure decision on an information state and a mask, shared by the compiled
policy and :class:`ScriptedAgent`.
"""
from __future__ import annotations

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import (A_COMBINE, A_END_PHASE, A_END_PIECE, A_MANEUVER, A_SELECT_PIECE,
                                  A_SELECT_UNIT, A_SPLIT, NUM_ACTIONS, current_player,
                                  legal_action_mask)
from hotspot.core.combat import odds_column
from hotspot.core.crustal_movement import M_FORWARD, M_ROTATE, M_TURN_LEFT, M_TURN_RIGHT, NUM_MANEUVERS
from hotspot.core.hexgrid import (CENTRAL_CELLS, CENTRAL_COL, CENTRAL_ROW, DISTANCE_TO_CENTRAL,
                                  DISTANCE_TO_EDGE, NEIGHBOUR, NUM_CELLS, ON_MAP, cell_of)
from hotspot.core.observation import observe
from hotspot.core.crustal_movement import rotated_about
from hotspot.core.rollout import random_choice
from hotspot.core.rules_data import (LONG, MAX_PIECE_CELLS, NO_PIECE, ONE_HEX, PHASE_CONTROL,
                                     PHASE_OVER, PHASE_T_COMBAT, PHASE_T_CRUSTAL,
                                     PHASE_T_MOVE, PHASE_Z_COMBAT, PHASE_Z_CRUSTAL, PHASE_Z_MOVE,
                                     PHASE_Z_SECOND, PLATFORM, T_ENGINEER, T_INFANTRY, TECHNOCRAT,
                                     TRIANGULAR, TWO_HEX, UNIT_IS_INFANTRY, UNIT_SIDE, Z_HOVERCRAFT,
                                     Z_INFANTRY, ZIEGLER)
from hotspot.core.setup import is_setup_phase
from hotspot.core.state import MAX_PIECES, MAX_UNITS, PF_DONE, STATE_DTYPE, UF_DONE

from .base import POLICY_SCRIPTED, Agent
from .scripted_setup import setup_decide

NC = NUM_CELLS

# ------------------------------------------------------------------ tables


# hexes from the Central Crustal (0 on it) and steps to the nearest off-map hex
DCEN = DISTANCE_TO_CENTRAL
DEDGE = DISTANCE_TO_EDGE
CENTRE_CELL = cell_of(CENTRAL_COL, CENTRAL_ROW)

# ------------------------------------------------------------------ work buffers

# rows of the per-cell int64 buffer ``wc``
C_MYCNT = 0  # my counters
C_ENCNT = 1  # enemy counters (visible count, 9.5)
C_TOT = 2  # all counters
C_MYDEF = 3  # my defense
C_MYATT = 4  # my attack
C_ENDEF = 5  # enemy defense (estimate where hidden)
C_ENATT = 6  # enemy attack (estimate)
C_MYENG = 7  # my engineer squads
C_ENTOP = 8  # type of the top enemy counter (-1 unknown, 0 none)
C_ENENG = 9  # enemy counters known to be engineers
C_INFO_ROWS = 10
C_GREACH = 10  # best defense of a free guard that can reach the cell (Technocrat)
C_CLAIM = 11  # docks claimed by platforms this decision
C_TGT = 12  # target list (cells)
C_TGV = 13  # target values
C_QUEUE = 14  # BFS queue
C_PDIST = 15  # piece BFS distance
C_PPAR = 16  # piece BFS parent
C_LIST = 17  # scratch list
C_LIST2 = 18
NC_ROWS = 19

# rows of the per-unit int64 buffer ``wu``
U_ROLE = 0
U_TGT = 1
U_SLOT = 2
NU_ROWS = 3

ROLE_FREE = 0
ROLE_STAY = 1  # guard, fortress or blocker that stays where it is
ROLE_MOVE = 2  # moves to U_TGT (guard, fortress, blocker, reinforcement)
ROLE_ATTACK = 3  # attacks the hex U_TGT
ROLE_ENG = 4  # engineer (moves to U_TGT, or stays)

NSLOT = 40  # cached unit BFS trees per decision

# options (module constants, fixed at compile time)
RAM = False  # Ziegler: ram loaded platforms with crustals that carry no units (measured: no gain)
GATHER = True  # Ziegler: crustals carrying Ziegler units sail to the Central Crustal
SPLIT = True  # Ziegler: split infantry on the Central Crustal up to the stacking limit


@jit
def _new_work():
    return (np.zeros((NC_ROWS, NC), dtype=np.int64),
            np.zeros((NU_ROWS, MAX_UNITS), dtype=np.int64),
            np.zeros((NSLOT, NC), dtype=np.int16),
            np.zeros((NSLOT, NC), dtype=np.int16),
            np.zeros((NSLOT + 1, 3), dtype=np.int64),
            np.zeros((2, MAX_PIECE_CELLS), dtype=np.int64))


def make_work():
    """Fresh scratch buffers for :func:`scripted_decide` (reuse them between calls)."""
    return _new_work()


new_work = _new_work  # the same, callable from compiled code (the search's rollouts)


# ------------------------------------------------------------------ basics


@jit
def _dir_to(a, b):
    for d in range(6):
        if NEIGHBOUR[a, d] == b:
            return d
    return -1


@jit
def _side_of(o, u, me):
    """Side of unit u as ``me`` sees it (-1 none); a hidden counter is an enemy's (D20)."""
    t = o["unit_type"][u]
    if t == 0:
        return -1
    if t < 0:
        return 1 - me
    return UNIT_SIDE[t]


@jit
def _att(o, u):
    return int(o["rules"]["attack"][o["unit_type"][u]]) * int(o["unit_squads"][u])


@jit
def _def(o, u):
    return int(o["rules"]["defense"][o["unit_type"][u]]) * int(o["unit_squads"][u])


@jit
def _est(o, u, defense):
    """Defense (or attack) of an enemy counter, estimated where hidden (9.5,
    D20): an unknown counter counts as two factors, an infantry counter of
    unknown size as two squads (counters hold 1-3 squads, 10.0)."""
    t = o["unit_type"][u]
    if t < 0:
        return 2
    sq = int(o["unit_squads"][u])
    if sq < 0:
        sq = 2 if UNIT_IS_INFANTRY[t] else 1
    if defense:
        return int(o["rules"]["defense"][t]) * sq
    return int(o["rules"]["attack"][t]) * sq


@jit
def _side_limit(o, c):
    k = o["board"][c]
    if k < 0:
        return 0
    if o["piece_kind"][k] == PLATFORM:
        return int(o["rules"]["stack_platform"])
    return min(int(o["rules"]["stack_side_crustal"]), int(o["rules"]["stack_total_crustal"]))


@jit
def _total_limit(o, c):
    k = o["board"][c]
    if k < 0:
        return 0
    if o["piece_kind"][k] == PLATFORM:
        return int(o["rules"]["stack_platform"])
    return int(o["rules"]["stack_total_crustal"])


@jit
def _room(o, wc, c):
    """Room for how many more of my counters in cell c (9.1, 9.2)."""
    return min(_side_limit(o, c) - wc[C_MYCNT, c], _total_limit(o, c) - wc[C_TOT, c])


@jit
def _moves_left(o, u):
    if o["unit_flags"][u] & UF_DONE:
        return 0
    return int(o["unit_moves"][u])


@jit
def _cell_info(o, me, wc):
    for r in range(C_INFO_ROWS):
        for c in range(NC):
            wc[r, c] = 0
    for u in range(MAX_UNITS):
        t = o["unit_type"][u]
        if t == 0:
            continue
        c = o["unit_cell"][u]
        if c < 0:
            continue
        wc[C_TOT, c] += 1
        if _side_of(o, u, me) == me:
            wc[C_MYCNT, c] += 1
            wc[C_MYDEF, c] += _def(o, u)
            wc[C_MYATT, c] += _att(o, u)
            if t == T_ENGINEER:
                wc[C_MYENG, c] += o["unit_squads"][u]
        else:
            if wc[C_ENCNT, c] == 0:
                wc[C_ENTOP, c] = t  # the top counter (R9.5: lowest index)
            wc[C_ENCNT, c] += 1
            wc[C_ENDEF, c] += _est(o, u, True)
            wc[C_ENATT, c] += _est(o, u, False)
            if t == T_ENGINEER:
                wc[C_ENENG, c] += 1


@jit
def _piece_count(o, wc, k, row):
    """Sum of row ``row`` of ``wc`` over the hexes of piece k."""
    n = 0
    for i in range(MAX_PIECE_CELLS):
        c = o["piece_cells"][k, i]
        if c >= 0:
            n += wc[row, c]
    return n


@jit
def _piece_min_dcen(o, k):
    best = 99
    for i in range(MAX_PIECE_CELLS):
        c = o["piece_cells"][k, i]
        if c >= 0 and DCEN[c] < best:
            best = DCEN[c]
    return best


@jit
def _unit_action(o, mask, u, d):
    """The next action that moves unit u one step in direction d (select it first)."""
    if o["sel_unit"] == u:
        a = A_MANEUVER + d
        if mask[a]:
            return a
        if mask[A_END_PIECE]:
            return A_END_PIECE  # the planned step is refused: finish u (progress)
        return -1
    a = A_SELECT_UNIT + u
    return a if mask[a] else -1


@jit
def _piece_action(o, mask, k, m):
    if o["sel_piece"] == k:
        a = A_MANEUVER + m
        if mask[a]:
            return a
        if mask[A_END_PIECE]:
            return A_END_PIECE
        return -1
    a = A_SELECT_PIECE + k
    return a if mask[a] else -1


# ------------------------------------------------------------------ unit paths


@jit
def _unit_bfs(o, wc, bd, bp, bk, src, maxd, enter_enemy):
    """Cached BFS tree of a unit's moves from ``src`` (at most ``maxd`` steps)
    over land hexes on the map with room to enter (9.1, 9.2, R9.1).  Hexes
    holding enemy units end a path (8.3) and are reached only if
    ``enter_enemy``.  Returns the slot of the tree in ``bd``/``bp`` or -1."""
    n = bk[NSLOT, 0]
    for i in range(n):
        if bk[i, 0] == src and bk[i, 1] == maxd and bk[i, 2] == enter_enemy:
            return i
    if n >= NSLOT:
        return -1
    bk[NSLOT, 0] = n + 1
    bk[n, 0] = src
    bk[n, 1] = maxd
    bk[n, 2] = enter_enemy
    dist = bd[n]
    par = bp[n]
    for c in range(NC):
        dist[c] = -1
    queue = wc[C_QUEUE]
    dist[src] = 0
    par[src] = -1
    head = 0
    tail = 1
    queue[0] = src
    while head < tail:
        c = queue[head]
        head += 1
        dc = dist[c]
        if dc >= maxd:
            continue
        if c != src and wc[C_ENCNT, c] > 0:
            continue
        for d in range(6):
            x = NEIGHBOUR[c, d]
            if x < 0 or not ON_MAP[x] or dist[x] >= 0 or o["board"][x] < 0:
                continue
            if wc[C_ENCNT, x] > 0 and not enter_enemy:
                continue
            if _room(o, wc, x) <= 0:
                continue
            dist[x] = dc + 1
            par[x] = c
            queue[tail] = x
            tail += 1
    return n


@jit
def _first_step(bp, sl, src, x):
    """Direction of the first step on the tree path from ``src`` to ``x``."""
    c = x
    for _ in range(NC):
        p = bp[sl, c]
        if p == src:
            return _dir_to(src, c)
        if p < 0:
            return -1
        c = p
    return -1


@jit
def _step_to(o, mask, bp, u, sl, x):
    src = o["unit_cell"][u]
    if x == src:
        if o["sel_unit"] == u and mask[A_END_PIECE]:
            return A_END_PIECE
        return -1
    d = _first_step(bp, sl, src, x)
    if d < 0:
        return -1
    return _unit_action(o, mask, u, d)


# ------------------------------------------------------------------ attacks


@jit
def _t_target_value(o, wc, c, turn, last):
    """Technocrat: how much taking hex c is worth (0: not a target)."""
    k = o["board"][c]
    if k < 0 or not ON_MAP[c]:
        return 0
    if k == 0:
        return 100  # 15.5: every Ziegler combat unit must leave the Central Crustal
    if o["piece_kind"][k] == PLATFORM:
        return 80
    v = 40 - 5 * DCEN[c]
    if _piece_count(o, wc, k, C_MYENG) > 0:
        v = 90  # Ziegler units on a crustal my engineers stand on block control (15.2)
    if v < 10:
        v = 10
    return v


@jit
def _z_target_value(o, wc, c):
    """Ziegler: how much eliminating the Technocrat stack in hex c is worth."""
    k = o["board"][c]
    if k < 0 or not ON_MAP[c]:
        return 0
    if k == 0:
        v = 200
    elif o["piece_kind"][k] == PLATFORM:
        v = 30
    else:
        v = 80
    if wc[C_ENTOP, c] == T_ENGINEER or wc[C_ENENG, c] > 0:
        v += 100
    return v


@jit
def _plan_attacks(o, me, mask, wc, wu, bd, bp, bk, turn, last):
    """Greedy attack plan over the targets, best value first; marks attackers
    ROLE_ATTACK with their target and returns the next action that carries
    it out (-1 when every planned attacker is in place)."""
    tg = wc[C_TGT]
    tv = wc[C_TGV]
    ntg = 0
    for c in range(NC):
        if wc[C_ENCNT, c] > 0 and o["board"][c] >= 0 and ON_MAP[c]:
            if me == TECHNOCRAT:
                v = _t_target_value(o, wc, c, turn, last)
            else:
                v = _z_target_value(o, wc, c)
            if v > 0:
                # insertion by value, then cell
                i = ntg
                while i > 0 and tv[i - 1] < v:
                    tg[i] = tg[i - 1]
                    tv[i] = tv[i - 1]
                    i -= 1
                tg[i] = c
                tv[i] = v
                ntg += 1
    if ntg == 0:
        return -1
    # BFS trees of the free attackers
    for u in range(MAX_UNITS):
        wu[U_SLOT, u] = -1
        if wu[U_ROLE, u] != ROLE_FREE or _side_of(o, u, me) != me:
            continue
        mv = _moves_left(o, u)
        if mv <= 0 or _att(o, u) <= 0:
            continue
        wu[U_SLOT, u] = _unit_bfs(o, wc, bd, bp, bk, o["unit_cell"][u], mv, 1)
    cand = wc[C_LIST]
    chosen = wc[C_LIST2]
    for ti in range(ntg):
        t = tg[ti]
        de = wc[C_ENDEF, t]
        committed = wc[C_MYATT, t]
        room = _room(o, wc, t)
        nc = 0
        for u in range(MAX_UNITS):
            sl = wu[U_SLOT, u]
            if sl < 0 or wu[U_ROLE, u] != ROLE_FREE:
                continue
            dd = bd[sl, t]
            if dd <= 0 or dd > _moves_left(o, u):
                continue
            # by attack, strongest first
            a = _att(o, u)
            i = nc
            while i > 0 and _att(o, cand[i - 1]) < a:
                cand[i] = cand[i - 1]
                i -= 1
            cand[i] = u
            nc += 1
        if nc == 0:
            continue
        need = 4 * de if de > 0 else 1
        acc = committed
        na = 0
        for i in range(nc):
            if acc >= need or na >= room:
                break
            chosen[na] = cand[i]
            acc += _att(o, cand[i])
            na += 1
        if na == 0:
            continue
        if de > 0:
            col = odds_column(acc, de)
            if me == TECHNOCRAT:
                mincol = 1 if tv[ti] >= 100 else 2
            else:
                mincol = 2
            if col < mincol:
                continue
            # drop the weakest attackers that do not change the column
            for i in range(na - 1, -1, -1):
                u = chosen[i]
                a2 = acc - _att(o, u)
                if a2 > 0 and odds_column(a2, de) == col:
                    acc = a2
                    chosen[i] = -1
        else:
            # 12.3: defenders without defense factors fall to any attack; one attacker
            for i in range(1, na):
                chosen[i] = -1
        for i in range(na):
            u = chosen[i]
            if u >= 0:
                wu[U_ROLE, u] = ROLE_ATTACK
                wu[U_TGT, u] = t
    # carry out: the selected unit first, then the plan in target order
    su = o["sel_unit"]
    if su >= 0 and wu[U_ROLE, su] == ROLE_ATTACK:
        a = _step_to(o, mask, bp, su, wu[U_SLOT, su], wu[U_TGT, su])
        if a >= 0:
            return a
    for ti in range(ntg):
        t = tg[ti]
        for u in range(MAX_UNITS):
            if wu[U_ROLE, u] == ROLE_ATTACK and wu[U_TGT, u] == t and o["unit_cell"][u] != t:
                a = _step_to(o, mask, bp, u, wu[U_SLOT, u], t)
                if a >= 0:
                    return a
    return -1


# ------------------------------------------------------------------ piece paths


@jit
def _in_zoc(o, k, c, mover_platform):
    """7.1, 7.5: is cell c in the zone of contact of a piece other than k?"""
    for d in range(6):
        x = NEIGHBOUR[c, d]
        if x < 0:
            continue
        j = o["board"][x]
        if j < 0 or j == k:
            continue
        if mover_platform and o["piece_kind"][j] == PLATFORM:
            continue
        return True
    return False


@jit
def _piece_bfs(o, wc, k, src, mover_platform, allow_off_map):
    """Paths of one-hex piece k over free molten hexes; a hex in a zone of
    contact (a collision, 7.3) ends a path.  Fills C_PDIST / C_PPAR."""
    dist = wc[C_PDIST]
    par = wc[C_PPAR]
    queue = wc[C_QUEUE]
    for c in range(NC):
        dist[c] = -1
    dist[src] = 0
    par[src] = -1
    head = 0
    tail = 1
    queue[0] = src
    while head < tail:
        c = queue[head]
        head += 1
        if c != src and (_in_zoc(o, k, c, mover_platform) or not ON_MAP[c]):
            continue
        for d in range(6):
            x = NEIGHBOUR[c, d]
            if x < 0 or dist[x] >= 0:
                continue
            if not ON_MAP[x] and not allow_off_map:
                continue
            if o["board"][x] >= 0 and o["board"][x] != k:
                continue
            dist[x] = dist[c] + 1
            par[x] = c
            queue[tail] = x
            tail += 1


@jit
def _piece_first_dir(wc, src, x):
    par = wc[C_PPAR]
    c = x
    for _ in range(NC):
        p = par[c]
        if p == src:
            return _dir_to(src, c)
        if p < 0:
            return -1
        c = p
    return -1


@jit
def _geom(kind, c0, c1, c2, m, out):
    """Where maneuver m takes a piece of ``kind`` on cells (c0, c1, c2) (the
    geometry of 6.3-6.7 and D8, as in ``core.crustal_movement``): fills
    ``out[i]`` with the cells after each sub-step and returns the number of
    sub-steps (0: not a maneuver of such a piece).  Legality is the mask's
    business; this only guides the choice."""
    for i in range(2):
        for j in range(MAX_PIECE_CELLS):
            out[i, j] = -1
    if c0 < 0:
        return 0
    if kind == ONE_HEX or kind == PLATFORM:
        if m < M_FORWARD:  # M_STEP + direction
            out[0, 0] = NEIGHBOUR[c0, m]
            return 1
        return 0
    if kind == TRIANGULAR:
        if m < M_FORWARD:  # M_STEP + direction
            out[0, 0] = NEIGHBOUR[c0, m]
            out[0, 1] = NEIGHBOUR[c1, m]
            out[0, 2] = NEIGHBOUR[c2, m]
            return 1
        if m >= M_ROTATE:
            p = (m - M_ROTATE) // 2
            turn = 2 if (m - M_ROTATE) % 2 == 0 else 4
            pc = c0 if p == 0 else (c1 if p == 1 else c2)
            out[0, 0] = c0 if p == 0 else rotated_about(pc, c0, turn)
            out[0, 1] = c1 if p == 1 else rotated_about(pc, c1, turn)
            out[0, 2] = c2 if p == 2 else rotated_about(pc, c2, turn)
            return 1
        return 0
    if kind == TWO_HEX or kind == LONG:
        d = _dir_to(c1, c0)  # facing: from the rear (or centre) to the front (6.4, 6.6)
        if d < 0:
            return 0
        ahead = NEIGHBOUR[c0, d]
        if ahead < 0:
            return 0
        if m == M_FORWARD:
            out[0, 0] = ahead
            out[0, 1] = c0
            out[1, 0] = NEIGHBOUR[ahead, d]
            out[1, 1] = ahead
            if kind == LONG:
                out[0, 2] = c1
                out[1, 2] = c0
            return 2
        if kind == TWO_HEX and (m == M_TURN_LEFT or m == M_TURN_RIGHT):
            side = 1 if m == M_TURN_LEFT else 5
            out[0, 0] = ahead
            out[0, 1] = c0
            out[1, 0] = ahead
            out[1, 1] = NEIGHBOUR[c0, (d + side) % 6]
            return 2
        if kind == LONG and (m == M_ROTATE + 2 or m == M_ROTATE + 3):  # about the centre (slot 1)
            turn = 1 if m == M_ROTATE + 2 else 5
            out[0, 1] = c1
            out[0, 0] = rotated_about(c1, c0, turn)
            out[0, 2] = rotated_about(c1, c2, turn)
            return 1
    return 0


@jit
def _geom_final(o, k, size, n, m, out, first):
    """Check the sub-steps in ``out`` against the board (6.2: molten or k's own
    hexes, inside the playable area) and return the row of the final position
    (-1 if blocked).  On the first maneuver a forward move whose second hex
    is taken stops on its first (R6.8)."""
    last = n - 1
    for i in range(n):
        for j in range(size):
            c = out[i, j]
            if c < 0:
                return -1
            b = o["board"][c]
            if b >= 0 and b != k:
                if i == 0 or m != 6 or not first:
                    return -1
                return 0
    return last


@jit
def _pos_score(o, k, out, row, size, mode):
    """mode 0: towards the Central Crustal, never off the map (-10 per hex
    between its nearest hex and the Central Crustal); mode 1: off the map."""
    dmin = 99
    edge = 99
    off = 0
    for j in range(size):
        c = out[row, j]
        if not ON_MAP[c]:
            off += 1
        if DCEN[c] < dmin:
            dmin = DCEN[c]
        if DEDGE[c] < edge:
            edge = DEDGE[c]
    if mode == 0:
        if off > 0:
            return -1000000
        return -10 * dmin
    return 100 * off - 10 * edge


@jit
def _new_contacts(o, k, out, row, size):
    """Collisions (7.1, D9) on the hexes of a new position that k does not hold now."""
    n = 0
    for j in range(size):
        c = out[row, j]
        was = False
        for q in range(size):
            if o["piece_cells"][k, q] == c:
                was = True
        if not was and _in_zoc(o, k, c, False):
            n += 1
    return n


@jit
def _best_maneuver(o, mask, k, mo, mode):
    """The first maneuver of the best sequence of up to three maneuvers of
    piece k (one a phase for crustals other than one-hex, 6.4-6.6), if it
    beats standing still; else -1.  Other pieces are taken as standing
    still; only the first maneuver is checked against the mask (when k is
    selected)."""
    kind = o["piece_kind"][k]
    size = 1
    if kind == TWO_HEX:
        size = 2
    elif kind == TRIANGULAR or kind == LONG:
        size = 3
    lv = np.empty((4, MAX_PIECE_CELLS), dtype=np.int64)
    for j in range(MAX_PIECE_CELLS):
        lv[0, j] = o["piece_cells"][k, j]
    now = _pos_score(o, k, lv, 0, size, mode)
    if mode == 0 and now >= -10:
        return -1  # already next to the Central Crustal
    best = -1
    bestv = now
    depth = 1 if kind == ONE_HEX else 3
    for m1 in range(NUM_MANEUVERS):
        if o["sel_piece"] == k and not mask[A_MANEUVER + m1]:
            continue
        n1 = _geom(kind, lv[0, 0], lv[0, 1], lv[0, 2], m1, mo)
        if n1 == 0:
            continue
        r1 = _geom_final(o, k, size, n1, m1, mo, True)
        if r1 < 0:
            continue
        for j in range(MAX_PIECE_CELLS):
            lv[1, j] = mo[r1, j]
        s1 = _pos_score(o, k, lv, 1, size, mode)
        if s1 <= -1000000:
            continue
        v = s1 - 1 - 2 * _new_contacts(o, k, lv, 1, size)
        if v > bestv:
            bestv = v
            best = m1
        if depth < 2 or (mode == 0 and s1 >= -10):
            continue
        for m2 in range(NUM_MANEUVERS):
            n2 = _geom(kind, lv[1, 0], lv[1, 1], lv[1, 2], m2, mo)
            if n2 == 0:
                continue
            r2 = _geom_final(o, k, size, n2, m2, mo, False)
            if r2 < 0:
                continue
            for j in range(MAX_PIECE_CELLS):
                lv[2, j] = mo[r2, j]
            s2 = _pos_score(o, k, lv, 2, size, mode)
            if s2 <= -1000000:
                continue
            if s2 - 4 > bestv:
                bestv = s2 - 4
                best = m1
            if mode == 0 and s2 >= -10:
                continue
            for m3 in range(NUM_MANEUVERS):
                n3 = _geom(kind, lv[2, 0], lv[2, 1], lv[2, 2], m3, mo)
                if n3 == 0:
                    continue
                r3 = _geom_final(o, k, size, n3, m3, mo, False)
                if r3 < 0:
                    continue
                for j in range(MAX_PIECE_CELLS):
                    lv[3, j] = mo[r3, j]
                s3 = _pos_score(o, k, lv, 3, size, mode)
                if s3 - 7 > bestv:
                    bestv = s3 - 7
                    best = m1
    return best


# ------------------------------------------------------------------ Technocrat


@jit
def _landing_value(o, wc, L, k, eng, turn, last):
    """Technocrat: worth of landing on land hex L from platform k's dock.
    ``eng``: the platform carries engineers, who can step only into hexes
    without enemy units (12.2) and must be off the platform by its last turn
    (14.5)."""
    j = o["board"][L]
    if j < 0 or j == k or not ON_MAP[L]:
        return 0
    kind = o["piece_kind"][j]
    if kind == PLATFORM:
        return 0
    if j == 0:
        v = 100
    elif o["piece_controller"][j] == TECHNOCRAT:
        v = 55 - 8 * DCEN[L]
    elif _piece_count(o, wc, j, C_ENCNT) == 0:
        v = 75 - 8 * DCEN[L]  # no Ziegler unit on it: engineers can take it (15.2)
    else:
        v = 50 - 8 * DCEN[L]
    if eng:
        if wc[C_ENCNT, L] == 0:
            v += 20
            if wc[C_MYCNT, L] > 0:
                v += 10  # guarded already
        elif turn >= last:
            return 0
        else:
            v -= 20
    return v


@jit
def _t_platform_target(o, wc, k, turn, last):
    """The dock platform k heads for (-1 none); computes the piece BFS."""
    src = o["piece_cells"][k, 0]
    _piece_bfs(o, wc, k, src, True, False)
    dist = wc[C_PDIST]
    moves = int(o["piece_moves"][k])
    if o["piece_flags"][k] & PF_DONE:
        moves = 0
    pmove = int(o["rules"]["platform_move"])
    eng = _piece_count(o, wc, k, C_MYENG) > 0
    best = -1
    bests = -1000000
    for x in range(NC):
        dx = dist[x]
        if dx < 0 or not ON_MAP[x]:
            continue
        if wc[C_CLAIM, x] and x != src:
            continue
        # turns until arrival (0: this phase)
        if dx <= moves:
            extra = 0
        elif pmove > 0:
            extra = (dx - moves + pmove - 1) // pmove
        else:
            continue
        if turn + extra > last:
            continue  # 14.5: it would break up before its units could land
        v = 0
        for d in range(6):
            L = NEIGHBOUR[x, d]
            if L >= 0:
                lv = _landing_value(o, wc, L, k, eng, turn + extra, last)
                if lv > v:
                    v = lv
        if v <= 0:
            continue
        sc = v * 10 - 150 * extra - dx
        if x == src:
            sc += 5
        if sc > bests:
            bests = sc
            best = x
    return best


@jit
def _crustal_to_central(o, mask, wc, mo, k):
    """Move crustal k (selected or selectable) towards the Central Crustal,
    never off the map; stops next to it.  Returns the action or -1."""
    kind = o["piece_kind"][k]
    if kind == ONE_HEX:
        src = o["piece_cells"][k, 0]
        if DCEN[src] > 1:
            _piece_bfs(o, wc, k, src, False, False)
            dist = wc[C_PDIST]
            best = -1
            for x in range(NC):
                if dist[x] > 0 and ON_MAP[x] and DCEN[x] == 1:
                    if best < 0 or dist[x] < dist[best]:
                        best = x
            if best >= 0:
                d = _piece_first_dir(wc, src, best)
                if d >= 0:
                    a = _piece_action(o, mask, k, d)
                    if a >= 0:
                        return a
            else:
                m = _best_maneuver(o, mask, k, mo, 0)
                if m >= 0:
                    a = _piece_action(o, mask, k, m)
                    if a >= 0:
                        return a
    elif _piece_min_dcen(o, k) > 1:
        m = _best_maneuver(o, mask, k, mo, 0)
        if m >= 0:
            a = _piece_action(o, mask, k, m)
            if a >= 0:
                return a
    if o["sel_piece"] == k and mask[A_END_PIECE]:
        return A_END_PIECE
    return -1


@jit
def _t_crustal(o, mask, wc, mo, turn, last):
    me = TECHNOCRAT
    for x in range(NC):
        wc[C_CLAIM, x] = 0
    # the selected piece first, then the others in index order
    for pass_ in range(2):
        for k in range(1, MAX_PIECES):
            if pass_ == 0 and k != o["sel_piece"]:
                continue
            if pass_ == 1 and k == o["sel_piece"]:
                continue
            kind = o["piece_kind"][k]
            if kind == NO_PIECE:
                continue
            can = mask[A_SELECT_PIECE + k] or o["sel_piece"] == k
            if kind == PLATFORM:
                if _piece_count(o, wc, k, C_MYCNT) == 0:
                    continue
                src = o["piece_cells"][k, 0]
                if not can:
                    wc[C_CLAIM, src] = 1
                    continue
                x = _t_platform_target(o, wc, k, turn, last)
                if x < 0 or x == src:
                    wc[C_CLAIM, src] = 1
                    if o["sel_piece"] == k and mask[A_END_PIECE]:
                        return A_END_PIECE
                    continue
                wc[C_CLAIM, x] = 1
                d = _piece_first_dir(wc, src, x)
                if d >= 0:
                    a = _piece_action(o, mask, k, d)
                    if a >= 0:
                        return a
            elif can and o["piece_controller"][k] == me:
                if _piece_count(o, wc, k, C_MYCNT) == 0:
                    continue
                a = _crustal_to_central(o, mask, wc, mo, k)
                if a >= 0:
                    return a
    return A_END_PHASE


@jit
def _eng_base(o, wc, x, turn, last):
    """Technocrat: worth of an engineer standing in hex x at the end of the move."""
    k = o["board"][x]
    if k < 0:
        return -100000
    if k == 0:
        v = 100
    elif o["piece_kind"][k] == PLATFORM:
        v = 40 if turn < last else -1000
    elif o["piece_controller"][k] == TECHNOCRAT:
        v = 60
    elif _piece_count(o, wc, k, C_ENCNT) == 0:
        v = 75
    else:
        v = 25
    return v - 3 * DCEN[x]


@jit
def _t_combine(o, mask, wc):
    """10.0: Technocrat infantry in one hex joins up into three-squad counters
    (9.1: the hex limits counters, not squads).  Returns the action or -1."""
    su = o["sel_unit"]
    if su >= 0 and o["unit_type"][su] == T_INFANTRY:
        for v in range(MAX_UNITS):
            if mask[A_COMBINE + v]:
                return A_COMBINE + v
    for u in range(MAX_UNITS):
        if o["unit_type"][u] != T_INFANTRY or o["unit_squads"][u] >= 3 or not mask[A_SELECT_UNIT + u]:
            continue
        c = o["unit_cell"][u]
        if wc[C_ENCNT, c] > 0:
            continue
        for v in range(MAX_UNITS):
            if (v != u and o["unit_type"][v] == T_INFANTRY and o["unit_cell"][v] == c
                    and o["unit_squads"][u] + o["unit_squads"][v] <= 3 and _moves_left(o, v) > 0):
                return A_SELECT_UNIT + u
    return -1


@jit
def _t_move(o, mask, wc, wu, bd, bp, bk, turn, last):
    me = TECHNOCRAT
    a = _t_combine(o, mask, wc)
    if a >= 0:
        return a
    for u in range(MAX_UNITS):
        wu[U_ROLE, u] = ROLE_FREE
        wu[U_TGT, u] = -1
        wu[U_SLOT, u] = -1
        c = o["unit_cell"][u]
        if c >= 0 and _side_of(o, u, me) == me and wc[C_ENCNT, c] > 0:
            # it attacks there; an overrunning unit (11.1) that left would face a
            # Close Infantry Assault (11.2)
            wu[U_ROLE, u] = ROLE_STAY
            wu[U_TGT, u] = c
    su = o["sel_unit"]
    if su >= 0 and wu[U_ROLE, su] == ROLE_STAY and mask[A_END_PIECE]:
        return A_END_PIECE
    # where free guards (units with a defense factor) can get to
    greach = wc[C_GREACH]
    for c in range(NC):
        greach[c] = 0
    for u in range(MAX_UNITS):
        if _side_of(o, u, me) != me or o["unit_type"][u] == T_ENGINEER:
            continue
        df = _def(o, u)
        if df <= 0:
            continue
        mv = _moves_left(o, u)
        c0 = o["unit_cell"][u]
        if df > greach[c0]:
            greach[c0] = df
        if mv <= 0:
            continue
        sl = _unit_bfs(o, wc, bd, bp, bk, c0, mv, 0)
        if sl < 0:
            continue
        for x in range(NC):
            if bd[sl, x] > 0 and df > greach[x]:
                greach[x] = df
    # 1. engineers: destination and guard
    act = -1
    for u in range(MAX_UNITS):
        if o["unit_type"][u] != T_ENGINEER:
            continue
        src = o["unit_cell"][u]
        wu[U_ROLE, u] = ROLE_ENG
        wu[U_TGT, u] = src
        mv = _moves_left(o, u)
        dest = src
        if mv > 0:
            sl = _unit_bfs(o, wc, bd, bp, bk, src, mv, 0)
            wu[U_SLOT, u] = sl
            if sl >= 0:
                bests = -10000000
                for x in range(NC):
                    dx = bd[sl, x]
                    if dx < 0:
                        continue
                    sc = _eng_base(o, wc, x, turn, last) * 10
                    guarded = wc[C_MYDEF, x] > 0 or greach[x] > 0
                    if not guarded:
                        sc -= 800
                    if x == src:
                        sc += 30
                    else:
                        sc -= dx
                    if sc > bests:
                        bests = sc
                        dest = x
        wu[U_TGT, u] = dest
        # the guard: a unit with a defense factor at dest that stays, or one that comes
        g = -1
        gd = 0
        for v in range(MAX_UNITS):
            if _side_of(o, v, me) != me or o["unit_type"][v] == T_ENGINEER:
                continue
            if o["unit_cell"][v] == dest and (wu[U_ROLE, v] == ROLE_STAY or wu[U_ROLE, v] == ROLE_MOVE):
                g = v  # already guarded by another engineer's guard
                break
        if g < 0:
            for v in range(MAX_UNITS):
                if _side_of(o, v, me) != me or o["unit_type"][v] == T_ENGINEER:
                    continue
                if wu[U_ROLE, v] == ROLE_MOVE and wu[U_TGT, v] == dest:
                    g = v
                    break
        if g < 0:
            # the guard that costs the attacks least: low attack, then high defense
            gk = 1000000
            for v in range(MAX_UNITS):
                if (_side_of(o, v, me) != me or o["unit_type"][v] == T_ENGINEER
                        or wu[U_ROLE, v] != ROLE_FREE or _def(o, v) <= 0):
                    continue
                key = 10 * _att(o, v) - _def(o, v)
                if o["unit_cell"][v] == dest and key < gk:
                    g = v
                    gk = key
            if g >= 0:
                wu[U_ROLE, g] = ROLE_STAY
                wu[U_TGT, g] = dest
        if g < 0 and dest != src:
            # a free guard that can reach dest
            for v in range(MAX_UNITS):
                if (_side_of(o, v, me) != me or o["unit_type"][v] == T_ENGINEER
                        or wu[U_ROLE, v] != ROLE_FREE):
                    continue
                mvv = _moves_left(o, v)
                dv = _def(o, v)
                if mvv <= 0 or dv <= gd:
                    continue
                slv = _unit_bfs(o, wc, bd, bp, bk, o["unit_cell"][v], mvv, 0)
                if slv >= 0 and bd[slv, dest] > 0:
                    g = v
                    gd = dv
            if g >= 0:
                wu[U_ROLE, g] = ROLE_MOVE
                wu[U_TGT, g] = dest
                wu[U_SLOT, g] = _unit_bfs(o, wc, bd, bp, bk, o["unit_cell"][g], _moves_left(o, g), 0)
        if act < 0 and dest != src:
            if g >= 0 and o["unit_cell"][g] != dest:
                # the guard goes first (unless the engineer is already under way)
                if o["sel_unit"] == u:
                    act = _step_to(o, mask, bp, u, wu[U_SLOT, u], dest)
                else:
                    act = _step_to(o, mask, bp, g, wu[U_SLOT, g], dest)
            else:
                act = _step_to(o, mask, bp, u, wu[U_SLOT, u], dest)
        elif act < 0 and o["sel_unit"] == u and mv > 0 and mask[A_END_PIECE]:
            act = A_END_PIECE
    if act >= 0:
        return act
    # a selected guard that has arrived finishes its move
    su = o["sel_unit"]
    if su >= 0 and (wu[U_ROLE, su] == ROLE_MOVE or wu[U_ROLE, su] == ROLE_STAY):
        if o["unit_cell"][su] == wu[U_TGT, su] and mask[A_END_PIECE]:
            return A_END_PIECE
        if wu[U_ROLE, su] == ROLE_MOVE:
            a = _step_to(o, mask, bp, su, wu[U_SLOT, su], wu[U_TGT, su])
            if a >= 0:
                return a
    # 2. attacks
    a = _plan_attacks(o, me, mask, wc, wu, bd, bp, bk, turn, last)
    if a >= 0:
        return a
    su = o["sel_unit"]
    if su >= 0 and wu[U_ROLE, su] == ROLE_ATTACK and mask[A_END_PIECE]:
        return A_END_PIECE  # arrived (an overrunning unit keeps movement, 11.1)
    # 3. the rest: off the platforms on their last turn, join engineers, close in
    for pass_ in range(2):
        for u in range(MAX_UNITS):
            if pass_ == 0 and u != su:
                continue
            if wu[U_ROLE, u] != ROLE_FREE or _side_of(o, u, me) != me:
                continue
            mv = _moves_left(o, u)
            if mv <= 0:
                continue
            src = o["unit_cell"][u]
            sl = _unit_bfs(o, wc, bd, bp, bk, src, mv, 0)
            if sl < 0:
                continue
            ksrc = o["board"][src]
            on_platform = ksrc > 0 and o["piece_kind"][ksrc] == PLATFORM
            best = src
            bests = 0
            if on_platform and turn >= last:
                bests = -100000
            elif on_platform:
                bests = 0
            else:
                bests = 5 * wc[C_MYENG, src] - DCEN[src]
            for x in range(NC):
                dx = bd[sl, x]
                if dx <= 0:
                    continue
                kx = o["board"][x]
                if kx > 0 and o["piece_kind"][kx] == PLATFORM:
                    if turn >= last:
                        continue
                    sc = -5 - DCEN[x]
                else:
                    sc = 10 - DCEN[x]
                    if wc[C_MYENG, x] > 0:
                        sc += 5 if wc[C_MYDEF, x] < 9 else 1
                if on_platform and turn < last:
                    if kx != 0:
                        continue  # stay aboard unless a Central Crustal hex is free
                    sc += 5
                if sc > bests:
                    bests = sc
                    best = x
            if best != src:
                a = _step_to(o, mask, bp, u, sl, best)
                if a >= 0:
                    return a
            elif o["sel_unit"] == u and mask[A_END_PIECE]:
                return A_END_PIECE
    return A_END_PHASE


@jit
def _t_control(o, mask):
    """15.4: neutralize a controlled crustal only when it touches the Central Crustal."""
    for k in range(1, MAX_PIECES):
        if mask[A_SELECT_PIECE + k] and _piece_min_dcen(o, k) <= 1:
            return A_SELECT_PIECE + k
    return A_END_PHASE


# ------------------------------------------------------------------ Ziegler


@jit
def _z_crustal(o, mask, wc, mo):
    me = ZIEGLER
    for pass_ in range(2):
        for k in range(1, MAX_PIECES):
            if pass_ == 0 and k != o["sel_piece"]:
                continue
            if pass_ == 1 and k == o["sel_piece"]:
                continue
            if not (mask[A_SELECT_PIECE + k] or o["sel_piece"] == k):
                continue
            tc = _piece_count(o, wc, k, C_ENCNT)
            zdef = _piece_count(o, wc, k, C_MYDEF)
            tatt = _piece_count(o, wc, k, C_ENATT)
            kind = o["piece_kind"][k]
            src = o["piece_cells"][k, 0]
            if tc > 0 and zdef * 2 < tatt:
                # dump it: off the map with everything on it (6.9, 14.4)
                if kind == ONE_HEX:
                    _piece_bfs(o, wc, k, src, False, True)
                    dist = wc[C_PDIST]
                    best = -1
                    for x in range(NC):
                        if dist[x] > 0 and not ON_MAP[x]:
                            if best < 0 or dist[x] < dist[best]:
                                best = x
                    if best >= 0:
                        d = _piece_first_dir(wc, src, best)
                        if d >= 0:
                            a = _piece_action(o, mask, k, d)
                            if a >= 0:
                                return a
                m = _best_maneuver(o, mask, k, mo, 1)
                if m >= 0:
                    a = _piece_action(o, mask, k, m)
                    if a >= 0:
                        return a
            elif GATHER and tc == 0 and _piece_count(o, wc, k, C_MYCNT) > 0:
                # bring its units within a step of the Central Crustal (15.5)
                a = _crustal_to_central(o, mask, wc, mo, k)
                if a >= 0:
                    return a
                continue
            elif RAM and kind == ONE_HEX and tc == 0 and _piece_count(o, wc, k, C_MYCNT) == 0:
                _piece_bfs(o, wc, k, src, False, False)
                dist = wc[C_PDIST]
                best = -1
                for x in range(NC):
                    if dist[x] <= 0 or dist[x] > o["piece_moves"][k]:
                        continue
                    for d in range(6):
                        y = NEIGHBOUR[x, d]
                        if y >= 0:
                            j = o["board"][y]
                            if (j > 0 and o["piece_kind"][j] == PLATFORM and wc[C_ENCNT, y] > 0
                                    and (best < 0 or dist[x] < dist[best])):
                                best = x
                if best >= 0:
                    d = _piece_first_dir(wc, src, best)
                    if d >= 0:
                        a = _piece_action(o, mask, k, d)
                        if a >= 0:
                            return a
            if o["sel_piece"] == k and mask[A_END_PIECE]:
                return A_END_PIECE
    return A_END_PHASE


@jit
def _z_fortress(o, wc):
    """The Central Crustal hex the Ziegler gathers in: most Ziegler counters,
    no Technocrat unit; the centre on a tie."""
    best = -1
    bests = -1
    for i in range(CENTRAL_CELLS.shape[0]):
        c = CENTRAL_CELLS[i]
        if wc[C_ENCNT, c] > 0:
            continue
        sc = wc[C_MYCNT, c] * 100 + wc[C_MYDEF, c] * 2 + (1 if c == CENTRE_CELL else 0)
        if sc > bests:
            bests = sc
            best = c
    return best


@jit
def _z_threatened(o, wc, k):
    """A crustal with Technocrat units on it or next to it (15.2)."""
    for i in range(MAX_PIECE_CELLS):
        c = o["piece_cells"][k, i]
        if c < 0:
            continue
        if wc[C_ENCNT, c] > 0:
            return True
        for d in range(6):
            x = NEIGHBOUR[c, d]
            if x >= 0 and wc[C_ENCNT, x] > 0 and o["board"][x] != k:
                return True
    return False


@jit
def _z_move(o, mask, wc, wu, bd, bp, bk):
    me = ZIEGLER
    for u in range(MAX_UNITS):
        wu[U_ROLE, u] = ROLE_FREE
        wu[U_TGT, u] = -1
        wu[U_SLOT, u] = -1
    fort = _z_fortress(o, wc)
    limit = 0
    if fort >= 0:
        limit = _side_limit(o, fort)
        room = _room(o, wc, fort)
        # 1. the fortress: its units stay, the other Central Crustal units join it
        for u in range(MAX_UNITS):
            if _side_of(o, u, me) == me and o["unit_cell"][u] == fort:
                wu[U_ROLE, u] = ROLE_STAY
                wu[U_TGT, u] = fort
        for u in range(MAX_UNITS):
            if room <= 0:
                break
            if _side_of(o, u, me) != me or wu[U_ROLE, u] != ROLE_FREE:
                continue
            c = o["unit_cell"][u]
            if o["board"][c] != 0 or wc[C_ENCNT, c] > 0:
                continue
            mv = _moves_left(o, u)
            if mv <= 0:
                continue
            sl = _unit_bfs(o, wc, bd, bp, bk, c, mv, 0)
            if sl >= 0 and bd[sl, fort] > 0:
                wu[U_ROLE, u] = ROLE_MOVE
                wu[U_TGT, u] = fort
                wu[U_SLOT, u] = sl
                room -= 1
    # 2. the other Central Crustal units hold their hexes
    for u in range(MAX_UNITS):
        if _side_of(o, u, me) == me and wu[U_ROLE, u] == ROLE_FREE:
            c = o["unit_cell"][u]
            if o["board"][c] == 0 and wc[C_ENCNT, c] == 0:
                wu[U_ROLE, u] = ROLE_STAY
                wu[U_TGT, u] = c
    # 3. threatened crustals keep a combat unit on a hex without Technocrat units (15.2)
    for k in range(1, MAX_PIECES):
        kind = o["piece_kind"][k]
        if kind == NO_PIECE or kind == PLATFORM or o["piece_controller"][k] != ZIEGLER:
            continue
        if not _z_threatened(o, wc, k):
            continue
        g = -1
        for i in range(MAX_PIECE_CELLS):
            c = o["piece_cells"][k, i]
            if c < 0 or wc[C_ENCNT, c] > 0:
                continue
            for u in range(MAX_UNITS):
                if (_side_of(o, u, me) == me and o["unit_cell"][u] == c
                        and wu[U_ROLE, u] == ROLE_FREE and _att(o, u) > 0):
                    if g < 0 or _def(o, u) > _def(o, g):
                        g = u
        if g >= 0:
            wu[U_ROLE, g] = ROLE_STAY
            wu[U_TGT, g] = o["unit_cell"][g]
    # carry out the fortress moves first
    su = o["sel_unit"]
    if su >= 0 and wu[U_ROLE, su] == ROLE_MOVE:
        a = _step_to(o, mask, bp, su, wu[U_SLOT, su], wu[U_TGT, su])
        if a >= 0:
            return a
    for u in range(MAX_UNITS):
        if wu[U_ROLE, u] == ROLE_MOVE and o["unit_cell"][u] != wu[U_TGT, u]:
            a = _step_to(o, mask, bp, u, wu[U_SLOT, u], wu[U_TGT, u])
            if a >= 0:
                return a
    if SPLIT and su >= 0 and o["unit_type"][su] == Z_INFANTRY and mask[A_SPLIT]:
        c = o["unit_cell"][su]
        if o["board"][c] == 0 and wc[C_ENCNT, c] == 0 and _room(o, wc, c) > 0:
            return A_SPLIT
    if su >= 0 and (wu[U_ROLE, su] == ROLE_MOVE or wu[U_ROLE, su] == ROLE_STAY) and mask[A_END_PIECE]:
        return A_END_PIECE
    # 4. attacks
    a = _plan_attacks(o, me, mask, wc, wu, bd, bp, bk, 0, 0)
    if a >= 0:
        return a
    su = o["sel_unit"]
    if su >= 0 and wu[U_ROLE, su] == ROLE_ATTACK and mask[A_END_PIECE]:
        return A_END_PIECE
    # 5. the rest close in on the Central Crustal (the fortress first)
    for pass_ in range(2):
        for u in range(MAX_UNITS):
            if pass_ == 0 and u != su:
                continue
            if wu[U_ROLE, u] != ROLE_FREE or _side_of(o, u, me) != me:
                continue
            mv = _moves_left(o, u)
            if mv <= 0:
                continue
            src = o["unit_cell"][u]
            sl = _unit_bfs(o, wc, bd, bp, bk, src, mv, 0)
            if sl < 0:
                continue
            best = src
            bests = -10 * DCEN[src]
            ksrc = o["board"][src]
            if ksrc > 0 and o["piece_kind"][ksrc] == PLATFORM:
                bests -= 100
            for x in range(NC):
                dx = bd[sl, x]
                if dx <= 0:
                    continue
                kx = o["board"][x]
                sc = -10 * DCEN[x] - dx
                if kx > 0 and o["piece_kind"][kx] == PLATFORM:
                    sc -= 100
                if x == fort and wc[C_MYCNT, fort] < limit:
                    sc += 30
                if sc > bests:
                    bests = sc
                    best = x
            if best != src:
                a = _step_to(o, mask, bp, u, sl, best)
                if a >= 0:
                    return a
            elif o["sel_unit"] == u and mask[A_END_PIECE]:
                return A_END_PIECE
    # 6. 9.1: more counters in a Central Crustal hex leave less room for attackers
    if SPLIT:
        a = _z_split(o, mask, wc)
        if a >= 0:
            return a
    return A_END_PHASE


@jit
def _z_split(o, mask, wc):
    """Split the largest infantry counter of a Ziegler-held Central Crustal
    hex with fewer counters than the limit (10.0); -1 if none."""
    su = o["sel_unit"]
    if su >= 0 and o["unit_type"][su] == Z_INFANTRY:
        c = o["unit_cell"][su]
        if (o["board"][c] == 0 and wc[C_ENCNT, c] == 0 and wc[C_MYCNT, c] < _side_limit(o, c)
                and mask[A_SPLIT]):
            return A_SPLIT
    for i in range(CENTRAL_CELLS.shape[0]):
        c = CENTRAL_CELLS[i]
        if wc[C_ENCNT, c] > 0 or wc[C_MYCNT, c] == 0 or _room(o, wc, c) <= 0:
            continue
        best = -1
        for u in range(MAX_UNITS):
            if (o["unit_type"][u] == Z_INFANTRY and o["unit_cell"][u] == c and o["unit_squads"][u] >= 2
                    and mask[A_SELECT_UNIT + u]):
                if best < 0 or o["unit_squads"][u] > o["unit_squads"][best]:
                    best = u
        if best >= 0:
            return A_SELECT_UNIT + best
    if su >= 0 and mask[A_END_PIECE]:
        return A_END_PIECE
    return -1


@jit
def _z_second(o, mask, wc, bd, bp, bk):
    """13.3, D17: hovercraft strike hexes of engineers only."""
    me = ZIEGLER
    su = o["sel_unit"]
    for pass_ in range(2):
        for u in range(MAX_UNITS):
            if pass_ == 0 and u != su:
                continue
            if o["unit_type"][u] != Z_HOVERCRAFT:
                continue
            mv = _moves_left(o, u)
            if mv <= 0:
                continue
            src = o["unit_cell"][u]
            # a neighbouring enemy hex the mask lets it enter holds engineers only
            for d in range(6):
                x = NEIGHBOUR[src, d]
                if x >= 0 and wc[C_ENCNT, x] > 0:
                    if o["sel_unit"] == u:
                        if mask[A_MANEUVER + d]:
                            return A_MANEUVER + d
                    elif mask[A_SELECT_UNIT + u]:
                        # select it only if it may strike: its step is legal once selected
                        if wc[C_ENCNT, x] == wc[C_ENENG, x]:
                            return A_SELECT_UNIT + u
            sl = _unit_bfs(o, wc, bd, bp, bk, src, mv, 1)
            if sl < 0:
                continue
            best = -1
            for x in range(NC):
                dx = bd[sl, x]
                if dx <= 0 or wc[C_ENCNT, x] == 0:
                    continue
                # known engineers only (9.5: a single counter whose type shows)
                if wc[C_ENCNT, x] != wc[C_ENENG, x]:
                    continue
                if best < 0 or dx < bd[sl, best]:
                    best = x
            if best >= 0:
                a = _step_to(o, mask, bp, u, sl, best)
                if a >= 0:
                    return a
            if o["sel_unit"] == u and mask[A_END_PIECE]:
                return A_END_PIECE
    return A_END_PHASE


# ------------------------------------------------------------------ entry points


@jit
def _combat_choice(mask):
    """12.7: any order; the combats in unit order."""
    for u in range(MAX_UNITS):
        if mask[A_SELECT_UNIT + u]:
            return A_SELECT_UNIT + u
    return -1


@jit
def _loss_choice(o, mask):
    """D22 losses="owner": the counter that loses the squad.  The plan keeps
    every counter in play: the squad comes from the largest counter (a
    one-squad counter only when nothing larger is there), so that the side
    keeps as many counters as it can for blocking and stacking; D15's
    automatic rule takes it from the smallest instead."""
    best = -1
    for u in range(MAX_UNITS):
        if mask[A_SELECT_UNIT + u] and (best < 0 or o["unit_squads"][u] > o["unit_squads"][best]):
            best = u
    return A_SELECT_UNIT + best if best >= 0 else -1


@jit
def scripted_decide(o, mask, side, rng, slot, wc, wu, bd, bp, bk, mo):
    """The scripted action of ``side`` on its information state ``o`` with the
    legal actions ``mask``.  Reads nothing but ``o`` and ``mask``; ``rng[slot]``
    is used by the set-up plan (its seeded variety, ``scripted_setup``) and
    otherwise only if the heuristics find nothing legal to do."""
    p = o["phase"]
    if p == PHASE_OVER:
        return -1
    if is_setup_phase(p):  # 3.2, 3.3, D21: the deployment plan
        return setup_decide(o, mask, side, rng, slot)
    if o["loss_side"] >= 0:  # D22 losses="owner": this side names the counter
        return _loss_choice(o, mask)
    bk[NSLOT, 0] = 0
    _cell_info(o, side, wc)
    turn = int(o["turn"])
    last = int(o["rules"]["platform_turns"])
    a = -1
    if side == ZIEGLER:
        if p == PHASE_Z_CRUSTAL:
            a = _z_crustal(o, mask, wc, mo)
        elif p == PHASE_Z_MOVE:
            a = _z_move(o, mask, wc, wu, bd, bp, bk)
        elif p == PHASE_Z_COMBAT:
            a = _combat_choice(mask)
        elif p == PHASE_Z_SECOND:
            a = _z_second(o, mask, wc, bd, bp, bk)
    else:
        if p == PHASE_T_CRUSTAL:
            a = _t_crustal(o, mask, wc, mo, turn, last)
        elif p == PHASE_T_MOVE:
            a = _t_move(o, mask, wc, wu, bd, bp, bk, turn, last)
        elif p == PHASE_T_COMBAT:
            a = _combat_choice(mask)
        elif p == PHASE_CONTROL:
            a = _t_control(o, mask)
    if a >= 0 and a < NUM_ACTIONS and mask[a]:
        return a
    if mask[A_END_PHASE]:
        return A_END_PHASE
    if mask[A_END_PIECE]:
        return A_END_PIECE
    return random_choice(mask, rng, slot)


@jit(inline=True)
def scripted_action_buf(s, mask, rng, slot, obs, wc, wu, bd, bp, bk, mo):
    """``scripted_action`` with caller-owned buffers (``obs``: a (1,) STATE_DTYPE array)."""
    legal_action_mask(s, mask)
    side = current_player(s)  # the losing side while a loss it names is pending (D22)
    if side < 0:
        return -1
    observe(s, side, True, obs[0])
    return scripted_decide(obs[0], mask, side, rng, slot, wc, wu, bd, bp, bk, mo)


@jit(inline=True)
def scripted_action(s, mask, rng, slot):
    """The scripted action for the player to move in ``s`` (fills ``mask``).

    Honest (D20): the decision sees only ``observe(s, side, fog=True)`` and the
    legal mask."""
    obs = np.empty(1, dtype=STATE_DTYPE)
    wc, wu, bd, bp, bk, mo = _new_work()
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
