"""Hovercraft second movement (13.0, D17).

13.1: after the Ziegler combat phase hovercraft may move again, at most
``hover_second_move`` (3) hexes.  13.3: they may not enter a hex holding enemy
units other than a hex of Technocrat engineers only; D17: entering such a
hex eliminates the engineers at once (12.3).  Project decision R13.3: the
hovercraft's movement then ends (8.3).  13.2: stress after this phase skips
hexes already rolled for in the regular movement of the turn (damage.py).
"""
from ._jit import jit
from .events import ELIM_HOVERCRAFT
from .rules_data import T_ENGINEER, TECHNOCRAT, Z_HOVERCRAFT
from .units import count_units, eliminate_all_in, has_units_other_than


@jit
def second_move_allowance(s, u):
    if s["unit_type"][u] != Z_HOVERCRAFT:
        return 0
    return min(s["rules"]["movement"][Z_HOVERCRAFT], s["rules"]["hover_second_move"])


@jit
def second_move_may_enter(s, cell):
    """13.3: no Technocrat units, or Technocrat engineers only."""
    return not has_units_other_than(s, cell, TECHNOCRAT, T_ENGINEER)


@jit
def hovercraft_strike(s, cell, ev, ev_n):
    """D17: eliminate the engineers in ``cell``; returns True if there were any."""
    if count_units(s, cell, TECHNOCRAT) == 0:
        return False
    eliminate_all_in(s, cell, TECHNOCRAT, ELIM_HOVERCRAFT, ev, ev_n)
    return True
