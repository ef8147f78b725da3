"""The board as planes (``hotspot.features.planes``) and the reach it shows.

* The axial grid: a hex's six neighbours (D1 map, ``hexgrid.NEIGHBOUR``) lie
  at the grid offsets of ``AXIAL_DIRECTIONS``, inside the hex kernel mask.
* ``regular_movement.reach`` is the core's own rule of regular movement:
  the hexes a unit reaches by legal STEP actions (``step_error`` and
  ``step_unit``: 8.1 one hex a step, 8.2 molten rock destroys, 8.3 an enemy
  hex ends the move, 9.1-9.2 stacking, 11.1 overruns, 12.2 no attack factor,
  D3 never off the map), played out on copies of mid-game states, are the
  hexes ``reach`` marks.
* The planes read the side's information state only (D20): two states that
  differ in what the side may not see give the same planes.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import perturb_hidden, policy_snapshots

import hotspot.core as hc
from hotspot.core.hexgrid import AXIAL_DIRECTIONS, NEIGHBOUR, NUM_CELLS, ON_MAP
from hotspot.core.regular_movement import REACH_ATTACK, REACH_ENTER, reach, step_destroys, step_error, step_unit
from hotspot.core.rules_data import NO_UNIT, PHASE_PLAYER, PHASE_T_MOVE, PHASE_Z_MOVE, UNIT_SIDE
from hotspot.core.state import MAX_UNITS, UF_DONE
from hotspot.core.units import count_units
from hotspot.features.planes import (
    AXIAL_COLS,
    AXIAL_ROWS,
    CELL_OF_INDEX,
    GRID_INDEX,
    HEX_KERNEL_MASK,
    NUM_PLANES,
    PLANE_NAMES,
    board_planes,
    cell_index,
)

P = {name: i for i, name in enumerate(PLANE_NAMES)}


@pytest.fixture(scope="module")
def snapshots():
    return policy_snapshots(6, 7, [("scripted", "scripted"), ("random", "scripted"), ("scripted", "random")])


def test_the_axial_grid_puts_every_neighbour_in_the_hex_kernel():
    """D1: each map hex's neighbours sit at the axial offsets, whatever its column's parity."""
    assert (GRID_INDEX >= 0).sum() == 15 * 21 and (CELL_OF_INDEX >= 0).sum() == 15 * 21
    for cell in np.flatnonzero(ON_MAP):
        row, col = cell_index(cell)
        assert CELL_OF_INDEX[row * AXIAL_COLS + col] == cell
        for d, (dq, dr) in enumerate(AXIAL_DIRECTIONS):
            n = NEIGHBOUR[cell, d]
            if n < 0 or not ON_MAP[n]:
                continue
            assert cell_index(n) == (row + dr, col + dq)
            assert HEX_KERNEL_MASK[dr + 1, dq + 1] == 1.0
    assert HEX_KERNEL_MASK.sum() == 7
    with pytest.raises(ValueError, match="not a map hex"):
        cell_index(0)


def _reach_by_steps(state, u):
    """{cell: REACH_*} of the hexes unit u enters by legal steps from where it
    stands with its movement left, played on copies (no Close Infantry
    Assault dice: a reached hex is one it may reach)."""
    ev, ev_n = hc.no_events()
    s0 = state.copy()
    s0["rules"]["cia_enabled"][0] = 0
    start = int(s0["unit_cell"][0, u])
    side = UNIT_SIDE[s0["unit_type"][0, u]]
    found, seen, frontier = {}, set(), [s0]
    while frontier:
        s = frontier.pop()
        for d in range(6):
            if step_error(s[0], u, d) != 0 or step_destroys(s[0], u, d):
                continue
            t = s.copy()
            step_unit(t[0], u, d, ev, ev_n)
            if t["unit_type"][0, u] == NO_UNIT:
                continue
            cell = int(t["unit_cell"][0, u])
            if cell != start:
                found[cell] = found.get(cell, 0) | (
                    REACH_ATTACK if count_units(state[0], cell, 1 - side) > 0 else REACH_ENTER
                )
            key = (cell, int(t["unit_moves"][0, u]))
            if t["unit_moves"][0, u] > 0 and not t["unit_flags"][0, u] & UF_DONE and key not in seen:
                seen.add(key)
                frontier.append(t)
    return found


def test_reach_is_the_hexes_legal_steps_enter(snapshots):
    """8.1-8.3, 9.1-9.2, 11.1, 12.2, D3: ``reach`` marks exactly the hexes a unit's STEP actions enter."""
    scratch, checked, attacks = np.zeros(2 * NUM_CELLS, np.int64), 0, 0
    for state in snapshots:
        phase = state["phase"][0]
        if phase not in (PHASE_Z_MOVE, PHASE_T_MOVE):
            continue
        side = PHASE_PLAYER[phase]
        for u in range(MAX_UNITS):
            t = state["unit_type"][0, u]
            if t == NO_UNIT or UNIT_SIDE[t] != side or state["unit_moves"][0, u] <= 0:
                continue
            if state["unit_flags"][0, u] & UF_DONE:
                continue
            marks = np.zeros(NUM_CELLS, np.int8)
            reach(state[0], t, state["unit_cell"][0, u], state["unit_moves"][0, u], scratch, marks)
            by_steps = _reach_by_steps(state, u)
            assert {int(c): int(m) for c, m in enumerate(marks) if m} == by_steps
            checked += 1
            attacks += sum(1 for m in by_steps.values() if m & REACH_ATTACK)
    assert checked >= 20 and attacks >= 1  # the comparison covered units that could attack


def test_planes_read_only_what_the_side_may_know(snapshots):
    """D20: a copy differing only in what the side may not see gives the same planes; without fog it may not."""
    g = np.random.default_rng(3)
    differs = 0
    for state in snapshots:
        side = int(PHASE_PLAYER[state["phase"][0]]) if state["phase"][0] < 8 else 1
        twin = perturb_hidden(state, side, g)
        np.testing.assert_array_equal(board_planes(state, side), board_planes(twin, side))
        differs += not np.array_equal(board_planes(state, side, fog=False), board_planes(twin, side, fog=False))
    assert differs >= 1


def test_unit_planes_count_the_squads_and_the_constant_planes_the_phase(snapshots):
    """10.0, D4: a type's plane holds its squads; off-map grid cells are zero in every plane."""
    states = np.concatenate(snapshots)
    planes = board_planes(states, 1, fog=False)
    assert planes.shape == (len(states), NUM_PLANES, AXIAL_ROWS, AXIAL_COLS) and planes.dtype == np.float32
    off = (CELL_OF_INDEX < 0).reshape(AXIAL_ROWS, AXIAL_COLS)
    assert not planes[:, :, off].any()
    names = ("infantry_z", "hovercraft", "infantry_t", "crawler", "heavy_beamer", "engineer")
    for b, s in enumerate(states):
        for t, name in enumerate(names, start=1):
            on_map = [u for u in range(MAX_UNITS) if s["unit_type"][u] == t and ON_MAP[s["unit_cell"][u]]]
            assert planes[b, P[name]].sum() == sum(int(s["unit_squads"][u]) for u in on_map)
        assert planes[b, P[f"phase_{'ABCDEFGH'[s['phase']]}"], 10, 7] == 1.0 if s["phase"] < 8 else True
        assert planes[b, P["on_map"]].sum() == 15 * 21
        np.testing.assert_array_equal(planes[b], board_planes(s, 1, fog=False)[0])  # batched = one by one


def test_bad_arguments_are_one_line_errors():
    with pytest.raises(ValueError, match="side must be 0"):
        board_planes(hc.init("standard", seeds=0), 2)
    with pytest.raises(TypeError, match="states must be game states"):
        board_planes(np.zeros(3), 0)


def test_a_hidden_counter_blocks_an_overrun_in_the_reach():
    """11.1, D20: a crawler overruns a hex of Ziegler infantry only; seen by the
    Technocrat, a stack whose lower counters are hidden may hold a hovercraft,
    so the reach counted on his information state stops there (the true
    state, all infantry, lets the crawler through)."""
    from helpers import C

    from hotspot.core.observation import observe
    from hotspot.core.placement import blank_state, place_piece, place_unit
    from hotspot.core.rules_data import LONG, T_CRAWLER, TECHNOCRAT, Z_INFANTRY, ZIEGLER
    from hotspot.core.state import STATE_DTYPE

    states = blank_state()
    place_piece(states, LONG, [C(3, 3), C(3, 4), C(3, 5)], controller=ZIEGLER)
    place_unit(states, T_CRAWLER, C(3, 3))
    place_unit(states, Z_INFANTRY, C(3, 4), squads=2)
    place_unit(states, Z_INFANTRY, C(3, 4), squads=3)  # hidden from the Technocrat (not the top counter)
    scratch = np.zeros(2 * NUM_CELLS, np.int64)
    truth = np.zeros(NUM_CELLS, np.int8)
    reach(states[0], T_CRAWLER, C(3, 3), 3, scratch, truth)
    assert truth[C(3, 4)] == REACH_ATTACK and truth[C(3, 5)] == REACH_ENTER  # 11.1: through the infantry
    info = np.zeros(1, dtype=STATE_DTYPE)
    observe(states[0], TECHNOCRAT, True, info[0])
    seen = np.zeros(NUM_CELLS, np.int8)
    reach(info[0], T_CRAWLER, C(3, 3), 3, scratch, seen)
    assert seen[C(3, 4)] == REACH_ATTACK and seen[C(3, 5)] == 0  # a hidden counter may be a hovercraft
