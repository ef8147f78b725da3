"""The harnesses' turn limit (D19 revised): one default for every harness.

The rulebook has no turn limit (5.0: "the game continues until one of the
players meets his victory condition").  A harness (the environments, the
arena, the balance tool, ``hotspot play``) may stop a game after the Crustal
Control phase of turn ``max_turns``: that is a *truncation, not a result*:
``result`` stays ONGOING, ``truncated`` is 1, both returns are 0, and the
arena and the balance tool score it as a draw (half a point each).  The core
(``Game``, ``init``) has no limit unless asked (``max_turns=None``).

``DEFAULT_MAX_TURNS`` (200) is chosen from measured game lengths with no
limit (``benchmarks/bench_game_lengths.py``,
``benchmarks/results/game_lengths.json``, docs/results.md "Game lengths"; 1,000 games
in each of 8 cells: scripted and random agents, both ways round, on the
standard scenario and on random setups, played to turn 1,000).  Every game
that ended with a winner ended by turn 106 (standard, scripted vs scripted:
median 30, 99th percentile 51, longest 58); 200 is almost twice that, so it
cuts off no game that would have ended.  What it does cut are the games no
compiled player ever finishes (10 of 1,000 scripted-vs-scripted games on
random setups were still going at turn 1,000: 1.0%, the same share at any
limit from 150 to 1,000), at a cost of 200 turns each instead of forever:
in 9 of those 10 the Technocrat's engineers stand on the Central Crustal
beside Ziegler combat units that block its control (15.2, 15.5) and neither
scripted player attacks.
"""

from __future__ import annotations

import numpy as np

#: the default ``max_turns`` of the environments, the arena, the balance tool
#: and ``hotspot play`` (a harness's limit; None would be the rulebook's none)
DEFAULT_MAX_TURNS = 200

__all__ = ["DEFAULT_MAX_TURNS", "check_max_turns", "parse_max_turns"]


def check_max_turns(max_turns) -> int:
    """A harness's turn limit (D19 revised) as stored in the state: 0 for None (no limit)."""
    if max_turns is None:
        return 0
    if (
        isinstance(max_turns, (bool, np.bool_))
        or not isinstance(max_turns, (int, np.integer))
        or not 1 <= max_turns <= 10000
    ):
        raise ValueError(f"max_turns must be None (no limit) or an integer in [1, 10000], got {max_turns!r}")
    return int(max_turns)


def parse_max_turns(text) -> int | None:
    """A command-line ``--max-turns`` value: a positive integer, or ``none``
    (also ``0``) for no limit (the rulebook game, 5.0)."""
    if text is None:
        return None
    value = str(text).strip().lower()
    if value in ("none", "0", "off", "no"):
        return None
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"--max-turns must be a positive integer or 'none' (no limit), got {text!r}") from None
    return check_max_turns(number)
