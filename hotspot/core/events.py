"""What happened, step by step, for viewers, logs and debugging.

The compiled rules write events into a caller's buffer ``ev`` (int32, shape
``(capacity, EV_WIDTH)``) with the count in ``ev_n[0]``.  When nobody asks,
the buffer has capacity 0 and writing costs one comparison.  Each row is
``(kind, a, b, c, d, e)``; the meaning of a..e per kind is in ``EVENT_FIELDS``.
Rows past the capacity are counted in ``ev_n[0]`` but not stored.
"""

import numpy as np

from ._jit import jit

EV_WIDTH = 6
EV_ACTION = 0
EV_PHASE = 1
EV_PIECE_MOVE = 2
EV_COLLISION = 3
EV_ROLL = 4
EV_DAMAGE = 5
EV_UNIT_MOVE = 6
EV_ELIMINATED = 7
EV_SPLIT = 8
EV_COMBINE = 9
EV_COMBAT = 10
EV_SQUAD_LOST = 11
EV_RETREAT = 12
EV_BREAKUP = 13
EV_CONTROL = 14
EV_REVERT = 15
EV_NEUTRALIZED = 16
EV_OFF_MAP = 17
EV_GAME_OVER = 18
EV_STRESS = 19
EV_SETUP_PIECE = 20  # 3.2, 3.3, D21
EV_SETUP_UNIT = 21
EV_REVEALED = 22  # 13.3, D20: a hovercraft's entry refused on contact shows the stack

EVENT_NAMES = (
    "action",
    "phase",
    "piece_move",
    "collision",
    "roll",
    "damage",
    "unit_move",
    "eliminated",
    "split",
    "combine",
    "combat",
    "squad_lost",
    "retreat",
    "breakup",
    "control",
    "revert",
    "neutralized",
    "off_map",
    "game_over",
    "stress",
    "setup_piece",
    "setup_unit",
    "revealed",
)
EVENT_FIELDS = (
    ("action", "player", "turn", "phase", ""),
    ("phase", "turn", "", "", ""),
    ("piece", "maneuver", "arg", "", ""),
    ("mover", "other", "cell", "", ""),
    ("chart", "subject", "roll", "", ""),
    ("piece", "damage", "", "", ""),
    ("unit", "from_cell", "to_cell", "", ""),
    ("unit", "reason", "cell", "type", "squads"),
    ("unit", "new_unit", "", "", ""),
    ("unit", "absorbed_unit", "", "", ""),
    ("cell", "attack", "defense", "odds", "result"),
    ("unit", "cell", "reason", "", ""),
    ("unit", "from_cell", "to_cell", "", ""),
    ("piece", "reason", "", "", ""),
    ("piece", "", "", "", ""),
    ("piece", "", "", "", ""),
    ("piece", "", "", "", ""),
    ("piece", "", "", "", ""),
    ("result", "truncated", "", "", ""),
    ("piece", "slot", "units", "", ""),
    ("piece", "kind", "cell", "", ""),
    ("unit", "type", "squads", "cell", ""),
    ("unit", "cell", "", "", ""),
)
# EV_ELIMINATED reasons
ELIM_MOLTEN = 0  # 8.2
ELIM_COMBAT = 1  # 12.5.3 / 12.3
ELIM_RETREAT = 2  # 12.6 / D16
ELIM_OVERSTACK = 3  # 12.6
ELIM_CIA = 4  # 11.2
ELIM_BREAKUP = 5  # 14.6
ELIM_OFF_MAP = 6  # 6.9 / D3
ELIM_HOVERCRAFT = 7  # 13.3 / D17
ELIM_REASONS = (
    "molten",
    "combat",
    "retreat",
    "overstack",
    "close infantry assault",
    "break-up",
    "off map",
    "hovercraft",
)
# EV_BREAKUP reasons
BREAK_DAMAGE = 0  # 14.6
BREAK_OFF_MAP = 1  # 6.9 / 14.4
BREAK_PLATFORM_TIME = 2  # 14.5
BREAK_REASONS = ("damage", "off map", "platform time limit")
# EV_SQUAD_LOST reasons
SQUAD_LOST_COMBAT = 0
SQUAD_LOST_CIA = 1


@jit(inline=True)
def log_event(ev, ev_n, kind, a, b, c, d, e):
    """Append one event to ``ev`` (counting it in ``ev_n`` even when ``ev`` is
    full or has no rows).  Inlined: a call with array arguments costs more
    than the append."""
    n = ev_n[0]
    if n < ev.shape[0]:
        ev[n, 0] = kind
        ev[n, 1] = a
        ev[n, 2] = b
        ev[n, 3] = c
        ev[n, 4] = d
        ev[n, 5] = e
    ev_n[0] = n + 1


def no_events():
    """An empty event buffer: the compiled core records nothing."""
    return np.zeros((0, EV_WIDTH), dtype=np.int32), np.zeros(1, dtype=np.int32)


def event_buffer(capacity: int = 4096):
    return np.zeros((capacity, EV_WIDTH), dtype=np.int32), np.zeros(1, dtype=np.int32)
