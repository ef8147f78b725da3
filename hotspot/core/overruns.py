"""Overruns and Close Infantry Assaults (11.0).

11.1: Technocrat crawlers and heavy beamers may move through hexes holding
only Ziegler infantry without stopping; no attack is made if they leave the
hex that turn.  11.2 / D15: the Ziegler player always makes a Close Infantry
Assault, one die per overrunning counter as it moves through the hex.  Project
decision R11.2: the die is rolled when the counter leaves the hex (only then
has it moved *through* it; a counter that stays attacks instead).
"""

from ._jit import jit
from .dice import roll_die
from .events import ELIM_CIA, SQUAD_LOST_CIA
from .rules_data import (
    CHART_CIA,
    CIA_OVERRUNNER_ELIMINATED,
    CIA_SQUAD_LOST,
    CIA_TABLE,
    NO_UNIT,
    UNIT_CAN_OVERRUN,
    UNIT_SIDE,
    UNKNOWN_UNIT,
    Z_INFANTRY,
    ZIEGLER,
)
from .state import MAX_UNITS
from .units import count_units, eliminate_unit, lose_squad


@jit
def overrunnable(s, u, cell):
    """11.1: may unit u move on through ``cell``?  (It holds Ziegler units, all infantry.)"""
    return type_overruns(s, s["unit_type"][u], cell)


@jit
def type_overruns(s, t, cell):
    """11.1: may a counter of type ``t`` move on through ``cell``: it overruns
    (crawlers and heavy beamers) and the hex holds Ziegler units, all
    infantry?  On an information state (D20) a hidden counter there may be
    anything, so no overrun is counted on."""
    if not UNIT_CAN_OVERRUN[t] or count_units(s, cell, ZIEGLER) == 0:
        return False
    for v in range(MAX_UNITS):
        tv = s["unit_type"][v]
        if tv == NO_UNIT or tv == Z_INFANTRY or s["unit_cell"][v] != cell:
            continue
        if tv == UNKNOWN_UNIT or UNIT_SIDE[tv] == ZIEGLER:
            return False
    return True


@jit
def close_infantry_assault(s, u, ev, ev_n):
    """11.2: one die for overrunning counter u leaving its hex.  Returns False if u is eliminated."""
    if not s["rules"]["cia_enabled"]:
        return True
    cell = s["unit_cell"][u]
    roll = roll_die(s, CHART_CIA, u, ev, ev_n)
    result = CIA_TABLE[roll - 1]
    if result == CIA_SQUAD_LOST:
        # D22 losses="owner": the Ziegler player may choose the counter; the
        # overrunning counter moves on meanwhile (the choice cannot change its move)
        lose_squad(s, cell, ZIEGLER, SQUAD_LOST_CIA, ELIM_CIA, True, ev, ev_n)
    elif result == CIA_OVERRUNNER_ELIMINATED:
        eliminate_unit(s, u, ELIM_CIA, ev, ev_n)
        return False
    return True
