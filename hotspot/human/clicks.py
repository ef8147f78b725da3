"""Clicks -> actions: what a click on a hex or a counter asks for, and why a
click that asks for nothing legal is refused.

The web app (:mod:`hotspot.human.web`) maps a click through :func:`click_map`
(the legal actions by hex ``"col,row"`` and by counter) and
:func:`counter_click`, and answers a click that matches nothing with
:func:`refusal` or :func:`unit_refusal` (the rule that refuses it, from the
core's ``Game.why_illegal``).  Nothing here knows of HTTP.
"""

from __future__ import annotations

import numpy as np

from hotspot.core.actions import (
    A_COMBINE,
    A_MANEUVER,
    A_SELECT_PIECE,
    A_SELECT_UNIT,
    A_SETUP_FACING,
    A_SETUP_HEX,
    A_SPLIT,
)
from hotspot.core.errors import ERR_WRONG_PHASE, MESSAGES
from hotspot.core.game import Game
from hotspot.core.hexgrid import MAP_COLS, MAP_ROWS, NEIGHBOUR, cell_of, col_row
from hotspot.core.rules_data import (
    NO_UNIT,
    PHASE_CONTROL,
    PHASE_LETTERS,
    PHASE_NAMES,
    PHASE_T_CRUSTAL,
    PHASE_T_SETUP,
    PHASE_Z_CRUSTAL,
    PHASE_Z_SETUP,
    UNIT_SIDE,
)
from hotspot.core.state import MAX_UNITS


def _hex_key(cell: int) -> str:
    c, r = col_row(int(cell))
    return f"{c},{r}"


def action_targets(game: Game, action: int) -> tuple[list[str], list[int]]:
    """What a player clicks for the legal ``action``: hexes ``"col,row"`` and counters (unit ids).

    Selecting a piece (4.0 A/E) or neutralizing it (15.4): its hexes.
    Selecting a unit, resolving its combat (12.7), naming the counter that
    loses a squad (D22), combining with it (10.0): the counter and its hex.
    A unit's step (8.1): the hex it steps into.  A piece's maneuver (6.3-6.7)
    and a set-up facing (3.2): the hexes it newly covers (the core moves a
    copy of the game; for a facing, not the hex chosen before it).  A set-up
    hex (3.2, 3.3): that hex.  Others (end the move or the phase, split, the
    set-up choices): nothing (the page's buttons)."""
    s = game.s
    a = int(action)
    if A_SELECT_PIECE <= a < A_SELECT_UNIT:
        k = a - A_SELECT_PIECE
        return [_hex_key(c) for c in s["piece_cells"][k] if c >= 0], []
    if A_SELECT_UNIT <= a < A_MANEUVER:
        u = (a - A_SELECT_UNIT) if a < A_COMBINE else (a - A_COMBINE)
        return [_hex_key(s["unit_cell"][u])], [u]
    if A_MANEUVER <= a < A_SPLIT:
        if int(s["sel_unit"]) >= 0:  # regular movement: one hex in direction a - A_MANEUVER (8.1)
            cell = int(NEIGHBOUR[int(s["unit_cell"][int(s["sel_unit"])]), a - A_MANEUVER])
            return ([_hex_key(cell)] if cell >= 0 else []), []
        return _newly_covered(game, a), []
    if A_SETUP_HEX <= a < A_SETUP_FACING:
        h = a - A_SETUP_HEX
        return [f"{h % MAP_COLS},{h // MAP_COLS}"], []
    if a >= A_SETUP_FACING:  # the crustal's first hex is chosen already (setup_cell): the others
        chosen = _hex_key(s["setup_cell"])
        return [key for key in _newly_covered(game, a) if key != chosen], []
    return [], []


def _newly_covered(game: Game, action: int) -> list[str]:
    """The hexes a piece covers after ``action`` that no piece covered before (on a copy)."""
    after = game.clone()
    after.apply_action(action)
    before_board, after_board = game.s["board"], after.s["board"]
    return [_hex_key(c) for c in np.flatnonzero((after_board >= 1) & (before_board != after_board))]


def click_map(game: Game, legal) -> tuple[dict, dict]:
    """The legal actions by the hex (``"col,row"``) and by the counter (unit id) that selects them."""
    hexes: dict[str, list[int]] = {}
    units: dict[int, list[int]] = {}
    for a in legal:
        keys, us = action_targets(game, int(a))
        for key in keys:
            hexes.setdefault(key, []).append(int(a))
        for u in us:
            units.setdefault(u, []).append(int(a))
    return hexes, units


def counter_click(game: Game, hexes: dict, units: dict, unit: int) -> list[int]:
    """The legal actions a click on counter ``unit`` asks for, from :func:`click_map`'s
    ``hexes`` and ``units``: the counter's own; else its hex's (a counter on a
    platform: the platform, 4.0 E)."""
    return units.get(unit) or hexes.get(_hex_key(game.s["unit_cell"][unit]), [])


def refusal(game: Game, hex_) -> str:
    """Why a click on hex ``hex_`` ((col, row)) does nothing: the core's
    reason (``Game.why_illegal``, the rule that refuses it) for the action the
    click most plainly asks for: in set-up, placing there (3.2, 3.3); with a
    unit selected, its step there (8.1); else selecting the piece there
    (crustal and control phases first, 4.0 A/E/H) or a counter there.  A
    reason that names a rule is preferred to "not in this phase"."""
    s = game.s
    phase = int(s["phase"])
    where = f"phase {PHASE_LETTERS[phase]} is the {PHASE_NAMES[phase]}"
    c, r = hex_
    on_map = 0 <= c < MAP_COLS and 0 <= r < MAP_ROWS
    if phase in (PHASE_Z_SETUP, PHASE_T_SETUP):
        if not on_map:
            return "set-up is on the map's hexes (3.2, 3.3)"
        return game.why_illegal(A_SETUP_HEX + r * MAP_COLS + c) or f"nothing to set up at ({c}, {r})"
    cell = cell_of(c, r)
    reasons = []
    sel = int(s["sel_unit"])
    if sel >= 0:
        here = int(s["unit_cell"][sel])
        steps = [d for d in range(6) if int(NEIGHBOUR[here, d]) == cell]
        if steps:
            reasons.append(game.why_illegal(A_MANEUVER + steps[0]))
        elif cell != here:
            reasons.append(f"a unit moves one hex at a time (8.1): click a hex next to {col_row(here)}")
    k = int(s["board"][cell])
    pieces = [game.why_illegal(A_SELECT_PIECE + k)] if k >= 1 else []
    mover = game.current_player()
    here_units = [u for u in range(MAX_UNITS) if int(s["unit_type"][u]) != NO_UNIT and int(s["unit_cell"][u]) == cell]
    here_units.sort(key=lambda u: int(UNIT_SIDE[int(s["unit_type"][u])]) != mover)  # the mover's own first
    units = [game.why_illegal(A_SELECT_UNIT + u) for u in here_units[:1]]
    reasons += pieces + units if phase in (PHASE_Z_CRUSTAL, PHASE_T_CRUSTAL, PHASE_CONTROL) else units + pieces
    return _best(reasons, f"nothing to do at ({c}, {r}): {where}", where)


def unit_refusal(game: Game, unit: int) -> str:
    """Why a click on counter ``unit`` does nothing: selecting it (or resolving
    its combat, naming it for a loss) is refused, and so is the click on its hex."""
    s = game.s
    phase = int(s["phase"])
    where = f"phase {PHASE_LETTERS[phase]} is the {PHASE_NAMES[phase]}"
    reasons = [game.why_illegal(A_SELECT_UNIT + unit), refusal(game, col_row(int(s["unit_cell"][unit])))]
    return _best(reasons, f"counter {unit} has nothing to do: {where}", where)


def _best(reasons, otherwise: str, where: str) -> str:
    """The first reason that names more than the phase; else the phase's, with the phase named."""
    reasons = [text for text in reasons if text]
    wrong_phase = MESSAGES[ERR_WRONG_PHASE]
    for text in reasons:
        if not text.startswith(wrong_phase):
            return text
    return f"{wrong_phase}: {where}" if reasons else otherwise
