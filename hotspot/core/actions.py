"""Decisions as actions: one fixed discrete action space, the legal-action
mask and ``step`` (the pgx/OpenSpiel-style core API over one state record).

=================  ==========  ==============================================
action             index       meaning (phase)
=================  ==========  ==============================================
SELECT_PIECE k     0..31       crustal phases A/E: pick crustal or platform k
                               to move; control phase H: attempt to
                               neutralize crustal k (15.4)
SELECT_UNIT u      32..127     movement phases B/D/F: pick unit u to move;
                               combat phases C/G: resolve the combat in u's
                               hex (12.7; u = first attacker there)
COMBINE_WITH v     128..223    B/F: counter v joins the selected infantry (10.0)
MANEUVER m         224..238    A/E: maneuver m of the selected piece (see
                               crustal_movement); B/D/F: m = 0..5 steps the
                               selected unit one hex in direction m (8.1)
SPLIT              239         B/F: split one squad off the selected infantry
END_PIECE          240         end the selected piece's or unit's move
END_PHASE          241         end the phase (movement, control phases)
SETUP_CHOOSE i     242..256    set-up (3.2, 3.3, D21): the next item to place
                               (rules_data.ITEM_*)
SETUP_HEX h        257..571    set-up: the map hex h = row * 15 + col for it
SETUP_FACING f     572..577    set-up: the facing of a crustal of 2-3 hexes
=================  ==========  ==============================================

With the D22 option ``losses="owner"``, a C result or a Close Infantry
Assault that takes a squad waits for the losing side: SELECT_UNIT u then
names the counter that loses it (the only legal actions until it is done).

``action_error`` is the single legality check: the mask is exactly the
actions whose error is OK, and ``step`` refuses (returns the error code,
leaving the state untouched) any other.

The grammar cannot loop (R4.2, docs/rules.md): a selection ends with the
piece's or unit's move, except that one left unmoved may be selected again
once (switching away from it a second time ends its move); a counter made by
combining may not split again in the phase; set-up choices commit.  So every
sequence of legal actions ends every phase in a bounded number of actions.
"""

import numpy as np

from ._jit import jit
from .breakdowns import can_combine, can_split, combine, split
from .combat import is_combat_leader, resolve_combat
from .control import attempt_neutralize, can_neutralize
from .crustal_movement import (
    KIND_MANEUVERS,
    NUM_MANEUVERS,
    can_move_piece,
    finish_piece,
    make_maneuver,
    maneuver_cells,
    maneuver_legal,
)
from .errors import (
    ERR_ALREADY_SELECTED,
    ERR_BAD_ACTION,
    ERR_CANNOT_COMBINE,
    ERR_CANNOT_NEUTRALIZE,
    ERR_CANNOT_SPLIT,
    ERR_COMBATS_PENDING,
    ERR_COMBINED,
    ERR_GAME_OVER,
    ERR_HEX_OCCUPIED,
    ERR_LOSS_PENDING,
    ERR_MANEUVER_NOT_FOR_PIECE,
    ERR_NEUTRALIZED,
    ERR_NO_SUCH_PIECE,
    ERR_NO_SUCH_UNIT,
    ERR_NOT_A_COMBAT,
    ERR_NOT_A_LOSS,
    ERR_NOT_HOVERCRAFT,
    ERR_NOT_INFANTRY,
    ERR_NOT_YOUR_PIECE,
    ERR_NOT_YOUR_UNIT,
    ERR_NOTHING_SELECTED,
    ERR_PIECE_CANNOT_MOVE,
    ERR_PIECE_DONE,
    ERR_SETTING_UP,
    ERR_UNIT_DONE,
    ERR_WRONG_PHASE,
    OK,
)
from .events import EV_ACTION, log_event
from .hexgrid import NUM_MAP_HEXES
from .regular_movement import finish_unit, step_error, step_unit
from .rules_data import (
    CENTRAL,
    NO_PIECE,
    NO_UNIT,
    NUM_ITEMS,
    PHASE_CONTROL,
    PHASE_OVER,
    PHASE_PLAYER,
    PHASE_Z_SECOND,
    UNIT_IS_INFANTRY,
    UNIT_SIDE,
    Z_HOVERCRAFT,
)
from .sequence import (
    advance,
    begin_phase,
    end_phase,
    is_combat_phase,
    is_crustal_phase,
    is_movement_phase,
    piece_movable_by,
)
from .setup import (
    NUM_FACINGS,
    choose_item,
    facing_error,
    hex_error,
    is_setup_phase,
    item_error,
    place_at_hex,
    place_facing,
    setup_done,
    setup_phase_for,
)
from .state import MAX_PIECES, MAX_UNITS, PF_DONE, PF_SKIPPED, PF_STARTED, UF_COMBINED, UF_DONE, UF_SKIPPED, UF_STARTED
from .units import count_units, loss_error_for, take_pending_loss
from .victory import check_engineers

A_SELECT_PIECE = 0
A_SELECT_UNIT = A_SELECT_PIECE + MAX_PIECES
A_COMBINE = A_SELECT_UNIT + MAX_UNITS
A_MANEUVER = A_COMBINE + MAX_UNITS
A_SPLIT = A_MANEUVER + NUM_MANEUVERS
A_END_PIECE = A_SPLIT + 1
A_END_PHASE = A_END_PIECE + 1
A_SETUP_CHOOSE = A_END_PHASE + 1
A_SETUP_HEX = A_SETUP_CHOOSE + NUM_ITEMS
A_SETUP_FACING = A_SETUP_HEX + NUM_MAP_HEXES
NUM_ACTIONS = A_SETUP_FACING + NUM_FACINGS
NUM_PLAY_ACTIONS = A_SETUP_CHOOSE  # the actions of the phases of play (4.0 A-H)


@jit
def _piece_select_error(s, k):
    return _piece_select_error_in(s, k, s["sel_piece"], PHASE_PLAYER[s["phase"]])


@jit
def _piece_select_error_in(s, k, sel, side):
    """``_piece_select_error`` with what the phase fixes given: ``sel`` the
    selected piece, ``side`` the phase's player."""
    if k == sel:
        return ERR_ALREADY_SELECTED
    kind = s["piece_kind"][k]
    if kind == NO_PIECE or kind == CENTRAL:
        return ERR_NO_SUCH_PIECE
    if s["piece_neutralized"][k]:
        return ERR_NEUTRALIZED
    if not piece_movable_by(s, k, side):
        return ERR_NOT_YOUR_PIECE
    if s["piece_flags"][k] & PF_DONE:
        return ERR_PIECE_DONE
    if not can_move_piece(s, k):
        return ERR_PIECE_CANNOT_MOVE
    return OK


@jit
def _unit_select_error(s, u):
    return _unit_select_error_in(s, u, s["sel_unit"], PHASE_PLAYER[s["phase"]], s["phase"] == PHASE_Z_SECOND)


@jit
def _unit_select_error_in(s, u, sel, side, second):
    """``_unit_select_error`` with what the phase fixes given (the legal set's
    loop over the units reads them once): ``sel`` the selected unit, ``side``
    the phase's player, ``second`` the hovercraft's second movement (13.0)."""
    if u == sel:
        return ERR_ALREADY_SELECTED
    t = s["unit_type"][u]
    if t == NO_UNIT:
        return ERR_NO_SUCH_UNIT
    if UNIT_SIDE[t] != side:
        return ERR_NOT_YOUR_UNIT
    if second and t != Z_HOVERCRAFT:
        return ERR_NOT_HOVERCRAFT
    if (s["unit_flags"][u] & UF_DONE) or s["unit_moves"][u] <= 0:
        return ERR_UNIT_DONE
    return OK


@jit
def _select_piece_error(s, p, k):
    if is_crustal_phase(p):
        return _piece_select_error(s, k)
    if p == PHASE_CONTROL:
        return OK if can_neutralize(s, k) else ERR_CANNOT_NEUTRALIZE
    return ERR_WRONG_PHASE


@jit
def _select_unit_error(s, p, u):
    if is_movement_phase(p):
        return _unit_select_error(s, u)
    if is_combat_phase(p):
        return OK if is_combat_leader(s, u) else ERR_NOT_A_COMBAT
    return ERR_WRONG_PHASE


@jit
def _breakdown_error(s, p):
    """10.0: breakdowns need the owner's regular movement phase and selected infantry."""
    if not is_movement_phase(p) or p == PHASE_Z_SECOND:
        return ERR_WRONG_PHASE
    u = s["sel_unit"]
    if u < 0:
        return ERR_NOTHING_SELECTED
    if not UNIT_IS_INFANTRY[s["unit_type"][u]]:
        return ERR_NOT_INFANTRY
    return OK


@jit
def _combine_error(s, p, v):
    err = _breakdown_error(s, p)
    if err != OK:
        return err
    return OK if can_combine(s, s["sel_unit"], v) else ERR_CANNOT_COMBINE


@jit
def _maneuver_error(s, p, m):
    if is_crustal_phase(p):
        k = s["sel_piece"]
        if k < 0:
            return ERR_NOTHING_SELECTED
        if maneuver_legal(s, k, m):
            return OK
        if maneuver_cells(s, k, m)[0] == 0:
            return ERR_MANEUVER_NOT_FOR_PIECE
        return ERR_HEX_OCCUPIED
    if is_movement_phase(p):
        if s["sel_unit"] < 0:
            return ERR_NOTHING_SELECTED
        if m >= 6:
            return ERR_MANEUVER_NOT_FOR_PIECE
        return step_error(s, s["sel_unit"], m)
    return ERR_WRONG_PHASE


@jit
def _split_error(s, p):
    err = _breakdown_error(s, p)
    if err != OK:
        return err
    if s["unit_flags"][s["sel_unit"]] & UF_COMBINED:  # R10.2: no split after a combine
        return ERR_COMBINED
    return OK if can_split(s, s["sel_unit"]) else ERR_CANNOT_SPLIT


@jit
def _end_piece_error(s, p):
    if is_crustal_phase(p):
        return OK if s["sel_piece"] >= 0 else ERR_NOTHING_SELECTED
    if is_movement_phase(p):
        return OK if s["sel_unit"] >= 0 else ERR_NOTHING_SELECTED
    return ERR_WRONG_PHASE


@jit
def _end_phase_error(s, p):
    if is_combat_phase(p):
        return ERR_COMBATS_PENDING  # 12.1: every combat is resolved first
    return OK


@jit
def _setup_error(s, a):
    """D21: the set-up actions (setup.py)."""
    if a < A_SETUP_CHOOSE:
        return ERR_SETTING_UP
    if a < A_SETUP_HEX:
        return item_error(s, a - A_SETUP_CHOOSE)
    if a < A_SETUP_FACING:
        return hex_error(s, a - A_SETUP_HEX)
    return facing_error(s, a - A_SETUP_FACING)


@jit
def action_error(s, a):
    """Why action ``a`` is illegal now, or OK (0)."""
    p = s["phase"]
    if p == PHASE_OVER:
        return ERR_GAME_OVER
    if a < 0 or a >= NUM_ACTIONS:
        return ERR_BAD_ACTION
    if is_setup_phase(p):
        return _setup_error(s, a)
    if a >= A_SETUP_CHOOSE:
        return ERR_WRONG_PHASE
    if s["loss_side"] >= 0:  # D22 losses="owner": the owner names the counter first
        if a < A_SELECT_UNIT or a >= A_COMBINE:
            return ERR_LOSS_PENDING
        return OK if loss_error_for(s, a - A_SELECT_UNIT) else ERR_NOT_A_LOSS
    if a < A_SELECT_UNIT:
        return _select_piece_error(s, p, a - A_SELECT_PIECE)
    if a < A_COMBINE:
        return _select_unit_error(s, p, a - A_SELECT_UNIT)
    if a < A_MANEUVER:
        return _combine_error(s, p, a - A_COMBINE)
    if a < A_SPLIT:
        return _maneuver_error(s, p, a - A_MANEUVER)
    if a == A_SPLIT:
        return _split_error(s, p)
    if a == A_END_PIECE:
        return _end_piece_error(s, p)
    return _end_phase_error(s, p)


@jit
def legal_actions(s, out):  # noqa: C901 (one case a phase and action kind (4.0), the mask's one pass)
    """Write the legal actions of the player to move into ``out`` (an integer
    array of at least ``NUM_ACTIONS`` entries), in increasing index order, and
    return how many there are.

    The one builder of the legal set (the mask is made from it): the same
    checks as ``action_error``, block by block (the tests hold the two equal
    action for action, after every action of many games), visiting only the
    blocks the current sub-decision can use: the set-up block of the step in
    hand (3.2, 3.3, D21), the pending loss (D22), the pieces of a crustal or
    control phase and the selected piece's maneuvers, the units of a
    movement or combat phase and the selected unit's combines, steps and
    split.  A uniform choice is then one draw over ``out[:n]`` (no scan of
    the whole action space)."""
    p = s["phase"]
    if p == PHASE_OVER:
        return 0
    n = 0
    if is_setup_phase(p):
        if s["setup_item"] < 0:
            for i in range(NUM_ITEMS):
                if item_error(s, i) == OK:
                    out[n] = A_SETUP_CHOOSE + i
                    n += 1
        elif s["setup_cell"] < 0:
            for h in range(NUM_MAP_HEXES):
                if hex_error(s, h) == OK:
                    out[n] = A_SETUP_HEX + h
                    n += 1
        else:
            for f in range(NUM_FACINGS):
                if facing_error(s, f) == OK:
                    out[n] = A_SETUP_FACING + f
                    n += 1
        return n
    if s["loss_side"] >= 0:
        for u in range(MAX_UNITS):
            if loss_error_for(s, u):
                out[n] = A_SELECT_UNIT + u
                n += 1
        return n
    if is_crustal_phase(p):
        sel = s["sel_piece"]
        side = PHASE_PLAYER[p]
        for k in range(MAX_PIECES):
            if _piece_select_error_in(s, k, sel, side) == OK:  # _select_piece_error
                out[n] = A_SELECT_PIECE + k
                n += 1
        if sel >= 0:
            kind = s["piece_kind"][sel]
            for m in range(NUM_MANEUVERS):  # _maneuver_error of a crustal phase with sel selected
                if KIND_MANEUVERS[kind, m] and maneuver_legal(s, sel, m):
                    out[n] = A_MANEUVER + m
                    n += 1
            out[n] = A_END_PIECE
            n += 1
    elif p == PHASE_CONTROL:
        for k in range(MAX_PIECES):
            if _select_piece_error(s, p, k) == OK:
                out[n] = A_SELECT_PIECE + k
                n += 1
    elif is_movement_phase(p):
        sel = s["sel_unit"]
        side = PHASE_PLAYER[p]
        second = p == PHASE_Z_SECOND
        for u in range(MAX_UNITS):
            if _unit_select_error_in(s, u, sel, side, second) == OK:  # _select_unit_error
                out[n] = A_SELECT_UNIT + u
                n += 1
        if sel >= 0:
            breakdowns = not second and UNIT_IS_INFANTRY[s["unit_type"][sel]]
            # _breakdown_error is OK: what is left of _combine_error is can_combine, which
            # needs a second counter of the side in the hex (the cell_units index says if any)
            if breakdowns and count_units(s, s["unit_cell"][sel], side) >= 2:
                for v in range(MAX_UNITS):
                    if can_combine(s, sel, v):
                        out[n] = A_COMBINE + v
                        n += 1
            for d in range(6):  # _maneuver_error of a movement phase with sel selected
                if step_error(s, sel, d) == OK:
                    out[n] = A_MANEUVER + d
                    n += 1
            if breakdowns and _split_error(s, p) == OK:
                out[n] = A_SPLIT
                n += 1
            out[n] = A_END_PIECE
            n += 1
    elif is_combat_phase(p):
        for u in range(MAX_UNITS):
            if _select_unit_error(s, p, u) == OK:
                out[n] = A_SELECT_UNIT + u
                n += 1
    if _end_phase_error(s, p) == OK:
        out[n] = A_END_PHASE
        n += 1
    return n


@jit
def legal_action_mask(s, mask):
    """Fill boolean ``mask`` (NUM_ACTIONS) with the legal actions of the
    player to move: exactly the actions whose ``action_error`` is OK (made
    from :func:`legal_actions`)."""
    acts = np.empty(NUM_ACTIONS, dtype=np.int16)
    n = legal_actions(s, acts)
    mask[:] = False
    for i in range(n):
        mask[acts[i]] = True


@jit
def legal_set_disagreement(s, acts):
    """The first action on which :func:`legal_actions` and ``action_error``
    disagree in ``s``, or -1 when they agree on every action (the check of
    the fast path behind the tests and ``benchmarks/bench_legality.py``;
    ``acts``: an integer array of ``NUM_ACTIONS`` entries)."""
    n = legal_actions(s, acts)
    i = 0
    for a in range(NUM_ACTIONS):
        listed = i < n and acts[i] == a
        if listed:
            i += 1
        if listed != (action_error(s, a) == OK):
            return a
    if i != n:  # out of order or repeated entries
        return acts[i]
    return -1


@jit
def current_player(s):
    """0 Ziegler, 1 Technocrat, -1 when the game is over.  Usually the phase's
    player (4.0); the losing side while a loss it chooses is pending (D22)."""
    if s["loss_side"] >= 0:
        return s["loss_side"]
    return PHASE_PLAYER[s["phase"]]


@jit
def apply_action(s, a, ev, ev_n):
    """Apply a legal action (no check; use ``step``)."""
    p = s["phase"]
    log_event(ev, ev_n, EV_ACTION, a, current_player(s), s["turn"], p, 0)
    s["n_actions"] += 1
    # D19 is checked after every action that can take squads off the board: a
    # selection, the end of a move, a combine or a split leaves the engineer
    # squads as they were (and the game went on after the last action)
    squads_may_change = True
    if s["loss_side"] >= 0:
        take_pending_loss(s, a - A_SELECT_UNIT, ev, ev_n)
    elif a < A_SELECT_UNIT:
        k = a - A_SELECT_PIECE
        if p == PHASE_CONTROL:
            attempt_neutralize(s, k, ev, ev_n)
        else:
            j = s["sel_piece"]
            if j >= 0:
                # R4.2: switching away ends a started move; an unmoved piece may
                # be selected again once, and leaving it a second time ends it
                if s["piece_flags"][j] & (PF_STARTED | PF_SKIPPED):
                    finish_piece(s, j)
                else:
                    s["piece_flags"][j] |= PF_SKIPPED
            s["sel_piece"] = k
            squads_may_change = False
    elif a < A_COMBINE:
        u = a - A_SELECT_UNIT
        if is_combat_phase(p):
            resolve_combat(s, s["unit_cell"][u], ev, ev_n)
        else:
            v = s["sel_unit"]
            if v >= 0:
                if s["unit_flags"][v] & (UF_STARTED | UF_SKIPPED):  # R4.2, as for pieces
                    finish_unit(s, v)
                else:
                    s["unit_flags"][v] |= UF_SKIPPED
            s["sel_unit"] = u
            squads_may_change = False
    elif a < A_MANEUVER:
        u = s["sel_unit"]
        combine(s, u, a - A_COMBINE, ev, ev_n)
        s["unit_flags"][u] |= UF_COMBINED  # R10.2
        squads_may_change = False
    elif a < A_SPLIT:
        if is_crustal_phase(p):
            make_maneuver(s, s["sel_piece"], a - A_MANEUVER, ev, ev_n)
        else:
            step_unit(s, s["sel_unit"], a - A_MANEUVER, ev, ev_n)
    elif a == A_SPLIT:
        split(s, s["sel_unit"], ev, ev_n)
        squads_may_change = False
    elif a == A_END_PIECE:
        if is_crustal_phase(p):
            finish_piece(s, s["sel_piece"])
        else:
            finish_unit(s, s["sel_unit"])
        squads_may_change = False
    elif a == A_END_PHASE:
        end_phase(s, ev, ev_n)
    else:
        _apply_setup(s, a, ev, ev_n)
        return
    if not (squads_may_change and check_engineers(s, ev, ev_n)):
        advance(s, ev, ev_n)


@jit
def _apply_setup(s, a, ev, ev_n):
    if a < A_SETUP_HEX:
        choose_item(s, a - A_SETUP_CHOOSE)
    elif a < A_SETUP_FACING:
        place_at_hex(s, a - A_SETUP_HEX, ev, ev_n)
    else:
        place_facing(s, a - A_SETUP_FACING, ev, ev_n)
    if s["setup_item"] < 0 and setup_done(s):  # 3.2 then 3.3, then play begins (4.0)
        _begin(s, setup_phase_for(s), ev, ev_n)


@jit
def _begin(s, p, ev, ev_n):
    begin_phase(s, p, ev, ev_n)
    if not check_engineers(s, ev, ev_n):
        advance(s, ev, ev_n)


@jit
def step(s, a, ev, ev_n):
    """Apply action ``a`` if legal; return OK, or the error code with ``s`` unchanged."""
    err = action_error(s, a)
    if err != OK:
        return err
    apply_action(s, a, ev, ev_n)
    return OK


@jit
def start(s, ev, ev_n):
    """Begin a fresh state: its set-up phase while a force pool is left to
    place (3.2, 3.3, D21), else play at its turn and phase (4.0)."""
    p = setup_phase_for(s)
    _begin(s, p if is_setup_phase(p) else s["phase"], ev, ev_n)
