"""The per-action policy: one shared network scores every legal action from
the position's features and the action's own, then a softmax over the legal
actions (the DRRN / pointer-network form for variable action sets; He et al.
2016, Vinyals et al. 2015).

Inputs, both computed in compiled code from the acting side's information
state (``observe(s, side, fog=True)``, D20, never the true state):

* the decision's features, ``hotspot.features.decision`` (46: the position,
  the phase, what is selected);
* each legal action's features, ``hotspot.features.actions`` (53: which
  counter, hex or piece it is about, where it leads, what is near).

Network: ``score(a) = w2 . relu(W1 relu(W0 [x_state, x_action] + b0) + b1) + b2``;
the policy is ``softmax`` of the scores over the legal actions.  The state
part of the first layer is computed once a decision.

Weights (``weights/action_policy_<seat>.npz``, one network a seat; torch
only to train, ``training/``): arrays ``W0 (H1 x (46 + 53)), b0, W1 (H2 x
H1), b1, w2 (H2), b2 (1)`` and ``state_features``, ``action_features``
(checked against this version's on load), plus ``generation`` and
``teacher`` (what the policy learnt from).

The set-up phases (3.2, 3.3, D21) are not scored: the agent plays the
scripted deployment plan there, with a generator seeded from its own seed.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.observation import observe
from hotspot.core.rules_data import PHASE_T_SETUP, PHASE_Z_SETUP
from hotspot.core.state import STATE_DTYPE
from hotspot.features.actions import (
    NUM_ACTION_FEATURES,
    action_features,
    new_action_work,
)
from hotspot.features.decision import NUM_DECISION_FEATURES, decision_features

from .base import Agent, agent_generator, checked_act_arguments
from .specs import Param

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
#: the shipped policy of each seat (index: ZIEGLER 0, TECHNOCRAT 1)
POLICY_FILES = (WEIGHTS_DIR / "action_policy_ziegler.npz", WEIGHTS_DIR / "action_policy_technocrat.npz")
NET_KEYS = ("W0", "b0", "W1", "b1", "w2", "b2")
MAX_HIDDEN = 4096


class PolicyNet:
    """The weights of a per-action policy, checked: ``W0, b0, W1, b1, w2, b2``
    as contiguous float64 arrays (the compiled scorer's arguments)."""

    def __init__(self, W0, b0, W1, b1, w2, b2, *, generation: int = 0, teacher: str = "", where: str = "policy"):
        arrs = [np.ascontiguousarray(x, dtype=np.float64) for x in (W0, b0, W1, b1, w2, b2)]
        W0, b0, W1, b1, w2, b2 = arrs
        inputs = NUM_DECISION_FEATURES + NUM_ACTION_FEATURES
        if W0.ndim != 2 or W0.shape[1] != inputs:
            raise ValueError(
                f"{where}: W0 must be (H1, {inputs}) for this version's features "
                f"({NUM_DECISION_FEATURES} + {NUM_ACTION_FEATURES}), got {W0.shape}"
            )
        h1 = W0.shape[0]
        if W1.ndim != 2 or W1.shape[1] != h1:
            raise ValueError(f"{where}: W1 must be (H2, {h1}), got {W1.shape}")
        h2 = W1.shape[0]
        if not (1 <= h1 <= MAX_HIDDEN and 1 <= h2 <= MAX_HIDDEN):
            raise ValueError(f"{where}: hidden sizes {h1}, {h2} outside 1..{MAX_HIDDEN}")
        if b0.shape != (h1,) or b1.shape != (h2,) or w2.shape != (h2,) or b2.shape != (1,):
            raise ValueError(
                f"{where}: bias and output shapes {b0.shape}, {b1.shape}, {w2.shape}, {b2.shape} "
                f"do not fit hidden sizes {h1}, {h2}"
            )
        if not all(np.all(np.isfinite(x)) for x in arrs):
            raise ValueError(f"{where}: weights that are not finite")
        self.arrays = tuple(arrs)
        self.generation = int(generation)
        self.teacher = str(teacher)

    @classmethod
    def init(cls, h1: int = 64, h2: int = 64, seed: int = 0) -> PolicyNet:
        rng = np.random.default_rng(seed)
        f = NUM_DECISION_FEATURES + NUM_ACTION_FEATURES
        return cls(
            rng.normal(0, 1 / np.sqrt(f), (h1, f)),
            np.zeros(h1),
            rng.normal(0, 1 / np.sqrt(h1), (h2, h1)),
            np.zeros(h2),
            rng.normal(0, 1 / np.sqrt(h2), h2),
            np.zeros(1),
        )

    @classmethod
    def load(cls, path) -> PolicyNet:
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                if not hasattr(data, "files"):
                    raise ValueError("a single array, not an .npz archive")
                data = {k: data[k] for k in data.files}
        except (OSError, EOFError, ValueError, zipfile.BadZipFile) as exc:
            raise ValueError(
                f"{path}: cannot read the policy ({str(exc).splitlines()[0] if str(exc) else exc!r})"
            ) from None
        missing = [k for k in NET_KEYS + ("state_features", "action_features") if k not in data]
        if missing:
            raise ValueError(f"{path}: not a per-action policy file (no {', '.join(missing)})")
        try:
            fs, fa = int(data["state_features"]), int(data["action_features"])
            generation = int(data.get("generation", 0))
            teacher = str(data.get("teacher", ""))
        except (TypeError, ValueError):
            raise ValueError(f"{path}: malformed header arrays") from None
        if (fs, fa) != (NUM_DECISION_FEATURES, NUM_ACTION_FEATURES):
            raise ValueError(
                f"{path}: a policy for {fs} + {fa} features; this version computes "
                f"{NUM_DECISION_FEATURES} + {NUM_ACTION_FEATURES}"
            )
        arrays = [data[k] for k in NET_KEYS]
        for k, x in zip(NET_KEYS, arrays):
            if x.dtype.kind not in "fiu":
                raise ValueError(f"{path}: {k} holds {x.dtype}, not numbers")
        return cls(*arrays, generation=generation, teacher=teacher, where=str(path))

    def save(self, path) -> None:
        np.savez(
            path,
            **dict(zip(NET_KEYS, self.arrays)),
            state_features=np.int64(NUM_DECISION_FEATURES),
            action_features=np.int64(NUM_ACTION_FEATURES),
            generation=np.int64(self.generation),
            teacher=np.str_(self.teacher),
        )

    def flat(self) -> np.ndarray:
        """The weights as one float64 vector ``[H1, H2, W0, b0, W1, b1, w2, b2]``
        (row-major), the form compiled searches take (:func:`flat_policy_choice`)."""
        W0, b0, W1, b1, w2, b2 = self.arrays
        return np.concatenate([[W0.shape[0], W1.shape[0]], W0.ravel(), b0, W1.ravel(), b1, w2, b2])

    def scores(self, xs: np.ndarray, xa: np.ndarray) -> np.ndarray:
        """The scores of action rows ``xa`` (n x 53) at state features ``xs`` (46), in numpy."""
        W0, b0, W1, b1, w2, b2 = self.arrays
        hs = W0[:, :NUM_DECISION_FEATURES] @ xs + b0
        h1 = np.maximum(xa @ W0[:, NUM_DECISION_FEATURES:].T + hs, 0.0)
        h2 = np.maximum(h1 @ W1.T + b1, 0.0)
        return h2 @ w2 + b2[0]


# ------------------------------------------------------------------ compiled


@jit
def score_actions(xs, xa, n, W0, b0, W1, b1, w2, b2, out):
    """``out[:n]``: the scores of action rows ``xa[:n]`` at state features
    ``xs`` (the function of :meth:`PolicyNet.scores`)."""
    h1n = W0.shape[0]
    h2n = W1.shape[0]
    fs = xs.shape[0]
    fa = xa.shape[1]
    hs = np.empty(h1n)
    h1 = np.empty(h1n)
    for j in range(h1n):
        v = b0[j]
        for f in range(fs):
            v += W0[j, f] * xs[f]
        hs[j] = v
    for i in range(n):
        for j in range(h1n):
            v = hs[j]
            for f in range(fa):
                x = xa[i, f]
                if x != 0.0:
                    v += W0[j, fs + f] * x
            h1[j] = max(0.0, v)
        z = b2[0]
        for j in range(h2n):
            v = b1[j]
            for k in range(h1n):
                v += W1[j, k] * h1[k]
            if v > 0.0:
                z += w2[j] * v
        out[i] = z


@jit
def featurize(o, acts, n, w, xs, xa):
    """The decision's and the actions' features of information state ``o`` (D20)."""
    decision_features(o, xs)
    action_features(o, acts, n, w, xa)


@jit
def policy_scores(o, acts, n, W0, b0, W1, b1, w2, b2, w, xs, xa, out):
    """The scores of the actions ``acts[:n]`` at information state ``o``."""
    featurize(o, acts, n, w, xs, xa)
    score_actions(xs, xa, n, W0, b0, W1, b1, w2, b2, out)


@jit
def policy_decide_state(s, side, acts, n, W0, b0, W1, b1, w2, b2, obs, w, xs, xa, out):
    """The greedy choice of the policy in game state ``s`` for ``side`` among
    its legal actions ``acts[:n]`` (``legal_actions``), seeing only its
    information state (``observe`` into ``obs``, D20).  -1 if no action."""
    if n == 0:
        return -1
    if n == 1:
        return acts[0]
    observe(s, side, True, obs[0])
    policy_scores(obs[0], acts, n, W0, b0, W1, b1, w2, b2, w, xs, xa, out)
    best = 0
    for i in range(1, n):
        if out[i] > out[best]:
            best = i
    return acts[best]


@jit
def flat_policy_choice(o, given_mask, pnet):
    """The greedy choice of the policy packed in ``pnet`` (:meth:`PolicyNet.flat`)
    among the legal actions ``given_mask`` at information state ``o``; -1 if
    none.  Allocates its scratch: for a search's root, once a decision."""
    h1 = int(pnet[0])
    h2 = int(pnet[1])
    f = NUM_DECISION_FEATURES + NUM_ACTION_FEATURES
    i = 2
    W0 = pnet[i : i + h1 * f].reshape((h1, f))
    i += h1 * f
    b0 = pnet[i : i + h1]
    i += h1
    W1 = pnet[i : i + h2 * h1].reshape((h2, h1))
    i += h2 * h1
    b1 = pnet[i : i + h2]
    i += h2
    w2 = pnet[i : i + h2]
    b2 = pnet[i + h2 : i + h2 + 1]
    acts = np.empty(NUM_ACTIONS, dtype=np.int64)
    n = 0
    for a in range(given_mask.shape[0]):
        if given_mask[a]:
            acts[n] = a
            n += 1
    if n == 0:
        return -1
    xs = np.zeros(NUM_DECISION_FEATURES)
    xa = np.zeros((n, NUM_ACTION_FEATURES))
    out = np.zeros(n)
    policy_scores(o, acts, n, W0, b0, W1, b1, w2, b2, new_action_work(), xs, xa, out)
    best = 0
    for j in range(1, n):
        if out[j] > out[best]:
            best = j
    return acts[best]


def new_buffers():
    """``(obs, acts, w, xs, xa, out)`` scratch for the compiled functions above."""
    return (
        np.empty(1, dtype=STATE_DTYPE),
        np.empty(NUM_ACTIONS, dtype=np.int64),
        new_action_work(),
        np.zeros(NUM_DECISION_FEATURES),
        np.zeros((NUM_ACTIONS, NUM_ACTION_FEATURES)),
        np.zeros(NUM_ACTIONS),
    )


# ------------------------------------------------------------------ the agent

#: the parameters a ``learned`` spec may set (``learned(temperature=0.5)``)
SPEC_PARAMS = {
    "temperature": Param(
        "float", 0.0, 0.0, 100.0, doc="0: the highest score; else sampled from softmax(score / temperature)"
    )
}


def shipped_policies() -> tuple[PolicyNet, PolicyNet]:
    """The shipped policy of each seat, ``(ziegler, technocrat)``."""
    return tuple(PolicyNet.load(path) for path in POLICY_FILES)


def seat_policies(weights) -> tuple[PolicyNet, PolicyNet]:
    """``(ziegler, technocrat)`` policies from ``weights``: None (the shipped
    ones), one ``PolicyNet`` or ``.npz`` path for both seats, or a pair."""
    if weights is None:
        return shipped_policies()
    if isinstance(weights, (tuple, list)):
        if len(weights) != 2:
            raise ValueError(f"weights: one policy, or a (ziegler, technocrat) pair; got {len(weights)} items")
        return tuple(w if isinstance(w, PolicyNet) else PolicyNet.load(w) for w in weights)
    net = weights if isinstance(weights, PolicyNet) else PolicyNet.load(weights)
    return net, net


class ActionPolicyAgent(Agent):
    """The per-action policy without search: the legal action with the highest
    score (``temperature`` > 0: sampled from the softmax of score /
    temperature with the agent's own generator), by the seat's network
    (``weights``: see :func:`seat_policies`).  Set-up phases: the scripted
    deployment plan (D21)."""

    name = "learned"
    policy_id = None

    def __init__(self, seed: int | None = None, temperature: float = 0.0, weights=None):
        if not (temperature >= 0.0 and np.isfinite(temperature)):
            raise ValueError(f"temperature must be a finite number >= 0, got {temperature!r}")
        self.temperature = float(temperature)
        self.nets = seat_policies(weights)
        self._buf = new_buffers()
        self._work = None
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        self._setup_rng = agent_generator(seed)

    def _setup_act(self, o, mask, side) -> int:
        from .scripted import make_work, scripted_decide

        if self._work is None:
            self._work = make_work()
        return int(scripted_decide(o, mask, int(side), self._setup_rng, 0, *self._work))

    def action_scores(self, info_state, mask, side) -> tuple[np.ndarray, np.ndarray]:
        """``(legal actions, their scores)`` at ``side``'s information state."""
        o, m = checked_act_arguments(info_state, mask, side)
        acts = np.flatnonzero(m).astype(np.int64)
        _, _, w, xs, xa, out = self._buf
        policy_scores(o[0], acts, len(acts), *self.nets[int(side)].arrays, w, xs, xa, out)
        return acts, out[: len(acts)].copy()

    def act(self, info_state, mask, side) -> int:
        o, m = checked_act_arguments(info_state, mask, side)
        if int(o[0]["phase"]) in (PHASE_Z_SETUP, PHASE_T_SETUP):
            return self._setup_act(o[0], m, side)
        acts, z = self.action_scores(o, m, side)
        if len(acts) == 1:
            return int(acts[0])
        if self.temperature == 0.0:
            return int(acts[int(np.argmax(z))])
        p = np.exp((z - z.max()) / self.temperature)
        return int(acts[int(self._rng.choice(len(acts), p=p / p.sum()))])

    def __repr__(self) -> str:
        return f"ActionPolicyAgent(temperature={self.temperature})"
