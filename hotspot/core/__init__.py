"""The Hot Spot rules as compiled functions over arrays (pgx-style core).

``init`` builds states from a scenario; ``step``, ``legal_action_mask``,
``observe``, ``is_terminal`` and ``returns`` work on one state record;
``batch`` has the same over a batch in one compiled call; ``Game`` (game.py)
is the object facade.  Modules are named after the rulebook's sections.
"""
from __future__ import annotations

import numpy as np

from .actions import (A_COMBINE, A_END_PHASE, A_END_PIECE, A_MANEUVER, A_SELECT_PIECE,
                      A_SELECT_UNIT, A_SPLIT, NUM_ACTIONS, action_error, current_player,
                      legal_action_mask, start, step)
from .batch import legal_action_mask_batch, set_max_turns, status_batch, step_batch
from .events import event_buffer, no_events
from .observation import observe
from .rules_data import (PHASE_OVER, RulesOptions, TECHNOCRAT, TECHNOCRAT_WIN, ZIEGLER,
                         ZIEGLER_WIN)
from .state import STATE_BYTES, STATE_DTYPE, StateError, from_bytes, to_bytes


def init(scenario="standard", seeds=0, rules=None, max_turns=None) -> np.ndarray:
    """States ready to play: one per seed (``seeds`` an int or a sequence of ints).

    ``scenario`` is a built-in name, a path or a scenario dict; ``rules`` a
    ``RulesOptions`` or a dict of overrides; ``max_turns`` None (no limit,
    5.0) or the turn after which a game is truncated without a winner (D19).
    """
    from .game import check_max_turns
    limit = check_max_turns(max_turns)
    from .scenario import load_scenario, scenario_to_state
    data = load_scenario(scenario) if not isinstance(scenario, dict) else dict(scenario)
    if rules is not None:
        overrides = rules.to_dict() if isinstance(rules, RulesOptions) else dict(rules)
        RulesOptions.from_dict(overrides)  # refuse a wrong option here, naming it (turn_limit: D19)
        merged = dict(data.get("rules") or {})
        merged.update(overrides)
        data["rules"] = merged
    seeds = [seeds] if np.ndim(seeds) == 0 else list(seeds)
    first = scenario_to_state(data, int(seeds[0]))
    first[0]["max_turns"] = limit
    states = np.repeat(first, len(seeds))
    from .dice import seed_state
    ev, ev_n = no_events()
    for i, seed in enumerate(seeds):
        seed_state(states[i], int(seed))
        start(states[i], ev, ev_n)
    return states


def is_terminal(s) -> bool:
    return int(s["phase"]) == PHASE_OVER


def returns(s) -> np.ndarray:
    """(+1, -1) rewards indexed by side (0 Ziegler, 1 Technocrat); zeros while the game goes on."""
    out = np.zeros(2)
    r = int(s["result"])
    if r == TECHNOCRAT_WIN:
        out[:] = (-1.0, 1.0)
    elif r == ZIEGLER_WIN:
        out[:] = (1.0, -1.0)
    return out


from .game import Game, IllegalActionError  # noqa: E402  (facade over the above)
from .record import GameRecord, RecordError  # noqa: E402
from .scenario import ScenarioError  # noqa: E402

__all__ = [
    "A_COMBINE", "A_END_PHASE", "A_END_PIECE", "A_MANEUVER", "A_SELECT_PIECE", "A_SELECT_UNIT",
    "A_SPLIT", "NUM_ACTIONS", "STATE_BYTES", "STATE_DTYPE", "Game", "GameRecord", "IllegalActionError",
    "RecordError", "ScenarioError", "StateError",
    "RulesOptions", "action_error", "current_player", "event_buffer", "from_bytes", "init",
    "is_terminal", "legal_action_mask", "legal_action_mask_batch", "no_events", "observe",
    "returns", "set_max_turns", "start", "status_batch", "step", "step_batch", "to_bytes",
]
