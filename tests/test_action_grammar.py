"""The action grammar cannot loop (actions.py: R4.2, R10.2; rulebook 4.0, 6.8,
8.1, 10.0; D21).

actions.py: "a selection ends with the piece's or unit's move, except that
one left unmoved may be selected again once (switching away from it a second
time ends its move); a counter made by combining may not split again in the
phase; set-up choices commit.  So every sequence of legal actions ends every
phase in a bounded number of actions."

The rulebook has no such rule: at the table a player simply moves each piece
once (6.8 "A player may move some, none, or all of his crustals", 8.1 "Units
are not required to move"; 10.0 breakdowns "at any point during the owning
player's regular movement phase").  An action space of atomic actions must
not let a player (or an agent) stall a phase forever by re-selecting pieces
or by splitting and re-combining counters; these tests hold the engine to it.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import (
    A_COMBINE,
    A_END_PHASE,
    A_END_PIECE,
    A_MANEUVER,
    A_SELECT_PIECE,
    A_SELECT_UNIT,
    A_SPLIT,
    N,
    Pos,
    S,
    strip,
)

from hotspot import Game
from hotspot.core.actions import A_SETUP_CHOOSE, NUM_ACTIONS, legal_action_mask, step
from hotspot.core.crustal_movement import M_STEP
from hotspot.core.errors import ERR_COMBINED, ERR_PIECE_DONE, ERR_UNIT_DONE
from hotspot.core.events import no_events
from hotspot.core.rules_data import (
    ONE_HEX,
    PHASE_Z_CRUSTAL,
    PHASE_Z_MOVE,
    PLATFORM,
    T_ENGINEER,
    Z_HOVERCRAFT,
    Z_INFANTRY,
)

MAX_ACTIONS = 20_000  # far above what a 40-turn game takes (a few thousand at most)
SCENARIOS = ["standard", "random:1", "random:7", "open"]


def _play(game, choose, limit=MAX_ACTIONS):
    n = 0
    while not game.is_terminal():
        legal = game.legal_actions()
        assert len(legal) > 0, "a live game with no legal action"
        game.apply_action(int(choose(legal)))
        n += 1
        assert n < limit, f"no end after {n} actions (turn {game.turn}, phase {game.phase})"
    return n


# platforms that never break up (14.5 as an option) keep the engineers in play
# longer, so that games run to the turn limit
LONG_GAMES = {"platform_turns": 1000}


@pytest.mark.parametrize("rules", [None, LONG_GAMES], ids=["rulebook", "long"])
@pytest.mark.parametrize("which", ["first", "last"])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_always_first_or_always_last_legal_action_ends_the_game(scenario, seed, which, rules):
    """4.0, R4.2, D21: a player who always takes the first legal action
    (select the lowest piece or unit, again and again) or always the last
    (end everything at once) still ends every phase and the game, within a
    bounded number of actions; max_turns 40 (D19 revised)."""
    game = Game(scenario, seed=seed, max_turns=40, rules=rules)
    pick = (lambda legal: legal[0]) if which == "first" else (lambda legal: legal[-1])
    n = _play(game, pick)
    assert game.is_terminal() and (game.winner() >= 0 or game.is_truncated())
    if rules is LONG_GAMES and which == "last":  # nobody does anything: 40 whole turns
        assert game.is_truncated() and game.turn == 40
    assert n == len(game.record.actions)
    if scenario == "open":  # the set-up was played through, then play
        assert any(a < A_SETUP_CHOOSE for a in game.record.actions)
    assert Game.from_record(game.record).to_bytes() == game.to_bytes()


@pytest.mark.parametrize("which", ["first", "last"])
@pytest.mark.parametrize("scenario", ["standard", "random:3"])
def test_first_or_last_with_owner_losses_ends(scenario, which):
    """D22 losses="owner": the loss choice is one more decision, never a loop."""
    game = Game(scenario, seed=3, max_turns=40, rules={"losses": "owner"})
    pick = (lambda legal: legal[0]) if which == "first" else (lambda legal: legal[-1])
    _play(game, pick)
    assert game.is_terminal()


def _stubborn(rng):
    """A player who never ends a move or a phase while anything else is legal."""

    def choose(legal):
        busy = [a for a in legal if a not in (A_END_PHASE, A_END_PIECE)]
        return rng.choice(busy) if busy else legal[0]

    return choose


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("scenario", ["standard", "random:2", "open"])
def test_a_player_who_never_ends_anything_cannot_stall(scenario, seed):
    """R4.2, R10.2: even a player who never takes END_PIECE or END_PHASE while
    he has another action (he re-selects, splits, combines and moves at random)
    sees every phase end, and the game ends."""
    game = Game(
        scenario, seed=seed, max_turns=12, rules=dict(LONG_GAMES, forbid_molten_entry=True)
    )  # no unit walks into the rock
    _play(game, _stubborn(np.random.default_rng(seed)))
    assert game.is_terminal()


# ----------------------------------------------------------- R4.2 units


def _two_units():
    g = Pos()
    strip(g)
    a = g.unit(Z_INFANTRY, (3, 1))
    b = g.unit(Z_INFANTRY, (3, 6))
    g.begin(PHASE_Z_MOVE, turn=2)
    return g, a, b


def test_unit_left_unmoved_may_be_selected_again_once():
    """R4.2 (8.1 "Units are not required to move"): a unit selected and left
    unmoved may be selected again once; switching away from it a second time
    ends its move: it can no longer be selected this phase (and has not
    moved)."""
    g, a, b = _two_units()
    g.act(A_SELECT_UNIT + a)
    g.act(A_SELECT_UNIT + b)  # a left unmoved (1)
    assert g.legal(A_SELECT_UNIT + a)
    g.act(A_SELECT_UNIT + a)  # b left unmoved (1)
    assert g.legal(A_SELECT_UNIT + b)
    g.act(A_SELECT_UNIT + b)  # a left unmoved (2): its move ends
    g.refuse(A_SELECT_UNIT + a, ERR_UNIT_DONE)
    assert g.where(a) == (3, 1) and g.phase == PHASE_Z_MOVE
    g.act(A_MANEUVER + N)  # b still moves normally (8.1)
    assert g.where(b) == (3, 5)


def test_unit_that_moved_ends_its_move_when_left():
    """R4.2: switching away from a unit that has begun moving ends its move at
    once (8.1: its unused movement is lost)."""
    g, a, b = _two_units()
    g.act(A_SELECT_UNIT + a, A_MANEUVER + S)
    assert int(g.s["unit_moves"][a]) > 0
    g.act(A_SELECT_UNIT + b)
    g.refuse(A_SELECT_UNIT + a, ERR_UNIT_DONE)
    assert g.where(a) == (3, 2)


# ---------------------------------------------------------- R4.2 crustals


def _two_crustals():
    g = Pos()
    k1 = g.piece(ONE_HEX, [(3, 3)])
    k2 = g.piece(ONE_HEX, [(11, 15)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    return g, k1, k2


def test_crustal_left_unmoved_may_be_selected_again_once():
    """R4.2 (6.8 "A crustal is never forced to move"), phase A: a crustal
    selected and left unmoved may be selected again once; switching away from
    it a second time ends its move for the phase."""
    g, k1, k2 = _two_crustals()
    g.act(A_SELECT_PIECE + k1)
    g.act(A_SELECT_PIECE + k2)  # k1 left unmoved (1)
    assert g.legal(A_SELECT_PIECE + k1)
    g.act(A_SELECT_PIECE + k1)  # k2 left unmoved (1)
    g.act(A_SELECT_PIECE + k2)  # k1 left unmoved (2): done
    g.refuse(A_SELECT_PIECE + k1, ERR_PIECE_DONE)
    assert g.cells(k1) == [(3, 3)] and g.phase == PHASE_Z_CRUSTAL
    g.act(A_MANEUVER + M_STEP + N)  # k2 still moves (6.3)
    assert g.cells(k2) == [(11, 14)]


def test_crustal_that_moved_ends_its_move_when_left():
    """R4.2, 6.3: a one-hex crustal moved one of its three hexes and then left
    has finished its move: it cannot be selected again this phase."""
    g, k1, k2 = _two_crustals()
    g.act(A_SELECT_PIECE + k1, A_MANEUVER + M_STEP + S)
    assert int(g.s["piece_moves"][k1]) > 0
    g.act(A_SELECT_PIECE + k2)
    g.refuse(A_SELECT_PIECE + k1, ERR_PIECE_DONE)
    assert g.cells(k1) == [(3, 4)]


def test_technocrat_platforms_same_rule():
    """R4.2 in phase E: attack platforms (6.7) follow the same selection rule."""
    g = Pos()
    p1 = g.piece(PLATFORM, [(0, 10)])
    p2 = g.piece(PLATFORM, [(14, 10)])
    g.unit(T_ENGINEER, (0, 10))
    g.begin(PHASE_Z_CRUSTAL, turn=2)  # nothing for the Ziegler: play goes to phase E
    assert int(g.s["phase"]) == 4
    g.act(A_SELECT_PIECE + p1, A_SELECT_PIECE + p2, A_SELECT_PIECE + p1, A_SELECT_PIECE + p2)
    g.refuse(A_SELECT_PIECE + p1, ERR_PIECE_DONE)


# ------------------------------------------------------ D21 set-up commits


def test_setup_choices_commit():
    """D21, setup.py ("A choice commits: there is no undo"): once an item is
    chosen no other can be chosen; once a larger crustal's hex is chosen only
    a facing completes it; a one-hex crustal takes no facing.  So a placement
    takes at most three actions and the set-up cannot cycle."""
    from hotspot.core.actions import A_SETUP_FACING, A_SETUP_HEX
    from hotspot.core.errors import ERR_CHOOSE_FIRST, ERR_FACING_NEEDED, ERR_ITEM_CHOSEN, ERR_SETUP_NO_FACING
    from hotspot.core.game import IllegalActionError
    from hotspot.core.rules_data import ITEM_LONG, ITEM_ONE_HEX, ITEM_TWO_HEX

    def refused(game, a, code):
        before = game.to_bytes()
        with pytest.raises(IllegalActionError) as info:
            game.apply_action(a)
        assert info.value.code == code and game.to_bytes() == before

    game = Game("open")
    refused(game, A_SETUP_HEX + 3 * 15 + 3, ERR_CHOOSE_FIRST)
    refused(game, A_SETUP_FACING + 0, ERR_CHOOSE_FIRST)
    game.apply_action(A_SETUP_CHOOSE + ITEM_LONG)
    refused(game, A_SETUP_CHOOSE + ITEM_ONE_HEX, ERR_ITEM_CHOSEN)
    refused(game, A_SETUP_CHOOSE + ITEM_LONG, ERR_ITEM_CHOSEN)
    assert all(A_SETUP_HEX <= a < A_SETUP_FACING for a in game.legal_actions())
    game.apply_action(A_SETUP_HEX + 3 * 15 + 3)
    refused(game, A_SETUP_HEX + 5 * 15 + 5, ERR_FACING_NEEDED)
    refused(game, A_SETUP_CHOOSE + ITEM_TWO_HEX, ERR_ITEM_CHOSEN)
    assert all(a >= A_SETUP_FACING for a in game.legal_actions())
    game.apply_action(A_SETUP_FACING + N)
    assert int(game.s["pool"][0]) == 15
    game.apply_action(A_SETUP_CHOOSE + ITEM_ONE_HEX)
    refused(game, A_SETUP_FACING + 0, ERR_SETUP_NO_FACING)
    game.apply_action(A_SETUP_HEX + 10 * 15 + 1)
    assert int(game.s["pool"][0]) == 14 and int(game.s["setup_item"]) == -1


# ---------------------------------------------------------------- R10.2


def _infantry(*squads, hovercraft=False):
    g = Pos()
    strip(g)
    us = [g.unit(Z_INFANTRY, (3, 4), squads=n) for n in squads]
    if hovercraft:
        g.unit(Z_HOVERCRAFT, (3, 8))
    g.begin(PHASE_Z_MOVE, turn=2)
    return g, us


def test_combined_counter_cannot_split_again_this_phase():
    """10.0 ("small units may combine into larger ones at any point during the
    owning player's regular movement phase"), R10.2: a counter made by
    combining may not split again in that phase, moved or not."""
    g, (a, b) = _infantry(1, 2)
    g.act(A_SELECT_UNIT + a, A_COMBINE + b)
    assert g.squads(a) == 3 and not g.alive(b)
    g.refuse(A_SPLIT, ERR_COMBINED)
    g.act(A_MANEUVER + S)
    g.refuse(A_SPLIT, ERR_COMBINED)


def test_combined_counter_may_split_in_a_later_phase():
    """R10.2 holds for "that phase" only: in the next turn's regular movement
    phase the combined counter may break down again (10.0)."""
    g, (a, b) = _infantry(1, 2)
    g.act(A_SELECT_UNIT + a, A_COMBINE + b, A_END_PHASE)
    # phases C, D, E pass (nothing to decide); F: the reserve engineer
    assert int(g.s["phase"]) == 5
    g.act(A_END_PHASE)
    assert g.turn == 3 and g.phase == PHASE_Z_CRUSTAL
    g.act(A_END_PHASE)
    assert g.phase == PHASE_Z_MOVE
    g.act(A_SELECT_UNIT + a)
    assert g.legal(A_SPLIT)
    g.act(A_SPLIT)
    assert g.squads(a) == 2


def test_split_then_combine_cannot_repeat():
    """R10.2: split a squad off, combine it back: the counter so made cannot
    split again, so split-then-combine is not a cycle."""
    g, (a,) = _infantry(3)
    g.act(A_SELECT_UNIT + a, A_SPLIT)
    new = [u for u in range(96) if g.alive(u) and u not in (a,) and g.where(u) == (3, 4)]
    assert len(new) == 1 and g.squads(a) == 2
    g.act(A_COMBINE + new[0])
    assert g.squads(a) == 3
    g.refuse(A_SPLIT, ERR_COMBINED)


def _key(states):
    """The state's bytes without the action counter (which always grows)."""
    c = states.copy()
    c[0]["n_actions"] = 0
    return c.tobytes()


def _assert_acyclic(g, allowed, phase, limit=200_000):
    """Exhaustive depth-first search from ``g``'s state over the ``allowed``
    legal actions while the phase is ``phase``: no action leads back to a
    state on the current path (the action counter aside).  Returns the number
    of states."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev, ev_n = no_events()
    colour = {}  # key -> 1 on the current path, 2 finished
    stack = [(g.states.copy(), None)]
    n_states = 0
    while stack:
        states, children = stack[-1]
        key = _key(states)
        if children is None:
            if colour.get(key) == 2:
                stack.pop()
                continue
            colour[key] = 1
            n_states += 1
            assert n_states < limit, "too many states"
            if states[0]["phase"] != phase:
                kids = []
            else:
                legal_action_mask(states[0], mask)
                kids = [a for a in allowed if mask[a]]
            stack[-1] = (states, kids)
            continue
        if not children:
            colour[key] = 2
            stack.pop()
            continue
        a = children.pop()
        nxt = states.copy()
        assert int(step(nxt[0], a, ev, ev_n)) == 0
        k = _key(nxt)
        assert colour.get(k) != 1, f"action {a} leads back to a state on the current path: a loop"
        if colour.get(k) != 2:
            stack.append((nxt, None))
    return n_states


@pytest.mark.parametrize("squads, moves", [((3, 1), False), ((2, 1, 1), False), ((2,), True), ((1, 1), True)])
def test_no_cycle_in_the_breakdown_and_selection_graph(squads, moves):
    """R4.2, R10.2, 10.0: every state reachable in one regular movement phase
    by selections, splits and combines (and steps, for a small stack), the
    action counter aside, forms an acyclic graph: no sequence of these legal
    actions comes back to a state it has been in, so none can go on for ever
    (the graph is finite).  Exhaustive depth-first search."""
    g, us = _infantry(*squads)
    allowed = (
        [A_SPLIT, A_END_PIECE]
        + [A_SELECT_UNIT + u for u in range(96)]
        + [A_COMBINE + u for u in range(96)]
        + ([A_MANEUVER + d for d in range(6)] if moves else [])
    )
    assert _assert_acyclic(g, allowed, PHASE_Z_MOVE) > 10


def test_no_cycle_in_the_crustal_selection_graph():
    """R4.2, 6.3, 6.4, 6.10, phase A: every sequence of selections and
    maneuvers of two crustals (a one-hex crustal, which moves one hex on the
    first turn, and a two-hex crustal) is finite: the reachable graph is
    acyclic (exhaustive search)."""
    from hotspot.core.rules_data import TWO_HEX

    g = Pos()
    k1 = g.piece(ONE_HEX, [(3, 3)])
    k2 = g.piece(TWO_HEX, [(10, 10), (10, 11)])
    g.begin(PHASE_Z_CRUSTAL, turn=1)
    allowed = [A_END_PIECE] + [A_SELECT_PIECE + k for k in (k1, k2)] + [A_MANEUVER + m for m in range(15)]
    assert _assert_acyclic(g, allowed, PHASE_Z_CRUSTAL) > 10
