"""Is this a state the compiled rules can be given?  Every invariant of
docs/state-layout.md, checked before anything from outside reaches the core.

State bytes (``hotspot.core.from_bytes``, ``Game.from_bytes``), a record's
``initial_state`` and the arena's saved games all pass through
:func:`check_states`; the soak (``soak/soak.py``) runs :func:`state_fault`
after every action of millions of games.

:func:`state_fault` is compiled and safe on garbage: it reads an index only
after checking its range, so it can judge any bytes of the right length.  It
returns the first broken invariant as ``(code, index)``; ``FAULTS[code]``
names the field and the rule.  The rules options record is checked in Python
(:func:`rules_error`), since ``RulesOptions`` is where their ranges live.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit
from .actions import NUM_ACTIONS, legal_action_mask
from .hexgrid import CENTRAL_CELLS, NEIGHBOUR, NUM_CELLS, ON_MAP
from .rules_data import (
    CENTRAL,
    ITEM_PIECE_KIND,
    ITEM_POOL,
    ITEM_SIDE,
    LONG,
    NO_PIECE,
    NO_UNIT,
    NUM_ITEMS,
    NUM_PHASES,
    NUM_POOLS,
    NUM_UNIT_TYPES,
    ONE_HEX,
    PHASE_OVER,
    PHASE_T_SETUP,
    PHASE_Z_CRUSTAL,
    PHASE_Z_SETUP,
    PIECE_SIZE,
    PLATFORM,
    POOL_SIDE,
    RULES_DTYPE,
    TECHNOCRAT,
    TRIANGULAR,
    TWO_HEX,
    UNIT_IS_INFANTRY,
    UNIT_SIDE,
    ZIEGLER,
    RulesOptions,
)
from .setup import pools_fit
from .state import (
    DICE_QUEUE,
    MAX_LOADED_ACTIONS,
    MAX_PIECES,
    MAX_UNITS,
    STATE_DTYPE,
    STATE_VERSION,
    StateError,
    decode_bytes,
)

# Bits that may be set (docs/state-layout.md, "Flags").
PIECE_FLAG_BITS = 1 | 2 | 4 | 8  # PF_DONE, PF_NEUTRALIZE_TRIED, PF_STARTED, PF_SKIPPED
UNIT_FLAG_BITS = 1 | 2 | 4 | 8 | 16 | 32  # UF_DONE .. UF_SPLIT
MAX_STEPS = 99  # movement points and piece steps: the rules options allow at most 99
MAX_LABEL = 127  # piece_label is an int8 (2.2.2, 2.2.3)
NUM_ELIM_REASONS = 8  # events.ELIM_*
NUM_SQUAD_LOST_REASONS = 2  # events.SQUAD_LOST_*

OK = 0
FAULTS = (
    "no fault",
    "version: not the layout version",  # 1
    "turn: game turns start at 1 (4.0) and a live game is not past max_turns",  # 2
    "phase: not a phase (0..10, docs/state-layout.md)",  # 3
    "result/truncated: not 0..2 / 0..1, or not matching the phase (8 = over)",  # 4
    "sel_piece: not -1 or a crustal/platform in play, or outside a crustal phase",  # 5
    "sel_unit: not -1 or a unit in play, or outside a movement phase",  # 6
    "dice_len/dice_pos: not 0 <= dice_pos <= dice_len <= 32",  # 7
    "dice_queue: a scripted roll not in 1..6",  # 8
    "_pad/n_actions: padding not 0 or a negative action count",  # 9
    "piece_kind: not a piece kind, or piece 0 not the Central Crustal (D2)",  # 10
    "piece_cells: a hex outside the extended grid or slots not matching the kind",  # 11
    "piece_cells: not the shape of its kind (2.2.2)",  # 12
    "piece_cells: a piece in play with no hex on the map (6.9, D3)",  # 13
    "board: does not match the pieces' hexes (6.2)",  # 14
    "piece_damage: negative or above 99 (14.1)",  # 15
    "piece_controller: not 0/1, or a platform not the Technocrat's (2.2.3, 15.2)",  # 16
    "piece_neutralized: not 0/1, or a neutralized platform or Ziegler crustal (15.4)",  # 17
    "piece_control_turn: negative, or set on a Ziegler-controlled crustal (15.2, 15.3)",  # 18
    "piece_moves: not 0..99 (6.3-6.7)",  # 19
    "piece_flags: unknown bits",  # 20
    "piece_stress: a bit for a slot the piece does not have (13.2)",  # 21
    "piece_label: not 1..127 (0 for the Central Crustal) (2.2.2, 2.2.3)",  # 22
    "unit_type: not a unit type (0..6)",  # 23
    "unit_squads: infantry holds 1..3 squads, other units 1, free slots 0 (10.0)",  # 24
    "unit_cell: a unit not on a map hex of a piece (8.2, D3), or a free slot not -1",  # 25
    "unit_from: not -1 or a hex of the extended grid (12.6, D16)",  # 26
    "unit_moves: not 0..99 (8.1)",  # 27
    "unit_flags: unknown bits",  # 28
    "cell_units: does not count the units in each hex",  # 29
    "max_turns: negative",  # 30
    "pool: negative, or not matching the set-up phase (3.2, 3.3, D21)",  # 31
    "pool: the forces left cannot all be set up (3.2, 3.3, 9.1, 9.2)",  # 32
    "setup_item/setup_cell: not a pending item of the side setting up (D21)",  # 33
    "loss_side/loss_cell/loss_reason/loss_elim: not a pending owner-chosen loss (D22)",  # 34
    "revealed: not -1 or a map hex (13.3, D20)",  # 35
    "phase: the player to move has no legal action in a game not over (4.0)",  # 36
)
(
    F_VERSION,
    F_TURN,
    F_PHASE,
    F_RESULT,
    F_SEL_PIECE,
    F_SEL_UNIT,
    F_DICE_LEN,
    F_DICE_QUEUE,
    F_HEADER,
    F_PIECE_KIND,
    F_PIECE_SLOTS,
    F_PIECE_SHAPE,
    F_PIECE_OFF_MAP,
    F_BOARD,
    F_DAMAGE,
    F_CONTROLLER,
    F_NEUTRALIZED,
    F_CONTROL_TURN,
    F_PIECE_MOVES,
    F_PIECE_FLAGS,
    F_PIECE_STRESS,
    F_LABEL,
    F_UNIT_TYPE,
    F_SQUADS,
    F_UNIT_CELL,
    F_UNIT_FROM,
    F_UNIT_MOVES,
    F_UNIT_FLAGS,
    F_CELL_UNITS,
    F_MAX_TURNS,
    F_POOL,
    F_POOL_FIT,
    F_SETUP_ITEM,
    F_LOSS,
    F_REVEALED,
    F_NO_ACTION,
) = range(1, len(FAULTS))


@jit
def _cell_ok(c):
    return 0 <= c < NUM_CELLS


@jit
def _shape_ok(kind, c0, c1, c2):
    """2.2.2: a two-hex crustal's hexes adjacent, a triangular one's mutually
    adjacent, a long one's in a straight line (front, centre, rear)."""
    if kind == TWO_HEX:
        for d in range(6):
            if NEIGHBOUR[c1, d] == c0:
                return True
        return False
    if kind == TRIANGULAR:
        a01 = a02 = a12 = False
        for d in range(6):
            a01 = a01 or NEIGHBOUR[c0, d] == c1
            a02 = a02 or NEIGHBOUR[c0, d] == c2
            a12 = a12 or NEIGHBOUR[c1, d] == c2
        return a01 and a02 and a12
    if kind == LONG:
        for d in range(6):
            if NEIGHBOUR[c1, d] == c0 and NEIGHBOUR[c1, (d + 3) % 6] == c2:
                return True
        return False
    return True


@jit
def _piece_fault(s, k):  # noqa: C901 (one check a field of a piece, each a one-line message)
    kind = s["piece_kind"][k]
    if not 0 <= s["piece_controller"][k] <= 1:
        return F_CONTROLLER
    if not 0 <= s["piece_neutralized"][k] <= 1:
        return F_NEUTRALIZED
    if s["piece_control_turn"][k] < 0:
        return F_CONTROL_TURN
    if not 0 <= s["piece_moves"][k] <= MAX_STEPS:
        return F_PIECE_MOVES
    if s["piece_flags"][k] & ~PIECE_FLAG_BITS:
        return F_PIECE_FLAGS
    if kind == NO_PIECE or kind == CENTRAL:
        for i in range(3):
            if s["piece_cells"][k, i] != -1:
                return F_PIECE_SLOTS
        if kind == CENTRAL and (
            s["piece_damage"][k] != 0
            or s["piece_neutralized"][k] != 0
            or s["piece_stress"][k] != 0
            or s["piece_label"][k] != 0
        ):
            return F_DAMAGE
        if not 0 <= s["piece_damage"][k] <= 99:
            return F_DAMAGE
        return OK
    size = PIECE_SIZE[kind]
    on_map = 0
    for i in range(3):
        c = s["piece_cells"][k, i]
        if i < size:
            if not _cell_ok(c):
                return F_PIECE_SLOTS
            if ON_MAP[c]:
                on_map += 1
        elif c != -1:
            return F_PIECE_SLOTS
    if not _shape_ok(kind, s["piece_cells"][k, 0], s["piece_cells"][k, 1], s["piece_cells"][k, 2]):
        return F_PIECE_SHAPE
    if on_map == 0:
        return F_PIECE_OFF_MAP
    if not 0 <= s["piece_damage"][k] <= 99:
        return F_DAMAGE
    if kind == PLATFORM and s["piece_controller"][k] != TECHNOCRAT:
        return F_CONTROLLER
    if s["piece_neutralized"][k] and (kind == PLATFORM or s["piece_controller"][k] != TECHNOCRAT):
        return F_NEUTRALIZED
    if kind != PLATFORM and s["piece_controller"][k] == ZIEGLER and s["piece_control_turn"][k] != 0:
        return F_CONTROL_TURN
    if s["piece_stress"][k] & ~((1 << size) - 1):
        return F_PIECE_STRESS
    if not 1 <= s["piece_label"][k] <= MAX_LABEL:
        return F_LABEL
    return OK


@jit
def _unit_fault(s, u):
    t = s["unit_type"][u]
    if not 0 <= t < NUM_UNIT_TYPES:
        return F_UNIT_TYPE
    if not 0 <= s["unit_moves"][u] <= MAX_STEPS:
        return F_UNIT_MOVES
    if s["unit_flags"][u] & ~UNIT_FLAG_BITS:
        return F_UNIT_FLAGS
    f = s["unit_from"][u]
    if f != -1 and not _cell_ok(f):
        return F_UNIT_FROM
    c = s["unit_cell"][u]
    if t == NO_UNIT:
        if s["unit_squads"][u] != 0:
            return F_SQUADS
        if c != -1:
            return F_UNIT_CELL
        return OK
    sq = s["unit_squads"][u]
    if (UNIT_IS_INFANTRY[t] and not 1 <= sq <= 3) or (not UNIT_IS_INFANTRY[t] and sq != 1):
        return F_SQUADS
    if not _cell_ok(c) or not ON_MAP[c] or s["board"][c] < 0:
        return F_UNIT_CELL
    return OK


@jit
def _header_fault(s):
    if s["version"] != STATE_VERSION:
        return F_VERSION, 0
    p = s["phase"]
    if not 0 <= p < NUM_PHASES:
        return F_PHASE, 0
    if s["turn"] < 1 or (s["max_turns"] > 0 and p != PHASE_OVER and s["turn"] > s["max_turns"]):
        return F_TURN, 0
    if s["max_turns"] < 0:
        return F_MAX_TURNS, 0
    r = s["result"]
    tr = s["truncated"]
    if not 0 <= r <= 2 or not 0 <= tr <= 1 or (r != 0 and tr != 0) or ((r != 0 or tr != 0) != (p == PHASE_OVER)):
        return F_RESULT, 0
    if not 0 <= s["dice_pos"] <= s["dice_len"] <= DICE_QUEUE:
        return F_DICE_LEN, 0
    for i in range(s["dice_len"]):
        if not 1 <= s["dice_queue"][i] <= 6:
            return F_DICE_QUEUE, i
    if s["_pad"] != 0 or s["n_actions"] < 0:
        return F_HEADER, 0
    return OK, 0


@jit
def _selection_fault(s):
    p = s["phase"]
    k = s["sel_piece"]
    if k != -1:
        if not 1 <= k < MAX_PIECES or s["piece_kind"][k] == NO_PIECE or not (p == PHASE_Z_CRUSTAL or p == 4):
            return F_SEL_PIECE
    u = s["sel_unit"]
    if u != -1:
        if not 0 <= u < MAX_UNITS or s["unit_type"][u] == NO_UNIT or not (p == 1 or p == 3 or p == 5):
            return F_SEL_UNIT
    return OK


@jit
def _setup_fault(s):
    """Pools, the pending set-up item and the pending loss (D21, D22)."""
    p = s["phase"]
    z_left = False
    t_left = False
    for i in range(NUM_POOLS):
        if s["pool"][i] < 0:
            return F_POOL, i
        if s["pool"][i] > 0:
            if POOL_SIDE[i] == ZIEGLER:
                z_left = True
            else:
                t_left = True
    if p == PHASE_Z_SETUP:
        if not z_left:
            return F_POOL, 0
    elif p == PHASE_T_SETUP:
        if z_left or not t_left:
            return F_POOL, 0
    elif z_left or t_left:
        return F_POOL, 0
    item = s["setup_item"]
    cell = s["setup_cell"]
    if item == -1:
        if cell != -1:
            return F_SETUP_ITEM, 0
    else:
        side = ZIEGLER if p == PHASE_Z_SETUP else TECHNOCRAT
        if (
            not 0 <= item < NUM_ITEMS
            or not (p == PHASE_Z_SETUP or p == PHASE_T_SETUP)
            or ITEM_SIDE[item] != side
            or s["pool"][ITEM_POOL[item]] <= 0
        ):
            return F_SETUP_ITEM, 0
        kind = ITEM_PIECE_KIND[item]
        if cell != -1 and (
            kind == NO_PIECE or kind == ONE_HEX or kind == PLATFORM or not _cell_ok(cell) or not ON_MAP[cell]
        ):
            return F_SETUP_ITEM, 0
    side = s["loss_side"]
    lc = s["loss_cell"]
    if side == -1:
        if lc != -1 or s["loss_reason"] != 0 or s["loss_elim"] != 0:
            return F_LOSS, 0
    else:
        if (
            not 0 <= side <= 1
            or not _cell_ok(lc)
            or s["cell_units"][lc, side] <= 0
            or not 0 <= s["loss_reason"] < NUM_SQUAD_LOST_REASONS
            or not 0 <= s["loss_elim"] < NUM_ELIM_REASONS
            or p >= PHASE_OVER
        ):
            return F_LOSS, 0
    for i in range(s["revealed"].shape[0]):
        c = s["revealed"][i]
        if c != -1 and (not _cell_ok(c) or not ON_MAP[c]):
            return F_REVEALED, i
    return OK, 0


@jit
def state_fault(s):  # noqa: C901 (one check a field of the state, each a one-line message)
    """The first broken invariant of state ``s`` as ``(code, index)``, or
    ``(OK, 0)``; ``index`` is the piece, unit, cell or slot concerned.

    Safe on any bytes: every value is range-checked before it is used as an
    index.  Stacking (9.1, 9.2) is not an invariant of a state: the rules
    resolve overstacking (12.6) and a scenario checks it (``position_errors``).
    The last check, that a game not over has a legal action, runs the legal
    mask, which is safe once everything before it holds."""
    code, i = _header_fault(s)
    if code != OK:
        return code, i
    if s["piece_kind"][0] != CENTRAL:
        return F_PIECE_KIND, 0
    for k in range(MAX_PIECES):
        kind = s["piece_kind"][k]
        if not 0 <= kind < PIECE_SIZE.shape[0] or (k > 0 and kind == CENTRAL):
            return F_PIECE_KIND, k
        code = _piece_fault(s, k)
        if code != OK:
            return code, k
    # 6.2: one piece a hex, and the board is exactly the pieces' hexes
    for c in range(NUM_CELLS):
        b = s["board"][c]
        if not -1 <= b < MAX_PIECES:
            return F_BOARD, c
        if b > 0:
            found = False
            for i in range(3):
                if s["piece_cells"][b, i] == c:
                    found = True
            if not found:
                return F_BOARD, c
    for c in CENTRAL_CELLS:
        if s["board"][c] != 0:
            return F_BOARD, c
    zero_cells = 0
    for c in range(NUM_CELLS):
        if s["board"][c] == 0:
            zero_cells += 1
    if zero_cells != CENTRAL_CELLS.shape[0]:
        return F_BOARD, 0
    for k in range(1, MAX_PIECES):
        if s["piece_kind"][k] != NO_PIECE:
            for i in range(PIECE_SIZE[s["piece_kind"][k]]):
                if s["board"][s["piece_cells"][k, i]] != k:
                    return F_BOARD, s["piece_cells"][k, i]
    code = _selection_fault(s)
    if code != OK:
        return code, 0
    for u in range(MAX_UNITS):
        code = _unit_fault(s, u)
        if code != OK:
            return code, u
    counts = np.zeros((NUM_CELLS, 2), dtype=np.int32)
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t != NO_UNIT:
            counts[s["unit_cell"][u], UNIT_SIDE[t]] += 1
    for c in range(NUM_CELLS):
        for side in range(2):
            if s["cell_units"][c, side] != counts[c, side]:
                return F_CELL_UNITS, c
    code, i = _setup_fault(s)
    if code != OK:
        return code, i
    # 4.0: play never stops in a position with no decision (a combat phase with
    # no combat left, an item chosen that fits nowhere): the rules always move
    # on, so such a state cannot arise; judged with the one legality check
    if s["phase"] != PHASE_OVER:
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        legal_action_mask(s, mask)
        if not mask.any():
            return F_NO_ACTION, 0
    return OK, 0


@jit
def batch_faults(states, out):
    """``out[i] = code * 1000 + index`` of :func:`state_fault` for every game (0 = sound)."""
    for i in range(states.shape[0]):
        code, j = state_fault(states[i])
        out[i] = code * 1000 + j


def rules_error(rec) -> str | None:
    """Why the rules record ``rec`` is not one ``RulesOptions`` makes, or None."""
    try:
        options = RulesOptions.from_record(rec)
    except ValueError as exc:
        return str(exc)
    if options.to_record().tobytes() != np.asarray(rec, dtype=RULES_DTYPE).tobytes():
        made = options.to_record()
        for name in RULES_DTYPE.names:
            if not np.array_equal(made[name], rec[name]):
                return f"rules field {name!r} holds {np.asarray(rec[name]).tolist()}, not a valid value"
    return None


def state_errors(states) -> list[str]:
    """Every state of the batch that breaks an invariant, one message each
    (naming the state, the field and the rule); empty if all are sound."""
    states = np.atleast_1d(states)
    if states.dtype != STATE_DTYPE:
        return [f"not an array of hotspot states (dtype {states.dtype})"]
    errors = []
    for i in range(states.shape[0]):
        s = states[i]
        err = rules_error(s["rules"])
        if err is not None:
            errors.append(f"state {i}: {err}")
            continue
        code, j = state_fault(s)
        if code != OK:
            errors.append(f"state {i}: {FAULTS[code]} (at index {j})")
            continue
        if (s["phase"] == PHASE_Z_SETUP or s["phase"] == PHASE_T_SETUP) and pools_fit(s) >= 0:
            errors.append(f"state {i}: {FAULTS[F_POOL_FIT]}")
    return errors


def check_states(states, source: str = "state bytes") -> None:
    """Raise ``StateError`` naming ``source`` and the first broken invariant."""
    errors = state_errors(states)
    if errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise StateError(f"{source}: {errors[0]}{more}")


__all__ = ["FAULTS", "StateError", "state_fault", "batch_faults", "rules_error", "state_errors", "check_states"]


def from_bytes(data: bytes, source: str = "state bytes") -> np.ndarray:
    """A batch of states from bytes made by ``state.to_bytes``.

    Every state is checked against every invariant of docs/state-layout.md
    (:func:`check_states`) before it is returned, so compiled code never sees
    corrupt bytes, and its ``n_actions`` must leave the counter room (at most
    ``state.MAX_LOADED_ACTIONS``); refusals raise ``StateError`` (a
    ``ValueError``) naming ``source``, the state and the field."""
    states = decode_bytes(data, source)
    check_states(states, source)
    big = np.nonzero(states["n_actions"] > MAX_LOADED_ACTIONS)[0]
    if big.size:
        raise StateError(
            f"{source}: state {int(big[0])}: n_actions {int(states['n_actions'][big[0]])} is above "
            f"2**30: the int32 count of actions applied would wrap as the game goes on"
        )
    return states
