"""Rules options (D22): every disputed reading of the rulebook is a rules
option (``rules_data.RulesOptions``); an unknown option or a value out of
range is refused with a message naming the option and its valid values,
whether it comes from Python (``RulesOptions.from_dict``) or from a
scenario's ``"rules"`` object.  The semantics of each option are tested in
the rule's own file (test_rules_combat.py, test_rules_stacking.py,
test_rules_crustal_movement.py, test_rules_collisions.py,
test_rules_breakdowns.py, test_rules_control.py).
"""

import re

import pytest

from hotspot.core.rules_data import CHOICE_OPTIONS, DEFAULT_RULES, RulesOptions
from hotspot.core.scenario import VERSION, ScenarioError, scenario_to_state, validate_scenario

# D22: the disputed readings and their values, the default first
D22_CHOICES = {
    "combat_table": ("d13", "diagonal"),
    "stress_timing": ("every_phase", "moving_side"),
    "forward_into_blocked": ("collide", "refuse"),
    "collision_count": ("per_pair", "per_hex"),
    "losses": ("automatic", "owner"),
    "control_blocker": ("crustal", "hex"),
}
# R9.5b: a restricted-play probe of D20 (not a reading): the other choice option
PROBE_CHOICES = {"sees_through_fog": ("neither", "technocrat", "ziegler", "both")}


def _scenario(rules):
    return {"format": "hotspot-scenario", "version": VERSION, "rules": rules}


def test_d22_options_and_defaults():
    """D22: each disputed reading is an option whose default is the reading
    DECISIONS.md names; counter_cap 0 = unlimited (D4)."""
    assert CHOICE_OPTIONS == {**D22_CHOICES, **PROBE_CHOICES}
    for name, values in D22_CHOICES.items():
        assert getattr(DEFAULT_RULES, name) == values[0]
        assert RulesOptions.describe()[name] == list(values)
    assert DEFAULT_RULES.counter_cap == 0
    assert DEFAULT_RULES.two_hex_turn_after_collision is True  # D10: rule 7.3


@pytest.mark.parametrize("name", sorted(D22_CHOICES))
def test_every_value_round_trips_through_the_state_record(name):
    """D22: each value is stored in the state's rules record as its index
    (0 = the default) and read back."""
    for i, value in enumerate(D22_CHOICES[name]):
        rec = RulesOptions.from_dict({name: value}).to_record()
        assert int(rec[name]) == i
        assert getattr(RulesOptions.from_record(rec), name) == value
    rec = RulesOptions(counter_cap=4).to_record()
    assert int(rec["counter_cap"]) == 4 and RulesOptions.from_record(rec).counter_cap == 4


@pytest.mark.parametrize("name", sorted(D22_CHOICES))
def test_bad_choice_value_refused_listing_valid_values(name):
    """D22: a value that is not one of the option's readings is refused with
    a message listing the valid values, from Python and from a scenario."""
    valid = re.escape(str(list(D22_CHOICES[name])))
    message = rf"rules option '{name}' must be one of {valid}, got 'sideways'"
    with pytest.raises(ValueError, match=message):
        RulesOptions.from_dict({name: "sideways"})
    with pytest.raises(ScenarioError, match=rf"^rules: {message}"):
        validate_scenario(_scenario({name: "sideways"}))
    with pytest.raises(ScenarioError, match=rf"^rules: {message}"):
        scenario_to_state(_scenario({name: "sideways"}), 0)


@pytest.mark.parametrize("value", [-1, 100, "4", 2.5, True])
def test_bad_counter_cap_refused(value):
    """D22, D4: counter_cap is an integer in [0, 99] (0 = unlimited)."""
    message = re.escape("rules option 'counter_cap' must be an integer in [0, 99]")
    with pytest.raises(ValueError, match=message):
        RulesOptions.from_dict({"counter_cap": value})
    with pytest.raises(ScenarioError, match="^rules: " + message):
        validate_scenario(_scenario({"counter_cap": value}))


def test_unknown_option_refused_listing_known_options():
    """D22: an unknown option name is refused, naming it and every known
    option (from Python and from a scenario)."""
    known = re.escape(str(sorted(RulesOptions.describe())))
    message = rf"unknown rules option 'combat_tables'; known options: {known}"
    with pytest.raises(ValueError, match=message):
        RulesOptions.from_dict({"combat_tables": "diagonal"})
    with pytest.raises(ScenarioError, match=rf"^rules: {message}"):
        validate_scenario(_scenario({"combat_tables": "diagonal"}))


def test_scenario_rules_set_the_state_record():
    """D22: a scenario's "rules" object sets the options the compiled core
    reads (the index of each value, 0 = default)."""
    rules = {
        "combat_table": "diagonal",
        "stress_timing": "moving_side",
        "forward_into_blocked": "refuse",
        "collision_count": "per_hex",
        "counter_cap": 5,
        "control_blocker": "hex",
    }
    s = scenario_to_state(_scenario(rules), 0)[0]
    for name, value in rules.items():
        expected = value if name == "counter_cap" else D22_CHOICES[name].index(value)
        assert int(s["rules"][name]) == expected
    assert validate_scenario(_scenario(rules))["rules"] == rules
