"""Victory conditions and the end of the game (rulebook 5.0, 15.5; D18, D19
revised: no turn limit in the rules; a harness's max_turns truncates a game
without a winner).

The Technocrat's win by the Central Crustal is in test_rules_control.py.
"""

import pytest
from helpers import A_END_PHASE, A_END_PIECE, A_MANEUVER, A_SELECT_PIECE, A_SELECT_UNIT, N, Pos

from hotspot import Game, RulesOptions
from hotspot.core import returns
from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.errors import ERR_BAD_ACTION, ERR_GAME_OVER
from hotspot.core.events import EV_GAME_OVER
from hotspot.core.rules_data import (
    ONE_HEX,
    ONGOING,
    PHASE_CONTROL,
    PHASE_OVER,
    PHASE_Z_CRUSTAL,
    PHASE_Z_MOVE,
    PLATFORM,
    T_ENGINEER,
    TWO_HEX,
    Z_INFANTRY,
    ZIEGLER_WIN,
)


def test_no_engineers_ziegler_wins_at_once():
    """5.0, D19: with no engineer squad left the Ziegler player wins (checked
    as play starts)."""
    g = Pos(reserve=False)
    g.piece(ONE_HEX, [(4, 4)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    assert g.phase == PHASE_OVER
    assert g.s["result"] == ZIEGLER_WIN and g.s["truncated"] == 0


def test_last_engineer_eliminated_in_combat_ziegler_wins():
    """5.0, 12.3, D19: the attack that eliminates the last engineer squad ends
    the game with a Ziegler win, right after that action."""
    g = Pos(reserve=False)
    g.piece(TWO_HEX, [(3, 4), (3, 5)])
    e = g.unit(T_ENGINEER, (3, 4))
    z = g.unit(Z_INFANTRY, (3, 5))
    g.unit(Z_INFANTRY, (3, 5))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.move_unit(z, N)
    g.act(A_END_PHASE)
    g.act(A_SELECT_UNIT + z)
    assert not g.alive(e)
    assert g.phase == PHASE_OVER and g.s["result"] == ZIEGLER_WIN
    assert [r[1:3] for r in g.events(EV_GAME_OVER)] == [(ZIEGLER_WIN, 0)]


def test_last_engineers_lost_in_break_up_ziegler_wins():
    """14.5, D18 step 5, D19: engineers on a platform breaking up on turn 4 are
    eliminated; with none left the Ziegler player wins."""
    g = Pos(reserve=False)
    g.piece(PLATFORM, [(4, 4)])
    g.unit(T_ENGINEER, (4, 4))
    g.begin(PHASE_CONTROL, turn=4)
    assert g.phase == PHASE_OVER and g.s["result"] == ZIEGLER_WIN and g.s["truncated"] == 0


@pytest.mark.parametrize(
    "limit, turn, over",
    [(15, 15, True), (15, 14, False), (3, 3, True), (3, 2, False), (200, 200, True), (200, 199, False)],
)
def test_max_turns_truncates_without_a_winner(limit, turn, over):
    """D19 revised: a harness's ``max_turns`` stops the game after the Crustal
    Control phase of that turn with *no winner*: ``result`` stays ONGOING,
    ``truncated`` is 1, the game-over event carries (ONGOING, 1) and both
    returns are 0.  Before that turn play goes on."""
    g = Pos()
    g.s["max_turns"] = limit
    g.piece(ONE_HEX, [(14, 20)])
    g.begin(PHASE_CONTROL, turn=turn)
    if over:
        assert g.phase == PHASE_OVER and g.turn == turn
        assert g.s["result"] == ONGOING and g.s["truncated"] == 1
        assert [r[1:3] for r in g.events(EV_GAME_OVER)] == [(ONGOING, 1)]
        assert list(returns(g.s)) == [0.0, 0.0]
    else:
        assert g.phase == PHASE_Z_CRUSTAL and g.turn == turn + 1
        assert g.s["result"] == ONGOING and g.s["truncated"] == 0


@pytest.mark.parametrize("turn", [15, 16, 100, 1000])
def test_the_rulebook_has_no_turn_limit(turn):
    """5.0, D19 revised: "the game continues until one of the players meets
    his victory condition": with no max_turns (the default, 0) the game goes
    on past turn 15 (the withdrawn turn_limit) and any later turn, and no
    side wins by the clock."""
    g = Pos()
    assert int(g.s["max_turns"]) == 0
    g.piece(ONE_HEX, [(14, 20)])
    g.begin(PHASE_CONTROL, turn=turn)
    assert g.phase == PHASE_Z_CRUSTAL and g.turn == turn + 1
    assert g.s["result"] == ONGOING and g.s["truncated"] == 0
    assert g.events(EV_GAME_OVER) == []


def test_victory_on_the_last_turn_beats_the_limit():
    """D18 step 5 before D19's truncation: when the last engineers are lost in
    the Crustal Control phase of turn ``max_turns`` the Ziegler player wins
    (a result, not truncated)."""
    g = Pos(reserve=False)
    g.s["max_turns"] = 4
    g.piece(PLATFORM, [(4, 4)])
    g.unit(T_ENGINEER, (4, 4))
    g.begin(PHASE_CONTROL, turn=4)
    assert g.phase == PHASE_OVER and g.s["result"] == ZIEGLER_WIN and g.s["truncated"] == 0


def test_turn_limit_is_not_a_rules_option():
    """D19 revised: the turn limit (15 = Ziegler win) is withdrawn from the
    rules options; asking for it is refused, pointing to max_turns."""
    assert "turn_limit" not in RulesOptions.describe()
    with pytest.raises(ValueError, match="max_turns"):
        RulesOptions.from_dict({"turn_limit": 15})
    with pytest.raises(ValueError, match="turn_limit"):
        Game("standard", rules={"turn_limit": 15})
    game = Game("standard", seed=1, max_turns=5)
    assert int(game.s["max_turns"]) == 5 and game.record.max_turns == 5
    assert int(Game("standard").s["max_turns"]) == 0  # the core: no limit unless asked


def test_game_over_refuses_every_action():
    """D19: once the game is over every action is refused (state unchanged)."""
    g = Pos(reserve=False)
    g.piece(ONE_HEX, [(4, 4)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    for a in (A_SELECT_PIECE + 1, A_SELECT_UNIT + 0, A_MANEUVER + 0, A_END_PIECE, A_END_PHASE, NUM_ACTIONS, -1):
        g.refuse(a, ERR_GAME_OVER)


def test_out_of_range_action_refused():
    """The action space is fixed: an index outside it is refused, state unchanged."""
    g = Pos()
    g.piece(ONE_HEX, [(4, 4)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.refuse(NUM_ACTIONS, ERR_BAD_ACTION)
    g.refuse(-1, ERR_BAD_ACTION)
    g.refuse(NUM_ACTIONS + 100, ERR_BAD_ACTION)


@pytest.mark.parametrize("turn, over", [(32766, False), (32767, True)])
def test_the_turn_counter_never_wraps(turn, over):
    """5.0, D19 revised: no turn limit, but the state's int16 turn counter
    ends at LAST_TURN (32,767): a game with no max_turns still going after
    that turn's Crustal Control phase is truncated (no winner) instead of
    wrapping to a negative turn.  The turn before goes on as usual."""
    from hotspot.core.state import LAST_TURN

    assert LAST_TURN == 32767
    g = Pos()
    g.piece(ONE_HEX, [(14, 20)])
    g.begin(PHASE_CONTROL, turn=turn)
    if over:
        assert g.phase == PHASE_OVER and g.turn == turn
        assert g.s["result"] == ONGOING and g.s["truncated"] == 1
    else:
        assert g.phase == PHASE_Z_CRUSTAL and g.turn == turn + 1
