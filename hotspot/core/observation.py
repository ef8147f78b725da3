"""What a side may know (9.5, 14.1-14.3, D20): observations with and without fog.

``observe(s, side, fog, out)`` copies state ``s`` into the record ``out`` and,
with fog, hides what ``side`` may not see:

* the dice: the generator state and scripted rolls are cleared (chance is
  not observable);
* D20/14.2/14.3: the damage of every piece the other side controls is -1;
* D20/9.5: of an enemy stack in a hex where ``side`` has no unit, only the
  number of counters and the top counter's type are seen: the top counter
  (project decision R9.5: the lowest-index unit of the stack) keeps its type
  with squads -1; every other counter of the stack has type -1 and squads -1.
  Movement left, flags and entered-from hex of enemy units are cleared.
  (The ``cell_units`` counts stay: the number of counters is seen.)

With the rules option ``sees_through_fog`` naming ``side`` (R9.5b, a
restricted-play probe: the price of hidden information) only the dice are
hidden from it.

Without fog (full observability, an option for debugging and for
perfect-information agents) ``out`` is an exact copy.  The result has the
layout of a game state (same dtype) so agents read it with the same field
names; it is an *information state*, not a playable state.  Beware: a hidden
counter has ``unit_type`` ``UNKNOWN_UNIT`` (-1) and squads ``UNKNOWN_SQUADS``
(-1); never index a table by such a type (``UNIT_SIDE[-1]`` wraps round to
the Technocrat).  The helpers of ``units`` are safe on information states:
``units.side_seen_by`` (a hidden counter is the other side's),
``units.unit_side`` (-1 for a hidden counter), ``units.attack_of`` and
``units.defense_of`` (``UNKNOWN_FACTOR`` for a hidden type or size),
``units.type_factor``; ``cell_units`` is exact per side.
"""

from ._jit import jit
from .rules_data import (
    CENTRAL,
    NO_PIECE,
    NO_UNIT,
    SEES_TECHNOCRAT,
    SEES_ZIEGLER,
    UNIT_SIDE,
    UNKNOWN_SQUADS,
    UNKNOWN_UNIT,
    ZIEGLER,
)
from .state import DICE_QUEUE, MAX_PIECES, MAX_REVEALED, MAX_UNITS
from .units import count_units, top_counter

UNKNOWN = -1  # hidden piece damage (and the value of UNKNOWN_UNIT, UNKNOWN_SQUADS)


@jit
def keep_alive(records, value):
    """``value``, after one more use of the array ``records``.

    A record taken from an array (``o[0]`` of ``o = np.empty(1,
    dtype=STATE_DTYPE)``) does not keep the array alive: numba frees a local
    array after its last use as an array, even while the record is still read
    (numba#8051), and the reader then reads freed memory.  A function that
    makes such an array and reads its record to the end returns through
    ``keep_alive(o, value)``."""
    if records.shape[0] < 0:  # never: a use of the array after the record's
        return value
    return value


@jit(inline=True)
def sees_through_fog(s, side):
    """True if the rules option ``sees_through_fog`` (R9.5b, a restricted-play
    probe of D20) lets ``side`` see every counter and every piece's damage."""
    bit = SEES_ZIEGLER if side == ZIEGLER else SEES_TECHNOCRAT
    return (s["rules"]["sees_through_fog"] & bit) != 0


@jit
def observe(s, side, fog, out):
    out["version"] = s["version"]
    out["turn"] = s["turn"]
    out["phase"] = s["phase"]
    out["result"] = s["result"]
    out["truncated"] = s["truncated"]
    out["sel_piece"] = s["sel_piece"]
    out["sel_unit"] = s["sel_unit"]
    out["n_actions"] = s["n_actions"]
    out["rng"] = s["rng"]
    out["dice_len"] = s["dice_len"]
    out["dice_pos"] = s["dice_pos"]
    out["dice_queue"][:] = s["dice_queue"]
    out["piece_kind"][:] = s["piece_kind"]
    out["piece_cells"][:, :] = s["piece_cells"]
    out["piece_damage"][:] = s["piece_damage"]
    out["piece_controller"][:] = s["piece_controller"]
    out["piece_neutralized"][:] = s["piece_neutralized"]
    out["piece_control_turn"][:] = s["piece_control_turn"]
    out["piece_moves"][:] = s["piece_moves"]
    out["piece_flags"][:] = s["piece_flags"]
    out["piece_stress"][:] = s["piece_stress"]
    out["piece_label"][:] = s["piece_label"]
    out["unit_type"][:] = s["unit_type"]
    out["unit_squads"][:] = s["unit_squads"]
    out["unit_cell"][:] = s["unit_cell"]
    out["unit_from"][:] = s["unit_from"]
    out["unit_moves"][:] = s["unit_moves"]
    out["unit_flags"][:] = s["unit_flags"]
    out["board"][:] = s["board"]
    out["cell_units"][:, :] = s["cell_units"]
    out["rules"] = s["rules"]
    out["max_turns"] = s["max_turns"]
    out["pool"][:] = s["pool"]  # 3.2, 3.3: the force pools are public
    out["setup_item"] = s["setup_item"]
    out["setup_cell"] = s["setup_cell"]
    out["loss_side"] = s["loss_side"]
    out["loss_cell"] = s["loss_cell"]
    out["loss_reason"] = s["loss_reason"]
    out["loss_elim"] = s["loss_elim"]
    out["revealed"][:] = s["revealed"]
    if not fog:
        return
    out["rng"] = 0
    out["dice_len"] = 0
    out["dice_pos"] = 0
    for i in range(DICE_QUEUE):
        out["dice_queue"][i] = 0
    if sees_through_fog(s, side):
        return  # R9.5b: the probe shows this side every counter and damage; the dice stay hidden
    for k in range(MAX_PIECES):
        kind = s["piece_kind"][k]
        if kind != NO_PIECE and kind != CENTRAL and s["piece_controller"][k] != side:
            out["piece_damage"][k] = UNKNOWN
            out["piece_stress"][k] = 0
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t == NO_UNIT or UNIT_SIDE[t] == side:
            continue
        cell = s["unit_cell"][u]
        out["unit_moves"][u] = 0
        out["unit_flags"][u] = 0
        out["unit_from"][u] = -1
        seen = count_units(s, cell, side) > 0
        if side == ZIEGLER:  # R13.3b: a stack revealed by a refused hovercraft entry
            for i in range(MAX_REVEALED):
                if s["revealed"][i] == cell:
                    seen = True
        if seen:
            continue
        out["unit_squads"][u] = UNKNOWN_SQUADS
        if top_counter(s, cell, UNIT_SIDE[t]) != u:
            out["unit_type"][u] = UNKNOWN_UNIT
