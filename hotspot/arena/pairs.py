"""Game pairs: the unit of every comparison on mirrored seeds.

The arena plays game ``i`` of a pairing A-B twice on the same seed (the same
dice and set-up draws, :func:`hotspot.arena.match.game_seed`): once with A
as Technocrat, once with A as Ziegler.  The Technocrat wins most games
whoever plays (0.92 between two scripted players on ``open``), so the two
games of a pair are strongly (negatively) correlated in A's points, and a
*pair's* score, A's points over its two games (0, 1/2, 1, 3/2 or 2; a draw,
a game stopped at the turn limit, D19 revised, is half a point), varies far
less than two independent games would.  As in fishtest (Stockfish's testing
framework), the pair is counted, not the game:

* :func:`mirrored_pairs` finds the pairs among game rows;
* :func:`pentanomial` counts the pairs by score: ``[n0, n1/2, n1, n3/2, n2]``;
* :func:`pair_interval` is the interval of A's score a game from the pairs'
  scores (their mean and variance; normal, as fishtest's), beside which
  :func:`pair_summary` puts the games' Wilson interval, which assumes
  independent games with binomial variance ``p (1 - p)``, and the *games
  ratio*: the share of the games the Wilson interval needs that the pairs
  need for the same half-width, ``2 Var(pair mean) / (p (1 - p))``;
* :func:`gsprt` is fishtest's generalized sequential probability ratio test
  on the pentanomial counts: is A's logistic Elo over B ``elo1`` rather
  than ``elo0``?  It stops as soon as the log-likelihood ratio leaves
  ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``.

Small samples: a pentanomial with an empty category has a variance too small
to trust (25 pairs all won 2-0 would give a zero-width interval).  The
intervals add one virtual pair spread evenly over the five scores to the
variance (not to the mean): at 25 pairs all 2-0 the interval reaches
0.047 below the mean (clipped at 1 above it), at 250 pairs 0.005.  The GSPRT regularizes as fishtest
does (an empty category counts 1e-3).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from statistics import NormalDist

import numpy as np

from . import gamerow
from .errors import ArenaError

#: a pair's score a game for each pentanomial category (0, 1/2, 1, 3/2, 2 points over two games)
PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
#: fishtest's count for an empty category in the GSPRT (stat_util / LLRcalc ``regularize``)
GSPRT_EPSILON = 1e-3
#: the intervals' virtual pair, spread evenly over the five categories (see the module's doc)
VARIANCE_PRIOR = 1.0


class PairStatsError(ArenaError):
    """A bad argument of a test (alpha outside (0, 1), elo1 <= elo0, ...)."""


def points(row: dict, agent: str) -> float:
    """``agent``'s points in the game ``row``: 1 a win, 0 a loss, 1/2 a draw
    (a game without a winner: stopped at the turn limit, D19 revised, or
    adjudicated a draw)."""
    if row.get("winner") is not None and row["technocrat"] == row["ziegler"]:
        raise PairStatsError(f"{agent} plays both seats of game {row.get('key')}: no side to score")
    return gamerow.points(row, agent)


def _pair_key(row: dict):
    return (row.get("scenario"), str(row.get("rules")), row.get("max_turns"), int(row["index"]), int(row["seed"]))


def mirrored_pairs(rows: Iterable[dict], agent: str, opponent: str | None = None) -> list[tuple[dict, dict]]:
    """The pairs among ``rows``: ``(row with agent as Technocrat, row with agent
    as Ziegler)`` of one opponent (``opponent``, or each opponent in turn)
    on the same seed, scenario, rules and turn limit, in the order of the
    first game of each pair.  A game whose mirror is not (yet) there is left
    out, as is a row without an index and a seed; self-play (agent against
    itself) has no pairs."""
    halves: dict = {}
    order = []
    for row in rows:
        t, z = row["technocrat"], row["ziegler"]
        if t == z or agent not in (t, z) or row.get("index") is None or row.get("seed") is None:
            continue
        other = z if t == agent else t
        if opponent is not None and other != opponent:
            continue
        key = (other, *_pair_key(row))
        seat = 0 if t == agent else 1
        if key not in halves:
            halves[key] = [None, None]
            order.append(key)
        halves[key][seat] = row
    return [(halves[k][0], halves[k][1]) for k in order if halves[k][0] is not None and halves[k][1] is not None]


def pair_scores(rows: Iterable[dict], agent: str, opponent: str | None = None) -> np.ndarray:
    """``agent``'s points over each pair of :func:`mirrored_pairs` (0 to 2 in halves)."""
    return np.array([points(a, agent) + points(b, agent) for a, b in mirrored_pairs(rows, agent, opponent)])


def pentanomial(scores) -> list[int]:
    """The counts of pair scores 0, 1/2, 1, 3/2, 2 (``scores`` as :func:`pair_scores` gives them)."""
    scores = np.asarray(scores, dtype=float)
    idx = np.rint(scores * 2).astype(int)
    if scores.size and (idx.min() < 0 or idx.max() > 4 or not np.allclose(idx / 2, scores)):
        raise PairStatsError("a pair's score must be one of 0, 0.5, 1, 1.5, 2")
    return [int(c) for c in np.bincount(idx, minlength=5)]


def _check_counts(counts) -> np.ndarray:
    counts = np.asarray(counts, dtype=float)
    if counts.shape != (5,) or (counts < 0).any() or not np.isfinite(counts).all():
        raise PairStatsError(f"a pentanomial is five non-negative counts, got {list(np.ravel(counts))}")
    return counts


def _z(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise PairStatsError(f"confidence must be in (0, 1), got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def pair_mean_var(counts, prior: float = VARIANCE_PRIOR) -> tuple[float, float]:
    """(mean score a game, variance of one pair's mean score a game) of the
    pentanomial ``counts``; the variance has ``prior`` virtual pairs spread
    evenly over the five scores (the mean has none)."""
    counts = _check_counts(counts)
    n = counts.sum()
    if n <= 0:
        return math.nan, math.nan
    mean = float(counts @ PAIR_SCORES / n)
    weights = counts + prior / 5.0
    var = float(weights @ (PAIR_SCORES - mean) ** 2 / weights.sum())
    return mean, var


def pair_interval(counts, confidence: float = 0.95) -> tuple[float, float]:
    """The normal interval of the score a game from the pairs' scores (the
    pentanomial ``counts``): ``mean -+ z sqrt(var / pairs)``, clipped to
    [0, 1]; (nan, nan) for no pair."""
    z = _z(confidence)
    counts = _check_counts(counts)
    n = counts.sum()
    if n <= 0:
        return math.nan, math.nan
    mean, var = pair_mean_var(counts)
    half = z * math.sqrt(var / n)
    return max(0.0, mean - half), min(1.0, mean + half)


def games_ratio(counts) -> float:
    """The share of the games that the Wilson interval (independent games,
    binomial variance ``p (1 - p)``) needs for a half-width that the pairs
    reach with: ``2 Var(pair mean) / (p (1 - p))``, from the counts without
    the small-sample prior (nan where p is 0 or 1)."""
    counts = _check_counts(counts)
    n = counts.sum()
    if n < 2:
        return math.nan
    mean = float(counts @ PAIR_SCORES / n)
    var = float(counts @ (PAIR_SCORES - mean) ** 2 / n)
    binomial = mean * (1.0 - mean)
    return 2.0 * var / binomial if binomial > 0 else math.nan


def pair_summary(rows: Iterable[dict], agent: str, opponent: str | None = None, confidence: float = 0.95) -> dict:
    """``agent``'s score against ``opponent`` (or every opponent) from its
    pairs, with the games' Wilson interval beside it: ``pairs``,
    ``pentanomial``, ``score`` (over the paired games), ``ci_low``,
    ``ci_high`` (the pairs' interval), ``games`` (every game, paired or
    not), ``games_score``, ``wilson_low``, ``wilson_high`` (every game,
    binomial), ``games_ratio`` (:func:`games_ratio`)."""
    from .stats import wilson_interval

    rows = [r for r in rows if agent in (r["technocrat"], r["ziegler"]) and r["technocrat"] != r["ziegler"]]
    if opponent is not None:
        rows = [r for r in rows if opponent in (r["technocrat"], r["ziegler"])]
    counts = pentanomial(pair_scores(rows, agent, opponent))
    n = sum(counts)
    lo, hi = pair_interval(counts, confidence)
    total = sum(points(r, agent) for r in rows)
    wlo, whi = wilson_interval(total, len(rows), confidence) if rows else (math.nan, math.nan)
    return {
        "pairs": n,
        "pentanomial": counts,
        "score": float(np.dot(counts, PAIR_SCORES) / n) if n else math.nan,
        "ci_low": lo,
        "ci_high": hi,
        "games": len(rows),
        "games_score": total / len(rows) if rows else math.nan,
        "wilson_low": wlo,
        "wilson_high": whi,
        "games_ratio": games_ratio(counts),
    }


def half_width(summary: dict) -> float:
    """Half the width of a summary's pairs interval (inf for no pair)."""
    if not summary["pairs"]:
        return math.inf
    return (summary["ci_high"] - summary["ci_low"]) / 2.0


# ------------------------------------------------------------ the GSPRT


def logistic_score(elo: float) -> float:
    """The expected score a game of a logistic Elo difference: ``1 / (1 + 10**(-elo / 400))``."""
    return 1.0 / (1.0 + 10.0 ** (-float(elo) / 400.0))


def logistic_elo(score: float) -> float:
    """The logistic Elo difference of an expected score a game (+-inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def check_sprt(elo0: float, elo1: float, alpha: float, beta: float) -> None:
    """A one-line :class:`PairStatsError` for bad SPRT bounds."""
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not isinstance(value, (int, float)) or not 0.0 < float(value) < 1.0:
            raise PairStatsError(f"{name} must be in (0, 1), got {value}")
    if float(alpha) + float(beta) >= 1.0:
        raise PairStatsError(f"alpha + beta must be below 1, got {alpha} + {beta}")
    for name, value in (("elo0", elo0), ("elo1", elo1)):
        if not isinstance(value, (int, float)) or not math.isfinite(value) or abs(value) >= 2000:
            raise PairStatsError(f"{name} must be a finite Elo difference within +-2000, got {value}")
    if float(elo1) <= float(elo0):
        raise PairStatsError(f"elo1 must be above elo0, got elo0={elo0}, elo1={elo1}")


def _mle_with_mean(phat: np.ndarray, s: float) -> np.ndarray:
    """The maximum-likelihood pentanomial with mean score ``s`` given the
    observed frequencies ``phat`` (fishtest's ``MLE_expected``):
    ``p_i = phat_i / (1 + x (a_i - s))`` with x the root of
    ``sum phat_i (a_i - s) / (1 + x (a_i - s)) = 0``."""
    from scipy.optimize import brentq

    d = PAIR_SCORES - s
    # 1 + x d_i > 0 for every i: x in (-1 / max d, -1 / min d)
    lo, hi = -1.0 / d.max(), -1.0 / d.min()
    eps = 1e-12 * (hi - lo)

    def f(x):
        return float(np.sum(phat * d / (1.0 + x * d)))

    x = brentq(f, lo + eps, hi - eps, xtol=1e-14, maxiter=500)
    p = phat / (1.0 + x * d)
    return p / p.sum()


def gsprt_llr(counts, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (Elo ``elo1``) over H0 (``elo0``) of the
    pentanomial ``counts`` (fishtest's ``LLR_logistic``: each hypothesis's
    maximum-likelihood pentanomial with the mean score it implies)."""
    counts = _check_counts(counts)
    n = counts.sum()
    if n <= 0:
        return 0.0
    reg = np.maximum(counts, GSPRT_EPSILON)
    phat = reg / reg.sum()
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    p0, p1 = _mle_with_mean(phat, s0), _mle_with_mean(phat, s1)
    return float(n * np.sum(phat * (np.log(p1) - np.log(p0))))


def gsprt(counts, elo0: float = 0.0, elo1: float = 30.0, alpha: float = 0.05, beta: float = 0.05) -> dict:
    """The GSPRT's state on the pentanomial ``counts``: ``llr``, its bounds
    ``lower`` = log(beta / (1 - alpha)) and ``upper`` = log((1 - beta) /
    alpha), and ``decision``: ``"H1"`` (A is ``elo1`` or more stronger),
    ``"H0"`` (at most ``elo0``) or None (go on)."""
    check_sprt(elo0, elo1, alpha, beta)
    llr = gsprt_llr(counts, elo0, elo1)
    lower, upper = math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return {
        "llr": llr,
        "lower": lower,
        "upper": upper,
        "decision": decision,
        "elo0": float(elo0),
        "elo1": float(elo1),
        "alpha": float(alpha),
        "beta": float(beta),
    }


def elo_interval(counts, confidence: float = 0.95) -> tuple[float, float, float]:
    """(Elo, low, high): the logistic Elo of the pairs' mean score and of
    the ends of :func:`pair_interval`."""
    counts = _check_counts(counts)
    if counts.sum() <= 0:
        return math.nan, math.nan, math.nan
    mean, _ = pair_mean_var(counts)
    lo, hi = pair_interval(counts, confidence)
    return logistic_elo(mean), logistic_elo(lo), logistic_elo(hi)


__all__ = [
    "PAIR_SCORES",
    "PairStatsError",
    "check_sprt",
    "elo_interval",
    "games_ratio",
    "gsprt",
    "gsprt_llr",
    "half_width",
    "logistic_elo",
    "logistic_score",
    "mirrored_pairs",
    "pair_interval",
    "pair_mean_var",
    "pair_scores",
    "pair_summary",
    "pentanomial",
    "points",
]
