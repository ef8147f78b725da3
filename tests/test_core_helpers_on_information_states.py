"""The core helpers the scripted player plays by, on states and on
information states (D20: a hidden counter has type UNKNOWN_UNIT and squads
UNKNOWN_SQUADS, piece damage -1):

* ``units.side_seen_by``, ``unit_side``, ``attack_of``, ``defense_of``,
  ``type_factor`` never wrap round a table on a hidden counter;
* ``crustal_movement.maneuver_geometry`` of a piece's own cells is
  ``maneuver_cells``; ``pieces.facing`` is ``facing_of`` its front and rear;
* ``collisions.in_zone_of_contact`` agrees with ``pieces_in_contact``;
* ``stacking.room_left`` agrees with ``room_for``;
* ``hexgrid.hex_distance`` is the axial distance, ``direction_between`` the
  neighbour table read backwards.
"""

from __future__ import annotations

import numpy as np
from helpers import C

import hotspot.core as hc
from hotspot.core.collisions import in_zone_of_contact, pieces_in_contact
from hotspot.core.crustal_movement import NUM_MANEUVERS, maneuver_cells, maneuver_geometry
from hotspot.core.hexgrid import AXIAL_Q, AXIAL_R, NEIGHBOUR, NUM_CELLS, axial, col_row, direction_between, hex_distance
from hotspot.core.observation import observe
from hotspot.core.pieces import facing, facing_of
from hotspot.core.placement import blank_state, place_piece, place_unit
from hotspot.core.rules_data import (
    NO_PIECE,
    ONE_HEX,
    T_CRAWLER,
    T_ENGINEER,
    TECHNOCRAT,
    UNIT_SIDE,
    UNKNOWN_SQUADS,
    UNKNOWN_UNIT,
    Z_INFANTRY,
    ZIEGLER,
)
from hotspot.core.stacking import room_for, room_left
from hotspot.core.state import MAX_PIECES, MAX_UNITS, STATE_DTYPE
from hotspot.core.units import UNKNOWN_FACTOR, attack_of, defense_of, side_seen_by, type_factor, unit_side


def _hidden_stack():
    """A Technocrat stack of three counters the Ziegler does not see into."""
    states = blank_state()
    k = place_piece(states, ONE_HEX, [C(3, 4)], controller=TECHNOCRAT)
    place_piece(states, ONE_HEX, [C(10, 4)], controller=ZIEGLER)
    units = [place_unit(states, t, C(3, 4)) for t in (T_ENGINEER, T_CRAWLER, T_ENGINEER)]
    z = place_unit(states, Z_INFANTRY, C(10, 4), squads=3)
    return states, k, units, z


def test_unit_helpers_are_safe_on_hidden_counters():
    states, _, units, z = _hidden_stack()
    obs = np.zeros(1, dtype=STATE_DTYPE)
    observe(states[0], ZIEGLER, True, obs[0])
    o = obs[0]
    top, hidden = units[0], units[1:]
    assert o["unit_type"][top] == T_ENGINEER and o["unit_squads"][top] == UNKNOWN_SQUADS
    for u in hidden:
        assert o["unit_type"][u] == UNKNOWN_UNIT and o["unit_squads"][u] == UNKNOWN_SQUADS
        assert UNIT_SIDE[UNKNOWN_UNIT] == TECHNOCRAT  # the wrap the helpers avoid
        assert side_seen_by(o, u, ZIEGLER) == TECHNOCRAT
        assert unit_side(o, u) == -1
        assert attack_of(o, u) == UNKNOWN_FACTOR and defense_of(o, u) == UNKNOWN_FACTOR
        assert type_factor(o, UNKNOWN_UNIT, True) == UNKNOWN_FACTOR
    assert attack_of(o, top) == UNKNOWN_FACTOR  # type shown, size hidden
    assert type_factor(o, T_ENGINEER, True) == int(o["rules"]["defense"][T_ENGINEER])
    # the observer's own units and the true state: the plain factors
    assert side_seen_by(o, z, ZIEGLER) == ZIEGLER
    assert attack_of(o, z) == 3 * int(o["rules"]["attack"][Z_INFANTRY])
    s = states[0]
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        assert unit_side(s, u) == UNIT_SIDE[t]
        assert side_seen_by(s, u, ZIEGLER) == (UNIT_SIDE[t] if t else -1)
        assert attack_of(s, u) == int(s["rules"]["attack"][t]) * int(s["unit_squads"][u])
        assert defense_of(s, u) == int(s["rules"]["defense"][t]) * int(s["unit_squads"][u])


def test_geometry_helpers_agree_with_the_pieces():
    states = np.concatenate([hc.init("standard", seeds=0), hc.init("random:3", seeds=3)])
    buf = np.zeros(6, dtype=np.int64)
    checked = 0
    for s in states:
        for k in range(MAX_PIECES):
            if s["piece_kind"][k] == NO_PIECE:
                continue
            c = s["piece_cells"][k]
            assert facing(s, k) in (-1, facing_of(c[0], c[1]))
            for m in range(NUM_MANEUVERS):
                assert maneuver_cells(s, k, m) == maneuver_geometry(
                    s["piece_kind"][k], c[0], c[1], c[2], s["piece_moves"][k] > 0, m
                )
                checked += 1
            for cell in range(NUM_CELLS):
                assert in_zone_of_contact(s, k, cell) == (pieces_in_contact(s, k, cell, buf) > 0)
        for cell in range(0, NUM_CELLS, 3):
            if s["board"][cell] < 0:
                continue
            z, t = int(s["cell_units"][cell, 0]), int(s["cell_units"][cell, 1])
            assert (room_left(s, cell, z, z + t) >= 1) == room_for(s, cell, ZIEGLER, z, z + t)
    assert checked > 200


def test_hex_distance_and_direction():
    for a in range(0, NUM_CELLS, 5):
        qa, ra = axial(*col_row(a))
        assert (AXIAL_Q[a], AXIAL_R[a]) == (qa, ra)
        for b in range(0, NUM_CELLS, 7):
            qb, rb = axial(*col_row(b))
            assert hex_distance(a, b) == (abs(qa - qb) + abs(ra - rb) + abs(qa + ra - qb - rb)) // 2
        for d in range(6):
            if NEIGHBOUR[a, d] >= 0:
                assert direction_between(a, NEIGHBOUR[a, d]) == d
                assert hex_distance(a, NEIGHBOUR[a, d]) == 1
        assert direction_between(a, a) == -1
