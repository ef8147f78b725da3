"""The learned agent: a small MLP policy per side (sb3-contrib MaskablePPO's
masked actor-critic), trained by behaviour cloning of the scripted player with
DAgger in games against the compiled opponents (PPO fine-tuning optional),
run here with numpy only (no torch).

Training (``benchmarks/train_learned.py``, extra ``pip install ".[train]"``)
exports one network per side to ``hotspot/agents/weights/learned_<side>.npz``:
plain arrays ``W0, b0, W1, b1, ..., Wpi, bpi`` (hidden layers with tanh, then
the action logits), plus ``obs_dim`` and ``num_actions``.

Each decision the agent encodes its information state exactly as the
Gymnasium environment encodes its observation (``encode_info_state`` on the
``observe`` record, D20), turns it into the flat feature vector of
:func:`features` (the same function the training wrapper uses), runs the MLP,
masks the illegal actions and plays the most likely action
(``deterministic=False``: samples from the masked softmax with its own seeded
generator instead).

Set-up phases and the old action space (3.2, 3.3, D21): the shipped networks
were trained before the set-up phases existed, on the 242 actions of the
phases of play (``NUM_PLAY_ACTIONS``) and on 7442 features (the phase
one-hot of 9 phases; the turn-limit global then always 15, the rules' turn
limit of the time).  So in a set-up phase the agent plays the scripted
player's deployment plan (``hotspot.agents.scripted.setup``, with a generator
seeded from the agent's seed); in the phases of play it feeds such a legacy
network the features it was trained on (:func:`features`: the globals up
to the phase one-hot of phases 0-8, the set-up phases' one-hots and the
set-up globals, never set in play, left out; the turn-limit global held at
15) and chooses among the legal actions its head covers (the set-up actions
are never legal there).

Loop avoidance: back in a position it has already met this game (the same
observation, the action counter aside: a piece selected and deselected), the
agent does not repeat an action it took there unless nothing else is legal.
A greedy network can otherwise select and deselect the same counter for ever;
this bounds such a shuffle to the legal actions of the position.  The memory
is cleared by ``reset``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from hotspot.core.rules_data import PHASE_T_SETUP, PHASE_Z_SETUP, SIDE_NAMES
from hotspot.features.encoding import GLOBAL_FEATURES, encode_info_state, new_observation

from .base import Agent

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"

# fixed scale of the globals: turn, max_turns, platform turns, side, to move,
# result, truncated, actions so far (/1000), phase one-hot
_GLOBAL_SCALE = np.ones(len(GLOBAL_FEATURES), dtype=np.float32)
_GLOBAL_SCALE[:3] = 1.0 / 16.0
_GLOBAL_SCALE[GLOBAL_FEATURES.index("actions")] = 1.0 / 1000.0
# The shipped weights were trained when this global was the rules option
# turn_limit, always 15.  It is now a harness's max_turns (D19 revised: 0 for
# none, 200 by default), which says nothing about the position; the features
# keep the constant the weights were trained on, so that the policy's inputs
# do not depend on the harness's setting.
_MAX_TURNS = GLOBAL_FEATURES.index("max_turns")
_TRAINED_MAX_TURNS_FEATURE = np.float32(15.0)
# The weights were also trained before the set-up phases (D21) were phases:
# their globals end with the one-hot of phases 0-8 (A-H, over).  The one-hots
# of the set-up phases (9, 10) are left out of the features: the learned
# player plays from set positions only, where they are always 0.
_TRAINED_GLOBALS = GLOBAL_FEATURES.index("phase_8") + 1
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
             (np.asarray(obs["globals"]).astype(np.float32) * _GLOBAL_SCALE)[..., :_TRAINED_GLOBALS]]
    parts[-1][..., _MAX_TURNS] = _TRAINED_MAX_TURNS_FEATURE * _GLOBAL_SCALE[_MAX_TURNS]
    return np.concatenate(parts, axis=-1)


def feature_size() -> int:
    """The length of the :func:`features` vector."""
    return int(features(new_observation()).shape[-1])


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
        self.num_actions = self.head[0].shape[0]  # NUM_PLAY_ACTIONS for the shipped weights
        if self.obs_dim != feature_size():
            raise ValueError(f"{path}: the network takes {self.obs_dim} inputs, the features have "
                             f"{feature_size()} (weights from another encoding version)")

    def logits(self, x: np.ndarray) -> np.ndarray:
        h = np.asarray(x, dtype=np.float32)
        for W, b in self.layers:  # torch Linear layout: W is (out, in)
            h = np.tanh(h @ W.T + b)
        W, b = self.head
        return h @ W.T + b


def masked_logits(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.where(np.asarray(mask, dtype=bool), logits, -np.inf)


_ACTIONS_FEATURE = GLOBAL_FEATURES.index("actions")


def _position_key(obs: dict) -> bytes:
    """The observation as bytes, without the action counter."""
    g = obs["globals"].copy()
    g[_ACTIONS_FEATURE] = 0
    return b"".join((obs["board"].tobytes(), obs["units"].tobytes(), obs["pieces"].tobytes(), g.tobytes()))


class LearnedAgent(Agent):
    """The trained policy of each side, evaluated in numpy (greedy by default)."""

    name = "learned"
    policy_id = None

    def __init__(self, seed: int | None = None, deterministic: bool = True, weights_dir=None):
        self.deterministic = bool(deterministic)
        self.weights_dir = Path(weights_dir) if weights_dir is not None else WEIGHTS_DIR
        self._nets: dict[int, NumpyPolicy] = {}
        self._obs = new_observation()
        self._work = None  # the scripted player's buffers, for the set-up phases
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        # the scripted deployment plan's generator (set-up phases, D21)
        self._setup_rng = np.array([self._rng.integers(0, 2**63, dtype=np.uint64)
                                    if seed is None else np.uint64(int(seed) & (2**64 - 1))],
                                   dtype=np.uint64)
        self._tried: dict[bytes, set[int]] = {}

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
        encode_info_state(o, int(side), True, obs["board"], obs["units"], obs["pieces"], obs["globals"])
        return obs

    def action_logits(self, info_state, side: int) -> np.ndarray:
        """The network's logits: one per action its head covers (``NUM_PLAY_ACTIONS``
        for the shipped weights)."""
        net = self.net(side)
        return net.logits(features(self.observation(info_state, side)))

    def _setup_act(self, o, mask, side) -> int:
        """3.2, 3.3, D21: the scripted deployment plan (the network knows no set-up)."""
        from .scripted import make_work, scripted_decide
        if self._work is None:
            self._work = make_work()
        a = int(scripted_decide(o, np.ascontiguousarray(mask, dtype=np.bool_), int(side),
                                self._setup_rng, 0, *self._work))
        if a < 0 or not mask[a]:  # cannot happen: the plan returns a legal action
            raise RuntimeError(f"the set-up plan chose the illegal action {a}")
        return a

    def act(self, info_state, mask, side) -> int:
        mask = np.asarray(mask, dtype=bool)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal action to choose from")
        o = info_state[0] if getattr(info_state, "shape", None) == (1,) else info_state
        if int(o["phase"]) in (PHASE_Z_SETUP, PHASE_T_SETUP):
            return self._setup_act(o, mask, side)
        net = self.net(side)
        covered = legal[legal < net.num_actions]
        if covered.size == 0:  # only actions the network has no output for
            raise ValueError(f"no legal action among the network's {net.num_actions} actions")
        legal = covered
        obs = self.observation(o, side)
        tried = self._tried.setdefault(_position_key(obs), set())
        fresh = legal[~np.isin(legal, list(tried))] if tried else legal
        if fresh.size:
            legal = fresh
        logits = net.logits(features(obs))[legal].astype(np.float64)
        if self.deterministic:
            a = int(legal[int(np.argmax(logits))])
        else:
            p = np.exp(logits - logits.max())
            p /= p.sum()
            a = int(legal[int(self._rng.choice(legal.size, p=p))])
        tried.add(a)
        return a

    def __repr__(self) -> str:
        return f"LearnedAgent(deterministic={self.deterministic})"
