"""Regular movement of ground units (rulebook 8.0, 12.2; decision D3).

Ground: a straight strip of crustal hexes in column 3, rows 1-9 (three long
crustals end to end); a unit steps S (direction 3) along it.
"""

import pytest
from helpers import A_END_PHASE, A_END_PIECE, A_MANEUVER, A_SELECT_UNIT, NE, SW, N, Pos, S, strip

from hotspot.core.combat import is_combat_leader
from hotspot.core.errors import (
    ERR_MANEUVER_NOT_FOR_PIECE,
    ERR_MOLTEN,
    ERR_NO_SUCH_UNIT,
    ERR_NOT_YOUR_UNIT,
    ERR_NOTHING_SELECTED,
    ERR_OFF_MAP,
    ERR_UNIT_DONE,
    ERR_WRONG_PHASE,
    ERR_ZERO_ATTACK,
)
from hotspot.core.events import ELIM_MOLTEN
from hotspot.core.rules_data import (
    ONE_HEX,
    PHASE_T_COMBAT,
    PHASE_T_MOVE,
    PHASE_Z_COMBAT,
    PHASE_Z_MOVE,
    PLATFORM,
    T_CRAWLER,
    T_ENGINEER,
    T_HEAVY_BEAMER,
    T_INFANTRY,
    Z_HOVERCRAFT,
    Z_INFANTRY,
)
from hotspot.core.state import UF_ATTACKING, UF_DONE

MOVE_PHASE = {
    Z_INFANTRY: PHASE_Z_MOVE,
    Z_HOVERCRAFT: PHASE_Z_MOVE,
    T_INFANTRY: PHASE_T_MOVE,
    T_CRAWLER: PHASE_T_MOVE,
    T_HEAVY_BEAMER: PHASE_T_MOVE,
    T_ENGINEER: PHASE_T_MOVE,
}


def ground(long_strip=True):
    g = Pos()
    if long_strip:
        strip(g, col=3, first_row=1, n_longs=3)
    g.piece(ONE_HEX, [(14, 20)])
    g.spare_z = g.unit(Z_INFANTRY, (14, 20))  # keeps phase B open
    return g


@pytest.mark.parametrize(
    "unit_type, allowance",
    [(Z_INFANTRY, 3), (Z_HOVERCRAFT, 6), (T_INFANTRY, 3), (T_CRAWLER, 3), (T_HEAVY_BEAMER, 2), (T_ENGINEER, 3)],
)
def test_movement_allowance(unit_type, allowance):
    """8.1 (D4, D5 values; 8.1's example: a crawler moves up to 3): a unit moves
    through at most its movement allowance of hexes; then it is done."""
    g = ground()
    u = g.unit(unit_type, (3, 1))
    g.begin(MOVE_PHASE[unit_type], turn=2)
    g.act(A_SELECT_UNIT + u)
    for _ in range(allowance):
        g.act(A_MANEUVER + S)
    assert g.where(u) == (3, 1 + allowance)
    assert g.s["unit_moves"][u] == 0 and g.s["unit_flags"][u] & UF_DONE
    g.refuse(A_MANEUVER + S, ERR_NOTHING_SELECTED)
    g.refuse(A_SELECT_UNIT + u, ERR_UNIT_DONE)


def test_unused_movement_is_lost():
    """8.1: a unit need not use its whole allowance, and unused movement is lost
    (it cannot move again this phase; next phase it has its full allowance)."""
    g = ground()
    u = g.unit(Z_INFANTRY, (3, 1))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.move_unit(u, S, end=True)
    assert g.where(u) == (3, 2)
    g.refuse(A_SELECT_UNIT + u, ERR_UNIT_DONE)
    # next turn's phase B: three hexes again, not 3 + 2
    g2 = ground()
    u = g2.unit(Z_INFANTRY, (3, 2))
    g2.begin(PHASE_Z_MOVE, turn=3)
    assert g2.s["unit_moves"][u] == 3


def test_units_not_required_to_move():
    """8.1: no unit has to move: the phase may end at once."""
    g = ground()
    u = g.unit(Z_INFANTRY, (3, 1))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_END_PHASE)
    assert g.where(u) == (3, 1)
    assert g.phase != PHASE_Z_MOVE


def test_unit_moves_from_crustal_onto_platform():
    """8.2: units move on crustals, attack platforms and the Central Crustal,
    across from one piece to the next."""
    g = ground()
    p = g.piece(PLATFORM, [(4, 1)])  # (3,1) odd column: SE is (4,2); NE is (4,1)
    u = g.unit(T_INFANTRY, (3, 1))
    g.begin(PHASE_T_MOVE, turn=2)
    g.move_unit(u, NE)
    assert g.where(u) == (4, 1) and g.s["board"][g.s["unit_cell"][u]] == p


def test_unit_moved_into_molten_hex_is_destroyed():
    """8.2: a unit moved directly into a molten hex is destroyed."""
    g = ground()
    u = g.unit(Z_INFANTRY, (3, 1), squads=3)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + u, A_MANEUVER + NE)  # (4,1) is molten
    assert not g.alive(u)
    assert g.eliminated(ELIM_MOLTEN) == [u]


def test_forbid_molten_entry_option_refuses_the_step():
    """8.2 variant option forbid_molten_entry: stepping into molten rock is
    illegal instead (state unchanged)."""
    g = Pos(forbid_molten_entry=True)
    strip(g)
    u = g.unit(Z_INFANTRY, (3, 1))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + u)
    g.refuse(A_MANEUVER + NE, ERR_MOLTEN)
    assert g.legal(A_MANEUVER + S)


def test_units_cannot_step_off_the_map():
    """D3: units stand only on map hexes: stepping off the map is refused."""
    g = ground(long_strip=False)
    g.piece(ONE_HEX, [(0, 5)])
    u = g.unit(Z_INFANTRY, (0, 5))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + u)
    g.refuse(A_MANEUVER + SW, ERR_OFF_MAP)
    g.refuse(A_MANEUVER + 6, ERR_MANEUVER_NOT_FOR_PIECE)  # crustal maneuvers are not unit steps


def test_entering_enemy_hex_ends_movement_and_starts_an_attack():
    """8.3, 12.1: a unit entering a hex with enemy units loses the rest of its
    movement; the attack is resolved in the following combat phase."""
    g = ground()
    u = g.unit(Z_INFANTRY, (3, 1), squads=2)
    t = g.unit(T_INFANTRY, (3, 2))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.act(A_SELECT_UNIT + u, A_MANEUVER + S)
    assert g.where(u) == (3, 2)
    assert g.s["unit_moves"][u] == 0
    assert g.s["unit_flags"][u] & UF_ATTACKING
    assert g.s["sel_unit"] == -1
    g.refuse(A_SELECT_UNIT + u, ERR_UNIT_DONE)
    g.act(A_END_PHASE)
    assert g.phase == PHASE_Z_COMBAT
    assert is_combat_leader(g.s, u)
    assert g.alive(t)


def test_technocrat_entering_enemy_hex_stops_too():
    """8.3: the same for a Technocrat unit (not an overrun: infantry)."""
    g = ground()
    u = g.unit(T_INFANTRY, (3, 1))
    g.unit(Z_INFANTRY, (3, 2))
    g.begin(PHASE_T_MOVE, turn=2)
    g.act(A_SELECT_UNIT + u, A_MANEUVER + S)
    assert g.s["unit_moves"][u] == 0 and g.s["unit_flags"][u] & UF_ATTACKING
    g.act(A_END_PHASE)
    assert g.phase == PHASE_T_COMBAT


def test_engineer_may_not_enter_enemy_hex():
    """12.2, 15.1, D6: an engineer (attack 0) may not move into a hex holding
    enemy units ..."""
    g = ground()
    e = g.unit(T_ENGINEER, (3, 1))
    g.unit(Z_INFANTRY, (3, 2))
    g.begin(PHASE_T_MOVE, turn=2)
    g.act(A_SELECT_UNIT + e)
    g.refuse(A_MANEUVER + S, ERR_ZERO_ATTACK)


def test_engineer_may_not_enter_enemy_hex_even_accompanied():
    """12.2: "... even if accompanied by friendly units": a Technocrat infantry
    has entered the Ziegler hex; the engineer still may not follow."""
    g = ground()
    i = g.unit(T_INFANTRY, (3, 1))
    e = g.unit(T_ENGINEER, (3, 1))
    g.unit(Z_INFANTRY, (3, 2))
    g.begin(PHASE_T_MOVE, turn=2)
    g.act(A_SELECT_UNIT + i, A_MANEUVER + S)
    g.act(A_SELECT_UNIT + e)
    g.refuse(A_MANEUVER + S, ERR_ZERO_ATTACK)
    g.act(A_MANEUVER + N)  # it may move elsewhere


def test_only_the_phasing_player_moves():
    """4.0 B/F: in the Ziegler regular movement the Technocrat's units do not
    move (and vice versa); selecting a missing unit is refused."""
    g = ground()
    z = g.unit(Z_INFANTRY, (3, 1))
    t = g.unit(T_INFANTRY, (3, 5))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.refuse(A_SELECT_UNIT + t, ERR_NOT_YOUR_UNIT)
    g.refuse(A_SELECT_UNIT + 90, ERR_NO_SUCH_UNIT)
    g.act(A_END_PHASE)
    # phases C, D, E have no decision here; F is the Technocrat's
    assert g.phase == PHASE_T_MOVE
    g.refuse(A_SELECT_UNIT + z, ERR_NOT_YOUR_UNIT)
    assert g.legal(A_SELECT_UNIT + t)


def test_movement_actions_outside_movement_phases():
    """4.0: unit steps are taken in movement phases only."""
    from hotspot.core.rules_data import PHASE_Z_CRUSTAL

    g = ground()
    u = g.unit(Z_INFANTRY, (3, 1))
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.refuse(A_SELECT_UNIT + u, ERR_WRONG_PHASE)
    g.refuse(A_END_PIECE, ERR_NOTHING_SELECTED)
