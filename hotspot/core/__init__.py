"""The Hot Spot rules as compiled functions over arrays (pgx-style core).

``init`` builds states from a scenario; ``step``, ``legal_action_mask``,
``observe``, ``is_terminal`` and ``returns`` work on one state record;
``batch`` has the same over a batch in one compiled call; ``Game`` (game.py)
is the object facade.  Modules are named after the rulebook's sections.
"""

from __future__ import annotations

import numpy as np

from .actions import (
    A_COMBINE,
    A_END_PHASE,
    A_END_PIECE,
    A_MANEUVER,
    A_SELECT_PIECE,
    A_SELECT_UNIT,
    A_SPLIT,
    NUM_ACTIONS,
    action_error,
    current_player,
    legal_action_mask,
    legal_actions,
    start,
    step,
)
from .batch import legal_action_mask_batch, set_max_turns, status_batch, step_batch
from .events import event_buffer, no_events
from .integrity import from_bytes
from .observation import observe
from .rollout import play_random_batch, random_action, random_legal_action
from .rules_data import PHASE_OVER, TECHNOCRAT, ZIEGLER, RulesOptions
from .scenario import ScenarioError, scenario_to_state, start_states, with_rules
from .state import STATE_BYTES, STATE_DTYPE, StateError, to_bytes
from .victory import side_return


def init(scenario="standard", seeds=0, rules=None, max_turns=None) -> np.ndarray:
    """States ready to play: one per seed (``seeds`` an int or a sequence of ints).

    ``scenario`` is a built-in name, a path or a scenario dict; ``rules`` a
    ``RulesOptions`` or a dict of overrides; ``max_turns`` None (no limit,
    5.0) or the turn after which a game is truncated without a winner (D19).
    """
    data = with_rules(scenario, rules)
    seeds = [seeds] if np.ndim(seeds) == 0 else list(seeds)
    return start_states(scenario_to_state(data, seeds[0]), seeds, max_turns)


def is_terminal(s) -> bool:
    return int(s["phase"]) == PHASE_OVER


def returns(s) -> np.ndarray:
    """(+1, -1) rewards indexed by side (0 Ziegler, 1 Technocrat); zeros while
    the game goes on or when a harness stopped it (``victory.side_return``)."""
    return np.array([side_return(s, ZIEGLER), side_return(s, TECHNOCRAT)])


from .game import Game, IllegalActionError  # noqa: E402  (facade over the above)
from .record import GameRecord, RecordError  # noqa: E402

__all__ = [
    "A_COMBINE",
    "A_END_PHASE",
    "A_END_PIECE",
    "A_MANEUVER",
    "A_SELECT_PIECE",
    "A_SELECT_UNIT",
    "A_SPLIT",
    "NUM_ACTIONS",
    "STATE_BYTES",
    "STATE_DTYPE",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "RecordError",
    "ScenarioError",
    "StateError",
    "RulesOptions",
    "action_error",
    "current_player",
    "event_buffer",
    "from_bytes",
    "init",
    "is_terminal",
    "legal_action_mask",
    "legal_action_mask_batch",
    "legal_actions",
    "no_events",
    "observe",
    "play_random_batch",
    "random_action",
    "random_legal_action",
    "returns",
    "set_max_turns",
    "start",
    "status_batch",
    "step",
    "step_batch",
    "to_bytes",
]
