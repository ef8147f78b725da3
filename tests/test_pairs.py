"""Game pairs (hotspot.arena.pairs): the pentanomial counts, the pairs'
interval, the games ratio and fishtest's GSPRT, checked against hand
computations and an independent constrained maximum likelihood."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest

from hotspot.arena.pairs import (
    PAIR_SCORES,
    PairStatsError,
    games_ratio,
    gsprt,
    gsprt_llr,
    logistic_elo,
    logistic_score,
    mirrored_pairs,
    pair_interval,
    pair_mean_var,
    pair_scores,
    pair_summary,
    pentanomial,
)

ROOT = Path(__file__).resolve().parents[1]


def game(t, z, winner, index, seed=None):
    return {"technocrat": t, "ziegler": z, "winner": winner, "index": index, "seed": seed if seed is not None else index,
            "scenario": "open", "rules": {}, "max_turns": 200, "key": f"{t}-{z}-{index}"}  # fmt: skip


def test_a_pair_is_the_two_seats_on_one_seed_and_scores_the_agents_points():
    rows = [
        game("a", "b", "technocrat", 0),  # a wins as Technocrat
        game("b", "a", "technocrat", 0),  # a loses as Ziegler: pair 1
        game("a", "b", None, 1),  # a draw (the turn limit, D19 revised): half a point
        game("b", "a", "ziegler", 1),  # a wins as Ziegler: pair 1.5
        game("a", "b", "technocrat", 2),  # no mirror yet: left out
        game("a", "a", "technocrat", 3),  # self-play: no pair
    ]
    assert [(x["index"], y["index"]) for x, y in mirrored_pairs(rows, "a")] == [(0, 0), (1, 1)]
    assert pair_scores(rows, "a").tolist() == [1.0, 1.5]
    assert pair_scores(rows, "b").tolist() == [1.0, 0.5]
    assert pentanomial([0, 0.5, 1, 1, 1.5, 2, 2, 2]) == [1, 1, 2, 1, 3]
    with pytest.raises(PairStatsError, match="one of 0, 0.5, 1, 1.5, 2"):
        pentanomial([0.3])


def test_the_pairs_interval_is_the_normal_interval_of_the_pair_means_with_one_virtual_pair_in_the_variance():
    counts = [0, 2, 10, 6, 2]
    n = sum(counts)
    scores = np.repeat(PAIR_SCORES, counts)
    mean = scores.mean()
    prior = np.full(5, 0.2)
    var = (np.dot(counts, (PAIR_SCORES - mean) ** 2) + np.dot(prior, (PAIR_SCORES - mean) ** 2)) / (n + 1)
    assert pair_mean_var(counts) == pytest.approx((mean, var))
    lo, hi = pair_interval(counts)
    assert (lo + hi) / 2 == pytest.approx(mean)
    assert (hi - lo) / 2 == pytest.approx(1.959964 * math.sqrt(var / n), rel=1e-5)


def test_identical_pairs_still_have_an_honest_width_that_shrinks_with_the_pairs():
    """25 pairs all won 2-0 are not proof of a certain score: the virtual pair keeps the interval open."""
    widths = [pair_interval([0, 0, 0, 0, n]) for n in (25, 100, 400)]
    halves = [(1 - lo) for lo, _ in widths]
    assert 0.03 < halves[0] < 0.06
    assert halves[0] > halves[1] > halves[2] > 0


def test_the_games_ratio_is_what_the_committed_reference_games_give():
    """docs/evaluate.md and docs/results.md quote these ratios (the pairs' share of the Wilson interval's games)."""
    from hotspot.arena.gamerow import from_csv_row

    with open(ROOT / "benchmarks" / "results" / "reference" / "games.csv", encoding="utf-8") as f:
        rows = [from_csv_row(r) for r in csv.DictReader(f)]
    ratio = {
        (a, b): pair_summary(rows, a, b)["games_ratio"]
        for a, b in [("ismcts", "scripted"), ("portfolio", "scripted"), ("portfolio(horizon=2)", "scripted")]
    }
    assert ratio[("ismcts", "scripted")] == pytest.approx(0.297, abs=0.001)
    assert ratio[("portfolio", "scripted")] == pytest.approx(0.535, abs=0.001)
    assert ratio[("portfolio(horizon=2)", "scripted")] == pytest.approx(0.596, abs=0.001)


def test_games_ratio_by_hand():
    counts = [1, 0, 8, 0, 1]  # pairs 0, 1, 1, ..., 2: per-game mean 0.5
    var = (2 * 0.25) / 10  # two pairs 0.5 away from the mean
    assert games_ratio(counts) == pytest.approx(2 * var / 0.25)


def _mle_by_optimizer(phat, s):
    from scipy.optimize import minimize

    cons = [{"type": "eq", "fun": lambda p: p.sum() - 1}, {"type": "eq", "fun": lambda p: p @ PAIR_SCORES - s}]
    res = minimize(lambda p: -np.sum(phat * np.log(np.maximum(p, 1e-300))), np.full(5, 0.2), constraints=cons,
                   bounds=[(1e-9, 1)] * 5, method="SLSQP", options={"ftol": 1e-14, "maxiter": 1000})  # fmt: skip
    return res.x


def test_the_gsprt_llr_is_the_log_likelihood_ratio_of_the_two_constrained_maximum_likelihood_pentanomials():
    counts = np.array([3, 10, 50, 20, 17], dtype=float)
    phat = counts / counts.sum()
    s0, s1 = logistic_score(0), logistic_score(30)
    p0, p1 = _mle_by_optimizer(phat, s0), _mle_by_optimizer(phat, s1)
    expected = counts.sum() * np.sum(phat * (np.log(p1) - np.log(p0)))
    assert gsprt_llr(counts, 0, 30) == pytest.approx(expected, rel=1e-4)


def test_the_gsprt_decides_each_way_and_waits_in_between():
    assert gsprt([0, 2, 20, 8, 20])["decision"] == "H1"  # far above 30 Elo
    assert gsprt([20, 8, 20, 2, 0])["decision"] == "H0"  # far below 0
    state = gsprt([1, 2, 4, 2, 1])  # even, and few pairs
    assert state["decision"] is None and state["lower"] < state["llr"] < state["upper"]
    assert state["upper"] == pytest.approx(math.log(0.95 / 0.05))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"alpha": 0}, "alpha must be in"),
        ({"beta": 1.5}, "beta must be in"),
        ({"elo0": 10, "elo1": 10}, "elo1 must be above elo0"),
        ({"elo1": math.inf}, "elo1 must be a finite"),
    ],
)
def test_bad_test_bounds_are_one_line_errors(kwargs, message):
    with pytest.raises(PairStatsError, match=message) as info:
        gsprt([1, 1, 1, 1, 1], **kwargs)
    assert "\n" not in str(info.value)


def test_logistic_elo_and_score_are_inverse():
    for elo in (-200, 0, 35.5, 400):
        assert logistic_elo(logistic_score(elo)) == pytest.approx(elo)
    assert logistic_score(400) == pytest.approx(10 / 11)
