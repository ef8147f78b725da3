"""One test suite for every agent: only legal actions,
deterministic under a seed, no hidden state read (D20): two true states that
differ only in what the agent's side may not see give the same action; and
deployments legal: each agent sets up both sides of ``open`` (3.2, 3.3, D21)
with legal actions only, to the end of the set-up, the same way under the same
seed.

Every agent registered in ``hotspot.agents.registry`` that can be made here is
covered (``available_agents()``): registering an agent adds it to every test
below.  Agents whose games take more than a second (``is_fast``: the
registry's measured ``seconds_per_game``), and any agent registered without a
measured cost, play fewer decisions (``SLOW_DECISIONS``) unless listed in
``CHEAP_DECISIONS``; the set-up is always played to its end.

Every *spec form* is covered too (``SPEC_FORMS``: an agent named with
parameters, an alias): the spec reaches the agent and the agent keeps the
same promises at those parameters."""

import numpy as np
import pytest

from hotspot.agents.registry import is_available, is_fast
from hotspot.arena import available_agents, make_agent
from hotspot.core.game import Game
from hotspot.core.rules_data import (
    NO_UNIT,
    PHASE_T_SETUP,
    PHASE_Z_CRUSTAL,
    PHASE_Z_SETUP,
    TECHNOCRAT,
    UNIT_SIDE,
    ZIEGLER,
)
from hotspot.core.setup import is_setup_phase
from hotspot.core.state import MAX_PIECES, MAX_UNITS

# every registered agent that can be made here, and the spec forms: parameters
# that change how a search spends its budget (small budgets: the suite stays
# fast), and the alias of the strongest agent
SPEC_FORMS = [
    "ismcts(iterations=4,reuse=true,reply=true,deploy_candidates=2,deploy_games=1,deploy_turns=2)",
    "portfolio(plans=4,determinizations=2,deploy_candidates=2,deploy_games=1,deploy_turns=2)",
    "portfolio(plans=4,determinizations=2,deploy_candidates=2,deploy_games=1,deploy_turns=2,value=learned)",
    "mcts(simulations=2,max_candidates=2)",
    "best",
]
AGENTS = available_agents() + [s for s in SPEC_FORMS if is_available(s)]
SLOW_DECISIONS = 60  # the decisions of a slow agent (a search) or of one whose cost is not measured
CHEAP_DECISIONS = {"learned"}  # slow games (long ones), but milliseconds a decision: the usual counts


def decisions(name: str, usual: int) -> int:
    """The decisions agent ``name`` plays in a test whose fast agents play ``usual``."""
    return usual if is_fast(name) or name in CHEAP_DECISIONS else min(usual, SLOW_DECISIONS)


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
    n = decisions(name, 300)
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
            seen = any(
                s["unit_type"][v] and UNIT_SIDE[s["unit_type"][v]] == side and s["unit_cell"][v] == s["unit_cell"][u]
                for v in range(MAX_UNITS)
            )
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
        assert game.observation(side).tobytes() == twin.observation(side).tobytes()
        mask = game.legal_action_mask()
        if (mask == twin.legal_action_mask()).all() and checked < decisions(name, 120):
            a1 = make_agent(name, seed=1).act(game.observation(side), mask.copy(), side)
            a2 = make_agent(name, seed=1).act(twin.observation(side), mask.copy(), side)
            assert a1 == a2
            checked += 1
        game.apply_action(driver.act(game.observation(side), mask, side))
    assert checked > 20


def _deploy(name, seed):
    """Both set-up phases of ``open`` played by agent ``name`` (seed ``seed`` as
    the Ziegler player, ``seed + 1`` as the Technocrat): the game after it,
    each side's set-up actions and the phases met."""
    game = Game("open", seed=seed)
    agents = {ZIEGLER: make_agent(name, seed=seed), TECHNOCRAT: make_agent(name, seed=seed + 1)}
    chosen = {ZIEGLER: [], TECHNOCRAT: []}
    phases = []
    while is_setup_phase(game.phase):
        assert not game.is_terminal()
        if not phases or phases[-1] != game.phase:
            phases.append(game.phase)
        side = game.current_player()
        mask = game.legal_action_mask()
        a = agents[side].act(game.observation(side), mask.copy(), side)
        assert mask[a], f"{name} chose the illegal set-up action {a} ({game.action_to_string(a)})"
        game.apply_action(a)
        chosen[side].append(int(a))
        assert len(chosen[ZIEGLER]) + len(chosen[TECHNOCRAT]) < 5000, f"{name}: the set-up does not end"
    return game, chosen, phases


@pytest.mark.parametrize("name", AGENTS)
def test_deployments_legal_and_deterministic(name):
    """The agent sets up both sides of ``open`` (3.2 then 3.3, D21) with legal
    actions only, placing its whole force (every pool empty, play begins in
    phase A of turn 1), and the same seeds give the same deployment."""
    game, chosen, phases = _deploy(name, 7)
    assert phases == [PHASE_Z_SETUP, PHASE_T_SETUP]
    assert chosen[ZIEGLER] and chosen[TECHNOCRAT]
    assert game.phase == PHASE_Z_CRUSTAL and game.turn == 1 and not game.is_terminal()
    assert not game.s["pool"].any(), f"{name} left forces unplaced: {game.s['pool']}"
    again, chosen2, _ = _deploy(name, 7)
    assert chosen2 == chosen
    assert again.s.tobytes() == game.s.tobytes()
