"""Beliefs about what a side cannot see, and the heuristic value of a position:
shared by the search agents (``search``: flat Monte Carlo, ``ismcts``).

:func:`determinize` turns a side's information state (``observe(s, side,
fog=True)``, D20) into a playable state by sampling what it hides;
:func:`evaluate` values a position for a side (the result if the game is
over, else a heuristic of the Technocrat's progress towards 15.5).
Both read nothing but the record they are given.
"""

from __future__ import annotations

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.dice import splitmix64
from hotspot.core.hexgrid import DISTANCE_TO_CENTRAL
from hotspot.core.observation import observe
from hotspot.core.rules_data import (
    CENTRAL,
    NO_PIECE,
    NO_UNIT,
    NUM_UNIT_TYPES,
    PHASE_OVER,
    PLATFORM,
    T_CRAWLER,
    T_ENGINEER,
    T_HEAVY_BEAMER,
    T_INFANTRY,
    TECHNOCRAT,
    UNIT_IS_INFANTRY,
    UNIT_SIDE,
    Z_HOVERCRAFT,
    Z_INFANTRY,
    ZIEGLER,
)
from hotspot.core.state import MAX_PIECES, MAX_UNITS
from hotspot.core.victory import side_return

# ------------------------------------------------------------------ beliefs

# Prior counts of counters by unit type: the standard set-up's forces (3.2, 3.3).
PRIOR_FORCES = np.zeros(NUM_UNIT_TYPES, dtype=np.float64)
PRIOR_FORCES[Z_INFANTRY] = 14.0
PRIOR_FORCES[Z_HOVERCRAFT] = 6.0
PRIOR_FORCES[T_INFANTRY] = 4.0
PRIOR_FORCES[T_CRAWLER] = 6.0
PRIOR_FORCES[T_HEAVY_BEAMER] = 2.0
PRIOR_FORCES[T_ENGINEER] = 3.0
# probabilities of 1, 2, 3 squads for an infantry counter whose squads are hidden
SQUAD_PROBS = np.array([0.15, 0.25, 0.60], dtype=np.float64)
DMG_P0 = 0.7  # probability that a piece whose damage is hidden is undamaged

# evaluation weights (Technocrat's point of view; see evaluate)
EVAL_WEIGHTS = np.array(
    [
        1.0,  # 0 engineer squads left (of 3)
        0.35,  # 1 per crustal the Technocrat controls
        0.25,  # 2 per Technocrat counter on the Central Crustal
        1.5,  # 3 Technocrat share of the material (attack + defense)
        0.6,  # 4 engineers' mean distance to the Central Crustal (per 10 hexes, subtracted)
        -1.2,  # 5 bias
    ],
    dtype=np.float64,
)


DCEN = DISTANCE_TO_CENTRAL  # hexes from the Central Crustal (0 on it, D2)

# ------------------------------------------------------------------ sampling


@jit
def draw(rng):
    """The next 64-bit draw of the search's generator ``rng[0]`` (splitmix64)."""
    rng[0], z = splitmix64(rng[0])
    return z


@jit
def draw_uniform(rng):
    """A float in [0, 1) from ``rng[0]``."""
    return float(draw(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit
def draw_below(rng, n):
    """An int in 0..n-1 from ``rng[0]``."""
    return int(draw(rng) % np.uint64(n))


@jit
def _squads(rng, squad_p):
    x = draw_uniform(rng)
    acc = 0.0
    for i in range(3):
        acc += squad_p[i]
        if x < acc:
            return i + 1
    return 3


@jit
def determinize(o, side, d, rng, prior, squad_p, dmg_p0):  # noqa: C901 (each hidden quantity of D20 drawn in its own case, compiled)
    """Fill ``d`` with a playable state sampled from the information state ``o``
    of ``side``: every hidden (-1) field gets a plausible value and the dice a
    fresh seed.  Reads nothing but ``o``."""
    observe(o, side, False, d)  # an exact copy
    d["rng"] = draw(rng)
    d["dice_len"] = 0
    d["dice_pos"] = 0
    enemy = 1 - side
    for k in range(MAX_PIECES):
        kind = d["piece_kind"][k]
        if kind != NO_PIECE and d["piece_damage"][k] < 0:
            rating = int(d["rules"]["damage_rating"][kind])
            dmg = 0
            if rating > 1 and draw_uniform(rng) >= dmg_p0:
                dmg = 1 + draw_below(rng, rating - 1)
            d["piece_damage"][k] = dmg
    pool = np.zeros(NUM_UNIT_TYPES, dtype=np.float64)
    for t in range(1, NUM_UNIT_TYPES):
        if UNIT_SIDE[t] == enemy:
            pool[t] = prior[t]
    for u in range(MAX_UNITS):
        t = d["unit_type"][u]
        if t > 0 and UNIT_SIDE[t] == enemy and pool[t] >= 1.0:
            pool[t] -= 1.0
    has_eng = False
    n_unknown = 0
    last_unknown = -1
    for u in range(MAX_UNITS):
        t = d["unit_type"][u]
        if t == NO_UNIT:
            continue
        if t < 0:
            total = 0.0
            for v in range(1, NUM_UNIT_TYPES):
                total += pool[v]
            weights_from_pool = total > 0.0
            if not weights_from_pool:
                for v in range(1, NUM_UNIT_TYPES):
                    if UNIT_SIDE[v] == enemy:
                        total += prior[v]
            x = draw_uniform(rng) * total
            pick = -1
            for v in range(1, NUM_UNIT_TYPES):
                if UNIT_SIDE[v] != enemy:
                    continue
                wv = pool[v] if weights_from_pool else prior[v]
                if wv <= 0.0:
                    continue
                pick = v
                if x < wv:
                    break
                x -= wv
            if pick < 0:  # no prior for this side at all: its infantry
                pick = Z_INFANTRY if enemy == ZIEGLER else T_INFANTRY
            if weights_from_pool:
                pool[pick] = max(0.0, pool[pick] - 1.0)
            d["unit_type"][u] = pick
            d["unit_squads"][u] = _squads(rng, squad_p) if UNIT_IS_INFANTRY[pick] else 1
            n_unknown += 1
            last_unknown = u
            t = pick
        elif UNIT_SIDE[t] == enemy and d["unit_squads"][u] < 0:
            d["unit_squads"][u] = _squads(rng, squad_p) if UNIT_IS_INFANTRY[t] else 1
        if t == T_ENGINEER:
            has_eng = True
    # D19: while the game goes on the Technocrat has an engineer squad left
    if enemy == TECHNOCRAT and not has_eng and n_unknown > 0 and d["phase"] != PHASE_OVER:
        j = draw_below(rng, n_unknown)
        for u in range(MAX_UNITS):
            if o["unit_type"][u] == -1:
                if j == 0:
                    d["unit_type"][u] = T_ENGINEER
                    d["unit_squads"][u] = 1
                    break
                j -= 1
    return last_unknown


@jit
def evaluate(s, side, w):
    """The value of state ``s`` for ``side`` in [-1, 1]: the result if the game
    is over, else a heuristic (the Technocrat's progress)."""
    if s["phase"] == PHASE_OVER:
        return side_return(s, side)
    eng = 0
    engd = 0.0
    mat_t = 0.0
    mat_z = 0.0
    cen = 0
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t <= 0:
            continue
        f = float(s["rules"]["attack"][t] + s["rules"]["defense"][t]) * s["unit_squads"][u]
        c = s["unit_cell"][u]
        if UNIT_SIDE[t] == TECHNOCRAT:
            mat_t += f
            if c >= 0 and s["board"][c] == 0:
                cen += 1
            if t == T_ENGINEER:
                eng += s["unit_squads"][u]
                if c >= 0:
                    engd += DCEN[c] * s["unit_squads"][u]
        else:
            mat_z += f
    ctrl = 0
    for k in range(1, MAX_PIECES):
        kind = s["piece_kind"][k]
        if kind != NO_PIECE and kind != CENTRAL and kind != PLATFORM and s["piece_controller"][k] == TECHNOCRAT:
            ctrl += 1
    x = w[0] * min(eng, 3) / 3.0 + w[1] * ctrl + w[2] * min(cen, 9) + w[3] * mat_t / (mat_t + mat_z + 1e-9) + w[5]
    if eng > 0:
        x -= w[4] * (engd / eng) / 10.0
    v = np.tanh(x)
    return v if side == TECHNOCRAT else -v
