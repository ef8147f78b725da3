"""HotspotAECEnv: two-player self-play as a PettingZoo AEC environment.

Agents ``"ziegler"`` and ``"technocrat"`` take turns as the rules give the
move (4.0: phases A-D Ziegler, E-H Technocrat; many consecutive actions
belong to one agent).

Action space
    ``Discrete(NUM_ACTIONS)`` (578) per agent, the core's atomic actions.
Observation
    ``{"observation": <HotspotEnv's observation dict for that side>,
    "action_mask": int8 (578,)}``: PettingZoo's action-mask convention; the
    mask is all zeros for the agent not to move.  Hidden information (D20)
    by default (``fog=False`` for full observability).
Reward
    +1 to the winner, -1 to the loser when the game ends with a winner; 0
    otherwise, and 0 to both at a truncation.
Termination and truncation
    both agents ``terminated`` (not truncated) at a victory (5.0); both
    ``truncated`` (not terminated), reward 0 each, after the Crustal Control
    phase of turn ``max_turns`` (default
    ``hotspot.core.limits.DEFAULT_MAX_TURNS``; None: no limit): the rulebook
    has no turn limit, so that stop is a truncation with no winner (D19
    revised).
Arguments
    ``scenario``, ``rules``, ``fog``, ``render_mode`` ("ansi", "rgb_array"),
    ``random_pool``, ``max_turns``: as ``HotspotEnv``.
Illegal actions
    ``step`` raises ``hotspot.IllegalActionError`` naming the reason for an
    integer the rules do not allow now (the game is unchanged) and
    ``TypeError`` for anything that is not an integer (as ``HotspotEnv``).
Requires the ``pettingzoo`` extra.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from hotspot.core.actions import NUM_ACTIONS, action_error, apply_action, current_player, legal_action_mask
from hotspot.core.errors import ERR_BAD_ACTION, MESSAGES, OK, short_repr
from hotspot.core.events import no_events
from hotspot.core.game import IllegalActionError, action_to_string
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.rules_data import PHASE_OVER, SIDE_NAMES
from hotspot.core.state import STATE_DTYPE
from hotspot.core.victory import side_return

from .rendering import render_state
from hotspot.features.encoding import encode, new_observation, scratch_state
from .episodes import next_episode_seed, reset_game
from .hotspot_env import action_index, observation_space, seed_to_episode
from .templates import build_templates


class HotspotAECEnv(AECEnv):
    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "hotspot_v0", "is_parallelizable": False,
                "render_fps": 4}

    def __init__(self, scenario="standard", rules=None, fog=True, render_mode=None, random_pool: int = 256,
                 max_turns: int | None = DEFAULT_MAX_TURNS):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.fog = bool(fog)
        self.templates = build_templates(scenario, rules, random_pool, max_turns)
        self.max_turns = max_turns
        self.possible_agents = list(SIDE_NAMES)
        obs_space = spaces.Dict({"observation": observation_space(),
                                 "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8)})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.states = np.zeros(1, dtype=STATE_DTYPE)
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        self._opp_rng = np.zeros(1, dtype=np.uint64)
        self._scratch = scratch_state()
        self._episode_seed = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._episode_seed = seed_to_episode(seed)
        elif self._episode_seed is None:
            self._episode_seed = seed_to_episode(int(np.random.SeedSequence().entropy % 2**63))
        else:
            self._episode_seed = np.uint64(next_episode_seed(self._episode_seed))
        ev, ev_n = no_events()
        reset_game(self.states, 0, self.templates, self._episode_seed, 0, -1, self._opp_rng, self._mask, ev, ev_n)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select_agent()

    def _select_agent(self):
        s = self.states[0]
        if int(s["phase"]) != PHASE_OVER:
            self.agent_selection = SIDE_NAMES[int(current_player(s))]
        legal_action_mask(s, self._mask)

    def observe(self, agent):
        side = SIDE_NAMES.index(agent)
        o = new_observation()
        encode(self.states[0], side, self.fog, True, self._scratch[0], o["board"], o["units"], o["pieces"], o["globals"])
        s = self.states[0]
        to_move = int(s["phase"]) != PHASE_OVER and int(current_player(s)) == side
        mask = self._mask.astype(np.int8) if to_move else np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": o, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.states[0]
        a = action_index(action)  # TypeError unless an integer
        # an index outside the action space (even beyond 64 bits) is refused before compiled code sees it
        code = int(action_error(s, a)) if 0 <= a < NUM_ACTIONS else ERR_BAD_ACTION
        if code != OK:
            raise IllegalActionError(a, code, f"{agent}: illegal action {short_repr(a)} ({action_to_string(s, a)}): "
                                              f"{MESSAGES[code]}")
        ev, ev_n = no_events()
        apply_action(s, a, ev, ev_n)
        self._cumulative_rewards[agent] = 0.0
        for name in self.agents:
            self.rewards[name] = 0.0
        if int(s["phase"]) == PHASE_OVER:
            for name in self.agents:
                self.rewards[name] = float(side_return(s, SIDE_NAMES.index(name)))
                if s["truncated"]:
                    self.truncations[name] = True
                else:
                    self.terminations[name] = True
        self._select_agent()
        self._accumulate_rewards()
        if self.render_mode is not None:
            self.render()

    def render(self):
        return render_state(self.states[0], self.render_mode)

    def close(self):
        pass


def env(**kwargs) -> HotspotAECEnv:
    """PettingZoo-style constructor."""
    return HotspotAECEnv(**kwargs)
