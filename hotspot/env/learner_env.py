"""LearnerEnv: HotspotEnv as a stock RL library can learn it.

A stock ``MaskablePPO("MlpPolicy")`` won no game as Technocrat against
``random`` in ten minutes on ``HotspotEnv``'s ``flat`` observation
(docs/training.md "Stock RL"): a random
Technocrat never wins on ``open`` (0 of 100 games against a random Ziegler),
so the learner starts with no win to learn from.  ``LearnerEnv`` is the same
game with the four changes that made the difference in the measurements
(docs/training.md "Stock RL"); every action it takes is a legal move of the
rulebook's game, played by the core's one legality check.

    >>> from hotspot.env import LearnerEnv
    >>> env = LearnerEnv(side="technocrat", opponent="random")
    >>> obs, info = env.reset(seed=0)

Action space
    ``Discrete(578)`` as ``HotspotEnv``, with units and pieces addressed
    through fixed slots (``hotspot.features.learner.SlotMap``: slot 0 of
    ``select unit`` is the Technocrat's first engineer in every game).  The
    legal actions are ``info["action_mask"]`` and ``env.action_masks()``;
    with ``prune=True`` (the default) the mask leaves out splitting and
    combining, switching away from a counter that has not started its move,
    and steps onto molten rock (``hotspot.features.learner.prune_mask``).
    An action outside the mask that is legal in the game is played (the
    mask only narrows the choice); one that is illegal is handled by
    ``illegal_action`` as in ``HotspotEnv``.
Observation
    ``Box(-5, 5, (n,), float32)``, ``n`` = 1202 for the Technocrat and 1778
    for the Ziegler (``hotspot.features.learner.learner_observation``): the
    decision features, the selected counter's step directions, the own
    unit and piece slots, the Central Crustal's hexes; from the learner's
    information state only (D20).
Reward
    +1 win, -1 loss, 0 otherwise, plus potential-based shaping over the
    learner's own decisions (Ng, Harada and Russell, 1999: the optimal
    policies are unchanged): ``sum_i w_i * (gamma * Phi_i(s') - Phi_i(s))``
    with ``shaping`` the weights ``w_i`` of ``hotspot.features.shaping``'s
    potentials (default ``material`` 0.5, ``progress`` 1.0, ``central``
    1.0; ``{}`` turns shaping off), ``Phi = 0`` at the end of a game.
    ``info["shaping"]`` holds the term; ``info["outcome"]`` the game's
    +1/-1/0 at the episode's end.
Set-up
    ``setup="scripted"`` (the default): the learner's set-up (3.2, 3.3,
    D21) is played by the scripted deployment plan inside ``reset`` and
    ``step``, so the learner decides only in the phases of play (the
    observation has no set-up features); ``"policy"``: the learner plays it.
Termination, truncation, seeding, arguments
    As ``HotspotEnv`` (``side``, ``opponent``, ``scenario`` default
    ``"open"``, ``rules``, ``fog``, ``render_mode``, ``random_pool``,
    ``illegal_action``, ``max_turns``), with ``shaping`` (a dict of weights
    >= 0 by potential name), ``shaping_gamma`` (the learner's discount,
    default 0.99), ``setup`` and ``prune``.

A model trained here enters the arena by name: ``sb3(path=model.zip)``
reads the observation's length and plays through the same slots, pruning
and scripted set-up; a plain function ``(obs, mask) -> action`` through
``PolicyAgent(fn, observation="learner")``.
"""

from __future__ import annotations

import math

import numpy as np
from gymnasium import spaces

from hotspot.agents.base import agent_generator
from hotspot.agents.scripted import make_work, scripted_decide
from hotspot.core.actions import NUM_ACTIONS, current_player
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.observation import observe
from hotspot.core.rules_data import PHASE_CONTROL, PHASE_OVER
from hotspot.core.state import STATE_DTYPE
from hotspot.features.learner import LEARNER_BOUND, LEARNER_SIZE, SlotMap, learner_observation, prune_mask
from hotspot.features.shaping import POTENTIALS

from .hotspot_env import HotspotEnv, LegalDiscrete, action_index, check_choice

#: the default weights of the learner's shaping potentials
LEARNER_SHAPING = {"material": 0.5, "progress": 1.0, "central": 1.0}
SETUPS = ("scripted", "policy")


def check_weights(shaping) -> dict:
    """``shaping`` as a dict of finite weights >= 0 by potential name, or a ValueError naming what is wrong."""
    if shaping is None:
        return dict(LEARNER_SHAPING)
    if not isinstance(shaping, dict):
        raise ValueError(f"shaping must be a dict of weights by potential name {sorted(POTENTIALS)}, got {shaping!r}")
    out = {}
    for name, w in shaping.items():
        if name not in POTENTIALS:
            raise ValueError(f"shaping: unknown potential {name!r} (choose from {sorted(POTENTIALS)})")
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w < 0:
            raise ValueError(f"shaping: the weight of {name!r} must be a finite number >= 0, got {w!r}")
        if w:
            out[name] = float(w)
    return out


class LearnerEnv(HotspotEnv):
    """Hot Spot for a stock RL learner (see the module's docstring)."""

    def __init__(
        self,
        side="technocrat",
        opponent="random",
        scenario="open",
        rules=None,
        fog=True,
        render_mode=None,
        random_pool: int = 256,
        illegal_action: str = "lose",
        max_turns: int | None = DEFAULT_MAX_TURNS,
        shaping: dict | None = None,
        shaping_gamma: float = 0.99,
        setup: str = "scripted",
        prune: bool = True,
    ):
        self.shaping = check_weights(shaping)
        self.setup = check_choice("setup", setup, SETUPS)
        if not isinstance(prune, (bool, np.bool_)):
            raise ValueError(f"prune must be True or False, got {prune!r}")
        self.prune = bool(prune)
        super().__init__(
            side=side,
            opponent=opponent,
            scenario=scenario,
            rules=rules,
            fog=fog,
            render_mode=render_mode,
            random_pool=random_pool,
            illegal_action=illegal_action,
            max_turns=max_turns,
            observation="compact",
            reward_shaping=0.0,
            shaping_gamma=shaping_gamma,
        )
        n = LEARNER_SIZE[self.side]
        self.observation_space = spaces.Box(-LEARNER_BOUND, LEARNER_BOUND, shape=(n,), dtype=np.float32)
        self.slots = SlotMap(self.side)
        self._info_state = np.zeros(1, dtype=STATE_DTYPE)
        self._learner_mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        self.action_space = LegalDiscrete(NUM_ACTIONS, self._learner_mask)
        self._work = make_work()
        self._setup_rng = agent_generator(0)
        self._phi = 0.0

    # ----------------------------------------------------------- gymnasium
    def reset(self, *, seed=None, options=None):
        _, info = super().reset(seed=seed, options=options)
        self._setup_rng = agent_generator(int(self._episode_seed))
        self.slots.reset()
        info, _, _, _ = self._advance(info)
        self._phi = self._potential_now()
        return self._learner_observation(), info

    def step(self, action):
        a = chosen = action_index(action) if self._started else action
        if 0 <= a < NUM_ACTIONS and int(self.states[0]["phase"]) <= PHASE_CONTROL:
            a = self.slots.to_core(a)  # -1 for an empty slot: an illegal action
        _, reward, terminated, truncated, info = super().step(a)
        if info.get("illegal_action") and a == -1:
            info["illegal_reason"] = f"action {chosen} names an empty unit slot of LearnerEnv"
        info, more, terminated2, truncated2 = self._advance(info)
        reward += more
        terminated, truncated = terminated or terminated2, truncated or truncated2
        if terminated or truncated:
            info["outcome"] = float(reward)
        after = 0.0 if terminated else self._potential_now()
        shaping = self.shaping_gamma * after - self._phi
        self._phi = after
        info["shaping"] = shaping
        return self._learner_observation(), float(reward + shaping), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now (sb3-contrib MaskablePPO)."""
        return self._learner_mask.copy()

    # ----------------------------------------------------------- helpers
    def _observation(self):
        return None  # the learner's observation is built after the set-up is played (_learner_observation)

    def _info_now(self):
        observe(self.states[0], self.side, self.fog, self._info_state[0])
        return self._info_state[0]

    def _advance(self, info):
        """Play the learner's set-up decisions (``setup="scripted"``) until it must decide or the game ends;
        then the learner's slots and mask.  Returns ``(info, reward, terminated, truncated)``."""
        reward, terminated, truncated = 0.0, False, False
        s = self.states[0]
        while (
            not self._illegal_end
            and self.setup == "scripted"
            and int(s["phase"]) > PHASE_CONTROL
            and int(s["phase"]) != PHASE_OVER
        ):
            if int(current_player(s)) != self.side:
                break
            o = self._info_now()
            a = int(scripted_decide(o, self.mask, self.side, self._setup_rng, 0, *self._work))
            _, r, terminated, truncated, info = super().step(a)
            reward += r
            if terminated or truncated:
                break
        o = self._info_now()
        playing = int(o["phase"]) <= PHASE_CONTROL
        if playing:
            self.slots.update(o)
        mask = info["action_mask"]  # all False once the episode is over
        if playing and mask.any():
            mask = self.slots.mask(prune_mask(o, mask) if self.prune else mask)
        self._learner_mask[:] = mask
        info["action_mask"] = self._learner_mask.copy()
        return info, reward, terminated, truncated

    def _learner_observation(self):
        # the information state _advance read last (after the last action of reset or step): not observed twice
        return learner_observation(self._info_state[0], self.side, self.slots)

    def _potential_now(self) -> float:
        s = self.states[0]
        return sum(w * POTENTIALS[name](s, self.side) for name, w in self.shaping.items())


__all__ = ["LEARNER_SHAPING", "LearnerEnv"]
