"""Scenarios: whole positions as JSON, the standard setup and random setups
(3.2, 3.3, D12).

A scenario is a plain dict (and a JSON file) describing one position::

    {"format": "hotspot-scenario", "version": 1,
     "name": "standard", "description": "...",
     "turn": 1, "phase": "A",                 # 4.0: phase letter A..H
     "rules": {"turn_limit": 20},             # RulesOptions overrides only
     "pieces": [{"id": "A", "kind": "two_hex", "hexes": [[3, 4], [3, 5]],
                 "damage": 0, "controller": "ziegler",
                 "neutralized": false, "control_turn": 0}, ...],
     "units": [{"side": "ziegler", "type": "infantry", "squads": 3,
                "hex": [7, 10]}, ...]}

Coordinates are ``[col, row]`` of D1 (0-based; the Central Crustal is the
hex ``[7, 10]`` and its six neighbours, D2, and is never listed).  ``hexes``
are in slot order: two-hex and long crustals list their FRONT hex first
(2.2.2; a long crustal is front, centre, rear).  ``id`` is the identification
on the counter: letters for crustals (2.2.2: "A", "B", ... "Z", "AA" ...),
a number for attack platforms (2.2.3: "1", "2", ...; Roman numerals "I",
"II", ... are read too).  Optional keys and their defaults:

* top level: ``name`` "", ``description`` "", ``turn`` 1, ``phase`` "A",
  ``rules`` {}, ``pieces`` [], ``units`` [] (``format`` and ``version`` are
  required);
* pieces: ``id`` (the first free letter / number), ``damage`` 0,
  ``controller`` ("technocrat" for platforms, else "ziegler"),
  ``neutralized`` false, ``control_turn`` 0 (15.4: the turn the Technocrat
  took control);
* units: ``squads`` 1 (infantry only, 1..3 squads a counter, 10.0, D4).

A scenario carries a position, not a phase in progress: no selections, no
movement allowances, no attack records.  So a hex may not hold units of both
sides (8.3, 12.1: such a hex is a combat whose attackers a scenario cannot
name).  Every other check is the core's own (``placement.place_piece``,
``place_unit``, ``position_errors``, ``stacking``): the scenario code only
checks the JSON types and re-raises their errors as :class:`ScenarioError`
naming the offending entry, e.g. ``pieces[3] ("C"): ...`` or ``units[12]: ...``.

The package, one module a job (each public name is importable from
``hotspot.core.scenario`` as before, and from its module):

* :mod:`.schema`: the format (``FORMAT``, ``VERSION``, the keys, ``DEPLOY_PARTS``),
  :class:`ScenarioError`, :func:`check_seed` and the checks and conversions of
  JSON values;
* :mod:`.positions`: scenario <-> state: :func:`validate_scenario`,
  :func:`scenario_to_state`, :func:`start_states`, :func:`state_to_scenario`;
* :mod:`.files`: :func:`load_scenario` (built-in names, files, ``"random"`` /
  ``"random:SEED"``), :func:`builtin_scenarios`, :func:`random_name_seed`,
  :func:`with_rules`, :func:`dumps_scenario`, :func:`save_scenario`;
* :mod:`.generator`: :func:`random_setup` (D12).
"""

from .files import builtin_scenarios, dumps_scenario, load_scenario, random_name_seed, save_scenario, with_rules
from .generator import random_setup
from .positions import scenario_to_state, start_states, state_to_scenario, validate_scenario
from .schema import (
    DEPLOY_PARTS,
    FORMAT,
    MAX_LABEL,
    PIECE_KEYS,
    READABLE_VERSIONS,
    SCENARIO_KINDS,
    TOP_KEYS,
    UNIT_KEYS,
    VERSION,
    ScenarioError,
    check_seed,
)

__all__ = [
    "DEPLOY_PARTS",
    "FORMAT",
    "MAX_LABEL",
    "PIECE_KEYS",
    "READABLE_VERSIONS",
    "SCENARIO_KINDS",
    "TOP_KEYS",
    "UNIT_KEYS",
    "VERSION",
    "ScenarioError",
    "builtin_scenarios",
    "check_seed",
    "dumps_scenario",
    "load_scenario",
    "random_name_seed",
    "random_setup",
    "save_scenario",
    "scenario_to_state",
    "start_states",
    "state_to_scenario",
    "validate_scenario",
    "with_rules",
]
