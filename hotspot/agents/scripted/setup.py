"""The scripted player's set-up (rules 3.2, 3.3, D21): a deployment plan for
each side, played one atomic set-up action at a time (SETUP_CHOOSE, then
SETUP_HEX, then SETUP_FACING for a crustal of two or three hexes).

The plan is *stateless*: every decision is re-derived from the side's
information state ``o`` (D20: the board, the force pools and what the side
sees of the other's stacks) and the legal-action mask, so it needs no memory
between calls and can only play legal actions.  Its variety comes from the
player's own generator ``rng[slot]`` (``core.dice.splitmix64``; never
the dice): each candidate hex gets a seeded random bonus, and the item to
place next is a seeded draw, so different seeds give different deployments
and the same seed the same one.

Ziegler (PHASE_Z_SETUP)
    Crustals (3.2: 18 hexes of any types) come first.  The type of each is a
    seeded draw among the legal ones (one-hex 3, two-hex 3, triangular 3,
    long 2: a mix of types).  Each goes where its hexes best *screen the
    Central Crustal*: a hex at 2-4 hexes from it scores most (1 or 5 less,
    farther is penalized), more on the short approaches (hexes whose
    distance to the centre plus distance to the map edge is small: the east
    and west, where the attack platforms start nearest), less in a sector of
    the six around the centre that already holds Ziegler crustal hexes (a
    ring, not a clump), less next to another piece (room to manoeuvre, no
    early collisions).  The facing is the best-scoring one for the chosen
    anchor.
    Units next.  Infantry comes in counters of three squads (the largest the
    mask allows: strong stacks), hovercraft interleaved by a seeded draw in
    proportion to what is left.  Infantry first holds every hex of the
    Central Crustal (15.5: the whole game), then either thickens the Central
    Crustal's thinnest stacks or garrisons a crustal that has no Ziegler
    unit yet (15.2: one Ziegler combat unit on a crustal prevents its
    capture; the garrison stands on the crustal's hex nearest the centre),
    a seeded choice between the two.  Hovercraft are the mobile reserve on
    the Central Crustal, in its thinnest stacks.  No hex gets more counters
    than the stress threshold (9.3: more than 6 counters make stress rolls)
    while another legal hex is left.

Technocrat (PHASE_T_SETUP)
    Attack platforms first (3.3: molten perimeter hexes): near the centre (the
    east and west edges are the shortest approach), where few Ziegler
    crustal hexes lie on the shortest way in (the screen; garrisoned hexes
    count twice), near Ziegler crustals at most 4 hexes from the centre that
    show no Ziegler counter (engineers landed there can take them, 15.2),
    and apart from the platforms already placed (different approaches; one
    zone of contact does not stop them all).  Measured in scripted self-play
    on ``open`` (400 games, 100 turns): avoiding the screen raises the
    Technocrat's wins from 0.85 (landing next to the screen) to about 0.90.

    Units next: the three engineer squads first, each on a different platform
    (the best-placed platforms, seeded among near equals), then the escorts
    (heavy beamers, infantry in counters of three squads, crawlers; the next
    one a seeded draw in proportion to what is left): heavy beamers to
    engineer platforms without one; infantry and crawlers first one to each
    empty platform, then to the engineer platforms with the fewest escorts
    (about two escorts ahead of the other platforms), seeded among near
    equals.  Every engineer platform so gets escorts (a unit with a defense factor,
    12.3, 13.3).  The Technocrat reads only what the information state shows
    of Ziegler stacks: their number of counters (``cell_units``).

``setup_decide(o, mask, side, rng, slot)`` is the entry point (called by
``scripted_decide`` in the set-up phases); it returns a legal action of
``mask`` (a uniformly random one only if the plan finds none).  Distances
are the core's (``hexgrid.hex_distance``, ``DISTANCE_TO_CENTRAL``), the
footprints of crustals ``core.setup.footprint``.
"""

from __future__ import annotations

import math

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import A_SETUP_CHOOSE, A_SETUP_FACING, A_SETUP_HEX
from hotspot.core.dice import splitmix64
from hotspot.core.hexgrid import (
    AXIAL_Q,
    AXIAL_R,
    CENTRAL_COL,
    CENTRAL_ROW,
    MAP_HEX_CELL,
    NEIGHBOUR,
    NUM_MAP_HEXES,
    axial,
    hex_distance,
)
from hotspot.core.pieces import is_crustal
from hotspot.core.rollout import random_choice
from hotspot.core.rules_data import (
    CENTRAL,
    ITEM_CRAWLER,
    ITEM_ENGINEER,
    ITEM_HEAVY_BEAMER,
    ITEM_HOVERCRAFT,
    ITEM_LONG,
    ITEM_ONE_HEX,
    ITEM_PIECE_KIND,
    ITEM_PLATFORM,
    ITEM_T_INFANTRY_1,
    ITEM_T_INFANTRY_3,
    ITEM_TRIANGULAR,
    ITEM_TWO_HEX,
    ITEM_UNIT_TYPE,
    ITEM_Z_INFANTRY_1,
    ITEM_Z_INFANTRY_3,
    NO_PIECE,
    ONE_HEX,
    PHASE_T_SETUP,
    PHASE_Z_SETUP,
    PLATFORM,
    POOL_T_CRAWLERS,
    POOL_T_HEAVY_BEAMERS,
    POOL_T_SQUADS,
    POOL_Z_HOVERCRAFT,
    POOL_Z_SQUADS,
    T_ENGINEER,
    T_HEAVY_BEAMER,
    TECHNOCRAT,
    UNIT_SIDE,
    Z_HOVERCRAFT,
    ZIEGLER,
)
from hotspot.core.setup import NUM_FACINGS, footprint, footprint_free
from hotspot.core.state import MAX_PIECES, MAX_UNITS

from .common import DCEN, DEDGE, NC, NEG, piece_min_dcen

# weights of the crustal types drawn by the Ziegler (one-hex, two-hex, triangular, long)
CRUSTAL_ITEMS = np.array([ITEM_ONE_HEX, ITEM_TWO_HEX, ITEM_TRIANGULAR, ITEM_LONG], dtype=np.int64)
CRUSTAL_WEIGHTS = np.array([3, 3, 3, 2], dtype=np.int64)
Z_NOISE = 60  # seeded bonus of a crustal anchor, in [0, Z_NOISE)
Z_UNIT_NOISE = 40  # seeded bonus of a hex for a Ziegler unit
T_SCREENED = 12  # penalty of a platform hex per Ziegler crustal hex screening its approach
T_NOISE = 25  # seeded bonus of a platform hex
T_UNIT_NOISE = 25  # seeded bonus of a platform for a unit


def _build_sectors():
    """SECTOR[cell]: six 60-degree sectors around the centre, sector 0 centred on the east."""
    sector = np.zeros(NC, dtype=np.int64)
    cq, cr = axial(CENTRAL_COL, CENTRAL_ROW)
    for c in range(NC):
        q, r = int(AXIAL_Q[c]), int(AXIAL_R[c])
        x = 1.5 * (q - cq)
        y = math.sqrt(3.0) * ((r - cr) + (q - cq) / 2.0)
        ang = math.degrees(math.atan2(y, x)) if (x or y) else 0.0
        sector[c] = int(math.floor((ang + 30.0) / 60.0)) % 6
    sector.setflags(write=False)
    return sector


SECTOR = _build_sectors()

# ------------------------------------------------------------------ basics


@jit
def _rand(rng, slot):
    rng[slot], z = splitmix64(rng[slot])
    return z


@jit
def _below(rng, slot, n):
    """A seeded integer in [0, n) (0 if n <= 0)."""
    if n <= 0:
        return 0
    return int(_rand(rng, slot) % np.uint64(n))


@jit
def _piece_units(o, k, side):
    """Counters of ``side`` on piece k (exact per side: ``cell_units``, seen by both)."""
    n = 0
    for i in range(3):
        c = o["piece_cells"][k, i]
        if c >= 0:
            n += o["cell_units"][c, side]
    return n


@jit
def _draw_item(mask, items, weights, rng, slot):
    """A seeded draw among the legal ``items`` in proportion to ``weights``; -1 if none is legal."""
    total = 0
    for i in range(items.shape[0]):
        if mask[A_SETUP_CHOOSE + items[i]] and weights[i] > 0:
            total += weights[i]
    if total <= 0:
        return -1
    x = _below(rng, slot, total)
    for i in range(items.shape[0]):
        if mask[A_SETUP_CHOOSE + items[i]] and weights[i] > 0:
            if x < weights[i]:
                return items[i]
            x -= weights[i]
    return -1


@jit
def _largest_legal(mask, lo, hi):
    """The legal item of the largest index in lo..hi (the biggest infantry counter), or -1."""
    for i in range(hi, lo - 1, -1):
        if mask[A_SETUP_CHOOSE + i]:
            return i
    return -1


# ------------------------------------------------------------------ Ziegler


@jit
def _z_cell_score(o, c, sector_hexes):
    """How well a crustal hex at cell c screens the Central Crustal (higher is better)."""
    d = DCEN[c]
    if d == 2 or d == 3:
        v = 40
    elif d == 4:
        v = 30
    elif d == 1 or d == 5:
        v = 10
    else:  # beyond the screen
        v = -40
    app = 14 - (d + DEDGE[c])  # on a short perimeter-to-centre approach
    if app > 0:
        v += 3 * app
    v -= 15 * sector_hexes[SECTOR[c]]
    for j in range(6):
        n = NEIGHBOUR[c, j]
        if n >= 0 and o["board"][n] > 0:  # next to another piece (not the Central Crustal)
            v -= 30
    return v


@jit
def _z_footprint_score(o, kind, anchor, f, sector_hexes):
    """Score of a crustal of ``kind`` at ``anchor`` facing ``f``; NEG if it does not fit."""
    if not footprint_free(o, kind, anchor, f):
        return NEG
    n, c0, c1, c2 = footprint(kind, anchor, f)
    v = _z_cell_score(o, c0, sector_hexes)
    if n >= 2:
        v += _z_cell_score(o, c1, sector_hexes)
    if n >= 3:
        v += _z_cell_score(o, c2, sector_hexes)
    return v


@jit
def _z_sector_hexes(o):
    """Ziegler crustal hexes in each of the six sectors, as a tuple (a value:
    asked of every footprint tried, it costs no allocation and no reference
    count)."""
    n0 = n1 = n2 = n3 = n4 = n5 = 0
    for k in range(1, MAX_PIECES):
        if is_crustal(o["piece_kind"][k]) and o["piece_controller"][k] == ZIEGLER:
            for i in range(3):
                c = o["piece_cells"][k, i]
                if c < 0:
                    continue
                s = SECTOR[c]
                if s == 0:
                    n0 += 1
                elif s == 1:
                    n1 += 1
                elif s == 2:
                    n2 += 1
                elif s == 3:
                    n3 += 1
                elif s == 4:
                    n4 += 1
                else:
                    n5 += 1
    return (n0, n1, n2, n3, n4, n5)


@jit
def _best_facing_score(o, kind, c, sector_hexes):
    """(best score, its facing) of a crustal of ``kind`` anchored at cell c."""
    best = NEG
    bf = -1
    nf = 1 if kind == ONE_HEX else NUM_FACINGS
    for f in range(nf):
        v = _z_footprint_score(o, kind, c, f, sector_hexes)
        if v > best:
            best = v
            bf = f
    return best, bf


@jit
def _z_choose(o, mask, rng, slot):
    a = _draw_item(mask, CRUSTAL_ITEMS, CRUSTAL_WEIGHTS, rng, slot)
    if a >= 0:
        return A_SETUP_CHOOSE + a
    inf = _largest_legal(mask, ITEM_Z_INFANTRY_1, ITEM_Z_INFANTRY_3)
    hov = mask[A_SETUP_CHOOSE + ITEM_HOVERCRAFT]
    if inf >= 0 and hov:
        counters_left = (int(o["pool"][POOL_Z_SQUADS]) + 2) // 3
        if _below(rng, slot, counters_left + int(o["pool"][POOL_Z_HOVERCRAFT])) < counters_left:
            return A_SETUP_CHOOSE + inf
        return A_SETUP_CHOOSE + ITEM_HOVERCRAFT
    if inf >= 0:
        return A_SETUP_CHOOSE + inf
    if hov:
        return A_SETUP_CHOOSE + ITEM_HOVERCRAFT
    return -1


@jit
def _z_unit_score(o, c, hovercraft, thr):
    """Score of cell c (a legal hex) for the next Ziegler unit."""
    n = int(o["cell_units"][c, ZIEGLER])
    k = o["board"][c]
    if n >= thr:  # 9.3: one more would put the hex over the stress threshold
        return -1000 - n
    if k == 0:  # the Central Crustal
        if hovercraft:
            return 100 - 15 * n
        if n == 0:
            return 150
        return max(0, 120 - 30 * n)
    # a crustal
    if hovercraft:
        return -100 - n
    if _piece_units(o, k, ZIEGLER) > 0:
        return -200 - n  # already garrisoned: more infantry belongs to the centre
    dk = piece_min_dcen(o, k)
    return 70 + max(0, 20 - 5 * dk) - 2 * DCEN[c]


@jit
def _z_hex(o, mask, item, rng, slot):
    kind = ITEM_PIECE_KIND[item]
    best = NEG
    ba = -1
    if kind != NO_PIECE:  # a crustal: anchor of the best footprint
        sector_hexes = _z_sector_hexes(o)
        for h in range(NUM_MAP_HEXES):
            if not mask[A_SETUP_HEX + h]:
                continue
            v, f = _best_facing_score(o, kind, MAP_HEX_CELL[h], sector_hexes)
            if f < 0:
                continue
            v += _below(rng, slot, Z_NOISE)
            if v > best:
                best = v
                ba = A_SETUP_HEX + h
        return ba
    hovercraft = ITEM_UNIT_TYPE[item] == Z_HOVERCRAFT
    thr = int(o["rules"]["stress_threshold"])
    for h in range(NUM_MAP_HEXES):
        if not mask[A_SETUP_HEX + h]:
            continue
        v = _z_unit_score(o, MAP_HEX_CELL[h], hovercraft, thr) + _below(rng, slot, Z_UNIT_NOISE)
        if v > best:
            best = v
            ba = A_SETUP_HEX + h
    return ba


@jit
def _z_facing(o, mask, item):
    kind = ITEM_PIECE_KIND[item]
    sector_hexes = _z_sector_hexes(o)
    best = NEG
    ba = -1
    for f in range(NUM_FACINGS):
        if not mask[A_SETUP_FACING + f]:
            continue
        v = _z_footprint_score(o, kind, o["setup_cell"], f, sector_hexes)
        if v > best:
            best = v
            ba = A_SETUP_FACING + f
    return ba


# ------------------------------------------------------------------ Technocrat


@jit
def _t_platform_score(o, c):
    """Score of perimeter cell c for the next attack platform (3.3)."""
    v = -8 * DCEN[c]
    for k in range(1, MAX_PIECES):
        kind = o["piece_kind"][k]
        if kind == NO_PIECE or kind == CENTRAL:
            continue
        if kind == PLATFORM:  # apart from the platforms already placed
            d = hex_distance(c, o["piece_cells"][k, 0])
            if d <= 2:
                v -= 60
            elif d <= 5:
                v -= 20
            continue
        if o["piece_controller"][k] != ZIEGLER:
            continue
        # a Ziegler crustal hex on a shortest way from c to the Central Crustal
        # screens it (twice as much with Ziegler counters on it)
        for i in range(3):
            x = o["piece_cells"][k, i]
            if x >= 0 and hex_distance(c, x) + DCEN[x] <= DCEN[c] + 1:
                v -= T_SCREENED * (2 if o["cell_units"][x, ZIEGLER] > 0 else 1)
        if piece_min_dcen(o, k) > 4 or _piece_units(o, k, ZIEGLER) > 0:
            continue
        # an unguarded crustal near the centre and the landing: engineers can take it (15.2)
        dk = 99
        for i in range(3):
            x = o["piece_cells"][k, i]
            if x >= 0:
                dk = min(dk, hex_distance(c, x))
        if dk <= 6:
            v += 4 * (6 - dk)
    return v


@jit
def _t_platform_stats(o, c):
    """(engineers, heavy beamers, other counters) of the Technocrat on the platform in cell c."""
    eng = 0
    hb = 0
    esc = 0
    for u in range(MAX_UNITS):
        t = o["unit_type"][u]
        if t <= 0 or o["unit_cell"][u] != c:
            continue
        if t == T_ENGINEER:
            eng += 1
        elif t == T_HEAVY_BEAMER:
            hb += 1
            esc += 1
        elif UNIT_SIDE[t] == TECHNOCRAT:
            esc += 1
    return eng, hb, esc


@jit
def _t_unit_score(o, c, t):
    eng, hb, esc = _t_platform_stats(o, c)
    q = -10 * DCEN[c]  # platforms nearer the centre first
    if t == T_ENGINEER:
        if eng == 0:
            return 200 + q
        return q - 100 * eng
    v = q // 4 - 20 * esc
    if eng > 0:  # engineer platforms about two escorts ahead of the others
        v += 40
        if t == T_HEAVY_BEAMER and hb == 0:
            v += 60
    elif esc == 0:  # every platform carries something (a second threat)
        v += 50
    return v


@jit
def _t_choose(o, mask, rng, slot):
    if mask[A_SETUP_CHOOSE + ITEM_PLATFORM]:
        return A_SETUP_CHOOSE + ITEM_PLATFORM
    if mask[A_SETUP_CHOOSE + ITEM_ENGINEER]:
        return A_SETUP_CHOOSE + ITEM_ENGINEER
    inf = _largest_legal(mask, ITEM_T_INFANTRY_1, ITEM_T_INFANTRY_3)
    items = np.array([ITEM_HEAVY_BEAMER, inf, ITEM_CRAWLER], dtype=np.int64)
    weights = np.array(
        [
            int(o["pool"][POOL_T_HEAVY_BEAMERS]),
            (int(o["pool"][POOL_T_SQUADS]) + 2) // 3 if inf >= 0 else 0,
            int(o["pool"][POOL_T_CRAWLERS]),
        ],
        dtype=np.int64,
    )
    if inf < 0:
        items[1] = ITEM_CRAWLER
    a = _draw_item(mask, items, weights, rng, slot)
    if a >= 0:
        return A_SETUP_CHOOSE + a
    for i in range(ITEM_ENGINEER, ITEM_HEAVY_BEAMER + 1):  # whatever is left and legal
        if mask[A_SETUP_CHOOSE + i]:
            return A_SETUP_CHOOSE + i
    if inf >= 0:
        return A_SETUP_CHOOSE + inf
    return -1


@jit
def _t_hex(o, mask, item, rng, slot):
    best = NEG
    ba = -1
    if ITEM_PIECE_KIND[item] == PLATFORM:
        for h in range(NUM_MAP_HEXES):
            if mask[A_SETUP_HEX + h]:
                v = _t_platform_score(o, MAP_HEX_CELL[h]) + _below(rng, slot, T_NOISE)
                if v > best:
                    best = v
                    ba = A_SETUP_HEX + h
        return ba
    t = ITEM_UNIT_TYPE[item]
    for h in range(NUM_MAP_HEXES):
        if mask[A_SETUP_HEX + h]:
            v = _t_unit_score(o, MAP_HEX_CELL[h], t) + _below(rng, slot, T_UNIT_NOISE)
            if v > best:
                best = v
                ba = A_SETUP_HEX + h
    return ba


# ------------------------------------------------------------------ entry point


@jit
def setup_decide(o, mask, side, rng, slot):
    """The scripted set-up action of ``side`` on its information state ``o``
    (PHASE_Z_SETUP or PHASE_T_SETUP) with the legal actions ``mask``; -1 if
    nothing is legal.  Reads nothing but ``o``, ``mask`` and ``rng[slot]``."""
    item = o["setup_item"]
    a = -1
    if side == ZIEGLER and o["phase"] == PHASE_Z_SETUP:
        if item < 0:
            a = _z_choose(o, mask, rng, slot)
        elif o["setup_cell"] < 0:
            a = _z_hex(o, mask, item, rng, slot)
        else:
            a = _z_facing(o, mask, item)
    elif side == TECHNOCRAT and o["phase"] == PHASE_T_SETUP:
        if item < 0:
            a = _t_choose(o, mask, rng, slot)
        elif o["setup_cell"] < 0:
            a = _t_hex(o, mask, item, rng, slot)
    if a >= 0 and mask[a]:
        return a
    return random_choice(mask, rng, slot)
