"""The game-turn sequence (4.0): phases A to H and what happens between them.

``begin_phase`` prepares a phase (movement allowances, the automatic steps of
the Crustal Control phase), ``end_phase`` closes it (stress checks, break-ups,
a harness's ``max_turns``) and ``advance`` skips every phase in which the player to move
has no decision, so that every action an agent sees is a real choice.
"""

from ._jit import jit
from .combat import any_combat
from .control import can_neutralize, control_attempts, reversions
from .crustal_movement import can_move_piece, finish_piece
from .damage import break_ups, stress_check_all, stress_check_at
from .events import EV_PHASE, log_event
from .hovercraft import clear_revealed, second_move_allowance
from .regular_movement import finish_unit
from .rules_data import (
    CENTRAL,
    NO_PIECE,
    NO_UNIT,
    ONE_HEX,
    PHASE_CONTROL,
    PHASE_OVER,
    PHASE_PLAYER,
    PHASE_T_COMBAT,
    PHASE_T_CRUSTAL,
    PHASE_T_MOVE,
    PHASE_Z_COMBAT,
    PHASE_Z_CRUSTAL,
    PHASE_Z_MOVE,
    PHASE_Z_SECOND,
    PLATFORM,
    TECHNOCRAT,
    TECHNOCRAT_WIN,
    UNIT_SIDE,
    ZIEGLER,
)
from .state import MAX_PIECES, MAX_UNITS, PF_DONE, PF_NEUTRALIZE_TRIED, UF_ATTACKING, UF_DONE, UF_STARTED
from .units import count_units
from .victory import check_engineers, end_game, truncate_if_over_time


@jit
def piece_movable_by(s, k, side):
    """4.0 A/E, 6.1: the Ziegler player moves the crustals he controls; the
    Technocrat his platforms and the crustals he controls (15.2); 15.4:
    never a neutralized crustal; 6.1: never the Central Crustal."""
    kind = s["piece_kind"][k]
    if kind == NO_PIECE or kind == CENTRAL or s["piece_neutralized"][k]:
        return False
    if kind == PLATFORM:
        return side == TECHNOCRAT
    return s["piece_controller"][k] == side


@jit
def is_crustal_phase(p):
    return p == PHASE_Z_CRUSTAL or p == PHASE_T_CRUSTAL


@jit
def is_movement_phase(p):
    return p == PHASE_Z_MOVE or p == PHASE_T_MOVE or p == PHASE_Z_SECOND


@jit
def is_combat_phase(p):
    return p == PHASE_Z_COMBAT or p == PHASE_T_COMBAT


@jit
def _prepare_pieces(s):
    for k in range(MAX_PIECES):
        kind = s["piece_kind"][k]
        s["piece_flags"][k] = 0
        if kind == ONE_HEX:
            allowance = s["rules"]["one_hex_move"]
            if s["turn"] == 1:  # 6.10, D11
                allowance = min(allowance, s["rules"]["first_turn_one_hex_move"])
            s["piece_moves"][k] = allowance
        elif kind == PLATFORM:
            s["piece_moves"][k] = s["rules"]["platform_move"]  # 6.7
        else:
            s["piece_moves"][k] = 1  # one maneuver (6.4-6.6)


@jit
def _prepare_units(s, side, second_movement):
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t == NO_UNIT:
            continue
        s["unit_flags"][u] = 0
        if UNIT_SIDE[t] != side:
            s["unit_moves"][u] = 0
            continue
        s["unit_from"][u] = -1
        if second_movement:
            s["unit_moves"][u] = second_move_allowance(s, u)  # 13.1
        else:
            s["unit_moves"][u] = s["rules"]["movement"][t]  # 8.1


@jit
def begin_phase(s, p, ev, ev_n):
    s["phase"] = p
    s["sel_piece"] = -1
    s["sel_unit"] = -1
    clear_revealed(s)  # R13.3b: what a refused entry showed lasts the phase
    log_event(ev, ev_n, EV_PHASE, p, s["turn"], 0, 0, 0)
    if p == PHASE_Z_CRUSTAL:
        for k in range(MAX_PIECES):
            s["piece_stress"][k] = 0  # 13.2 counts rolls of this turn only
        _prepare_pieces(s)
    elif p == PHASE_T_CRUSTAL:
        _prepare_pieces(s)
    elif p == PHASE_Z_MOVE:
        _prepare_units(s, ZIEGLER, False)
    elif p == PHASE_Z_SECOND:
        _prepare_units(s, ZIEGLER, True)
    elif p == PHASE_T_MOVE:
        _prepare_units(s, TECHNOCRAT, False)
    elif p == PHASE_CONTROL:  # D18 steps 1 and 2; step 3 is the Technocrat's decisions
        for k in range(MAX_PIECES):
            s["piece_flags"][k] &= ~PF_NEUTRALIZE_TRIED
        if control_attempts(s, ev, ev_n):
            end_game(s, TECHNOCRAT_WIN, 0, ev, ev_n)  # 15.5
            return
        reversions(s, ev, ev_n)


@jit
def _mark_attackers(s, side):
    """8.3: every unit of the moving side now in a hex with enemy units attacks there."""
    for u in range(MAX_UNITS):
        t = s["unit_type"][u]
        if t != NO_UNIT and UNIT_SIDE[t] == side and count_units(s, s["unit_cell"][u], 1 - side) > 0:
            s["unit_flags"][u] |= UF_ATTACKING | UF_DONE
            s["unit_moves"][u] = 0


@jit
def end_phase(s, ev, ev_n):
    """Close the current phase and begin the next one."""
    p = s["phase"]
    if is_crustal_phase(p) and s["sel_piece"] >= 0:
        finish_piece(s, s["sel_piece"])
    if is_movement_phase(p):
        if s["sel_unit"] >= 0:
            finish_unit(s, s["sel_unit"])
        _mark_attackers(s, PHASE_PLAYER[p])
    if p == PHASE_Z_MOVE:
        stress_check_all(s, False, True, ev, ev_n)  # 9.3; marks hexes for 13.2
    elif p == PHASE_Z_SECOND:
        # 13.2: hexes a hovercraft moved into, unless rolled for in this turn's regular movement
        for u in range(MAX_UNITS):
            if s["unit_type"][u] != NO_UNIT and (s["unit_flags"][u] & UF_STARTED):
                stress_check_at(s, s["unit_cell"][u], True, True, ev, ev_n)
    elif p == PHASE_T_MOVE:
        stress_check_all(s, False, False, ev, ev_n)  # 9.3
    if check_engineers(s, ev, ev_n):
        return
    if p == PHASE_CONTROL:
        break_ups(s, ev, ev_n)  # D18 step 4
        if check_engineers(s, ev, ev_n):  # D18 step 5
            return
        if truncate_if_over_time(s, ev, ev_n):  # D19 revised: a harness's limit, no winner
            return
        s["turn"] += 1
        begin_phase(s, PHASE_Z_CRUSTAL, ev, ev_n)
    else:
        begin_phase(s, p + 1, ev, ev_n)


@jit
def has_decision(s):
    """Does the player to move have any choice but to end the phase?"""
    p = s["phase"]
    if p >= PHASE_OVER or s["loss_side"] >= 0:  # over, set-up (D21), or a loss to choose (D22)
        return True
    side = PHASE_PLAYER[p]
    if is_crustal_phase(p):
        if s["sel_piece"] >= 0:
            return True
        for k in range(MAX_PIECES):
            if piece_movable_by(s, k, side) and not (s["piece_flags"][k] & PF_DONE) and can_move_piece(s, k):
                return True
        return False
    if is_movement_phase(p):
        if s["sel_unit"] >= 0:
            return True
        for u in range(MAX_UNITS):
            t = s["unit_type"][u]
            if t != NO_UNIT and UNIT_SIDE[t] == side and s["unit_moves"][u] > 0 and not (s["unit_flags"][u] & UF_DONE):
                return True
        return False
    if is_combat_phase(p):
        return any_combat(s)
    for k in range(MAX_PIECES):  # PHASE_CONTROL
        if can_neutralize(s, k):
            return True
    return False


@jit(inline=True)
def advance(s, ev, ev_n):
    """End phases until the player to move has a decision or the game is over."""
    while s["phase"] != PHASE_OVER and not has_decision(s):
        end_phase(s, ev, ev_n)
