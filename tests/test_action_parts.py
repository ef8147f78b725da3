"""The one action decoder (hotspot.core.action_parts): the caption
(``action_to_string``) and the terminal's typed command (``human.commands``)
are both written from ``decode_action``'s parts, and every kind round-trips:
decode -> the command -> the same action (and the caption -> the same action).
"""

from __future__ import annotations

import pytest

from hotspot.core.action_parts import ACTION_KINDS, ActionParts, caption, decode_action
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
from hotspot.core.crustal_movement import M_FORWARD, M_ROTATE, M_TURN_LEFT
from hotspot.core.game import Game, action_to_string
from hotspot.core.hexgrid import MAP_COLS
from hotspot.core.rules_data import PHASE_CONTROL, PHASE_Z_COMBAT, PHASE_Z_MOVE
from hotspot.human.commands import command_of, command_of_parts, command_table, normalize, parse_command


def _states():
    """States where every kind occurs: a set-up (3.2), phase A, and the same
    position read in the movement, combat and Crustal Control phases and with
    a loss waiting (D22); decoding reads the state, legality is not needed."""
    setup = Game("open", seed=1).s.copy()
    play = Game("standard", seed=1).s.copy()
    out = {"setup": setup, "crustal": play}
    for name, phase in (("movement", PHASE_Z_MOVE), ("combat", PHASE_Z_COMBAT), ("control", PHASE_CONTROL)):
        s = play.copy()
        s["phase"] = phase
        out[name] = s
    s = play.copy()
    s["phase"] = PHASE_Z_COMBAT
    s["loss_side"] = 0
    out["loss"] = s
    return out


STATES = _states()


def test_every_kind_is_decoded_somewhere():
    seen = {decode_action(s, a).kind for s in STATES.values() for a in range(-1, NUM_ACTIONS + 1)}
    assert seen == set(ACTION_KINDS)


@pytest.mark.parametrize("name", sorted(STATES))
def test_every_action_round_trips_through_its_command_and_caption(name):
    s = STATES[name]
    table = command_table(s)
    for a in range(NUM_ACTIONS):
        parts = decode_action(s, a)
        assert parts.action == a and parts.kind in ACTION_KINDS
        assert caption(parts) == action_to_string(s, a)
        command = command_of_parts(parts)
        assert command == command_of(s, a)
        assert table[command] == a, (a, command)
        assert table[normalize(caption(parts))] == a, (a, caption(parts))


@pytest.mark.parametrize(
    "name, action, kind, command",
    [
        ("crustal", A_SELECT_PIECE + 1, "select_piece", None),
        ("control", A_SELECT_PIECE + 1, "neutralize", None),
        ("movement", A_SELECT_UNIT + 3, "select_unit", "unit 3"),
        ("combat", A_SELECT_UNIT + 3, "resolve_combat", "combat 3"),
        ("loss", A_SELECT_UNIT + 3, "lose_squad", "lose 3"),
        ("movement", A_COMBINE + 7, "combine", "combine 7"),
        ("movement", A_MANEUVER + 1, "step", "ne"),
        ("crustal", A_MANEUVER + M_FORWARD, "forward", "forward"),
        ("crustal", A_MANEUVER + M_TURN_LEFT, "turn", "left"),
        ("crustal", A_MANEUVER + M_ROTATE + 3, "rotate", "rotate 1 ccw"),
        ("movement", A_SPLIT, "split", "split"),
        ("movement", A_END_PIECE, "end_move", "end"),
        ("movement", A_END_PHASE, "end_phase", "end phase"),
        ("setup", A_SETUP_CHOOSE + 2, "choose", "choose triangular"),
        ("setup", A_SETUP_HEX + 4 * MAP_COLS + 3, "setup_hex", "hex 3 4"),
        ("setup", A_SETUP_FACING + 1, "setup_facing", "face ne"),
    ],
)
def test_each_kind_decode_command_parse(name, action, kind, command):
    """decode -> the terminal's command -> parse_command gives the same action."""
    s = STATES[name]
    parts = decode_action(s, action)
    assert parts.kind == kind
    if command is not None:
        assert command_of_parts(parts) == command
    assert parse_command(s, command_of_parts(parts)) == action
    assert parse_command(s, caption(parts)) == action


def test_the_parts_of_some_actions():
    s = STATES["movement"]
    unit = decode_action(s, A_SELECT_UNIT + 3)
    assert unit.unit == 3 and unit.unit_name and isinstance(unit.hex, tuple)
    assert decode_action(s, A_MANEUVER + M_ROTATE + 3)[-5:] == (None, None, 1, False, None)
    assert decode_action(STATES["setup"], A_SETUP_HEX + 4 * MAP_COLS + 3).hex == (3, 4)
    assert decode_action(STATES["setup"], A_SETUP_FACING + 5).direction == "NW"
    piece = decode_action(STATES["crustal"], A_SELECT_PIECE + 1)
    assert piece.piece == 1 and piece.piece_name == "A"
    assert command_of(STATES["crustal"], A_SELECT_PIECE + 1) == "select a"


def test_outside_the_action_space():
    s = STATES["crustal"]
    for a in (-1, NUM_ACTIONS, 2**70):
        assert decode_action(s, a) == ActionParts(a, "out_of_range")
        assert action_to_string(s, a).startswith("out-of-range action")
        with pytest.raises(ValueError, match="outside the action space"):
            command_of(s, a)
