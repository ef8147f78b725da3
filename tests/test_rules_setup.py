"""Preparation for play as decisions (rulebook 3.2, 3.3; decisions D12, D20,
D21; readings R3.1, R3.2, R3.3 in hotspot/core/setup.py).

3.2: "The Ziegler player begins with 18 hexes of crustals (not counting
Central Crustal) of any types, 42 attack factors of infantry, and 6 hovercraft
units.  Crustals are placed in any molten hexes.  Infantry and hovercraft are
then placed on Central Crustal and the mobile crustals."
3.3: "The Technocrat player begins with 5 attack platforms, 24 attack factors
of infantry, 3 engineer squads, 6 crawlers, and 2 heavy beamers.  The ground
units are divided among the attack platforms.  After the Ziegler player has
finished setting up, the attack platforms are placed in molten hexes on the
perimeter of the map."

The ``open`` scenario leaves the whole deployment to the players (D21).  The
tests below place pieces and units through the public ``Game`` API only
(SETUP_CHOOSE item, SETUP_HEX hex, SETUP_FACING facing) and compare the
legal-action mask with geometry computed independently of the engine's tables
(``helpers.nb``, the odd-q layout of D1).
"""

from __future__ import annotations

import copy
import json
from importlib import resources

import numpy as np
import pytest
from helpers import NE, N, S, nb

from hotspot import Game
from hotspot.core.actions import A_END_PHASE, A_SELECT_PIECE, A_SETUP_CHOOSE, A_SETUP_FACING, A_SETUP_HEX
from hotspot.core.errors import (
    ERR_CRUSTALS_FIRST,
    ERR_PLATFORMS_FIRST,
    ERR_POOL_SHORT,
    ERR_SETTING_UP,
    ERR_SETUP_HEX,
    ERR_STACKING,
)
from hotspot.core.game import IllegalActionError
from hotspot.core.record import GameRecord
from hotspot.core.rules_data import (
    ITEM_CRAWLER,
    ITEM_ENGINEER,
    ITEM_HEAVY_BEAMER,
    ITEM_HOVERCRAFT,
    ITEM_LONG,
    ITEM_ONE_HEX,
    ITEM_PLATFORM,
    ITEM_T_INFANTRY_1,
    ITEM_T_INFANTRY_3,
    ITEM_TRIANGULAR,
    ITEM_TWO_HEX,
    ITEM_Z_INFANTRY_1,
    ITEM_Z_INFANTRY_2,
    ITEM_Z_INFANTRY_3,
    NUM_ITEMS,
    PHASE_OVER,
    PHASE_T_SETUP,
    PHASE_Z_CRUSTAL,
    PHASE_Z_SETUP,
    TECHNOCRAT,
    Z_INFANTRY,
    ZIEGLER,
)
from hotspot.core.scenario import DEPLOY_PARTS, ScenarioError, load_scenario, state_to_scenario, validate_scenario

RULEBOOK_POOLS = [18, 42, 6, 5, 12, 3, 6, 2]  # 3.2, 3.3, D4 (42 and 12 squads)
COLS, ROWS = 15, 21  # D1
MAP = {(c, r) for c in range(COLS) for r in range(ROWS)}
CENTRE = (7, 10)  # D2
CENTRAL = {CENTRE} | {nb(CENTRE, d) for d in range(6)}
PERIMETER = {(c, r) for (c, r) in MAP if c in (0, COLS - 1) or r in (0, ROWS - 1)}  # D1
Z_ITEMS = [
    ITEM_ONE_HEX,
    ITEM_TWO_HEX,
    ITEM_TRIANGULAR,
    ITEM_LONG,
    ITEM_Z_INFANTRY_1,
    ITEM_Z_INFANTRY_2,
    ITEM_Z_INFANTRY_3,
    ITEM_HOVERCRAFT,
]
Z_UNIT_ITEMS = [ITEM_Z_INFANTRY_1, ITEM_Z_INFANTRY_2, ITEM_Z_INFANTRY_3, ITEM_HOVERCRAFT]
T_UNIT_ITEMS = list(range(ITEM_T_INFANTRY_1, NUM_ITEMS))


# ------------------------------------------------------------------ helpers


def hx(hex_) -> int:
    """SETUP_HEX index of a map hex (row * 15 + col)."""
    col, row = hex_
    return row * COLS + col


def unhx(h: int):
    return h % COLS, h // COLS


def legal(game) -> set[int]:
    return set(int(a) for a in game.legal_actions())


def legal_items(game) -> set[int]:
    return {a - A_SETUP_CHOOSE for a in legal(game) if A_SETUP_CHOOSE <= a < A_SETUP_HEX}


def legal_hexes(game) -> set:
    return {unhx(a - A_SETUP_HEX) for a in legal(game) if A_SETUP_HEX <= a < A_SETUP_FACING}


def legal_facings(game) -> set[int]:
    return {a - A_SETUP_FACING for a in legal(game) if a >= A_SETUP_FACING}


def place(game, item, hex_, facing=None, events=False):
    """One placement: SETUP_CHOOSE item, SETUP_HEX hex[, SETUP_FACING facing]."""
    out = []
    for a in [A_SETUP_CHOOSE + item, A_SETUP_HEX + hx(hex_)] + ([] if facing is None else [A_SETUP_FACING + facing]):
        assert A_END_PHASE not in legal(game)  # D21: the set-up is never ended, only completed
        got = game.apply_action(a, events=events)
        if events:
            out += got
    return out


def footprint(item, anchor, f):
    """The hexes of a crustal set up at ``anchor`` facing ``f`` (setup.footprint's
    convention, recomputed here): two-hex: rear = anchor, front its neighbour in
    direction f (6.4); triangular: the anchor and its neighbours in directions
    f and f+1; long: centre = anchor, front in direction f, rear opposite (6.6)."""
    if item == ITEM_ONE_HEX:
        return [anchor]
    if item == ITEM_TWO_HEX:
        return [nb(anchor, f), anchor]
    if item == ITEM_TRIANGULAR:
        return [anchor, nb(anchor, f), nb(anchor, (f + 1) % 6)]
    return [nb(anchor, f), anchor, nb(anchor, (f + 3) % 6)]


def fits(item, anchor, f, taken) -> bool:
    """3.2, 6.2, D2: every hex of the crustal on the map, molten (not the
    Central Crustal) and free of other pieces."""
    return all(h in MAP and h not in CENTRAL and h not in taken for h in footprint(item, anchor, f))


def facings_of(item):
    return [0] if item == ITEM_ONE_HEX else range(6)


# A Ziegler crustal layout of 18 hexes: six long crustals facing N (front =
# north neighbour of the anchor), two of them on the map's edge.
LONGS = [(0, 5), (3, 2), (6, 2), (9, 2), (12, 2), (14, 15)]
LONG_HEXES = {h for a in LONGS for h in footprint(ITEM_LONG, a, N)}
# Technocrat platforms, molten perimeter hexes (3.3)
PLATFORMS = [(7, 0), (0, 10), (14, 5), (7, 20), (0, 15)]


def ziegler_units(variant=0):
    """The Ziegler units as (item, hex), 42 squads and 6 hovercraft (3.2, D4).

    The first six counters build two stacks on the Central Crustal, X = (7, 10)
    and Y = (7, 9).  Variants 0 and 1 differ only in what the Technocrat may
    not see (9.5, D20): the squads of each stack's top counter (its
    lowest-index unit, R9.5) and the counters under it; both have the same
    number of counters in each hex and the same top counter types."""
    X, Y = (7, 10), (7, 9)
    if variant == 0:
        head = [
            (ITEM_Z_INFANTRY_3, X),
            (ITEM_Z_INFANTRY_1, Y),
            (ITEM_Z_INFANTRY_1, X),
            (ITEM_Z_INFANTRY_3, Y),
            (ITEM_Z_INFANTRY_3, X),
            (ITEM_HOVERCRAFT, Y),
        ]
    else:
        head = [
            (ITEM_Z_INFANTRY_1, X),
            (ITEM_Z_INFANTRY_3, Y),
            (ITEM_Z_INFANTRY_3, X),
            (ITEM_Z_INFANTRY_1, Y),
            (ITEM_HOVERCRAFT, X),
            (ITEM_Z_INFANTRY_3, Y),
        ]
    # the rest: 31 squads (10 x 3 + 1) and 5 hovercraft, the same in both variants
    rest_hexes = [(7, 11), (8, 10), (8, 11), (6, 10), (6, 11)] + [(3, 1), (3, 2), (9, 3), (0, 4)]
    rest = [(ITEM_Z_INFANTRY_3, rest_hexes[i % len(rest_hexes)]) for i in range(10)]
    rest += [(ITEM_Z_INFANTRY_1, (12, 1))]
    rest += [(ITEM_HOVERCRAFT, rest_hexes[i]) for i in range(5)]
    return head + rest


def technocrat_units():
    """12 squads as four three-squad counters, 3 engineers, 6 crawlers, 2 heavy
    beamers (3.3, D4): three counters a platform."""
    items = [ITEM_T_INFANTRY_3] * 4 + [ITEM_ENGINEER] * 3 + [ITEM_CRAWLER] * 6 + [ITEM_HEAVY_BEAMER] * 2
    return [(item, PLATFORMS[i % len(PLATFORMS)]) for i, item in enumerate(items)]


def ziegler_crustals(game):
    for a in LONGS:
        place(game, ITEM_LONG, a, N)


def scripted_setup(game, variant=0, technocrat=True):
    """Play a whole set-up of the open scenario; returns the phase after each action."""
    phases = []

    def track(item, hex_, facing=None):
        place(game, item, hex_, facing)
        phases.append(game.phase)

    for a in LONGS:
        track(ITEM_LONG, a, N)
    for item, h in ziegler_units(variant):
        track(item, h)
    if technocrat:
        for h in PLATFORMS:
            track(ITEM_PLATFORM, h)
        for item, h in technocrat_units():
            track(item, h)
    return phases


def refused(game, action, code=None):
    """``action`` raises IllegalActionError (with ``code``), leaving the game unchanged."""
    before = game.to_bytes()
    n = len(game.record.actions)
    with pytest.raises(IllegalActionError) as info:
        game.apply_action(action)
    if code is not None:
        assert info.value.code == code, str(info.value)
    assert game.to_bytes() == before and len(game.record.actions) == n
    return str(info.value)


# ---------------------------------------------------------- 3.2, 3.3, D21


def test_open_game_starts_with_the_ziegler_setup_and_the_rulebook_pools():
    """3.2, 3.3, D21: the rulebook game begins with the Ziegler set-up; the
    force pools are 18 crustal hexes, 42 Ziegler squads (42 attack factors,
    D4), 6 hovercraft; 5 platforms, 12 Technocrat squads (24 attack factors,
    D4), 3 engineer squads, 6 crawlers, 2 heavy beamers.  Crustals come first
    (3.2 "then"), so the only legal actions are the choice of a crustal type."""
    game = Game("open")
    assert game.phase == PHASE_Z_SETUP and game.turn == 1
    assert game.current_player() == ZIEGLER and not game.is_terminal()
    assert [int(v) for v in game.s["pool"]] == RULEBOOK_POOLS
    assert legal(game) == {A_SETUP_CHOOSE + i for i in (ITEM_ONE_HEX, ITEM_TWO_HEX, ITEM_TRIANGULAR, ITEM_LONG)}
    # nothing is on the board but the Central Crustal (D2)
    assert int((game.s["piece_kind"][1:] != 0).sum()) == 0
    assert int((game.s["unit_type"] != 0).sum()) == 0


def test_play_actions_refused_during_setup():
    """D21: while the players set up, only set-up actions are taken; END_PHASE
    in particular is refused (the set-up ends when the pools are placed)."""
    game = Game("open")
    for a in (A_END_PHASE, A_SELECT_PIECE + 0):
        refused(game, a, ERR_SETTING_UP)


def test_units_only_after_every_crustal():
    """3.2: "Crustals are placed in any molten hexes.  Infantry and hovercraft
    are *then* placed" (R3.1): a unit is refused while crustal hexes are left;
    once the 18 hexes are placed no crustal can be chosen and the units can."""
    game = Game("open")
    for item in Z_UNIT_ITEMS:
        msg = refused(game, A_SETUP_CHOOSE + item, ERR_CRUSTALS_FIRST)
        assert "crustals" in msg
    for a in LONGS[:-1]:
        place(game, ITEM_LONG, a, N)
        assert legal_items(game) == {ITEM_ONE_HEX, ITEM_TWO_HEX, ITEM_TRIANGULAR, ITEM_LONG}
    place(game, ITEM_LONG, LONGS[-1], N)
    assert int(game.s["pool"][0]) == 0
    assert legal_items(game) == set(Z_UNIT_ITEMS)
    for item in (ITEM_ONE_HEX, ITEM_TWO_HEX, ITEM_TRIANGULAR, ITEM_LONG):
        msg = refused(game, A_SETUP_CHOOSE + item, ERR_POOL_SHORT)
        assert "ziegler crustal hexes" in msg


def test_crustal_pool_is_exact():
    """3.2: exactly 18 hexes of crustals: with 2 hexes left a three-hex crustal
    is refused (naming the pool), a two-hex or one-hex crustal is not; with 1
    left only a one-hex crustal."""
    game = Game("open")
    for a in LONGS[:5]:  # 15 hexes
        place(game, ITEM_LONG, a, N)
    place(game, ITEM_ONE_HEX, (14, 20))
    assert int(game.s["pool"][0]) == 2
    assert legal_items(game) == {ITEM_ONE_HEX, ITEM_TWO_HEX}
    for item in (ITEM_TRIANGULAR, ITEM_LONG):
        msg = refused(game, A_SETUP_CHOOSE + item, ERR_POOL_SHORT)
        assert "ziegler crustal hexes" in msg
    place(game, ITEM_ONE_HEX, (14, 19))
    assert legal_items(game) == {ITEM_ONE_HEX}
    msg = refused(game, A_SETUP_CHOOSE + ITEM_TWO_HEX, ERR_POOL_SHORT)
    assert "ziegler crustal hexes" in msg
    place(game, ITEM_ONE_HEX, (14, 18))
    assert game.phase == PHASE_Z_SETUP and legal_items(game) == set(Z_UNIT_ITEMS)


def test_infantry_pool_is_exact():
    """3.2, D4, D21: exactly 42 Ziegler squads.  With 2 squads left, an
    infantry counter of 3 squads is refused with an IllegalActionError naming
    the pool ("ziegler infantry squads"); counters of 2 or 1 squads are legal;
    with none left no infantry counter can be chosen."""
    game = Game("open")
    ziegler_crustals(game)
    for i in range(13):
        place(game, ITEM_Z_INFANTRY_3, sorted(CENTRAL)[i % 7])
    place(game, ITEM_Z_INFANTRY_1, (3, 2))
    assert int(game.s["pool"][1]) == 2
    assert legal_items(game) == {ITEM_Z_INFANTRY_1, ITEM_Z_INFANTRY_2, ITEM_HOVERCRAFT}
    msg = refused(game, A_SETUP_CHOOSE + ITEM_Z_INFANTRY_3, ERR_POOL_SHORT)
    assert "ziegler infantry squads" in msg
    place(game, ITEM_Z_INFANTRY_2, (3, 2))
    assert int(game.s["pool"][1]) == 0
    assert legal_items(game) == {ITEM_HOVERCRAFT}
    for item in (ITEM_Z_INFANTRY_1, ITEM_Z_INFANTRY_2, ITEM_Z_INFANTRY_3):
        assert "ziegler infantry squads" in refused(game, A_SETUP_CHOOSE + item, ERR_POOL_SHORT)
    squads = sum(
        int(game.s["unit_squads"][u]) for u in range(len(game.s["unit_type"])) if game.s["unit_type"][u] == Z_INFANTRY
    )
    assert squads == 42


def test_setup_ends_only_when_every_pool_is_placed():
    """3.2, 3.3, 4.0, D21: the set-up cannot be ended with anything left (END_PHASE
    is never legal in it); the Technocrat sets up after the Ziegler player has
    finished (3.3), and play begins at turn 1, phase A, right after the last
    placement and not before."""
    game = Game("open")
    phases = scripted_setup(game)
    n_z = len(LONGS) + len(ziegler_units())
    n_t = len(PLATFORMS) + len(technocrat_units())
    assert phases == [PHASE_Z_SETUP] * (n_z - 1) + [PHASE_T_SETUP] * n_t + [PHASE_Z_CRUSTAL]
    assert game.turn == 1 and game.phase == PHASE_Z_CRUSTAL
    assert [int(v) for v in game.s["pool"]] == [0] * 8
    assert not any(a >= A_SETUP_CHOOSE for a in legal(game))  # play: no set-up action any more
    assert game.current_player() == ZIEGLER
    refused(game, A_SETUP_CHOOSE + ITEM_ONE_HEX)


def test_technocrat_cannot_skip_part_of_his_pool():
    """3.3, D21: with one heavy beamer left the Technocrat's only legal actions
    place it; there is no END_PHASE."""
    game = Game("open")
    ziegler_crustals(game)
    for item, h in ziegler_units():
        place(game, item, h)
    for h in PLATFORMS:
        place(game, ITEM_PLATFORM, h)
    for item, h in technocrat_units()[:-1]:
        place(game, item, h)
    assert game.phase == PHASE_T_SETUP and game.current_player() == TECHNOCRAT
    assert legal(game) == {A_SETUP_CHOOSE + ITEM_HEAVY_BEAMER}
    refused(game, A_END_PHASE, ERR_SETTING_UP)


# ------------------------------------------------------ where pieces go


def test_one_hex_crustal_any_molten_map_hex_one_piece_a_hex():
    """3.2 "Crustals are placed in any molten hexes", 6.2 "Only one crustal or
    attack platform is allowed per hex", D2: every map hex but the seven of the
    Central Crustal; a hex taken by a crustal is no longer offered."""
    game = Game("open")
    game.apply_action(A_SETUP_CHOOSE + ITEM_ONE_HEX)
    assert legal_hexes(game) == MAP - CENTRAL
    game.apply_action(A_SETUP_HEX + hx((7, 8)))
    place(game, ITEM_LONG, (3, 2), N)
    game.apply_action(A_SETUP_CHOOSE + ITEM_ONE_HEX)
    taken = {(7, 8)} | set(footprint(ITEM_LONG, (3, 2), N))
    assert legal_hexes(game) == MAP - CENTRAL - taken
    for h in sorted(CENTRAL | taken):
        refused(game, A_SETUP_HEX + hx(h), ERR_SETUP_HEX)


@pytest.mark.parametrize("item", [ITEM_TWO_HEX, ITEM_TRIANGULAR, ITEM_LONG])
def test_larger_crustals_only_where_every_hex_is_a_free_molten_map_hex(item):
    """3.2, 6.2, D2, D3: a crustal of two or three hexes may be set up only with
    every one of its hexes on the map, molten (never the Central Crustal) and
    free of other pieces: an anchor hex is offered iff some facing fits, and
    after the anchor exactly the facings that fit (geometry recomputed here)."""
    game = Game("open")
    place(game, ITEM_ONE_HEX, (7, 8))  # next to the Central Crustal
    place(game, ITEM_LONG, (3, 2), N)
    taken = {(7, 8)} | set(footprint(ITEM_LONG, (3, 2), N))
    game.apply_action(A_SETUP_CHOOSE + item)
    expected = {a for a in MAP if any(fits(item, a, f, taken) for f in range(6))}
    assert legal_hexes(game) == expected
    assert not expected & CENTRAL
    # facings at anchors by the Central Crustal, the other pieces and the map's edges
    for anchor in [
        (7, 7),
        (6, 8),
        (8, 8),
        (4, 2),
        (2, 2),
        (3, 4),
        (0, 0),
        (14, 20),
        (0, 10),
        (14, 7),
        (5, 10),
        (9, 11),
        (7, 13),
    ]:
        g = game.clone()
        ok = [f for f in range(6) if fits(item, anchor, f, taken)]
        if not ok:
            refused(g, A_SETUP_HEX + hx(anchor), ERR_SETUP_HEX)
            continue
        g.apply_action(A_SETUP_HEX + hx(anchor))
        assert legal_facings(g) == set(ok), anchor
        for f in set(range(6)) - set(ok):
            refused(g, A_SETUP_FACING + f, ERR_SETUP_HEX)
        g.apply_action(A_SETUP_FACING + ok[0])
        k = int(g.s["board"][_cell(footprint(item, anchor, ok[0])[0])])
        assert k > 0
        got = _hexes_of(g, k)
        if item == ITEM_TRIANGULAR:
            assert sorted(got) == sorted(footprint(item, anchor, ok[0]))
        else:  # 2.2.2: slot order, the front hex first
            assert got == footprint(item, anchor, ok[0])


def _cell(hex_):
    from hotspot.core.hexgrid import cell_of

    return cell_of(*hex_)


def _hexes_of(game, k):
    from hotspot.core.hexgrid import col_row

    return [col_row(int(c)) for c in game.s["piece_cells"][k] if c >= 0]


def test_setting_up_causes_no_collision_and_rolls_no_die():
    """D12: "setting up causes no collisions" (7.1, 7.4 do not apply): crustals
    set up touching each other and the Central Crustal roll no die and take no
    damage; the dice are untouched by the whole set-up."""
    game = Game("open", seed=5)
    rng0 = int(game.s["rng"])
    events = []
    events += place(game, ITEM_ONE_HEX, (7, 8), events=True)  # touches the Central Crustal
    events += place(game, ITEM_ONE_HEX, (7, 7), events=True)  # touches the first
    events += place(game, ITEM_TWO_HEX, (8, 7), S, events=True)
    events += place(game, ITEM_TRIANGULAR, (4, 10), N, events=True)
    events += place(game, ITEM_LONG, (10, 10), N, events=True)
    events += place(game, ITEM_LONG, (4, 14), N, events=True)
    events += place(game, ITEM_LONG, (11, 14), N, events=True)
    events += place(game, ITEM_TWO_HEX, (1, 1), S, events=True)
    names = {e["event"] for e in events}
    assert names <= {"action", "setup_piece"}, names
    assert int(game.s["pool"][0]) == 0
    assert all(int(d) == 0 for d in game.s["piece_damage"])
    for item in [ITEM_Z_INFANTRY_3] * 14 + [ITEM_HOVERCRAFT] * 6:
        game.apply_action(A_SETUP_CHOOSE + item)
        game.apply_action(int(game.legal_actions()[0]))
    for h in PLATFORMS:
        place(game, ITEM_PLATFORM, h)
    for item, h in technocrat_units():
        place(game, item, h)
    assert game.phase == PHASE_Z_CRUSTAL
    assert int(game.s["rng"]) == rng0 and int(game.s["dice_pos"]) == 0
    assert all(int(d) == 0 for d in game.s["piece_damage"])


def test_platforms_only_on_molten_perimeter_hexes():
    """3.3: "the attack platforms are placed in molten hexes on the perimeter
    of the map" (and 6.2, one piece a hex): exactly the perimeter hexes that
    hold no crustal (two Ziegler crustals stand on the edge here)."""
    game = Game("open")
    scripted_setup(game, technocrat=False)
    assert game.phase == PHASE_T_SETUP and game.current_player() == TECHNOCRAT
    assert LONG_HEXES & PERIMETER
    game.apply_action(A_SETUP_CHOOSE + ITEM_PLATFORM)
    assert legal_hexes(game) == PERIMETER - LONG_HEXES
    refused(game, A_SETUP_HEX + hx((7, 1)), ERR_SETUP_HEX)  # inside the map
    refused(game, A_SETUP_HEX + hx((0, 5)), ERR_SETUP_HEX)  # a crustal on the edge
    game.apply_action(A_SETUP_HEX + hx(PLATFORMS[0]))
    game.apply_action(A_SETUP_CHOOSE + ITEM_PLATFORM)
    assert legal_hexes(game) == PERIMETER - LONG_HEXES - {PLATFORMS[0]}


def test_technocrat_places_platforms_before_units():
    """3.3, R3.1: the platforms are placed first, then loaded: a ground unit is
    refused while platforms are left to place."""
    game = Game("open")
    scripted_setup(game, technocrat=False)
    assert legal_items(game) == {ITEM_PLATFORM}
    for item in T_UNIT_ITEMS:
        refused(game, A_SETUP_CHOOSE + item, ERR_PLATFORMS_FIRST)
    for h in PLATFORMS:
        place(game, ITEM_PLATFORM, h)
    assert legal_items(game) == set(T_UNIT_ITEMS)


def test_units_only_on_their_own_sides_pieces():
    """3.2: Ziegler infantry and hovercraft on the Central Crustal and the
    mobile crustals; 3.3: "The ground units are divided among the attack
    platforms" - Technocrat units only on platforms."""
    game = Game("open")
    ziegler_crustals(game)
    for item in Z_UNIT_ITEMS:
        g = game.clone()
        g.apply_action(A_SETUP_CHOOSE + item)
        assert legal_hexes(g) == CENTRAL | LONG_HEXES
        refused(g, A_SETUP_HEX + hx((7, 7)), ERR_SETUP_HEX)
    for item, h in ziegler_units():
        place(game, item, h)
    for h in PLATFORMS:
        place(game, ITEM_PLATFORM, h)
    for item in T_UNIT_ITEMS:
        g = game.clone()
        g.apply_action(A_SETUP_CHOOSE + item)
        assert legal_hexes(g) == set(PLATFORMS)
        refused(g, A_SETUP_HEX + hx(CENTRE), ERR_SETUP_HEX)
        refused(g, A_SETUP_HEX + hx(LONGS[0]), ERR_SETUP_HEX)


def test_stacking_limit_holds_during_setup():
    """9.1: "A single player may not have more than nine units in one hex of a
    crustal" (9.4: also the Central Crustal); 9.2: "No more than nine units ...
    may be placed on an attack platform": a hex holding nine counters refuses
    a tenth (an infantry counter counts as one unit, 10.0)."""
    game = Game("open")
    ziegler_crustals(game)
    for item in [ITEM_Z_INFANTRY_3] * 7 + [ITEM_HOVERCRAFT] * 2:
        place(game, item, CENTRE)
    assert int(game.s["cell_units"][_cell(CENTRE), ZIEGLER]) == 9
    game.apply_action(A_SETUP_CHOOSE + ITEM_Z_INFANTRY_1)
    assert CENTRE not in legal_hexes(game)
    assert legal_hexes(game) == (CENTRAL | LONG_HEXES) - {CENTRE}
    refused(game, A_SETUP_HEX + hx(CENTRE), ERR_STACKING)
    game.apply_action(A_SETUP_HEX + hx((3, 2)))
    # the rest of the Ziegler pool elsewhere: 20 squads and 4 hovercraft
    for i, item in enumerate([ITEM_Z_INFANTRY_3] * 6 + [ITEM_Z_INFANTRY_2] + [ITEM_HOVERCRAFT] * 4):
        place(game, item, [(7, 9), (7, 11)][i % 2])
    assert game.phase == PHASE_T_SETUP
    for h in PLATFORMS:
        place(game, ITEM_PLATFORM, h)
    for item in [ITEM_ENGINEER] * 3 + [ITEM_CRAWLER] * 6:
        place(game, item, PLATFORMS[0])
    game.apply_action(A_SETUP_CHOOSE + ITEM_HEAVY_BEAMER)
    assert legal_hexes(game) == set(PLATFORMS[1:])
    refused(game, A_SETUP_HEX + hx(PLATFORMS[0]), ERR_STACKING)


# ------------------------------------------------------------------ D20 fog


def _to_technocrat_setup(variant):
    game = Game("open", seed=11)
    scripted_setup(game, variant, technocrat=False)
    assert game.phase == PHASE_T_SETUP
    return game


def test_technocrat_sees_only_counts_and_top_counters_while_setting_up():
    """9.5 "A player may not examine his opponent's stacks (and thus will only
    be able to see the top unit in that hex)", D20, D21 ("The Technocrat sets
    up seeing the Ziegler deployment under D20 (counts and top counters of
    stacks)"): in the Technocrat's observation each Ziegler stack shows its
    number of counters and its top counter's type only."""
    game = _to_technocrat_setup(0)
    obs = game.observation("technocrat")[0]
    s = game.s
    stacks = {}
    for u in range(len(s["unit_type"])):
        if s["unit_type"][u] != 0:
            stacks.setdefault(int(s["unit_cell"][u]), []).append(u)
    assert max(len(v) for v in stacks.values()) >= 3
    for cell, us in stacks.items():
        assert int(obs["cell_units"][cell, ZIEGLER]) == len(us)
        top, under = us[0], us[1:]
        assert int(obs["unit_type"][top]) == int(s["unit_type"][top])
        assert int(obs["unit_squads"][top]) == -1
        for u in under:
            assert int(obs["unit_type"][u]) == -1 and int(obs["unit_squads"][u]) == -1
    # the Ziegler player's own view is complete
    assert game.observation("ziegler").tobytes() != obs.tobytes()
    own = game.observation("ziegler")[0]
    assert np.array_equal(own["unit_type"], s["unit_type"])
    assert np.array_equal(own["unit_squads"], s["unit_squads"])


def test_technocrat_setup_does_not_depend_on_hidden_ziegler_contents():
    """9.5, D20, D21: two Ziegler deployments that differ only in what the
    Technocrat may not see (squads of top counters, counters under them) give
    the Technocrat the same observation and the same legal actions, at every
    step of his set-up."""
    g0 = _to_technocrat_setup(0)
    g1 = _to_technocrat_setup(1)
    assert g0.to_bytes() != g1.to_bytes()  # the true deployments differ
    assert not np.array_equal(g0.s["unit_squads"], g1.s["unit_squads"])
    steps = 0
    rng = np.random.default_rng(3)
    while g0.phase == PHASE_T_SETUP:
        assert g1.phase == PHASE_T_SETUP
        assert g0.observation("technocrat").tobytes() == g1.observation("technocrat").tobytes()
        m0, m1 = g0.legal_action_mask(), g1.legal_action_mask()
        assert np.array_equal(m0, m1), steps
        a = int(rng.choice(np.flatnonzero(m0)))
        g0.apply_action(a)
        g1.apply_action(a)
        steps += 1
    assert g1.phase == g0.phase == PHASE_Z_CRUSTAL
    assert steps >= 2 * (5 + 15)


# ------------------------------------------------- whole games and records


def _random_game(scenario, seed, max_turns, limit=50_000):
    game = Game(scenario, seed=seed, max_turns=max_turns)
    rng = np.random.default_rng(seed + 1000)
    n = 0
    while not game.is_terminal():
        game.apply_action(int(rng.choice(game.legal_actions())))
        n += 1
        assert n < limit, "the game did not end"
    return game


@pytest.mark.parametrize("seed, max_turns", [(0, 2), (1, 40), (2, 40)])
def test_random_open_game_ends_and_replays_byte_identically(seed, max_turns, tmp_path):
    """D21, D19 (revised): an open game played by random legal actions, set-up
    included, ends (a win, or truncated by max_turns); its record (scenario,
    seed, actions) replays to the byte-identical state, also after being saved
    and loaded as JSON."""
    game = _random_game("open", seed, max_turns)
    assert game.is_terminal()
    assert game.winner() >= 0 or game.is_truncated()
    if game.is_truncated():
        assert game.turn == max_turns
    actions = game.record.actions
    first_play = next(i for i, a in enumerate(actions) if a < A_SETUP_CHOOSE)
    assert first_play >= 2 * (len(LONGS) + 20 + 5 + 15) - 10  # the set-up was played
    assert all(a >= A_SETUP_CHOOSE for a in actions[:first_play])
    assert Game.from_record(game.record).to_bytes() == game.to_bytes()
    path = tmp_path / "record.json"
    game.record.save(path)
    loaded = GameRecord.load(path)
    assert loaded.actions == actions
    assert Game.from_record(loaded).to_bytes() == game.to_bytes()
    text = json.dumps(game.record.to_dict())
    assert Game.from_record(GameRecord.from_dict(json.loads(text))).to_bytes() == game.to_bytes()


def test_a_state_saved_mid_setup_replays_from_its_bytes():
    """D21: a game restored from the bytes of a state in the middle of the set-up
    continues the set-up with the same legal actions."""
    game = Game("open", seed=4)
    scripted_setup(game, technocrat=False)
    game.apply_action(A_SETUP_CHOOSE + ITEM_PLATFORM)
    copy_ = Game.from_bytes(game.to_bytes())
    assert copy_.phase == PHASE_T_SETUP
    assert np.array_equal(copy_.legal_action_mask(), game.legal_action_mask())


# ------------------------------------------------------------ scenario files


def _standard_raw():
    text = resources.files("hotspot").joinpath("scenarios", "standard.json").read_text(encoding="utf-8")
    return json.loads(text)


def test_version_1_scenario_file_still_loads():
    """D21: scenario format version 2 adds "forces" and "deploy"; a version-1
    file (the shipped standard.json) still loads, fully deployed: play starts
    at turn 1 with no pool to place."""
    raw = _standard_raw()
    assert raw["version"] == 1 and "deploy" not in raw and "forces" not in raw
    game = Game("standard")
    assert game.phase < PHASE_OVER and game.turn == 1
    assert [int(v) for v in game.s["pool"]] == [0] * 8
    assert not any(a >= A_SETUP_CHOOSE for a in legal(game))


def test_old_version_1_dict_loads_and_refuses_setup_keys():
    """D21: a version-1 dict (no forces, no deploy) is read as before; the
    set-up keys need version 2."""
    old = {
        "format": "hotspot-scenario",
        "version": 1,
        "pieces": [{"kind": "one_hex", "hexes": [[3, 3]]}, {"kind": "platform", "hexes": [[0, 0]]}],
        "units": [
            {"side": "ziegler", "type": "infantry", "squads": 2, "hex": [3, 3]},
            {"side": "technocrat", "type": "engineer", "hex": [0, 0]},
        ],
    }
    game = Game(copy.deepcopy(old))
    assert game.phase < PHASE_OVER and game.turn == 1
    assert [int(v) for v in game.s["pool"]] == [0] * 8
    bad = dict(old, deploy=["ziegler_units"])
    with pytest.raises(ScenarioError, match="version 2"):
        validate_scenario(bad)


def _crustals_only():
    raw = _standard_raw()
    pieces = [p for p in raw["pieces"] if p["kind"] != "platform"]
    return {
        "format": "hotspot-scenario",
        "version": 2,
        "name": "crustals preset",
        "pieces": pieces,
        "deploy": ["ziegler_units", "technocrat_platforms", "technocrat_units"],
    }


def test_partial_deployment_starts_with_the_unit_pools_only():
    """D21: "A scenario may fix all of the deployment ..., part of it, or none":
    with the crustals preset and the rest left to the players, the game starts
    in the Ziegler set-up with only the unit pools; no crustal can be placed."""
    data = _crustals_only()
    game = Game(data)
    assert game.phase == PHASE_Z_SETUP and game.current_player() == ZIEGLER
    assert [int(v) for v in game.s["pool"]] == [0] + RULEBOOK_POOLS[1:]
    assert legal_items(game) == set(Z_UNIT_ITEMS)
    # and it can be played to the end of the set-up
    rng = np.random.default_rng(0)
    while game.phase in (PHASE_Z_SETUP, PHASE_T_SETUP):
        game.apply_action(int(rng.choice(game.legal_actions())))
    assert game.turn == 1 and game.phase < PHASE_OVER
    assert [int(v) for v in game.s["pool"]] == [0] * 8


@pytest.mark.parametrize(
    "mutate, pool",
    [
        # seven hovercraft preset against the rulebook's six (3.2)
        (
            lambda d: d.update(units=[{"side": "ziegler", "type": "hovercraft", "hex": [7, 10]}] * 7),
            "ziegler hovercraft",
        ),
        # 45 squads preset against 42 (3.2, D4)
        (
            lambda d: d.update(
                units=[
                    {"side": "ziegler", "type": "infantry", "squads": 3, "hex": list(h)}
                    for h in sorted(CENTRAL)
                    for _ in range(2)
                ]
                + [{"side": "ziegler", "type": "infantry", "squads": 3, "hex": [7, 10]}]
            ),
            "ziegler infantry squads",
        ),
        # a force pool set by the scenario: 2 engineer squads, 3 preset on a platform
        (
            lambda d: d.update(
                deploy=["technocrat_units"],
                forces={"technocrat": {"engineers": 2}},
                pieces=d["pieces"] + [{"kind": "platform", "hexes": [[0, 0]]}],
                units=[{"side": "technocrat", "type": "engineer", "hex": [0, 0]}] * 3,
            ),
            "technocrat engineer squads",
        ),
    ],
)
def test_presetting_more_than_a_pool_is_refused_naming_it(mutate, pool):
    """D21, 3.2, 3.3: the players place the force pool minus what the scenario
    presets; a scenario that presets more than the pool is refused, naming it."""
    data = _crustals_only()
    mutate(data)
    with pytest.raises(ScenarioError, match=pool):
        Game(data)


def test_unknown_deploy_part_is_refused_listing_the_valid_ones():
    """D21: the parts of a deployment left to the players are ziegler_crustals,
    ziegler_units, technocrat_platforms, technocrat_units; any other is refused
    with the list of valid parts."""
    data = _crustals_only()
    data["deploy"] = ["ziegler_units", "technocrat_everything"]
    with pytest.raises(ScenarioError) as info:
        validate_scenario(data)
    msg = str(info.value)
    assert "technocrat_everything" in msg
    for part in DEPLOY_PARTS:
        assert part in msg
    assert set(DEPLOY_PARTS) == {"ziegler_crustals", "ziegler_units", "technocrat_platforms", "technocrat_units"}


def _mid_setup_games():
    """Open games stopped at several points of the set-up (no item chosen)."""
    out = []
    n_z = len(LONGS) + len(ziegler_units())
    marks = [3, 9, n_z - 1, n_z + 2, n_z + 5 + 7]
    for mark in marks:
        game = Game("open", seed=9)
        n = 0
        done = False

        def stop(mark=mark):
            nonlocal n
            n += 1
            return n >= mark

        for a in LONGS:
            place(game, ITEM_LONG, a, N)
            if stop():
                done = True
                break
        if not done:
            for item, h in ziegler_units():
                place(game, item, h)
                if stop():
                    done = True
                    break
        if not done:
            for h in PLATFORMS:
                place(game, ITEM_PLATFORM, h)
                if stop():
                    done = True
                    break
        if not done:
            for item, h in technocrat_units():
                place(game, item, h)
                if stop():
                    break
        out.append(game)
    return out


def test_state_to_scenario_mid_setup_continues_the_setup():
    """D21: ``state_to_scenario`` of a state in the middle of the set-up gives a
    scenario (through JSON) that continues the set-up: the same phase, player,
    pools, position and legal actions; played on with the same actions, both
    reach the same position."""
    for game in _mid_setup_games():
        assert game.phase in (PHASE_Z_SETUP, PHASE_T_SETUP)
        data = json.loads(json.dumps(state_to_scenario(game.state)))
        assert data["version"] == 2
        copy_ = Game(load_scenario(data), seed=9)
        assert copy_.phase == game.phase and copy_.current_player() == game.current_player()
        assert [int(v) for v in copy_.s["pool"]] == [int(v) for v in game.s["pool"]]
        assert np.array_equal(copy_.s["board"], game.s["board"])
        assert np.array_equal(copy_.s["unit_type"], game.s["unit_type"])
        assert np.array_equal(copy_.s["unit_squads"], game.s["unit_squads"])
        assert np.array_equal(copy_.s["unit_cell"], game.s["unit_cell"])
        assert np.array_equal(copy_.legal_action_mask(), game.legal_action_mask())
        rng = np.random.default_rng(1)
        while game.phase in (PHASE_Z_SETUP, PHASE_T_SETUP):
            m = game.legal_action_mask()
            assert np.array_equal(copy_.legal_action_mask(), m)
            a = int(rng.choice(np.flatnonzero(m)))
            game.apply_action(a)
            copy_.apply_action(a)
        assert copy_.phase == game.phase == PHASE_Z_CRUSTAL
        assert state_to_scenario(copy_.state) == state_to_scenario(game.state)


def test_state_to_scenario_with_an_item_chosen_keeps_the_pools():
    """D21: a choice made but not yet placed is not part of the position: the
    scenario of that state has the same pools and offers the choice again."""
    game = Game("open")
    ziegler_crustals(game)
    game.apply_action(A_SETUP_CHOOSE + ITEM_Z_INFANTRY_3)
    data = state_to_scenario(game.state)
    assert data["deploy"] == ["ziegler_units", "technocrat_platforms", "technocrat_units"]
    copy_ = Game(data)
    assert copy_.phase == PHASE_Z_SETUP
    assert [int(v) for v in copy_.s["pool"]] == [0] + RULEBOOK_POOLS[1:]
    assert legal_items(copy_) == set(Z_UNIT_ITEMS)


def test_no_dead_end_when_crustals_could_fill_the_perimeter():
    """D21 / setup.py: "the mask offers an item only if it can be placed and the
    rest of the pool still fits afterwards ... so every sequence of legal
    set-up actions ends the set-up".  3.3 needs a molten perimeter hex for each
    platform; with 68 Ziegler crustal hexes (a scenario's "forces", D21) the
    68 perimeter hexes of D1 can all be covered: 14 long crustals down the side
    columns, six two-hex and one one-hex crustal along the top and bottom
    rows.  The last of them must be refused (or the Technocrat must still have
    a legal placement)."""
    data = {
        "format": "hotspot-scenario",
        "version": 2,
        "name": "edge",
        "forces": {"ziegler": {"crustal_hexes": 68}, "technocrat": {"platforms": 2}},
        "deploy": "all",
    }
    game = Game(data)
    assert [int(v) for v in game.s["pool"]] == [68, 42, 6, 2, 12, 3, 6, 2]
    try:
        for col in (0, COLS - 1):
            for row in range(1, ROWS, 3):
                place(game, ITEM_LONG, (col, row), N)
        for row in (0, ROWS - 1):
            for col in range(1, 13, 2):
                place(game, ITEM_TWO_HEX, (col, row), NE)
            place(game, ITEM_ONE_HEX, (13, row))
    except IllegalActionError:
        stuck = False  # a crustal was refused: the perimeter stays open (one possible fix)
    else:
        stuck = True
    while game.phase == PHASE_Z_SETUP:
        game.apply_action(int(game.legal_actions()[0]))
    assert not (stuck and len(game.legal_actions()) == 0 and not game.is_terminal()), (
        f"dead end in phase {game.phase}: pools {[int(v) for v in game.s['pool']]}, no legal action"
    )
    # whatever the fix, the set-up can be completed
    while game.phase in (PHASE_Z_SETUP, PHASE_T_SETUP):
        game.apply_action(int(game.legal_actions()[0]))
    assert game.phase == PHASE_Z_CRUSTAL


def test_technocrat_pools_are_exact_too():
    """3.3, D4: exactly 12 Technocrat squads (24 attack factors) and 3 engineer
    squads: with 2 squads left a three-squad counter is refused naming
    "technocrat infantry squads"; a fourth engineer is refused naming
    "technocrat engineer squads"."""
    game = Game("open")
    scripted_setup(game, technocrat=False)
    for h in PLATFORMS:
        place(game, ITEM_PLATFORM, h)
    for i in range(3):
        place(game, ITEM_T_INFANTRY_3, PLATFORMS[i])
    place(game, ITEM_T_INFANTRY_1, PLATFORMS[3])
    assert int(game.s["pool"][4]) == 2
    msg = refused(game, A_SETUP_CHOOSE + ITEM_T_INFANTRY_3, ERR_POOL_SHORT)
    assert "technocrat infantry squads" in msg
    for i in range(3):
        place(game, ITEM_ENGINEER, PLATFORMS[i])
    msg = refused(game, A_SETUP_CHOOSE + ITEM_ENGINEER, ERR_POOL_SHORT)
    assert "technocrat engineer squads" in msg
    assert ITEM_ENGINEER not in legal_items(game)
