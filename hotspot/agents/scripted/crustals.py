"""Crustal movement phases of the scripted player: the Ziegler's (A) and the
Technocrat's (E, attack platforms and controlled crustals)."""

from __future__ import annotations

from hotspot.core._jit import jit
from hotspot.core.actions import A_END_PHASE, A_END_PIECE, A_SELECT_PIECE
from hotspot.core.hexgrid import NEIGHBOUR, ON_MAP
from hotspot.core.rules_data import NO_PIECE, ONE_HEX, PLATFORM, TECHNOCRAT
from hotspot.core.state import MAX_PIECES, PF_DONE

from .common import (
    C_CLAIM,
    C_ENATT,
    C_ENCNT,
    C_LIST,
    C_LIST2,
    C_MYCNT,
    C_MYDEF,
    C_MYENG,
    C_PDIST,
    DCEN,
    GATHER,
    NC,
    RAM,
    piece_action,
    piece_count,
)
from .paths import GOAL_OFF_MAP, crustal_to_central, maneuver_action, one_hex_towards, piece_bfs, piece_first_dir

# ------------------------------------------------------------------ Technocrat (E)


@jit
def landing_value(o, wc, L, k, eng, turn, last):
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
    elif piece_count(o, wc, j, C_ENCNT) == 0:
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
def t_platform_target(o, wc, k, turn, last):
    """The dock platform k heads for (-1 none); computes the piece BFS."""
    src = o["piece_cells"][k, 0]
    piece_bfs(o, wc, k, src, False)
    dist = wc[C_PDIST]
    moves = int(o["piece_moves"][k])
    if o["piece_flags"][k] & PF_DONE:
        moves = 0
    pmove = int(o["rules"]["platform_move"])
    eng = piece_count(o, wc, k, C_MYENG) > 0
    # each land hex's landing value, asked of up to six docks: worked out on
    # first asking, for an arrival before the platforms' last turn
    # (C_LIST) and on it (C_LIST2, where only the engineers' rule differs)
    early = wc[C_LIST]
    late = wc[C_LIST2]
    for c in range(NC):
        early[c] = -1
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
                if early[L] < 0:
                    early[L] = landing_value(o, wc, L, k, eng, last - 1, last)
                    late[L] = landing_value(o, wc, L, k, eng, last, last)
                lv = early[L] if turn + extra < last else late[L]
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
def t_crustal(o, mask, wc, mo, turn, last):
    """Phase E: loaded platforms sail to docks, controlled crustals carrying
    units towards the Central Crustal."""
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
                if piece_count(o, wc, k, C_MYCNT) == 0:
                    continue
                src = o["piece_cells"][k, 0]
                if not can:
                    wc[C_CLAIM, src] = 1
                    continue
                x = t_platform_target(o, wc, k, turn, last)
                if x < 0 or x == src:
                    wc[C_CLAIM, src] = 1
                    if o["sel_piece"] == k and mask[A_END_PIECE]:
                        return A_END_PIECE
                    continue
                wc[C_CLAIM, x] = 1
                d = piece_first_dir(wc, src, x)
                if d >= 0:
                    a = piece_action(o, mask, k, d)
                    if a >= 0:
                        return a
            elif can and o["piece_controller"][k] == me:
                if piece_count(o, wc, k, C_MYCNT) == 0:
                    continue
                a = crustal_to_central(o, mask, wc, mo, k)
                if a >= 0:
                    return a
    return A_END_PHASE


# ------------------------------------------------------------------ Ziegler (A)


@jit
def z_ram(o, mask, wc, k):
    """``RAM``: one-hex crustal k without units heads for a hex next to a
    loaded platform within its movement this phase (7.1, 14.3); -1 if none."""
    src = o["piece_cells"][k, 0]
    piece_bfs(o, wc, k, src, False)
    dist = wc[C_PDIST]
    best = -1
    for x in range(NC):
        if dist[x] <= 0 or dist[x] > o["piece_moves"][k]:
            continue
        for d in range(6):
            y = NEIGHBOUR[x, d]
            if y >= 0:
                j = o["board"][y]
                if (
                    j > 0
                    and o["piece_kind"][j] == PLATFORM
                    and wc[C_ENCNT, y] > 0
                    and (best < 0 or dist[x] < dist[best])
                ):
                    best = x
    if best >= 0:
        d = piece_first_dir(wc, src, best)
        if d >= 0:
            return piece_action(o, mask, k, d)
    return -1


@jit
def z_crustal(o, mask, wc, mo):
    """Phase A: dump crustals the Technocrat is taking, gather the others."""
    for pass_ in range(2):
        for k in range(1, MAX_PIECES):
            if pass_ == 0 and k != o["sel_piece"]:
                continue
            if pass_ == 1 and k == o["sel_piece"]:
                continue
            if not (mask[A_SELECT_PIECE + k] or o["sel_piece"] == k):
                continue
            tc = piece_count(o, wc, k, C_ENCNT)
            zdef = piece_count(o, wc, k, C_MYDEF)
            tatt = piece_count(o, wc, k, C_ENATT)
            kind = o["piece_kind"][k]
            if tc > 0 and zdef * 2 < tatt:
                # dump it: off the map with everything on it (6.9, 14.4)
                if kind == ONE_HEX:
                    a = one_hex_towards(o, mask, wc, k, GOAL_OFF_MAP)
                    if a >= 0:
                        return a
                a = maneuver_action(o, mask, k, mo, 1)
                if a >= 0:
                    return a
            elif GATHER and tc == 0 and piece_count(o, wc, k, C_MYCNT) > 0:
                # bring its units within a step of the Central Crustal (15.5)
                a = crustal_to_central(o, mask, wc, mo, k)
                if a >= 0:
                    return a
                continue
            elif RAM and kind == ONE_HEX and tc == 0 and piece_count(o, wc, k, C_MYCNT) == 0:
                a = z_ram(o, mask, wc, k)
                if a >= 0:
                    return a
            if o["sel_piece"] == k and mask[A_END_PIECE]:
                return A_END_PIECE
    return A_END_PHASE
