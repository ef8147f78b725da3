"""The game state: one numpy record of fixed size (the layout is documented in
docs/state-layout.md and here).

A game is one record of ``STATE_DTYPE``; a batch of games is a 1-d array of
them (the leading axis), cloning is ``state.copy()``, and a state travels as
``state.tobytes()`` / ``np.frombuffer(..., STATE_DTYPE)``.  The compiled rules
take one record (``states[i]``) and change it in place; every field is read
and written with ``s["name"]`` so that the same code runs compiled and under
``NUMBA_DISABLE_JIT=1``.

Header
    turn (1-based), phase (4.0, A..H as 0..7, 8 = over), result (5.0),
    truncated (stopped by a harness's max_turns: no result, D19 revised), sel_piece / sel_unit (the piece or unit the
    player to move has selected, -1 none), n_actions (atomic actions applied),
    rng (splitmix64 state of the dice), dice_queue / dice_len / dice_pos
    (scripted dice, used before the generator: for tests and replays of
    printed examples), version.
Pieces (index 0 = Central Crustal, D2)
    piece_kind, piece_cells[3] (cells; slot 0 is the front of two-hex and long
    crustals, slot 1 the centre of a long crustal; -1 = unused), piece_damage,
    piece_controller (side), piece_neutralized, piece_control_turn (turn the
    Technocrat took control, 15.4), piece_moves (steps left in the current
    crustal movement phase), piece_flags (PF_*), piece_stress (bit per slot:
    stress rolled this turn, 13.2), piece_label (identification letter or number, 2.2.2).
    A piece's facing is not stored: it is the direction from its rear (or
    centre) hex to its front hex (see ``crustal_movement.facing``).
Units
    unit_type (NO_UNIT = free slot), unit_squads (infantry 1-3; 1 otherwise),
    unit_cell, unit_from (cell it entered its hex from, 12.6, D16),
    unit_moves (movement left this phase), unit_flags (UF_*).
Board
    board[cell] = index of the piece on that cell, or -1 for molten rock;
    cell_units[cell, side] = counters of each side in the cell (an index
    kept by units.place_at / units.remove, so that stacking and combat
    queries need no scan of the units).
Rules
    rules: the ``RULES_DTYPE`` options record the game is played under.
Harness, set-up and pending decisions
    max_turns (a harness's limit: after the Crustal Control phase of this
    turn the game is truncated, no winner; 0 = none, D19 revised), pool
    (set-up pools still to place, POOL_*, 3.2, 3.3, D21), setup_item /
    setup_cell (the item chosen and, for a crustal, its hex; -1 none),
    loss_side / loss_cell / loss_reason / loss_elim (a squad loss the
    owner must choose, D22 ``losses="owner"``; loss_side -1 none), revealed
    (hexes whose Technocrat stack a refused hovercraft entry showed the
    Ziegler player this phase, 13.3, D20; -1 unused).
"""

from __future__ import annotations

import numpy as np

from .hexgrid import NUM_CELLS
from .rules_data import MAX_PIECE_CELLS, NUM_POOLS, RULES_DTYPE

MAX_PIECES = 32
MAX_UNITS = 96
DICE_QUEUE = 32
#: the last turn the int16 ``turn`` counter holds: a game still going after
#: this turn's Crustal Control phase is truncated (victory.truncate_if_over_time)
LAST_TURN = 32767
MAX_REVEALED = 8
STATE_VERSION = 4
# from_bytes refuses a larger n_actions (int32): a game goes on counting from
# there, and does not count another 2**30 actions before the int32 wraps
MAX_LOADED_ACTIONS = 2**30

# piece_flags
PF_DONE = 1  # has finished its crustal movement this phase
PF_NEUTRALIZE_TRIED = 2  # a neutralization attempt was made this control phase
PF_STARTED = 4  # has begun moving this phase (it may continue only while selected)
PF_SKIPPED = 8  # was selected and left unmoved once this phase (a second time ends its move)

# unit_flags
UF_DONE = 1  # has finished its movement this phase
UF_ATTACKING = 2  # entered a hex holding enemy units this phase (8.3, 12.1)
UF_STARTED = 4  # has begun moving this phase
UF_SKIPPED = 8  # was selected and left unmoved once this phase (a second time ends its move)
UF_COMBINED = 16  # made by combining this phase: it may not split again this phase (10.0, R10.2)
UF_SPLIT = 32  # made by a split this phase (set only under stress_timing="moving_side", D22, 9.3)

STATE_DTYPE = np.dtype(
    [
        ("version", "i2"),
        ("turn", "i2"),
        ("phase", "i1"),
        ("result", "i1"),
        ("truncated", "i1"),
        ("sel_piece", "i1"),
        ("sel_unit", "i1"),
        ("dice_len", "i1"),
        ("dice_pos", "i1"),
        ("_pad", "i1"),
        ("n_actions", "i4"),
        ("rng", "u8"),
        ("dice_queue", "i1", (DICE_QUEUE,)),
        ("piece_kind", "i1", (MAX_PIECES,)),
        ("piece_cells", "i2", (MAX_PIECES, MAX_PIECE_CELLS)),
        ("piece_damage", "i1", (MAX_PIECES,)),
        ("piece_controller", "i1", (MAX_PIECES,)),
        ("piece_neutralized", "i1", (MAX_PIECES,)),
        ("piece_control_turn", "i2", (MAX_PIECES,)),
        ("piece_moves", "i1", (MAX_PIECES,)),
        ("piece_flags", "i1", (MAX_PIECES,)),
        ("piece_stress", "i1", (MAX_PIECES,)),
        ("piece_label", "i1", (MAX_PIECES,)),
        ("unit_type", "i1", (MAX_UNITS,)),
        ("unit_squads", "i1", (MAX_UNITS,)),
        ("unit_cell", "i2", (MAX_UNITS,)),
        ("unit_from", "i2", (MAX_UNITS,)),
        ("unit_moves", "i1", (MAX_UNITS,)),
        ("unit_flags", "i1", (MAX_UNITS,)),
        ("board", "i1", (NUM_CELLS,)),
        ("cell_units", "i1", (NUM_CELLS, 2)),
        ("rules", RULES_DTYPE),
        ("max_turns", "i2"),
        ("pool", "i1", (NUM_POOLS,)),
        ("setup_item", "i1"),
        ("setup_cell", "i2"),
        ("loss_side", "i1"),
        ("loss_cell", "i2"),
        ("loss_reason", "i1"),
        ("loss_elim", "i1"),
        ("revealed", "i2", (MAX_REVEALED,)),
    ]
)
STATE_BYTES = STATE_DTYPE.itemsize

# Version 2 (before the set-up phase, D21, and the D22 options): read and
# converted by from_bytes, field by field (turn_limit is dropped, D19 revised).
_RULES_DTYPE_V2 = np.dtype(
    [("turn_limit", "i2")]
    + [
        (name, RULES_DTYPE.fields[name][0])
        for name in RULES_DTYPE.names
        if name
        in (
            "platform_turns",
            "first_turn_one_hex_move",
            "one_hex_move",
            "platform_move",
            "hover_second_move",
            "two_hex_turn_after_collision",
            "forbid_molten_entry",
            "stack_side_crustal",
            "stack_total_crustal",
            "stack_platform",
            "stress_threshold",
            "damage_roll_max",
            "control_roll_max",
            "neutralize_roll_max",
            "cia_enabled",
            "damage_rating",
            "attack",
            "defense",
            "movement",
        )
    ]
)
_STATE_DTYPE_V2 = np.dtype(
    [
        (name, STATE_DTYPE.fields[name][0])
        for name in STATE_DTYPE.names
        if name
        not in (
            "rules",
            "max_turns",
            "pool",
            "setup_item",
            "setup_cell",
            "loss_side",
            "loss_cell",
            "loss_reason",
            "loss_elim",
            "revealed",
        )
    ]
    + [("rules", _RULES_DTYPE_V2)]
)


# Version 3 (before the sees_through_fog probe, R9.5b): the rules record
# without its last field; read and converted by name like version 2.
_RULES_DTYPE_V3 = np.dtype(
    [(name, RULES_DTYPE.fields[name][0]) for name in RULES_DTYPE.names if name != "sees_through_fog"]
)
_STATE_DTYPE_V3 = np.dtype(
    [(name, STATE_DTYPE.fields[name][0] if name != "rules" else _RULES_DTYPE_V3) for name in STATE_DTYPE.names]
)
_OLD_LAYOUTS = {2: _STATE_DTYPE_V2, 3: _STATE_DTYPE_V3}


def _convert(old: np.ndarray) -> np.ndarray:
    """States of an older layout as version-``STATE_VERSION`` states, field by
    field (a field the old layout lacks keeps its default: 0 in the rules)."""
    new = empty_states(old.shape[0])
    for name in old.dtype.names:
        if name == "rules":
            for rname in old.dtype["rules"].names:
                if rname != "turn_limit":
                    new["rules"][rname] = old["rules"][rname]
        elif name != "version":
            new[name] = old[name]
    return new


def empty_states(n: int = 1) -> np.ndarray:
    """A batch of ``n`` blank states (no pieces, no units), not yet a game."""
    states = np.zeros(n, dtype=STATE_DTYPE)
    states["version"] = STATE_VERSION
    states["sel_piece"] = -1
    states["sel_unit"] = -1
    states["piece_cells"] = -1
    states["unit_cell"] = -1
    states["unit_from"] = -1
    states["board"] = -1
    states["turn"] = 1
    states["setup_item"] = -1
    states["setup_cell"] = -1
    states["loss_side"] = -1
    states["loss_cell"] = -1
    states["revealed"] = -1
    return states


def to_bytes(state) -> bytes:
    """Serialize one state (or a batch) to bytes."""
    return np.ascontiguousarray(state).tobytes()


class StateError(ValueError):
    """State bytes that are not a state the rules can be given (corrupt,
    another version, or breaking an invariant of docs/state-layout.md)."""


def decode_bytes(data: bytes, source: str = "state bytes") -> np.ndarray:
    """A batch of states from bytes made by :func:`to_bytes`, **unchecked**:
    only the length and the layout version are checked (version 2 and 3
    bytes are converted).  Use ``integrity.from_bytes`` (``hotspot.core.from_bytes``),
    which also checks every invariant, for bytes from outside."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"{source} must be bytes, got {type(data).__name__}")
    data = bytes(data)
    version = int(np.frombuffer(data[:2], "<i2")[0]) if len(data) >= 2 else None
    layout = _OLD_LAYOUTS.get(version)
    if layout is not None and len(data) % layout.itemsize == 0:
        return _convert(np.frombuffer(data, dtype=layout))
    if len(data) == 0 or len(data) % STATE_BYTES:
        raise StateError(
            f"{source} have length {len(data)}, not a multiple of the state size "
            f"{STATE_BYTES}: corrupt or from another version"
        )
    states = np.frombuffer(data, dtype=STATE_DTYPE).copy()
    bad = np.nonzero(states["version"] != STATE_VERSION)[0]
    if bad.size:
        raise StateError(
            f"{source}: state {int(bad[0])} has layout version "
            f"{int(states['version'][bad[0]])}, expected {STATE_VERSION}"
        )
    return states
