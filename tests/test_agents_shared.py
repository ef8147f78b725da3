"""One test suite for every agent (issue 5): only legal actions, deterministic
under a seed, and no hidden state read (D20): two true states that differ only
in what the agent's side may not see give the same action."""
import numpy as np
import pytest

from hotspot.arena import available_agents, make_agent
from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.game import Game
from hotspot.core.rules_data import NO_UNIT, PLATFORM, TECHNOCRAT, UNIT_SIDE, ZIEGLER
from hotspot.core.state import MAX_PIECES, MAX_UNITS

AGENTS = available_agents()  # every registered agent that can be made here
DECISIONS = {"mcts": 60, "mcts-lite": 60}  # the search agents are slow; the others play more decisions


def _play(name, side, seed, decisions):
    """``decisions`` decisions of agent ``name`` as ``side`` (random on the other side)."""
    game = Game("random:3", seed=seed)
    agent, other = make_agent(name, seed=seed), make_agent("random", seed=seed + 1)
    chosen = []
    while not game.is_terminal() and len(chosen) < decisions:
        mover = game.current_player()
        mask = game.legal_action_mask()
        a = (agent if mover == side else other).act(game.observation(mover), mask.copy(), mover)
        assert mask[a], f"{name} chose illegal action {a} ({game.action_to_string(a)})"
        game.apply_action(a)
        if mover == side:
            chosen.append(int(a))
    return chosen


@pytest.mark.parametrize("side", [ZIEGLER, TECHNOCRAT])
@pytest.mark.parametrize("name", AGENTS)
def test_only_legal_and_deterministic(name, side):
    """Every action is legal; the same seeds give the same actions."""
    n = DECISIONS.get(name, 300)
    first = _play(name, side, 5, n)
    assert first
    assert _play(name, side, 5, n) == first


def _hide_differently(game, side, rng):
    """A copy of the game whose true state differs only in what ``side`` cannot see (D20)."""
    other = game.clone()
    s = other.s
    for k in range(1, MAX_PIECES):  # enemy damage (14.2, 14.3)
        if s["piece_kind"][k] and s["piece_controller"][k] != side:
            s["piece_damage"][k] = rng.integers(0, 2)
    for u in range(MAX_UNITS):  # squads of enemy infantry below the top counter (9.5)
        t = int(s["unit_type"][u])
        if t != NO_UNIT and UNIT_SIDE[t] != side and s["unit_squads"][u] > 1:
            seen = any(s["unit_type"][v] and UNIT_SIDE[s["unit_type"][v]] == side
                       and s["unit_cell"][v] == s["unit_cell"][u] for v in range(MAX_UNITS))
            top = min(v for v in range(MAX_UNITS) if s["unit_type"][v] and s["unit_cell"][v] == s["unit_cell"][u])
            if not seen and top != u:
                s["unit_squads"][u] = rng.integers(1, 4)
    s["rng"] = np.uint64(rng.integers(1, 2**62))  # the dice
    return other


@pytest.mark.parametrize("name", AGENTS)
def test_no_hidden_state_read(name):
    """The agent's action depends only on its side's information state: changing
    enemy damage, unseen stack contents and the dice never changes it."""
    rng = np.random.default_rng(0)
    game = Game("random:4", seed=2)
    driver = make_agent("random", seed=9)
    checked = 0
    for _ in range(400):
        if game.is_terminal():
            break
        side = game.current_player()
        twin = _hide_differently(game, side, rng)
        assert (game.observation(side).tobytes() == twin.observation(side).tobytes())
        mask = game.legal_action_mask()
        if (mask == twin.legal_action_mask()).all() and checked < DECISIONS.get(name, 120):
            a1 = make_agent(name, seed=1).act(game.observation(side), mask.copy(), side)
            a2 = make_agent(name, seed=1).act(twin.observation(side), mask.copy(), side)
            assert a1 == a2
            checked += 1
        game.apply_action(driver.act(game.observation(side), mask, side))
    assert checked > 20
