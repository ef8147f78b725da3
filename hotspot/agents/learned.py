"""The learned agent: a small MLP policy trained with MaskablePPO (sb3-contrib)
against the compiled opponents, run here with numpy only (no torch).

Training (``benchmarks/train_learned.py``, extra ``pip install ".[train]"``)
exports one network per side to ``hotspot/agents/weights/learned_<side>.npz``:
plain arrays ``W0, b0, W1, b1, ..., Wpi, bpi`` (hidden layers with tanh, then
the action logits), plus ``obs_dim`` and ``num_actions``.

Each decision the agent encodes its information state exactly as the
Gymnasium environment encodes its observation (``encode_info_state`` on the
``observe`` record, D20), turns it into the flat feature vector of
:func:`features` (the same function the training wrapper uses), runs the MLP,
masks the illegal actions and samples from the masked softmax with its own
seeded generator (``deterministic=True``: the argmax instead; the shipped
networks are weak, and their argmax can repeat select/deselect actions for
tens of thousands of actions, so sampling is the default).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from hotspot.core.rules_data import SIDE_NAMES
from hotspot.env.encoding import GLOBAL_FEATURES, encode_info_state, new_observation

from .base import Agent

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"

# fixed scale of the globals: turn, turn limit, platform turns, side, to move,
# result, truncated, actions so far (/1000), phase one-hot
_GLOBAL_SCALE = np.ones(len(GLOBAL_FEATURES), dtype=np.float32)
_GLOBAL_SCALE[:3] = 1.0 / 16.0
_GLOBAL_SCALE[7] = 1.0 / 1000.0
_TABLE_SCALE = np.float32(1.0 / 8.0)
OBS_KEYS = ("board", "units", "pieces", "globals")


def features(obs: dict) -> np.ndarray:
    """The flat float32 input vector of an observation dict (one, or a batch
    with a leading axis): board as is, unit and piece tables /8, scaled globals."""
    board = np.asarray(obs["board"])
    batch = board.shape[:-3]
    parts = [board.reshape(batch + (-1,)).astype(np.float32),
             np.asarray(obs["units"]).reshape(batch + (-1,)).astype(np.float32) * _TABLE_SCALE,
             np.asarray(obs["pieces"]).reshape(batch + (-1,)).astype(np.float32) * _TABLE_SCALE,
             np.asarray(obs["globals"]).astype(np.float32) * _GLOBAL_SCALE]
    return np.concatenate(parts, axis=-1)


def weights_path(side) -> Path:
    name = SIDE_NAMES[side] if isinstance(side, (int, np.integer)) else str(side).lower()
    return WEIGHTS_DIR / f"learned_{name}.npz"


class NumpyPolicy:
    """The exported policy MLP: tanh hidden layers, linear logits."""

    def __init__(self, path):
        with np.load(path) as data:
            n = sum(1 for k in data.files if k.startswith("W") and k[1:].isdigit())
            self.layers = [(data[f"W{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32))
                           for i in range(n)]
            self.head = (data["Wpi"].astype(np.float32), data["bpi"].astype(np.float32))
        self.obs_dim = self.layers[0][0].shape[1] if self.layers else self.head[0].shape[1]

    def logits(self, x: np.ndarray) -> np.ndarray:
        h = np.asarray(x, dtype=np.float32)
        for W, b in self.layers:  # torch Linear layout: W is (out, in)
            h = np.tanh(h @ W.T + b)
        W, b = self.head
        return h @ W.T + b


def masked_logits(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.where(np.asarray(mask, dtype=bool), logits, -np.inf)


class LearnedAgent(Agent):
    """A MaskablePPO policy per side, evaluated in numpy."""

    name = "learned"
    policy_id = None

    def __init__(self, seed: int | None = None, deterministic: bool = False, weights_dir=None):
        self.deterministic = bool(deterministic)
        self.weights_dir = Path(weights_dir) if weights_dir is not None else WEIGHTS_DIR
        self._nets: dict[int, NumpyPolicy] = {}
        self._obs = new_observation()
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def net(self, side: int) -> NumpyPolicy:
        side = int(side)
        if side not in self._nets:
            path = self.weights_dir / weights_path(side).name
            if not path.exists():
                raise FileNotFoundError(f"no trained weights for the {SIDE_NAMES[side]} side: {path}")
            self._nets[side] = NumpyPolicy(path)
        return self._nets[side]

    def observation(self, info_state, side: int) -> dict:
        """The environment's observation dict of an ``observe`` record (or a (1,) array of one)."""
        o = info_state[0] if getattr(info_state, "shape", None) == (1,) else info_state
        obs = self._obs
        encode_info_state(o, int(side), obs["board"], obs["units"], obs["pieces"], obs["globals"])
        return obs

    def action_logits(self, info_state, side: int) -> np.ndarray:
        return self.net(side).logits(features(self.observation(info_state, side)))

    def act(self, info_state, mask, side) -> int:
        mask = np.asarray(mask, dtype=bool)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal action to choose from")
        logits = self.action_logits(info_state, side)[legal].astype(np.float64)
        if self.deterministic:
            return int(legal[int(np.argmax(logits))])
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(legal[int(self._rng.choice(legal.size, p=p))])

    def __repr__(self) -> str:
        return f"LearnedAgent(deterministic={self.deterministic})"
