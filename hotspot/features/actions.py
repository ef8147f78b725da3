"""Action features for the per-action policy (``hotspot.agents.action_policy``):
one row of numbers per legal action saying *which* counter, piece or hex the
action is about, so that one shared network can score every legal action
(the DRRN / pointer-network form for variable action sets).

Computed in compiled code from the acting side's information state
(``observe(s, side, fog=True)``, D20; never the true state): a hidden enemy
counter (9.5) counts with ``UNSEEN_ATTACK`` / ``UNSEEN_DEFENSE`` factors.

The *subject* of an action is the counter it names or moves: SELECT_UNIT u
and COMBINE_WITH v name u and v; a step, SPLIT or END_PIECE of a movement
phase concern the selected unit (``sel_unit``).  The *piece* is the crustal
or platform SELECT_PIECE k names (crustal phases; the control phase's
neutralization, 15.4), or the selected one for a maneuver or END_PIECE of a
crustal phase.  Distances are to the Central Crustal (D2) and to the map
edge (D1, 6.9: pieces leave play off it).

====  ======================================================================
0-6   kind: select piece, select unit, combine, step / maneuver, split, end
      piece, end phase (``hotspot.core.actions``)
7-12  the subject's type one-hot (``rules_data`` unit types 1-6)
13    its squads / 3 (9.0); 14 its attack factors / 10 (12.2)
15-16 its hex's distance to the Central Crustal / 10, to the edge / 10
17    its hex is on the Central Crustal (15.5)
18-19 enemy attack / defense factors in and next to its hex / 20 (12.0)
20    friendly attack factors in and next to its hex / 20
21    it has begun moving (8.0); 22 it entered an enemy hex (8.3, 12.1)
23    movement left / 4 (8.1); 24 it stands on an attack platform (14.0)
25    a step: the change of the distance to the Central Crustal (8.1)
26    the step's hex is on the Central Crustal; 27 molten rock or off the map
28-29 enemy attack / defense factors in the step's hex / 20 (8.3: an attack)
30    enemy attack factors in and next to the step's hex / 20
31    friendly attack factors in the step's hex / 20 (stacking, 9.0)
32    the step's hex's distance to the edge / 10
33    the step's hex is on a crustal the mover's side controls (15.3)
34-38 the piece's kind one-hot: one-hex, two-hex, triangular, long, platform
39    the piece's least distance to the Central Crustal / 10
40-41 friendly / enemy counters on the piece / 6
42    engineer squads on the piece / 3 (15.2)
43-44 the piece is controlled by the mover's side / by the enemy (15.3)
45    the piece's least distance to the edge / 10
46    a maneuver: the change of the piece's least distance to the Central
      Crustal; 47 of its least distance to the edge (6.9)
48    other pieces next to the piece's hexes after the maneuver / 3 (7.0:
      collisions)
49-51 a combat (C, G; 12.7): friendly attack, enemy defense in the hex / 20,
      the odds attack / defense / 5 (12.4)
52    bias (1)
====  ======================================================================
"""

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import (
    A_COMBINE,
    A_END_PHASE,
    A_END_PIECE,
    A_MANEUVER,
    A_SELECT_PIECE,
    A_SELECT_UNIT,
    A_SETUP_CHOOSE,
    A_SPLIT,
    current_player,
)
from hotspot.core.crustal_movement import maneuver_cells
from hotspot.core.hexgrid import (
    DISTANCE_TO_CENTRAL,
    DISTANCE_TO_EDGE,
    NEIGHBOUR,
    NUM_CELLS,
)
from hotspot.core.rules_data import (
    CENTRAL_PIECE,
    LONG,
    NO_PIECE,
    NO_UNIT,
    NUM_UNIT_TYPES,
    ONE_HEX,
    PHASE_T_COMBAT,
    PHASE_Z_COMBAT,
    PLATFORM,
    T_ENGINEER,
)
from hotspot.core.state import MAX_PIECES, MAX_UNITS, UF_ATTACKING, UF_STARTED
from hotspot.core.units import attack_of, defense_of, side_seen_by

UNSEEN_ATTACK = 2.0  # a hidden enemy counter's assumed attack factors (9.5, D20)
UNSEEN_DEFENSE = 2.0  # and defense factors

K_PIECE, K_UNIT, K_COMBINE, K_MOVE, K_SPLIT, K_END_PIECE, K_END_PHASE = range(7)
F_TYPE = 7
F_SQUADS = 13
F_ATTACK = 14
F_DIST = 15
F_EDGE = 16
F_ON_CENTRAL = 17
F_ENEMY_ATT = 18
F_ENEMY_DEF = 19
F_OWN_ATT = 20
F_STARTED = 21
F_ATTACKING = 22
F_MOVES = 23
F_ON_PLATFORM = 24
F_STEP_DIST = 25
F_STEP_CENTRAL = 26
F_STEP_MOLTEN = 27
F_STEP_ENEMY_ATT = 28
F_STEP_ENEMY_DEF = 29
F_STEP_THREAT = 30
F_STEP_OWN_ATT = 31
F_STEP_EDGE = 32
F_STEP_CONTROLLED = 33
F_PIECE_KIND = 34
F_PIECE_DIST = 39
F_PIECE_OWN = 40
F_PIECE_ENEMY = 41
F_PIECE_ENGINEERS = 42
F_PIECE_OURS = 43
F_PIECE_THEIRS = 44
F_PIECE_EDGE = 45
F_MAN_DIST = 46
F_MAN_EDGE = 47
F_MAN_CONTACT = 48
F_COMBAT_ATT = 49
F_COMBAT_DEF = 50
F_COMBAT_ODDS = 51
F_BIAS = 52
NUM_ACTION_FEATURES = 53

# rows of the scratch table of ``new_action_work``: per cell, seen factors
W_ENEMY_ATT, W_ENEMY_DEF, W_OWN_ATT, W_OWN_N, W_ENEMY_N = range(5)


@jit(inline=True)
def new_action_work():
    """Scratch for :func:`action_features`: per-cell tallies (float64)."""
    return np.zeros((5, NUM_CELLS), dtype=np.float64)


@jit
def _tally(o, side, w):
    """Fill ``w`` with the factors each side has in each cell, as ``side`` sees them."""
    w[:, :] = 0.0
    for u in range(MAX_UNITS):
        t = o["unit_type"][u]
        c = o["unit_cell"][u]
        if t == NO_UNIT or c < 0:
            continue
        if side_seen_by(o, u, side) == side:
            w[W_OWN_ATT, c] += max(0, attack_of(o, u))
            w[W_OWN_N, c] += 1.0
        else:
            a = attack_of(o, u)
            d = defense_of(o, u)
            w[W_ENEMY_ATT, c] += UNSEEN_ATTACK if a < 0 else a
            w[W_ENEMY_DEF, c] += UNSEEN_DEFENSE if d < 0 else d
            w[W_ENEMY_N, c] += 1.0


@jit(inline=True)
def _around(w, row, c):
    """``w[row]`` summed over cell ``c`` and its neighbours."""
    v = w[row, c]
    for d in range(6):
        n = NEIGHBOUR[c, d]
        if n >= 0:
            v += w[row, n]
    return v


@jit(inline=True)
def _piece_least(o, k, table):
    best = 99
    for j in range(o["piece_cells"].shape[1]):
        c = o["piece_cells"][k, j]
        if c >= 0 and table[c] < best:
            best = table[c]
    return best


@jit
def _subject(o, side, u, w, row):
    t = o["unit_type"][u]
    c = o["unit_cell"][u]
    if 1 <= t < NUM_UNIT_TYPES:
        row[F_TYPE + t - 1] = 1.0
    row[F_SQUADS] = max(0, int(o["unit_squads"][u])) / 3.0
    row[F_ATTACK] = max(0, attack_of(o, u)) / 10.0
    f = int(o["unit_flags"][u])
    row[F_STARTED] = 1.0 if f & UF_STARTED else 0.0
    row[F_ATTACKING] = 1.0 if f & UF_ATTACKING else 0.0
    row[F_MOVES] = max(0, int(o["unit_moves"][u])) / 4.0
    if c < 0:
        return
    row[F_DIST] = DISTANCE_TO_CENTRAL[c] / 10.0
    row[F_EDGE] = min(DISTANCE_TO_EDGE[c], 10) / 10.0
    k = o["board"][c]
    row[F_ON_CENTRAL] = 1.0 if k == CENTRAL_PIECE else 0.0
    row[F_ON_PLATFORM] = 1.0 if k >= 0 and o["piece_kind"][k] == PLATFORM else 0.0
    row[F_ENEMY_ATT] = _around(w, W_ENEMY_ATT, c) / 20.0
    row[F_ENEMY_DEF] = _around(w, W_ENEMY_DEF, c) / 20.0
    row[F_OWN_ATT] = _around(w, W_OWN_ATT, c) / 20.0


@jit
def _step(o, side, c, m, w, row):
    t = NEIGHBOUR[c, m] if 0 <= m < 6 else -1
    if t < 0:
        row[F_STEP_MOLTEN] = 1.0
        row[F_STEP_DIST] = 2.0
        return
    row[F_STEP_DIST] = float(DISTANCE_TO_CENTRAL[t]) - float(DISTANCE_TO_CENTRAL[c])
    k = o["board"][t]
    row[F_STEP_CENTRAL] = 1.0 if k == CENTRAL_PIECE else 0.0
    row[F_STEP_MOLTEN] = 1.0 if k < 0 or DISTANCE_TO_EDGE[t] == 0 else 0.0
    row[F_STEP_ENEMY_ATT] = w[W_ENEMY_ATT, t] / 20.0
    row[F_STEP_ENEMY_DEF] = w[W_ENEMY_DEF, t] / 20.0
    row[F_STEP_THREAT] = _around(w, W_ENEMY_ATT, t) / 20.0
    row[F_STEP_OWN_ATT] = w[W_OWN_ATT, t] / 20.0
    row[F_STEP_EDGE] = min(DISTANCE_TO_EDGE[t], 10) / 10.0
    row[F_STEP_CONTROLLED] = 1.0 if k > 0 and o["piece_controller"][k] == side else 0.0


@jit
def _piece(o, side, k, w, row):
    kind = o["piece_kind"][k]
    if ONE_HEX <= kind <= LONG:
        row[F_PIECE_KIND + kind - ONE_HEX] = 1.0
    elif kind == PLATFORM:
        row[F_PIECE_KIND + 4] = 1.0
    row[F_PIECE_DIST] = _piece_least(o, k, DISTANCE_TO_CENTRAL) / 10.0
    row[F_PIECE_EDGE] = min(_piece_least(o, k, DISTANCE_TO_EDGE), 10) / 10.0
    own = 0.0
    enemy = 0.0
    for j in range(o["piece_cells"].shape[1]):
        c = o["piece_cells"][k, j]
        if c >= 0:
            own += w[W_OWN_N, c]
            enemy += w[W_ENEMY_N, c]
    row[F_PIECE_OWN] = own / 6.0
    row[F_PIECE_ENEMY] = enemy / 6.0
    eng = 0
    for u in range(MAX_UNITS):
        c = o["unit_cell"][u]
        if o["unit_type"][u] == T_ENGINEER and c >= 0 and o["board"][c] == k:
            eng += max(1, int(o["unit_squads"][u]))
    row[F_PIECE_ENGINEERS] = eng / 3.0
    ctl = o["piece_controller"][k]
    row[F_PIECE_OURS] = 1.0 if ctl == side else 0.0
    row[F_PIECE_THEIRS] = 1.0 if ctl == 1 - side else 0.0


@jit
def _maneuver(o, k, m, row):
    r = maneuver_cells(o, k, m)
    n = r[0]
    if n == 0:
        return
    # the cells after the last sub-step
    c0, c1, c2 = (r[1], r[2], r[3]) if n == 1 else (r[4], r[5], r[6])
    dist = 99
    edge = 99
    contact = 0
    for c in (c0, c1, c2):
        if c < 0:
            continue
        dist = min(dist, DISTANCE_TO_CENTRAL[c])
        edge = min(edge, DISTANCE_TO_EDGE[c])
        for d in range(6):
            nb = NEIGHBOUR[c, d]
            if nb >= 0:
                q = o["board"][nb]
                if q >= 0 and q != k and o["piece_kind"][q] != NO_PIECE:
                    contact += 1
    row[F_MAN_DIST] = float(dist - _piece_least(o, k, DISTANCE_TO_CENTRAL)) if dist < 99 else 2.0
    row[F_MAN_EDGE] = float(min(edge, 10) - min(_piece_least(o, k, DISTANCE_TO_EDGE), 10)) if edge < 99 else -2.0
    row[F_MAN_CONTACT] = contact / 3.0


@jit
def action_features(o, acts, n, w, out):
    """Fill ``out[:n]`` (n x NUM_ACTION_FEATURES float64) with the features of
    the actions ``acts[:n]`` at the decision of information state ``o`` (a
    phase of play; ``w``: :func:`new_action_work`).  Set-up actions (3.2,
    3.3) get the bias only."""
    p = int(o["phase"])
    side = max(0, current_player(o))  # the mover (D22: the side naming a pending loss)
    _tally(o, side, w)
    su = int(o["sel_unit"])
    sp = int(o["sel_piece"])
    combat = p == PHASE_Z_COMBAT or p == PHASE_T_COMBAT
    for i in range(n):
        row = out[i]
        row[:] = 0.0
        row[F_BIAS] = 1.0
        a = acts[i]
        if a >= A_SETUP_CHOOSE:
            continue
        if a < A_SELECT_UNIT:
            row[K_PIECE] = 1.0
            k = a - A_SELECT_PIECE
            if 0 <= k < MAX_PIECES:
                _piece(o, side, k, w, row)
        elif a < A_COMBINE:
            row[K_UNIT] = 1.0
            u = a - A_SELECT_UNIT
            _subject(o, side, u, w, row)
            c = o["unit_cell"][u]
            if combat and c >= 0:
                att = w[W_OWN_ATT, c]
                dfn = w[W_ENEMY_DEF, c]
                row[F_COMBAT_ATT] = att / 20.0
                row[F_COMBAT_DEF] = dfn / 20.0
                row[F_COMBAT_ODDS] = min(att / max(dfn, 0.5), 10.0) / 5.0
        elif a < A_MANEUVER:
            row[K_COMBINE] = 1.0
            _subject(o, side, a - A_COMBINE, w, row)
        elif a < A_SPLIT:
            row[K_MOVE] = 1.0
            m = a - A_MANEUVER
            if su >= 0:
                _subject(o, side, su, w, row)
                c = o["unit_cell"][su]
                if c >= 0:
                    _step(o, side, c, m, w, row)
            elif sp >= 0:
                _piece(o, side, sp, w, row)
                _maneuver(o, sp, m, row)
        elif a == A_SPLIT:
            row[K_SPLIT] = 1.0
            if su >= 0:
                _subject(o, side, su, w, row)
        elif a == A_END_PIECE:
            row[K_END_PIECE] = 1.0
            if su >= 0:
                _subject(o, side, su, w, row)
            elif sp >= 0:
                _piece(o, side, sp, w, row)
        elif a == A_END_PHASE:
            row[K_END_PHASE] = 1.0
