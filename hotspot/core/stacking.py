"""Stacking (9.0): limits per hex.  Stress is in damage.py (9.3, 14.2).

9.1: on a crustal hex (9.4: the Central Crustal too) one side may have at most
``stack_side_crustal`` (9) units and both sides together ``stack_total_crustal``
(12).  9.2: at most ``stack_platform`` (9) units of either or both sides on an
attack platform.  An infantry counter is one unit whatever its squads (10.0).
"""

from ._jit import jit
from .rules_data import PLATFORM
from .units import count_by_side, count_units


@jit
def side_limit(s, cell):
    """How many units one side may have in ``cell`` (0 on molten rock)."""
    k = s["board"][cell]
    if k < 0:
        return 0
    if s["piece_kind"][k] == PLATFORM:
        return s["rules"]["stack_platform"]
    return min(s["rules"]["stack_side_crustal"], s["rules"]["stack_total_crustal"])


@jit
def total_limit(s, cell):
    k = s["board"][cell]
    if k < 0:
        return 0
    if s["piece_kind"][k] == PLATFORM:
        return s["rules"]["stack_platform"]
    return s["rules"]["stack_total_crustal"]


@jit
def room_left(s, cell, own, total):
    """9.1, 9.2: how many more units of a side with ``own`` counters in
    ``cell``, where ``total`` counters stand, may join them (<= 0: none)."""
    return min(int(side_limit(s, cell)) - int(own), int(total_limit(s, cell)) - int(total))


@jit
def room_for(s, cell, side, own, total):
    """9.1, 9.2: may one more unit of ``side`` join ``own`` counters of its side
    and ``total`` counters in ``cell``?"""
    return room_left(s, cell, own, total) >= 1


@jit
def room_for_one_more(s, cell, side):
    """9.1, 9.2: may one more unit of ``side`` stand in ``cell``?"""
    z, t = count_by_side(s, cell)
    return room_for(s, cell, side, t if side == 1 else z, z + t)


@jit
def stacking_ok(s, cell):
    """Both limits hold in ``cell`` (used by the checks and the tests)."""
    for side in range(2):
        if count_units(s, cell, side) > side_limit(s, cell):
            return False
    return count_units(s, cell, -1) <= total_limit(s, cell)
