"""The portfolio search's learned value (``hotspot.agents.plan_value``): the
compiled value is the numpy network's; without networks the search values
with the hand-written evaluation; a finished game is its result (15.0); the
replay records one position at the start of each half of a turn (phases A
and E, 5.0: where the search values a plan) with the game's result; the
weights file is checked on load; the search plays legal, reproducible games
with a learned value; and the Brier score and reliability curve say what
they should."""

import numpy as np
import pytest

from hotspot.agents.beliefs import EVAL_WEIGHTS, evaluate
from hotspot.agents.plan_value import (
    NO_NETS,
    PLAN_VALUE_FILE,
    brier,
    fit_plan_value,
    game_positions,
    load_plan_value,
    plan_value,
    platt,
    predict_plan_value,
    reliability,
    replay_positions,
    save_plan_value,
)
from hotspot.agents.portfolio import PortfolioAgent
from hotspot.agents.registry import UnknownAgentError, make_agent
from hotspot.agents.value_net import init_net
from hotspot.arena.match import GameSpec, play_game
from hotspot.core.game import Game
from hotspot.core.rules_data import PHASE_T_CRUSTAL, PHASE_Z_CRUSTAL, TECHNOCRAT, ZIEGLER
from hotspot.features.position import NUM_POSITION_FEATURES, position_features


def _nets(seed=0, hidden=5):
    return np.stack([init_net(hidden, seed), init_net(hidden, seed + 1)])


def replayable(rows):
    """(key, started state, actions, Technocrat result) of arena rows, as
    ``training/train_generations.py`` gives them to ``game_positions``."""
    from hotspot.arena.folder import record_from_row

    for row in rows:
        rec = record_from_row(row)
        actions = np.array(rec.actions, dtype=np.int64)
        rec.actions = []
        yield (
            row["key"],
            Game.from_record(rec).state,
            actions,
            {"technocrat": 1.0, "ziegler": -1.0}.get(row["winner"], 0.0),
        )


def _scripted_row(seed=11):
    """A whole game of the scripted players on ``standard``, as an arena row."""
    spec = GameSpec("scripted:scripted", "scripted", "scripted", 0, seed, scenario="standard")
    return play_game(spec)


def test_without_networks_the_value_is_the_hand_written_evaluation():
    game = Game("standard", seed=3)
    while game.phase != PHASE_T_CRUSTAL:
        game.apply_action(int(game.legal_actions()[0]))
    feat = np.zeros(NUM_POSITION_FEATURES)
    for side in (ZIEGLER, TECHNOCRAT):
        assert plan_value(game.state[0], side, NO_NETS, feat) == evaluate(game.state[0], side, EVAL_WEIGHTS)


def test_the_compiled_value_is_the_numpy_network_of_the_half_of_the_turn():
    nets = _nets()
    game = Game("standard", seed=4)
    feat = np.zeros(NUM_POSITION_FEATURES)
    seen = set()
    for _ in range(400):
        if game.is_terminal():
            break
        s = game.state[0]
        if game.phase in (PHASE_Z_CRUSTAL, PHASE_T_CRUSTAL):
            x = np.zeros(NUM_POSITION_FEATURES)
            position_features(s, x)
            half = 1 if game.phase == PHASE_T_CRUSTAL else 0
            want = predict_plan_value(nets, x[None], np.array([half]))[0]
            assert plan_value(s, TECHNOCRAT, nets, feat) == pytest.approx(want, abs=1e-12)
            assert plan_value(s, ZIEGLER, nets, feat) == pytest.approx(-want, abs=1e-12)  # zero-sum
            seen.add(half)
        game.apply_action(int(game.legal_actions()[0]))
    assert seen == {0, 1}


def test_a_finished_game_is_valued_by_its_result():
    row = _scripted_row()
    from hotspot.arena.folder import record_from_row

    game = Game.from_record(record_from_row(row))
    assert game.is_terminal()
    feat = np.zeros(NUM_POSITION_FEATURES)
    want = {"technocrat": 1.0, "ziegler": -1.0}.get(row["winner"], 0.0)
    assert plan_value(game.state[0], TECHNOCRAT, _nets(), feat) == want


def test_the_replay_records_each_half_of_each_turn_with_the_result():
    row = _scripted_row()
    data = game_positions(replayable([row]))
    n = len(data["y"])
    assert n >= 2 and data["X"].shape == (n, NUM_POSITION_FEATURES)
    # one position at the start of each half of the turn (A-D, E-H), turn after turn (5.0)
    assert list(data["half"]) == [i % 2 for i in range(n)]
    want = {"technocrat": 1.0, "ziegler": -1.0}.get(row["winner"], 0.0)
    assert np.all(data["y"] == want) and np.all(data["game"] == 0)
    assert np.all(np.abs(data["hand"]) <= 1.0)


def test_a_replay_of_an_illegal_action_stops_and_says_so():
    game = Game("standard", seed=1)
    X = np.zeros((10, NUM_POSITION_FEATURES))
    half, hand = np.zeros(10, np.int8), np.zeros(10)
    illegal = int(np.flatnonzero(~game.legal_action_mask())[0])
    n, ok = replay_positions(game.state[0], np.array([illegal], dtype=np.int64), X, half, hand, 0)
    assert not ok


def test_the_weights_file_round_trips_and_a_bad_one_is_one_line(tmp_path):
    nets = _nets()
    save_plan_value(tmp_path / "v.npz", nets, generation=3)
    assert np.array_equal(load_plan_value(tmp_path / "v.npz"), nets)
    np.savez(tmp_path / "one.npz", nets=nets[:1], features=np.int64(NUM_POSITION_FEATURES))
    np.savez(tmp_path / "feat.npz", nets=nets, features=np.int64(NUM_POSITION_FEATURES + 1))
    np.savez(tmp_path / "none.npz", other=nets)
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    bad = nets.copy()
    bad[0, 5] = np.nan
    np.savez(tmp_path / "nan.npz", nets=bad, features=np.int64(NUM_POSITION_FEATURES))
    for name in ("one", "feat", "none", "junk", "nan"):
        with pytest.raises(ValueError) as err:
            load_plan_value(tmp_path / f"{name}.npz")
        assert "\n" not in str(err.value) and f"{name}.npz" in str(err.value)


def test_the_brier_score_and_the_reliability_curve():
    y = np.array([1.0, -1.0, 0.0, 1.0])
    assert brier(y, y) == 0.0  # a perfect forecast
    assert brier(np.zeros(4), y) == pytest.approx(np.mean([0.25, 0.25, 0.0, 0.25]))
    curve = reliability(np.array([0.9, 0.9, -0.9, -0.9]), np.array([1.0, 1.0, -1.0, 1.0]), bins=2)
    assert [c["rows"] for c in curve] == [2, 2]
    assert curve[0]["observed"] == pytest.approx(0.5) and curve[1]["observed"] == pytest.approx(1.0)
    calibrated = platt(np.array([0.5, -0.5, 0.5, -0.5]), np.array([1.0, -1.0, 1.0, -1.0]))
    assert calibrated(np.array([0.5]))[0] == pytest.approx(1.0, abs=1e-9)


def test_a_fit_learns_a_value_the_features_determine():
    """The fitted networks beat the constant forecast on a target that is a
    function of the features (each half its own function)."""
    rng = np.random.default_rng(0)
    X = rng.uniform(0, 1, (3000, NUM_POSITION_FEATURES))
    half = rng.integers(0, 2, 3000).astype(np.int8)
    y = np.where(half == 0, np.tanh(3 * (X[:, 0] - 0.5)), np.tanh(3 * (0.5 - X[:, 1])))
    nets, losses = fit_plan_value(X, half, y, hidden=8, epochs=30)
    assert losses[0][-1] < losses[0][0] and losses[1][-1] < losses[1][0]
    pred = predict_plan_value(nets, X, half)
    assert brier(pred, y) < 0.25 * brier(np.full(len(y), y.mean()), y)


SMALL = dict(plans=4, determinizations=2, deploy_candidates=2, deploy_games=1, deploy_turns=2)


def _play(agent_of, seed, decisions=120):
    game = Game("random:3", seed=seed)
    chosen = []
    while not game.is_terminal() and len(chosen) < decisions:
        mover = game.current_player()
        a = agent_of[mover].act(game.observation(mover), game.legal_action_mask(), mover)
        assert game.legal_action_mask()[a]
        game.apply_action(a)
        chosen.append(int(a))
    return chosen


def test_the_search_with_a_learned_value_plays_legal_reproducible_games(tmp_path):
    save_plan_value(tmp_path / "v.npz", _nets(7), generation=1)

    def agents():
        return {
            TECHNOCRAT: PortfolioAgent(**SMALL, value_net=str(tmp_path / "v.npz"), seed=1),
            ZIEGLER: PortfolioAgent(**SMALL, value_net=_nets(7), seed=2),
        }

    first = _play(agents(), 5)
    assert first == _play(agents(), 5)
    assert agents()[TECHNOCRAT].value == "learned"


def test_the_value_parameter_in_a_spec_and_its_errors():
    assert PLAN_VALUE_FILE.exists()  # the shipped networks
    agent = make_agent("portfolio(plans=4,value=learned)", seed=1)
    assert agent.value == "learned" and agent.nets.shape[0] == 2
    assert make_agent("portfolio(plans=4)", seed=1).value == "evaluate"
    with pytest.raises(Exception) as err:
        make_agent("portfolio(value=deep)", seed=1)
    assert "value" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(UnknownAgentError) as err:
        make_agent("portfolio(value_net=/nonexistent/v.npz)", seed=1)
    assert "v.npz" in str(err.value) and "\n" not in str(err.value)


# ------------------------------------------------------------------ the intent prior


def _searched_position(seed=3):
    """An information state at the first decision of a planned phase, with the mover and mask."""
    from hotspot.agents.portfolio import planned_phase

    game = Game("open", seed=seed)
    scripted = make_agent("scripted", seed=seed)
    while not game.is_terminal():
        side = game.current_player()
        mask = game.legal_action_mask()
        if planned_phase(game.phase) and game.turn >= 2 and mask.sum() > 1:
            return game.observation(side).copy(), mask.copy(), side
        game.apply_action(scripted.act(game.observation(side), mask, side))
    raise AssertionError("no planned phase")


def test_a_flat_prior_keeps_the_random_order_and_the_counts_add_up():
    """Changes tried in the prior's order, a stable sort over the random order:
    a prior equal everywhere searches exactly as no prior; each valuation
    after the first is one change tried (counted once)."""
    from hotspot.agents.portfolio import (
        NO_PRIOR,
        NO_STATS,
        PARAMS,
        PLAN_SIZE,
        PRIOR_SHAPE,
        STATS_SHAPE,
        portfolio_search,
    )

    o, mask, side = _searched_position()
    params = PARAMS.vector(plans=12, determinizations=2)
    plans = []
    for prior in (NO_PRIOR, np.full(PRIOR_SHAPE, 0.3)):
        plan = np.zeros(PLAN_SIZE, dtype=np.int8)
        stats = np.zeros(STATS_SHAPE)
        valued = portfolio_search(o[0], mask, side, params, np.uint64(9), plan, NO_NETS, prior, stats)
        assert stats[..., 0].sum() == valued - 1 and stats[..., 1].sum() <= stats[..., 0].sum()
        plans.append(plan.copy())
    assert np.array_equal(plans[0], plans[1])
    plan = np.zeros(PLAN_SIZE, dtype=np.int8)
    assert portfolio_search(o[0], mask, side, params, np.uint64(9), plan, NO_NETS, NO_PRIOR, NO_STATS) >= 1


def test_the_prior_decides_which_changes_are_tried_first():
    """With one plan valuation beyond the all-script plan, the change tried is
    one of the intent the prior puts first (hold, here)."""
    from hotspot.agents.portfolio import I_HOLD, PARAMS, PLAN_SIZE, PRIOR_SHAPE, STATS_SHAPE, portfolio_search

    o, mask, side = _searched_position()
    prior = np.zeros(PRIOR_SHAPE)
    prior[..., I_HOLD] = 1.0
    stats = np.zeros(STATS_SHAPE)
    plan = np.zeros(PLAN_SIZE, dtype=np.int8)
    portfolio_search(
        o[0], mask, side, PARAMS.vector(plans=2, determinizations=1), np.uint64(4), plan, NO_NETS, prior, stats
    )
    assert stats[..., 0].sum() == 1 and stats[..., I_HOLD, 0].sum() == 1


def test_the_intent_prior_file_and_the_order_parameter(tmp_path):
    from hotspot.agents.portfolio import (
        INTENT_PRIOR_FILE,
        PRIOR_SHAPE,
        STATS_SHAPE,
        intent_prior,
        load_intent_prior,
        save_intent_prior,
    )

    stats = np.zeros(STATS_SHAPE)
    stats[1, 1, 0, 2] = (10, 5)  # the Technocrat's units advancing: half kept
    stats[1, 1, 0, 1] = (10, 0)
    prior = intent_prior(stats)
    assert prior.shape == PRIOR_SHAPE
    assert prior[1, 1, 0, 2] > prior[0, 0, 0, 0] > prior[1, 1, 0, 1]  # an untried cell gets the overall share
    save_intent_prior(tmp_path / "p.npz", stats)
    assert np.allclose(load_intent_prior(tmp_path / "p.npz"), prior)
    np.savez(tmp_path / "bad.npz", prior=np.zeros(3))
    with pytest.raises(ValueError) as err:
        load_intent_prior(tmp_path / "bad.npz")
    assert "\n" not in str(err.value) and "bad.npz" in str(err.value)
    assert INTENT_PRIOR_FILE.exists()  # the shipped prior
    agent = make_agent("portfolio(plans=4,order=learned)", seed=1)
    assert agent.order == "learned" and agent.prior.shape == PRIOR_SHAPE
    with pytest.raises(Exception) as err:
        make_agent("portfolio(order=best)", seed=1)
    assert "order" in str(err.value) and "\n" not in str(err.value)
