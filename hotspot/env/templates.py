"""Starting positions of environment episodes: one scenario, several, or a
pool of seeded random setups (D12)."""

from __future__ import annotations

import numpy as np

from hotspot.core.limits import check_max_turns
from hotspot.core.scenario import random_setup, scenario_to_state, with_rules
from hotspot.core.state import STATE_DTYPE


def build_templates(scenario="standard", rules=None, random_pool: int = 256, max_turns=None) -> np.ndarray:
    """States (not started) that episodes begin from.

    ``scenario``: a built-in name or path, a scenario dict, a list of those, or
    ``"random"`` for a pool of ``random_pool`` random setups (seeds 0..pool-1).
    ``rules``: ``RulesOptions`` or a dict of overrides, applied to each.
    ``max_turns``: None (no limit, 5.0) or the turn after whose Crustal
    Control phase an episode is truncated without a winner (D19 revised);
    every template carries it into its episodes.
    """
    limit = check_max_turns(max_turns)
    if isinstance(scenario, str) and scenario == "random":
        if random_pool < 1:
            raise ValueError(f"random_pool must be at least 1, got {random_pool}")
        items = [random_setup(j) for j in range(random_pool)]
    elif isinstance(scenario, (list, tuple)):
        if not scenario:
            raise ValueError("an empty list of scenarios")
        items = list(scenario)
    else:
        items = [scenario]
    items = [with_rules(d, rules) for d in items]  # a wrong option is refused here, naming it
    templates = np.zeros(len(items), dtype=STATE_DTYPE)
    for j, data in enumerate(items):
        templates[j] = scenario_to_state(data, 0)[0]
    templates["max_turns"] = limit
    return templates
