"""The random agent: uniform over the legal actions (compiled: POLICY_RANDOM)."""

from __future__ import annotations

import numpy as np

from .base import Agent
from .policies import POLICY_RANDOM


class RandomAgent(Agent):
    name = "random"
    policy_id = POLICY_RANDOM

    def __init__(self, seed: int | None = None):
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def act(self, info_state, mask, side) -> int:
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal action to choose from")
        return int(self._rng.choice(legal))
