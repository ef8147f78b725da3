"""Crustal damage and break-up (14.0): damage rolls, stress (9.3, 14.2, 13.2),
break-ups (14.4, 14.5, 14.6, 6.9).

Rules option ``stress_timing`` (D22, 9.3, 4.0 B and F) decides which hexes
are rolled for at the end of a regular movement phase: ``"every_phase"``
(default, R9.3) every crustal hex and platform holding more than
``stress_threshold`` counters, whichever side moved; ``"moving_side"`` only
such a hex that the moving side overstacked, that is, one that holds at the
end of the phase a counter of the moving side that entered it this phase
(``UF_STARTED``: a counter that has made a step stands in the hex its last
step entered) or was made there by a split this phase
(``state.UF_SPLIT``).  Stress after retreats (12.6) and after the
hovercraft second movement (13.2) is the same under both values.
"""

from ._jit import jit
from .dice import roll_die
from .events import BREAK_DAMAGE, BREAK_OFF_MAP, BREAK_PLATFORM_TIME, EV_DAMAGE, EV_STRESS, log_event
from .pieces import break_up, partly_off_map
from .rules_data import (
    CENTRAL,
    CHART_STRESS,
    MAX_PIECE_CELLS,
    NO_PIECE,
    NO_UNIT,
    PHASE_PLAYER,
    PLATFORM,
    STRESS_MOVING_SIDE,
    UNIT_SIDE,
)
from .state import MAX_PIECES, MAX_UNITS, UF_SPLIT, UF_STARTED
from .units import count_units


@jit
def damage_roll(s, k, chart, ev, ev_n):
    """One roll on the Crustal Damage Chart for piece k (14.2, 14.3): a 1 is one point of damage.

    7.5, 14.7: the Central Crustal never takes damage (and rolls nothing).
    """
    if s["piece_kind"][k] == CENTRAL or s["piece_kind"][k] == NO_PIECE:
        return
    roll = roll_die(s, chart, k, ev, ev_n)
    if roll <= s["rules"]["damage_roll_max"]:
        s["piece_damage"][k] += 1
        log_event(ev, ev_n, EV_DAMAGE, k, s["piece_damage"][k], 0, 0, 0)


@jit
def stress_check_cell(s, k, slot, only_unrolled, mark, ev, ev_n):
    """9.3, 14.2: more than ``stress_threshold`` units in one crustal hex (or on
    a platform) -> its owner rolls on the Crustal Damage Chart.  9.4: never the
    Central Crustal.  13.2: in the second movement a hex already rolled for
    turn's regular movement is not rolled again (``only_unrolled``; the
    Ziegler regular movement ``mark``s the hexes it rolled for)."""
    kind = s["piece_kind"][k]
    if kind == NO_PIECE or kind == CENTRAL:
        return
    cell = s["piece_cells"][k, slot]
    if cell < 0:
        return
    n = count_units(s, cell, -1)
    if n <= s["rules"]["stress_threshold"]:
        return
    bit = 1 << slot
    if only_unrolled and (s["piece_stress"][k] & bit):
        return
    if mark:
        s["piece_stress"][k] |= bit
    log_event(ev, ev_n, EV_STRESS, k, slot, n, 0, 0)
    damage_roll(s, k, CHART_STRESS, ev, ev_n)


@jit
def overstacked_by(s, cell, side):
    """D22 ``stress_timing="moving_side"``: does ``cell`` hold a counter of
    ``side`` that entered it this phase (``UF_STARTED``) or was split off
    there this phase (``UF_SPLIT``)?"""
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if (
            t != NO_UNIT
            and s["unit_cell"][u] == cell
            and UNIT_SIDE[t] == side
            and (s["unit_flags"][u] & (UF_STARTED | UF_SPLIT))
        ):
            return True
    return False


@jit
def stress_check_all(s, only_unrolled, mark, ev, ev_n):
    """Stress at the end of a regular movement phase (9.3; 4.0 B, F): every
    piece hex over the threshold, or under ``stress_timing="moving_side"``
    (D22) only those the moving side (the player of the current phase)
    overstacked."""
    mover = -1
    if s["rules"]["stress_timing"] == STRESS_MOVING_SIDE:
        mover = PHASE_PLAYER[s["phase"]]
    threshold = s["rules"]["stress_threshold"]
    for k in range(1, MAX_PIECES):
        if s["piece_kind"][k] == NO_PIECE:
            continue
        for slot in range(MAX_PIECE_CELLS):
            cell = s["piece_cells"][k, slot]
            if cell < 0 or count_units(s, cell, -1) <= threshold:
                continue  # a hex stress_check_cell passes over: not overstacked
            if mover >= 0 and not overstacked_by(s, cell, mover):
                continue
            stress_check_cell(s, k, slot, only_unrolled, mark, ev, ev_n)


@jit
def stress_check_at(s, cell, only_unrolled, mark, ev, ev_n):
    """Stress for one hex: after a retreat into it (12.6), or a hovercraft's
    second movement ending in it (13.2)."""
    if cell < 0:
        return
    k = s["board"][cell]
    if k <= 0:
        return
    for slot in range(MAX_PIECE_CELLS):
        if s["piece_cells"][k, slot] == cell:
            stress_check_cell(s, k, slot, only_unrolled, mark, ev, ev_n)


@jit
def break_ups(s, ev, ev_n):
    """Step 4 of the Crustal Control phase (D18): every break-up of this turn.

    14.6 damage equal to the rating; 6.9/14.4 partly off the map; 14.5
    platforms in the control phase of turn ``platform_turns`` (4).
    """
    for k in range(1, MAX_PIECES):
        kind = s["piece_kind"][k]
        if kind == NO_PIECE:
            continue
        if s["piece_damage"][k] >= s["rules"]["damage_rating"][kind]:
            break_up(s, k, BREAK_DAMAGE, ev, ev_n)
        elif partly_off_map(s, k):
            break_up(s, k, BREAK_OFF_MAP, ev, ev_n)
        elif kind == PLATFORM and s["turn"] >= s["rules"]["platform_turns"]:
            break_up(s, k, BREAK_PLATFORM_TIME, ev, ev_n)
