"""Numeric observations for learning agents, encoded from the core's
information state (``core.observation.observe``, D20) so that nothing hidden
can leak into them.

An observation is a dict of four int arrays:

``board`` (int8, ``(NUM_PLANES, 21, 15)``): hex planes indexed ``[plane, row, col]``
    (D1 map; off-map hexes are not shown):

    ===  ================  ==============================================
    0    molten            1 on molten rock
    1    central           1 on the Central Crustal (D2)
    2    crustal_ziegler   1 on a Ziegler-controlled crustal hex
    3    crustal_techno    1 on a Technocrat-controlled crustal hex (15.2)
    4    neutralized       1 on a neutralized crustal (15.4)
    5    platform          1 on an attack platform
    6    front             1 on the front hex of a two-hex or long crustal
    7    own_damage        damage of the piece there if the observer controls it
    8    piece_done        1 if the piece there has finished moving this phase
    9    selected          1 on the selected piece's hexes or selected unit's hex
    10   z_infantry        Ziegler infantry squads seen in the hex
    11   z_hovercraft      Ziegler hovercraft seen
    12   t_infantry        Technocrat infantry squads seen
    13   t_crawler         crawlers seen
    14   t_heavy_beamer    heavy beamers seen
    15   t_engineer        engineer squads seen
    16   enemy_unknown     enemy counters of unknown type (9.5, D20)
    17   own_can_move      own counters that may still move this phase
    18   contested         1 where both sides have units (a combat)
    ===  ================  ==============================================

    A counter whose squads are hidden (the top counter of an unseen enemy
    stack) counts one squad in its plane.
``units`` (int8, ``(MAX_UNITS, 10)``): one row per unit slot (the ``u`` of the
    SELECT_UNIT / COMBINE_WITH actions): present, own, type (rules_data codes,
    -1 unknown), squads (-1 unknown), col, row, movement left, done,
    attacking, selected.
``pieces`` (int8, ``(MAX_PIECES, 15)``): one row per piece slot (the ``k`` of
    SELECT_PIECE; row 0 is the Central Crustal): present, kind, controlled by
    the observer, neutralized, damage (-1 unknown), damage rating, col/row of
    its three slots (-1, -1 unused), movement left, done, selected.
``globals`` (int16, ``(8 + NUM_PHASES + 14,)``): turn, max_turns (a
    harness's limit, 0 none; D19 revised), platform turns, observer side,
    player to move (-1 when the game is over), result, truncated, actions so
    far (all atomic actions of both sides), then the phase one-hot
    (phases A-H, over, Ziegler set-up, Technocrat set-up), then the set-up
    state (3.2, 3.3, D21): the eight force pools left to place (POOL_*), the
    chosen item (-1 none) and the col/row of a crustal's chosen hex (-1), and
    the pending loss (D22 losses="owner"): losing side (-1 none), col, row.
    During set-up the ``selected`` plane marks a crustal's chosen hex.

Two encoders share this layout:

``encode_info_state``
    the raw encoding of an information state, as above (the learned agent's
    input: its shipped weights were trained on it, so it does not change).
``encode``
    what the environments observe: ``observe`` (D20) then
    ``encode_info_state``, then ``bound_counters`` clips the three values the
    rules leave unbounded, so that every entry lies in its documented range
    (``hotspot.features.bounds``, which gives each entry's low and high and
    the normalised forms): the turn at ``TURN_CAP`` (only reachable with no
    turn limit, 5.0), the action counter at ``ACTIONS_CAP`` (it says how far
    the game has gone, not where), and a piece's damage at its damage rating
    (14.6: a piece whose damage has reached its rating breaks up in the
    Crustal Control phase whatever more it takes).
"""

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.hexgrid import EXT_COLS, MAP_COLS, MAP_ROWS, MARGIN, ON_MAP
from hotspot.core.observation import observe
from hotspot.core.rules_data import (
    CENTRAL,
    LONG,
    MAX_PIECE_CELLS,
    NO_PIECE,
    NO_UNIT,
    NUM_PHASES,
    NUM_POOLS,
    PHASE_PLAYER,
    PLATFORM,
    TECHNOCRAT,
    TWO_HEX,
    UNIT_SIDE,
)
from hotspot.core.state import MAX_PIECES, MAX_UNITS, PF_DONE, STATE_DTYPE, UF_ATTACKING, UF_DONE

PLANE_NAMES = (
    "molten",
    "central",
    "crustal_ziegler",
    "crustal_techno",
    "neutralized",
    "platform",
    "front",
    "own_damage",
    "piece_done",
    "selected",
    "z_infantry",
    "z_hovercraft",
    "t_infantry",
    "t_crawler",
    "t_heavy_beamer",
    "t_engineer",
    "enemy_unknown",
    "own_can_move",
    "contested",
)
NUM_PLANES = len(PLANE_NAMES)
UNIT_FEATURES = ("present", "own", "type", "squads", "col", "row", "moves", "done", "attacking", "selected")
PIECE_FEATURES = (
    "present",
    "kind",
    "own",
    "neutralized",
    "damage",
    "rating",
    "col0",
    "row0",
    "col1",
    "row1",
    "col2",
    "row2",
    "moves",
    "done",
    "selected",
)
GLOBAL_FEATURES = (
    ("turn", "max_turns", "platform_turns", "side", "to_move", "result", "truncated", "actions")
    + tuple(f"phase_{p}" for p in range(NUM_PHASES))
    + tuple(f"pool_{i}" for i in range(NUM_POOLS))
    + ("setup_item", "setup_col", "setup_row", "loss_side", "loss_col", "loss_row")
)
_SETUP_GLOBALS = 8 + NUM_PHASES
#: ``encode`` clips the turn here: the largest ``max_turns`` a harness takes
#: (``core.limits.check_max_turns``); with no limit (5.0) a game may run longer
TURN_CAP = 10_000
#: ``encode`` clips the action counter here
ACTIONS_CAP = 1_000
_PLANE_OF_TYPE = np.array([-1, 10, 11, 12, 13, 14, 15], dtype=np.int64)


def observation_shapes(compact: bool = False):
    """{name: (shape, dtype)} of an observation; ``compact``: the tables only
    (no ``board`` hex planes: about a fifth of the bytes)."""
    shapes = {
        "board": ((NUM_PLANES, MAP_ROWS, MAP_COLS), np.int8),
        "units": ((MAX_UNITS, len(UNIT_FEATURES)), np.int8),
        "pieces": ((MAX_PIECES, len(PIECE_FEATURES)), np.int8),
        "globals": ((len(GLOBAL_FEATURES),), np.int16),
    }
    if compact:
        del shapes["board"]
    return shapes


@jit
def _col(cell):
    return cell % EXT_COLS - MARGIN


@jit
def _row(cell):
    return cell // EXT_COLS - MARGIN


@jit
def _encode_board(o, side, board):
    """The hex planes of information state ``o`` for ``side`` that come from the
    board and the pieces (``encode_info_state`` adds the unit planes)."""
    board[:, :, :] = 0
    sel_piece = o["sel_piece"]
    for r in range(MAP_ROWS):
        for c in range(MAP_COLS):
            cell = (r + MARGIN) * EXT_COLS + c + MARGIN
            k = o["board"][cell]
            if k < 0:
                board[0, r, c] = 1
                continue
            kind = o["piece_kind"][k]
            if kind == CENTRAL:
                board[1, r, c] = 1
            elif kind == PLATFORM:
                board[5, r, c] = 1
            elif o["piece_controller"][k] == TECHNOCRAT:
                board[3, r, c] = 1
            else:
                board[2, r, c] = 1
            if o["piece_neutralized"][k]:
                board[4, r, c] = 1
            if (kind == TWO_HEX or kind == LONG) and o["piece_cells"][k, 0] == cell:
                board[6, r, c] = 1
            if kind != CENTRAL and o["piece_controller"][k] == side and o["piece_damage"][k] > 0:
                board[7, r, c] = o["piece_damage"][k]
            if o["piece_flags"][k] & PF_DONE:
                board[8, r, c] = 1
            if k == sel_piece:
                board[9, r, c] = 1


@jit
def encode_info_state(o, side, with_board, board, units, pieces, globs):
    """Encode information state ``o`` (a fogged or full ``observe`` result) for
    ``side``.  With ``with_board`` False (the compact observation) ``board``
    is not touched: only the unit, piece and global tables are written."""
    units[:, :] = 0
    pieces[:, :] = 0
    globs[:] = 0
    sel_piece = o["sel_piece"]
    sel_unit = o["sel_unit"]
    if with_board:
        _encode_board(o, side, board)
    for k in range(MAX_PIECES):
        kind = o["piece_kind"][k]
        if kind == NO_PIECE:
            continue
        pieces[k, 0] = 1
        pieces[k, 1] = kind
        pieces[k, 2] = 1 if o["piece_controller"][k] == side else 0
        pieces[k, 3] = o["piece_neutralized"][k]
        pieces[k, 4] = o["piece_damage"][k]
        pieces[k, 5] = o["rules"]["damage_rating"][kind]
        for i in range(3):
            cell = o["piece_cells"][k, i]
            if cell >= 0:
                pieces[k, 6 + 2 * i] = _col(cell)
                pieces[k, 7 + 2 * i] = _row(cell)
            else:
                pieces[k, 6 + 2 * i] = -1
                pieces[k, 7 + 2 * i] = -1
        pieces[k, 12] = o["piece_moves"][k]
        pieces[k, 13] = 1 if (o["piece_flags"][k] & PF_DONE) else 0
        pieces[k, 14] = 1 if k == sel_piece else 0
    for u in range(MAX_UNITS):
        t = o["unit_type"][u]
        if t == NO_UNIT:
            continue
        cell = o["unit_cell"][u]
        c = _col(cell)
        r = _row(cell)
        own = t > 0 and UNIT_SIDE[t] == side
        units[u, 0] = 1
        units[u, 1] = 1 if own else 0
        units[u, 2] = t
        units[u, 3] = o["unit_squads"][u]
        units[u, 4] = c
        units[u, 5] = r
        units[u, 6] = o["unit_moves"][u]
        units[u, 7] = 1 if (o["unit_flags"][u] & UF_DONE) else 0
        units[u, 8] = 1 if (o["unit_flags"][u] & UF_ATTACKING) else 0
        units[u, 9] = 1 if u == sel_unit else 0
        if not with_board or not ON_MAP[cell]:
            continue
        if t < 0:
            board[16, r, c] += 1
        else:
            squads = o["unit_squads"][u]
            board[_PLANE_OF_TYPE[t], r, c] += squads if squads > 0 else 1
            if own and o["unit_moves"][u] > 0 and not (o["unit_flags"][u] & UF_DONE):
                board[17, r, c] += 1
        if u == sel_unit:
            board[9, r, c] = 1
    for r in range(MAP_ROWS if with_board else 0):
        for c in range(MAP_COLS):
            z = board[10, r, c] + board[11, r, c]
            tt = board[12, r, c] + board[13, r, c] + board[14, r, c] + board[15, r, c]
            unknown = board[16, r, c]
            if side == TECHNOCRAT:
                z += unknown
            else:
                tt += unknown
            if z > 0 and tt > 0:
                board[18, r, c] = 1
    globs[0] = o["turn"]
    globs[1] = o["max_turns"]
    globs[2] = o["rules"]["platform_turns"]
    globs[3] = side
    globs[4] = o["loss_side"] if o["loss_side"] >= 0 else PHASE_PLAYER[o["phase"]]
    globs[5] = o["result"]
    globs[6] = o["truncated"]
    globs[7] = min(o["n_actions"], 32767)
    globs[8 + o["phase"]] = 1
    g = _SETUP_GLOBALS
    for i in range(NUM_POOLS):
        globs[g + i] = o["pool"][i]
    g += NUM_POOLS
    globs[g] = o["setup_item"]
    cell = o["setup_cell"]
    globs[g + 1] = _col(cell) if cell >= 0 else -1
    globs[g + 2] = _row(cell) if cell >= 0 else -1
    if with_board and cell >= 0 and ON_MAP[cell]:
        board[9, _row(cell), _col(cell)] = 1
    globs[g + 3] = o["loss_side"]
    cell = o["loss_cell"]
    globs[g + 4] = _col(cell) if cell >= 0 else -1
    globs[g + 5] = _row(cell) if cell >= 0 else -1


@jit
def bound_counters(o, with_board, board, pieces, globs):
    """Clip what the rules leave unbounded in an encoding of information state
    ``o``: the turn at TURN_CAP, the action counter at ACTIONS_CAP and a
    piece's damage at its damage rating (14.6: at its rating it breaks up in
    the Crustal Control phase; more damage changes nothing)."""
    globs[0] = min(o["turn"], TURN_CAP)
    globs[7] = min(o["n_actions"], ACTIONS_CAP)
    for k in range(MAX_PIECES):
        kind = o["piece_kind"][k]
        if kind == NO_PIECE:
            continue
        rating = o["rules"]["damage_rating"][kind]
        if pieces[k, 4] > rating:
            pieces[k, 4] = rating
        if not with_board:
            continue
        for i in range(MAX_PIECE_CELLS):
            cell = o["piece_cells"][k, i]
            if cell >= 0 and ON_MAP[cell] and board[7, _row(cell), _col(cell)] > rating:
                board[7, _row(cell), _col(cell)] = rating


@jit
def encode(s, side, fog, with_board, scratch, board, units, pieces, globs):
    """Observe state ``s`` as ``side`` (D20 fog unless ``fog`` is False) and
    encode it (without the hex planes unless ``with_board``), every entry in
    its documented range (``bound_counters``)."""
    observe(s, side, fog, scratch)
    encode_info_state(scratch, side, with_board, board, units, pieces, globs)
    bound_counters(scratch, with_board, board, pieces, globs)


def new_observation(batch: int | None = None, compact: bool = False) -> dict:
    """Zeroed observation arrays (with a leading batch axis if ``batch`` is
    given); ``compact``: without ``board``."""
    out = {}
    for name, (shape, dtype) in observation_shapes(compact).items():
        out[name] = np.zeros(shape if batch is None else (batch,) + shape, dtype=dtype)
    return out


def scratch_state():
    return np.zeros(1, dtype=STATE_DTYPE)
