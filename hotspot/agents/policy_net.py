"""Expert iteration's policy head: a small MLP from the decision features of
``hotspot.features.decision`` to one logit per action of the phases of play
(``actions.NUM_PLAY_ACTIONS``: select piece k, select unit u, combine, step
or maneuver m, split, end piece, end phase), masked to the legal actions.
Trained with numpy only (no torch) by cross-entropy to the search's root
visit distributions (``hotspot.agents.expert``, ``training/train_expert.py``);
run in compiled code inside the search (the prior of ``ismcts_search``) and
in numpy (``logits``: training and its checks).

The hidden layer is the value network's (``value_net.hidden_unit`` /
``value_net.hidden``, Adam ``value_net.adam``); a head is one flat float64
vector::

    [F, H, A, W0 (H x F, row-major), b0 (H), W1 (A x H, row-major), b1 (A)]

The set-up phases (3.2, 3.3, D21) are not searched, so the head has no
outputs for their actions: agents play the scripted deployment plan there.

A two-headed network file (:func:`save_expert`, :func:`load_expert`: arrays
``value``, the value head of ``value_net``, and ``policy``, plus
``generation``, ``features`` and ``policy_features``, checked on load) is
what ``training/train_expert.py --ship`` writes; the package ships none (no
agent plays one).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import NUM_PLAY_ACTIONS
from hotspot.features.decision import NUM_DECISION_FEATURES

from .value_net import NUM_VALUE_FEATURES, adam, hidden, hidden_unit, value_size


def policy_size(f: int, h: int, a: int) -> int:
    return 3 + h * f + h + a * h + a


def pack(W0: np.ndarray, b0: np.ndarray, W1: np.ndarray, b1: np.ndarray) -> np.ndarray:
    h, f = W0.shape
    a = W1.shape[0]
    return np.concatenate([[f, h, a], W0.ravel(), b0, W1.ravel(), b1]).astype(np.float64)


def unpack(net: np.ndarray):
    f, h, a = int(net[0]), int(net[1]), int(net[2])
    w0 = 3
    b0 = w0 + h * f
    w1 = b0 + h
    b1 = w1 + a * h
    return (
        net[w0:b0].reshape(h, f).copy(),
        net[b0:w1].copy(),
        net[w1:b1].reshape(a, h).copy(),
        net[b1 : b1 + a].copy(),
    )


def init_policy(hidden_units: int = 32, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    f, a = NUM_DECISION_FEATURES, NUM_PLAY_ACTIONS
    return pack(
        rng.normal(0, 1 / np.sqrt(f), (hidden_units, f)),
        np.zeros(hidden_units),
        rng.normal(0, 0.1, (a, hidden_units)),
        np.zeros(a),
    )


# ------------------------------------------------------------------ compiled inference


@jit(inline=True)
def policy_choice(x, mask, net, off, hid):
    """The legal action (``mask``) with the highest logit of the policy head at
    ``net[off:]`` for features ``x`` (``hid``: scratch of at least H floats;
    ties: the lowest action).  -1 if no legal action has an output."""
    f = int(net[off])
    h = int(net[off + 1])
    a_n = int(net[off + 2])
    w0 = off + 3
    b0 = w0 + h * f
    w1 = b0 + h
    b1 = w1 + a_n * h
    for j in range(h):
        hid[j] = hidden_unit(x, net, f, w0 + j * f, b0 + j)
    best = -1
    best_z = -np.inf
    for a in range(min(a_n, mask.shape[0])):
        if mask[a]:
            z = net[b1 + a]
            row = w1 + a * h
            for j in range(h):
                z += net[row + j] * hid[j]
            if best < 0 or z > best_z:
                best = a
                best_z = z
    return best


# ------------------------------------------------------------------ numpy


def logits(net: np.ndarray, X: np.ndarray) -> np.ndarray:
    """The logits of the rows of ``X`` (numpy, the function of :func:`policy_choice`)."""
    W0, b0, W1, b1 = unpack(net)
    return hidden(X, W0, b0) @ W1.T + b1


def masked_log_softmax(z: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Log-probabilities over the legal actions (``mask``; the others -inf)."""
    z = np.where(mask, z, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def cross_entropy(net: np.ndarray, X: np.ndarray, P: np.ndarray, M: np.ndarray) -> float:
    """Mean cross-entropy of the masked softmax to the target distributions ``P``."""
    if len(X) == 0:
        return float("nan")
    lp = masked_log_softmax(logits(net, X), M)
    return float(-np.sum(P * np.where(M, lp, 0.0)) / len(X))


def fit_policy(
    net: np.ndarray,
    X: np.ndarray,
    P: np.ndarray,
    M: np.ndarray,
    *,
    epochs: int = 30,
    lr: float = 0.005,
    batch: int = 256,
    l2: float = 1e-4,
    seed: int = 0,
) -> tuple[np.ndarray, list[float]]:
    """Train by minibatch Adam on the cross-entropy of the masked softmax to the
    visit distributions ``P`` (rows sum to 1 over the legal actions ``M``).
    Returns the new head and the mean loss per epoch."""
    X, P, M = np.asarray(X, np.float64), np.asarray(P, np.float64), np.asarray(M, bool)
    if not (X.ndim == P.ndim == M.ndim == 2 and len(X) == len(P) == len(M)):
        raise ValueError(f"X, P and M must be 2-d with one row per decision, got {X.shape}, {P.shape}, {M.shape}")
    if np.any(P[~M] != 0) or not np.allclose(P.sum(axis=1), 1.0):
        raise ValueError("each target row must be a distribution over its legal actions")
    params = list(unpack(net))

    def grad(idx):
        x, p, m = X[idx], P[idx], M[idx]
        hid = hidden(x, params[0], params[1])
        lp = masked_log_softmax(hid @ params[2].T + params[3], m)
        loss = -float(np.sum(p * np.where(m, lp, 0.0)))
        g_z = (np.exp(lp) - p) / len(idx)  # d(mean CE)/d(logits); 0 on the illegal actions
        g_hid = (g_z @ params[2]) * (1 - hid**2)
        return loss, (g_hid.T @ x + l2 * params[0], g_hid.sum(axis=0), g_z.T @ hid + l2 * params[2], g_z.sum(axis=0))

    losses = adam(params, grad, len(X), epochs=epochs, lr=lr, batch=batch, seed=seed)
    return pack(*params), losses


# ------------------------------------------------------------------ files


def two_headed(value: np.ndarray, policy: np.ndarray) -> np.ndarray:
    """The search's ``net`` argument with both heads: the value head, then the
    policy head (``ismcts.P_POLICY`` says the search reads it)."""
    return np.concatenate([value, policy]).astype(np.float64)


def save_expert(path, value: np.ndarray, policy: np.ndarray, generation: int = 0) -> None:
    np.savez(
        path,
        value=value,
        policy=policy,
        generation=np.int64(generation),
        features=np.int64(NUM_VALUE_FEATURES),
        policy_features=np.int64(NUM_DECISION_FEATURES),
    )


def check_policy(net: np.ndarray, where: str = "policy head") -> np.ndarray:
    """``net`` if it is a well-formed policy head for this version's features, else ValueError."""
    net = np.ascontiguousarray(net, dtype=np.float64)
    if net.ndim != 1 or net.size < 4:
        raise ValueError(f"{where}: a policy head is a 1-d vector with a header, got shape {net.shape}")
    f, h, a = net[0], net[1], net[2]
    if f != NUM_DECISION_FEATURES or a != NUM_PLAY_ACTIONS or not 1 <= h <= 4096 or h != int(h):
        raise ValueError(
            f"{where}: a head for {f:g} features and {a:g} actions with {h:g} hidden units; this "
            f"version computes {NUM_DECISION_FEATURES} features and {NUM_PLAY_ACTIONS} actions"
        )
    if net.size != policy_size(int(f), int(h), int(a)) or not np.all(np.isfinite(net)):
        raise ValueError(f"{where}: malformed policy vector (size {net.size}, header {f:g}x{h:g}x{a:g})")
    return net


def load_expert(path) -> tuple[np.ndarray, np.ndarray]:
    """``(value head, policy head)`` from an ``.npz`` written by :func:`save_expert` (checked)."""
    path = Path(path)
    with np.load(path, allow_pickle=False) as data:
        for key in ("value", "policy", "features", "policy_features"):
            if key not in data:
                raise ValueError(f"{path}: not an expert network file (no {key!r} array)")
        value = np.ascontiguousarray(data["value"], dtype=np.float64)
        policy = np.ascontiguousarray(data["policy"], dtype=np.float64)
        feats, pfeats = int(data["features"]), int(data["policy_features"])
    if feats != NUM_VALUE_FEATURES or pfeats != NUM_DECISION_FEATURES:
        raise ValueError(
            f"{path}: heads for {feats} and {pfeats} features; this version computes "
            f"{NUM_VALUE_FEATURES} and {NUM_DECISION_FEATURES}"
        )
    if (
        value.ndim != 1
        or value.size < 3
        or value[0] != NUM_VALUE_FEATURES
        or value[1] < 1
        or value.size != value_size(value)
        or not np.all(np.isfinite(value))
    ):
        raise ValueError(f"{path}: malformed value head (size {value.size})")
    return value, check_policy(policy, str(path))
