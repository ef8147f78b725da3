"""The layout by job: each moved function is reached through
its new module, and its old import path still gives the very same object.

What this file checks:

* ``hotspot.core.scenario`` is a package of one module a job (``schema``,
  ``positions``, ``files``, ``generator``); every public name of the old
  module is still importable from ``hotspot.core.scenario`` and is the object
  its new module defines; each moved function works called through its new
  module.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

# every public name of the old hotspot/core/scenario.py -> the module that now defines it
SCENARIO_NAMES = {
    "schema": (
        "FORMAT",
        "VERSION",
        "READABLE_VERSIONS",
        "TOP_KEYS",
        "DEPLOY_PARTS",
        "PIECE_KEYS",
        "UNIT_KEYS",
        "SCENARIO_KINDS",
        "MAX_LABEL",
        "ScenarioError",
        "check_seed",
    ),
    "positions": ("validate_scenario", "scenario_to_state", "start_states", "state_to_scenario"),
    "files": (
        "builtin_scenarios",
        "random_name_seed",
        "load_scenario",
        "with_rules",
        "dumps_scenario",
        "save_scenario",
    ),
    "generator": ("random_setup",),
}


@pytest.mark.parametrize("module", sorted(SCENARIO_NAMES))
def test_scenario_names_keep_their_old_path(module):
    old = importlib.import_module("hotspot.core.scenario")
    new = importlib.import_module(f"hotspot.core.scenario.{module}")
    for name in SCENARIO_NAMES[module]:
        assert getattr(old, name) is getattr(new, name), name
        assert name in old.__all__, name


def test_scenario_schema_through_its_module():
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
    from hotspot.core.scenario.files import load_scenario
    from hotspot.core.scenario.generator import random_setup

    assert random_setup(5) == random_setup(5) == load_scenario("random:5")


# ------------------------------------------------------------ human.clicks (apart from human.web)
CLICK_NAMES = ("action_targets", "click_map", "counter_click", "refusal", "unit_refusal")


def test_click_names_keep_their_old_path():
    import hotspot.human.clicks as clicks
    import hotspot.human.web as web

    for name in CLICK_NAMES:
        assert getattr(web, name) is getattr(clicks, name), name


def test_clicks_map_a_game_without_http():
    from hotspot.core.game import Game
    from hotspot.core.hexgrid import MAP_COLS, MAP_ROWS
    from hotspot.core.rules_data import NO_UNIT
    from hotspot.human.clicks import action_targets, click_map, counter_click, refusal, unit_refusal

    game = Game(scenario="standard", seed=1)
    legal = [int(a) for a in game.legal_actions()]
    hexes, units = click_map(game, legal)
    assert hexes and sorted({a for acts in hexes.values() for a in acts}) == sorted(
        a for a in legal if action_targets(game, a)[0]
    )
    for unit, acts in units.items():
        assert counter_click(game, hexes, units, unit) == acts
    # a hex no legal action touches is refused with a reason, not an exception
    free = next((c, r) for c in range(MAP_COLS) for r in range(MAP_ROWS) if f"{c},{r}" not in hexes)
    assert isinstance(refusal(game, free), str) and refusal(game, free)
    enemy = next(
        u for u in range(len(game.s["unit_type"])) if int(game.s["unit_type"][u]) != NO_UNIT and u not in units
    )
    assert isinstance(unit_refusal(game, enemy), str) and unit_refusal(game, enemy)
