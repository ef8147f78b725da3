"""The board as planes over axial hex coordinates, for convolutional networks.

``board_planes(states, side)`` encodes what ``side`` knows of each state (its
information state: ``core.observation.observe`` with the D20 fog, so nothing
hidden leaks in) as ``NUM_PLANES`` float32 planes of ``AXIAL_ROWS x
AXIAL_COLS``, one stack a state, in one compiled call over the batch.

The grid is the map (D1: 15 columns x 21 rows, flat-topped hexes, odd-q
offset) in *axial* coordinates (``hexgrid.axial``): column ``q = col``, row
``r + R_OFFSET`` with ``r = row - (col - (col & 1)) // 2``.  On that grid the
six neighbours of a hex (``hexgrid.AXIAL_DIRECTIONS``) are the eight cells of
a 3x3 window less its two corners ``(dq, dr) = (-1, -1)`` and ``(+1, +1)``,
whatever the column's parity, so a 3x3 convolution whose kernel has those two
entries zeroed (:data:`HEX_KERNEL_MASK`) is a hex convolution.  The grid is a
parallelogram: cells that are not map hexes are zero in every plane and 0 in
``on_map`` (a network re-zeroes them after each layer).  ``cell_index`` and
:data:`CELL_OF_INDEX` map between the grid and the core's cells.

====  ==================  =====================================================
 0    on_map              1 on a map hex (D1)
 1    molten              1 on molten rock (8.2)
 2    central             1 on the Central Crustal (D2)
 3-6  one_hex .. long     1 on a crustal of that type (2.2)
 7    platform            1 on an attack platform (2.2, 6.7)
 8    front               1 on the front hex of a two-hex or long crustal: its
                          facing, the way it moves (6.4-6.6)
 9    piece_moves         crustal movement left this phase (6.4-6.7; 0 after it)
10    controlled_own      1 on a crustal the observer controls (15.2)
11    controlled_enemy    1 on a crustal the other side controls
12    neutralized         1 on a neutralized crustal (15.4)
13    damage              damage / damage rating of the piece there (14.6), the
                          observer's pieces and the Central Crustal only
14    damage_hidden       1 on a piece of the other side (its damage is hidden, D20)
15-20 infantry_z ..       squads of each unit type seen in the hex: Ziegler
      engineer            infantry and hovercraft, Technocrat infantry, crawlers,
                          heavy beamers, engineers (a counter whose size is
                          hidden counts one)
21    unknown             enemy counters of hidden type (9.5, D20)
22    can_move            the observer's counters that may still move this phase
23    attacking           counters that entered an enemy hex this phase (8.3)
24    selected            the selected piece's or unit's hexes (a set-up's hex)
25    reach_own           the observer's counters that could move into the hex
                          in their next regular movement (8.1-8.3, 9.1-9.2,
                          11.1, 12.2: ``regular_movement.reach``, full allowance)
26    attack_own          the observer's counters that could move in to attack
                          the enemy units there
27    reach_enemy         the same for the other side's counters; a counter of
28    attack_enemy        hidden type counts as any type of its side could
29    observer            1 everywhere if the observer is the Technocrat
30    to_move             1 everywhere if the observer is to move
31    turn                the turn / the turn limit (``max_turns``; 200 when none)
32-42 phase_A ..          1 everywhere in the current phase (A-H, over, the two
                          set-ups: ``rules_data.PHASE_LETTERS``)
====  ==================  =====================================================

The reach planes count counters, not stacks: a hex two stacks of three can
reach reads 6.  They are computed with everything else standing as it is (a
counter's own side's moves, crustal movement and combat before it are not
foreseen) and at each counter's full movement allowance (8.1), the movement
of the side's next movement phase; the Ziegler's second movement (13.1, at
most 3 hexes, 13.3 stricter entry) is inside its regular reach.
"""

from __future__ import annotations

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
    A_SETUP_FACING,
    A_SETUP_HEX,
    A_SPLIT,
    NUM_ACTIONS,
)
from hotspot.core.crustal_movement import NUM_MANEUVERS
from hotspot.core.hexgrid import AXIAL_Q, AXIAL_R, MAP_HEX_CELL, NEIGHBOUR, NUM_CELLS, NUM_MAP_HEXES, ON_MAP
from hotspot.core.observation import observe
from hotspot.core.regular_movement import REACH_ATTACK, REACH_ENTER, reach
from hotspot.core.rules_data import (
    LONG,
    NO_PIECE,
    NO_UNIT,
    NUM_ITEMS,
    NUM_PHASES,
    PHASE_PLAYER,
    PHASE_T_CRUSTAL,
    PHASE_Z_CRUSTAL,
    T_CRAWLER,
    T_ENGINEER,
    T_HEAVY_BEAMER,
    T_INFANTRY,
    TECHNOCRAT,
    TWO_HEX,
    UNKNOWN_UNIT,
    Z_HOVERCRAFT,
    Z_INFANTRY,
)
from hotspot.core.setup import NUM_FACINGS
from hotspot.core.state import MAX_PIECES, MAX_UNITS, PF_DONE, STATE_DTYPE, UF_ATTACKING, UF_DONE
from hotspot.core.units import side_seen_by

PLANE_NAMES = (
    "on_map",
    "molten",
    "central",
    "one_hex",
    "two_hex",
    "triangular",
    "long",
    "platform",
    "front",
    "piece_moves",
    "controlled_own",
    "controlled_enemy",
    "neutralized",
    "damage",
    "damage_hidden",
    "infantry_z",
    "hovercraft",
    "infantry_t",
    "crawler",
    "heavy_beamer",
    "engineer",
    "unknown",
    "can_move",
    "attacking",
    "selected",
    "reach_own",
    "attack_own",
    "reach_enemy",
    "attack_enemy",
    "observer",
    "to_move",
    "turn",
) + tuple(f"phase_{p}" for p in ("A", "B", "C", "D", "E", "F", "G", "H", "over", "Z", "T"))
NUM_PLANES = len(PLANE_NAMES)
assert NUM_PLANES == 32 + NUM_PHASES

#: the axial grid: columns q = col (0..14), rows r + R_OFFSET
_ON_MAP_CELLS = np.flatnonzero(ON_MAP)
R_OFFSET = int(-AXIAL_R[_ON_MAP_CELLS].min())
AXIAL_COLS = int(AXIAL_Q[_ON_MAP_CELLS].max()) + 1
AXIAL_ROWS = int(AXIAL_R[_ON_MAP_CELLS].max()) + R_OFFSET + 1
#: GRID_INDEX[cell]: the flat grid index ``row * AXIAL_COLS + col`` of a map hex, -1 off the map
GRID_INDEX = np.full(NUM_CELLS, -1, dtype=np.int64)
GRID_INDEX[_ON_MAP_CELLS] = (AXIAL_R[_ON_MAP_CELLS] + R_OFFSET) * AXIAL_COLS + AXIAL_Q[_ON_MAP_CELLS]
#: CELL_OF_INDEX[i]: the core's cell at flat grid index i, -1 where the grid has no map hex
CELL_OF_INDEX = np.full(AXIAL_ROWS * AXIAL_COLS, -1, dtype=np.int64)
CELL_OF_INDEX[GRID_INDEX[_ON_MAP_CELLS]] = _ON_MAP_CELLS
GRID_INDEX.setflags(write=False)
CELL_OF_INDEX.setflags(write=False)
#: the 3x3 kernel window ``[dr + 1, dq + 1]`` of a hex convolution: the hex and its six neighbours
HEX_KERNEL_MASK = np.ones((3, 3), dtype=np.float32)
HEX_KERNEL_MASK[0, 0] = HEX_KERNEL_MASK[2, 2] = 0.0

_P_FRONT, _P_MOVES, _P_OWN, _P_ENEMY, _P_NEUTRAL, _P_DAMAGE, _P_HIDDEN = 8, 9, 10, 11, 12, 13, 14
_P_TYPE0 = 14  # + unit type (1..6)
_P_UNKNOWN, _P_CAN_MOVE, _P_ATTACKING, _P_SELECTED = 21, 22, 23, 24
_P_REACH = 25  # reach_own, attack_own, reach_enemy, attack_enemy
_P_OBSERVER, _P_TO_MOVE, _P_TURN, _P_PHASE0 = 29, 30, 31, 32
_DEFAULT_TURNS = 200.0
#: the unit types of each side (-1: none): a hidden counter reaches where any of them could
_SIDE_TYPES = np.array([[Z_INFANTRY, Z_HOVERCRAFT, -1, -1], [T_INFANTRY, T_CRAWLER, T_HEAVY_BEAMER, T_ENGINEER]])


def cell_index(cell: int) -> tuple[int, int]:
    """(row, col) on the axial grid of a map hex ``cell``."""
    i = int(GRID_INDEX[cell])
    if i < 0:
        raise ValueError(f"cell {cell} is not a map hex")
    return divmod(i, AXIAL_COLS)


@jit
def _put(planes, p, cell, value):
    i = GRID_INDEX[cell]
    if i >= 0:
        planes[p, i // AXIAL_COLS, i % AXIAL_COLS] += value


@jit
def _pieces(o, side, planes):
    for cell in range(NUM_CELLS):
        if not ON_MAP[cell]:
            continue
        _put(planes, 0, cell, 1.0)
        k = o["board"][cell]
        if k < 0:
            _put(planes, 1, cell, 1.0)
            continue
        kind = o["piece_kind"][k]
        _put(planes, kind + 1, cell, 1.0)  # central 2, one_hex 3, ..., platform 7
        if (kind == TWO_HEX or kind == LONG) and o["piece_cells"][k, 0] == cell:
            _put(planes, _P_FRONT, cell, 1.0)
        if not (o["piece_flags"][k] & PF_DONE):
            _put(planes, _P_MOVES, cell, float(o["piece_moves"][k]))
        _put(planes, _P_OWN if o["piece_controller"][k] == side else _P_ENEMY, cell, 1.0)
        if o["piece_neutralized"][k]:
            _put(planes, _P_NEUTRAL, cell, 1.0)
        damage = o["piece_damage"][k]
        rating = o["rules"]["damage_rating"][kind]
        if damage < 0:
            _put(planes, _P_HIDDEN, cell, 1.0)
        elif damage > 0 and rating > 0:
            _put(planes, _P_DAMAGE, cell, min(1.0, damage / rating))
        if k == o["sel_piece"]:
            _put(planes, _P_SELECTED, cell, 1.0)


@jit
def _units(o, side, planes, scratch, marks):
    for u in range(MAX_UNITS):
        t = o["unit_type"][u]
        if t == NO_UNIT:
            continue
        cell = o["unit_cell"][u]
        owner = side_seen_by(o, u, side)
        if t == UNKNOWN_UNIT:
            _put(planes, _P_UNKNOWN, cell, 1.0)
        else:
            squads = o["unit_squads"][u]
            _put(planes, _P_TYPE0 + t, cell, float(squads if squads > 0 else 1))
        if owner == side and o["unit_moves"][u] > 0 and not (o["unit_flags"][u] & UF_DONE):
            _put(planes, _P_CAN_MOVE, cell, 1.0)
        if o["unit_flags"][u] & UF_ATTACKING:
            _put(planes, _P_ATTACKING, cell, 1.0)
        if u == o["sel_unit"]:
            _put(planes, _P_SELECTED, cell, 1.0)
        # the reach: a hidden counter (D20) reaches where any type of its side could
        marks[:] = 0
        if t == UNKNOWN_UNIT:
            for t2 in _SIDE_TYPES[owner]:
                if t2 >= 0:
                    reach(o, t2, cell, o["rules"]["movement"][t2], scratch, marks)
        else:
            reach(o, t, cell, o["rules"]["movement"][t], scratch, marks)
        base = _P_REACH if owner == side else _P_REACH + 2
        for c in range(NUM_CELLS):
            m = marks[c]
            if m & REACH_ENTER:
                _put(planes, base, c, 1.0)
            if m & REACH_ATTACK:
                _put(planes, base + 1, c, 1.0)


@jit
def encode_planes(o, side, scratch, marks, planes):
    """Write the planes of information state ``o`` (a state record, D20 fog
    applied) as ``side`` sees it into ``planes`` (float32, ``(NUM_PLANES,
    AXIAL_ROWS, AXIAL_COLS)``).  ``scratch`` (int64, ``2 * NUM_CELLS``) and
    ``marks`` (int8, ``NUM_CELLS``) are work space."""
    planes[:, :, :] = 0.0
    _pieces(o, side, planes)
    _units(o, side, planes, scratch, marks)
    sel = o["setup_cell"]
    if sel >= 0:
        _put(planes, _P_SELECTED, sel, 1.0)
    phase = o["phase"]
    to_move = o["loss_side"] if o["loss_side"] >= 0 else PHASE_PLAYER[phase]
    limit = float(o["max_turns"]) if o["max_turns"] > 0 else _DEFAULT_TURNS
    planes[_P_OBSERVER, :, :] = 1.0 if side == TECHNOCRAT else 0.0
    planes[_P_TO_MOVE, :, :] = 1.0 if to_move == side else 0.0
    planes[_P_TURN, :, :] = min(1.0, o["turn"] / limit)
    planes[_P_PHASE0 + phase, :, :] = 1.0
    for p in range(_P_OBSERVER, NUM_PLANES):  # the constant planes, off the map zero as every plane
        for i in range(AXIAL_ROWS * AXIAL_COLS):
            if CELL_OF_INDEX[i] < 0:
                planes[p, i // AXIAL_COLS, i % AXIAL_COLS] = 0.0


# ------------------------------------------------------------ the actions on the grid

#: the per-hex channels of a policy over the grid: each action of a decision
#: that names a hex has its logit at that hex in one of these channels
CELL_CHANNELS = (
    ("select_piece",)  # SELECT_PIECE k at the piece's front hex (or its first map hex)
    + tuple(
        f"select_{n}"
        for n in ("unknown", "infantry_z", "hovercraft", "infantry_t", "crawler", "heavy_beamer", "engineer")
    )
    + ("combine",)  # COMBINE_WITH v at v's hex
    + tuple(f"maneuver_{m}" for m in range(NUM_MANEUVERS))  # A/E: at the selected piece's front hex
    + ("step",)  # B/D/F: a step's logit sits at the hex it enters (8.1)
    + ("setup_hex",)  # SETUP_HEX h at h (3.2, 3.3, D21)
)
NUM_CELL_CHANNELS = len(CELL_CHANNELS)
#: the logits that name no hex: SPLIT, END_PIECE, END_PHASE, SETUP_CHOOSE i, SETUP_FACING f, and one for an
#: action whose hex is off the map (a piece wholly off it, D3)
GLOBAL_ACTIONS = (
    ("split", "end_piece", "end_phase")
    + tuple(f"choose_{i}" for i in range(NUM_ITEMS))
    + tuple(f"facing_{f}" for f in range(NUM_FACINGS))
    + ("off_map",)
)
NUM_GLOBAL_ACTIONS = len(GLOBAL_ACTIONS)
GRID_SIZE = AXIAL_ROWS * AXIAL_COLS
#: the length of a policy's logits: ``NUM_CELL_CHANNELS`` planes of the grid, then the global ones
NUM_SLOTS = NUM_CELL_CHANNELS * GRID_SIZE + NUM_GLOBAL_ACTIONS
_CH_PIECE, _CH_UNIT0, _CH_COMBINE, _CH_MANEUVER0 = 0, 1, 8, 9
_CH_STEP = _CH_MANEUVER0 + NUM_MANEUVERS
_CH_SETUP_HEX = _CH_STEP + 1
_G0 = NUM_CELL_CHANNELS * GRID_SIZE


@jit
def _slot(channel, cell):
    i = GRID_INDEX[cell] if cell >= 0 else -1
    if i < 0:
        return _G0 + NUM_GLOBAL_ACTIONS - 1
    return channel * GRID_SIZE + i


@jit
def _piece_cell(o, k):
    for j in range(3):
        cell = o["piece_cells"][k, j]
        if cell >= 0 and ON_MAP[cell]:
            return cell
    return -1


@jit
def action_slots(o, slots):
    """Where each action's logit lies in a policy of ``NUM_SLOTS`` logits, in
    information state ``o``: ``slots[a]`` (int64, ``NUM_ACTIONS``) is
    ``channel * GRID_SIZE + grid index`` for an action that names a hex
    (:data:`CELL_CHANNELS`) and ``NUM_CELL_CHANNELS * GRID_SIZE + i`` for the
    i-th of :data:`GLOBAL_ACTIONS`.  Counters of one type in one hex share a
    logit (their SELECT_UNIT actions are one choice to the policy)."""
    phase = o["phase"]
    for k in range(MAX_PIECES):
        slots[A_SELECT_PIECE + k] = _slot(_CH_PIECE, _piece_cell(o, k) if o["piece_kind"][k] != NO_PIECE else -1)
    for u in range(MAX_UNITS):
        t = o["unit_type"][u]
        cell = o["unit_cell"][u] if t != NO_UNIT else -1
        slots[A_SELECT_UNIT + u] = _slot(_CH_UNIT0 + (t if t > 0 else 0), cell)
        slots[A_COMBINE + u] = _slot(_CH_COMBINE, cell)
    sel_cell = -1
    if o["sel_piece"] >= 0:
        sel_cell = _piece_cell(o, o["sel_piece"])
    for m in range(NUM_MANEUVERS):
        if phase == PHASE_Z_CRUSTAL or phase == PHASE_T_CRUSTAL:
            slots[A_MANEUVER + m] = _slot(_CH_MANEUVER0 + m, sel_cell)
        else:
            target = -1
            if o["sel_unit"] >= 0 and m < 6:
                target = NEIGHBOUR[o["unit_cell"][o["sel_unit"]], m]
            slots[A_MANEUVER + m] = _slot(_CH_STEP, target)
    slots[A_SPLIT] = _G0
    slots[A_END_PIECE] = _G0 + 1
    slots[A_END_PHASE] = _G0 + 2
    for i in range(NUM_ITEMS):
        slots[A_SETUP_CHOOSE + i] = _G0 + 3 + i
    for h in range(NUM_MAP_HEXES):
        slots[A_SETUP_HEX + h] = _slot(_CH_SETUP_HEX, MAP_HEX_CELL[h])
    for f in range(NUM_FACINGS):
        slots[A_SETUP_FACING + f] = _G0 + 3 + NUM_ITEMS + f


@jit
def _encode_batch(states, sides, fog, info, scratch, marks, out, slots, with_slots):
    for b in range(states.shape[0]):
        observe(states[b], sides[b], fog, info[0])
        encode_planes(info[0], sides[b], scratch, marks, out[b])
        if with_slots:
            action_slots(info[0], slots[b])


def board_planes(states, side, fog: bool = True, out: np.ndarray | None = None, slots: np.ndarray | None = None):
    """The planes of every state of ``states`` (a state record, or an array of
    them) as ``side`` knows it (0 Ziegler, 1 Technocrat, or one side a state;
    ``fog``: D20, False only for perfect-information uses): float32
    ``(len(states), NUM_PLANES, AXIAL_ROWS, AXIAL_COLS)`` (written into ``out``
    if given).  With ``slots`` (int64, ``(len(states), NUM_ACTIONS)``) each
    state's :func:`action_slots` are written there too."""
    states = np.asarray(states)
    if states.dtype != STATE_DTYPE:
        raise TypeError(f"states must be game states ({STATE_DTYPE.itemsize}-byte records), got dtype {states.dtype}")
    states = states.reshape(-1)
    sides = np.broadcast_to(np.asarray(side), (len(states),)) if np.ndim(side) == 0 else np.asarray(side)
    if sides.shape != (len(states),) or not np.isin(sides, (0, 1)).all():
        raise ValueError(f"side must be 0 (Ziegler) or 1 (Technocrat), one or one a state; got {side!r}")
    shape = (len(states), NUM_PLANES, AXIAL_ROWS, AXIAL_COLS)
    if out is None:
        out = np.zeros(shape, dtype=np.float32)
    elif out.shape != shape or out.dtype != np.float32:
        raise ValueError(f"out must be float32 of shape {shape}, got {out.dtype} {out.shape}")
    with_slots = slots is not None
    if with_slots and (slots.shape != (len(states), NUM_ACTIONS) or slots.dtype != np.int64):
        raise ValueError(f"slots must be int64 of shape {(len(states), NUM_ACTIONS)}, got {slots.dtype} {slots.shape}")
    info = np.zeros(1, dtype=STATE_DTYPE)
    _encode_batch(
        states,
        sides.astype(np.int64),
        bool(fog),
        info,
        np.zeros(2 * NUM_CELLS, np.int64),
        np.zeros(NUM_CELLS, np.int8),
        out,
        slots if with_slots else np.zeros((1, NUM_ACTIONS), np.int64),
        with_slots,
    )
    return out


__all__ = [
    "AXIAL_COLS",
    "CELL_CHANNELS",
    "GLOBAL_ACTIONS",
    "GRID_SIZE",
    "NUM_CELL_CHANNELS",
    "NUM_GLOBAL_ACTIONS",
    "NUM_SLOTS",
    "action_slots",
    "AXIAL_ROWS",
    "CELL_OF_INDEX",
    "GRID_INDEX",
    "HEX_KERNEL_MASK",
    "NUM_PLANES",
    "PLANE_NAMES",
    "R_OFFSET",
    "board_planes",
    "cell_index",
    "encode_planes",
]
