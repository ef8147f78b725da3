"""Collisions (7.0, D9): zones of contact and the damage rolls they cause.

7.1: every crustal, the Central Crustal and every attack platform exerts a
zone of contact into each adjacent molten hex.  D9: when a piece moves, each
hex it newly enters is checked against every other piece adjacent to that
hex; each such pair is one collision, and each collision is one roll on the
Crustal Damage Chart for the mover and one for the other piece (14.3).
7.5: platform against platform is never a collision; the Central Crustal
never takes damage.

Rules option ``collision_count`` (D22; rule 7.2 against 7.6 example 5):

* ``"per_pair"`` (default, D9): for each hex newly entered, one collision per
  other piece whose zone of contact holds it.  The mover rolls once per
  collision, the other piece once.  7.6 example 5 (a one-hex crustal enters
  a hex in the zones of two two-hex crustals): two collisions, two rolls for
  the mover, one for each two-hex crustal.
* ``"per_hex"`` (7.2 read literally: "one collision ... for every hex in
  which a crustal ... has moved adjacent to another crustal ..., or to more
  than one"): a hex newly entered that lies in at least one zone of contact
  is one collision however many pieces' zones hold it.  14.3 ("a die is
  rolled for each collision hex for each crustal ... involved"): the mover
  rolls once for that hex, and each other piece whose zone holds it rolls
  once.  Example 5 becomes one collision, one roll for the mover and one for
  each two-hex crustal.  The readings differ only for a hex in the zones of
  two or more other pieces; hexes are counted one by one in both (7.6
  example 2: two hexes entered in one crustal's zone are two collisions).
"""

import numpy as np

from ._jit import jit
from .damage import damage_roll
from .events import EV_COLLISION, log_event
from .hexgrid import NEIGHBOUR
from .rules_data import CHART_CRUSTAL_DAMAGE, COLLISIONS_PER_HEX, PLATFORM


@jit
def _contact_with(s, k, mover_platform, nb):
    """The piece on cell ``nb`` whose zone of contact meets piece k in a hex
    next to ``nb`` (7.1; not k itself, no platform when k is one, 7.5), or -1."""
    if nb < 0:
        return -1
    j = s["board"][nb]
    if j < 0 or j == k:
        return -1
    if mover_platform and s["piece_kind"][j] == PLATFORM:
        return -1
    return j


@jit
def in_zone_of_contact(s, k, cell):
    """7.1, 7.5: is ``cell`` in the zone of contact of a piece other than k
    (``pieces_in_contact`` would find one)?  Safe on information states
    (pieces are seen by both sides)."""
    mover_platform = s["piece_kind"][k] == PLATFORM
    for d in range(6):
        if _contact_with(s, k, mover_platform, NEIGHBOUR[cell, d]) >= 0:
            return True
    return False


@jit
def pieces_in_contact(s, k, cell, out):
    """Fill ``out`` with the distinct pieces other than ``k`` whose zone of
    contact holds ``cell`` (7.1), leaving out platforms when ``k`` is a
    platform (7.5).  Returns how many."""
    n = 0
    mover_platform = s["piece_kind"][k] == PLATFORM
    for d in range(6):
        j = _contact_with(s, k, mover_platform, NEIGHBOUR[cell, d])
        if j < 0:
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
    are made at once (14.3).  Returns the number of collisions.

    One ``collision`` event is logged per other piece involved.  Under
    ``collision_count="per_pair"`` (D9) each is a collision: the mover's roll
    and the other piece's follow it.  Under ``"per_hex"`` (7.2) they are one
    collision: the mover rolls once, after the first, and each other piece
    once, after its own (D22)."""
    if not in_zone_of_contact(s, k, cell):  # no piece in contact: no allocation
        return 0
    others = np.empty(6, dtype=np.int64)
    n = pieces_in_contact(s, k, cell, others)
    per_hex = s["rules"]["collision_count"] == COLLISIONS_PER_HEX
    for i in range(n):
        j = others[i]
        log_event(ev, ev_n, EV_COLLISION, k, j, cell, 0, 0)
        if i == 0 or not per_hex:
            damage_roll(s, k, CHART_CRUSTAL_DAMAGE, ev, ev_n)
        damage_roll(s, j, CHART_CRUSTAL_DAMAGE, ev, ev_n)
    if per_hex and n > 0:
        return 1
    return n
