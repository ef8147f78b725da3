"""Ratings on one Elo scale: the model behind ``hotspot evaluate``'s
published scale and the arena's rating table.

The Technocrat wins most games whoever plays (0.92 between two scripted
players on ``open``), so one rating an agent, fitted on games as either
side, mixes skill with the seat.  Here each agent has a rating **as
Technocrat**, ``T``, and one **as Ziegler**, ``Z``; a game between ``i``
(Technocrat) and ``j`` (Ziegler) gives the Technocrat the expected score

    P = 1 / (1 + 10 ** (-(T_i - Z_j) / 400))

(a draw, a game stopped by ``max_turns`` without a winner, D19 revised, is
half a point: half a win and half a loss in the likelihood).

An agent's **overall** rating ``R`` is the Elo of its score over both
seats: against an opponent met in both seats, its score a game, the mean
of its score as Technocrat and as Ziegler (each seat weighted alike, as a
mirrored pair weighs them), is expected to be

    S = 1 / (1 + 10 ** (-(R_i - R_j) / 400))

as fishtest reads an Elo from the score of game pairs.  It is fitted from
that score and the variance of its estimate (the pairs' on mirrored seeds,
:mod:`hotspot.arena.pairs`; else each seat's games', stratified by seat),
by least squares on the score weighted by its inverse variance.  So the
overall rating is as precise as the score over both seats, which the seat
varies little, where ``(T + Z) / 2`` would carry the noise of the rare
wins of the weaker seat (a Ziegler who wins one game in 25 against a
search moves ``Z`` by 150 points on a few games).  Only differences enter
either model: one anchor fixes the scale's origin (``scripted`` at 1000
overall on the published scale: ``R = (T + Z) / 2 = 1000``), 400 points
are odds of 10 to 1.

* :func:`fit_ratings`: every agent's ``(T, Z)`` by maximum likelihood on a
  set of games, with ``prior`` virtual drawn games of each seat against the
  anchor's other seat (as BayesElo's prior draws), so that an agent that
  never wins, or never loses, keeps a finite estimate; agents in ``fixed``
  are held at given ratings (the published scale).
* :func:`fit_overall`: every agent's ``R`` from :func:`two_seat_scores`,
  with one virtual drawn pair against the anchor as the prior.
* :func:`rate` : one agent's ``T`` and ``Z`` with 95% likelihood-ratio
  intervals against opponents whose ratings are held fixed, without any
  prior: an agent that never wins as a seat gets an upper bound (``< 312``),
  one that never loses a lower bound, never an interval blown up by a
  divergent estimate; :func:`rate_overall` its ``R`` likewise.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hotspot.core.limits import DEFAULT_MAX_TURNS

from .gamerow import points
from .match import ArenaError
from .rowtable import as_rows, column

#: Elo points per unit of the logistic model's natural log-odds
SCALE = 400.0 / math.log(10.0)
#: the rating of the anchor agent (``scripted`` on the published scale)
ANCHOR_RATING = 1000.0
#: the likelihood-ratio threshold of a 95% interval (chi-square, 1 df, / 2)
LR_95 = 1.920729410347062
#: ratings are searched on this grid (Elo points); an interval reaching its end is a bound
GRID = np.arange(-4000.0, 6000.0 + 1e-9, 2.0)


#: the reference ladder, weakest first, each agent by its canonical spec
REFERENCE_LADDER = ("random", "scripted", "ismcts", "portfolio", "portfolio(horizon=2)")
#: the protocol's settings (``hotspot evaluate``'s defaults)
PROTOCOL: dict[str, Any] = {"scenario": "open", "rules": {}, "max_turns": DEFAULT_MAX_TURNS, "seed": 0}
#: the published ratings of the reference ladder (``benchmarks/fit_reference_ratings.py`` writes it)
RATINGS_FILE = Path(__file__).with_name("reference_ratings.json")


def load_reference(path=None) -> dict:
    """The published reference ratings (``path``: another such file, e.g.
    one fitted for another scenario), checked; an :class:`ArenaError` in
    one line otherwise."""
    from hotspot.core.jsonfile import JSONInputError, read_json

    path = Path(path) if path is not None else RATINGS_FILE
    try:
        data = read_json(path)
    except (OSError, JSONInputError, ValueError) as exc:
        raise ArenaError(f"reference ratings {path}: cannot read them ({exc})") from None
    agents = data.get("agents") if isinstance(data, dict) else None
    protocol = data.get("protocol") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("format") != "hotspot-reference-ratings"
        or not isinstance(agents, dict)
        or not isinstance(protocol, dict)
    ):
        raise ArenaError(f"reference ratings {path}: not a hotspot-reference-ratings file")
    for name, entry in agents.items():
        ok = isinstance(entry, dict) and all(
            isinstance(entry.get(k), (int, float)) and not isinstance(entry.get(k), bool)
            for k in ("technocrat", "ziegler")
        )
        if not ok:
            raise ArenaError(f"reference ratings {path}: agent {name!r} lacks numeric technocrat/ziegler ratings")
        fitted = entry["overall"].get("fitted") if isinstance(entry.get("overall"), dict) else None
        if not isinstance(fitted, (int, float)) or isinstance(fitted, bool):
            raise ArenaError(
                f"reference ratings {path}: agent {name!r} lacks an overall rating (overall.fitted; a version 1 "
                "file has the seat model's: refit it with benchmarks/fit_reference_ratings.py)"
            )
    return data


def on_published_scale(scenario, rules, max_turns) -> dict | None:
    """The published reference ratings ``{agent: (T, Z, R)}`` when games on
    ``scenario`` with ``rules`` and ``max_turns`` are on the published scale
    (the protocol's settings), else None (also when the file is missing)."""
    try:
        reference = load_reference()
    except ArenaError:
        return None
    protocol = reference["protocol"]
    if (scenario, rules or {}, max_turns) != (
        protocol.get("scenario"),
        protocol.get("rules"),
        protocol.get("max_turns"),
    ):
        return None
    return published_ratings(reference)


def published_ratings(reference: dict) -> dict[str, tuple[float, float, float]]:
    """``{agent: (T, Z, R)}`` of a reference file (:func:`load_reference`):
    the seat ratings and the overall one the scale holds."""
    return {a: (e["technocrat"], e["ziegler"], e["overall"]["fitted"]) for a, e in reference["agents"].items()}


def technocrat_points(row) -> float:
    """The Technocrat's points in a game row: 1 a win, 1/2 a draw (no winner), 0 a loss."""
    return points(row, "technocrat", by="side")


def _seat_sums(rows) -> dict[tuple[str, str], list[float]]:
    """``{(technocrat agent, ziegler agent): [Technocrat points, their squares, games]}``
    of game rows: the games counted by pairing and winner (a million in a
    fraction of a second), then scored."""
    rows = as_rows(rows)
    counts = Counter(zip(column(rows, "technocrat"), column(rows, "ziegler"), column(rows, "winner")))
    out: dict[tuple[str, str], list[float]] = {}
    for (technocrat, ziegler, winner), games in counts.items():
        x = technocrat_points({"winner": winner})
        cell = out.setdefault((technocrat, ziegler), [0.0, 0.0, 0])
        cell[0] += games * x
        cell[1] += games * x * x
        cell[2] += games
    return out


def seat_results(rows) -> dict[tuple[str, str], list[float]]:
    """``{(technocrat agent, ziegler agent): [Technocrat points, games]}`` of game rows."""
    return {pair: [p, n] for pair, (p, _, n) in _seat_sums(rows).items()}


#: the virtual game added to each seat's variance, spread evenly over 0, 1/2 and 1 points
SEAT_VARIANCE_PRIOR = 1.0
#: the variance of the score a game of the prior's virtual drawn pair (its two games spread evenly
#: over the five pair scores, as :data:`hotspot.arena.pairs.VARIANCE_PRIOR`'s pair is)
PRIOR_PAIR_VARIANCE = 0.125


def _seat_mean_var(points_: float, squares: float, games: int) -> tuple[float, float]:
    """(mean points a game, variance of that mean) of one seat's ``games``,
    with :data:`SEAT_VARIANCE_PRIOR` virtual games in the variance (not the mean)."""
    mean = points_ / games
    spread = squares - games * mean * mean + SEAT_VARIANCE_PRIOR * sum((x - mean) ** 2 for x in (0.0, 0.5, 1.0)) / 3
    return mean, spread / (games + SEAT_VARIANCE_PRIOR) / games


def two_seat_scores(rows) -> dict[tuple[str, str], tuple[float, float, int]]:
    """``{(a, b): (a's score a game over both seats, the variance of that
    score, games)}``, ``a < b``, for each two agents that met in both seats:
    the mean of ``a``'s score as Technocrat and as Ziegler (the seats weighted
    alike, whatever their games), its variance ``(v_T / n_T + v_Z / n_Z) / 4``
    from each seat's games (stratified by seat).  Self-play is left out."""
    seats = _seat_sums(rows)  # (T agent, Z agent): [T points, T squares, games]
    out = {}
    for (t, z), (p, q, n) in seats.items():
        if t >= z or (z, t) not in seats:  # self-play, or one seat only
            continue
        mt, vt = _seat_mean_var(p, q, int(n))  # t as Technocrat
        p2, q2, n2 = seats[(z, t)]
        mz, vz = _seat_mean_var(n2 - p2, n2 - 2 * p2 + q2, int(n2))  # t as Ziegler: 1 - z's points
        out[(t, z)] = ((mt + mz) / 2.0, (vt + vz) / 4.0, int(n + n2))
    return out


def scores_against(scores: dict, agent: str) -> dict[str, tuple[float, float, int]]:
    """``{opponent: (agent's score, its variance, games)}`` from :func:`two_seat_scores`."""
    out = {}
    for (a, b), (s, v, n) in scores.items():
        if a == agent:
            out[b] = (s, v, n)
        elif b == agent:
            out[a] = (1.0 - s, v, n)
    return out


def _logistic(x):
    return 1.0 / (1.0 + np.exp(-x))


def fit_overall(
    scores: dict,
    *,
    anchor: str | None = None,
    anchor_rating: float = ANCHOR_RATING,
    prior: float = 1.0,
    fixed: dict | None = None,
) -> dict[str, float]:
    """Every agent's overall rating ``R`` (Elo points) from
    :func:`two_seat_scores`: least squares of each score on its expected
    score, weighted by the inverse of its variance.  ``fixed``: ``{agent:
    R}`` held (the published scale); else ``anchor`` (default: ``scripted``
    if it played, else the first agent) is put at ``anchor_rating``.
    ``prior``: virtual drawn pairs of each agent not fixed against the
    anchor (variance :data:`PRIOR_PAIR_VARIANCE` a pair), so that an agent
    that never wins keeps a finite estimate.  Agents that met no other in
    both seats are not rated."""
    fixed = dict(fixed or {})
    agents = sorted({a for pair in scores for a in pair} | set(fixed))
    if not agents:
        return {}
    if anchor is None or anchor not in agents:
        anchor = "scripted" if "scripted" in agents else next((a for a in agents if a in fixed), agents[0])
    if not fixed:
        fixed = {anchor: anchor_rating}
    free = [a for a in agents if a not in fixed]
    index = {a: i for i, a in enumerate(free)}
    terms = [(a, b, s, v) for (a, b), (s, v, _) in scores.items()]
    if prior > 0 and anchor in agents:
        terms += [(a, anchor, 0.5, PRIOR_PAIR_VARIANCE / prior) for a in free]
    a_val = np.array([fixed.get(a, 0.0) / SCALE for a, _, _, _ in terms])
    b_val = np.array([fixed.get(b, 0.0) / SCALE for _, b, _, _ in terms])
    a_idx = np.array([index.get(a, -1) for a, _, _, _ in terms], dtype=int)
    b_idx = np.array([index.get(b, -1) for _, b, _, _ in terms], dtype=int)
    target = np.array([s for _, _, s, _ in terms])
    weight = 1.0 / np.array([v for _, _, _, v in terms])

    def objective(x):
        d = np.where(a_idx >= 0, x[np.maximum(a_idx, 0)], a_val) - np.where(b_idx >= 0, x[np.maximum(b_idx, 0)], b_val)
        p = _logistic(d)
        r = p - target
        g = weight * r * p * (1.0 - p)  # d loss / d d
        grad = np.zeros(len(free))
        np.add.at(grad, a_idx[a_idx >= 0], g[a_idx >= 0])
        np.add.at(grad, b_idx[b_idx >= 0], -g[b_idx >= 0])
        return float(0.5 * np.sum(weight * r * r)), grad

    x = np.zeros(len(free))
    if free:
        from scipy.optimize import minimize

        x = minimize(objective, x, jac=True, method="L-BFGS-B", options={"maxiter": 20_000, "gtol": 1e-12}).x
    rated = {a for pair in scores for a in pair} | set(fixed)
    out = {a: float(x[index[a]] * SCALE) for a in free if a in rated}
    out.update({a: float(r) for a, r in fixed.items()})
    return out


def overall_curve(opponents) -> np.ndarray:
    """The log-likelihood over :data:`GRID` of an overall rating, from
    ``opponents``: ``(opponent's overall rating, score a game over both
    seats, the variance of that score)`` triples, each score normal about its
    expectation (the pairs' interval of :mod:`hotspot.arena.pairs` in Elo)."""
    ll = np.zeros_like(GRID)
    for rating, s, v in opponents:
        expected = _logistic((GRID - float(rating)) / SCALE)
        ll -= (float(s) - expected) ** 2 / (2.0 * float(v))
    return ll


def rate_overall(scores: dict, ratings: dict) -> Estimate:
    """One agent's overall rating with its 95% interval (or a bound) from
    ``scores``, ``{opponent: (score a game over both seats, its variance,
    games)}`` (:func:`scores_against`, or a card's pairs), against
    opponents held at ``ratings`` (``{agent: R}``); no prior."""
    items = [(ratings[o], s, v) for o, (s, v, _) in scores.items() if o in ratings]
    games = sum(n for o, (_, _, n) in scores.items() if o in ratings)
    return _estimate(overall_curve(items), GRID, games)


def _softplus(x):
    return np.logaddexp(0.0, x)


def fit_ratings(
    results: dict,
    *,
    anchor: str | None = None,
    anchor_rating: float = ANCHOR_RATING,
    prior: float = 1.0,
    fixed: dict | None = None,
) -> dict[str, tuple[float, float]]:
    """Every agent's ``(T, Z)`` rating (Elo points) by maximum likelihood.

    ``results``: :func:`seat_results`.  ``fixed``: ``{agent: (T, Z)}`` held
    at those ratings (the published scale); without it, ``anchor`` (default:
    ``scripted`` if it played, else the first agent in sorted order) is put
    at ``anchor_rating`` overall.  ``prior``: virtual drawn games, per
    seat of every agent not fixed, against the anchor's other seat (its
    rating as fitted or fixed); 0 is plain maximum likelihood, which
    diverges for an agent that never wins or never loses."""
    fixed = dict(fixed or {})
    agents = sorted({a for pair in results for a in pair} | set(fixed))
    if not agents:
        return {}
    if anchor is None or anchor not in agents:
        anchor = next((a for a in ("scripted",) if a in agents), None)
        if anchor is None:
            anchor = next((a for a in agents if a in fixed), agents[0])
    free = [a for a in agents if a not in fixed]
    index = {a: i for i, a in enumerate(free)}
    m = len(free)
    pairs, points, games = [], [], []
    for (t, z), (p, n) in results.items():
        if n > 0:
            pairs.append((t, z))
            points.append(float(p))
            games.append(float(n))
    if prior > 0:  # virtual draws of each seat against the anchor's other seat
        for a in free:
            if a != anchor:
                pairs += [(a, anchor), (anchor, a)]
                points += [0.5 * prior, 0.5 * prior]
                games += [prior, prior]
    won, played = np.array(points), np.array(games)  # each pair's points and games

    def seat(agent, side):  # (fixed value in logits, or index into x)
        if agent in fixed:
            return fixed[agent][side] / SCALE, -1
        return 0.0, index[agent] + side * m

    t_val, z_val = np.zeros(len(pairs)), np.zeros(len(pairs))
    t_idx, z_idx = np.zeros(len(pairs), int), np.zeros(len(pairs), int)
    for g, (t, z) in enumerate(pairs):
        t_val[g], t_idx[g] = seat(t, 0)
        z_val[g], z_idx[g] = seat(z, 1)

    def objective(x):
        xt = np.where(t_idx >= 0, x[np.maximum(t_idx, 0)], t_val)
        xz = np.where(z_idx >= 0, x[np.maximum(z_idx, 0)], z_val)
        d = xt - xz
        nll = float(np.sum(won * _softplus(-d) + (played - won) * _softplus(d)))
        g = played / (1.0 + np.exp(-d)) - won  # d nll / d d
        grad = np.zeros(2 * m)
        np.add.at(grad, t_idx[t_idx >= 0], g[t_idx >= 0])
        np.add.at(grad, z_idx[z_idx >= 0], -g[z_idx >= 0])
        return nll, grad

    x = np.zeros(2 * m)
    if m:
        from scipy.optimize import minimize

        x = minimize(
            objective, x, jac=True, method="L-BFGS-B", options={"maxiter": 20_000, "gtol": 1e-10, "ftol": 1e-15}
        ).x
    out = {a: (float(x[index[a]] * SCALE), float(x[index[a] + m] * SCALE)) for a in free}
    if not fixed:  # the gauge: the anchor's overall rating
        shift = anchor_rating - (out[anchor][0] + out[anchor][1]) / 2.0
        out = {a: (t + shift, z + shift) for a, (t, z) in out.items()}
    out.update({a: (float(t), float(z)) for a, (t, z) in fixed.items()})
    return out


@dataclass
class Estimate:
    """A rating with its 95% likelihood-ratio interval (Elo points).
    ``value`` None: the estimate diverges (the agent never lost, or never
    won); ``low`` None: unbounded below; ``high`` None: unbounded above."""

    value: float | None
    low: float | None
    high: float | None
    games: int

    def text(self) -> str:
        """``1234 [1180, 1290]``, ``< 420`` (an upper bound), ``> 2100``, or ``-`` (no games)."""
        if self.games == 0:
            return "-"
        if self.low is None and self.high is None:
            return "unbounded"
        if self.low is None:
            return f"< {self.high:.0f}"
        if self.high is None:
            return f"> {self.low:.0f}"
        return f"{self.value:.0f} [{self.low:.0f}, {self.high:.0f}]"

    def as_dict(self) -> dict:
        return {"rating": self.value, "low": self.low, "high": self.high, "games": self.games, "text": self.text()}


def seat_curve(opponents) -> np.ndarray:
    """The log-likelihood over :data:`GRID` of one seat's rating, from
    ``opponents``: ``(opponent's rating in the other seat, this seat's
    points, games)`` triples (the other seats held fixed)."""
    ll = np.zeros_like(GRID)
    for rating, p, n in opponents:
        d = (GRID - float(rating)) / SCALE
        ll -= float(p) * _softplus(-d) + (float(n) - float(p)) * _softplus(d)
    return ll


def _estimate(ll: np.ndarray, grid: np.ndarray, games: int) -> Estimate:
    if games == 0:
        return Estimate(None, None, None, 0)
    top = float(ll.max())
    inside = np.flatnonzero(ll >= top - LR_95)
    best = int(np.argmax(ll))
    at_edge = best in (0, len(grid) - 1) or ll[0] >= top - 1e-9 or ll[-1] >= top - 1e-9
    low = None if inside[0] == 0 else float(grid[inside[0]])
    high = None if inside[-1] == len(grid) - 1 else float(grid[inside[-1]])
    return Estimate(None if at_edge else float(grid[best]), low, high, int(games))


def rate(agent_rows_t, agent_rows_z, ratings: dict) -> dict[str, Estimate]:
    """One agent's seat ratings against opponents held at ``ratings``
    (``{agent: (T, Z)}``, e.g. the published reference ratings): its
    ``technocrat`` rating from its games as Technocrat (``agent_rows_t``:
    ``(ziegler agent, Technocrat points, games)``) and its ``ziegler`` rating
    from its games as Ziegler (``(technocrat agent, Ziegler points,
    games)``), each with a 95% likelihood-ratio interval, no prior.  (The
    overall rating is :func:`rate_overall`'s.)"""
    t_ll = seat_curve([(ratings[z][1], p, n) for z, p, n in agent_rows_t])
    z_ll = seat_curve([(ratings[t][0], p, n) for t, p, n in agent_rows_z])
    nt = int(sum(n for _, _, n in agent_rows_t))
    nz = int(sum(n for _, _, n in agent_rows_z))
    return {"technocrat": _estimate(t_ll, GRID, nt), "ziegler": _estimate(z_ll, GRID, nz)}


def ratings_by_seat(rows, agents=(), published: dict | None = None) -> tuple[list[dict], str]:
    """Every agent's ratings from game ``rows`` (self-play included: it
    tells a seat from the other), best first, and a sentence saying the
    anchor and the scale.  With ``published`` (:func:`on_published_scale`:
    ``{agent: (T, Z, R)}``), the reference agents that played are held at
    their published ratings and the others are rated on that scale; else
    ``scripted`` (or the first agent) is 1000 overall.  Each entry:
    ``agent``, ``rating`` (overall, :func:`fit_overall` with its prior; None
    for an agent that met no other in both seats), ``technocrat_rating`` and
    ``ziegler_rating`` (:func:`fit_ratings` with its prior), ``technocrat``,
    ``ziegler`` and ``overall`` (:class:`Estimate` dicts: the games' own 95%
    intervals or bounds, the other agents held at their ratings)."""
    results = seat_results(rows)
    scores = two_seat_scores(rows)
    names = sorted(set(agents) | {a for pair in results for a in pair})
    published = published or {}
    held = [a for a in names if a in published]
    fitted = fit_ratings(results, fixed={a: published[a][:2] for a in held}) if names else {}
    overall = fit_overall(scores, fixed={a: published[a][2] for a in held}) if names else {}
    if held:
        anchor = f"on hotspot evaluate's published scale (scripted = {ANCHOR_RATING:g}; {', '.join(held)} held at their published ratings)"
    else:
        first = "scripted" if "scripted" in names else names[0] if names else "-"
        anchor = f"{first} = {ANCHOR_RATING:g} overall"
    table: list[dict[str, Any]] = []
    for a in names:
        t, z = fitted[a]
        est = rate_in(results, a, fitted)
        est["overall"] = rate_overall(scores_against(scores, a), overall)
        table.append(
            {
                "agent": a,
                "rating": overall.get(a),
                "technocrat_rating": t,
                "ziegler_rating": z,
                "fixed": a in held,
                **{seat: e.as_dict() for seat, e in est.items()},
            }
        )
    table.sort(key=lambda e: (e["rating"] is None, -(e["rating"] or 0.0), e["agent"]))
    return table, anchor


def rate_in(results: dict, agent: str, ratings: dict) -> dict[str, Estimate]:
    """:func:`rate` of ``agent`` from :func:`seat_results` (its games against
    other agents; games against itself are left out), the others held at
    ``ratings``."""
    as_t = [(z, p, n) for (t, z), (p, n) in results.items() if t == agent and z != agent]
    as_z = [(t, n - p, n) for (t, z), (p, n) in results.items() if z == agent and t != agent]
    return rate(as_t, as_z, ratings)


__all__ = [
    "ANCHOR_RATING",
    "PROTOCOL",
    "RATINGS_FILE",
    "REFERENCE_LADDER",
    "load_reference",
    "on_published_scale",
    "ratings_by_seat",
    "Estimate",
    "SCALE",
    "fit_overall",
    "fit_ratings",
    "overall_curve",
    "published_ratings",
    "rate_overall",
    "scores_against",
    "two_seat_scores",
    "rate",
    "rate_in",
    "seat_curve",
    "seat_results",
    "technocrat_points",
]
