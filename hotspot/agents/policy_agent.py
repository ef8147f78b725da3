"""Any function ``(observation, mask) -> action`` as an agent: a model trained
on the environments enters the arena, ``hotspot evaluate`` and ``hotspot
play`` through this.

>>> from hotspot.agents import PolicyAgent
>>> agent = PolicyAgent(lambda obs, mask: int(mask.nonzero()[0][0]), observation="flat")

Each decision the agent builds the observation its side's environment would
return for the position (``hotspot.features.observations.observe_info_state``,
the function the environments use: the same form, the same normalisation,
D20's fog), calls ``fn(observation, mask)`` with the legal-action mask (a
bool array of the 578 actions) and plays what it returns.  An action that is
not legal is refused with :class:`IllegalPolicyAction` naming it (the arena
reports the game's task as failed; nothing is written for it).

``observation="learner"`` is the observation of ``hotspot.env.LearnerEnv``
(``hotspot.features.learner``): ``fn`` gets that env's observation and
mask (fixed unit and piece slots, pruned actions) and its action is mapped
back through the same slots, as in the env.

``setup="scripted"`` plays the set-up phases (3.2, 3.3, D21) by the scripted
deployment plan instead of ``fn``, as the ``learned`` agent does and as
``LearnerEnv`` does for its learner (the default there and here with
``observation="learner"``); ``"policy"``: ``fn`` plays them.
"""

from __future__ import annotations

import numpy as np

from hotspot.core.rules_data import PHASE_CONTROL, PHASE_T_SETUP, PHASE_Z_SETUP
from hotspot.features.bounds import ObservationBounds
from hotspot.features.learner import SlotMap, learner_observation, prune_mask
from hotspot.features.observations import OBSERVATION_MODES, observe_info_state

from .base import Agent, agent_generator, checked_act_arguments

#: who plays a PolicyAgent's set-up phases (3.2, 3.3, D21)
SETUP_MODES = ("policy", "scripted")
#: the observation forms a PolicyAgent builds: the environments' and LearnerEnv's
POLICY_OBSERVATIONS = (*OBSERVATION_MODES, "learner")


class IllegalPolicyAction(ValueError):
    """A policy chose an action that is not legal."""


class PolicyAgent(Agent):
    """``fn(observation, mask) -> action`` as an agent.

    Args:
        fn: a callable taking the observation (form ``observation``) and the
            legal-action mask, returning an action index (an int or a numpy
            integer).
        observation: the environments' observation form the function was
            trained on: ``"full"``, ``"compact"``, ``"flat"``, ``"image"``
            (``HotspotEnv``) or ``"learner"`` (``LearnerEnv``).
        bounds: the ``ObservationBounds`` of the environment trained on
            (``env.unwrapped.bounds``); None takes them from each game's
            first information state (the same for every scenario whose forces
            are at most the rulebook's and the same ``max_turns``).
        setup: ``"policy"`` (``fn`` plays the set-up phases too) or
            ``"scripted"`` (the scripted deployment plan does, D21); None
            (the default): ``"scripted"`` for ``observation="learner"``,
            else ``"policy"``.
        name: the agent's name in tables (default ``"policy"``).
    """

    policy_id = None

    def __init__(self, fn, observation: str = "flat", *, bounds=None, setup: str | None = None, name: str = "policy"):
        if not callable(fn):
            raise TypeError(f"PolicyAgent needs a callable (observation, mask) -> action, got {type(fn).__name__}")
        if observation not in POLICY_OBSERVATIONS:
            raise ValueError(f"observation must be one of {list(POLICY_OBSERVATIONS)}, got {observation!r}")
        if setup is None:
            setup = "scripted" if observation == "learner" else "policy"
        if setup not in SETUP_MODES:
            raise ValueError(f"setup must be one of {list(SETUP_MODES)}, got {setup!r}")
        if bounds is not None and not isinstance(bounds, ObservationBounds):
            raise TypeError("bounds must be an ObservationBounds (env.unwrapped.bounds) or None")
        self.fn = fn
        self.observation = observation
        self.setup = setup
        self.name = name
        self._fixed_bounds = bounds
        self._bounds = bounds
        self._work = None
        self._slots = {}
        self.reset(None)

    def reset(self, seed: int | None = None) -> None:
        self._setup_rng = agent_generator(seed)
        self._bounds = self._fixed_bounds
        for slots in self._slots.values():
            slots.reset()

    def _slot_map(self, side: int) -> SlotMap:
        if side not in self._slots:
            self._slots[side] = SlotMap(side)
        return self._slots[side]

    def observe(self, info_state, side: int):
        """The observation ``fn`` gets at ``side``'s information state (a
        state record as ``Game.observation(side)`` gives it)."""
        o = np.asarray(info_state).reshape(-1)
        if self.observation == "learner":
            return learner_observation(o[0], side, self._slot_map(side))
        if self._bounds is None:
            self._bounds = ObservationBounds(o)
        return observe_info_state(o, side, self.observation, self._bounds)

    def act(self, info_state, mask, side) -> int:
        o, m = checked_act_arguments(info_state, mask, side)
        if self.setup == "scripted" and int(o[0]["phase"]) in (PHASE_Z_SETUP, PHASE_T_SETUP):
            from .scripted import make_work, scripted_decide

            if self._work is None:
                self._work = make_work()
            return int(scripted_decide(o[0], m, int(side), self._setup_rng, 0, *self._work))
        slots = None
        fn_mask = m.copy()
        if self.observation == "learner" and int(o[0]["phase"]) <= PHASE_CONTROL:
            slots = self._slot_map(int(side))
            slots.update(o[0])
            fn_mask = slots.mask(prune_mask(o[0], m))
        action = self.fn(self.observe(o, side), fn_mask)
        action = np.asarray(action).reshape(-1)
        if action.size != 1 or not (np.issubdtype(action.dtype, np.integer) and action.dtype != np.bool_):
            raise IllegalPolicyAction(f"{self.name}: the policy returned {action!r}, not one action index")
        a = int(action[0])
        if slots is not None and 0 <= a < len(m):
            a = slots.to_core(a)
        if not (0 <= a < len(m)) or not m[a]:
            raise IllegalPolicyAction(f"{self.name}: the policy chose action {a}, which is not legal here")
        return a

    def __repr__(self) -> str:
        return f"PolicyAgent({getattr(self.fn, '__name__', type(self.fn).__name__)}, observation={self.observation!r})"


class SeatModelsAgent(PolicyAgent):
    """A model file's network a seat as a ``PolicyAgent`` (``sb3(path=...)``,
    ``rllib(path=...)``): ``models[side].scores(observation)`` scores every
    action for ``side``; the agent plays the best-scored legal action
    (``deterministic``, or a model whose ``greedy`` is true: Q-values) or one
    drawn from the softmax of the legal actions' scores by its own seeded
    generator.  A side with no model is refused by :meth:`missing_seat`."""

    def __init__(self, models: dict, observation: str, *, setup: str, deterministic: bool, name: str):
        self.models = {int(side): m for side, m in models.items()}
        self.seats = tuple(sorted(self.models))
        self.deterministic = bool(deterministic)
        self._acting = self.seats[0] if self.seats else 0
        super().__init__(self._decide, observation, setup=setup, name=name)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._rng = np.random.default_rng(seed)

    def missing_seat(self, side: int) -> Exception:
        """The error for a seat this agent has no model for."""
        return ValueError(f"{self.name}: no model for side {side}")

    def act(self, info_state, mask, side) -> int:
        if int(side) not in self.models:
            raise self.missing_seat(int(side))
        self._acting = int(side)
        return super().act(info_state, mask, side)

    def scores(self, observation, side: int | None = None) -> np.ndarray:
        """The score of every action at ``observation`` by the model of
        ``side`` (default: the seat acting now)."""
        return self.models[self._acting if side is None else int(side)].scores(observation)

    def _decide(self, observation, mask) -> int:
        model = self.models[self._acting]
        z = model.scores(observation)
        legal = np.flatnonzero(mask)
        zl = z[legal]
        if self.deterministic or getattr(model, "greedy", False):
            return int(legal[int(np.argmax(zl))])
        p = np.exp(zl - zl.max())
        return int(legal[int(self._rng.choice(len(legal), p=p / p.sum()))])


__all__ = ["IllegalPolicyAction", "POLICY_OBSERVATIONS", "PolicyAgent", "SETUP_MODES"]
