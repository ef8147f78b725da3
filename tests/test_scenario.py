"""Scenarios (hotspot.core.scenario): the JSON format, the standard setup of
3.2/3.3, the random setup generator (D12) and the refusal of bad scenarios."""

from __future__ import annotations

import copy
import json
from collections import Counter

import numpy as np
import pytest

from hotspot.core.hexgrid import CENTRAL_CELLS, NEIGHBOUR, ON_MAP, PERIMETER, cell_of, col_row
from hotspot.core.placement import position_errors
from hotspot.core.rules_data import DEFAULT_RULES, PHASE_Z_CRUSTAL, ZIEGLER
from hotspot.core.scenario import (
    ScenarioError,
    builtin_scenarios,
    dumps_scenario,
    load_scenario,
    random_setup,
    save_scenario,
    scenario_to_state,
    state_to_scenario,
    validate_scenario,
)
from hotspot.core.state import MAX_PIECES, MAX_UNITS

SIZES = {"one_hex": 1, "two_hex": 2, "triangular": 3, "long": 3, "platform": 1}
CENTRAL = {col_row(int(c)) for c in CENTRAL_CELLS}  # D2


def _cells(hexes):
    return [cell_of(*h) for h in hexes]


def _forces(data):
    """Counts of everything a side sets up (3.2, 3.3), from a scenario dict."""
    crustals = [p for p in data["pieces"] if p["kind"] != "platform"]
    platforms = [p for p in data["pieces"] if p["kind"] == "platform"]
    units = Counter()
    for u in data["units"]:
        units[u["side"], u["type"]] += 1
        if u["type"] == "infantry":
            units[u["side"], "squads"] += u.get("squads", 1)
    return {
        "crustal_hexes": sum(SIZES[p["kind"]] for p in crustals),
        "platforms": len(platforms),
        "ziegler_squads": units["ziegler", "squads"],
        "hovercraft": units["ziegler", "hovercraft"],
        "technocrat_squads": units["technocrat", "squads"],
        "engineers": units["technocrat", "engineer"],
        "crawlers": units["technocrat", "crawler"],
        "heavy_beamers": units["technocrat", "heavy_beamer"],
    }


STANDARD_FORCES = dict(
    crustal_hexes=18,
    platforms=5,
    ziegler_squads=42,
    hovercraft=6,
    technocrat_squads=12,
    engineers=3,
    crawlers=6,
    heavy_beamers=2,
)


def _check_setup(data):
    """What every turn-1 setup must satisfy (3.2, 3.3, 6.2, 8.2, 9.1, 9.2, D2, D12)."""
    assert data["turn"] == 1 and data["phase"] == "A"
    piece_of = {}
    for p in data["pieces"]:
        for h in p["hexes"]:
            assert tuple(h) not in CENTRAL, f"{p['id']} is on the Central Crustal (D2)"
            assert tuple(h) not in piece_of, f"{p['id']} overlaps {piece_of[tuple(h)]['id']} (6.2)"
            assert ON_MAP[cell_of(*h)], f"{p['id']} is not wholly on the map (3.2)"
            piece_of[tuple(h)] = p
        if p["kind"] == "platform":
            assert PERIMETER[cell_of(*p["hexes"][0])], f"platform {p['id']} is not on the perimeter (3.3)"
            assert p.get("controller", "technocrat") == "technocrat"
    for u in data["units"]:
        h = tuple(u["hex"])
        if u["side"] == "ziegler":  # 3.2: on the Central Crustal and the crustals
            assert h in CENTRAL or piece_of[h]["kind"] != "platform"
        else:  # 3.3: divided among the attack platforms
            assert h in piece_of and piece_of[h]["kind"] == "platform"
    states = scenario_to_state(data, 0)
    assert position_errors(states) == []


# ----------------------------------------------------------------- standard


def test_standard_scenario_has_the_forces_of_3_2_and_3_3():
    """3.2, 3.3, D4, D12: 18 crustal hexes, 42 Ziegler squads, 6 hovercraft; 5
    platforms with 24 Technocrat infantry attack factors (12 squads), 3
    engineers, 6 crawlers and 2 heavy beamers; turn 1, phase A."""
    assert "standard" in builtin_scenarios()
    data = load_scenario("standard")
    assert _forces(data) == STANDARD_FORCES
    squads = sum(u["squads"] for u in data["units"] if u["side"] == "technocrat" and u["type"] == "infantry")
    assert squads * DEFAULT_RULES.attack["technocrat_infantry"] == 24  # D4
    assert (
        sum(u["squads"] for u in data["units"] if u["side"] == "ziegler" and u["type"] == "infantry")
        * DEFAULT_RULES.attack["ziegler_infantry"]
        == 42
    )  # D4
    _check_setup(data)


def test_standard_scenario_starts_without_stress_or_contact():
    """9.3, 14.2: at most six counters a hex, so no stress at the start; 7.1,
    D12: no piece in another's zone of contact, so the first moves are free."""
    data = load_scenario("standard")
    per_hex = Counter(tuple(u["hex"]) for u in data["units"])
    assert max(per_hex.values()) <= DEFAULT_RULES.stress_threshold
    per_platform = Counter(tuple(u["hex"]) for u in data["units"] if u["side"] == "technocrat")
    assert len(per_platform) == 5  # every platform carries something (3.3)
    owner = {c: -1 for c in CENTRAL_CELLS.tolist()}
    for i, p in enumerate(data["pieces"]):
        owner.update({c: i for c in _cells(p["hexes"])})
    for c, i in owner.items():
        for d in range(6):
            other = owner.get(int(NEIGHBOUR[c, d]), i)
            assert other == i, f"pieces {i} and {other} touch at the start (7.1)"


def test_standard_scenario_starts_and_reaches_a_decision():
    """4.0, 6.10: a loaded scenario starts in the Ziegler Crustal Movement
    phase (A) of turn 1 with the Ziegler player to move and legal actions."""
    from hotspot.core.actions import NUM_ACTIONS, current_player, legal_action_mask, start
    from hotspot.core.events import no_events

    states = scenario_to_state(load_scenario("standard"), 42)
    ev, n = no_events()
    start(states[0], ev, n)
    s = states[0]
    assert s["turn"] == 1 and s["phase"] == PHASE_Z_CRUSTAL
    assert current_player(s) == ZIEGLER
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal_action_mask(s, mask)
    assert mask.any()
    assert position_errors(states) == []


# ----------------------------------------------------------------- round trips


@pytest.mark.parametrize("source", ["standard", "random:3", "random:11"])
def test_round_trip_dict_state_dict(source):
    """3.2, 3.3: a scenario is exactly the position it builds: dict -> state ->
    dict gives the normalized dict back, and state -> dict -> state the same
    board, pieces, units and rules."""
    data = load_scenario(source)
    states = scenario_to_state(data, 5)
    back = state_to_scenario(states, data["name"], data["description"])
    assert back == data
    again = scenario_to_state(back, 5)
    for field in (
        "turn",
        "phase",
        "board",
        "piece_kind",
        "piece_cells",
        "piece_damage",
        "piece_controller",
        "piece_neutralized",
        "piece_control_turn",
        "piece_label",
        "unit_type",
        "unit_squads",
        "unit_cell",
        "rules",
        "rng",
    ):
        assert np.array_equal(states[field], again[field]), field


def test_round_trip_keeps_every_piece_and_unit_field():
    """14.1, 15.2-15.4, D7, D4: damage, control, neutralization, control turn,
    squads, rules options, turn and phase all survive the round trip."""
    data = {
        "format": "hotspot-scenario",
        "version": 1,
        "name": "mid-game",
        "turn": 3,
        "phase": "F",
        "rules": {"combat_table": "diagonal", "damage_rating": {"long": 5}, "cia_enabled": False},
        "pieces": [
            {
                "id": "B",
                "kind": "long",
                "hexes": [[3, 4], [3, 5], [3, 6]],
                "damage": 4,
                "controller": "technocrat",
                "neutralized": True,
                "control_turn": 2,
            },
            {"id": "A", "kind": "two_hex", "hexes": [[10, 4], [10, 5]], "damage": 1},
            {"id": "III", "kind": "platform", "hexes": [[0, 0]], "damage": 1},
        ],
        "units": [
            {"side": "technocrat", "type": "engineer", "hex": [3, 5]},
            {"side": "ziegler", "type": "infantry", "squads": 2, "hex": [7, 10]},
            {"side": "technocrat", "type": "infantry", "squads": 1, "hex": [0, 0]},
            {"side": "ziegler", "type": "hovercraft", "hex": [10, 5]},
        ],
    }
    states = scenario_to_state(data, 0)
    s = states[0]
    assert s["turn"] == 3 and s["phase"] == 5
    assert s["rules"]["combat_table"] == 1 and s["rules"]["cia_enabled"] == 0
    back = state_to_scenario(states, "mid-game")
    assert back["pieces"][0] == data["pieces"][0]
    assert back["pieces"][2]["id"] == "3"  # platforms are written as Arabic numbers (2.2.3)
    assert back["rules"] == {"combat_table": "diagonal", "damage_rating": {"long": 5}, "cia_enabled": False}
    assert back == validate_scenario(data)
    assert validate_scenario(back) == back


def test_defaults_fill_optional_keys():
    """2.2.2, 2.2.3: a piece without an id gets the first free letter (crustal)
    or number (platform); other optional keys take their defaults."""
    data = {
        "format": "hotspot-scenario",
        "version": 1,
        "pieces": [
            {"kind": "one_hex", "hexes": [[2, 2]]},
            {"id": "A", "kind": "one_hex", "hexes": [[4, 2]]},
            {"kind": "platform", "hexes": [[0, 10]]},
        ],
        "units": [{"side": "ziegler", "type": "infantry", "hex": [2, 2]}],
    }
    norm = validate_scenario(data)
    assert [p["id"] for p in norm["pieces"]] == ["B", "A", "1"]
    assert norm["pieces"][2]["controller"] == "technocrat"
    assert norm["pieces"][0] == {
        "id": "B",
        "kind": "one_hex",
        "hexes": [[2, 2]],
        "damage": 0,
        "controller": "ziegler",
        "neutralized": False,
        "control_turn": 0,
    }
    assert norm["units"][0]["squads"] == 1
    assert norm["turn"] == 1 and norm["phase"] == "A" and norm["rules"] == {}


def test_save_and_load_file(tmp_path):
    """3.2, 3.3: a scenario saved to a file loads back the same (with or
    without the optional keys at their defaults), a preset one and ones whose
    players deploy (D21: forces and deploy have no default and are kept)."""
    for name in ("standard", "open", "balanced", "balanced-strong"):
        data = load_scenario(name)
        for omit in (False, True):
            path = tmp_path / f"{name}{omit}.json"
            save_scenario(data, path, omit_defaults=omit)
            assert load_scenario(path) == data
            assert load_scenario(str(path)) == data
        assert json.loads(dumps_scenario(data)) == data
        assert load_scenario(json.loads(dumps_scenario(data, omit_defaults=True))) == data


# ----------------------------------------------------------------- random setups (D12)


@pytest.mark.parametrize("seed", range(40))
def test_random_setup_is_legal_with_the_standard_forces(seed):
    """D12, 3.2, 3.3, 6.2, 9.1, 9.2: a random setup has 18 crustal hexes in
    molten on-map hexes, one piece a hex, off the Central Crustal; the full
    forces of both sides within the stacking limits; platforms on distinct
    molten perimeter hexes; and no position errors."""
    data = random_setup(seed)
    assert _forces(data) == STANDARD_FORCES
    _check_setup(data)
    for u in data["units"]:
        if u["type"] == "infantry":
            assert 1 <= u["squads"] <= 3  # 10.0, D4


def test_random_setup_is_deterministic_per_seed():
    """D12: the same seed gives the same setup; different seeds differ."""
    assert random_setup(123) == random_setup(123)
    assert load_scenario("random:123") == random_setup(123)
    assert random_setup(1) != random_setup(2)
    assert load_scenario("random")["name"].startswith("random:")


def test_random_setup_mixes_crustal_types():
    """D12: the 18 hexes may be any mix of the four crustal types; over many
    seeds every type appears."""
    kinds = Counter(p["kind"] for seed in range(20) for p in random_setup(seed)["pieces"])
    assert all(kinds[k] > 0 for k in ("one_hex", "two_hex", "triangular", "long"))


def test_random_setup_counts_and_rules_are_parameters():
    """D12 (balance testing): every force count is a parameter, and the rules
    options (here 9.2's platform stacking limit) are stored and obeyed."""
    counts = dict(
        crustal_hexes=25,
        ziegler_squads=30,
        hovercraft=2,
        platforms=7,
        technocrat_squads=20,
        engineers=5,
        crawlers=3,
        heavy_beamers=1,
    )
    data = random_setup(9, {"stack_platform": 5}, **counts)
    assert _forces(data) == counts
    assert data["rules"] == {"stack_platform": 5}
    per_platform = Counter(tuple(u["hex"]) for u in data["units"] if u["side"] == "technocrat")
    assert max(per_platform.values()) <= 5
    _check_setup(data)
    with pytest.raises(ValueError, match="stacking limit"):
        random_setup(9, {"stack_platform": 2}, technocrat_squads=60)
    with pytest.raises(ValueError, match="seed"):
        random_setup(-1)


# ----------------------------------------------------------------- refusals


def _standard():
    return copy.deepcopy(load_scenario("standard"))


def _set(path, value):
    def mutate(d):
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _del(path):
    def mutate(d):
        target = d
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


def _append(key, entry, times=1):
    def mutate(d):
        d[key].extend(copy.deepcopy(entry) for _ in range(times))

    return mutate


BAD = [
    # (what is wrong (rule), mutation, expected message)
    ("pieces not an array", _set(["pieces"], {}), r"^pieces: must be an array"),
    ("unknown top-level key", _set(["colour"], "red"), r"^scenario: unknown key\(s\) 'colour'"),
    ("missing format", _del(["format"]), r"^scenario: missing required key 'format'"),
    ("wrong format", _set(["format"], "chess"), r"^format: must be 'hotspot-scenario'"),
    ("wrong version", _set(["version"], 3), r"^version: "),
    ("name not a string", _set(["name"], 3), r"^name: must be a string"),
    ("turn 0 (4.0)", _set(["turn"], 0), r"^turn: must be an integer >= 1"),
    ("turn not an int", _set(["turn"], "1"), r"^turn: must be an integer"),
    ("bad phase letter (4.0)", _set(["phase"], "I"), r"^phase: must be one of the letters ABCDEFGH"),
    ("unknown rules option", _set(["rules"], {"gravity": 2}), r"^rules: unknown rules option 'gravity'"),
    ("bad rules value", _set(["rules"], {"stack_platform": 0}), r"^rules: rules option 'stack_platform'"),
    ("rules not an object", _set(["rules"], [1]), r"^rules: must be an object"),
    ("piece not an object", _set(["pieces", 3], "D"), r"^pieces\[3\]: must be an object"),
    ("unknown piece key", _set(["pieces", 3, "facing"], "N"), r'^pieces\[3\] \("D"\): unknown key\(s\) \'facing\''),
    ("missing hexes", _del(["pieces", 3, "hexes"]), r'^pieces\[3\] \("D"\): missing required key \'hexes\''),
    ("unknown kind", _set(["pieces", 3, "kind"], "hexagon"), r'^pieces\[3\] \("D"\): unknown kind \'hexagon\''),
    (
        "hex not a pair",
        _set(["pieces", 5, "hexes"], [[1, 2, 3]]),
        r'^pieces\[5\] \("F"\): hexes\[0\] must be \[col, row\]',
    ),
    (
        "hex of floats",
        _set(["pieces", 5, "hexes"], [[1.0, 2.0]]),
        r'^pieces\[5\] \("F"\): hexes\[0\] must be \[col, row\]',
    ),
    (
        "hex outside the playable area (D1, D3)",
        _set(["pieces", 5, "hexes"], [[30, 2]]),
        r'^pieces\[5\] \("F"\): hexes\[0\] \[30, 2\] is outside the playable area',
    ),
    (
        "wholly off the map (6.9)",
        _set(["pieces", 5, "hexes"], [[-1, 2]]),
        r'^pieces\[5\] \("F"\): a piece must have at least one hex on the map \(6\.9\)',
    ),
    (
        "wrong hex count",
        _set(["pieces", 0, "hexes"], [[7, 3], [7, 4]]),
        r'^pieces\[0\] \("A"\): a long piece has 3 hex',
    ),
    (
        "triangle not mutually adjacent (2.2.2)",
        _set(["pieces", 2, "hexes"], [[3, 6], [4, 7], [5, 7]]),
        r'^pieces\[2\] \("C"\): the three hexes of a triangular crustal must be mutually adjacent',
    ),
    (
        "long not straight (6.6)",
        _set(["pieces", 0, "hexes"], [[7, 3], [7, 4], [8, 4]]),
        r'^pieces\[0\] \("A"\): a long crustal\'s hexes must be in a straight line',
    ),
    (
        "two-hex apart (6.4)",
        _set(["pieces", 1, "hexes"], [[11, 5], [11, 7]]),
        r'^pieces\[1\] \("B"\): the two hexes of a two-hex crustal must be adjacent',
    ),
    (
        "overlap (6.2)",
        _set(["pieces", 5, "hexes"], [[7, 4]]),
        r'^pieces\[5\] \("F"\): hex \[7, 4\] is already taken by pieces\[0\] \("A"\).*\(6\.2\)',
    ),
    (
        "on the Central Crustal (D2, 6.2)",
        _set(["pieces", 5, "hexes"], [[8, 11]]),
        r'^pieces\[5\] \("F"\): hex \[8, 11\] is already taken by the Central Crustal',
    ),
    (
        "damage at the rating (D7, 14.6)",
        _set(["pieces", 0, "damage"], 4),
        r'^pieces\[0\] \("A"\): damage 4 must be at least 0 and below the damage rating 4',
    ),
    ("negative damage", _set(["pieces", 0, "damage"], -1), r'^pieces\[0\] \("A"\): damage -1'),
    ("damage not an int", _set(["pieces", 0, "damage"], True), r'^pieces\[0\] \("A"\): damage must be an integer'),
    (
        "Ziegler platform (2.2.3, 3.3)",
        _set(["pieces", 10, "controller"], "ziegler"),
        r'^pieces\[10\] \("1"\): attack platforms are always the Technocrat\'s',
    ),
    (
        "unknown controller",
        _set(["pieces", 0, "controller"], "nobody"),
        r'^pieces\[0\] \("A"\): controller must be one of',
    ),
    (
        "neutralized Ziegler crustal (15.4)",
        _set(["pieces", 0, "neutralized"], True),
        r'^pieces\[0\] \("A"\): only a Technocrat-controlled crustal can be neutralized',
    ),
    (
        "neutralized not a bool",
        _set(["pieces", 0, "neutralized"], 0),
        r'^pieces\[0\] \("A"\): neutralized must be true or false',
    ),
    (
        "control turn in the future (15.4)",
        _set(["pieces", 0, "control_turn"], 2),
        r'^pieces\[0\] \("A"\): control_turn must be',
    ),
    (
        "crustal id not letters (2.2.2)",
        _set(["pieces", 0, "id"], "a1"),
        r'^pieces\[0\] \("a1"\): a crustal\'s id is one or two capital letters',
    ),
    (
        "platform id not a number (2.2.3)",
        _set(["pieces", 10, "id"], "P"),
        r'^pieces\[10\] \("P"\): an attack platform\'s id is a number',
    ),
    ("id not a string", _set(["pieces", 0, "id"], 1), r"^pieces\[0\]: id must be a string"),
    (
        "duplicate id (2.2.2)",
        _set(["pieces", 1, "id"], "A"),
        r'^pieces\[1\] \("A"\): id \'A\' is also the id of pieces\[0\] \("A"\)',
    ),
    (
        "duplicate platform id, Roman (2.2.3)",
        _set(["pieces", 11, "id"], "I"),
        r'^pieces\[11\] \("I"\): id \'I\' is also the id of pieces\[10\]',
    ),
    (
        "platform after its time limit (14.5)",
        lambda d: d.update(turn=5),
        r'^pieces\[10\] \("1"\): attack platforms break up',
    ),
    (
        "too many pieces",
        lambda d: d.update(
            pieces=[{"kind": "one_hex", "hexes": [[c, r]]} for c in (0, 2, 4) for r in range(11)], units=[]
        ),
        r"^pieces: 33 pieces, at most 31",
    ),
    (
        "too many units",
        _append("units", {"side": "ziegler", "type": "hovercraft", "hex": [7, 10]}, 62),
        r"^units: 97 units, at most 96",
    ),
    ("unit not an object", _set(["units", 4], 7), r"^units\[4\]: must be an object"),
    ("unknown unit key", _set(["units", 4, "name"], "Bob"), r"^units\[4\]: unknown key\(s\) 'name'"),
    ("missing unit hex", _del(["units", 4, "hex"]), r"^units\[4\]: missing required key 'hex'"),
    ("unknown side", _set(["units", 4, "side"], "martian"), r"^units\[4\]: side must be one of"),
    ("unknown unit type", _set(["units", 4, "type"], "tank"), r"^units\[4\]: unknown ziegler unit type 'tank'"),
    (
        "unit of the other side",
        _set(["units", 4, "type"], "crawler"),
        r"^units\[4\]: unknown ziegler unit type 'crawler'",
    ),
    (
        "four squads (10.0, D4)",
        _set(["units", 4, "squads"], 4),
        r"^units\[4\]: an infantry counter holds 1, 2 or 3 squads",
    ),
    (
        "zero squads (10.0, D4)",
        _set(["units", 4, "squads"], 0),
        r"^units\[4\]: an infantry counter holds 1, 2 or 3 squads",
    ),
    ("squads on a hovercraft", _set(["units", 2, "squads"], 2), r"^units\[2\]: a hovercraft counter has no squads"),
    ("squads not an int", _set(["units", 4, "squads"], "3"), r"^units\[4\]: squads must be an integer"),
    (
        "unit on molten rock (8.2)",
        _set(["units", 12, "hex"], [4, 5]),
        r"^units\[12\]: hex \[4, 5\] is molten.*\(8\.2\)",
    ),
    ("unit off the map (D3)", _set(["units", 12, "hex"], [-2, 5]), r"^units\[12\]: hex \[-2, 5\] is off the map"),
    (
        "unit outside the playable area",
        _set(["units", 12, "hex"], [99, 5]),
        r"^units\[12\]: hex \[99, 5\] is outside the playable area",
    ),
    (
        "crustal overstacked (9.1)",
        _append("units", {"side": "ziegler", "type": "hovercraft", "hex": [7, 10]}, 7),
        r"^units\[41\]: hex \[7, 10\] is over the stacking limit .*\(9\.1, 9\.4\)",
    ),
    (
        "platform overstacked (9.2)",
        _append("units", {"side": "technocrat", "type": "crawler", "hex": [14, 18]}, 9),
        r"^units\[43\]: hex \[14, 18\] is over the stacking limit .*\(9\.2\)",
    ),
    (
        "both sides in a hex (8.3, 12.1)",
        _append("units", {"side": "technocrat", "type": "crawler", "hex": [7, 10]}),
        r"^units\[35\]: hex \[7, 10\] already holds ziegler units",
    ),
]


@pytest.mark.parametrize("what,mutate,message", BAD, ids=[b[0] for b in BAD])
def test_bad_scenario_is_refused_naming_the_entry(what, mutate, message):
    """3.2, 3.3, 6.2, 8.2, 9.1, 9.2, 10.0, 14.6, D2-D4, D7: every malformed or
    illegal scenario is refused with a ScenarioError (a ValueError) whose
    message starts with the offending entry."""
    data = _standard()
    mutate(data)
    with pytest.raises(ScenarioError, match=message):
        scenario_to_state(data, 0)
    with pytest.raises(ValueError, match=message):
        validate_scenario(data)


def test_scenario_must_be_an_object():
    """A scenario is a JSON object (the format of this module)."""
    with pytest.raises(ScenarioError, match=r"^scenario: must be an object, got array"):
        validate_scenario([])


def test_rules_change_the_limits_checked():
    """9.1, D7: the checks use the scenario's own rules options (a lower
    stacking limit refuses a stack the default allows; a higher damage
    rating admits more damage)."""
    data = _standard()
    data["rules"] = {"stack_side_crustal": 2}
    with pytest.raises(ScenarioError, match=r"^units\[2\]: hex \[7, 10\] is over the stacking limit"):
        validate_scenario(data)
    data["rules"] = {"damage_rating": {"long": 6}}
    data["pieces"][0]["damage"] = 5
    assert validate_scenario(data)["pieces"][0]["damage"] == 5


def test_refused_scenario_leaves_nothing_half_built():
    """6.2, 9.1: a scenario whose very last entry is illegal raises before any
    state is returned, and the caller's dict is left untouched."""
    data = _standard()
    data["units"].append({"side": "ziegler", "type": "infantry", "hex": [0, 0]})  # molten (8.2)
    before = copy.deepcopy(data)
    result = None
    with pytest.raises(ScenarioError, match=r"^units\[35\]"):
        result = scenario_to_state(data, 0)
    assert result is None
    assert data == before
    with pytest.raises(ScenarioError):
        save_scenario(data, "/nonexistent-dir/never-written.json")


def test_load_refuses_unknown_names_and_bad_files(tmp_path):
    """3.2, 3.3: loading names the scenario or file that cannot be used."""
    with pytest.raises(ScenarioError, match="no such built-in scenario"):
        load_scenario("no-such-scenario")
    with pytest.raises(ScenarioError, match="random:"):
        load_scenario("random:abc")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ScenarioError, match="not valid JSON"):
        load_scenario(bad)
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(tmp_path / "missing.json")
    with pytest.raises(ScenarioError, match="seed"):
        scenario_to_state(load_scenario("standard"), -3)


def test_state_to_scenario_refuses_a_finished_game():
    """5.0, D19: a finished game is no position to set up."""
    states = scenario_to_state(load_scenario("standard"), 0)
    states[0]["phase"] = 8
    with pytest.raises(ScenarioError, match="game is over"):
        state_to_scenario(states)


def test_limits_match_the_state_layout():
    """The state holds MAX_PIECES - 1 movable pieces (index 0 is the Central
    Crustal, D2) and MAX_UNITS units; a scenario at exactly those limits loads."""
    pieces = [{"kind": "one_hex", "hexes": [[c, r]]} for c in (0, 2) for r in range(0, 21, 2)]
    pieces += [{"kind": "one_hex", "hexes": [[4, r]]} for r in range(0, 18, 2)]
    assert len(pieces) == MAX_PIECES - 1
    units = [{"side": "ziegler", "type": "hovercraft", "hex": h["hexes"][0]} for h in pieces for _ in range(3)]
    units += [{"side": "ziegler", "type": "hovercraft", "hex": [7, 10]}] * (MAX_UNITS - len(units))
    data = {"format": "hotspot-scenario", "version": 1, "pieces": pieces, "units": units}
    states = scenario_to_state(data, 0)
    assert (states[0]["unit_type"] != 0).sum() == MAX_UNITS


def test_version_1_file_with_turn_limit_still_loads(tmp_path):
    """D19 revised: turn_limit is no longer a rules option (the rulebook has no
    turn limit, 5.0), but a version-1 scenario file written before that, with
    ``"rules": {"turn_limit": 20}``, still loads: the option is dropped with a
    DeprecationWarning naming max_turns, the other options are kept, and the
    game has no turn limit of its own (max_turns 0: only a harness sets one)."""
    data = _standard()
    data["rules"] = {"turn_limit": 20, "cia_enabled": False}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    with pytest.warns(DeprecationWarning, match="turn_limit.*max_turns"):
        states = scenario_to_state(load_scenario(str(path)), 0)
    s = states[0]
    assert s["rules"]["cia_enabled"] == 0 and int(s["max_turns"]) == 0
    assert "turn_limit" not in s["rules"].dtype.names


@pytest.mark.parametrize(
    "where, sign",
    [("turn", 1), ("pieces[0].id", 1), ("rules.platform_turns", 1), ("units[0].squads", -1), ("units[0].hex", 1)],
)
def test_integers_too_long_to_print_are_scenario_errors(where, sign):
    """A scenario dict holding an int of over 4300 digits (which Python cannot
    print) is refused with a ScenarioError naming the entry, not a ValueError
    from building the message (found by the fuzzer, fuzz/)."""
    data = copy.deepcopy(load_scenario("standard"))
    target = data
    *path, last = where.split(".")
    for key in path:
        name, _, index = key.partition("[")
        target = target[name][int(index[:-1])] if index else target.setdefault(name, {})
    target[last] = sign * 10**5000 if last != "hex" else [7, sign * 10**5000]
    with pytest.raises(ScenarioError, match=where.split(".")[0].split("[")[0]):
        validate_scenario(data)


def test_scenario_schema_through_its_module():
    """The scenario format's pieces (its labels, hexes, units and rules overrides) as ``schema`` declares them."""
    from hotspot.core.rules_data import PLATFORM, TWO_HEX, Z_INFANTRY, RulesOptions
    from hotspot.core.scenario.schema import (
        FORMAT,
        ScenarioError,
        check_seed,
        format_label,
        hex_cell,
        hex_json,
        parse_label,
        rules_overrides,
        unit_json,
    )

    assert FORMAT == "hotspot-scenario"
    assert check_seed(7) == 7
    with pytest.raises(ScenarioError, match="seed"):
        check_seed(-1)
    assert hex_json(hex_cell("units[0]", "hex", [7, 10])) == [7, 10]
    assert parse_label("p", TWO_HEX, "AB") == 28 and format_label(TWO_HEX, 28) == "AB"
    assert parse_label("p", PLATFORM, "IV") == 4 and format_label(PLATFORM, 4) == "4"
    assert rules_overrides(RulesOptions()) == {}
    assert unit_json(Z_INFANTRY, 2, hex_cell("u", "hex", [7, 10])) == {
        "side": "ziegler",
        "type": "infantry",
        "squads": 2,
        "hex": [7, 10],
    }


def test_scenario_positions_through_their_module():
    """A scenario becomes a state and back, and a batch of start states, through ``positions``."""
    from hotspot.core.scenario.files import load_scenario
    from hotspot.core.scenario.positions import scenario_to_state, start_states, state_to_scenario, validate_scenario

    data = load_scenario("standard")
    assert validate_scenario(data) == data
    states = scenario_to_state(data, seed=3)
    assert states.shape == (1,)
    assert state_to_scenario(states, name=data["name"], description=data["description"]) == data
    games = start_states(states, [1, 2], max_turns=5)
    assert games.shape == (2,) and np.all(games["max_turns"] == 5)


def test_scenario_files_through_their_module(tmp_path):
    """Built-in names, ``random:N``, saving, loading and rules overrides through ``files``."""
    from hotspot.core.scenario.files import (
        builtin_scenarios,
        dumps_scenario,
        load_scenario,
        random_name_seed,
        save_scenario,
        with_rules,
    )

    assert "standard" in builtin_scenarios()
    assert random_name_seed("random:12") == 12
    path = tmp_path / "s.json"
    save_scenario(load_scenario("standard"), path, omit_defaults=True)
    assert load_scenario(path) == load_scenario("standard")
    assert dumps_scenario(load_scenario("open")).startswith("{\n")
    assert with_rules("standard", {"combat_table": "diagonal"})["rules"]["combat_table"] == "diagonal"


def test_random_setup_through_its_module():
    """``random:N`` is the generator's set-up N, the same every time."""
    from hotspot.core.scenario.files import load_scenario
    from hotspot.core.scenario.generator import random_setup

    assert random_setup(5) == random_setup(5) == load_scenario("random:5")
