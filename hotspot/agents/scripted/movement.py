"""Movement phases of the scripted player: the Ziegler's (B, and D: the
hovercraft's second movement) and the Technocrat's (F).

Each side first gives its units roles (the Technocrat's engineers and their
guards, the Ziegler's fortress and the guards of threatened crustals), then
plans its attacks (``combat.attack_step``, one planner for both), then moves
every unit left free with ``move_rest`` (one mover for both; the sides
differ in where a free unit is best placed, ``rest_score``).
"""

from __future__ import annotations

from hotspot.core._jit import jit
from hotspot.core.actions import A_COMBINE, A_END_PHASE, A_END_PIECE, A_MANEUVER, A_SELECT_UNIT, A_SPLIT
from hotspot.core.breakdowns import can_combine
from hotspot.core.hexgrid import CENTRAL_CELLS, NEIGHBOUR
from hotspot.core.rules_data import (
    MAX_PIECE_CELLS,
    NO_PIECE,
    PLATFORM,
    T_ENGINEER,
    T_INFANTRY,
    TECHNOCRAT,
    Z_HOVERCRAFT,
    Z_INFANTRY,
    ZIEGLER,
)
from hotspot.core.stacking import side_limit
from hotspot.core.state import MAX_PIECES, MAX_UNITS
from hotspot.core.units import attack_of, defense_of, side_seen_by

from .combat import attack_step
from .common import (
    C_ENCNT,
    C_ENENG,
    C_GREACH,
    C_MYCNT,
    C_MYDEF,
    C_MYENG,
    CENTRE_CELL,
    DCEN,
    NC,
    NEG,
    ROLE_ENG,
    ROLE_FREE,
    ROLE_MOVE,
    ROLE_STAY,
    SPLIT,
    U_LIST,
    U_ROLE,
    U_SLOT,
    U_TGT,
    moves_left,
    piece_count,
    room,
)
from .paths import step_to, tree_cell, tree_size, unit_bfs

# ------------------------------------------------------------------ both sides


@jit
def rest_stay_score(o, wc, me, src, on_platform, turn, last):
    """How good it is for a free unit of ``me`` to stay in hex ``src``."""
    if me == TECHNOCRAT:
        if on_platform and turn >= last:
            return -100000
        if on_platform:
            return 0
        return 5 * wc[C_MYENG, src] - DCEN[src]
    v = -10 * DCEN[src]
    if on_platform:
        v -= 100
    return v


@jit
def rest_score(o, wc, me, x, dx, on_platform, turn, last, fort, limit):
    """How good it is for a free unit of ``me`` to move ``dx`` steps to hex
    ``x`` (NEG: not there).  Technocrat: off the platforms on their last
    turn (14.5), next to its engineers, closer to the Central Crustal; a
    unit aboard a platform stays aboard unless a Central Crustal hex is
    free.  Ziegler: closer to the Central Crustal, into the fortress while
    it has room."""
    kx = o["board"][x]
    if me == TECHNOCRAT:
        if kx > 0 and o["piece_kind"][kx] == PLATFORM:
            if turn >= last:
                return NEG
            sc = -5 - DCEN[x]
        else:
            sc = 10 - DCEN[x]
            if wc[C_MYENG, x] > 0:
                sc += 5 if wc[C_MYDEF, x] < 9 else 1
        if on_platform and turn < last:
            if kx != 0:
                return NEG
            sc += 5
        return sc
    sc = -10 * DCEN[x] - dx
    if kx > 0 and o["piece_kind"][kx] == PLATFORM:
        sc -= 100
    if x == fort and wc[C_MYCNT, fort] < limit:
        sc += 30
    return sc


@jit
def move_rest(o, mask, wc, wu, bd, bp, bk, me, turn, last, fort, limit):
    """The units of ``me`` left free (no role, no attack) move to the best hex
    they can reach this phase (``rest_score``), the selected unit first.
    Returns the next action, or -1 when none moves."""
    su = o["sel_unit"]
    for pass_ in range(2):
        for u in range(MAX_UNITS):
            if pass_ == 0 and u != su:
                continue
            if wu[U_ROLE, u] != ROLE_FREE or side_seen_by(o, u, me) != me:
                continue
            mv = moves_left(o, u)
            if mv <= 0:
                continue
            src = o["unit_cell"][u]
            sl = unit_bfs(o, wc, bd, bp, bk, src, mv, 0)
            if sl < 0:
                continue
            ksrc = o["board"][src]
            on_platform = ksrc > 0 and o["piece_kind"][ksrc] == PLATFORM
            best = src
            bests = rest_stay_score(o, wc, me, src, on_platform, turn, last)
            for i in range(tree_size(bk, sl)):
                x = tree_cell(bk, sl, i)
                dx = bd[sl, x]
                if dx <= 0:
                    continue
                sc = rest_score(o, wc, me, x, dx, on_platform, turn, last, fort, limit)
                if sc > bests:
                    bests = sc
                    best = x
            if best != src:
                a = step_to(o, mask, bp, u, sl, best)
                if a >= 0:
                    return a
            elif o["sel_unit"] == u and mask[A_END_PIECE]:
                return A_END_PIECE
    return -1


# ------------------------------------------------------------------ Technocrat (F)


@jit
def eng_base(o, wc, x, turn, last):
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
    elif piece_count(o, wc, k, C_ENCNT) == 0:
        v = 75
    else:
        v = 25
    return v - 3 * DCEN[x]


@jit
def t_combine(o, mask, wc):
    """10.0: Technocrat infantry in one hex joins up into three-squad counters
    (9.1: the hex limits counters, not squads; ``breakdowns.can_combine``: at
    most three squads, no enemy in the hex, D22's counter cap), with a
    counter that can still move.  Returns the action or -1."""
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
            if can_combine(o, u, v) and moves_left(o, v) > 0:
                return A_SELECT_UNIT + u
    return -1


@jit
def t_move(o, mask, wc, wu, bd, bp, bk, turn, last):  # noqa: C901 (the scripted Technocrat's movement roles in priority order, compiled)
    """Phase F: combine infantry, engineers and their guards, attacks, the rest."""
    me = TECHNOCRAT
    a = t_combine(o, mask, wc)
    if a >= 0:
        return a
    for u in range(MAX_UNITS):
        wu[U_ROLE, u] = ROLE_FREE
        wu[U_TGT, u] = -1
        wu[U_SLOT, u] = -1
        c = o["unit_cell"][u]
        if c >= 0 and side_seen_by(o, u, me) == me and wc[C_ENCNT, c] > 0:
            # it attacks there; an overrunning unit (11.1) that left would face a
            # Close Infantry Assault (11.2)
            wu[U_ROLE, u] = ROLE_STAY
            wu[U_TGT, u] = c
    su = o["sel_unit"]
    if su >= 0 and wu[U_ROLE, su] == ROLE_STAY and mask[A_END_PIECE]:
        return A_END_PIECE
    # where free guards (units with a defense factor) can get to; the side's
    # units other than engineers, in index order (every guard scan below)
    greach = wc[C_GREACH]
    for c in range(NC):
        greach[c] = 0
    guards = wu[U_LIST]
    ng = 0
    for u in range(MAX_UNITS):
        if side_seen_by(o, u, me) != me or o["unit_type"][u] == T_ENGINEER:
            continue
        guards[ng] = u
        ng += 1
        df = defense_of(o, u)
        if df <= 0:
            continue
        mv = moves_left(o, u)
        c0 = o["unit_cell"][u]
        if df > greach[c0]:
            greach[c0] = df
        if mv <= 0:
            continue
        sl = unit_bfs(o, wc, bd, bp, bk, c0, mv, 0)
        if sl < 0:
            continue
        for i in range(tree_size(bk, sl)):
            x = tree_cell(bk, sl, i)
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
        mv = moves_left(o, u)
        dest = src
        if mv > 0:
            sl = unit_bfs(o, wc, bd, bp, bk, src, mv, 0)
            wu[U_SLOT, u] = sl
            if sl >= 0:
                bests = -10000000
                for i in range(tree_size(bk, sl)):
                    x = tree_cell(bk, sl, i)
                    dx = bd[sl, x]
                    if dx < 0:
                        continue
                    sc = eng_base(o, wc, x, turn, last) * 10
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
        for i in range(ng):
            v = guards[i]
            if o["unit_cell"][v] == dest and (wu[U_ROLE, v] == ROLE_STAY or wu[U_ROLE, v] == ROLE_MOVE):
                g = v  # already guarded by another engineer's guard
                break
        if g < 0:
            for i in range(ng):
                v = guards[i]
                if wu[U_ROLE, v] == ROLE_MOVE and wu[U_TGT, v] == dest:
                    g = v
                    break
        if g < 0:
            # the guard that costs the attacks least: low attack, then high defense
            gk = 1000000
            for i in range(ng):
                v = guards[i]
                if wu[U_ROLE, v] != ROLE_FREE or defense_of(o, v) <= 0:
                    continue
                key = 10 * attack_of(o, v) - defense_of(o, v)
                if o["unit_cell"][v] == dest and key < gk:
                    g = v
                    gk = key
            if g >= 0:
                wu[U_ROLE, g] = ROLE_STAY
                wu[U_TGT, g] = dest
        if g < 0 and dest != src:
            # a free guard that can reach dest
            for i in range(ng):
                v = guards[i]
                if wu[U_ROLE, v] != ROLE_FREE:
                    continue
                mvv = moves_left(o, v)
                dv = defense_of(o, v)
                if mvv <= 0 or dv <= gd:
                    continue
                slv = unit_bfs(o, wc, bd, bp, bk, o["unit_cell"][v], mvv, 0)
                if slv >= 0 and bd[slv, dest] > 0:
                    g = v
                    gd = dv
            if g >= 0:
                wu[U_ROLE, g] = ROLE_MOVE
                wu[U_TGT, g] = dest
                wu[U_SLOT, g] = unit_bfs(o, wc, bd, bp, bk, o["unit_cell"][g], moves_left(o, g), 0)
        if act < 0 and dest != src:
            if g >= 0 and o["unit_cell"][g] != dest:
                # the guard goes first (unless the engineer is already under way)
                if o["sel_unit"] == u:
                    act = step_to(o, mask, bp, u, wu[U_SLOT, u], dest)
                else:
                    act = step_to(o, mask, bp, g, wu[U_SLOT, g], dest)
            else:
                act = step_to(o, mask, bp, u, wu[U_SLOT, u], dest)
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
            a = step_to(o, mask, bp, su, wu[U_SLOT, su], wu[U_TGT, su])
            if a >= 0:
                return a
    # 2. attacks
    a = attack_step(o, me, mask, wc, wu, bd, bp, bk)
    if a >= 0:
        return a
    # 3. the rest: off the platforms on their last turn, join engineers, close in
    a = move_rest(o, mask, wc, wu, bd, bp, bk, me, turn, last, -1, 0)
    if a >= 0:
        return a
    return A_END_PHASE


# ------------------------------------------------------------------ Ziegler (B, D)


@jit
def z_fortress(o, wc):
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
def z_threatened(o, wc, k):
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
def z_move(o, mask, wc, wu, bd, bp, bk):  # noqa: C901 (the scripted Ziegler's movement roles in priority order, compiled)
    """Phase B: the fortress, the guards of threatened crustals, attacks, the
    rest towards the Central Crustal, infantry split there."""
    me = ZIEGLER
    for u in range(MAX_UNITS):
        wu[U_ROLE, u] = ROLE_FREE
        wu[U_TGT, u] = -1
        wu[U_SLOT, u] = -1
    fort = z_fortress(o, wc)
    limit = 0
    if fort >= 0:
        limit = int(side_limit(o, fort))
        rm = room(o, wc, fort)
        # 1. the fortress: its units stay, the other Central Crustal units join it
        for u in range(MAX_UNITS):
            if side_seen_by(o, u, me) == me and o["unit_cell"][u] == fort:
                wu[U_ROLE, u] = ROLE_STAY
                wu[U_TGT, u] = fort
        for u in range(MAX_UNITS):
            if rm <= 0:
                break
            if side_seen_by(o, u, me) != me or wu[U_ROLE, u] != ROLE_FREE:
                continue
            c = o["unit_cell"][u]
            if o["board"][c] != 0 or wc[C_ENCNT, c] > 0:
                continue
            mv = moves_left(o, u)
            if mv <= 0:
                continue
            sl = unit_bfs(o, wc, bd, bp, bk, c, mv, 0)
            if sl >= 0 and bd[sl, fort] > 0:
                wu[U_ROLE, u] = ROLE_MOVE
                wu[U_TGT, u] = fort
                wu[U_SLOT, u] = sl
                rm -= 1
    # 2. the other Central Crustal units hold their hexes
    for u in range(MAX_UNITS):
        if side_seen_by(o, u, me) == me and wu[U_ROLE, u] == ROLE_FREE:
            c = o["unit_cell"][u]
            if o["board"][c] == 0 and wc[C_ENCNT, c] == 0:
                wu[U_ROLE, u] = ROLE_STAY
                wu[U_TGT, u] = c
    # 3. threatened crustals keep a combat unit on a hex without Technocrat units (15.2)
    for k in range(1, MAX_PIECES):
        kind = o["piece_kind"][k]
        if kind == NO_PIECE or kind == PLATFORM or o["piece_controller"][k] != ZIEGLER:
            continue
        if not z_threatened(o, wc, k):
            continue
        g = -1
        for i in range(MAX_PIECE_CELLS):
            c = o["piece_cells"][k, i]
            if c < 0 or wc[C_ENCNT, c] > 0:
                continue
            for u in range(MAX_UNITS):
                if (
                    side_seen_by(o, u, me) == me
                    and o["unit_cell"][u] == c
                    and wu[U_ROLE, u] == ROLE_FREE
                    and attack_of(o, u) > 0
                ):
                    if g < 0 or defense_of(o, u) > defense_of(o, g):
                        g = u
        if g >= 0:
            wu[U_ROLE, g] = ROLE_STAY
            wu[U_TGT, g] = o["unit_cell"][g]
    # carry out the fortress moves first
    su = o["sel_unit"]
    if su >= 0 and wu[U_ROLE, su] == ROLE_MOVE:
        a = step_to(o, mask, bp, su, wu[U_SLOT, su], wu[U_TGT, su])
        if a >= 0:
            return a
    for u in range(MAX_UNITS):
        if wu[U_ROLE, u] == ROLE_MOVE and o["unit_cell"][u] != wu[U_TGT, u]:
            a = step_to(o, mask, bp, u, wu[U_SLOT, u], wu[U_TGT, u])
            if a >= 0:
                return a
    if SPLIT and su >= 0 and o["unit_type"][su] == Z_INFANTRY and mask[A_SPLIT]:
        c = o["unit_cell"][su]
        if o["board"][c] == 0 and wc[C_ENCNT, c] == 0 and room(o, wc, c) > 0:
            return A_SPLIT
    if su >= 0 and (wu[U_ROLE, su] == ROLE_MOVE or wu[U_ROLE, su] == ROLE_STAY) and mask[A_END_PIECE]:
        return A_END_PIECE
    # 4. attacks
    a = attack_step(o, me, mask, wc, wu, bd, bp, bk)
    if a >= 0:
        return a
    # 5. the rest close in on the Central Crustal (the fortress first)
    a = move_rest(o, mask, wc, wu, bd, bp, bk, me, 0, 0, fort, limit)
    if a >= 0:
        return a
    # 6. 9.1: more counters in a Central Crustal hex leave less room for attackers
    if SPLIT:
        a = z_split(o, mask, wc)
        if a >= 0:
            return a
    return A_END_PHASE


@jit
def z_split(o, mask, wc):
    """Split the largest infantry counter of a Ziegler-held Central Crustal
    hex with fewer counters than the limit (10.0); -1 if none."""
    su = o["sel_unit"]
    if su >= 0 and o["unit_type"][su] == Z_INFANTRY:
        c = o["unit_cell"][su]
        if o["board"][c] == 0 and wc[C_ENCNT, c] == 0 and wc[C_MYCNT, c] < side_limit(o, c) and mask[A_SPLIT]:
            return A_SPLIT
    for i in range(CENTRAL_CELLS.shape[0]):
        c = CENTRAL_CELLS[i]
        if wc[C_ENCNT, c] > 0 or wc[C_MYCNT, c] == 0 or room(o, wc, c) <= 0:
            continue
        best = -1
        for u in range(MAX_UNITS):
            if (
                o["unit_type"][u] == Z_INFANTRY
                and o["unit_cell"][u] == c
                and o["unit_squads"][u] >= 2
                and mask[A_SELECT_UNIT + u]
            ):
                if best < 0 or o["unit_squads"][u] > o["unit_squads"][best]:
                    best = u
        if best >= 0:
            return A_SELECT_UNIT + best
    if su >= 0 and mask[A_END_PIECE]:
        return A_END_PIECE
    return -1


@jit
def z_second(o, mask, wc, bd, bp, bk):
    """Phase D (13.3, D17): hovercraft strike hexes of engineers only."""
    su = o["sel_unit"]
    for pass_ in range(2):
        for u in range(MAX_UNITS):
            if pass_ == 0 and u != su:
                continue
            if o["unit_type"][u] != Z_HOVERCRAFT:
                continue
            mv = moves_left(o, u)
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
            sl = unit_bfs(o, wc, bd, bp, bk, src, mv, 1)
            if sl < 0:
                continue
            best = -1
            for i in range(tree_size(bk, sl)):
                x = tree_cell(bk, sl, i)
                dx = bd[sl, x]
                if dx <= 0 or wc[C_ENCNT, x] == 0:
                    continue
                # known engineers only (9.5: a single counter whose type shows)
                if wc[C_ENCNT, x] != wc[C_ENENG, x]:
                    continue
                if best < 0 or dx < bd[sl, best]:
                    best = x
            if best >= 0:
                a = step_to(o, mask, bp, u, sl, best)
                if a >= 0:
                    return a
            if o["sel_unit"] == u and mask[A_END_PIECE]:
                return A_END_PIECE
    return A_END_PHASE
