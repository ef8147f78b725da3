"""One interface for every agent (random, scripted, search, learned).

An agent sees what its side may see and nothing more: each decision it is
given the *information state* of its side (``Game.observation(side)``, D20
fog unless the game's observer options say otherwise), the legal-action mask
and the side, and returns an action index.  Agents with a compiled policy
(``policy_id`` not None) can also run inside the compiled batch rollouts and
the vector environment's compiled step.
"""
from __future__ import annotations

import numpy as np

# The ids of the compiled policies (``hotspot.agents.policies.policy_action``
# dispatches on them inside compiled loops: numba needs a static call, so a
# new compiled policy adds its id here and its branch there).
POLICY_RANDOM = 0
POLICY_SCRIPTED = 1
POLICY_ISMCTS = 2  # the ismcts agent at its default parameters (hotspot.agents.ismcts)
POLICY_NAMES = ("random", "scripted", "ismcts")


class Agent:
    """Base class.  Subclasses implement :meth:`act`."""

    name = "agent"
    policy_id: int | None = None  # compiled policy (hotspot.agents.policies) if any

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; ``seed`` fixes the agent's own randomness."""

    def act(self, info_state: np.ndarray, mask: np.ndarray, side: int) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
