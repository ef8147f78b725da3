"""HotspotVectorEnv: N games of Hot Spot stepped in one compiled call.

A ``gymnasium.vector.VectorEnv`` whose ``step`` advances every game, the
learner's action and the compiled opponent's replies, in one parallel numba
call over the batched state array (``episodes.vector_step``), not a loop of
Python environments.

Spaces, observation (``observation="full"``, ``"compact"``, ``"flat"`` or
``"image"``), reward (shaping included: ``reward_shaping``,
``shaping_gamma``), termination, truncation, illegal actions and arguments
are those of ``HotspotEnv`` (one file up), batched along the first axis: a
game stopped after turn ``max_turns`` (default
``hotspot.core.limits.DEFAULT_MAX_TURNS``; None: no limit, 5.0) has
``truncated`` True, ``terminated`` False and reward 0 (no winner, D19
revised); masks are ``info["action_mask"]`` (shape ``(num_envs,
NUM_ACTIONS)``, 578) and ``action_masks()``.

Autoreset is Gymnasium's default, next-step (``AutoresetMode.NEXT_STEP``): the
step after a game ends resets it, ignores its action and returns its first
observation with reward 0.  Between its end and that step the game's mask
row holds exactly one legal action, ``RESET_ACTION`` (the end-phase
action, ``hotspot.core.actions.A_END_PHASE``), so that no mask row is ever
empty and a masked sampler never divides by zero; whatever action the
reset step is given is ignored.

Illegal actions: with ``illegal_action="lose"`` (the default) a game whose
action is illegal ends as a loss for the learner (reward -1, terminated,
its state as it was; ``info["illegal_action"][i]`` True and the reason in
``info["illegal_reason"][i]``, a key present only on steps with an illegal
action) while the other games step as usual; with ``"raise"`` an illegal
action in any game raises ``IllegalActionError`` naming the game, and no
game changes.

The opponent must be a compiled policy (a built-in name, or an ``Agent``
with a ``policy_id``).  ``reset(seed=s)`` seeds game ``i`` as
``HotspotEnv.reset(seed=s + i)`` would, so the vector env agrees game for
game with N single envs; ``reset(seed=[s0, s1, ...])`` gives each game its
own seed (one a game).  A seed that is not a non-negative integer raises
``ValueError`` before anything changes.  ``step`` takes an integer array of
shape ``(num_envs,)`` (else ``ValueError``).

Two arguments are the vector env's own, for throughput:

``copy`` (default False): the arrays ``step`` and ``reset`` return
    (observations, rewards, terminated, truncated, ``info["action_mask"]``)
    are the env's own buffers, rewritten in place by the next ``step`` or
    ``reset``, as Gymnasium's vector envs do with ``copy=False``.  Keep what
    you need (``np.copy``) before stepping again, or pass ``copy=True`` for
    fresh arrays each step (one copy of the whole batch per step).  The
    ``"flat"`` and ``"image"`` forms are new arrays each step.
``observation="compact"`` leaves out the hex planes (``board``) and returns
    only the ``units``, ``pieces`` and ``globals`` tables (about a fifth of
    the bytes, and the planes are not computed); the tables hold every
    unit's and piece's position, so nothing the player may see is lost.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from hotspot.core.actions import NUM_ACTIONS, action_error
from hotspot.core.errors import short_repr
from hotspot.core.game import IllegalActionError
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.observation import observe
from hotspot.core.rules_data import side_index
from hotspot.core.state import STATE_DTYPE
from hotspot.features.bounds import ObservationBounds
from hotspot.features.encoding import new_observation
from hotspot.features.shaping import potential

from .episodes import RESET_ACTION, vector_reset, vector_step
from .hotspot_env import (
    ILLEGAL_ACTION_MODES,
    OBSERVATION_MODES,
    check_choice,
    check_shaping,
    illegal_reason,
    observation_form,
    observation_space,
    resolve_opponent,
    seed_to_episode,
)
from .rendering import render_state
from .templates import build_templates

__all__ = ["HotspotVectorEnv", "RESET_ACTION"]


class HotspotVectorEnv(VectorEnv):
    metadata = {"render_modes": ["ansi", "rgb_array"], "autoreset_mode": AutoresetMode.NEXT_STEP}
    #: the one legal action of a game between its episode's end and its reset
    RESET_ACTION = RESET_ACTION

    def __init__(
        self,
        num_envs: int = 8,
        side="technocrat",
        opponent="random",
        scenario="standard",
        rules=None,
        fog=True,
        render_mode=None,
        random_pool: int = 256,
        max_turns: int | None = DEFAULT_MAX_TURNS,
        copy: bool = False,
        observation: str = "full",
        illegal_action: str = "lose",
        reward_shaping: float = 0.0,
        shaping_gamma: float = 0.99,
    ):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        self.observation = check_choice("observation", observation, OBSERVATION_MODES)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        self.reward_shaping, self.shaping_gamma = check_shaping(reward_shaping, shaping_gamma)
        if not isinstance(copy, (bool, np.bool_)):
            raise ValueError(f"copy must be True or False, got {short_repr(copy)}")
        self.num_envs = int(num_envs)
        self.copy = bool(copy)
        self._with_board = observation != "compact"
        self.side = side_index(side)
        policy, agent = resolve_opponent(opponent)
        if agent is not None:
            if agent.policy_id is None:
                raise ValueError(
                    "the vector env's opponent must be compiled: a built-in name or an Agent with a "
                    f"policy_id; {agent!r} has none (use HotspotEnv for Python opponents)"
                )
            policy = agent.policy_id
        self.policy = policy
        self.fog = bool(fog)
        self.render_mode = render_mode
        self.templates = build_templates(scenario, rules, random_pool, max_turns)
        self.max_turns = max_turns
        self.bounds = ObservationBounds(self.templates)
        self.single_observation_space = observation_space(self.bounds, self.observation)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        self.states = np.zeros(n, dtype=STATE_DTYPE)
        self.seeds = np.zeros(n, dtype=np.uint64)
        self.opp_rng = np.zeros(n, dtype=np.uint64)
        self.needs_reset = np.zeros(n, dtype=np.bool_)
        self.masks = np.zeros((n, NUM_ACTIONS), dtype=np.bool_)
        self.rewards = np.zeros(n, dtype=np.float64)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.illegal = np.zeros(n, dtype=np.bool_)
        self._potential = np.zeros(n, dtype=np.float64)
        self._scratch = np.zeros(n, dtype=STATE_DTYPE)
        self._obs = new_observation(n, compact=not self._with_board)
        self._board = self._obs["board"] if self._with_board else np.zeros((n, 0, 0, 0), dtype=np.int8)
        self._started = False

    def reset(self, *, seed=None, options=None):
        # every seed is checked (ValueError) before anything changes
        if isinstance(seed, (list, tuple, np.ndarray)):
            if (isinstance(seed, np.ndarray) and seed.ndim != 1) or len(seed) != self.num_envs:
                raise ValueError(
                    f"seed: a list of seeds holds one seed a game ({self.num_envs}), got "
                    f"{'shape ' + str(np.shape(seed)) if isinstance(seed, np.ndarray) else len(seed)}"
                )
            episodes = [seed_to_episode(x) for x in seed]
            super().reset(seed=int(seed[0]))
        else:
            if seed is not None:
                seed_to_episode(seed)
            super().reset(seed=None if seed is None else int(seed))
            if seed is None:
                seed = int(self.np_random.integers(2**62))
            episodes = [seed_to_episode(int(seed) + i) for i in range(self.num_envs)]
        for i, e in enumerate(episodes):
            self.seeds[i] = e
        self.needs_reset[:] = False
        self.illegal[:] = False
        o = self._obs
        vector_reset(
            self.states,
            self.templates,
            self.seeds,
            self.side,
            self.policy,
            self.opp_rng,
            self.fog,
            self._with_board,
            self.masks,
            self._scratch,
            self._board,
            o["units"],
            o["pieces"],
            o["globals"],
        )
        if self.reward_shaping:
            self._potential[:] = potential(self.states, self.side)
        self._started = True
        return self._observation(), self._info()

    def step(self, actions):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        try:
            actions = np.asarray(actions)
        except (ValueError, TypeError, OverflowError) as exc:  # ragged lists and the like
            raise ValueError(f"actions must be {self.num_envs} integers, got {short_repr(actions)} ({exc})") from None
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} integers, got shape {actions.shape} dtype {actions.dtype}"
            )
        actions = actions.astype(np.int64)
        resetting = self.needs_reset.copy()
        o = self._obs
        bad = vector_step(
            self.states,
            actions,
            self.templates,
            self.seeds,
            self.needs_reset,
            self.side,
            self.policy,
            self.opp_rng,
            self.fog,
            self._with_board,
            self.illegal_action == "lose",
            self.rewards,
            self.terminated,
            self.truncated,
            self.illegal,
            self.masks,
            self._scratch,
            self._board,
            o["units"],
            o["pieces"],
            o["globals"],
        )
        if bad >= 0:
            s = self.states[bad]
            a = int(actions[bad])
            raise IllegalActionError(
                a,
                int(action_error(s, a)),
                f"game {bad}: {illegal_reason(s, a, int(action_error(s, a)))}; no game was changed",
            )
        info = self._info()
        if self.illegal.any():
            reasons = np.full(self.num_envs, "", dtype=object)
            for i in np.flatnonzero(self.illegal):
                a = int(actions[i])
                reasons[i] = illegal_reason(self.states[i], a, int(action_error(self.states[i], a)))
            info["illegal_reason"] = reasons
            info["_illegal_reason"] = self.illegal.copy()
        if self.reward_shaping:
            # potential-based shaping (HotspotEnv): 0 on a reset step, the potential of a terminal state is 0
            after = np.where(self.terminated, 0.0, potential(self.states, self.side))
            shaping = np.where(resetting, 0.0, self.reward_shaping * (self.shaping_gamma * after - self._potential))
            self._potential[:] = after
            self.rewards += shaping
            info["shaping"] = shaping
            info["_shaping"] = np.ones(self.num_envs, dtype=np.bool_)
        if self.copy:
            return (self._observation(), self.rewards.copy(), self.terminated.copy(), self.truncated.copy(), info)
        return self._observation(), self.rewards, self.terminated, self.truncated, info

    def action_masks(self) -> np.ndarray:
        return self.masks.copy()

    def information_states(self) -> np.ndarray:
        """The learner's information state of each game (shape ``(num_envs,)``,
        the state dtype; D20 fog unless ``fog=False``): what ``observe``
        gives, for agents and features that read the record (the per-action
        features of ``hotspot.features.actions``), as the single env's
        ``Game.observation`` does.  A new array each call."""
        out = np.empty(self.num_envs, dtype=STATE_DTYPE)
        for i in range(self.num_envs):
            observe(self.states[i], self.side, self.fog, out[i])
        return out

    def render(self):
        if self.render_mode is None:
            return None
        return tuple(render_state(self.states[i], self.render_mode) for i in range(self.num_envs))

    def _observation(self):
        if self.observation in ("flat", "image"):
            return observation_form(self.bounds, self.observation, self._obs)
        if self.copy:
            return {k: v.copy() for k, v in self._obs.items()}
        return dict(self._obs)

    def _info(self) -> dict:
        n = self.num_envs
        return {
            "action_mask": self.masks.copy() if self.copy else self.masks,
            "_action_mask": np.ones(n, dtype=np.bool_),
            "turn": self.states["turn"].astype(np.int64),
            "_turn": np.ones(n, dtype=np.bool_),
            "illegal_action": self.illegal.copy() if self.copy else self.illegal,
            "_illegal_action": np.ones(n, dtype=np.bool_),
        }
