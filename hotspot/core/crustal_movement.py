"""Crustal and attack platform movement (6.0) with collisions (7.0).

A selected piece makes one *maneuver* per action:

====================  =========================================================
maneuver              pieces and rule
====================  =========================================================
STEP d (0..5)         one-hex crustal (6.3, one hex per action, up to 3; 6.10
                      and D11: 1 on turn 1), attack platform (6.7, up to 4),
                      triangular crustal shifts one hex (6.5a)
FORWARD               two-hex and long crustal, two hexes straight ahead
                      (6.4a, 6.6a); stops after one on a collision (7.3)
TURN_LEFT / RIGHT     two-hex crustal: front one hex forward, rear swings into
                      a hex adjacent to the old and new front (6.4b); after a
                      collision of the front hex the rear still swings by
                      default (7.3), or not (example six of 7.6): D10
ROTATE p cw / ccw     triangular: 120 degrees about its hex in slot p (6.5b,
                      D8); long: 60 degrees about its centre, slot 1 (6.6b)
====================  =========================================================

6.2/6.8: every hex a piece enters must be molten (or its own); 7.3: a
collision ends the piece's movement for the phase.  A FORWARD move whose
second hex is occupied starts and collides on its first hex (R6.8), or is
refused under the rules option ``forward_into_blocked="refuse"`` (D22).
6.9/D3: off-map hexes may be entered; a piece wholly off the map leaves play
at once.
"""

import numpy as np

from ._jit import jit
from .collisions import collide_entering
from .events import EV_PIECE_MOVE, log_event
from .hexgrid import NEIGHBOUR
from .pieces import facing_of, relocate
from .rules_data import (
    FORWARD_REFUSE,
    LONG,
    MAX_PIECE_CELLS,
    NO_PIECE,
    NUM_PIECE_KINDS,
    ONE_HEX,
    PLATFORM,
    TRIANGULAR,
    TWO_HEX,
)
from .state import PF_DONE, PF_STARTED

M_STEP = 0  # + direction 0..5
M_FORWARD = 6
M_TURN_LEFT = 7
M_TURN_RIGHT = 8
M_ROTATE = 9  # + 2 * pivot slot + (0 clockwise, 1 counter-clockwise)
NUM_MANEUVERS = 15

#: the maneuvers each piece kind has (6.3-6.7), by kind: ``maneuver_geometry``
#: gives no move for any other (tests/test_fast_legality.py holds the two
#: equal), so ``can_move_piece`` and the legal set try only these
KIND_MANEUVERS = np.zeros((NUM_PIECE_KINDS, NUM_MANEUVERS), dtype=np.bool_)
KIND_MANEUVERS[ONE_HEX, M_STEP : M_STEP + 6] = True  # 6.3
KIND_MANEUVERS[PLATFORM, M_STEP : M_STEP + 6] = True  # 6.7
KIND_MANEUVERS[TRIANGULAR, M_STEP : M_STEP + 6] = True  # 6.5a
KIND_MANEUVERS[TRIANGULAR, M_ROTATE:NUM_MANEUVERS] = True  # 6.5b, D8
KIND_MANEUVERS[TWO_HEX, M_FORWARD : M_TURN_RIGHT + 1] = True  # 6.4
KIND_MANEUVERS[LONG, M_FORWARD] = True  # 6.6a
KIND_MANEUVERS[LONG, M_ROTATE + 2 : M_ROTATE + 4] = True  # 6.6b


@jit
def rotated_about(pivot, cell, turn):
    """The cell adjacent to ``pivot`` in the direction of ``cell`` turned by ``turn`` sixths."""
    for d in range(6):
        if NEIGHBOUR[pivot, d] == cell:
            return NEIGHBOUR[pivot, (d + turn) % 6]
    return -1


@jit
def maneuver_cells(s, k, m):
    """Where maneuver ``m`` takes piece ``k``, as a tuple ``(n, a0, a1, a2,
    b0, b1, b2)``: the number of sub-steps (0 if the maneuver is not one this
    piece can make) and the cells, slot for slot, after the first (a) and
    second (b) sub-step (-1 unused).  A tuple, so that the legality checks
    allocate nothing."""
    return maneuver_geometry(
        s["piece_kind"][k],
        s["piece_cells"][k, 0],
        s["piece_cells"][k, 1],
        s["piece_cells"][k, 2],
        s["piece_moves"][k] > 0,
        m,
    )


@jit
def maneuver_geometry(kind, c0, c1, c2, can_step, m):
    """``maneuver_cells`` of a piece of ``kind`` on cells (c0, c1, c2) in slot
    order, wherever it stands (a planner may ask about positions it has not
    reached); ``can_step``: a one-hex crustal or platform has movement left."""
    if kind == ONE_HEX or kind == PLATFORM:
        if m < 6 and can_step:
            return 1, NEIGHBOUR[c0, m], -1, -1, -1, -1, -1
        return 0, -1, -1, -1, -1, -1, -1
    if kind == TRIANGULAR:
        if m < 6:  # 6.5a: one hex in any direction, shape kept
            return 1, NEIGHBOUR[c0, m], NEIGHBOUR[c1, m], NEIGHBOUR[c2, m], -1, -1, -1
        if m >= M_ROTATE:  # 6.5b, D8: the pivot stays, the other two turn 120 degrees about it
            p = (m - M_ROTATE) // 2
            turn = 2 if (m - M_ROTATE) % 2 == 0 else 4
            if p == 0:
                return 1, c0, rotated_about(c0, c1, turn), rotated_about(c0, c2, turn), -1, -1, -1
            if p == 1:
                return 1, rotated_about(c1, c0, turn), c1, rotated_about(c1, c2, turn), -1, -1, -1
            return 1, rotated_about(c2, c0, turn), rotated_about(c2, c1, turn), c2, -1, -1, -1
        return 0, -1, -1, -1, -1, -1, -1
    if kind == TWO_HEX or kind == LONG:
        d = facing_of(c0, c1)
        if d < 0:
            return 0, -1, -1, -1, -1, -1, -1
        ahead = NEIGHBOUR[c0, d]
        if ahead < 0:
            return 0, -1, -1, -1, -1, -1, -1
        if m == M_FORWARD:  # 6.4a, 6.6a: two hexes straight ahead, one after the other
            if kind == LONG:
                return 2, ahead, c0, c1, NEIGHBOUR[ahead, d], ahead, c0
            return 2, ahead, c0, -1, NEIGHBOUR[ahead, d], ahead, -1
        if kind == TWO_HEX and (m == M_TURN_LEFT or m == M_TURN_RIGHT):  # 6.4b
            side = 1 if m == M_TURN_LEFT else 5
            # the front moves one hex forward, then the rear swings beside the old front
            return 2, ahead, c0, -1, ahead, NEIGHBOUR[c0, (d + side) % 6], -1
        if kind == LONG and (m == M_ROTATE + 2 or m == M_ROTATE + 3):  # 6.6b: about the centre
            turn = 1 if m == M_ROTATE + 2 else 5
            return 1, rotated_about(c1, c0, turn), c1, rotated_about(c1, c2, turn), -1, -1, -1
    return 0, -1, -1, -1, -1, -1, -1


@jit
def _free(s, k, c, slot):
    """6.2, 6.8: ``c``, the new cell of ``slot``, is inside the playable area and molten or k's own."""
    if c == -1 and s["piece_cells"][k, slot] == -1:
        return True
    if c < 0:
        return False
    b = s["board"][c]
    return b < 0 or b == k


@jit
def _free_for(s, k, a0, a1, a2):
    return _free(s, k, a0, 0) and _free(s, k, a1, 1) and _free(s, k, a2, 2)


@jit
def maneuver_legal(s, k, m):
    """True if piece k may make maneuver m now (geometry and free hexes)."""
    n, a0, a1, a2, b0, b1, b2 = maneuver_cells(s, k, m)
    if n == 0 or not _free_for(s, k, a0, a1, a2):
        return False
    if n == 2 and not _free_for(s, k, b0, b1, b2):
        # a turn needs its swing hex free (6.2, 6.8).  6.8 and the rules
        # option forward_into_blocked (D22): a FORWARD move whose second hex
        # is not free either starts and collides on its first hex, where the
        # occupant's zone of contact stops it (7.3, R6.8; "collide", the
        # default), or is refused like any move into an occupied hex
        # ("refuse").  The legal mask and step both ask this function.
        if m != M_FORWARD or s["rules"]["forward_into_blocked"] == FORWARD_REFUSE:
            return False
    return True


@jit
def can_move_piece(s, k):
    """Has piece k a legal maneuver now?"""
    kind = s["piece_kind"][k]
    for m in range(NUM_MANEUVERS):
        if KIND_MANEUVERS[kind, m] and maneuver_legal(s, k, m):
            return True
    return False


@jit
def make_maneuver(s, k, m, ev, ev_n):
    """Carry out maneuver m of piece k (legality checked by the caller)."""
    n, a0, a1, a2, b0, b1, b2 = maneuver_cells(s, k, m)
    kind = s["piece_kind"][k]
    s["piece_flags"][k] |= PF_STARTED
    log_event(ev, ev_n, EV_PIECE_MOVE, k, m, 0, 0, 0)
    collided = 0
    for i in range(n):
        if collided > 0:
            # 7.3: movement ends at a collision; D10: a two-hex crustal may still turn
            if not (kind == TWO_HEX and m != M_FORWARD and s["rules"]["two_hex_turn_after_collision"]):
                break
        cells = (int(a0), int(a1), int(a2)) if i == 0 else (int(b0), int(b1), int(b2))
        if not _free_for(s, k, cells[0], cells[1], cells[2]):
            break
        old = (int(s["piece_cells"][k, 0]), int(s["piece_cells"][k, 1]), int(s["piece_cells"][k, 2]))
        if not relocate(s, k, cells, ev, ev_n):
            return
        for j in range(MAX_PIECE_CELLS):  # D9: only hexes newly entered
            c = cells[j]
            if c >= 0 and c != old[0] and c != old[1] and c != old[2]:
                collided += collide_entering(s, k, c, ev, ev_n)
    if s["piece_kind"][k] == NO_PIECE:
        return
    if kind == ONE_HEX or kind == PLATFORM:
        s["piece_moves"][k] -= 1
        if collided > 0 or s["piece_moves"][k] <= 0:
            finish_piece(s, k)
    else:
        finish_piece(s, k)


@jit
def finish_piece(s, k):
    s["piece_flags"][k] |= PF_DONE
    s["piece_moves"][k] = 0
    if s["sel_piece"] == k:
        s["sel_piece"] = -1
