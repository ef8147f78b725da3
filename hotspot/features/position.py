"""Compact position features for value functions (the search's learned value,
``hotspot.agents.value_net``): a few dozen numbers that say how the
Technocrat's attack stands, computed in compiled code from a state record.

Computed from whatever record it is given: the searching side's
determinization during a search (never the true state of a game the agent
plays).  The features are scaled to about [0, 1] (the shares, engineer
counts and the bias never leave it; counts of counters, material and the
local odds (14, 15: summed over every engineer counter, so a stack next to
two engineer counters counts twice) may exceed 1):

====  ======================================================================
0-2   engineer squads left (0-3, 15.0, D19), on a platform, on the Central
      Crustal (15.5)
3-4   engineers' least and mean distance to the Central Crustal / 10 (D2)
5     Ziegler combat units on the Central Crustal / 6 (15.2: control needs
      none there)
6-7   Technocrat counters on the Central Crustal / 6; Technocrat-controlled
      crustals / 6 (15.2, 15.3), 8 neutralized / 6 (15.4)
9-10  material: Technocrat and Ziegler attack + defense factors x squads / 100
11    the Technocrat's share of the material
12    turns before the attack platforms break up (14.5: in the Crustal Control
      phase of turn 4, ``rules.platform_turns``), as a share, 0 after
13    turn / 50
14    Ziegler attack factors next to or in the engineers' hexes / 30 (local
      odds, 12.0)
15    Technocrat attack + defense factors with the engineers (same hex) / 30
16    hovercraft left / 6
17    platforms left / 5
18    mean damage of the Technocrat's platforms relative to their rating
19    Central Crustal hexes held by no Ziegler combat unit, engineer-adjacent
      (distance 0 or 1 engineers / 3)
20    bias (1)
====  ======================================================================
"""

from hotspot.core._jit import jit
from hotspot.core.hexgrid import DISTANCE_TO_CENTRAL, NEIGHBOUR
from hotspot.core.rules_data import (
    CENTRAL,
    NO_PIECE,
    PLATFORM,
    T_ENGINEER,
    TECHNOCRAT,
    UNIT_SIDE,
    Z_HOVERCRAFT,
    ZIEGLER,
)
from hotspot.core.state import MAX_PIECES, MAX_UNITS

NUM_POSITION_FEATURES = 21


@jit
def position_features(s, out):  # noqa: C901 (one feature a line, compiled)
    """Fill ``out`` (NUM_POSITION_FEATURES float64) with the features of ``s``."""
    out[:] = 0.0
    eng = 0.0
    eng_plat = 0.0
    eng_cen = 0.0
    eng_min = 99.0
    eng_sum = 0.0
    z_cen = 0.0
    t_cen = 0.0
    mat_t = 0.0
    mat_z = 0.0
    hover = 0.0
    z_near = 0.0
    t_with = 0.0
    eng_close = 0.0
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t <= 0:
            continue
        sq = max(1, int(s["unit_squads"][u]))
        c = s["unit_cell"][u]
        f = float(s["rules"]["attack"][t] + s["rules"]["defense"][t]) * sq
        on_cen = c >= 0 and s["board"][c] == 0
        if UNIT_SIDE[t] == TECHNOCRAT:
            mat_t += f
            if on_cen:
                t_cen += 1.0
            if t == T_ENGINEER and c >= 0:
                eng += sq
                dist = float(DISTANCE_TO_CENTRAL[c])
                eng_sum += dist * sq
                eng_min = min(eng_min, dist)
                if dist <= 1.0:
                    eng_close += sq
                k = s["board"][c]
                if k > 0 and s["piece_kind"][k] == PLATFORM:
                    eng_plat += sq
                if on_cen:
                    eng_cen += sq
        else:
            mat_z += f
            if on_cen:
                z_cen += 1.0
            if t == Z_HOVERCRAFT:
                hover += 1.0
    # local odds round the engineers
    for u in range(MAX_UNITS):
        if s["unit_type"][u] != T_ENGINEER or s["unit_cell"][u] < 0:
            continue
        ec = s["unit_cell"][u]
        for v in range(MAX_UNITS):
            t = s["unit_type"][v]
            if t <= 0 or s["unit_cell"][v] < 0:
                continue
            vc = s["unit_cell"][v]
            sq = max(1, int(s["unit_squads"][v]))
            if UNIT_SIDE[t] == ZIEGLER:
                near = vc == ec
                for d in range(6):
                    if NEIGHBOUR[ec, d] == vc:
                        near = True
                if near:
                    z_near += float(s["rules"]["attack"][t]) * sq
            elif vc == ec and t != T_ENGINEER:
                t_with += float(s["rules"]["attack"][t] + s["rules"]["defense"][t]) * sq
    ctrl = 0.0
    neut = 0.0
    plats = 0.0
    plat_dmg = 0.0
    for k in range(1, MAX_PIECES):
        kind = s["piece_kind"][k]
        if kind == NO_PIECE or kind == CENTRAL:
            continue
        if kind == PLATFORM:
            plats += 1.0
            rating = float(s["rules"]["damage_rating"][kind])
            if rating > 0 and s["piece_damage"][k] > 0:
                plat_dmg += s["piece_damage"][k] / rating
        elif s["piece_controller"][k] == TECHNOCRAT:
            ctrl += 1.0
            if s["piece_neutralized"][k]:
                neut += 1.0
    out[0] = eng / 3.0
    out[1] = eng_plat / 3.0
    out[2] = eng_cen / 3.0
    if eng > 0:
        out[3] = eng_min / 10.0
        out[4] = eng_sum / eng / 10.0
    else:
        out[3] = 1.0
        out[4] = 1.0
    out[5] = z_cen / 6.0
    out[6] = t_cen / 6.0
    out[7] = ctrl / 6.0
    out[8] = neut / 6.0
    out[9] = mat_t / 100.0
    out[10] = mat_z / 100.0
    out[11] = mat_t / (mat_t + mat_z + 1e-9)
    turn = int(s["turn"])
    pt = int(s["rules"]["platform_turns"])  # 14.5 (4 as printed)
    out[12] = max(0, pt - max(turn, 1) + 1) / max(pt, 1) if pt > 0 else 0.0
    out[13] = turn / 50.0
    out[14] = z_near / 30.0
    out[15] = t_with / 30.0
    out[16] = hover / 6.0
    out[17] = plats / 5.0
    if plats > 0:
        out[18] = plat_dmg / plats
    out[19] = eng_close / 3.0
    out[20] = 1.0
