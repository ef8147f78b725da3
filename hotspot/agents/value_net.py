"""The search's learned value: a small MLP over the position features of
``hotspot.features.position`` (one hidden tanh layer, a tanh output: the
value for the Technocrat in [-1, 1]), run in compiled code inside the search
and trained with numpy only (no torch) by expert iteration
(``training/train_expert.py``).

A network is one flat float64 vector, so that compiled code takes it as one
argument::

    [F, H, W0 (H x F, row-major), b0 (H), w1 (H), b1]

The hidden layer (:func:`hidden_unit`, :func:`hidden`) and the Adam loop
(:func:`adam`) are shared with the policy head (``hotspot.agents.policy_net``);
a two-headed network is this vector followed by the policy head's
(:func:`value_size` says where it starts).

Shipped weights live in ``hotspot/agents/weights/value_<name>.npz`` (arrays
``net``, plus ``generation`` and ``features``: the feature count the network
was trained on, checked on load).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hotspot.core._jit import jit
from hotspot.features.position import NUM_POSITION_FEATURES, position_features

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
NUM_VALUE_FEATURES = NUM_POSITION_FEATURES


@jit(inline=True)
def hidden_unit(x, net, f, row, bias):
    """One tanh hidden unit: ``tanh(net[bias] + net[row:row+f] . x)`` (shared by
    the value head and the policy head, ``hotspot.agents.policy_net``)."""
    z = net[bias]
    for i in range(f):
        z += net[row + i] * x[i]
    return np.tanh(z)


@jit
def mlp_value(x, net):
    """The network's value of feature vector ``x``."""
    f = int(net[0])
    h = int(net[1])
    w0 = 2
    b0 = w0 + h * f
    w1 = b0 + h
    b1 = w1 + h
    acc = net[b1]
    for j in range(h):
        acc += net[w1 + j] * hidden_unit(x, net, f, w0 + j * f, b0 + j)
    return np.tanh(acc)


@jit
def value_net(s, net, feat):
    """The network's value of state ``s`` for the Technocrat (``feat``: scratch)."""
    position_features(s, feat)
    return mlp_value(feat, net)


def pack(W0: np.ndarray, b0: np.ndarray, w1: np.ndarray, b1: float) -> np.ndarray:
    h, f = W0.shape
    return np.concatenate([[f, h], W0.ravel(), b0, w1, [b1]]).astype(np.float64)


def unpack(net: np.ndarray):
    f, h = int(net[0]), int(net[1])
    w0 = 2
    b0 = w0 + h * f
    w1 = b0 + h
    return (net[w0:b0].reshape(h, f).copy(), net[b0:w1].copy(), net[w1 : w1 + h].copy(), float(net[w1 + h]))


def init_net(hidden: int = 16, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    f = NUM_VALUE_FEATURES
    return pack(rng.normal(0, 1 / np.sqrt(f), (hidden, f)), np.zeros(hidden), rng.normal(0, 0.1, hidden), 0.0)


def predict(net: np.ndarray, X: np.ndarray) -> np.ndarray:
    """Values of the rows of ``X`` (numpy, the same function as :func:`mlp_value`)."""
    W0, b0, w1, b1 = unpack(net)
    return np.tanh(hidden(X, W0, b0) @ w1 + b1)


def hidden(X: np.ndarray, W0: np.ndarray, b0: np.ndarray) -> np.ndarray:
    """The tanh hidden layer of rows ``X`` (numpy, as :func:`hidden_unit`)."""
    return np.tanh(X @ W0.T + b0)


def adam(params: list, grad, n: int, *, epochs: int, lr: float, batch: int, seed: int) -> list[float]:
    """Minibatch Adam over ``n`` rows, updating the arrays ``params`` in place.
    ``grad(idx)`` returns the summed loss of rows ``idx`` and the gradients of
    the mean loss, one per array.  Returns the mean loss per epoch."""
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    rng = np.random.default_rng(seed)
    t = 0
    losses = []
    for _ in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for start in range(0, n, batch):
            loss, grads = grad(order[start : start + batch])
            total += loss
            t += 1
            for p, g, mi, vi in zip(params, grads, m, v):
                mi *= 0.9
                mi += 0.1 * g
                vi *= 0.999
                vi += 0.001 * g * g
                p -= lr * (mi / (1 - 0.9**t)) / (np.sqrt(vi / (1 - 0.999**t)) + 1e-8)
        losses.append(total / max(n, 1))
    return losses


def fit(
    net: np.ndarray,
    X: np.ndarray,
    y: np.ndarray,
    *,
    epochs: int = 200,
    lr: float = 0.01,
    batch: int = 256,
    l2: float = 1e-4,
    seed: int = 0,
) -> tuple[np.ndarray, list[float]]:
    """Train by minibatch Adam on the squared error to targets ``y`` in [-1, 1].
    Returns the new network and the loss per epoch."""
    W0, b0, w1, b1 = unpack(net)
    params = [W0, b0, w1, np.array([b1])]

    def grad(idx):
        x, target = X[idx], y[idx]
        hid = hidden(x, params[0], params[1])
        out = np.tanh(hid @ params[2] + params[3][0])
        err = out - target
        g_out = 2 * err * (1 - out**2) / len(idx)
        g_hid = np.outer(g_out, params[2]) * (1 - hid**2)
        return float(np.sum(err**2)), (
            g_hid.T @ x + l2 * params[0],
            g_hid.sum(axis=0),
            hid.T @ g_out + l2 * params[2],
            np.array([g_out.sum()]),
        )

    losses = adam(params, grad, len(X), epochs=epochs, lr=lr, batch=batch, seed=seed)
    return pack(params[0], params[1], params[2], float(params[3][0])), losses


@jit(inline=True)
def value_size(net):
    """The length of the value network at the start of ``net`` (0 for an empty
    vector): where a two-headed network's policy head starts
    (``hotspot.agents.policy_net``)."""
    if net.shape[0] == 0:
        return 0
    f = int(net[0])
    h = int(net[1])
    return 2 + h * f + 2 * h + 1


def weights_file(name: str) -> Path:
    return WEIGHTS_DIR / f"value_{name}.npz"


def save_net(path, net: np.ndarray, generation: int = 0) -> None:
    np.savez(path, net=net, generation=np.int64(generation), features=np.int64(NUM_VALUE_FEATURES))


def load_net(path) -> np.ndarray:
    """A network from an ``.npz`` written by :func:`save_net` (checked)."""
    with np.load(path, allow_pickle=False) as data:
        for key in ("net", "features"):
            if key not in data:
                raise ValueError(f"{path}: not a value network file (no {key!r} array)")
        net = np.ascontiguousarray(data["net"], dtype=np.float64)
        feats = int(data["features"])
    if feats != NUM_VALUE_FEATURES or net.ndim != 1 or net.size < 3:
        raise ValueError(f"{path}: a network for {feats} features; this version computes {NUM_VALUE_FEATURES}")
    f, h = int(net[0]), int(net[1])
    if f != NUM_VALUE_FEATURES or h < 1 or net.size != value_size(net) or not np.all(np.isfinite(net)):
        raise ValueError(f"{path}: malformed network vector (size {net.size}, header {f}x{h})")
    return net
