"""Attacks of the scripted player: planned in the movement phases (B, F) by
one greedy planner for both sides (the sides differ only in what a target is
worth and the odds they accept), resolved in the combat phases (C, G) in
unit order, and the counter that loses a squad (D22 ``losses="owner"``).
Odds are the core's (``combat.odds_column``), factors ``units.attack_of``."""

from __future__ import annotations

from hotspot.core._jit import jit
from hotspot.core.actions import A_END_PIECE, A_SELECT_UNIT
from hotspot.core.combat import odds_column
from hotspot.core.hexgrid import ON_MAP
from hotspot.core.rules_data import PLATFORM, T_ENGINEER, TECHNOCRAT
from hotspot.core.state import MAX_UNITS
from hotspot.core.units import attack_of, side_seen_by

from .common import (
    C_ENCNT,
    C_ENDEF,
    C_ENENG,
    C_ENTOP,
    C_LIST,
    C_LIST2,
    C_MYATT,
    C_MYENG,
    C_TGT,
    C_TGV,
    DCEN,
    NC,
    ROLE_ATTACK,
    ROLE_FREE,
    U_LIST,
    U_ROLE,
    U_SLOT,
    U_TGT,
    moves_left,
    piece_count,
    room,
)
from .paths import step_to, unit_bfs


@jit
def t_target_value(o, wc, c):
    """Technocrat: how much taking hex c is worth (0: not a target)."""
    k = o["board"][c]
    if k < 0 or not ON_MAP[c]:
        return 0
    if k == 0:
        return 100  # 15.5: every Ziegler combat unit must leave the Central Crustal
    if o["piece_kind"][k] == PLATFORM:
        return 80
    v = 40 - 5 * DCEN[c]
    if piece_count(o, wc, k, C_MYENG) > 0:
        v = 90  # Ziegler units on a crustal my engineers stand on block control (15.2)
    if v < 10:
        v = 10
    return v


@jit
def z_target_value(o, wc, c):
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
def plan_attacks(o, me, mask, wc, wu, bd, bp, bk):  # noqa: C901 (the scripted attack planner, case by case (12.0), compiled)
    """Greedy attack plan over the targets, best value first; marks attackers
    ROLE_ATTACK with their target and returns the next action that carries
    it out (-1 when every planned attacker is in place)."""
    tg = wc[C_TGT]
    tv = wc[C_TGV]
    ntg = 0
    for c in range(NC):
        if wc[C_ENCNT, c] > 0 and o["board"][c] >= 0 and ON_MAP[c]:
            if me == TECHNOCRAT:
                v = t_target_value(o, wc, c)
            else:
                v = z_target_value(o, wc, c)
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
    # BFS trees of the free attackers, listed in index order
    attackers = wu[U_LIST]
    nat = 0
    for u in range(MAX_UNITS):
        wu[U_SLOT, u] = -1
        if wu[U_ROLE, u] != ROLE_FREE or side_seen_by(o, u, me) != me:
            continue
        mv = moves_left(o, u)
        if mv <= 0 or attack_of(o, u) <= 0:
            continue
        wu[U_SLOT, u] = unit_bfs(o, wc, bd, bp, bk, o["unit_cell"][u], mv, 1)
        if wu[U_SLOT, u] >= 0:
            attackers[nat] = u
            nat += 1
    cand = wc[C_LIST]
    chosen = wc[C_LIST2]
    for ti in range(ntg):
        t = tg[ti]
        de = wc[C_ENDEF, t]
        committed = wc[C_MYATT, t]
        rm = room(o, wc, t)
        nc = 0
        for j in range(nat):
            u = attackers[j]
            sl = wu[U_SLOT, u]
            if wu[U_ROLE, u] != ROLE_FREE:
                continue
            dd = bd[sl, t]
            if dd <= 0 or dd > moves_left(o, u):
                continue
            # by attack, strongest first
            a = attack_of(o, u)
            i = nc
            while i > 0 and attack_of(o, cand[i - 1]) < a:
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
            if acc >= need or na >= rm:
                break
            chosen[na] = cand[i]
            acc += attack_of(o, cand[i])
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
                a2 = acc - attack_of(o, u)
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
        a = step_to(o, mask, bp, su, wu[U_SLOT, su], wu[U_TGT, su])
        if a >= 0:
            return a
    for ti in range(ntg):
        t = tg[ti]
        for u in range(MAX_UNITS):
            if wu[U_ROLE, u] == ROLE_ATTACK and wu[U_TGT, u] == t and o["unit_cell"][u] != t:
                a = step_to(o, mask, bp, u, wu[U_SLOT, u], t)
                if a >= 0:
                    return a
    return -1


@jit
def attack_step(o, me, mask, wc, wu, bd, bp, bk):
    """The attacks of the movement phase (B, F): the next action of the plan,
    or the end of a selected attacker's move once it has arrived (an
    overrunning unit keeps movement, 11.1); -1 when the plan is carried out."""
    a = plan_attacks(o, me, mask, wc, wu, bd, bp, bk)
    if a >= 0:
        return a
    su = o["sel_unit"]
    if su >= 0 and wu[U_ROLE, su] == ROLE_ATTACK and mask[A_END_PIECE]:
        return A_END_PIECE
    return -1


@jit
def combat_choice(mask):
    """12.7: any order; the combats in unit order (phases C, G)."""
    for u in range(MAX_UNITS):
        if mask[A_SELECT_UNIT + u]:
            return A_SELECT_UNIT + u
    return -1


@jit
def loss_choice(o, mask):
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
