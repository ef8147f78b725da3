"""Hot Spot as a PettingZoo AEC environment, ``hotspot_v0``: two-player self-play.

``env(**kwargs)`` is the environment wrapped as PettingZoo's classic games
are (``AssertOutOfBoundsWrapper``: an action outside the action space is an
``AssertionError``; ``OrderEnforcingWrapper``: ``step`` or ``observe``
before ``reset`` is refused); ``raw_env(**kwargs)`` is the bare
``HotspotAECEnv``.  The classic games' illegal-move rule is built in (see
Illegal actions), so no ``TerminateIllegalWrapper`` is needed.

Agents ``"ziegler"`` and ``"technocrat"`` take turns as the rules give the
move (4.0: phases A-D Ziegler, E-H Technocrat; many consecutive actions
belong to one agent; on ``open`` the set-up phases first, 3.2, 3.3, D21).

Action space
    ``Discrete(NUM_ACTIONS)`` (578) per agent, the core's atomic actions.
Observation
    ``{"observation": <HotspotEnv's observation for that side>,
    "action_mask": int8 (578,)}``: PettingZoo's action-mask convention; the
    mask is all zeros for the agent not to move and after the game's end.
    ``observation=`` "full" (default), "compact", "flat" or "image" as
    ``HotspotEnv`` (``"flat"`` gives a ``Box`` like the classic games').
    Hidden information (D20) by default (``fog=False`` for full
    observability).
Reward
    +1 to the winner, -1 to the loser when the game ends with a winner; 0
    otherwise, and 0 to both at a truncation.
Termination and truncation
    both agents ``terminated`` (not truncated) at a victory (5.0) or an
    illegal action under ``illegal_action="lose"``; both ``truncated`` (not
    terminated), reward 0 each, after the Crustal Control phase of turn
    ``max_turns`` (default ``hotspot.core.limits.DEFAULT_MAX_TURNS``; None:
    no limit): the rulebook has no turn limit, so that stop is a truncation
    with no winner (D19 revised).
Illegal actions
    ``illegal_action="lose"`` (the default; the classic games' and pgx's
    convention): an integer the rules do not allow now ends the game as a
    loss for the mover: -1 to it and +1 to the other (the game stays
    zero-sum), both terminated, the game state as it was; the mover's
    ``infos[agent]["illegal_action"]`` is True and
    ``infos[agent]["illegal_reason"]`` says why (every info holds
    ``illegal_action``, False otherwise).  ``illegal_action="raise"`` (for
    debugging): ``step`` raises ``hotspot.IllegalActionError`` naming the
    reason, and the game is unchanged.  Anything that is not an integer is a
    ``TypeError`` in both modes (as ``HotspotEnv``).
Arguments
    ``scenario``, ``rules``, ``fog``, ``render_mode`` ("ansi", "rgb_array",
    "human": the text board printed after each step), ``random_pool``,
    ``max_turns``, ``observation``, ``illegal_action``: as ``HotspotEnv``.
Requires the ``pettingzoo`` extra.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from hotspot.core.actions import NUM_ACTIONS, action_error, apply_action, current_player, legal_action_mask
from hotspot.core.errors import ERR_BAD_ACTION, OK
from hotspot.core.events import no_events
from hotspot.core.game import IllegalActionError
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.rules_data import PHASE_OVER, SIDE_NAMES
from hotspot.core.state import STATE_DTYPE
from hotspot.core.victory import side_return
from hotspot.features.bounds import ObservationBounds
from hotspot.features.encoding import encode, new_observation, scratch_state

from .episodes import next_episode_seed, reset_game
from .hotspot_env import (
    ILLEGAL_ACTION_MODES,
    OBSERVATION_MODES,
    RENDER_MODES,
    action_index,
    check_choice,
    illegal_reason,
    observation_form,
    observation_space,
    seed_to_episode,
)
from .rendering import render_state
from .templates import build_templates

__all__ = ["HotspotAECEnv", "env", "raw_env"]


class HotspotAECEnv(AECEnv):
    metadata = {"render_modes": RENDER_MODES, "name": "hotspot_v0", "is_parallelizable": False, "render_fps": 4}

    def __init__(
        self,
        scenario="standard",
        rules=None,
        fog=True,
        render_mode=None,
        random_pool: int = 256,
        max_turns: int | None = DEFAULT_MAX_TURNS,
        observation: str = "full",
        illegal_action: str = "lose",
    ):
        super().__init__()
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        self.observation = check_choice("observation", observation, OBSERVATION_MODES)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        self.render_mode = render_mode
        self.fog = bool(fog)
        self.templates = build_templates(scenario, rules, random_pool, max_turns)
        self.max_turns = max_turns
        self.bounds = ObservationBounds(self.templates)
        self.possible_agents = list(SIDE_NAMES)
        obs_space = spaces.Dict(
            {
                "observation": observation_space(self.bounds, self.observation),
                "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.states = np.zeros(1, dtype=STATE_DTYPE)
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        self._opp_rng = np.zeros(1, dtype=np.uint64)
        self._scratch = scratch_state()
        self._episode_seed = None
        self._illegal_end = False

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
        self._illegal_end = False
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"illegal_action": False} for a in self.agents}
        self._select_agent()
        if self.render_mode == "human":
            self.render()

    def _select_agent(self):
        s = self.states[0]
        if int(s["phase"]) != PHASE_OVER:
            self.agent_selection = SIDE_NAMES[int(current_player(s))]
        legal_action_mask(s, self._mask)

    def observe(self, agent):
        side = SIDE_NAMES.index(agent)
        o = new_observation()
        encode(
            self.states[0], side, self.fog, True, self._scratch[0], o["board"], o["units"], o["pieces"], o["globals"]
        )
        if self.observation == "compact":
            del o["board"]
        s = self.states[0]
        to_move = int(s["phase"]) != PHASE_OVER and not self._illegal_end and int(current_player(s)) == side
        mask = self._mask.astype(np.int8) if to_move else np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": observation_form(self.bounds, self.observation, o), "action_mask": mask}

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
            if self.illegal_action == "raise":
                raise IllegalActionError(a, code, f"{agent}: {illegal_reason(s, a, code)}")
            self._lose_by_illegal_action(agent, illegal_reason(s, a, code))
            return
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
        if self.render_mode == "human":
            self.render()

    def _lose_by_illegal_action(self, agent, reason: str):
        """``illegal_action="lose"``: the mover loses (-1, the other +1), both terminated, the state unchanged."""
        self._illegal_end = True
        self._cumulative_rewards[agent] = 0.0
        for name in self.agents:
            self.rewards[name] = -1.0 if name == agent else 1.0
            self.terminations[name] = True
        self.infos[agent] = {"illegal_action": True, "illegal_reason": reason}
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "human":
            print(render_state(self.states[0], "ansi"))
            return None
        return render_state(self.states[0], self.render_mode)

    def close(self):
        pass


def raw_env(**kwargs) -> HotspotAECEnv:
    """The bare AEC environment (PettingZoo's ``raw_env`` convention)."""
    return HotspotAECEnv(**kwargs)


def env(**kwargs):
    """The AEC environment with PettingZoo's standard wrappers, as the classic games build ``env()``."""
    aec = raw_env(**kwargs)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)
