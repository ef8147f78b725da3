"""The portfolio search's learned value: V(position) -> the game's outcome,
at the two points where the search values a plan (``hotspot.agents.portfolio``).

A plan of the Ziegler is valued when the Technocrat's reply (phases E-H, 5.0)
is over, at the start of the next turn (phase A, before the crustal
movement); a plan of the Technocrat when the Ziegler's reply (phases A-D of
the next turn) is over, at phase E.  The two points differ in who moves next,
so the value is two small networks of ``hotspot.agents.value_net``'s form
(one hidden tanh layer over the position features of
``hotspot.features.position``, a tanh output: the Technocrat's expected
return in [-1, 1]), one a point: row 0 values positions in the Ziegler's half
of the turn (phases A-D), row 1 in the Technocrat's (E-H).  Both rows have
the same length, so compiled code takes them as one 2-D float64 array.

The targets are the games' results (+1 Technocrat win, -1 Ziegler win, 0 a
game stopped at ``max_turns``, D19 revised), so that ``(v + 1) / 2`` is the
Technocrat's expected score, the quantity a Brier score judges
(:func:`brier`).  Training is numpy only (``value_net.fit``); inference is
the compiled :func:`plan_value` (numpy weights, no torch at play time).

The data are the positions of recorded games (:func:`game_positions`: an
arena folder's games replayed in compiled code), each with the hand-written
``beliefs.evaluate`` of the same position beside it, so that the two are
judged on the same held-out positions.

Shipped weights: ``hotspot/agents/weights/plan_value.npz`` (arrays ``nets``
(2 x n), ``features``, ``generation``), written by
``python -m training.train_generations ship``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import NUM_ACTIONS, action_error, apply_action
from hotspot.core.errors import OK
from hotspot.core.events import EV_WIDTH
from hotspot.core.rules_data import PHASE_CONTROL, PHASE_OVER, PHASE_T_CRUSTAL, TECHNOCRAT
from hotspot.core.victory import side_return
from hotspot.features.position import NUM_POSITION_FEATURES, position_features

from .beliefs import EVAL_WEIGHTS, evaluate
from .value_net import WEIGHTS_DIR, fit, init_net, mlp_value, predict, value_size

PLAN_VALUE_FILE = WEIGHTS_DIR / "plan_value.npz"

#: no learned value: the search values positions with ``beliefs.evaluate``
NO_NETS = np.zeros((0, 0), dtype=np.float64)

#: the two valuation points: the Ziegler's half (A-D) and the Technocrat's (E-H)
HALF_NAMES = ("ziegler-half", "technocrat-half")


@jit(inline=True)
def half_of(phase):
    """0 for a phase of the Ziegler's half of the turn (A-D), 1 for the
    Technocrat's (E-H)."""
    return 1 if phase >= PHASE_T_CRUSTAL else 0


@jit
def plan_value(s, side, nets, feat):
    """The value of state ``s`` for ``side`` in [-1, 1]: the result if the game
    is over, else ``beliefs.evaluate`` (``nets`` empty) or the network of the
    half of the turn ``s`` is in (``feat``: scratch of NUM_POSITION_FEATURES)."""
    if s["phase"] == PHASE_OVER:
        return side_return(s, side)
    if nets.shape[0] == 0:
        return evaluate(s, side, EVAL_WEIGHTS)
    position_features(s, feat)
    v = mlp_value(feat, nets[half_of(s["phase"])])
    return v if side == TECHNOCRAT else -v


# ------------------------------------------------------------------ data


@jit
def replay_positions(s, actions, X, HALF, HAND, n):
    """Replay ``actions`` from started state ``s`` (changed in place) and record
    the position at the start of each half of each turn (phase A, or E: the
    first state of the half, as the search meets it when it values a plan;
    a phase with no decision to make is passed over by the core): its features in ``X[n]``, the half of the
    turn in ``HALF[n]``, the hand-written evaluation for the Technocrat in
    ``HAND[n]``.  Returns ``(n, ok)``: ``ok`` False if an action was illegal
    (the replay stops there) or the arrays filled up."""
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    last = -1  # turn * 2 + half of the last point recorded
    for a in actions:
        p = s["phase"]
        if p == PHASE_OVER:
            return n, False
        if p <= PHASE_CONTROL:  # the first state of each half (a phase without a decision is passed over)
            key = int(s["turn"]) * 2 + half_of(p)
            if key != last:
                last = key
                if n >= X.shape[0]:
                    return n, False
                position_features(s, X[n])
                HALF[n] = half_of(p)
                HAND[n] = evaluate(s, TECHNOCRAT, EVAL_WEIGHTS)
                n += 1
        if a < 0 or a >= NUM_ACTIONS or action_error(s, a) != OK:  # the core's one legality check
            return n, False
        apply_action(s, a, ev, ev_n)
    return n, True


def game_positions(games, *, max_rows_per_game: int = 1024) -> dict:
    """The positions of recorded games: ``games`` yields ``(name, state,
    actions, result)``, the started state record of a game (changed in place),
    its actions and its result for the Technocrat (+1, -1, 0); ``name`` names
    the game in an error.  Returns a dict of ``X`` (features), ``half``,
    ``hand`` (the hand-written evaluation), ``y`` (the result) and ``game``
    (the game's index).  A game whose actions do not replay is a
    ``ValueError`` naming it.  (An arena folder's rows:
    ``training/train_generations.py``'s ``replayable``.)"""
    games = list(games)
    cap = max(1, max_rows_per_game * len(games))
    X = np.zeros((cap, NUM_POSITION_FEATURES))
    half = np.zeros(cap, dtype=np.int8)
    hand = np.zeros(cap)
    y = np.zeros(cap)
    game = np.zeros(cap, dtype=np.int64)
    n = 0
    for g, (name, state, actions, result) in enumerate(games):
        before = n
        n, ok = replay_positions(state[0], np.asarray(actions, dtype=np.int64), X, half, hand, n)
        if not ok:
            raise ValueError(f"game {name}: the recorded actions do not replay")
        y[before:n] = result
        game[before:n] = g
    return {"X": X[:n].copy(), "half": half[:n].copy(), "hand": hand[:n].copy(), "y": y[:n].copy(), "game": game[:n]}


# ------------------------------------------------------------------ fitting and judging


def fit_plan_value(
    X, half, y, *, hidden: int = 24, epochs: int = 60, lr: float = 0.005, seed: int = 0, init=None
) -> tuple[np.ndarray, list[list[float]]]:
    """Two networks (one a half of the turn) fitted on rows ``X`` with targets
    ``y``; ``init``: a (2 x n) array to start from (its hidden size wins).
    Returns ``(nets, losses)``."""
    rows, losses = [], []
    for h in (0, 1):
        sel = half == h
        start = init[h].copy() if init is not None else init_net(hidden, seed + h)
        net, loss = fit(start, X[sel], y[sel], epochs=epochs, lr=lr, seed=seed + h)
        rows.append(net)
        losses.append(loss)
    return np.stack(rows), losses


def predict_plan_value(nets: np.ndarray, X, half) -> np.ndarray:
    """The Technocrat's value of each row (numpy, as :func:`plan_value`)."""
    out = np.zeros(len(X))
    for h in (0, 1):
        sel = half == h
        if sel.any():
            out[sel] = predict(nets[h], X[sel])
    return out


def brier(values, y) -> float:
    """The Brier score of the Technocrat's expected score ``(v + 1) / 2``
    against the result's score ``(y + 1) / 2`` (1 win, 0.5 draw, 0 loss)."""
    p = (np.asarray(values) + 1.0) / 2.0
    return float(np.mean((p - (np.asarray(y) + 1.0) / 2.0) ** 2))


def reliability(values, y, bins: int = 10) -> list[dict]:
    """The reliability curve: for each bin of the predicted score, its rows,
    mean prediction and mean observed score."""
    p = (np.asarray(values) + 1.0) / 2.0
    obs = (np.asarray(y) + 1.0) / 2.0
    edges = np.linspace(0.0, 1.0, bins + 1)
    out = []
    for i in range(bins):
        sel = (p >= edges[i]) & ((p < edges[i + 1]) if i < bins - 1 else (p <= 1.0))
        if sel.any():
            out.append(
                {
                    "bin": [float(edges[i]), float(edges[i + 1])],
                    "rows": int(sel.sum()),
                    "predicted": float(p[sel].mean()),
                    "observed": float(obs[sel].mean()),
                }
            )
    return out


def platt(values, y):
    """The hand-written evaluation made a probability as fairly as it can be:
    ``a * atanh(v) + b`` fitted by least squares on the result (a 1-D
    calibration of its own scale), returned as a function of ``v``."""
    z = np.arctanh(np.clip(np.asarray(values), -0.999999, 0.999999))
    A = np.stack([z, np.ones_like(z)], axis=1)
    coef, *_ = np.linalg.lstsq(A, np.asarray(y), rcond=None)

    def calibrated(v):
        zz = np.arctanh(np.clip(np.asarray(v), -0.999999, 0.999999))
        return np.clip(coef[0] * zz + coef[1], -1.0, 1.0)

    return calibrated


# ------------------------------------------------------------------ files


def save_plan_value(path, nets: np.ndarray, generation: int = 0) -> None:
    np.savez(
        path,
        nets=np.asarray(nets, dtype=np.float64),
        generation=np.int64(generation),
        features=np.int64(NUM_POSITION_FEATURES),
    )


def load_plan_value(path) -> np.ndarray:
    """The (2 x n) networks of an ``.npz`` written by :func:`save_plan_value`,
    checked (a file for other features, or a malformed one, is a one-line
    ``ValueError``)."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in ("nets", "features") if k in data}
    except Exception as exc:  # noqa: BLE001  (an unreadable file, or not an .npz: one line)
        raise ValueError(f"{path}: cannot read the plan value ({type(exc).__name__})") from None
    missing = [k for k in ("nets", "features") if k not in arrays]
    if missing:
        raise ValueError(f"{path}: not a plan value file (no {', '.join(missing)})")
    try:
        nets = np.ascontiguousarray(arrays["nets"], dtype=np.float64)
        feats = int(arrays["features"])
    except (TypeError, ValueError):
        raise ValueError(f"{path}: the arrays hold no numbers") from None
    if feats != NUM_POSITION_FEATURES:
        raise ValueError(f"{path}: networks for {feats} features; this version computes {NUM_POSITION_FEATURES}")
    if nets.ndim != 2 or nets.shape[0] != 2 or nets.shape[1] < 3 or not np.all(np.isfinite(nets)):
        raise ValueError(f"{path}: malformed networks (shape {nets.shape}); expected 2 rows")
    for row in nets:
        if int(row[0]) != NUM_POSITION_FEATURES or int(row[1]) < 1 or value_size(row) != row.size:
            raise ValueError(f"{path}: malformed network row (header {row[0]:g} x {row[1]:g}, size {row.size})")
    return nets


def generation_of(path) -> int:
    with np.load(path, allow_pickle=False) as data:
        return int(data["generation"]) if "generation" in data else 0


_SHIPPED: list = []


def shipped_plan_value() -> np.ndarray:
    """The shipped networks (loaded once)."""
    if not _SHIPPED:
        _SHIPPED.append(load_plan_value(PLAN_VALUE_FILE))
    return _SHIPPED[0]
