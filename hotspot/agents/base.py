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

from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.state import STATE_DTYPE

# The ids of the compiled policies (``hotspot.agents.policies.policy_action``
# dispatches on them inside compiled loops: numba needs a static call, so a
# new compiled policy adds its id here and its branch there).
POLICY_RANDOM = 0
POLICY_SCRIPTED = 1
POLICY_NAMES = ("random", "scripted")
# Expert iteration's own compiled games (hotspot.agents.expert.record_games)
# also name the ISMCTS search by an id; it is not one of the policies above.
POLICY_ISMCTS = 2


class Agent:
    """Base class.  Subclasses implement :meth:`act`."""

    name = "agent"
    policy_id: int | None = None  # compiled policy (hotspot.agents.policies) if any
    seats: tuple = (0, 1)  # the sides it can play (ZIEGLER, TECHNOCRAT); a one-side model plays one

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; ``seed`` fixes the agent's own randomness."""

    def act(self, info_state: np.ndarray, mask: np.ndarray, side: int) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def agent_generator(seed: int | None):
    """An agent's own generator state (``rng[slot]`` of the compiled
    decisions, ``core.dice.splitmix64``): ``seed`` modulo 2**64, or a fresh
    seed from the operating system when None."""
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    return np.array([int(seed) & ((1 << 64) - 1)], dtype=np.uint64)


def checked_act_arguments(info_state, mask, side):
    """``Agent.act``'s arguments checked before compiled code sees them:
    returns ``(o, m)``, the information state as a (1,) state array and the
    mask as a contiguous bool array of ``NUM_ACTIONS``; a clear
    ``TypeError``/``ValueError`` names what is wrong otherwise."""
    o = np.asarray(info_state)
    if o.dtype != STATE_DTYPE:
        raise TypeError("info_state must be a state record (Game.observation(side))")
    o = o.reshape(-1)
    if o.shape != (1,):
        raise ValueError("info_state must be one state record")
    m = np.ascontiguousarray(mask, dtype=np.bool_)
    if m.shape != (NUM_ACTIONS,):
        raise ValueError(f"mask must have shape ({NUM_ACTIONS},), got {m.shape}")
    if not m.any():
        raise ValueError("no legal action to choose from")
    if side not in (0, 1):
        raise ValueError(f"side must be 0 (Ziegler) or 1 (Technocrat), got {side!r}")
    return o, m
