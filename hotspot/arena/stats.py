"""Statistics of the arena: Wilson intervals, Bradley-Terry ratings, tables.

* :func:`wilson_interval`: the Wilson score interval of a win rate or a
  score (draws count half a point; see there why the interval stays honest).
* :func:`bradley_terry`: a Bradley-Terry model fitted on every game, each game
  a win of its winner agent over its loser agent; the rules have no draws,
  but a game a harness stopped at ``max_turns`` (D19 revised: no winner) is
  a draw, fitted as half a win each way (``(a, b, 0.5)`` and ``(b, a, 0.5)``),
  ``P(i beats j) = 1 / (1 + exp(-(r_i - r_j)))``, by maximum likelihood with a
  small L2 penalty (``regularization``) so that an unbeaten agent keeps a
  finite rating; reported on the Elo scale (``400 / ln 10`` per unit of r),
  relative to an anchor agent (or to the mean), with standard errors from the
  inverse Hessian.
* :func:`normal_interval`: ``estimate -+ z * se`` (a rating's interval).
* :func:`format_table`, :func:`write_csv`: aligned text and CSV tables.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable

import numpy as np

ELO_PER_UNIT = 400.0 / math.log(10.0)


def wilson_interval(k: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of the proportion ``k / n``; (nan, nan) when n is 0.

    ``k`` is a count of wins, or a *score*: wins + draws / 2, where a draw is
    a game stopped by a harness's ``max_turns`` without a winner (D19
    revised), worth half a point to each side.  For whole ``k`` this is
    exactly ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``.

    Why the interval stays honest with draws: the Wilson interval inverts the
    normal test ``|p_hat - p| <= z * sqrt(p (1 - p) / n)``, in which
    ``p (1 - p)`` is the variance of one game's points when they are 0 or 1.
    With draws one game's points X take 0, 1/2 or 1 and have mean p; since
    X**2 <= X, Var X = E[X**2] - p**2 <= E[X] - p**2 = p (1 - p), with
    equality exactly when there are no draws.  So the interval computed from
    the score ``(wins + draws / 2) / n`` is at least as wide as the true
    variance calls for: conservative (its coverage is at least the nominal
    level, as far as the normal approximation behind Wilson holds), never
    too narrow.  The cost is some width when draws are many; the draws are
    shown in their own column so that a reader can see when that happens.
    """
    k, n = float(k), int(n)
    if n <= 0:
        return (math.nan, math.nan)
    if not 0.0 <= k <= n:
        raise ValueError(f"wilson_interval: k must be in [0, n], got k={k}, n={n}")
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / denom
    half = z * math.sqrt(max(p * (1.0 - p), 0.0) / n + z * z / (4.0 * n * n)) / denom
    lo = 0.0 if k == 0 else max(0.0, centre - half)  # exact at the ends (rounding would leave 1e-17)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return (lo, hi)


def normal_interval(estimate: float, se: float, confidence: float = 0.95) -> tuple[float, float]:
    """``estimate -+ z * se``, the normal interval (e.g. of a Bradley-Terry
    rating with its standard error: ``elo -+ 1.96 elo_se`` at 95%)."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    return (float(estimate) - z * float(se), float(estimate) + z * float(se))


def _results_matrix(results: Iterable) -> tuple[list[str], np.ndarray]:
    """(players, W) with W[i, j] the (weighted) number of wins of i over j."""
    wins: dict[tuple[str, str], float] = {}
    players: set[str] = set()
    for item in results:
        if len(item) == 2:
            winner, loser = item
            count = 1.0
        else:
            winner, loser, count = item
        players.update((winner, loser))
        if winner == loser:
            continue  # self-play says nothing about strength
        wins[(winner, loser)] = wins.get((winner, loser), 0.0) + float(count)
    names = sorted(players)
    index = {p: i for i, p in enumerate(names)}
    w = np.zeros((len(names), len(names)))
    for (a, b), c in wins.items():
        w[index[a], index[b]] += c
    return names, w


def bradley_terry(results: Iterable, *, regularization: float = 0.01, anchor: str | None = None) -> list[dict]:
    """Bradley-Terry ratings from game results.

    Args:
        results: ``(winner, loser)`` pairs, or ``(winner, loser, count)``
            triples (counts may be fractional: a draw between a and b is
            ``(a, b, 0.5)`` and ``(b, a, 0.5)``); a pair with ``winner ==
            loser`` (self-play) is ignored for the fit.
        regularization: the L2 penalty ``regularization / 2 * sum(r**2)`` on
            the log-strengths r (0 is plain maximum likelihood, which diverges
            for an agent that won or lost every game).
        anchor: the agent rated 0 (e.g. ``"random"``); None rates relative to
            the mean of all agents.

    Returns one dict per agent, best first: ``agent``, ``elo``, ``elo_se``
    (standard error of the rating relative to the anchor or the mean),
    ``games``, ``wins``, ``losses`` (weighted: a draw adds half to each),
    ``score`` (wins / games), ``strength`` (r, the natural-log scale).
    """
    names, w = _results_matrix(results)
    m = len(names)
    if m == 0:
        return []
    if anchor is not None and anchor not in names:
        anchor = None
    n = w + w.T  # games between i and j
    lam = float(regularization)

    def objective(r):
        d = r[:, None] - r[None, :]
        # -sum W_ij log sigmoid(d_ij) = sum W_ij log(1 + exp(-d_ij))
        nll = float(np.sum(w * np.logaddexp(0.0, -d))) + 0.5 * lam * float(r @ r)
        p = 0.5 * (1.0 + np.tanh(0.5 * d))  # sigmoid(d), stable
        g = w * (1.0 - p)  # d(-log sigmoid(d_ij)) / d r_i = -(1 - p_ij) W_ij
        grad = -g.sum(axis=1) + g.sum(axis=0) + lam * r
        return nll, grad

    r = np.zeros(m)
    if m > 1 and n.sum() > 0:
        try:
            from scipy.optimize import minimize
        except ImportError:
            raise ImportError("the arena's ratings need scipy: python -m pip install 'hotspot[arena]'") from None
        res = minimize(
            objective, r, jac=True, method="L-BFGS-B", options={"maxiter": 10_000, "gtol": 1e-10, "ftol": 1e-15}
        )
        r = res.x
    # Hessian of the penalized negative log-likelihood
    d = r[:, None] - r[None, :]
    p = 0.5 * (1.0 + np.tanh(0.5 * d))
    c = n * p * (1.0 - p)
    h = -c
    np.fill_diagonal(h, c.sum(axis=1) - np.diag(c))
    h = h + max(lam, 1e-9) * np.eye(m)
    try:
        cov = np.linalg.inv(h)
    except np.linalg.LinAlgError:  # pragma: no cover
        cov = np.linalg.pinv(h)
    if anchor is not None:
        a = names.index(anchor)
        base = r[a]
    else:
        a = None
        base = float(r.mean())
    out = []
    for i, name in enumerate(names):
        contrast = np.zeros(m)
        contrast[i] += 1.0
        if a is not None:
            contrast[a] -= 1.0
        else:
            contrast -= 1.0 / m
        var = float(contrast @ cov @ contrast)
        wins = float(w[i].sum())
        losses = float(w[:, i].sum())
        games = wins + losses
        out.append(
            {
                "agent": name,
                "elo": float((r[i] - base) * ELO_PER_UNIT),
                "elo_se": float(math.sqrt(max(var, 0.0)) * ELO_PER_UNIT),
                "games": _intish(games),
                "wins": _intish(wins),
                "losses": _intish(losses),
                "score": wins / games if games else math.nan,
                "strength": float(r[i] - base),
            }
        )
    out.sort(key=lambda row: (-row["elo"], row["agent"]))
    return out


def _intish(x: float):
    return int(round(x)) if abs(x - round(x)) < 1e-9 else float(x)


# ------------------------------------------------------------ tables


def _fmt(value, spec: str) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return "-"
    if spec:
        try:
            return format(value, spec)
        except (TypeError, ValueError):
            return str(value)
    return str(value)


def format_table(rows: list[dict], columns: list[tuple]) -> str:
    """An aligned plain-text table.

    ``columns``: ``(key, header)`` or ``(key, header, format_spec)``; a key may
    be a callable ``row -> str``.  Text columns are left-aligned, numbers right-aligned."""
    cols = [(c[0], c[1], c[2] if len(c) > 2 else "") for c in columns]
    cells = []
    numeric = [True] * len(cols)
    for row in rows:
        line = []
        for j, (key, _, spec) in enumerate(cols):
            value = key(row) if callable(key) else row.get(key)
            if not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(value, bool):
                numeric[j] = False
            line.append(_fmt(value, spec))
        cells.append(line)
    widths = [max([len(h)] + [len(line[j]) for line in cells]) for j, (_, h, _) in enumerate(cols)]

    def render(line, header=False):
        parts = []
        for j, text in enumerate(line):
            right = numeric[j] and not header
            parts.append(text.rjust(widths[j]) if right else text.ljust(widths[j]))
        return "  ".join(parts).rstrip()

    out = [render([h for _, h, _ in cols], header=True), render(["-" * wd for wd in widths], header=True)]
    out += [render(line) for line in cells]
    return "\n".join(out)


def write_csv(path, rows: list[dict], fields: list[str]) -> None:
    """Write ``rows`` (dicts) to a CSV file with the columns ``fields``."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if isinstance(v := row.get(k), float) and math.isnan(v) else v) for k in fields})


def number_text(x, fmt: str = ".3f") -> str:
    """``x`` in format ``fmt``, or ``-`` for a missing number (None or NaN)."""
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def interval_text(lo: float, hi: float, digits: int | str = 3) -> str:
    """``[lo, hi]`` with ``digits`` decimals (or a format spec such as
    ``"+.3f"``); ``-`` for a missing interval (``lo`` None or NaN)."""
    if lo is None or (isinstance(lo, float) and math.isnan(lo)):
        return "-"
    fmt = digits if isinstance(digits, str) else f".{digits}f"
    return f"[{format(lo, fmt)}, {format(hi, fmt)}]"


def mean(values) -> float:
    """The mean of ``values`` (any iterable of numbers); NaN for none."""
    values = list(values)
    return float(sum(values) / len(values)) if values else math.nan


def json_safe(value):
    """``value`` with every NaN or infinite float (in nested dicts and lists)
    replaced by None, so that it is valid JSON."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_safe(v) for v in value]
    return value
