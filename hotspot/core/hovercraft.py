"""Hovercraft second movement (13.0, D17).

13.1: after the Ziegler combat phase hovercraft may move again, at most
``hover_second_move`` (3) hexes.  13.3: they may not enter a hex holding enemy
units other than a hex of Technocrat engineers only; D17: entering such a
hex eliminates the engineers at once (12.3).  Project decision R13.3: the
hovercraft's movement then ends (8.3).  13.2: stress after this phase skips
hexes already rolled for in the regular movement of the turn (damage.py).

Hidden information (D20, R13.3b): the Ziegler player sees of a Technocrat
stack only its number of counters and its top counter, so the legality of an
entry may only depend on that (``second_move_may_try``): an entry is refused
outright when the top counter is not an engineer (or the stack was revealed
this phase not to be engineers only); otherwise the hovercraft may try.  If
the hidden contents forbid it (``second_move_may_enter`` false), the entry is
refused on contact as over the table: the hovercraft stays in its hex, its
second movement ends, and the stack is revealed to the Ziegler player for the
rest of the phase (``revealed``; the observation shows it in full).
"""

from ._jit import jit
from .events import ELIM_HOVERCRAFT, EV_REVEALED, log_event
from .rules_data import T_ENGINEER, TECHNOCRAT, Z_HOVERCRAFT, ZIEGLER
from .state import MAX_REVEALED
from .units import count_units, eliminate_all_in, has_units_other_than, top_counter


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


@jit
def is_revealed(s, cell):
    for i in range(MAX_REVEALED):
        if s["revealed"][i] == cell:
            return True
    return False


@jit
def reveal(s, cell, u, ev, ev_n):
    """R13.3b: the stack in ``cell`` is shown to the Ziegler player for the rest of the phase."""
    for i in range(MAX_REVEALED):
        if s["revealed"][i] == cell:
            return
        if s["revealed"][i] < 0:
            s["revealed"][i] = cell
            break
    log_event(ev, ev_n, EV_REVEALED, u, cell, 0, 0, 0)


@jit
def clear_revealed(s):
    for i in range(MAX_REVEALED):
        s["revealed"][i] = -1


@jit
def second_move_may_try(s, cell):
    """13.3 as the Ziegler player can judge it (D20, R13.3b): False when he
    knows the stack is not engineers only: he has a unit there or it was
    revealed (he sees it all), or its top counter (the lowest-index unit, R9.5)
    is not an engineer."""
    if count_units(s, cell, ZIEGLER) > 0 or is_revealed(s, cell):
        return second_move_may_enter(s, cell)
    top = top_counter(s, cell, TECHNOCRAT)
    return top < 0 or s["unit_type"][top] == T_ENGINEER
