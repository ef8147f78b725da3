"""Hot Spot in OpenSpiel (``hotspot.env.openspiel``, the ``openspiel`` extra):
the game ``python_hotspot`` loads from a game string, passes pyspiel's random
simulation test, serializes, keeps each side's information state to what it
may see (D20), resamples from an information state, and OpenSpiel's own bots
play it, through ``evaluate_bots`` and as arena agents.

Skipped, saying why, where OpenSpiel is not installed."""

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason='OpenSpiel is not installed (pip install "hotspot[openspiel]")')

from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

import hotspot.env.openspiel as hs  # noqa: E402  (registers python_hotspot)
from hotspot.agents.registry import make_agent  # noqa: E402
from hotspot.core.actions import NUM_ACTIONS  # noqa: E402
from hotspot.core.rules_data import NO_UNIT, TECHNOCRAT, UNIT_SIDE, ZIEGLER  # noqa: E402
from hotspot.core.state import MAX_PIECES, MAX_UNITS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _random_states(game, seed, n_actions, every=1):
    """States along one random game of ``game`` (clones), one every ``every`` actions."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    out = []
    for i in range(n_actions):
        if state.is_terminal():
            break
        if i % every == 0:
            out.append(state.clone())
        state.apply_action(int(rng.choice(state.legal_actions())))
    return out


def test_load_game_from_a_game_string():
    """pyspiel.load_game takes OpenSpiel's game-string form; the game type and
    its sizes are what the module declares (player 0 the Ziegler, who sets up first)."""
    game = pyspiel.load_game("python_hotspot(scenario=open,max_turns=200)")
    t = game.get_type()
    assert t.short_name == "python_hotspot"
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == 2 and game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_game_length() >= 200 * hs.ACTIONS_PER_TURN_BOUND
    assert game.get_parameters()["scenario"] == "open" and game.get_parameters()["max_turns"] == 200
    assert game.information_state_tensor_shape() == game.observation_tensor_shape() == [7458]
    state = game.new_initial_state()
    assert state.current_player() == ZIEGLER and not state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.game.record.max_turns == 200
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()  # the string round-trips


def test_seed_parameter_fixes_the_dice():
    """seed >= 0: every new game has those dice; -1 (the default): a fresh seed each game."""
    fixed = pyspiel.load_game("python_hotspot(scenario=standard,seed=11)")
    assert fixed.new_initial_state().game.record.seed == fixed.new_initial_state().game.record.seed == 11
    fresh = pyspiel.load_game("python_hotspot(scenario=standard)")
    assert len({fresh.new_initial_state().game.record.seed for _ in range(4)}) > 1


def test_rules_options_as_game_parameters():
    """Every rules option is a parameter; a value other than the rulebook's
    overrides the scenario's, a table is merged over the scenario's own."""
    game = pyspiel.load_game(
        "python_hotspot(scenario=balanced,combat_table=diagonal,platform_turns=5,"
        "cia_enabled=false,attack=technocrat_crawler:4)"
    )
    rules = game.scenario["rules"]
    assert rules["combat_table"] == "diagonal" and rules["platform_turns"] == 5 and rules["cia_enabled"] is False
    assert rules["attack"] == {"technocrat_crawler": 4}
    assert rules["defense"] == {"ziegler_infantry": 5}  # balanced's own, kept
    s = game.new_initial_state().s
    assert int(s["rules"]["platform_turns"]) == 5
    assert set(hs.PARAMETER_SPECIFICATION) >= set(hs.RulesOptions().to_dict()) | {"scenario", "max_turns", "seed"}
    with pytest.raises(Exception, match="platform_turns"):
        pyspiel.load_game("python_hotspot(platform_turns=0)")
    with pytest.raises(Exception, match="key:integer"):
        pyspiel.load_game("python_hotspot(attack=crawler)")


def test_pyspiel_random_simulation_test_passes():
    """pyspiel.random_sim_test (clone, legal actions sorted and unique strings,
    observations and information states of both players, returns) on the
    preset and the open scenario; without its serialization step, which
    OpenSpiel cannot run for a sampled-stochastic game written in Python (it
    asks the game for its C++ random generator state: see the next test)."""
    pyspiel.random_sim_test(
        pyspiel.load_game("python_hotspot(scenario=standard,max_turns=2,seed=1)"),
        num_sims=2,
        serialize=False,
        verbose=False,
    )
    pyspiel.random_sim_test(
        pyspiel.load_game("python_hotspot(scenario=open,max_turns=1,seed=2)"),
        num_sims=1,
        serialize=False,
        verbose=False,
    )


def test_serialization_round_trips():
    """state.serialize / game.deserialize_state (the game record, replayed) and
    the module's serialize_game_and_state give back the same state at the
    points random_sim_test checks (fewer than 10 actions or a power of two);
    pyspiel.serialize_game_and_state works or refuses with OpenSpiel's
    GetRNGState error (a Python sampled-stochastic game has none)."""
    game = pyspiel.load_game("python_hotspot(scenario=open,max_turns=3)")
    states = _random_states(game, 3, 600)
    checked = 0
    for n, state in enumerate(states):
        if not (n < 10 or (n & (n - 1)) == 0):
            continue
        again = game.deserialize_state(state.serialize())
        assert str(again) == str(state) and again.history() == state.history()
        assert again.s.tobytes() == state.s.tobytes()
        for p in (0, 1):
            assert again.information_state_string(p) == state.information_state_string(p)
        g2, s2 = hs.deserialize_game_and_state(hs.serialize_game_and_state(game, state))
        assert str(g2) == str(game) and str(s2) == str(state)
        checked += 1
    assert checked >= 10
    try:
        text = pyspiel.serialize_game_and_state(game, states[5])
    except pyspiel.SpielError as exc:
        assert "GetRNGState" in str(exc)
    else:  # a later OpenSpiel that supports it
        assert str(pyspiel.deserialize_game_and_state(text)[1]) == str(states[5])
    # a resampled state serializes too (its record starts from the determinized position)
    r = states[-1].resample_from_infostate(states[-1].current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert str(game.deserialize_state(r.serialize())) == str(r)


def _hide_differently(state, side, rng):
    """A clone of ``state`` whose true state differs only in what ``side`` may not
    see (D20): the enemy's piece damage, the squads of enemy counters in
    stacks ``side`` cannot see into, the dice.  Also whether anything was changed."""
    twin = state.clone()
    s = twin.s
    changed = False
    for k in range(1, MAX_PIECES):
        if s["piece_kind"][k] and s["piece_controller"][k] != side:
            s["piece_damage"][k] = (int(s["piece_damage"][k]) + 1) % 2
            changed = True
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t == NO_UNIT or UNIT_SIDE[t] == side or s["unit_cell"][u] < 0:
            continue
        cell = s["unit_cell"][u]
        seen = any(
            s["unit_type"][v] and UNIT_SIDE[s["unit_type"][v]] == side and s["unit_cell"][v] == cell
            for v in range(MAX_UNITS)
        ) or (side == ZIEGLER and cell in s["revealed"])  # R13.3b
        if not seen and s["unit_squads"][u] > 1:
            s["unit_squads"][u] = 1
            changed = True
    s["rng"] = np.uint64(rng.integers(1, 2**62))
    return twin, changed


def test_information_state_hides_the_other_sides_counters_and_damage():
    """D20: the two players' information states differ, and changing what a side
    may not see (enemy damage, unseen stacks' squads, the dice) changes none
    of its information-state string, observation string or tensors; the
    other side, who owns those counters, sees the change."""
    game = pyspiel.load_game("python_hotspot(scenario=standard,max_turns=6,seed=4)")
    rng = np.random.default_rng(0)
    checked = 0
    for state in _random_states(game, 4, 400, every=20):
        assert state.information_state_string(0) != state.information_state_string(1)
        assert state.information_state_tensor(0) != state.information_state_tensor(1)
        for side in (ZIEGLER, TECHNOCRAT):
            twin, changed = _hide_differently(state, side, rng)
            if not changed:
                continue
            assert twin.information_state_string(side) == state.information_state_string(side)
            assert twin.observation_string(side) == state.observation_string(side)
            assert twin.information_state_tensor(side) == state.information_state_tensor(side)
            assert twin.observation_tensor(side) == state.observation_tensor(side)
            assert twin.information_state_string(1 - side) != state.information_state_string(1 - side)
            checked += 1
    assert checked >= 10
    # the observation of a side marks what it cannot see; the full-state view does not hide it
    state = game.new_initial_state()
    assert "?" in state.observation_string(ZIEGLER)
    full = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
    from open_spiel.python.observation import make_observation

    assert "?" not in make_observation(game, full).string_from(state, ZIEGLER)


def test_observer_api():
    """make_observation gives the information-state tensor's named pieces (the
    environments' observation) and refuses what it does not provide."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_hotspot(scenario=standard)")
    state = game.new_initial_state()
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    obs.set_from(state, TECHNOCRAT)
    assert {k: v.shape for k, v in obs.dict.items()} == {
        "board": (19, 21, 15),
        "units": (96, 10),
        "pieces": (32, 15),
        "globals": (33,),
    }
    assert np.array_equal(obs.tensor, np.asarray(state.information_state_tensor(TECHNOCRAT), np.float32))
    assert obs.string_from(state, TECHNOCRAT) == state.information_state_string(TECHNOCRAT)
    with pytest.raises(Exception, match="public-only"):
        make_observation(
            game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
        )


def test_resample_from_infostate_keeps_the_information_state():
    """resample_from_infostate (the project's determinization) gives playable
    states with the player's information-state string, the same legal
    actions for the player to move and the same history; they vary in what
    the player cannot see."""
    game = pyspiel.load_game("python_hotspot(scenario=open,max_turns=4,seed=6)")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = np.random.default_rng(1)
    varied = 0
    for state in _random_states(game, 6, 700, every=70):
        for player in (0, 1):
            samples = [state.resample_from_infostate(player, sampler) for _ in range(4)]
            for r in samples:
                assert r.information_state_string(player) == state.information_state_string(player)
                assert r.history() == state.history()
                if player == state.current_player():
                    assert r.legal_actions() == state.legal_actions()
            varied += len({r.s.tobytes() for r in samples}) > 1
        r = samples[-1]
        while not r.is_terminal():  # a determinization plays on to the end
            r.apply_action(int(rng.choice(r.legal_actions())))
    assert varied > 0


def _bots(game, seed, sims=2):
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    is_bot = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=rs)
    # OpenSpiel's Python ISMCTSBot has no restart_at, which evaluate_bots calls first; its search
    # keeps nothing between decisions, so doing nothing is what restarting means
    is_bot.restart_at = lambda state: None
    return is_bot, mcts.MCTSBot(game, 2.0, sims, evaluator, random_state=rs), rs


def test_openspiel_bots_play_whole_games_through_evaluate_bots():
    """OpenSpiel's own, unmodified ISMCTSBot and MCTSBot (RandomRolloutEvaluator)
    play whole games against each other, both seats, through evaluate_bots."""
    game = pyspiel.load_game("python_hotspot(scenario=standard,max_turns=1,seed=8)")
    is_bot, mcts_bot, rs = _bots(game, 0)
    for bots in ([is_bot, mcts_bot], [mcts_bot, is_bot]):
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, rs)
        assert state.is_terminal() and sum(returns) == 0.0 and state.game.turn == 1
        assert len(state.history()) > 10
    # and on the open scenario, set-up decisions included (one turn)
    game = pyspiel.load_game("python_hotspot(scenario=open,max_turns=1,seed=9)")
    is_bot, mcts_bot, rs = _bots(game, 1)  # ISMCTSBot needs two simulations: the first only expands
    state = game.new_initial_state()
    evaluate_bots.evaluate_bots(state, [is_bot, is_bot], rs)
    assert state.is_terminal()


def test_arena_agents_are_legal_deterministic_and_honest():
    """openspiel-ismcts and openspiel-mcts choose legal actions, the same ones under
    the same seed, from the information state alone: a twin game that differs
    only in what the side may not see gets the same action (D20)."""
    from hotspot.core.game import Game

    for spec in (
        "openspiel-ismcts(iterations=4)",
        "openspiel-mcts(iterations=4)",
        "openspiel-ismcts(iterations=2,rollout=python)",
    ):
        rng = np.random.default_rng(2)
        game = Game("standard", seed=3, max_turns=2)
        driver = make_agent("random", seed=4)
        os_game = pyspiel.load_game("python_hotspot(scenario=standard)")
        checked = 0
        while not game.is_terminal() and checked < 12:
            side = game.current_player()
            mask = game.legal_action_mask()
            if mask.sum() > 1:
                twin, _ = _hide_differently(os_game.state_from_game(game), side, rng)
                assert twin.game.observation(side).tobytes() == game.observation(side).tobytes()
                a1 = make_agent(spec, seed=5).act(game.observation(side), mask.copy(), side)
                a2 = make_agent(spec, seed=5).act(twin.game.observation(side), mask.copy(), side)
                assert mask[a1] and a1 == a2
                checked += 1
            game.apply_action(driver.act(game.observation(side), mask, side))
        assert checked >= 6, spec


def test_think_ms_bounds_the_search():
    """With think_ms the search stops once the budget is spent (after at least two simulations)."""
    from hotspot.core.game import Game

    game = Game("standard", seed=3, max_turns=20)
    agent = make_agent("openspiel-ismcts(think_ms=30)", seed=1)
    while game.legal_action_mask().sum() < 3:
        game.apply_action(int(game.legal_actions()[0]))
    side = game.current_player()
    agent.act(game.observation(side), game.legal_action_mask(), side)  # warm-up
    t = time.perf_counter()
    a = agent.act(game.observation(side), game.legal_action_mask(), side)
    assert game.legal_action_mask()[a]
    assert time.perf_counter() - t < 2.0
    assert agent._samples >= 2


def test_arena_hosts_openspiel_ismcts(tmp_path):
    """The arena plays openspiel-ismcts against hotspot's ismcts and keeps every game with its seed."""
    from hotspot.arena.tournament import run_arena

    summary = run_arena(
        pairings=[("openspiel-ismcts(iterations=2)", "ismcts(iterations=2)")],
        games=1,
        scenario="standard",
        seed=0,
        out=tmp_path / "run",
        workers=1,
        progress=False,
        max_turns=1,
    )
    rows = [json.loads(line) for line in (tmp_path / "run" / "games.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and {r["technocrat"] for r in rows} == {
        "openspiel-ismcts(iterations=2)",
        "ismcts(iterations=2)",
    }
    assert all("seed" in r and r["actions"] for r in rows)
    assert summary["sides"]


def test_benchmark_tiny(tmp_path):
    """benchmarks/bench_openspiel_bots.py --tiny runs and writes its JSON document."""
    out = tmp_path / "bots.json"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_openspiel_bots.py"),
            "--tiny",
            "--out",
            str(out),
            "--runs-dir",
            str(tmp_path / "runs"),
        ],
        check=True,
        cwd=ROOT,
        capture_output=True,
        timeout=600,
    )
    doc = json.loads(out.read_text())
    assert doc["benchmark"] == "bench_openspiel_bots" and doc["tiny"] is True
    assert {"overall", "per_seat"} <= set(doc["summary"])
    assert doc["games"]


def test_registered_parameters_match_the_agents():
    """The parameters declared in the arena's registry (so that listing them needs
    no OpenSpiel) have the agents' own defaults."""
    import inspect

    from hotspot.agents.specs import params_of

    for name, cls in (("openspiel-ismcts", hs.OpenSpielISMCTSAgent), ("openspiel-mcts", hs.OpenSpielMCTSAgent)):
        declared = params_of(name)
        signature = inspect.signature(cls).parameters
        assert set(declared) == set(signature) - {"seed"}, name
        for key, param in declared.items():
            default = signature[key].default
            assert param.default == (hs.DEFAULT_ITERATIONS if default is None else default), (name, key)


def test_without_openspiel_the_agents_are_listed_but_unavailable():
    """Without pyspiel the agents stay registered, unavailable, and the agent list still prints."""
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "from hotspot.agents.registry import available_agents, is_available\n"
        "assert not is_available('openspiel-ismcts') and 'openspiel-mcts' not in available_agents()\n"
        "from hotspot.cli import main\n"
        "assert main(['arena', '--list-agents']) == 0\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "openspiel-ismcts not available" in out.stdout
