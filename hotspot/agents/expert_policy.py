"""``expert-policy``: expert iteration's policy head played without search.

Each decision of a phase of play the agent computes the decision features
(``hotspot.features.decision``) of the information state it is given (D20),
runs the policy head in numpy (``policy_net.logits``: the same function the
search runs compiled, ``policy_net.policy_choice``) and plays the legal action
with the highest logit (ties: the lowest action index).  No randomness: the
play is a function of the information state.

The set-up phases (3.2, 3.3, D21) have no outputs in the head (they are never
searched, so there are no visit counts to learn from): the agent plays the
scripted player's deployment plan there (``hotspot.agents.scripted``, as
``ismcts`` and ``learned`` do), with a generator seeded from the agent's seed.
"""

from __future__ import annotations

import numpy as np

from hotspot.core.actions import NUM_PLAY_ACTIONS
from hotspot.core.rules_data import PHASE_T_SETUP, PHASE_Z_SETUP
from hotspot.features.decision import NUM_DECISION_FEATURES, decision_features

from .base import Agent, agent_generator, checked_act_arguments
from .policy_net import EXPERT_FILE, check_policy, load_expert, logits
from .scripted import make_work, scripted_decide


class ExpertPolicyAgent(Agent):
    """The policy head's most likely legal action (see the module docstring).

    Args:
        policy: a policy head vector (``hotspot.agents.policy_net``); default:
            the shipped one (``weights/expert.npz``).
        seed: the set-up plan's generator (the only randomness).
    """

    name = "expert-policy"
    policy_id = None

    def __init__(self, seed: int | None = None, policy=None):
        self.policy = check_policy(load_expert(EXPERT_FILE)[1] if policy is None else policy)
        self._feat = np.zeros(NUM_DECISION_FEATURES, dtype=np.float64)
        self._work = None
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = agent_generator(seed)

    def action_logits(self, info_state) -> np.ndarray:
        """The head's logits (``NUM_PLAY_ACTIONS``) on information state ``info_state``."""
        decision_features(info_state, self._feat)
        return logits(self.policy, self._feat[None, :])[0]

    def act(self, info_state, mask, side) -> int:
        o, m = checked_act_arguments(info_state, mask, side)
        if int(o[0]["phase"]) in (PHASE_Z_SETUP, PHASE_T_SETUP):  # 3.2, 3.3, D21: the scripted deployment plan
            if self._work is None:
                self._work = make_work()
            a = int(scripted_decide(o[0], m, int(side), self._rng, 0, *self._work))
        else:
            legal = np.flatnonzero(m[:NUM_PLAY_ACTIONS])
            if legal.size == 0:
                raise ValueError("no legal action of the phases of play in the mask")
            z = self.action_logits(o[0])
            a = int(legal[int(np.argmax(z[legal]))])
        if a < 0 or not m[a]:  # cannot happen: every candidate comes from the mask
            raise RuntimeError(f"expert-policy chose the illegal action {a}")
        return a

    def __repr__(self) -> str:
        return f"ExpertPolicyAgent(hidden={int(self.policy[1])})"
