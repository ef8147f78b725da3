"""HotspotEnv: Hot Spot as a single-agent Gymnasium environment.

The learner plays one side; an opponent policy plays the other inside
``step`` (and ``reset``, when the opponent moves first).

Action space
    ``Discrete(NUM_ACTIONS)`` (578): the core's atomic actions (select a
    piece or unit, a maneuver or step, split/combine, resolve a combat, end a
    move, end the phase; see ``hotspot.core.actions``).  The legal actions are
    ``info["action_mask"]`` and ``env.action_masks()`` (sb3-contrib's
    MaskablePPO convention); ``env.action_space.sample()`` draws a legal one.
    An illegal action raises ``hotspot.IllegalActionError`` naming the
    reason, and the env is unchanged (``illegal_action="raise"``, the
    default); with ``illegal_action="lose"`` (pgx's convention) it ends the
    episode as a loss for the learner (reward -1, terminated) instead.  An
    action that is not an integer (an int, numpy integer or 0-d integer
    array; not a bool) raises ``TypeError`` in both modes, unchanged.
Observation
    ``Dict(board, units, pieces, globals)`` of int arrays, see
    ``hotspot.features.encoding``: hex planes for terrain, pieces, units by side
    and type, damage of own pieces, and turn and phase; with hidden
    information (D20) by default (``fog=False`` for full observability).
Reward
    +1 when the learner's side wins, -1 when it loses, 0 otherwise (also 0
    at a truncation: it has no winner).
Termination and truncation
    ``terminated`` (and ``truncated`` False) at a victory (5.0: Central
    Crustal control, no engineers left) or an illegal action under
    ``illegal_action="lose"``.  The rulebook has no turn limit (5.0, D19
    revised); the env stops an episode after the Crustal Control phase of
    turn ``max_turns`` (default ``hotspot.core.limits.DEFAULT_MAX_TURNS``,
    200: past the 99th percentile of measured game lengths, README "Game
    lengths"): ``truncated`` True, ``terminated`` False, reward 0 for both
    sides, no winner (the core state's ``result`` stays ongoing).
    Bootstrap from the last observation there: the game was not over.
    ``max_turns=None`` plays the rulebook game with no limit.
Arguments
    ``side`` ("technocrat" or "ziegler"), ``opponent`` (a compiled policy by
    name: "random", "scripted" or "ismcts"; or an ``hotspot.agents.Agent``), ``scenario`` (name, path, dict, list, or
    "random" for a pool of random setups), ``rules`` (RulesOptions or dict),
    ``fog`` (True), ``render_mode`` ("ansi" or "rgb_array"), ``random_pool``
    (size of the "random" pool), ``illegal_action`` ("raise" or "lose"),
    ``max_turns`` (a positive int, or None for no limit).
Seeding
    ``reset(seed=s)`` fixes the episode: position, dice and the opponent's
    randomness (``s`` a non-negative integer of any size, else ``ValueError``
    and nothing changes); later ``reset()`` calls continue a fixed chain of episode
    seeds (``episodes.next_episode_seed``), exactly as ``HotspotVectorEnv``.
"""
from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from hotspot.agents.base import Agent
from hotspot.agents.policies import POLICY_NAMES
from hotspot.core.errors import ERR_BAD_ACTION
from hotspot.core.actions import NUM_ACTIONS, action_error, apply_action, current_player, legal_action_mask
from hotspot.core.dice import mix64
from hotspot.core.errors import MESSAGES, OK, short_repr
from hotspot.core.events import no_events
from hotspot.core.game import IllegalActionError, action_to_string
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.observation import observe
from hotspot.core.rules_data import PHASE_OVER, side_index
from hotspot.core.state import STATE_DTYPE

from .rendering import render_state
from hotspot.features.encoding import encode, new_observation, observation_shapes, scratch_state
from .episodes import next_episode_seed, outcome, reset_game, step_game
from .templates import build_templates


def action_index(action) -> int:
    """An environment's action as a Python int: an int, a numpy integer or a 0-d
    integer array (not a bool); anything else is a ``TypeError``."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) and not (
            isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer)):
        raise TypeError(f"an action is an integer in [0, {NUM_ACTIONS}), got {short_repr(action)}")
    return int(action)


def resolve_opponent(opponent):
    """(compiled policy id or -1, Python agent or None) for an opponent argument."""
    if opponent is None:
        opponent = "random"
    if isinstance(opponent, str):
        if opponent not in POLICY_NAMES:
            raise ValueError(f"unknown opponent {opponent!r}; built-in compiled opponents: {POLICY_NAMES}")
        return POLICY_NAMES.index(opponent), None
    if isinstance(opponent, Agent):
        return -1, opponent
    raise ValueError(f"opponent must be a built-in name {POLICY_NAMES} or a hotspot.agents.Agent, got {opponent!r}")


class LegalDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws among the legal
    actions of its environment (the mask array the environment keeps up to
    date), so that ``env.action_space.sample()`` is a legal random move."""

    def __init__(self, n: int, legal_mask: np.ndarray, seed=None):
        super().__init__(n, seed=seed)
        self.legal_mask = legal_mask

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self.legal_mask.any():
            mask = self.legal_mask.astype(np.int8)
        return super().sample(mask=mask, probability=probability)


def observation_space(compact: bool = False) -> spaces.Dict:
    """The observation space (``compact``: without the ``board`` hex planes)."""
    boxes = {}
    for name, (shape, dtype) in observation_shapes(compact).items():
        info = np.iinfo(dtype)
        boxes[name] = spaces.Box(low=info.min, high=info.max, shape=shape, dtype=dtype)
    return spaces.Dict(boxes)


def seed_to_episode(seed: int) -> np.uint64:
    """The episode seed of ``reset(seed=seed)``; ``ValueError`` unless ``seed`` is a non-negative integer."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {short_repr(seed)}")
    return np.uint64(mix64(np.uint64(int(seed) % 2**64)))


class HotspotEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, side="technocrat", opponent="random", scenario="standard", rules=None, fog=True,
                 render_mode=None, random_pool: int = 256, illegal_action: str = "raise",
                 max_turns: int | None = DEFAULT_MAX_TURNS):
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.side = side_index(side)
        self.policy, self.agent = resolve_opponent(opponent)
        self.fog = bool(fog)
        self.render_mode = render_mode
        self.templates = build_templates(scenario, rules, random_pool, max_turns)
        self.max_turns = max_turns
        self.states = np.zeros(1, dtype=STATE_DTYPE)
        self.opp_rng = np.zeros(1, dtype=np.uint64)
        self.mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        self.action_space = LegalDiscrete(NUM_ACTIONS, self.mask)
        self.observation_space = observation_space()
        self._scratch = scratch_state()
        self._obs = new_observation()
        self._episode_seed = None
        self._started = False
        self._illegal_end = False

    # ----------------------------------------------------------- gymnasium
    def reset(self, *, seed=None, options=None):
        # a seed that is not a non-negative integer is refused (ValueError) before anything changes
        episode = None if seed is None else seed_to_episode(seed)
        super().reset(seed=None if seed is None else int(seed))
        if episode is not None:
            self._episode_seed = episode
        elif self._episode_seed is None:
            self._episode_seed = seed_to_episode(int(self.np_random.integers(2**63)))
        else:
            self._episode_seed = np.uint64(next_episode_seed(self._episode_seed))
        ev, ev_n = no_events()
        reset_game(self.states, 0, self.templates, self._episode_seed, self.side, self.policy, self.opp_rng,
                   self.mask, ev, ev_n)
        if self.agent is not None:
            self.agent.reset(int(self._episode_seed % np.uint64(2**63)))
            self._opponent_python_moves()
        self._started = True
        self._illegal_end = False
        return self._observation(), self._info()

    def step(self, action):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        s = self.states[0]
        if int(s["phase"]) == PHASE_OVER or self._illegal_end:
            raise RuntimeError("the episode is over: call reset() before step()")
        a = action_index(action)
        # an index outside the action space (even beyond 64 bits) is refused before compiled code sees it
        code = int(action_error(s, a)) if 0 <= a < NUM_ACTIONS else ERR_BAD_ACTION
        if code != OK:
            if self.illegal_action == "raise":
                raise IllegalActionError(a, code, f"illegal action {short_repr(a)} ({action_to_string(s, a)}): "
                                                  f"{MESSAGES[code]}")
            self._illegal_end = True
            self.mask[:] = False
            info = {"action_mask": self.mask.copy(), "turn": int(s["turn"]), "phase": int(s["phase"]),
                    "illegal_action": MESSAGES[code]}
            return self._observation(), -1.0, True, False, info
        ev, ev_n = no_events()
        step_game(self.states, 0, a, self.side, self.policy, self.opp_rng, self.mask, ev, ev_n)
        if self.agent is not None:
            self._opponent_python_moves()
        reward, terminated, truncated = outcome(s, self.side)
        return self._observation(), float(reward), bool(terminated), bool(truncated), self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions now (sb3-contrib MaskablePPO)."""
        return self.mask.copy()

    def render(self):
        return render_state(self.states[0], self.render_mode)

    # ----------------------------------------------------------- helpers
    @property
    def state(self):
        """The full game state record (for tools and debugging; agents use observations)."""
        return self.states[0]

    def _opponent_python_moves(self):
        s = self.states[0]
        ev, ev_n = no_events()
        other = 1 - self.side
        while int(s["phase"]) != PHASE_OVER and int(current_player(s)) == other:
            legal_action_mask(s, self.mask)
            info = np.zeros(1, dtype=STATE_DTYPE)
            observe(s, other, True, info[0])
            a = int(self.agent.act(info, self.mask.copy(), other))
            code = int(action_error(s, a))
            if code != OK:
                raise IllegalActionError(a, code, f"opponent {self.agent!r} chose illegal action {a}: {MESSAGES[code]}")
            apply_action(s, a, ev, ev_n)

    def _observation(self) -> dict:
        o = self._obs
        encode(self.states[0], self.side, self.fog, True, self._scratch[0], o["board"], o["units"], o["pieces"],
               o["globals"])
        return {k: v.copy() for k, v in o.items()}

    def _info(self) -> dict:
        legal_action_mask(self.states[0], self.mask)
        s = self.states[0]
        return {"action_mask": self.mask.copy(), "turn": int(s["turn"]), "phase": int(s["phase"])}
