"""Combat (rulebook 12.0, 16.0; decisions D4, D6, D13-D16; readings R12.x).

Most positions: a two-hex crustal (3,4)-(3,5) (or the strip of column 3);
Ziegler defenders stand in (3,4), Technocrat attackers step N into it from
(3,5) in phase F, then the combat is resolved in phase G.
"""

import pytest
from helpers import A_END_PHASE, A_SELECT_UNIT, C, N, Pos, S, strip

from hotspot.core.combat import odds_column
from hotspot.core.errors import ERR_COMBATS_PENDING, ERR_NOT_A_COMBAT
from hotspot.core.events import ELIM_COMBAT, ELIM_OVERSTACK, ELIM_RETREAT, EV_COMBAT, EV_RETREAT, EV_SQUAD_LOST
from hotspot.core.rules_data import (
    CHART_CRT,
    CHART_STRESS,
    CRT,
    CRT_C,
    CRT_NE,
    CRT_TABLES,
    CRT_X,
    ONE_HEX,
    PHASE_T_COMBAT,
    PHASE_T_MOVE,
    PHASE_Z_COMBAT,
    PHASE_Z_MOVE,
    T_CRAWLER,
    T_ENGINEER,
    T_HEAVY_BEAMER,
    T_INFANTRY,
    TWO_HEX,
    Z_HOVERCRAFT,
    Z_INFANTRY,
)
from hotspot.core.state import UF_ATTACKING

COLUMNS = ("1:3", "1:2", "1:1", "2:1", "3:1", "4:1")


def z_spare(g):
    """A far Ziegler unit: keeps phase B open after the attackers have moved."""
    g.piece(ONE_HEX, [(14, 20)])
    g.unit(Z_INFANTRY, (14, 20))


# -------------------------------------------------------------- 12.4 / D14
@pytest.mark.parametrize(
    "attack, defense, column",
    [
        (4, 1, 5),  # 12.4 example: heavy beamer vs one-squad infantry: 4-1
        (4, 2, 3),  # 12.4 example: 4-2 is 2-1
        (11, 3, 4),  # 12.4 example: 11-3 rounds in the defender's favour to 3-1
        (2, 5, 0),  # D14 example: 1:3
        (1, 1, 2),
        (2, 1, 3),
        (3, 1, 4),
        (5, 3, 2),
        (7, 2, 4),
        (8, 2, 5),
        (9, 4, 3),
        (3, 5, 1),  # 1:ceil(5/3) = 1:2
        (2, 4, 1),
        (2, 6, 0),
        (3, 7, 0),
        (4, 7, 1),
        (1, 10, 0),  # worse than 1:3 is 1:3
        (20, 1, 5),  # better than 4:1 is 4:1
        (99, 3, 5),
    ],
)
def test_odds_rounding_and_clamping(attack, defense, column):
    """12.4, 16.0, D14: A >= D: floor(A/D):1, else 1:ceil(D/A), rounded in the
    defender's favour; clamped to 1:3 .. 4:1."""
    assert odds_column(attack, defense) == column


def _attack(attackers, defenders, roll, via_combat=True, **options):
    """Technocrat ``attackers`` [(type, squads)] step from (3,5) into (3,4) held by
    Ziegler ``defenders``; phase G resolves with ``roll`` (``options``: rules
    options of the position)."""
    g = Pos(**options)
    g.piece(TWO_HEX, [(3, 4), (3, 5)])
    z_spare(g)  # also stops play at the next turn's phase A
    ds = [g.unit(t, (3, 4), sq) for t, sq in defenders]
    ats = [g.unit(t, (3, 5), sq) for t, sq in attackers]
    g.begin(PHASE_T_MOVE, turn=2)
    for a in ats:
        g.move_unit(a, N)
    g.act(A_END_PHASE)
    assert g.phase == PHASE_T_COMBAT
    g.dice(roll)
    g.act(A_SELECT_UNIT + ats[0])
    return g, ats, ds


@pytest.mark.parametrize(
    "attackers, defenders, att, dfn, column",
    [
        ([(T_HEAVY_BEAMER, 1)], [(Z_INFANTRY, 1)], 4, 1, 5),
        ([(T_HEAVY_BEAMER, 1)], [(Z_INFANTRY, 2)], 4, 2, 3),
        ([(T_HEAVY_BEAMER, 1), (T_CRAWLER, 1), (T_INFANTRY, 2)], [(Z_INFANTRY, 3)], 11, 3, 4),
    ],
)
def test_odds_examples_of_12_4_in_play(attackers, defenders, att, dfn, column):
    """12.4 examples, played: the attacker totals his attack factors in the hex,
    the defender his defense factors (D4: Ziegler squad 1, Technocrat squad 2;
    heavy beamer 4, crawler 3); the combat uses the rounded column."""
    g, ats, ds = _attack(attackers, defenders, 1)
    rows = g.events(EV_COMBAT)
    assert len(rows) == 1
    assert rows[0][1:5] == (C(3, 4), att, dfn, column)


# D13: die roll down, odds across
CRT_D13 = {
    1: ("NE", "NE", "NE", "NE", "C", "C"),
    2: ("NE", "NE", "NE", "C", "C", "X"),
    3: ("NE", "NE", "C", "C", "X", "X"),
    4: ("NE", "NE", "C", "X", "X", "X"),
    5: ("NE", "C", "X", "X", "X", "X"),
    6: ("C", "C", "X", "X", "X", "X"),
}
# a position for each column: (attackers, defenders); every defender keeps a
# counter after a "C" so that C and X differ
CRT_SETUP = {
    0: ([(T_INFANTRY, 1)], [(Z_INFANTRY, 3), (Z_INFANTRY, 3)]),  # 2 vs 6
    1: ([(T_INFANTRY, 1)], [(Z_INFANTRY, 3), (Z_INFANTRY, 1)]),  # 2 vs 4
    2: ([(T_INFANTRY, 1)], [(Z_INFANTRY, 2)]),  # 2 vs 2
    3: ([(T_HEAVY_BEAMER, 1)], [(Z_INFANTRY, 2)]),  # 4 vs 2
    4: ([(T_CRAWLER, 1), (T_INFANTRY, 3)], [(Z_INFANTRY, 3)]),  # 9 vs 3
    5: ([(T_INFANTRY, 3), (T_INFANTRY, 3)], [(Z_INFANTRY, 3)]),  # 12 vs 3
}


@pytest.mark.parametrize("roll", range(1, 7))
@pytest.mark.parametrize("column", range(6))
def test_combat_results_table(column, roll):
    """16.0 CRT completed by D13, every row of every column; 12.5.1 NE: the
    attackers retreat (12.6); 12.5.2 C: the defender loses one infantry squad
    from his smallest counter (D15) and, not eliminated, the attackers retreat;
    12.5.3 X: all defenders eliminated, the attackers stay."""
    attackers, defenders = CRT_SETUP[column]
    g, ats, ds = _attack(attackers, defenders, roll)
    expected = CRT_D13[roll][column]
    code = {"NE": CRT_NE, "C": CRT_C, "X": CRT_X}[expected]
    rows = g.events(EV_COMBAT)
    assert len(rows) == 1 and rows[0][4] == column and rows[0][5] == code
    assert [r[1:4] for r in g.rolls(CHART_CRT)] == [(CHART_CRT, C(3, 4), roll)]
    before = sorted(sq for _, sq in defenders)
    after = sorted(g.squads(d) for d in ds if g.alive(d))
    if expected == "X":
        assert after == []
        assert all(g.where(a) == (3, 4) for a in ats)
        assert all(not g.s["unit_flags"][a] & UF_ATTACKING for a in ats)
        assert g.events(EV_RETREAT) == []
    else:
        if expected == "NE":
            assert after == before
        else:
            smallest = before[0]
            assert after == sorted(([smallest - 1] if smallest > 1 else []) + before[1:])
            assert len(g.events(EV_SQUAD_LOST)) == 1
        assert all(g.where(a) == (3, 5) for a in ats)  # 12.6: back where they came from
        assert len(g.events(EV_RETREAT)) == len(ats)
    assert g.phase != PHASE_T_COMBAT  # the only combat is resolved: the phase ends


# D22 option combat_table="diagonal": rows 1-3 as printed (16.0), rows 4-6 the
# strict continuation of their diagonals (the first C and the first X each
# move one column left per row)
CRT_DIAGONAL = dict(CRT_D13)
CRT_DIAGONAL.update(
    {
        4: ("NE", "C", "C", "X", "X", "X"),
        5: ("C", "C", "X", "X", "X", "X"),
        6: ("C", "X", "X", "X", "X", "X"),
    }
)


def test_combat_tables_of_the_rules_option():
    """16.0, D13, D22: both readings of the lost rows 4-6 are in rules_data;
    the printed rows 1-3 are the same in both; CRT is the default (D13)."""
    names = {"NE": CRT_NE, "C": CRT_C, "X": CRT_X}
    for table, rows in ((0, CRT_D13), (1, CRT_DIAGONAL)):
        assert [[int(x) for x in CRT_TABLES[table][r - 1]] for r in range(1, 7)] == [
            [names[x] for x in rows[r]] for r in range(1, 7)
        ]
    assert (CRT == CRT_TABLES[0]).all()
    assert (CRT_TABLES[0][:3] == CRT_TABLES[1][:3]).all()


@pytest.mark.parametrize("roll", [4, 5, 6])
@pytest.mark.parametrize("column", range(6))
def test_combat_results_table_diagonal_option(column, roll):
    """16.0, D13, D22 (option combat_table="diagonal"): the same positions and
    dice as the D13 test above, rows 4-6 read from the diagonal table."""
    attackers, defenders = CRT_SETUP[column]
    g, ats, ds = _attack(attackers, defenders, roll, combat_table="diagonal")
    expected = {"NE": CRT_NE, "C": CRT_C, "X": CRT_X}[CRT_DIAGONAL[roll][column]]
    rows = g.events(EV_COMBAT)
    assert len(rows) == 1 and rows[0][4] == column and rows[0][5] == expected


@pytest.mark.parametrize("table, result", [("d13", "NE"), ("diagonal", "C")])
def test_combat_table_option_changes_the_result(table, result):
    """16.0 ("The corresponding line of the proper column of the Combat
    Results Table is consulted"), D13, D22: a Technocrat infantry squad (2)
    attacks two Ziegler counters (3 + 1 squads = 4), 1:2, die 4.  D13's row 4
    reads NE: the attack fails, the attackers retreat (12.5.1) and the
    defenders keep every squad.  The diagonal row 4 reads C: the defender
    loses a squad from his smallest counter (12.5.2, D15) and the attackers
    retreat."""
    g, ats, ds = _attack([(T_INFANTRY, 1)], [(Z_INFANTRY, 3), (Z_INFANTRY, 1)], 4, combat_table=table)
    assert g.events(EV_COMBAT)[0][2:6] == (2, 4, 1, {"NE": CRT_NE, "C": CRT_C}[result])
    if result == "NE":
        assert [g.squads(d) for d in ds] == [3, 1] and g.events(EV_SQUAD_LOST) == []
    else:
        assert g.squads(ds[0]) == 3 and not g.alive(ds[1])
        assert len(g.events(EV_SQUAD_LOST)) == 1
    assert g.where(ats[0]) == (3, 5)  # 12.6: retreat either way


def test_c_result_costs_technocrat_one_squad_two_attack_factors():
    """12.5.2, D4: "one Ziegler or two Technocrat attack factors": a Ziegler
    attack with result C takes one squad from a Technocrat infantry counter;
    the attackers retreat."""
    g = Pos()
    g.piece(TWO_HEX, [(3, 4), (3, 5)])
    z_spare(g)
    t = g.unit(T_INFANTRY, (3, 4), squads=2)
    z1 = g.unit(Z_INFANTRY, (3, 5), squads=3)
    z2 = g.unit(Z_INFANTRY, (3, 5), squads=1)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.move_unit(z1, N)
    g.move_unit(z2, N)
    g.act(A_END_PHASE)
    assert g.phase == PHASE_Z_COMBAT
    g.dice(3)  # 4 vs 4 = 1:1, roll 3: C
    g.act(A_SELECT_UNIT + z1)
    assert g.events(EV_COMBAT)[0][2:6] == (4, 4, 2, CRT_C)
    assert g.squads(t) == 1
    assert g.s["rules"]["attack"][T_INFANTRY] * g.squads(t) == 2  # lost 2 attack factors
    assert g.where(z1) == g.where(z2) == (3, 5)


def test_c_result_does_not_affect_non_infantry():
    """12.5.2: non-infantry units are unaffected by a C; the defender is not
    eliminated, so the attackers retreat."""
    g, ats, ds = _attack([(T_HEAVY_BEAMER, 1)], [(Z_HOVERCRAFT, 1)], 2)  # 4 vs 2: 2:1, roll 2: C
    assert g.events(EV_COMBAT)[0][4:6] == (3, CRT_C)
    assert g.alive(ds[0])
    assert g.events(EV_SQUAD_LOST) == []
    assert g.where(ats[0]) == (3, 5)


# ------------------------------------------------------------------ 12.3
def test_zero_defense_units_alone_eliminated_without_roll():
    """12.3, 15.1, D6, D14: units with no defense factor (engineers), not stacked
    with a friendly unit, are eliminated by any attack, with no die roll; the
    attackers stay."""
    g = Pos()
    g.piece(TWO_HEX, [(3, 4), (3, 5)])
    z_spare(g)
    e = g.unit(T_ENGINEER, (3, 4))
    z = g.unit(Z_INFANTRY, (3, 5))
    g.begin(PHASE_Z_MOVE, turn=2)
    g.move_unit(z, N)
    g.act(A_END_PHASE)
    g.act(A_SELECT_UNIT + z)
    assert g.rolls(CHART_CRT) == []
    assert not g.alive(e) and g.eliminated(ELIM_COMBAT) == [e]
    assert g.where(z) == (3, 4)
    assert g.alive(g.reserve_unit)  # the reserve engineer elsewhere keeps the game going


def test_zero_defense_units_add_nothing_and_fall_with_their_stack():
    """12.3: engineers add nothing to the defense of their stack, and are
    eliminated when the friendly units with them are (here a C result takes the
    last squad of the infantry); the attackers then stay (R12.5.2)."""
    g = Pos()
    g.piece(TWO_HEX, [(3, 4), (3, 5)])
    z_spare(g)
    t = g.unit(T_INFANTRY, (3, 4), squads=1)
    e = g.unit(T_ENGINEER, (3, 4))
    z = g.unit(Z_INFANTRY, (3, 5), squads=2)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.move_unit(z, N)
    g.act(A_END_PHASE)
    g.dice(3)  # 2 vs 2: 1:1, roll 3: C
    g.act(A_SELECT_UNIT + z)
    assert g.events(EV_COMBAT)[0][2:6] == (2, 2, 2, CRT_C)  # engineer adds no defense
    assert not g.alive(t) and not g.alive(e)
    assert g.where(z) == (3, 4)
    assert g.events(EV_RETREAT) == []


def test_x_result_eliminates_zero_defense_units_too():
    """12.3, 12.5.3: X eliminates all defending units, engineers included."""
    g = Pos()
    g.piece(TWO_HEX, [(3, 4), (3, 5)])
    z_spare(g)
    t = g.unit(T_INFANTRY, (3, 4), squads=1)
    e = g.unit(T_ENGINEER, (3, 4))
    z = g.unit(Z_INFANTRY, (3, 5), squads=2)
    g.begin(PHASE_Z_MOVE, turn=2)
    g.move_unit(z, N)
    g.act(A_END_PHASE)
    g.dice(5)  # 1:1 roll 5: X
    g.act(A_SELECT_UNIT + z)
    assert not g.alive(t) and not g.alive(e)
    assert sorted(g.eliminated(ELIM_COMBAT)) == sorted([t, e])


# ------------------------------------------------------------------ 12.6
def test_retreat_each_to_the_hex_it_entered_from():
    """12.6, D16: attacking units retreat one hex, each to the hex from which it
    entered the contested hex."""
    g = Pos()
    strip(g)
    z = g.unit(Z_INFANTRY, (3, 4), squads=3)
    a = g.unit(T_INFANTRY, (3, 3))
    b = g.unit(T_INFANTRY, (3, 5))
    g.begin(PHASE_T_MOVE, turn=2)
    g.move_unit(a, S)
    g.move_unit(b, N)
    g.act(A_END_PHASE)
    g.dice(1)  # 4 vs 3: 1:1, roll 1: NE
    g.act(A_SELECT_UNIT + a)
    assert g.where(a) == (3, 3) and g.where(b) == (3, 5)
    assert g.alive(z) and g.squads(z) == 3


def test_retreat_into_enemy_hex_eliminates():
    """12.6, D16: retreats may not be made into hexes containing enemy units: a
    crawler that overran (3,3) and attacked (3,4) has no retreat and is
    eliminated."""
    g = Pos()
    strip(g)
    t = g.unit(T_CRAWLER, (3, 2))
    g.unit(Z_INFANTRY, (3, 3))
    g.unit(Z_INFANTRY, (3, 4), squads=3)
    g.begin(PHASE_T_MOVE, turn=2)
    g.dice(3)  # close infantry assault leaving (3,3): no effect
    g.move_unit(t, S, S, end=True)
    assert g.where(t) == (3, 4) and g.s["unit_from"][t] == C(3, 3)
    g.act(A_END_PHASE)
    g.dice(1)  # 3 vs 3: 1:1, roll 1: NE
    g.act(A_SELECT_UNIT + t)
    assert not g.alive(t) and g.eliminated(ELIM_RETREAT) == [t]


def test_retreat_into_molten_hex_eliminates():
    """D16: a unit whose retreat hex is molten (the ground it came from has
    gone) is eliminated.  Hand-built phase G position."""
    g = Pos()
    g.piece(ONE_HEX, [(3, 4)])
    g.unit(Z_INFANTRY, (3, 4), squads=3)
    t = g.unit(T_INFANTRY, (3, 4))
    g.s["unit_from"][t] = C(4, 4)  # molten
    g.s["unit_flags"][t] = UF_ATTACKING
    g.begin(PHASE_T_COMBAT, turn=2)
    assert g.phase == PHASE_T_COMBAT
    g.dice(1)  # 2 vs 3: 1:2, NE
    g.act(A_SELECT_UNIT + t)
    assert not g.alive(t) and g.eliminated(ELIM_RETREAT) == [t]


def test_retreat_overstack_removes_weakest_retreating_units_then_stress():
    """12.6, D15 (R12.6): more than nine units in the retreat hex: the excess is
    eliminated from among the retreating units, weakest first (attack + defense);
    then more than six units there: stress roll (14.2)."""
    g = Pos()
    two = g.piece(TWO_HEX, [(3, 4), (3, 5)])
    _side = g.piece(ONE_HEX, [(3, 6)])
    g.piece(ONE_HEX, [(14, 20)])
    _zs = g.units(Z_INFANTRY, (3, 4), 4, squads=3)  # defense 12
    crawler = g.unit(T_CRAWLER, (3, 5))  # 3 + 3 = 6
    weak = g.unit(T_INFANTRY, (3, 5), squads=1)  # 2 + 2 = 4
    strong = g.unit(T_INFANTRY, (3, 5), squads=3)  # 6 + 6 = 12
    stay = g.units(T_INFANTRY, (3, 5), 6)
    movers = g.units(T_INFANTRY, (3, 6), 2)
    g.begin(PHASE_T_MOVE, turn=2)
    for u in (crawler, weak, strong):
        g.move_unit(u, N)
    for u in movers:
        g.move_unit(u, N)  # (3,5) now holds 6 + 2 = 8
    g.dice(6, 6)  # stress at the end of F: (3,4) holds 7, (3,5) holds 8
    g.act(A_END_PHASE)
    assert len(g.rolls(CHART_STRESS, two)) == 2
    g.dice(1, 1)  # 11 vs 12 = 1:2, roll 1: NE; then stress in (3,5): 1 = damage
    g.act(A_SELECT_UNIT + crawler)
    assert g.events(EV_COMBAT)[0][2:6] == (11, 12, 1, CRT_NE)
    assert sorted(g.eliminated(ELIM_OVERSTACK)) == sorted([weak, crawler])
    assert g.where(strong) == (3, 5)
    assert all(g.alive(u) for u in stay + movers)
    assert sum(1 for u in range(96) if g.s["unit_cell"][u] == C(3, 5)) == 9
    assert len(g.rolls(CHART_STRESS, two)) == 3
    assert g.s["piece_damage"][two] == 1


def test_stress_after_retreat():
    """12.6, 14.2: a retreat leaving more than six units in a hex: stress roll."""
    g = Pos()
    two = g.piece(TWO_HEX, [(3, 4), (3, 5)])
    g.piece(ONE_HEX, [(14, 20)])
    g.unit(Z_INFANTRY, (3, 4), squads=3)
    a = g.unit(T_INFANTRY, (3, 5))
    g.units(T_INFANTRY, (3, 5), 6)
    g.begin(PHASE_T_MOVE, turn=2)
    g.move_unit(a, N)  # (3,5) down to six: no stress at the end of F
    g.act(A_END_PHASE)
    assert g.rolls(CHART_STRESS) == []
    g.dice(1, 1)  # 2 vs 3: 1:2, NE; stress roll 1
    g.act(A_SELECT_UNIT + a)
    assert g.where(a) == (3, 5)
    assert [r[2] for r in g.rolls(CHART_STRESS)] == [two]
    assert g.s["piece_damage"][two] == 1


# ------------------------------------------------------------------ 12.7, 12.1
def test_attack_order_chosen_by_attacker():
    """12.7: the attacking player resolves his attacks in any order: both
    combats may be resolved first; the phase cannot end while one is pending
    (12.1); only the attacking side's first unit in a hex names its combat."""

    def position():
        g = Pos()
        strip(g)
        g.piece(ONE_HEX, [(14, 20)])
        za = g.unit(Z_INFANTRY, (3, 2))
        zb = g.unit(Z_INFANTRY, (3, 6))
        a = g.unit(T_INFANTRY, (3, 1))
        a2 = g.unit(T_INFANTRY, (3, 1))
        b = g.unit(T_INFANTRY, (3, 7))
        g.begin(PHASE_T_MOVE, turn=2)
        g.move_unit(a, S)
        g.move_unit(a2, S)
        g.move_unit(b, N)
        g.act(A_END_PHASE)
        assert g.phase == PHASE_T_COMBAT
        return g, za, zb, a, a2, b

    for first in ("a", "b"):
        g, za, zb, a, a2, b = position()
        assert g.legal(A_SELECT_UNIT + a) and g.legal(A_SELECT_UNIT + b)
        g.refuse(A_SELECT_UNIT + a2, ERR_NOT_A_COMBAT)
        g.refuse(A_SELECT_UNIT + za, ERR_NOT_A_COMBAT)
        g.refuse(A_END_PHASE, ERR_COMBATS_PENDING)
        g.dice(6)  # X in both cases (4 vs 1 and 2 vs 1)
        g.act(A_SELECT_UNIT + (a if first == "a" else b))
        cells = [r[1] for r in g.events(EV_COMBAT)]
        assert cells == [C(3, 2) if first == "a" else C(3, 6)]
        other = b if first == "a" else a
        assert g.phase == PHASE_T_COMBAT and g.legal(A_SELECT_UNIT + other)
        g.refuse(A_END_PHASE, ERR_COMBATS_PENDING)
        g.dice(6)
        g.act(A_SELECT_UNIT + other)
        assert not g.alive(za) and not g.alive(zb)
        assert g.phase != PHASE_T_COMBAT
