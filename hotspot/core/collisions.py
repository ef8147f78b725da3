"""Collisions (7.0, D9): zones of contact and the damage rolls they cause.

7.1: every crustal, the Central Crustal and every attack platform exerts a
zone of contact into each adjacent molten hex.  D9: when a piece moves, each
hex it newly enters is checked against every other piece adjacent to that
hex; each such pair is one collision, and each collision is one roll on the
Crustal Damage Chart for the mover and one for the other piece (14.3).
7.5: platform against platform is never a collision; the Central Crustal
never takes damage.
"""
import numpy as np

from ._jit import jit
from .damage import damage_roll
from .events import EV_COLLISION, log_event
from .hexgrid import NEIGHBOUR
from .rules_data import CHART_CRUSTAL_DAMAGE, PLATFORM


@jit
def pieces_in_contact(s, k, cell, out):
    """Fill ``out`` with the distinct pieces other than ``k`` whose zone of
    contact holds ``cell`` (7.1), leaving out platforms when ``k`` is a
    platform (7.5).  Returns how many."""
    n = 0
    mover_platform = s["piece_kind"][k] == PLATFORM
    for d in range(6):
        nb = NEIGHBOUR[cell, d]
        if nb < 0:
            continue
        j = s["board"][nb]
        if j < 0 or j == k:
            continue
        if mover_platform and s["piece_kind"][j] == PLATFORM:
            continue
        seen = False
        for i in range(n):
            if out[i] == j:
                seen = True
        if not seen:
            out[n] = j
            n += 1
    return n


@jit
def collide_entering(s, k, cell, ev, ev_n):
    """All collisions of piece k newly entering ``cell`` (7.2, D9); the rolls
    are made at once (14.3).  Returns the number of collisions."""
    others = np.empty(6, dtype=np.int64)
    n = pieces_in_contact(s, k, cell, others)
    for i in range(n):
        j = others[i]
        log_event(ev, ev_n, EV_COLLISION, k, j, cell, 0, 0)
        damage_roll(s, k, CHART_CRUSTAL_DAMAGE, ev, ev_n)
        damage_roll(s, j, CHART_CRUSTAL_DAMAGE, ev, ev_n)
    return n
