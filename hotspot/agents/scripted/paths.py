"""Paths of the scripted player: breadth-first trees of unit moves (cached
per decision), paths of one-hex pieces around zones of contact, and a
look-ahead of up to three maneuvers for the other crustals.

The geometry is the core's: where a maneuver takes a piece is
``crustal_movement.maneuver_geometry`` (the cells ``maneuver_cells`` gives
for a piece, asked here of positions the piece has not reached yet), zones
of contact are ``collisions.in_zone_of_contact`` (7.1, 7.5), steps are
``hexgrid.direction_between``.
"""

from __future__ import annotations

import numpy as np

from hotspot.core._jit import borrowed, jit
from hotspot.core.actions import A_END_PIECE, A_MANEUVER
from hotspot.core.collisions import in_zone_of_contact
from hotspot.core.crustal_movement import M_FORWARD, NUM_MANEUVERS, maneuver_geometry
from hotspot.core.hexgrid import NEIGHBOUR, ON_MAP, direction_between
from hotspot.core.observation import keep_alive
from hotspot.core.rules_data import LONG, MAX_PIECE_CELLS, ONE_HEX, TRIANGULAR, TWO_HEX

from .common import (
    BK_CELLS,
    BK_COUNT,
    C_ENCNT,
    C_PDIST,
    C_PPAR,
    C_QUEUE,
    DCEN,
    DEDGE,
    NC,
    NSLOT,
    piece_action,
    piece_min_dcen,
    room,
    unit_action,
)

# ------------------------------------------------------------------ unit paths


@jit
def unit_bfs(o, wc, bd, bp, bk, src, maxd, enter_enemy):
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
    last = bk[n, BK_COUNT]
    if last < 0:
        for c in range(NC):
            dist[c] = -1
    else:  # only the cells the slot's last tree reached are not -1
        for i in range(last):
            dist[bk[n, BK_CELLS + i]] = -1
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
            if room(o, wc, x) <= 0:
                continue
            dist[x] = dc + 1
            par[x] = c
            queue[tail] = x
            tail += 1
    # the reached cells in increasing order (insertion sort: a few dozen cells)
    for i in range(tail):
        x = queue[i]
        j = i
        while j > 0 and bk[n, BK_CELLS + j - 1] > x:
            bk[n, BK_CELLS + j] = bk[n, BK_CELLS + j - 1]
            j -= 1
        bk[n, BK_CELLS + j] = x
    bk[n, BK_COUNT] = tail
    return n


@jit
def tree_size(bk, sl):
    """How many cells tree ``sl`` reached (``tree_cell(bk, sl, i)`` for i below it)."""
    return bk[sl, BK_COUNT]


@jit
def tree_cell(bk, sl, i):
    """The i-th cell, in increasing order, that tree ``sl`` reached."""
    return bk[sl, BK_CELLS + i]


@jit
def first_step(bp, sl, src, x):
    """Direction of the first step on the tree path from ``src`` to ``x``."""
    c = x
    for _ in range(NC):
        p = bp[sl, c]
        if p == src:
            return direction_between(src, c)
        if p < 0:
            return -1
        c = p
    return -1


@jit
def step_to(o, mask, bp, u, sl, x):
    """The next action that takes unit u along tree ``sl`` to ``x`` (-1 none)."""
    src = o["unit_cell"][u]
    if x == src:
        if o["sel_unit"] == u and mask[A_END_PIECE]:
            return A_END_PIECE
        return -1
    d = first_step(bp, sl, src, x)
    if d < 0:
        return -1
    return unit_action(o, mask, u, d)


# ------------------------------------------------------------------ piece paths


@jit
def piece_bfs(o, wc, k, src, allow_off_map):
    """Paths of one-hex piece (or platform) k over free molten hexes; a hex in
    a zone of contact (a collision, 7.3) ends a path.  Fills C_PDIST / C_PPAR."""
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
        if c != src and (in_zone_of_contact(o, k, c) or not ON_MAP[c]):
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
def piece_first_dir(wc, src, x):
    """Direction of the first step on the piece path from ``src`` to ``x``."""
    par = wc[C_PPAR]
    c = x
    for _ in range(NC):
        p = par[c]
        if p == src:
            return direction_between(src, c)
        if p < 0:
            return -1
        c = p
    return -1


GOAL_NEXT_TO_CENTRAL = 0  # a hex on the map next to the Central Crustal
GOAL_OFF_MAP = 1  # a hex off the map (6.9: the piece leaves play)


@jit
def one_hex_towards(o, mask, wc, k, goal):
    """One-hex piece k: the first action on the shortest path (around zones of
    contact) to the nearest hex of ``goal``; -2 if no such hex is reachable,
    -1 if one is but the action is not legal now."""
    src = o["piece_cells"][k, 0]
    piece_bfs(o, wc, k, src, goal == GOAL_OFF_MAP)
    dist = wc[C_PDIST]
    best = -1
    for x in range(NC):
        if dist[x] <= 0:
            continue
        if goal == GOAL_OFF_MAP:
            ok = not ON_MAP[x]
        else:
            ok = ON_MAP[x] and DCEN[x] == 1
        if ok and (best < 0 or dist[x] < dist[best]):
            best = x
    if best < 0:
        return -2
    d = piece_first_dir(wc, src, best)
    if d >= 0:
        return piece_action(o, mask, k, d)
    return -1


# ------------------------------------------------------------------ maneuver look-ahead


@jit
def geom(kind, c0, c1, c2, m, out):
    """Where maneuver m takes a piece of ``kind`` on cells (c0, c1, c2)
    (``crustal_movement.maneuver_geometry``, movement left assumed): fills
    ``out[i]`` with the cells after each sub-step and returns the number of
    sub-steps (0: not a maneuver of such a piece).  Legality is the mask's
    business; this only guides the choice."""
    if c0 < 0:
        for i in range(2):
            for j in range(MAX_PIECE_CELLS):
                out[i, j] = -1
        return 0
    n, a0, a1, a2, b0, b1, b2 = maneuver_geometry(kind, c0, c1, c2, True, m)
    out[0, 0] = a0
    out[0, 1] = a1
    out[0, 2] = a2
    out[1, 0] = b0
    out[1, 1] = b1
    out[1, 2] = b2
    return n


@jit
def geom_final(o, k, size, n, m, out, first):
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
                if i == 0 or m != M_FORWARD or not first:
                    return -1
                return 0
    return last


@jit
def pos_score(o, k, out, row, size, mode):
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
def score_bound(o, out, row, size, mode, steps):
    """An upper bound of ``pos_score`` after ``steps`` more maneuvers from the
    position in row ``row`` of ``out``.  A maneuver moves each hex of a piece
    at most two hexes (6.4-6.6: a forward move two straight ahead, a turn or
    rotation to another neighbour of a hex the piece keeps), and the distances
    to the Central Crustal and to the edge change by at most one a hex, so
    the piece's nearest hex comes at most two closer a maneuver.  The
    look-ahead skips what cannot beat its best so far: the same choice,
    fewer positions tried."""
    reach = 2 * steps
    dmin = 99
    edge = 99
    for j in range(size):
        c = out[row, j]
        if DCEN[c] < dmin:
            dmin = DCEN[c]
        if DEDGE[c] < edge:
            edge = DEDGE[c]
    if mode == 0:
        return -10 * max(dmin - reach, 0)
    if edge > reach:
        return -10 * (edge - reach)  # no hex can reach the edge: none off the map
    return 100 * size


@jit
def new_contacts(o, k, out, row, size):
    """Collisions (7.1, D9) on the hexes of a new position that k does not hold now."""
    n = 0
    for j in range(size):
        c = out[row, j]
        was = False
        for q in range(size):
            if o["piece_cells"][k, q] == c:
                was = True
        if not was and in_zone_of_contact(o, k, c):
            n += 1
    return n


@jit
def best_maneuver(o, mask, k, mo, mode):  # noqa: C901 (every maneuver (6.3-6.7) scored in one compiled pass)
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
    # the positions after 0-3 maneuvers; used through a view without
    # reference counts, the array kept alive to every return (keep_alive)
    positions = np.empty((4, MAX_PIECE_CELLS), dtype=np.int64)
    lv = borrowed(positions)
    for j in range(MAX_PIECE_CELLS):
        lv[0, j] = o["piece_cells"][k, j]
    now = pos_score(o, k, lv, 0, size, mode)
    if mode == 0 and now >= -10:
        return keep_alive(positions, -1)  # already next to the Central Crustal
    best = -1
    bestv = now
    depth = 1 if kind == ONE_HEX else 3
    for m1 in range(NUM_MANEUVERS):
        if o["sel_piece"] == k and not mask[A_MANEUVER + m1]:
            continue
        n1 = geom(kind, lv[0, 0], lv[0, 1], lv[0, 2], m1, mo)
        if n1 == 0:
            continue
        r1 = geom_final(o, k, size, n1, m1, mo, True)
        if r1 < 0:
            continue
        for j in range(MAX_PIECE_CELLS):
            lv[1, j] = mo[r1, j]
        s1 = pos_score(o, k, lv, 1, size, mode)
        if s1 <= -1000000:
            continue
        v = s1 - 1 - 2 * new_contacts(o, k, lv, 1, size)
        if v > bestv:
            bestv = v
            best = m1
        if depth < 2 or (mode == 0 and s1 >= -10):
            continue
        if max(score_bound(o, lv, 1, size, mode, 1) - 4, score_bound(o, lv, 1, size, mode, 2) - 7) <= bestv:
            continue
        for m2 in range(NUM_MANEUVERS):
            n2 = geom(kind, lv[1, 0], lv[1, 1], lv[1, 2], m2, mo)
            if n2 == 0:
                continue
            r2 = geom_final(o, k, size, n2, m2, mo, False)
            if r2 < 0:
                continue
            for j in range(MAX_PIECE_CELLS):
                lv[2, j] = mo[r2, j]
            s2 = pos_score(o, k, lv, 2, size, mode)
            if s2 <= -1000000:
                continue
            if s2 - 4 > bestv:
                bestv = s2 - 4
                best = m1
            if mode == 0 and s2 >= -10:
                continue
            if score_bound(o, lv, 2, size, mode, 1) - 7 <= bestv:
                continue
            for m3 in range(NUM_MANEUVERS):
                n3 = geom(kind, lv[2, 0], lv[2, 1], lv[2, 2], m3, mo)
                if n3 == 0:
                    continue
                r3 = geom_final(o, k, size, n3, m3, mo, False)
                if r3 < 0:
                    continue
                for j in range(MAX_PIECE_CELLS):
                    lv[3, j] = mo[r3, j]
                s3 = pos_score(o, k, lv, 3, size, mode)
                if s3 - 7 > bestv:
                    bestv = s3 - 7
                    best = m1
    return keep_alive(positions, best)


@jit
def maneuver_action(o, mask, k, mo, mode):
    """The action of the best maneuver of piece k (``best_maneuver``), or -1."""
    m = best_maneuver(o, mask, k, mo, mode)
    if m >= 0:
        return piece_action(o, mask, k, m)
    return -1


@jit
def crustal_to_central(o, mask, wc, mo, k):
    """Move crustal k (selected or selectable) towards the Central Crustal,
    never off the map; stops next to it.  Returns the action or -1."""
    kind = o["piece_kind"][k]
    if kind == ONE_HEX:
        if DCEN[o["piece_cells"][k, 0]] > 1:
            a = one_hex_towards(o, mask, wc, k, GOAL_NEXT_TO_CENTRAL)
            if a == -2:  # no path around the zones of contact
                a = maneuver_action(o, mask, k, mo, 0)
            if a >= 0:
                return a
    elif piece_min_dcen(o, k) > 1:
        a = maneuver_action(o, mask, k, mo, 0)
        if a >= 0:
            return a
    if o["sel_piece"] == k and mask[A_END_PIECE]:
        return A_END_PIECE
    return -1
