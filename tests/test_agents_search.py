"""The Monte Carlo search agent (hotspot/agents/search.py, ``mcts``).

* registered in the arena and exported; a Python-driven agent (no compiled policy);
* only legal actions over a whole game (small budget), both sides;
* deterministic under its seed;
* honest (D20): it is given only the information state, and two true states
  that differ only in what the mover may not see (enemy damage, enemy stacks
  below the top counter, unseen squads, the dice) give the same action;
* determinizations keep the position legal and change only hidden fields.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import hidden_twins, policy_snapshots

from hotspot.agents import Agent, MCTSAgent
from hotspot.agents.policies import POLICY_SCRIPTED
from hotspot.agents.registry import available_agents, make_agent, policy_id_of
from hotspot.agents.search import DMG_P0, PRIOR_FORCES, SQUAD_PROBS, determinize
from hotspot.arena.match import GameSpec, play_game
from hotspot.core.actions import NUM_ACTIONS, legal_action_mask
from hotspot.core.game import Game
from hotspot.core.observation import observe
from hotspot.core.placement import position_errors
from hotspot.core.rules_data import NO_UNIT, PHASE_OVER, PHASE_PLAYER, T_ENGINEER, UNIT_SIDE
from hotspot.core.state import STATE_DTYPE

SMALL = dict(simulations=2, max_candidates=3, horizon=0)


def _snapshots(n_games: int, every: int, scenario="standard"):
    """Mid-game true states (each a (1,) array) from scripted self-play."""
    return policy_snapshots(n_games, every, ((POLICY_SCRIPTED, POLICY_SCRIPTED),), scenario)


# ------------------------------------------------------------------ interface


def test_registered_and_exported():
    assert "mcts" in available_agents()
    agent = make_agent("mcts", seed=3)
    assert isinstance(agent, MCTSAgent) and isinstance(agent, Agent)
    assert agent.name == "mcts" and agent.policy_id is None
    assert policy_id_of("mcts") is None
    with pytest.raises(ValueError):
        MCTSAgent(rollout="nonsense")
    with pytest.raises(ValueError):
        MCTSAgent(simulations=0)


@pytest.mark.parametrize("mcts_side", ["technocrat", "ziegler"])
def test_whole_game_only_legal_actions(mcts_side):
    """A whole arena game (the arena's Python path checks every action's legality)."""
    tech, zieg = ("mcts", "scripted") if mcts_side == "technocrat" else ("scripted", "mcts")
    spec = GameSpec("t", tech, zieg, 0, 11)
    mcts = MCTSAgent(simulations=1, max_candidates=2)
    agents = (make_agent("scripted"), mcts) if mcts_side == "technocrat" else (mcts, make_agent("scripted"))
    row = play_game(spec, agents)
    assert row["path"] == "python" and row["winner"] in ("technocrat", "ziegler")
    assert mcts.searched > 0


def test_legal_on_many_positions_and_both_rollout_policies():
    for rollout in ("scripted", "random"):
        agent = MCTSAgent(rollout=rollout, seed=1, **SMALL)
        for states in _snapshots(2, 23):
            game = Game(_state=states.copy(), _record=None)
            side = game.current_player()
            mask = game.legal_action_mask()
            a = agent.act(game.observation(side), mask, side)
            assert mask[a]


def test_deterministic_under_seed():
    snaps = _snapshots(1, 31)

    def run(seed):
        agent = MCTSAgent(seed=seed, **SMALL)
        out = []
        for states in snaps:
            game = Game(_state=states.copy(), _record=None)
            side = game.current_player()
            out.append(agent.act(game.observation(side), game.legal_action_mask(), side))
        return out

    assert run(5) == run(5)
    # whole games too
    rows = [
        play_game(
            GameSpec("t", "mcts", "scripted", 0, 4),
            (make_agent("scripted"), MCTSAgent(simulations=1, max_candidates=2)),
        )
        for _ in range(2)
    ]
    assert rows[0]["actions"] == rows[1]["actions"]


# ------------------------------------------------------------------ hidden information (D20)


def test_hidden_information_never_changes_the_action():
    """Two true states that differ only in what the mover may not see give the same action (D20)."""
    compared = changed = 0
    for side, oa, ob, mask, diff in hidden_twins(_snapshots(4, 13)):
        assert MCTSAgent(seed=9, **SMALL).act(oa, mask.copy(), side) == MCTSAgent(seed=9, **SMALL).act(
            ob, mask.copy(), side
        )
        compared += 1
        changed += diff
    assert compared >= 20 and changed >= compared // 2


def test_acts_on_the_information_state_only():
    """The agent's decision is a function of the information state: a fogged
    observation with the true dice restored or cleared gives the same action."""
    for states in _snapshots(1, 41):
        game = Game(_state=states.copy(), _record=None)
        side = game.current_player()
        o = game.observation(side)
        o2 = o.copy()
        o2["rng"] = np.uint64(123456789)  # a dice state in the input is never used
        mask = game.legal_action_mask()
        assert MCTSAgent(seed=2, **SMALL).act(o, mask, side) == MCTSAgent(seed=2, **SMALL).act(o2, mask, side)


# ------------------------------------------------------------------ determinization


def test_determinization_is_legal_and_changes_only_hidden_fields():
    d = np.zeros(1, dtype=STATE_DTYPE)
    rng = np.array([99], dtype=np.uint64)
    filled = 0
    for states in _snapshots(4, 11) + _snapshots(2, 17, "random:3"):
        s = states[0]
        side = int(PHASE_PLAYER[s["phase"]])
        o = np.zeros(1, dtype=STATE_DTYPE)
        observe(s, side, True, o[0])
        for _ in range(3):
            determinize(o[0], side, d[0], rng, PRIOR_FORCES, SQUAD_PROBS, DMG_P0)
            assert position_errors(d) == []
            # no unknowns left
            assert (d["piece_damage"][0] >= 0).all()
            used = d["unit_type"][0] != NO_UNIT
            assert (d["unit_type"][0] >= 0).all() and (d["unit_squads"][0][used] >= 1).all()
            # only the hidden fields change, and they get values of the enemy
            hidden_t = o["unit_type"][0] == -1
            hidden_q = o["unit_squads"][0] == -1
            filled += int(hidden_t.sum())
            assert (d["unit_type"][0][~hidden_t] == o["unit_type"][0][~hidden_t]).all()
            assert (d["unit_squads"][0][~hidden_q] == o["unit_squads"][0][~hidden_q]).all()
            for u in np.flatnonzero(hidden_t):
                assert UNIT_SIDE[d["unit_type"][0][u]] == 1 - side
            assert (d["cell_units"] == s["cell_units"]).all()
            assert (d["unit_cell"] == s["unit_cell"]).all()
            hidden_d = o["piece_damage"][0] == -1
            assert (d["piece_damage"][0][~hidden_d] == o["piece_damage"][0][~hidden_d]).all()
            # D19: the game goes on, so the Technocrat keeps an engineer squad
            if s["phase"] != PHASE_OVER:
                assert (d["unit_type"][0] == T_ENGINEER).any()
            # a playable state: the core accepts it
            mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
            legal_action_mask(d[0], mask)
            assert mask.any()
    assert filled > 50


# ------------------------------------------------------------------ the play-out loop


def test_play_out_stops_at_its_horizon_and_at_the_end_of_the_game():
    """``rollouts.play_out`` (the one play-out loop of the flat search, ISMCTS
    and the set-up search) plays legal actions for both sides until the turn
    passes ``start_turn + horizon``, or the game ends, or ``max_actions``;
    it returns the number played, and the same generators give the same
    play-out."""
    from hotspot.agents.rollouts import new_rollout_buffers, play_out
    from hotspot.core.errors import OK
    from hotspot.core.events import EV_WIDTH
    from hotspot.core.integrity import state_fault

    def run(horizon, max_actions, seed=3):
        s = Game("standard", seed=5).state.copy()
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        prng = np.array([seed, seed + 1], dtype=np.uint64)
        ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
        ev_n = np.zeros(1, dtype=np.int32)
        obs, work = new_rollout_buffers()
        start = int(s[0]["turn"])
        n = play_out(s[0], start, horizon, POLICY_SCRIPTED, mask, prng, max_actions, ev, ev_n, obs, work)
        return s, start, n

    s, start, n = run(horizon=1, max_actions=100_000)
    assert n > 0
    assert s[0]["phase"] == PHASE_OVER or int(s[0]["turn"]) == start + 2  # stopped as the turn passed start + 1
    assert state_fault(s[0])[0] == OK  # every invariant of the state holds
    s2, _, n2 = run(horizon=1, max_actions=100_000)
    assert n2 == n and s2.tobytes() == s.tobytes()  # the same generators, the same play-out
    _, _, n3 = run(horizon=1, max_actions=7)
    assert n3 == 7  # the action bound
    s4, _, n4 = run(horizon=-1, max_actions=1_000_000)
    assert s4[0]["phase"] == PHASE_OVER and n4 > n  # no horizon: to the end of the game
