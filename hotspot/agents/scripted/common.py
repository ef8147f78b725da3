"""What every phase of the scripted player shares: its scratch buffers, what
it reads off the information state hex by hex (``cell_info``), and the
actions that select a unit or piece and move it.

The rules come from the core: a unit's side as the observer sees it
(``units.side_seen_by``: a hidden counter is the enemy's, D20), its factors
(``units.attack_of``, ``units.defense_of``, ``units.type_factor``), the
stacking limits (``stacking.room_left``, 9.1, 9.2).  What is the player's
own is its estimate of what it cannot see (``estimate``).
"""

from __future__ import annotations

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import A_END_PIECE, A_MANEUVER, A_SELECT_PIECE, A_SELECT_UNIT
from hotspot.core.hexgrid import CENTRAL_COL, CENTRAL_ROW, DISTANCE_TO_CENTRAL, DISTANCE_TO_EDGE, NUM_CELLS, cell_of
from hotspot.core.rules_data import MAX_PIECE_CELLS, NO_UNIT, T_ENGINEER, UNIT_IS_INFANTRY, UNKNOWN_SQUADS, UNKNOWN_UNIT
from hotspot.core.stacking import room_left
from hotspot.core.state import MAX_UNITS, UF_DONE
from hotspot.core.units import attack_of, defense_of, side_seen_by, type_factor

NC = NUM_CELLS

# hexes from the Central Crustal (0 on it) and steps to the nearest off-map hex
DCEN = DISTANCE_TO_CENTRAL
DEDGE = DISTANCE_TO_EDGE
CENTRE_CELL = cell_of(CENTRAL_COL, CENTRAL_ROW)
NEG = -(1 << 40)  # a score below every real one

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
C_ENTOP = 8  # type of the top enemy counter (UNKNOWN_UNIT unknown, 0 none)
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
C_INFO_CELLS = 19  # the cells whose info rows the last cell_info wrote, -1 ends the list
NC_ROWS = 20

# rows of the per-unit int64 buffer ``wu``
U_ROLE = 0
U_TGT = 1
U_SLOT = 2
U_LIST = 3  # scratch list of units, in index order (t_move's guards, then plan_attacks' attackers)
NU_ROWS = 4

ROLE_FREE = 0
ROLE_STAY = 1  # guard, fortress or blocker that stays where it is
ROLE_MOVE = 2  # moves to U_TGT (guard, fortress, blocker, reinforcement)
ROLE_ATTACK = 3  # attacks the hex U_TGT
ROLE_ENG = 4  # engineer (moves to U_TGT, or stays)

NSLOT = 40  # cached unit BFS trees per decision
# columns of ``bk``, one row a tree slot: 0-2 the tree's key (source, steps,
# enter_enemy), BK_COUNT how many cells it reached (-1: the slot was never
# used), BK_CELLS on those cells in increasing order (so that a scan of them
# meets the cells in the order a scan of the whole map would)
BK_COUNT = 3
BK_CELLS = 4

# options (module constants, fixed at compile time)
RAM = False  # Ziegler: ram loaded platforms with crustals that carry no units (measured: no gain)
GATHER = True  # Ziegler: crustals carrying Ziegler units sail to the Central Crustal
SPLIT = True  # Ziegler: split infantry on the Central Crustal up to the stacking limit


@jit
def new_work():
    """Fresh scratch buffers ``(wc, wu, bd, bp, bk, mo)`` of ``scripted_decide``."""
    wc = np.zeros((NC_ROWS, NC), dtype=np.int64)
    wc[C_INFO_CELLS, 0] = -1  # cell_info has written no cell yet
    return (
        wc,
        np.zeros((NU_ROWS, MAX_UNITS), dtype=np.int64),
        np.empty((NSLOT, NC), dtype=np.int16),  # a tree's rows are set before they are read
        np.empty((NSLOT, NC), dtype=np.int16),
        _new_tree_keys(),
        np.zeros((2, MAX_PIECE_CELLS), dtype=np.int64),
    )


@jit
def _new_tree_keys():
    bk = np.zeros((NSLOT + 1, BK_CELLS + NC), dtype=np.int16)
    for i in range(NSLOT):
        bk[i, BK_COUNT] = -1
    return bk


@jit
def no_work():
    """Buffers of ``new_work``'s types holding nothing: where a compiled loop
    that may run the scripted player runs another policy."""
    return (
        np.zeros((NC_ROWS, 0), dtype=np.int64),
        np.zeros((NU_ROWS, 0), dtype=np.int64),
        np.zeros((0, 0), dtype=np.int16),
        np.zeros((0, 0), dtype=np.int16),
        np.zeros((0, 0), dtype=np.int16),
        np.zeros((2, 0), dtype=np.int64),
    )


def make_work():
    """Fresh scratch buffers for :func:`scripted_decide` (reuse them between calls)."""
    return new_work()


# ------------------------------------------------------------------ reading the information state


@jit
def estimate(o, u, defense):
    """Defense (or attack) of an enemy counter, estimated where hidden (9.5,
    D20): an unknown counter counts as two factors, an infantry counter of
    unknown size as two squads (counters hold 1-3 squads, 10.0)."""
    t = o["unit_type"][u]
    if t == UNKNOWN_UNIT:
        return 2
    sq = int(o["unit_squads"][u])
    if sq == UNKNOWN_SQUADS:
        sq = 2 if UNIT_IS_INFANTRY[t] else 1
    return type_factor(o, t, defense) * sq


@jit
def room(o, wc, c):
    """Room for how many more of my counters in cell c (9.1, 9.2)."""
    return room_left(o, c, wc[C_MYCNT, c], wc[C_TOT, c])


@jit
def moves_left(o, u):
    if o["unit_flags"][u] & UF_DONE:
        return 0
    return int(o["unit_moves"][u])


@jit
def cell_info(o, me, wc):
    """Rows ``C_MYCNT`` .. ``C_ENENG`` of ``wc``: what ``me`` sees in each hex.

    Only this function writes those rows, and only in hexes holding units:
    it clears the hexes its last call wrote (row ``C_INFO_CELLS``) instead
    of the whole map."""
    written = wc[C_INFO_CELLS]
    for i in range(NC):
        c = written[i]
        if c < 0:
            break
        for r in range(C_INFO_ROWS):
            wc[r, c] = 0
    n = 0
    for u in range(MAX_UNITS):
        t = o["unit_type"][u]
        if t == NO_UNIT:
            continue
        c = o["unit_cell"][u]
        if c < 0:
            continue
        if wc[C_TOT, c] == 0:
            written[n] = c
            n += 1
        wc[C_TOT, c] += 1
        if side_seen_by(o, u, me) == me:
            wc[C_MYCNT, c] += 1
            wc[C_MYDEF, c] += defense_of(o, u)
            wc[C_MYATT, c] += attack_of(o, u)
            if t == T_ENGINEER:
                wc[C_MYENG, c] += o["unit_squads"][u]
        else:
            if wc[C_ENCNT, c] == 0:
                wc[C_ENTOP, c] = t  # the top counter (R9.5: lowest index)
            wc[C_ENCNT, c] += 1
            wc[C_ENDEF, c] += estimate(o, u, True)
            wc[C_ENATT, c] += estimate(o, u, False)
            if t == T_ENGINEER:
                wc[C_ENENG, c] += 1
    written[n] = -1  # at most MAX_UNITS (96) hexes hold units, fewer than NC


@jit
def piece_count(o, wc, k, row):
    """Sum of row ``row`` of ``wc`` over the hexes of piece k."""
    n = 0
    for i in range(MAX_PIECE_CELLS):
        c = o["piece_cells"][k, i]
        if c >= 0:
            n += wc[row, c]
    return n


@jit
def piece_min_dcen(o, k):
    """Hexes between the Central Crustal and the nearest hex of piece k."""
    best = 99
    for i in range(MAX_PIECE_CELLS):
        c = o["piece_cells"][k, i]
        if c >= 0 and DCEN[c] < best:
            best = DCEN[c]
    return best


# ------------------------------------------------------------------ actions


@jit
def unit_action(o, mask, u, d):
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
def piece_action(o, mask, k, m):
    """The next action that makes maneuver m with piece k (select it first)."""
    if o["sel_piece"] == k:
        a = A_MANEUVER + m
        if mask[a]:
            return a
        if mask[A_END_PIECE]:
            return A_END_PIECE
        return -1
    a = A_SELECT_PIECE + k
    return a if mask[a] else -1
