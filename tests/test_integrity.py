"""The state's invariants (docs/state-layout.md) and validated loading.

``hotspot.core.integrity.state_fault`` is the one check of every invariant;
``hotspot.core.from_bytes`` (and so ``Game.from_bytes`` and a record's
``initial_state``) runs it before any compiled rule sees the bytes.  Each
test below breaks one invariant of a real position and checks that the
check names it, and that the loaders refuse it with ``StateError``.
"""

from __future__ import annotations

import base64

import numpy as np
import pytest

from hotspot import Game
from hotspot.core import integrity as I
from hotspot.core.hexgrid import CENTRAL_CELLS, cell_of
from hotspot.core.integrity import from_bytes
from hotspot.core.placement import position_errors
from hotspot.core.record import GameRecord, RecordError
from hotspot.core.rules_data import (
    NO_PIECE,
    NO_UNIT,
    PHASE_OVER,
    PHASE_T_SETUP,
    PHASE_Z_SETUP,
    PLATFORM,
    T_ENGINEER,
    TWO_HEX,
    Z_INFANTRY,
)
from hotspot.core.state import STATE_DTYPE, StateError, to_bytes


def played(scenario="standard", actions=40, seed=3):
    """A game of ``scenario`` after ``actions`` random legal actions."""
    game = Game(scenario, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(actions):
        if game.is_terminal():
            break
        game.apply_action(int(rng.choice(game.legal_actions())))
    return game


@pytest.fixture(scope="module")
def sound():
    """A standard game in play, and the open game in its set-up."""
    return states_of(played("standard", 60)), states_of(played("open", 5))


def states_of(game):
    """The game's state as a batch of one (not through the validated loader)."""
    return np.frombuffer(game.to_bytes(), dtype=STATE_DTYPE).copy()


def first_piece(s, kind=None):
    return next(
        k for k in range(1, 32) if s["piece_kind"][k] != NO_PIECE and (kind is None or s["piece_kind"][k] == kind)
    )


def first_unit(s, t=None):
    return next(u for u in range(96) if s["unit_type"][u] != NO_UNIT and (t is None or s["unit_type"][u] == t))


def test_states_of_real_games_are_sound(sound):
    """Positions reached by legal play break no invariant (the soak checks millions)."""
    for states in sound:
        assert I.state_fault(states[0]) == (I.OK, 0)
        assert I.state_errors(states) == []
    for scenario in ("standard", "open"):
        game = played(scenario, 400, seed=11)
        assert I.state_errors(states_of(game)) == []


# (description, how to break a standard state in play, expected fault)
def _break_unit_cell(s):
    s["unit_cell"][first_unit(s)] = 5000


def _break_unit_off_board(s):
    s["unit_cell"][first_unit(s)] = 0  # an off-map cell of the extended grid


def _break_board_extra(s):
    free = next(c for c in range(667) if s["board"][c] == -1)
    s["board"][free] = first_piece(s)


def _break_board_index(s):
    s["board"][cell_of(0, 0)] = 40


def _break_central(s):
    s["board"][CENTRAL_CELLS[3]] = -1


def _break_piece_cells(s):
    s["piece_cells"][first_piece(s), 0] = 900


def _break_shape(s):
    k = first_piece(s, TWO_HEX)
    s["board"][s["piece_cells"][k, 1]] = -1
    front = int(s["piece_cells"][k, 0])
    far = next(c for c in range(667) if s["board"][c] == -1 and abs(front - c) > 60)
    s["piece_cells"][k, 1] = far
    s["board"][far] = k


def _break_kind(s):
    s["piece_kind"][first_piece(s)] = 9


def _break_platform_control(s):
    s["piece_controller"][first_piece(s, PLATFORM)] = 0


def _break_squads(s):
    s["unit_squads"][first_unit(s, Z_INFANTRY)] = 4


def _break_engineer_squads(s):
    s["unit_squads"][first_unit(s, T_ENGINEER)] = 2


def _break_unit_type(s):
    s["unit_type"][first_unit(s)] = -1


def _break_cell_units(s):
    c = s["unit_cell"][first_unit(s)]
    s["cell_units"][c, 0] += 1


def _break_sel_unit(s):
    s["sel_unit"] = 100


def _break_sel_piece(s):
    s["sel_piece"] = 0  # the Central Crustal never moves (D2)


def _break_phase(s):
    s["phase"] = 11


def _break_result(s):
    s["result"] = 1  # a winner while the phase says the game goes on


def _break_dice(s):
    s["dice_len"] = 40


def _break_turn(s):
    s["turn"] = 0


def _break_flags(s):
    s["unit_flags"][first_unit(s)] = 64


def _break_loss(s):
    s["loss_side"] = 1  # a pending loss with no hex


def _break_revealed(s):
    s["revealed"][2] = 700


def _break_pool(s):
    s["pool"][3] = 2  # forces to set up while the game is in play


def _break_free_unit(s):
    u = next(u for u in range(96) if s["unit_type"][u] == NO_UNIT)
    s["unit_cell"][u] = 200


def _break_dead_end(s):
    """A combat phase with no hex holding both sides: the rules would have ended it (12.1, 4.0)."""
    s["phase"] = 2  # C, Ziegler combat
    s["sel_piece"] = -1
    s["sel_unit"] = -1
    assert not ((s["cell_units"][:, 0] > 0) & (s["cell_units"][:, 1] > 0)).any()


BREAKS = [
    ("unit on a cell beyond the grid", _break_unit_cell, I.F_UNIT_CELL),
    ("unit on an off-map cell", _break_unit_off_board, I.F_UNIT_CELL),
    ("board holds a piece on a hex that is not the piece's", _break_board_extra, I.F_BOARD),
    ("board names a piece that cannot exist", _break_board_index, I.F_BOARD),
    ("a Central Crustal hex is molten", _break_central, I.F_BOARD),
    ("a piece hex beyond the grid", _break_piece_cells, I.F_PIECE_SLOTS),
    ("a two-hex crustal whose hexes are apart", _break_shape, I.F_PIECE_SHAPE),
    ("an unknown piece kind", _break_kind, I.F_PIECE_KIND),
    ("a Ziegler attack platform", _break_platform_control, I.F_CONTROLLER),
    ("an infantry counter of four squads", _break_squads, I.F_SQUADS),
    ("an engineer counter of two squads", _break_engineer_squads, I.F_SQUADS),
    ("a unit of unknown type", _break_unit_type, I.F_UNIT_TYPE),
    ("cell_units miscounts a hex", _break_cell_units, I.F_CELL_UNITS),
    ("a selected unit that cannot exist", _break_sel_unit, I.F_SEL_UNIT),
    ("the Central Crustal selected", _break_sel_piece, I.F_SEL_PIECE),
    ("a phase that does not exist", _break_phase, I.F_PHASE),
    ("a winner in a game still going", _break_result, I.F_RESULT),
    ("more scripted rolls than the queue holds", _break_dice, I.F_DICE_LEN),
    ("turn 0", _break_turn, I.F_TURN),
    ("unknown unit flag bits", _break_flags, I.F_UNIT_FLAGS),
    ("a pending loss without its hex", _break_loss, I.F_LOSS),
    ("a revealed hex beyond the grid", _break_revealed, I.F_REVEALED),
    ("a force pool left in play", _break_pool, I.F_POOL),
    ("a free unit slot standing on a hex", _break_free_unit, I.F_UNIT_CELL),
    ("a game not over with no legal action", _break_dead_end, I.F_NO_ACTION),
]


@pytest.mark.parametrize("what,breaker,fault", BREAKS, ids=[b[0] for b in BREAKS])
def test_each_invariant_is_checked_and_refused_on_loading(sound, what, breaker, fault):
    """Breaking one invariant is found (the fault names the field), and the
    state's bytes are refused by every loader with StateError naming it."""
    states = sound[0].copy()
    breaker(states[0])
    code, _ = I.state_fault(states[0])
    assert code == fault, (what, I.FAULTS[code])
    data = to_bytes(states)
    field = I.FAULTS[fault].split(":")[0]
    with pytest.raises(StateError, match=field.split("/")[0]):
        from_bytes(data)
    with pytest.raises(StateError):
        Game.from_bytes(data)
    errors = position_errors(states)
    assert errors and field.split("/")[0] in errors[0]


def test_setup_invariants(sound):
    """Set-up states (D21): pools match the phase, a pending item is the side's own."""
    states = sound[1].copy()
    s = states[0]
    assert s["phase"] in (PHASE_Z_SETUP, PHASE_T_SETUP)
    bad = states.copy()
    bad[0]["pool"][:] = 0  # nothing left to set up, yet still setting up
    assert I.state_fault(bad[0])[0] == I.F_POOL
    bad = states.copy()
    bad[0]["setup_item"] = 20
    assert I.state_fault(bad[0])[0] == I.F_SETUP_ITEM
    bad = states.copy()
    bad[0]["pool"][0] = 120  # more crustal hexes than the free piece slots can hold
    # nothing can be chosen (every choice would leave a pool unplaceable), and the pools do not fit
    assert I.state_fault(bad[0])[0] == I.F_NO_ACTION
    with pytest.raises(StateError, match="no legal action"):
        from_bytes(to_bytes(bad))
    from hotspot.core.setup import pools_fit

    assert pools_fit(bad[0]) == 0  # the Ziegler crustal hexes are what cannot be placed


def test_rules_record_is_checked(sound):
    """The rules options in the state must be a record RulesOptions makes (D22 choices in range)."""
    states = sound[0].copy()
    states[0]["rules"]["combat_table"] = 7
    with pytest.raises(StateError, match="combat_table"):
        from_bytes(to_bytes(states))
    states = sound[0].copy()
    states[0]["rules"]["cia_enabled"] = 5  # a boolean option holding 5
    with pytest.raises(StateError, match="cia_enabled"):
        from_bytes(to_bytes(states))


def test_finished_game_is_sound():
    """A game over (phase 8) has a result or is truncated, and nothing selected."""
    game = played("standard", 100000, seed=5)
    assert states_of(game)[0]["phase"] == PHASE_OVER
    assert I.state_errors(states_of(game)) == []
    bad = states_of(game)
    bad[0]["result"] = 0
    bad[0]["truncated"] = 0
    assert I.state_fault(bad[0])[0] == I.F_RESULT


def test_garbage_bytes_are_refused_without_crashing():
    """Random bytes of the right length are refused with StateError naming the
    source; the check itself never raises anything else."""
    rng = np.random.default_rng(0)
    base = played("standard", 30).to_bytes()
    for _ in range(300):
        data = bytearray(rng.integers(0, 256, len(base), dtype=np.uint8).tobytes())
        data[0:2] = base[0:2]  # the right version, so the invariants are what refuses it
        with pytest.raises(StateError, match="my file"):
            from_bytes(bytes(data), source="my file")
    arr = np.frombuffer(bytes(data), dtype=from_bytes(base).dtype).copy()
    assert position_errors(arr)  # garbage: an error list, not an IndexError


def test_refused_record_initial_state_names_the_field(tmp_path):
    """A record whose initial_state breaks an invariant is a RecordError naming it."""
    game = Game.from_bytes(played("standard", 20).to_bytes())
    states = states_of(game)
    states[0]["board"][cell_of(0, 0)] = 40
    data = game.record.to_dict()
    data["initial_state"] = base64.b64encode(to_bytes(states)).decode()
    with pytest.raises(RecordError, match="initial_state.*board"):
        GameRecord.from_dict(data)


def test_batch_faults_matches_state_fault(sound):
    """The batched check reports each game's fault (0 for a sound one)."""
    states = np.concatenate([sound[0], sound[0], sound[1]])
    states[1]["phase"] = 12
    out = np.zeros(3, dtype=np.int64)
    I.batch_faults(states, out)
    assert out[0] == 0 and out[2] == 0
    assert out[1] // 1000 == I.F_PHASE


def test_record_with_an_invalid_scenario_is_a_record_error():
    """A record's scenario that the loader refuses makes replay raise RecordError naming the field."""
    data = Game("standard", seed=1).record.to_dict()
    data["scenario"] = {"format": "hotspot-scenario"}
    record = GameRecord.from_dict(data)
    with pytest.raises(RecordError, match="'scenario'"):
        Game.from_record(record)


def test_action_count_leaves_room_to_count_a_game(sound):
    """n_actions (int32) is at most 2**30 in state bytes from outside, so that a
    game goes on counting without the counter wrapping: a count near 2**31 - 1
    was accepted and wrapped negative two actions later, breaking the
    invariant it had passed (found by the fuzzer, fuzz/)."""
    states = sound[0].copy()
    states[0]["n_actions"] = 2**30
    game = Game.from_bytes(to_bytes(states))
    game.apply_action(int(game.legal_actions()[0]))
    assert I.state_fault(game.s) == (I.OK, 0)
    states[0]["n_actions"] = 2**30 + 1
    with pytest.raises(StateError, match="n_actions"):
        Game.from_bytes(to_bytes(states))
