"""HotspotEnv: Hot Spot as a single-agent Gymnasium environment.

The learner plays one side; an opponent policy plays the other inside
``step`` (and ``reset``, when the opponent moves first).

Action space
    ``Discrete(NUM_ACTIONS)`` (578): the core's atomic actions (select a
    piece or unit, a maneuver or step, split/combine, resolve a combat, end a
    move, end the phase, the set-up choices; see ``hotspot.core.actions``).
    The legal actions are ``info["action_mask"]`` and ``env.action_masks()``
    (sb3-contrib's MaskablePPO convention); ``env.action_space.sample()``
    draws a legal one.  After the episode's end the mask is all False:
    call ``reset()``.
Illegal actions
    ``illegal_action="lose"`` (the default, the convention of pgx and of
    PettingZoo's classic games): an illegal action ends the episode as a
    loss for the learner: reward -1, ``terminated`` True, the game state as
    it was, and ``info["illegal_action"]`` True with the reason in
    ``info["illegal_reason"]`` (the core's ``explain_error``).
    ``illegal_action="raise"`` (for debugging) raises
    ``hotspot.IllegalActionError`` naming the reason instead, and the env is
    unchanged.  In both modes an action that is not an integer (an int, a
    numpy integer or a 0-d integer array; not a bool) raises ``TypeError``
    and changes nothing.
Observation (``observation=``)
    ``"full"`` (the default): ``Dict(board, units, pieces, globals)`` of int
    arrays (``hotspot.features.encoding``): 19 hex planes ``(19, 21, 15)``
    int8 (terrain, control, pieces, units by side and type, damage of own
    pieces), the unit table ``(96, 10)`` int8, the piece table ``(32, 15)``
    int8 and the globals ``(33,)`` int16 (turn, phase, set-up pools, ...).
    Each entry's Box bounds are its real range for this env's rules and
    forces (``hotspot.features.bounds``): 0/1 flags ``[0, 1]``; squads of
    a type in a hex ``[0, the forces' squads of that type]`` (42 Ziegler
    infantry, 6 hovercraft, 12 Technocrat infantry, 6 crawlers, 2 heavy
    beamers, 3 engineers as printed); unknown enemy counters and own movable
    counters in a hex ``[0, 48]``; damage ``[0, largest rating]`` (-1
    unknown; clipped at the piece's rating, 14.6); unit type ``[-1, 6]``
    and squads ``[-1, 3]`` (-1 hidden, D20); unit col/row ``[0, 14]`` /
    ``[0, 20]``; piece hex col/row ``[-4, 18]`` / ``[-4, 24]`` (off-map
    margin, -1 unused); movement left ``[0, largest allowance]``; turn
    ``[1, max_turns]`` (``[1, 10000]`` with no limit); max_turns ``[0,
    10000]``; actions so far ``[0, 1000]`` (clipped); set-up pools ``[0,
    the force]``; the other globals their codes' ranges.  Hidden
    information (D20) by default (``fog=False`` for full observability).
    ``"compact"``: the same without ``board``.  ``"flat"``: one float32
    ``Box(0, 1, (7458,))``, every entry of the full observation mapped by
    ``(x - low) / (high - low)``, for Stable-Baselines3's ``MlpPolicy``.
    ``"image"``: ``Dict(board=Box(0, 255, (19, 63, 45), uint8),
    features=Box(0, 1, (1473,), float32))``: the hex planes as a
    channel-first image (each plane scaled to ``floor(255 x / high + 1/2)``,
    each hex a 3 x 3 block, for the 36 x 36 minimum of Stable-Baselines3's
    default CNN) and the unit, piece and global tables normalised as in
    ``"flat"``, for ``MultiInputPolicy`` (its ``CombinedExtractor`` runs
    the CNN on ``board``).  ``env.bounds`` holds the low and high of every
    entry.
Reward
    +1 when the learner's side wins, -1 when it loses (or plays an illegal
    action under ``illegal_action="lose"``), 0 otherwise (also 0 at a
    truncation: it has no winner).  Optional shaping, off by default:
    ``reward_shaping=w`` adds ``w * (shaping_gamma * Phi(s') - Phi(s))``
    to each step's reward, ``Phi`` the potential of
    ``hotspot.features.shaping`` (material, crustal control 15.2 and
    engineers 5.0, in [-1, 1], for the learner's side; 0 once terminated)
    and ``s``, ``s'`` the positions the learner moves in; ``info["shaping"]``
    holds the term.  This is potential-based shaping (Ng, Harada and
    Russell, 1999): with ``shaping_gamma`` the learner's discount
    (default 0.99) it leaves the optimal policies unchanged.
Termination and truncation
    ``terminated`` (and ``truncated`` False) at a victory (5.0: Central
    Crustal control, no engineers left) or an illegal action under
    ``illegal_action="lose"``.  The rulebook has no turn limit (5.0, D19
    revised); the env stops an episode after the Crustal Control phase of
    turn ``max_turns`` (default ``hotspot.core.limits.DEFAULT_MAX_TURNS``,
    200: past the 99th percentile of measured game lengths, docs/results.md "Game
    lengths"): ``truncated`` True, ``terminated`` False, reward 0 for both
    sides, no winner (the core state's ``result`` stays ongoing).
    Bootstrap from the last observation there: the game was not over.
    ``max_turns=None`` plays the rulebook game with no limit.
Arguments
    ``side`` ("technocrat" or "ziegler"), ``opponent`` (a compiled policy by
    name: "random" or "scripted", played inside the compiled step; an agent
    spec of the registry such as "ismcts", "ismcts(iterations=64)" or
    "best", played compiled when its agent has a compiled policy, else from
    Python a decision at a time; or an ``hotspot.agents.Agent``),
    ``scenario`` (name, path, dict, list, or "random" for a pool of random
    setups), ``rules`` (RulesOptions or dict), ``fog`` (True),
    ``render_mode`` ("ansi", "rgb_array", or "human": the text board printed
    at each reset and step), ``random_pool`` (size of the "random" pool),
    ``illegal_action`` ("lose" or "raise"), ``max_turns`` (a positive int,
    or None for no limit), ``observation`` ("full", "compact", "flat",
    "image"), ``reward_shaping`` (a weight >= 0, default 0.0) and
    ``shaping_gamma`` (in (0, 1], default 0.99).
Seeding
    ``reset(seed=s)`` fixes the episode: position, dice and the opponent's
    randomness (``s`` a non-negative integer of any size, else ``ValueError``
    and nothing changes); later ``reset()`` calls continue a fixed chain of episode
    seeds (``episodes.next_episode_seed``), exactly as ``HotspotVectorEnv``.
"""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from hotspot.agents.base import Agent
from hotspot.agents.policies import POLICY_NAMES, policy_player
from hotspot.agents.registry import make_agent
from hotspot.agents.specs import SpecError
from hotspot.core.actions import NUM_ACTIONS, action_error, apply_action, current_player, legal_action_mask
from hotspot.core.dice import mix64
from hotspot.core.errors import ERR_BAD_ACTION, MESSAGES, OK, short_repr
from hotspot.core.events import no_events
from hotspot.core.game import IllegalActionError, action_to_string, explain_error
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.observation import observe
from hotspot.core.rules_data import PHASE_OVER, side_index
from hotspot.core.state import STATE_DTYPE
from hotspot.features.bounds import ObservationBounds
from hotspot.features.encoding import encode, new_observation, scratch_state
from hotspot.features.observations import OBSERVATION_MODES, observation_form, observation_space
from hotspot.features.shaping import potential

from .episodes import begin_episode, next_episode_seed, outcome
from .rendering import render_state
from .templates import build_templates
from .warm import begin_compiling, finish_compiling

#: what an illegal action does (the ``illegal_action`` argument of every env)
ILLEGAL_ACTION_MODES = ("lose", "raise")
RENDER_MODES = ["ansi", "rgb_array", "human"]


def action_index(action) -> int:
    """An environment's action as a Python int: an int, a numpy integer or a 0-d
    integer array (not a bool); anything else is a ``TypeError``."""
    if (
        isinstance(action, (bool, np.bool_))
        or not isinstance(action, (int, np.integer))
        and not (isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer))
    ):
        raise TypeError(f"an action is an integer in [0, {NUM_ACTIONS}), got {short_repr(action)}")
    return int(action)


def illegal_reason(s, action: int, code: int) -> str:
    """Why ``action`` is refused in state ``s`` (``code`` from ``action_error``), in words."""
    return f"illegal action {short_repr(action)} ({action_to_string(s, action)}): {explain_error(s, action, code)}"


def resolve_opponent(opponent):
    """(compiled policy id or -1, Python agent or None) for an opponent
    argument: a built-in compiled policy's name, an agent spec of the
    registry (``"ismcts(iterations=64)"``, ``hotspot.agents.registry``) or an
    ``Agent``.  A spec whose agent has a compiled policy plays compiled."""
    if opponent is None:
        opponent = "random"
    if isinstance(opponent, str):
        if opponent in POLICY_NAMES:
            return POLICY_NAMES.index(opponent), None
        try:
            agent = make_agent(opponent)
        except SpecError as exc:
            raise ValueError(f"opponent {short_repr(opponent)}: {exc}") from None
        if agent.policy_id is not None:
            return int(agent.policy_id), None
        return -1, agent
    if isinstance(opponent, Agent):
        return -1, opponent
    raise ValueError(
        f"opponent must be an agent spec (a built-in name {POLICY_NAMES} or a registered agent such "
        f"as 'ismcts(iterations=64)') or a hotspot.agents.Agent, got {short_repr(opponent)}"
    )


def check_choice(name: str, value, choices) -> str:
    """``value`` if it is one of ``choices``, else ``ValueError`` naming ``name`` and the choices."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {short_repr(value)}")
    return value


def check_shaping(reward_shaping, shaping_gamma) -> tuple[float, float]:
    """The shaping weight (a finite number >= 0) and discount (in (0, 1]), else ``ValueError``."""

    def number(x):
        return (
            isinstance(x, (int, float, np.integer, np.floating))
            and not isinstance(x, (bool, np.bool_))
            and math.isfinite(float(x))
        )

    if not number(reward_shaping) or reward_shaping < 0:
        raise ValueError(f"reward_shaping must be a finite number >= 0, got {short_repr(reward_shaping)}")
    if not number(shaping_gamma) or not 0 < shaping_gamma <= 1:
        raise ValueError(f"shaping_gamma must be a number in (0, 1], got {short_repr(shaping_gamma)}")
    return float(reward_shaping), float(shaping_gamma)


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


def seed_to_episode(seed: int) -> np.uint64:
    """The episode seed of ``reset(seed=seed)``; ``ValueError`` unless ``seed`` is a non-negative integer."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {short_repr(seed)}")
    return np.uint64(mix64(np.uint64(int(seed) % 2**64)))


class HotspotEnv(gym.Env):
    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(
        self,
        side="technocrat",
        opponent="random",
        scenario="standard",
        rules=None,
        fog=True,
        render_mode=None,
        random_pool: int = 256,
        illegal_action: str = "lose",
        max_turns: int | None = DEFAULT_MAX_TURNS,
        observation: str = "full",
        reward_shaping: float = 0.0,
        shaping_gamma: float = 0.99,
    ):
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        self.observation = check_choice("observation", observation, OBSERVATION_MODES)
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        self.reward_shaping, self.shaping_gamma = check_shaping(reward_shaping, shaping_gamma)
        self.side = side_index(side)
        self.policy, self.agent = resolve_opponent(opponent)
        self._player = policy_player(self.policy) if self.policy >= 0 else None
        begin_compiling(self.policy)  # a fresh install: a helper compiles the opponent and the encoder meanwhile
        if self.agent is not None and 1 - self.side not in getattr(self.agent, "seats", (0, 1)):
            raise ValueError(f"opponent {short_repr(opponent)} cannot play the other side (a model of one seat)")
        self.fog = bool(fog)
        self.render_mode = render_mode
        self.templates = build_templates(scenario, rules, random_pool, max_turns)
        self.max_turns = max_turns
        self.bounds = ObservationBounds(self.templates)
        self.states = np.zeros(1, dtype=STATE_DTYPE)
        self.opp_rng = np.zeros(1, dtype=np.uint64)
        self.mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        self.action_space = LegalDiscrete(NUM_ACTIONS, self.mask)
        self.observation_space = observation_space(self.bounds, self.observation)
        self._scratch = scratch_state()
        self._obs = new_observation()
        self._episode_seed = None
        self._started = False
        self._illegal_end = False
        self._potential = 0.0

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
        begin_episode(self.states, 0, self.templates, self._episode_seed, self.opp_rng, ev, ev_n)
        finish_compiling()
        self._opponent_compiled_moves(ev, ev_n)
        if self.agent is not None:
            self.agent.reset(int(self._episode_seed % np.uint64(2**63)))
            self._opponent_python_moves()
        self._started = True
        self._illegal_end = False
        self._potential = potential(self.states[0], self.side) if self.reward_shaping else 0.0
        if self.render_mode == "human":
            self.render()
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
                raise IllegalActionError(a, code, illegal_reason(s, a, code))
            self._illegal_end = True  # "lose": the learner loses, the game state stays as it was
            info = self._info()
            info["illegal_action"] = True
            info["illegal_reason"] = illegal_reason(s, a, code)
            return self._observation(), self._shaped(-1.0, True, info), True, False, info
        ev, ev_n = no_events()
        apply_action(s, a, ev, ev_n)
        self._opponent_compiled_moves(ev, ev_n)
        if self.agent is not None:
            self._opponent_python_moves()
        reward, terminated, truncated = outcome(s, self.side)
        info = self._info()
        reward = self._shaped(float(reward), bool(terminated), info)
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, bool(terminated), bool(truncated), info

    def action_masks(self) -> np.ndarray:
        """The legal actions now (sb3-contrib MaskablePPO)."""
        return self.mask.copy()

    def render(self):
        if self.render_mode == "human":
            print(render_state(self.states[0], "ansi"))
            return None
        return render_state(self.states[0], self.render_mode)

    # ----------------------------------------------------------- helpers
    @property
    def state(self):
        """The full game state record (for tools and debugging; agents use observations)."""
        return self.states[0]

    def _shaped(self, reward: float, terminated: bool, info: dict) -> float:
        """``reward`` plus the shaping term (none unless ``reward_shaping``); the potential of a terminal state is 0."""
        if not self.reward_shaping:
            return reward
        after = 0.0 if terminated else potential(self.states[0], self.side)
        shaping = self.reward_shaping * (self.shaping_gamma * after - self._potential)
        self._potential = after
        info["shaping"] = shaping
        return reward + shaping

    def _opponent_compiled_moves(self, ev, ev_n):
        """A compiled opponent's moves until the learner is to move (episodes.step_game's, one call at a time)."""
        if self._player is not None:
            self._player(self.states[0], self.side, self.mask, self.opp_rng, 0, ev, ev_n)

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

    def _observation(self):
        o = self._obs
        encode(
            self.states[0],
            self.side,
            self.fog,
            True,
            self._scratch[0],
            o["board"],
            o["units"],
            o["pieces"],
            o["globals"],
        )
        return observation_form(self.bounds, self.observation, o)

    def _info(self) -> dict:
        if self._illegal_end:
            self.mask[:] = False
        else:
            legal_action_mask(self.states[0], self.mask)
        s = self.states[0]
        return {
            "action_mask": self.mask.copy(),
            "turn": int(s["turn"]),
            "phase": int(s["phase"]),
            "illegal_action": False,
        }
