"""The learner's view: fixed slots, features an MLP can use, and fewer actions.

A stock learner (sb3-contrib's ``MaskablePPO("MlpPolicy")``) won no game
as Technocrat against ``random`` after ten minutes (238,000 decisions) on
the environments' ``flat`` observation (docs/training.md "Stock RL"): the atomic actions address units
and pieces by their table slot (``hotspot.core.actions``: select unit u,
combine with unit v, select piece k), the set-up puts the same counter in a
different slot from game to game, and the 7,458 normalised entries say
nothing directly about the question each decision asks (where does this
step lead?).  This module gives the learner's environment
(``hotspot.env.LearnerEnv``) and the adapters that play its models in the
arena (``PolicyAgent(observation="learner")``, ``sb3(path=...)``) one view,
built from the acting side's information state only (D20):

:class:`SlotMap`
    fixed slots: the side's own units in the order of the first decision of
    play (by type, the Technocrat's engineers and the Ziegler's hovercraft
    first, then by table slot), a unit made later (a split, 9.0) in the
    first free slot; pieces: the Central Crustal, the platforms, then the
    other crustals.  The learner's actions and mask are mapped through it
    (``to_core``, ``mask``); the game itself is untouched.
:func:`prune_mask`
    the legal mask less three kinds of actions a learner only loses time
    on (never all of them: the full mask comes back if nothing would be
    left): splitting and combining (9.0, 10.0); selecting another unit or
    piece while the selected one has not started its move (a counter left
    unmoved is skipped by the rules, R8.1, so the choice is kept by ending
    the move); a step onto molten rock (8.2: the unit is destroyed,
    ``hotspot.core.regular_movement.step_destroys``).  A pruned policy still plays
    the rulebook's game: every action it takes is legal.
:func:`learner_observation`
    ``LEARNER_SIZE[side]`` floats: the 46 decision features
    (``hotspot.features.decision``), then for each step direction of the
    selected unit (5 each: deadly, enemy squads there, own squads there,
    the Central Crustal, the change of distance to it) and of the selected
    piece (4 each), the own unit slots (18 each: present, type one-hot,
    squads, distance to the Central Crustal, on it / on a platform / on
    another crustal, can move, moves left, enemy squads in its hex and
    around it, own squads in its hex, attacking or selected), the piece
    slots (16 each: present, kind one-hot, own, neutralized, distance,
    engineers / own / enemy squads on it, done, selected, moves left) and
    the enemy and own squads on each hex of the Central Crustal (15.5).

Potential-based shaping terms for this view are in
``hotspot.features.shaping`` (``progress``, ``central``).
"""

from __future__ import annotations

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import A_COMBINE, A_MANEUVER, A_SELECT_PIECE, A_SELECT_UNIT, A_SPLIT
from hotspot.core.hexgrid import CENTRAL_CELLS, DISTANCE_TO_CENTRAL, NEIGHBOUR, ON_MAP
from hotspot.core.regular_movement import step_destroys
from hotspot.core.rules_data import (
    PHASE_CONTROL,
    PHASE_T_CRUSTAL,
    PHASE_T_MOVE,
    PHASE_Z_CRUSTAL,
    PHASE_Z_MOVE,
    PHASE_Z_SECOND,
    PLATFORM,
    T_ENGINEER,
    TECHNOCRAT,
    UNIT_SIDE,
    Z_HOVERCRAFT,
    ZIEGLER,
)
from hotspot.core.state import MAX_PIECES, MAX_UNITS, PF_DONE, PF_STARTED, UF_ATTACKING, UF_DONE, UF_STARTED

from .decision import NUM_DECISION_FEATURES, decision_features

#: own unit slots of each side (the Technocrat's counters split into at most
#: 23 units, the Ziegler's into 48)
OWN_SLOTS = {ZIEGLER: 64, TECHNOCRAT: 32}
UNIT_FEATURES = 18
PIECE_FEATURES = 16
_NCELL = NEIGHBOUR.shape[0]
# neighbours with a padding cell (_NCELL) for the off-board directions
_NB = np.where(NEIGHBOUR >= 0, NEIGHBOUR, _NCELL).astype(np.int64)
_DIST = np.append(np.asarray(DISTANCE_TO_CENTRAL, np.float64), 99.0)
_ONMAP = np.append(np.asarray(ON_MAP, np.bool_), False)
_CENTRAL = np.flatnonzero(np.asarray(CENTRAL_CELLS)).astype(np.int64)
_UNIT_SIDE = np.asarray(UNIT_SIDE).astype(np.int64)
_MAX_DIST = 13.0  # the largest distance of an on-map hex to the Central Crustal


def learner_size(side: int) -> int:
    """The length of :func:`learner_observation` for ``side``."""
    return (
        NUM_DECISION_FEATURES
        + 30
        + 24
        + OWN_SLOTS[side] * UNIT_FEATURES
        + MAX_PIECES * PIECE_FEATURES
        + 2 * len(_CENTRAL)
    )


LEARNER_SIZE = {side: learner_size(side) for side in (ZIEGLER, TECHNOCRAT)}
#: every value of the observation lies in [-LEARNER_BOUND, LEARNER_BOUND]
LEARNER_BOUND = 5.0


class SlotMap:
    """Fixed slots of one side's units and of the pieces, for one game (see the module's docstring)."""

    def __init__(self, side: int):
        self.side = int(side)
        self.own_n = OWN_SLOTS[self.side]
        self.reset()

    def reset(self) -> None:
        """Forget the game: the next :meth:`update` builds the slots anew."""
        self.unit_of = np.full(self.own_n, -1, np.int64)  # slot -> table slot
        self.slot_of = np.full(MAX_UNITS, -1, np.int64)  # table slot -> slot
        self.piece_of = np.full(MAX_PIECES, -1, np.int64)
        self.built = False

    def _own(self, o) -> np.ndarray:
        types = o["unit_type"].astype(np.int64)
        return (types > 0) & (_UNIT_SIDE[np.maximum(types, 0)] == self.side)

    def update(self, o) -> None:
        """Bring the slots up to the information state ``o`` (call at each decision of play)."""
        types = o["unit_type"].astype(np.int64)
        own = self._own(o)
        if not self.built:
            first = T_ENGINEER if self.side == TECHNOCRAT else Z_HOVERCRAFT
            order = sorted(np.flatnonzero(own), key=lambda u: (types[u] != first, -types[u], u))
            for i, u in enumerate(order[: self.own_n]):
                self.unit_of[i], self.slot_of[u] = u, i
            kinds = o["piece_kind"].astype(np.int64)
            others = range(1, MAX_PIECES)
            order = [0] + [k for k in others if kinds[k] == PLATFORM] + [k for k in others if kinds[k] != PLATFORM]
            self.piece_of[:] = order
            self.built = True
            return
        for c in range(self.own_n):  # a unit gone (or its table slot now someone else's) frees its slot
            u = self.unit_of[c]
            if u >= 0 and not own[u]:
                self.unit_of[c], self.slot_of[u] = -1, -1
        for u in np.flatnonzero(own & (self.slot_of < 0)):
            free = np.flatnonzero(self.unit_of < 0)
            if len(free):
                self.unit_of[free[0]], self.slot_of[u] = u, free[0]

    def to_core(self, action: int) -> int:
        """The core's action of the learner's ``action``."""
        a = int(action)
        if A_SELECT_UNIT <= a < A_MANEUVER:
            base = A_SELECT_UNIT if a < A_COMBINE else A_COMBINE
            c = a - base
            u = self.unit_of[c] if c < self.own_n else -1
            return base + int(u) if u >= 0 else -1
        if A_SELECT_PIECE <= a < A_SELECT_UNIT:
            return A_SELECT_PIECE + int(self.piece_of[a - A_SELECT_PIECE])
        return a

    def to_learner(self, action: int) -> int:
        """The learner's action of the core's ``action`` (:meth:`to_core`'s
        inverse); -1 for a unit that has no slot (more units than slots)."""
        a = int(action)
        if A_SELECT_UNIT <= a < A_MANEUVER:
            base = A_SELECT_UNIT if a < A_COMBINE else A_COMBINE
            c = self.slot_of[a - base]
            return base + int(c) if c >= 0 else -1
        if A_SELECT_PIECE <= a < A_SELECT_UNIT:
            return A_SELECT_PIECE + int(np.flatnonzero(self.piece_of == a - A_SELECT_PIECE)[0])
        return a

    def mask(self, core_mask: np.ndarray) -> np.ndarray:
        """The learner's mask of the core's legal ``core_mask``."""
        out = np.array(core_mask, dtype=np.bool_)
        out[A_SELECT_PIECE:A_SELECT_UNIT] = core_mask[A_SELECT_PIECE + self.piece_of]
        for base in (A_SELECT_UNIT, A_COMBINE):
            block = np.zeros(MAX_UNITS, np.bool_)
            valid = self.unit_of >= 0
            block[: self.own_n][valid] = core_mask[base + self.unit_of[valid]]
            out[base : base + MAX_UNITS] = block
        return out


def prune_mask(o, mask: np.ndarray) -> np.ndarray:
    """``mask`` less the actions the learner is spared (module docstring), from the information state ``o``."""
    phase = int(o["phase"])
    if phase > PHASE_CONTROL:
        return mask
    m = np.array(mask, dtype=np.bool_)
    m[A_COMBINE:A_MANEUVER] = False  # 10.0
    m[A_SPLIT] = False  # 9.0
    u, k = int(o["sel_unit"]), int(o["sel_piece"])
    movement = phase in (PHASE_Z_MOVE, PHASE_T_MOVE, PHASE_Z_SECOND)
    if movement and u >= 0 and not int(o["unit_flags"][u]) & UF_STARTED:
        m[A_SELECT_UNIT:A_COMBINE] = False
    if phase in (PHASE_Z_CRUSTAL, PHASE_T_CRUSTAL) and k >= 0 and not int(o["piece_flags"][k]) & PF_STARTED:
        m[A_SELECT_PIECE:A_SELECT_UNIT] = False
    if movement and u >= 0 and int(o["unit_cell"][u]) >= 0:
        for d in range(6):
            if m[A_MANEUVER + d] and step_destroys(o, u, d):  # 8.2: the unit is destroyed
                m[A_MANEUVER + d] = False
    return m if m.any() else np.array(mask, dtype=np.bool_)


def learner_observation(o, side: int, slots: SlotMap, out: np.ndarray | None = None) -> np.ndarray:
    """The learner's observation (``LEARNER_SIZE[side]`` float32) of ``side``'s information state ``o``."""
    if out is None:
        out = np.empty(LEARNER_SIZE[side], np.float32)
    dec = np.zeros(NUM_DECISION_FEATURES, np.float64)
    if int(o["phase"]) <= PHASE_CONTROL:
        decision_features(o, dec)
    out[:NUM_DECISION_FEATURES] = dec
    _slot_features(
        o, side, slots.unit_of, slots.piece_of, slots.own_n, out[NUM_DECISION_FEATURES:], _NB, _DIST, _ONMAP, _CENTRAL
    )
    np.clip(out, -LEARNER_BOUND, LEARNER_BOUND, out=out)
    return out


@jit
def _slot_features(o, side, unit_of, piece_of, own_n, out, nb, dist, onmap, central):  # noqa: C901 (one feature a slot kind, compiled)
    enemy = 1 - side
    out[:] = 0.0
    board = o["board"]
    cu = o["cell_units"]
    types = o["unit_type"]
    cells = o["unit_cell"]
    kinds = o["piece_kind"]
    ncell = nb.shape[0]
    pos = 0
    u = int(o["sel_unit"])  # the selected unit, per step direction (8.1, 8.2)
    if u >= 0 and cells[u] >= 0:
        c = int(cells[u])
        for d in range(6):
            n = nb[c, d]
            b = pos + d * 5
            on = n < ncell and onmap[n]
            out[b] = 1.0 if (not on) or board[n] < 0 else 0.0
            out[b + 1] = min(cu[n, enemy] / 3.0, 2.0) if n < ncell else 0.0
            out[b + 2] = min(cu[n, side] / 3.0, 2.0) if n < ncell else 0.0
            out[b + 3] = 1.0 if on and board[n] == 0 else 0.0
            out[b + 4] = min(max(dist[n] - dist[c], -1.0), 2.0)
    pos += 30
    k = int(o["sel_piece"])  # the selected piece, per maneuver direction of its front hex (7.0)
    if k >= 0:
        c = int(o["piece_cells"][k, 0])
        if c >= 0:
            for d in range(6):
                n = nb[c, d]
                b = pos + d * 4
                out[b] = min(max(dist[n] - dist[c], -1.0), 2.0)
                out[b + 1] = 1.0 if n < ncell and onmap[n] and board[n] < 0 else 0.0
                out[b + 2] = 1.0 if dist[n] == 1 else 0.0
                contact = 0.0
                if n < ncell:
                    for e in range(6):
                        m = nb[n, e]
                        q = board[m] if m < ncell else -1
                        if q >= 0 and q != k and not (kinds[k] == PLATFORM and kinds[q] == PLATFORM):
                            contact = 1.0
                out[b + 3] = contact
    pos += 24
    for cs in range(own_n):  # the own unit slots
        v = unit_of[cs]
        if v < 0 or types[v] <= 0:
            continue
        b = pos + cs * 18
        c = int(cells[v])
        out[b] = 1.0
        out[b + types[v]] = 1.0
        out[b + 7] = max(int(o["unit_squads"][v]), 0) / 3.0
        if c >= 0:
            pk = board[c]
            out[b + 8] = dist[c] / 13.0
            out[b + 9] = 1.0 if pk == 0 else 0.0
            out[b + 10] = 1.0 if pk >= 0 and kinds[pk] == PLATFORM else 0.0
            out[b + 11] = 1.0 if pk > 0 and kinds[pk] != PLATFORM else 0.0
            out[b + 14] = min(float(cu[c, enemy]), 6.0) / 3.0
            adj = 0.0
            for d in range(6):
                n = nb[c, d]
                if n < ncell:
                    adj += cu[n, enemy]
            out[b + 15] = min(adj, 12.0) / 6.0
            out[b + 16] = min(float(cu[c, side]), 9.0) / 3.0
        fl = int(o["unit_flags"][v])
        mv = int(o["unit_moves"][v])
        out[b + 12] = 1.0 if (fl & UF_DONE) == 0 and mv > 0 else 0.0
        out[b + 13] = mv / 4.0
        out[b + 17] = 1.0 if (fl & UF_ATTACKING) != 0 or v == u else 0.0
    pos += own_n * 18
    for cs in range(piece_of.shape[0]):  # the piece slots
        kk = piece_of[cs]
        if kk < 0 or kinds[kk] <= 0:
            continue
        b = pos + cs * 16
        out[b] = 1.0
        out[b + kinds[kk]] = 1.0
        mine = (kinds[kk] == PLATFORM and side == 1) or o["piece_controller"][kk] == side
        out[b + 7] = 1.0 if mine else 0.0
        out[b + 8] = 1.0 if o["piece_neutralized"][kk] != 0 else 0.0
        dmin = 99.0
        owns = 0.0
        ens = 0.0
        n_cells = central.shape[0] if kk == 0 else o["piece_cells"].shape[1]
        for j in range(n_cells):
            c = central[j] if kk == 0 else int(o["piece_cells"][kk, j])
            if c < 0:
                continue
            dmin = min(dmin, dist[c])
            ens += cu[c, enemy]
            owns += cu[c, side]
        engs = 0.0
        for v in range(types.shape[0]):
            if types[v] == 6 and cells[v] >= 0 and board[cells[v]] == kk:
                engs += max(int(o["unit_squads"][v]), 0)
        out[b + 9] = (dmin if dmin < 99.0 else 13.0) / 13.0
        out[b + 10] = min(engs, 3.0) / 3.0
        out[b + 11] = min(owns, 12.0) / 6.0
        out[b + 12] = min(ens, 20.0) / 10.0
        out[b + 13] = 1.0 if (int(o["piece_flags"][kk]) & PF_DONE) != 0 else 0.0
        out[b + 14] = 1.0 if kk == k else 0.0
        out[b + 15] = int(o["piece_moves"][kk]) / 4.0
    pos += piece_of.shape[0] * 16
    for j in range(central.shape[0]):  # the Central Crustal's hexes (15.5)
        out[pos + j] = min(float(cu[central[j], enemy]), 10.0) / 5.0
        out[pos + central.shape[0] + j] = min(float(cu[central[j], side]), 9.0) / 3.0


__all__ = [
    "LEARNER_BOUND",
    "LEARNER_SIZE",
    "OWN_SLOTS",
    "SlotMap",
    "learner_observation",
    "learner_size",
    "prune_mask",
]
