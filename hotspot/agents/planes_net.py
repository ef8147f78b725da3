"""A policy-value network over the board's planes, and the agent that plays by it.

The network (trained with torch by ``training/train_planes.py``; played here
without torch, the weights shipped as ``.npz``, the convolutions compiled) reads
``features.planes.board_planes`` (the side's information state, D20) and is
fully convolutional over the axial hex grid:

* a trunk of hex convolutions (3x3 kernels masked by ``HEX_KERNEL_MASK``: a
  hex and its six neighbours), a stem and ``blocks`` residual blocks of two
  convolutions each, ReLU, every layer re-zeroed off the map;
* a policy: per hex, one logit for each of ``NUM_CELL_CHANNELS`` channels (a
  1x1 convolution), and ``NUM_GLOBAL_ACTIONS`` logits for the actions that
  name no hex, from the trunk's mean over the map; an action's logit is read
  at its slot (``features.planes.action_slots``: SELECT_UNIT at the
  counter's hex, a step at the hex it enters, ...) and the policy is the
  softmax over the legal actions;
* a value: ``tanh`` of a small MLP on the trunk's mean, the game's outcome
  for the observer (+1 a win, -1 a loss, 0 a draw).

The ``.npz`` holds ``format`` (``"hotspot-planes-net-1"``), ``planes`` (the
plane names it was trained on: a file for other planes is refused in one
line), ``stem_w``/``stem_b``, ``block{i}_{1,2}_w``/``_b``, ``policy_w``/
``policy_b`` (1x1: ``(NUM_CELL_CHANNELS, C)``), ``global_w``/``global_b``,
``value1_w``/``value1_b``, ``value2_w``/``value2_b``; convolution weights are
``(out, in, 3, 3)`` indexed ``[..., dr + 1, dq + 1]`` as torch's ``Conv2d``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.hexgrid import NUM_CELLS
from hotspot.core.rules_data import PHASE_T_SETUP, PHASE_Z_SETUP
from hotspot.features.planes import (
    AXIAL_COLS,
    AXIAL_ROWS,
    CELL_OF_INDEX,
    HEX_KERNEL_MASK,
    NUM_CELL_CHANNELS,
    NUM_GLOBAL_ACTIONS,
    NUM_PLANES,
    NUM_SLOTS,
    PLANE_NAMES,
    action_slots,
    encode_planes,
)

from .base import Agent, agent_generator, checked_act_arguments
from .specs import Param

FORMAT = "hotspot-planes-net-1"
#: 1 on the grid's map hexes (the planes' ``on_map``)
ON_GRID = (CELL_OF_INDEX >= 0).reshape(AXIAL_ROWS, AXIAL_COLS).astype(np.float32)
_TAPS = [(kh, kw) for kh in range(3) for kw in range(3) if HEX_KERNEL_MASK[kh, kw]]
_MAP_HEXES = float(ON_GRID.sum())


class PlanesNetError(ValueError):
    """A weights file that is not a planes network for these planes (one line)."""


#: the padded grid: one zero hex round the axial grid, flattened; a tap (kh, kw) reads ``p + _OFFSETS[t]``
_PW = AXIAL_COLS + 2
_PADDED = (AXIAL_ROWS + 2) * _PW
_OFFSETS = np.array([(kh - 1) * _PW + (kw - 1) for kh, kw in _TAPS], dtype=np.int64)
_INSIDE = np.zeros((AXIAL_ROWS + 2, _PW), dtype=np.float32)
_INSIDE[1:-1, 1:-1] = ON_GRID
_INSIDE = _INSIDE.reshape(-1)


@jit
def _conv(x, wt, b, relu, out):
    """One hex convolution on the padded flat grid: ``x`` (in, _PADDED),
    ``wt`` (out, in, taps), then ReLU if ``relu``; zero off the map."""
    lo, hi = _PW + 1, _PADDED - _PW - 1
    for o in range(wt.shape[0]):
        acc = out[o]
        acc[:] = 0.0
        for i in range(wt.shape[1]):
            xi = x[i]
            for t in range(_OFFSETS.shape[0]):
                w = wt[o, i, t]
                off = _OFFSETS[t]
                for p in range(lo, hi):
                    acc[p] += w * xi[p + off]
        for p in range(_PADDED):
            v = (acc[p] + b[o]) * _INSIDE[p]
            acc[p] = max(v, 0.0) if relu else v


def hex_conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A hex convolution of ``x`` (batch, in, rows, cols) by ``w`` (out, in,
    3, 3; only the hex taps are read) plus ``b``, zero off the map."""
    wt = _taps(w)
    out = np.zeros((x.shape[0], w.shape[0], AXIAL_ROWS, AXIAL_COLS), dtype=np.float32)
    y = np.zeros((w.shape[0], _PADDED), dtype=np.float32)
    for n in range(x.shape[0]):
        _conv(_padded(x[n]), wt, np.asarray(b, np.float32), False, y)
        out[n] = y.reshape(-1, AXIAL_ROWS + 2, _PW)[:, 1:-1, 1:-1]
    return out


def _taps(w: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(np.stack([w[:, :, kh, kw] for kh, kw in _TAPS], axis=2), dtype=np.float32)


def _padded(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(np.pad(x, ((0, 0), (1, 1), (1, 1))).reshape(x.shape[0], -1), dtype=np.float32)


class PlanesNet:
    """The weights and the forward pass (compiled hex convolutions, one thread; no torch)."""

    def __init__(self, arrays: dict):
        self.arrays = {k: np.asarray(v, dtype=np.float32) for k, v in arrays.items()}
        self.blocks = sum(1 for k in self.arrays if k.endswith("_1_w"))
        self._tapped = None
        self.channels = int(self.arrays["stem_w"].shape[0])

    @classmethod
    def init(cls, channels: int = 32, blocks: int = 3, hidden: int = 64, seed: int = 0) -> PlanesNet:
        """Random weights (He-scaled): for tests and as a training start."""
        g = np.random.default_rng(seed)

        def conv(o, i):
            return g.normal(0, np.sqrt(2.0 / (7 * i)), (o, i, 3, 3)) * HEX_KERNEL_MASK, np.zeros(o)

        a = {}
        a["stem_w"], a["stem_b"] = conv(channels, NUM_PLANES)
        for i in range(blocks):
            for j in (1, 2):
                a[f"block{i}_{j}_w"], a[f"block{i}_{j}_b"] = conv(channels, channels)
        a["policy_w"], a["policy_b"] = g.normal(0, 0.01, (NUM_CELL_CHANNELS, channels)), np.zeros(NUM_CELL_CHANNELS)
        a["global_w"], a["global_b"] = g.normal(0, 0.01, (NUM_GLOBAL_ACTIONS, channels)), np.zeros(NUM_GLOBAL_ACTIONS)
        a["value1_w"], a["value1_b"] = g.normal(0, np.sqrt(2.0 / channels), (hidden, channels)), np.zeros(hidden)
        a["value2_w"], a["value2_b"] = g.normal(0, 0.01, (1, hidden)), np.zeros(1)
        return cls(a)

    @classmethod
    def load(cls, path) -> PlanesNet:
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as f:
                arrays = {k: f[k] for k in f.files}
        except (OSError, ValueError, EOFError) as exc:
            raise PlanesNetError(f"{path}: not a planes network's .npz ({exc})") from None
        fmt = str(arrays.pop("format", ""))
        if fmt != FORMAT:
            raise PlanesNetError(f"{path}: format {fmt!r}, expected {FORMAT!r}")
        planes = tuple(str(p) for p in arrays.pop("planes", ()))
        if planes != PLANE_NAMES:
            raise PlanesNetError(f"{path}: trained on other planes ({len(planes)} planes, these are {NUM_PLANES})")
        missing = [k for k in ("stem_w", "policy_w", "global_w", "value1_w", "value2_w") if k not in arrays]
        if missing:
            raise PlanesNetError(f"{path}: missing {missing[0]}")
        net = cls(arrays)
        shapes = {
            "stem_w": (net.channels, NUM_PLANES, 3, 3),
            "policy_w": (NUM_CELL_CHANNELS, net.channels),
            "global_w": (NUM_GLOBAL_ACTIONS, net.channels),
        }
        for k, shape in shapes.items():
            if net.arrays[k].shape != shape:
                raise PlanesNetError(f"{path}: {k} has shape {net.arrays[k].shape}, expected {shape}")
        return net

    def save(self, path) -> None:
        np.savez(path, format=np.array(FORMAT), planes=np.array(PLANE_NAMES), **self.arrays)

    def trunk(self, planes: np.ndarray) -> np.ndarray:
        """The trunk's output (batch, channels, rows, cols)."""
        out = np.zeros((len(planes), self.channels, AXIAL_ROWS, AXIAL_COLS), dtype=np.float32)
        for n in range(len(planes)):
            x = self._one(_padded(planes[n]))
            out[n] = x.reshape(-1, AXIAL_ROWS + 2, _PW)[:, 1:-1, 1:-1]
        return out

    def _one(self, x: np.ndarray) -> np.ndarray:
        t = self._tapped
        if t is None:
            a = self.arrays
            t = self._tapped = [(_taps(a["stem_w"]), a["stem_b"])] + [
                (_taps(a[f"block{i}_{j}_w"]), a[f"block{i}_{j}_b"]) for i in range(self.blocks) for j in (1, 2)
            ]
            self._buffers = [np.zeros((self.channels, _PADDED), np.float32) for _ in range(3)]
        h, y, z = self._buffers
        _conv(x, t[0][0], t[0][1], True, h)
        for i in range(self.blocks):
            _conv(h, *t[1 + 2 * i], True, y)
            _conv(y, *t[2 + 2 * i], False, z)
            np.maximum(h + z, 0.0, out=h)
        return h.copy()

    def forward(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(logits (batch, NUM_SLOTS), value (batch,))`` of a batch of planes."""
        a = self.arrays
        x = self.trunk(np.asarray(planes, dtype=np.float32))
        pooled = x.sum(axis=(2, 3)) / _MAP_HEXES
        cells = (np.einsum("oc,bchw->bohw", a["policy_w"], x) + a["policy_b"][None, :, None, None]) * ON_GRID
        glob = pooled @ a["global_w"].T + a["global_b"]
        logits = np.concatenate([cells.reshape(len(x), -1), glob], axis=1)
        h = np.maximum(pooled @ a["value1_w"].T + a["value1_b"], 0.0)
        value = np.tanh(h @ a["value2_w"].T + a["value2_b"])[:, 0]
        return logits, value


assert NUM_SLOTS == NUM_CELL_CHANNELS * AXIAL_ROWS * AXIAL_COLS + NUM_GLOBAL_ACTIONS

SPEC_PARAMS = {
    "path": Param("path", None, doc="the network's .npz written by training/train_planes.py"),
    "temperature": Param(
        "float", 0.0, 0.0, 100.0, doc="0: the highest logit; else sampled from softmax(logit / temperature)"
    ),
}


class PlanesAgent(Agent):
    """Plays by a :class:`PlanesNet` without search: the legal action with the
    highest logit (``temperature`` > 0: sampled with the agent's own
    generator).  Set-up phases (3.2, 3.3, D21): the scripted deployment plan,
    as ``learned``."""

    name = "planes"
    policy_id = None

    SPEC_PARAMS = SPEC_PARAMS

    def __init__(
        self, seed: int | None = None, path: str | None = None, temperature: float = 0.0, net: PlanesNet | None = None
    ):
        if net is None:
            if not path:
                raise ValueError("planes needs path=WEIGHTS.npz (training/train_planes.py writes one)")
            net = PlanesNet.load(path)
        if not (temperature >= 0.0 and np.isfinite(temperature)):
            raise ValueError(f"temperature must be a finite number >= 0, got {temperature!r}")
        self.net, self.temperature = net, float(temperature)
        self._planes = np.zeros((1, NUM_PLANES, AXIAL_ROWS, AXIAL_COLS), dtype=np.float32)
        self._scratch = np.zeros(2 * NUM_CELLS, np.int64)
        self._marks = np.zeros(NUM_CELLS, np.int8)
        self._slots = np.zeros(NUM_ACTIONS, np.int64)
        self._work = None
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        self._setup_rng = agent_generator(seed)

    def policy(self, info_state, mask, side) -> tuple[np.ndarray, np.ndarray, float]:
        """``(legal actions, their logits, the value)`` at ``side``'s information state."""
        return self._policy(*checked_act_arguments(info_state, mask, side), side)

    def _policy(self, o, m, side):
        encode_planes(o[0], int(side), self._scratch, self._marks, self._planes[0])
        action_slots(o[0], self._slots)
        logits, value = self.net.forward(self._planes)
        acts = np.flatnonzero(m)
        return acts, logits[0, self._slots[acts]], float(value[0])

    def act(self, info_state, mask, side) -> int:
        o, m = checked_act_arguments(info_state, mask, side)
        if int(o[0]["phase"]) in (PHASE_Z_SETUP, PHASE_T_SETUP):
            from .scripted import make_work, scripted_decide

            if self._work is None:
                self._work = make_work()
            return int(scripted_decide(o[0], m, int(side), self._setup_rng, 0, *self._work))
        acts, z, _ = self._policy(o, m, side)
        if len(acts) == 1 or self.temperature == 0.0:
            return int(acts[int(np.argmax(z))])
        p = np.exp((z - z.max()) / self.temperature)
        return int(acts[int(self._rng.choice(len(acts), p=p / p.sum()))])

    def __repr__(self) -> str:
        return f"PlanesAgent(temperature={self.temperature})"
