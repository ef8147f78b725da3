"""The agents in the set-up phases (3.2, 3.3, D21; hotspot/agents/scripted/setup.py).

* every agent (random, scripted, the flat search mcts, learned) plays whole games of the
  ``open`` scenario, set-up included, with legal actions only;
* the scripted deployment follows its plan: Ziegler crustals screening the
  Central Crustal at 2-4 hexes (none beyond 5), every Central Crustal hex
  held, no hex over the stress threshold (9.3), hovercraft on the Central
  Crustal; Technocrat platforms on the perimeter, the engineers on three
  different platforms, each with escorts, no platform empty;
* seeded variety: different agent seeds, different deployments; the same
  seed, the same one; the compiled policy deploys as the Python agent;
* honest (D20): the Technocrat's set-up actions do not depend on what it
  cannot see of the Ziegler stacks;
* the search agent does not search the set-up; the learned agent plays the
  scripted deployment plan there.
"""

from __future__ import annotations

import numpy as np
import pytest

import hotspot.core as hc
from hotspot.agents import ScriptedAgent
from hotspot.agents.policies import POLICY_SCRIPTED, play_games
from hotspot.agents.registry import is_available
from hotspot.arena import make_agent
from hotspot.arena.match import play_match
from hotspot.core.actions import A_SETUP_CHOOSE
from hotspot.core.game import Game
from hotspot.core.hexgrid import CENTRAL_CELLS, PERIMETER
from hotspot.core.hexgrid import DISTANCE_TO_CENTRAL as DCEN
from hotspot.core.rules_data import (
    CENTRAL,
    NO_PIECE,
    NO_UNIT,
    PHASE_OVER,
    PHASE_T_SETUP,
    PHASE_Z_SETUP,
    PLATFORM,
    T_ENGINEER,
    TECHNOCRAT,
    UNIT_SIDE,
    Z_HOVERCRAFT,
    Z_INFANTRY,
    ZIEGLER,
)
from hotspot.core.setup import is_setup_phase
from hotspot.core.state import MAX_PIECES, MAX_UNITS

AGENTS = [
    name for name in ("random", "scripted", "mcts(max_candidates=4,simulations=2)", "learned") if is_available(name)
]
SEEDS = (0, 1, 2, 3, 4, 5)


def _decide(game, agents):
    side = game.current_player()
    mask = game.legal_action_mask()
    a = agents[side].act(game.observation(side), mask.copy(), side)
    assert mask[a], f"{agents[side].name} chose the illegal action {a} ({game.action_to_string(a)})"
    game.apply_action(a)
    return side, int(a)


def _set_up(seed: int, name: str = "scripted", agent_seeds=None):
    """The ``open`` game of dice seed ``seed`` after its set-up by agent ``name``
    on both sides; returns (game, Ziegler set-up actions, Technocrat set-up actions)."""
    zs, ts = agent_seeds if agent_seeds is not None else (seed, seed + 100)
    game = Game("open", seed=seed, max_turns=60)
    agents = (make_agent(name, seed=zs), make_agent(name, seed=ts))
    assert game.phase == PHASE_Z_SETUP
    acts = ([], [])
    while is_setup_phase(game.phase):
        side, a = _decide(game, agents)
        acts[side].append(a)
    return game, acts[0], acts[1]


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("name", AGENTS)
def test_every_agent_plays_open_to_the_end(name):
    """Set-up and play, legal actions only, to a result or the turn limit."""
    game = Game("open", seed=11, max_turns=60)
    agents = (make_agent(name, seed=1), make_agent(name, seed=2))
    phases = set()
    n = 0
    while not game.is_terminal():
        phases.add(game.phase)
        _decide(game, agents)
        n += 1
        assert n < 100_000
    assert {PHASE_Z_SETUP, PHASE_T_SETUP} <= phases
    assert game.winner() in (ZIEGLER, TECHNOCRAT) or game.is_truncated()


def test_compiled_policy_plays_open_as_the_python_agent():
    """The compiled scripted policy (the arena's compiled game) and
    ScriptedAgent.act on information states play the same game, set-up included."""
    seeds = (4242, 99)
    states = hc.init("open", seeds=3, max_turns=40)
    buf = np.zeros(100_000, dtype=np.int32)
    n, status = play_match(states[0], POLICY_SCRIPTED, POLICY_SCRIPTED, np.array(seeds, dtype=np.uint64), buf, 0)
    assert status == 0 and states[0]["phase"] == PHASE_OVER
    assert buf[0] >= A_SETUP_CHOOSE  # the game starts with the set-up
    game = Game("open", seed=3, max_turns=40)
    agents = tuple(ScriptedAgent(seed=s) for s in seeds)
    actions = []
    while not game.is_terminal():
        actions.append(_decide(game, agents)[1])
    assert actions == buf[:n].tolist()


# ------------------------------------------------------------------ the plan


def _crustals(s):
    return [k for k in range(1, MAX_PIECES) if s["piece_kind"][k] not in (NO_PIECE, CENTRAL, PLATFORM)]


def _cells(s, k):
    return [int(c) for c in s["piece_cells"][k] if c >= 0]


@pytest.mark.parametrize("seed", SEEDS)
def test_ziegler_deployment_follows_the_plan(seed):
    game, zacts, _ = _set_up(seed)
    s = game.s
    thr = int(s["rules"]["stress_threshold"])
    crustals = _crustals(s)
    kinds = {int(s["piece_kind"][k]) for k in crustals}
    assert len(kinds) >= 2  # a mix of types
    dist = [DCEN[c] for k in crustals for c in _cells(s, k)]
    assert len(dist) == 18
    assert max(dist) <= 5 and 2.0 <= np.mean(dist) <= 4.0  # a screen at 2-4 hexes
    # no hex over the stress threshold (9.3: stacks over 6 make stress rolls)
    assert s["cell_units"][:, ZIEGLER].max() <= thr
    # every Central Crustal hex held; hovercraft in reserve there; infantry in 3-squad counters
    assert all(s["cell_units"][c, ZIEGLER] >= 1 for c in CENTRAL_CELLS)
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t == Z_HOVERCRAFT:
            assert s["board"][s["unit_cell"][u]] == 0
        elif t == Z_INFANTRY:
            assert s["unit_squads"][u] == 3
    # some crustals garrisoned: one counter each, never more
    garrisons = [sum(int(s["cell_units"][c, ZIEGLER]) for c in _cells(s, k)) for k in crustals]
    assert max(garrisons) == 1


@pytest.mark.parametrize("seed", SEEDS)
def test_technocrat_deployment_follows_the_plan(seed):
    game, _, tacts = _set_up(seed)
    s = game.s
    platforms = [int(s["piece_cells"][k, 0]) for k in range(1, MAX_PIECES) if s["piece_kind"][k] == PLATFORM]
    assert len(platforms) == 5 and all(PERIMETER[c] for c in platforms)
    # near the shortest approaches: the east and west edges are 6-7 hexes from the
    # Central Crustal, the perimeter 6-13 (9.2 on average)
    assert np.mean([DCEN[c] for c in platforms]) <= 8
    eng = [int(s["unit_cell"][u]) for u in range(MAX_UNITS) if s["unit_type"][u] == T_ENGINEER]
    assert len(set(eng)) == 3  # three engineer squads, three platforms
    for c in set(eng):
        escorts = [
            u for u in range(MAX_UNITS) if s["unit_cell"][u] == c and s["unit_type"][u] not in (NO_UNIT, T_ENGINEER)
        ]
        assert len(escorts) >= 2
    assert all(s["cell_units"][c, TECHNOCRAT] >= 1 for c in platforms)  # no platform empty
    assert game.phase == 0 and game.turn == 1  # play begins (4.0)


def test_seeded_variety():
    """Different agent seeds, different deployments; the same seed, the same one."""
    deployments = set()
    for agent_seed in range(6):
        _, z, t = _set_up(3, agent_seeds=(agent_seed, agent_seed + 50))
        deployments.add((tuple(z), tuple(t)))
        _, z2, t2 = _set_up(3, agent_seeds=(agent_seed, agent_seed + 50))
        assert (z2, t2) == (z, t)
    assert len(deployments) == 6
    # each side's own seed varies its own deployment
    _, za, ta = _set_up(3, agent_seeds=(1, 2))
    _, zb, tb = _set_up(3, agent_seeds=(1, 3))
    assert za == zb and ta != tb
    # the dice seed plays no part in the set-up: same agent seeds, same deployment
    _, zc, tc = _set_up(4, agent_seeds=(1, 2))
    assert (zc, tc) == (za, ta)


def test_scripted_vs_scripted_on_open_is_not_one_game():
    """Compiled scripted self-play on ``open`` (dice and agent seeds per game):
    every game ends (a result, or truncated at max_turns) and no two are alike."""
    n = 6
    states = hc.init("open", seeds=list(range(n)), max_turns=60)
    rng = np.array([[10 + i, 20 + i] for i in range(n)], dtype=np.uint64)
    counts = np.zeros(n, dtype=np.int64)
    play_games(states, POLICY_SCRIPTED, POLICY_SCRIPTED, rng, 200_000, counts)
    assert (counts > 0).all() and (states["phase"] == PHASE_OVER).all()
    boards = {states[i]["board"].tobytes() + states[i]["unit_cell"].tobytes() for i in range(n)}
    assert len(boards) == n


# ------------------------------------------------------------------ honesty (D20)


def _hide_ziegler_differently(game, rng):
    """A copy of the game whose Ziegler stacks differ only in what the
    Technocrat cannot see (9.5, D20): the squads of every Ziegler counter and
    the type of every counter below the top one (R9.5: the lowest index)."""
    twin = game.clone()
    s = twin.s
    changed = 0
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t == NO_UNIT or UNIT_SIDE[t] != ZIEGLER:
            continue
        c = s["unit_cell"][u]
        top = min(v for v in range(MAX_UNITS) if s["unit_type"][v] and s["unit_cell"][v] == c)
        if top != u and rng.random() < 0.5:
            s["unit_type"][u] = Z_HOVERCRAFT if t == Z_INFANTRY else Z_INFANTRY
            changed += 1
        if s["unit_type"][u] == Z_INFANTRY:
            s["unit_squads"][u] = rng.integers(1, 4)
            changed += 1
        else:
            s["unit_squads"][u] = 1
    assert changed
    return twin


@pytest.mark.parametrize("name", AGENTS)
def test_technocrat_setup_ignores_hidden_ziegler_information(name):
    rng = np.random.default_rng(7)
    for seed in (0, 1):
        game = Game("open", seed=seed)
        zagent = make_agent("scripted", seed=seed)
        while game.phase == PHASE_Z_SETUP:
            _decide(game, (zagent, None))
        assert game.phase == PHASE_T_SETUP
        twin = _hide_ziegler_differently(game, rng)
        assert game.observation(TECHNOCRAT).tobytes() == twin.observation(TECHNOCRAT).tobytes()
        assert game.s.tobytes() != twin.s.tobytes()
        runs = []
        for g in (game, twin):
            agent = make_agent(name, seed=seed + 5)
            acts = []
            while g.phase == PHASE_T_SETUP:
                acts.append(_decide(g, (None, agent))[1])
            runs.append(acts)
        assert runs[0] == runs[1]


# ------------------------------------------------------------------ search and learned


@pytest.mark.skipif(not is_available("mcts"), reason="no search agent")
def test_search_agent_does_not_search_the_setup():
    game = Game("open", seed=2)
    agent = make_agent("mcts(max_candidates=4,simulations=2)", seed=3)
    while is_setup_phase(game.phase):
        _decide(game, (agent, agent))
    assert agent.searched == 0
