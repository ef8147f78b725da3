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
``place_unit``, ``position_errors``, ``stacking``): this module only checks
the JSON types and re-raises their errors as :class:`ScenarioError` naming
the offending entry, e.g. ``pieces[3] ("C"): ...`` or ``units[12]: ...``.

Functions: :func:`validate_scenario`, :func:`scenario_to_state`,
:func:`state_to_scenario`, :func:`load_scenario` (built-in names, files,
``"random"`` / ``"random:SEED"``), :func:`save_scenario`, :func:`dumps_scenario`
and :func:`random_setup` (D12).
"""
from __future__ import annotations

import json
import os
import re
import secrets
import sys
import warnings
from importlib import resources

import numpy as np

from .jsonfile import JSONInputError, loads
from .actions import start
from .dice import seed_state
from .errors import short_repr
from .events import no_events
from .hexgrid import CENTRAL_CELLS, NEIGHBOUR, NUM_CELLS, ON_MAP, PERIMETER, cell_of, col_row
from .limits import check_max_turns
from .placement import blank_state, place_piece, place_unit, position_errors, shape_error
from .rules_data import (DEFAULT_RULES, LONG, NO_PIECE, NO_UNIT, ONE_HEX, PHASE_LETTERS, PHASE_OVER,
                         POOL_KEYS, POOL_NAMES, POOL_SIDE, POOL_T_CRAWLERS, POOL_T_ENGINEERS,
                         POOL_T_HEAVY_BEAMERS, POOL_T_PLATFORMS, POOL_T_SQUADS, POOL_Z_CRUSTAL_HEXES,
                         POOL_Z_HOVERCRAFT, POOL_Z_SQUADS, RULEBOOK_FORCES, PIECE_NAMES, PIECE_SIZE, PLATFORM, SIDE_NAMES, T_CRAWLER,
                         T_ENGINEER, T_HEAVY_BEAMER, T_INFANTRY, TRIANGULAR, TWO_HEX,
                         UNIT_IS_INFANTRY, UNIT_NAMES, UNIT_SIDE, Z_HOVERCRAFT, Z_INFANTRY,
                         RulesOptions, unit_type)
from .setup import pools_fit, setup_phase_for
from .stacking import side_limit, stacking_ok, total_limit
from .state import LAST_TURN, MAX_PIECES, MAX_UNITS
from .units import count_units

FORMAT = "hotspot-scenario"
VERSION = 2
READABLE_VERSIONS = (1, 2)  # version 1: no set-up by the players (D21), every file still loads

TOP_KEYS = ("format", "version", "name", "description", "turn", "phase", "rules", "forces", "deploy",
            "pieces", "units")
# D21: the parts of the deployment a scenario may leave to the players, and their pools
DEPLOY_PARTS = {
    "ziegler_crustals": (POOL_Z_CRUSTAL_HEXES,),
    "ziegler_units": (POOL_Z_SQUADS, POOL_Z_HOVERCRAFT),
    "technocrat_platforms": (POOL_T_PLATFORMS,),
    "technocrat_units": (POOL_T_SQUADS, POOL_T_ENGINEERS, POOL_T_CRAWLERS, POOL_T_HEAVY_BEAMERS),
}
PIECE_KEYS = ("id", "kind", "hexes", "damage", "controller", "neutralized", "control_turn")
UNIT_KEYS = ("side", "type", "squads", "hex")
# the kinds a scenario may list (the Central Crustal is always there, D2)
SCENARIO_KINDS = ("one_hex", "two_hex", "triangular", "long", "platform")
MAX_LABEL = 127  # piece_label is an int8

_PLAYABLE_PHASES = PHASE_LETTERS[:PHASE_OVER]  # "A".."H"


class ScenarioError(ValueError):
    """A malformed or illegal scenario; the message names the offending entry."""


# --------------------------------------------------------------- helpers


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _int_digits_limit() -> int:
    """The most digits Python turns an int into text (and JSON) with; 0: no limit."""
    get = getattr(sys, "get_int_max_str_digits", None)
    return get() if get is not None else 0


def check_seed(seed, what: str = "seed") -> int:
    """A dice seed: a non-negative integer that a game record can save (JSON
    writes integers of at most ``sys.get_int_max_str_digits()`` digits, 4300
    by default).  Raises :class:`ScenarioError` naming ``what``."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ScenarioError(f"{what}: must be a non-negative integer, got {short_repr(seed)}")
    limit = _int_digits_limit()
    if limit and seed >= 10 ** limit:
        raise ScenarioError(f"{what}: an integer of more than {limit} digits (a game record could not save it)")
    return int(seed)


def _type_name(value) -> str:
    return {dict: "object", list: "array", tuple: "array", str: "string", bool: "boolean",
            type(None): "null", float: "number", int: "integer"}.get(type(value), type(value).__name__)


def _check_keys(where: str, entry: dict, allowed: tuple, required: tuple) -> None:
    unknown = [k for k in entry if k not in allowed]
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {', '.join(repr(k) for k in unknown)}; "
                            f"known keys: {list(allowed)}")
    for key in required:
        if key not in entry:
            raise ScenarioError(f"{where}: missing required key {short_repr(key)}")


def _hex_cell(where: str, what: str, value) -> int:
    """The cell of a JSON ``[col, row]``; refuses bad types and hexes outside the playable area (D3)."""
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(_is_int(v) for v in value)):
        raise ScenarioError(f"{where}: {what} must be [col, row] (two integers), got {short_repr(value)}")
    col, row = int(value[0]), int(value[1])
    try:
        return cell_of(col, row)
    except ValueError:
        raise ScenarioError(f"{where}: {what} [{short_repr(col)}, {short_repr(row)}] is outside the playable area "
                            f"(the map, D1, and the margin pieces may drift into, D3)") from None


def _hex_json(cell: int) -> list:
    col, row = col_row(int(cell))
    return [col, row]


# Identification labels (2.2.2, 2.2.3) are stored in ``piece_label`` (int8):
# crustal letters count A=1 .. Z=26, AA=27 ... ; platform numbers are themselves.
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def _letters(n: int) -> str:
    out = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        out = chr(ord("A") + r) + out
    return out


def _roman(text: str) -> int | None:
    if not re.fullmatch(r"[IVXLC]+", text):
        return None
    total = 0
    for i, ch in enumerate(text):
        v = _ROMAN[ch]
        total += -v if i + 1 < len(text) and _ROMAN[text[i + 1]] > v else v
    # accept canonical numerals only (IV, not IIII or VX)
    return total if _to_roman(total) == text else None


def _to_roman(n: int) -> str:
    out = ""
    for value, sym in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"),
                       (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += sym
            n -= value
    return out


def _parse_label(where: str, kind: int, ident) -> int:
    """The label number of a piece id: letters for crustals (2.2.2), a number for platforms (2.2.3)."""
    if not isinstance(ident, str):
        raise ScenarioError(f"{where}: id must be a string, got {_type_name(ident)} {short_repr(ident)}")
    if kind == PLATFORM:
        if re.fullmatch(r"[0-9]{1,3}", ident):
            n = int(ident)
        else:
            n = _roman(ident)
            if n is None:
                raise ScenarioError(f"{where}: an attack platform's id is a number, \"1\" or \"I\" "
                                    f"(2.2.3), got {short_repr(ident)}")
    else:
        if not re.fullmatch(r"[A-Z]{1,2}", ident):
            raise ScenarioError(f"{where}: a crustal's id is one or two capital letters (2.2.2), "
                                f"got {short_repr(ident)}")
        n = 0
        for ch in ident:
            n = n * 26 + (ord(ch) - ord("A") + 1)
    if not 1 <= n <= MAX_LABEL:
        raise ScenarioError(f"{where}: id {short_repr(ident)} is out of range (label 1..{MAX_LABEL})")
    return n


def _format_label(kind: int, label: int) -> str:
    """Inverse of :func:`_parse_label` (platforms are written as Arabic numbers)."""
    if kind != PLATFORM and label >= 1:
        return _letters(label)
    return str(label)


def _rules_overrides(rules: RulesOptions) -> dict:
    """The options of ``rules`` that differ from the defaults (D1-D19), as a JSON-able dict."""
    default = DEFAULT_RULES.to_dict()
    out = {}
    for key, value in rules.to_dict().items():
        if isinstance(value, dict):
            diff = {k: int(v) for k, v in value.items() if default[key][k] != v}
            if diff:
                out[key] = diff
        elif value != default[key]:
            out[key] = (value if isinstance(value, str) else
                        bool(value) if isinstance(default[key], bool) else int(value))
    return out


def _coerce_rules(rules) -> RulesOptions:
    if rules is None:
        return DEFAULT_RULES
    if isinstance(rules, RulesOptions):
        return rules
    if isinstance(rules, dict):
        return RulesOptions.from_dict(rules)
    raise TypeError(f"rules must be a RulesOptions, a dict or None, got {type(rules).__name__}")


# ------------------------------------------------------------ dict -> state


def _build(data) -> tuple[np.ndarray, dict]:
    """Check ``data`` and build its position: (batch of one state, normalized scenario dict).

    Raises :class:`ScenarioError` naming the first offending entry.  Nothing
    is returned unless the whole scenario is legal.
    """
    if not isinstance(data, dict):
        raise ScenarioError(f"scenario: must be an object, got {_type_name(data)}")
    _check_keys("scenario", data, TOP_KEYS, ("format", "version"))
    if data["format"] != FORMAT:
        raise ScenarioError(f"format: must be {FORMAT!r}, got {short_repr(data['format'])}")
    if not _is_int(data["version"]) or data["version"] not in READABLE_VERSIONS:
        raise ScenarioError(f"version: this library reads versions {list(READABLE_VERSIONS)}, "
                            f"got {short_repr(data['version'])}")
    if data["version"] == 1:
        for key in ("forces", "deploy"):
            if key in data:
                raise ScenarioError(f"{key}: set-up by the players (D21) needs scenario version 2")
    name = data.get("name", "")
    description = data.get("description", "")
    for key, value in (("name", name), ("description", description)):
        if not isinstance(value, str):
            raise ScenarioError(f"{key}: must be a string, got {_type_name(value)}")

    # rules first: the stacking limits and damage ratings below are the scenario's own
    rules_in = data.get("rules", {})
    if not isinstance(rules_in, dict):
        raise ScenarioError(f"rules: must be an object of rules options, got {_type_name(rules_in)}")
    if "turn_limit" in rules_in:  # version-1 files written before D19 was revised
        warnings.warn("scenario rules: option 'turn_limit' is ignored: the rulebook has no turn "
                      "limit (5.0, D19 revised); pass max_turns to a harness instead",
                      DeprecationWarning, stacklevel=3)
        rules_in = {k: v for k, v in rules_in.items() if k != "turn_limit"}
    try:
        rules = RulesOptions.from_dict(rules_in)
    except (ValueError, TypeError) as exc:
        raise ScenarioError(f"rules: {exc}") from None

    turn = data.get("turn", 1)
    if not _is_int(turn) or not 1 <= turn <= LAST_TURN:
        raise ScenarioError(f"turn: must be an integer >= 1 (4.0) and <= {LAST_TURN} (the state's turn counter), "
                            f"got {short_repr(turn)}")
    phase_letter = data.get("phase", "A")
    if not isinstance(phase_letter, str) or phase_letter not in _PLAYABLE_PHASES:
        raise ScenarioError(f"phase: must be one of the letters {''.join(_PLAYABLE_PHASES)} (4.0), "
                            f"got {short_repr(phase_letter)}")

    pieces_in = data.get("pieces", [])
    units_in = data.get("units", [])
    for key, value in (("pieces", pieces_in), ("units", units_in)):
        if not isinstance(value, (list, tuple)):
            raise ScenarioError(f"{key}: must be an array, got {_type_name(value)}")
    if len(pieces_in) > MAX_PIECES - 1:
        raise ScenarioError(f"pieces: {len(pieces_in)} pieces, at most {MAX_PIECES - 1} crustals and "
                            f"attack platforms fit in a state")
    if len(units_in) > MAX_UNITS:
        raise ScenarioError(f"units: {len(units_in)} units, at most {MAX_UNITS} fit in a state")

    states = blank_state(rules)
    s = states[0]
    s["turn"] = turn
    s["phase"] = PHASE_LETTERS.index(phase_letter)

    forces, deploy = _parse_setup(data)
    pieces = _build_pieces(states, pieces_in, turn, rules)
    units = _build_units(states, units_in)

    errors = position_errors(states)
    if errors:  # a safety net: the checks above should have caught everything
        raise ScenarioError("position: " + "; ".join(errors))
    _set_pools(states, forces, deploy, turn, phase_letter)
    normalized = {
        "format": FORMAT, "version": VERSION, "name": name, "description": description,
        "turn": int(turn), "phase": phase_letter, "rules": _rules_overrides(rules),
    }
    if deploy:
        normalized["forces"] = _forces_json(forces)
        normalized["deploy"] = [part for part in DEPLOY_PARTS if part in deploy]
    normalized["pieces"] = pieces
    normalized["units"] = units
    return states, normalized


def _forces_json(forces) -> dict:
    out = {"ziegler": {}, "technocrat": {}}
    for i, key in enumerate(POOL_KEYS):
        out[SIDE_NAMES[int(POOL_SIDE[i])]][key] = int(forces[i])
    return out


def _parse_setup(data) -> tuple[list[int], set]:
    """D21: the force pools (``forces``, default the rulebook's, 3.2, 3.3, D4)
    and the parts of the deployment left to the players (``deploy``)."""
    forces = [int(v) for v in RULEBOOK_FORCES]
    given = data.get("forces", {})
    if not isinstance(given, dict):
        raise ScenarioError(f"forces: must be an object {{\"ziegler\": {{...}}, \"technocrat\": {{...}}}}, "
                            f"got {_type_name(given)}")
    for side_name, entry in given.items():
        if side_name not in SIDE_NAMES:
            raise ScenarioError(f"forces: unknown side {short_repr(side_name)}; known: {list(SIDE_NAMES)}")
        if not isinstance(entry, dict):
            raise ScenarioError(f"forces.{side_name}: must be an object, got {_type_name(entry)}")
        keys = {POOL_KEYS[i]: i for i in range(len(POOL_KEYS)) if SIDE_NAMES[int(POOL_SIDE[i])] == side_name}
        for key, value in entry.items():
            if key not in keys:
                raise ScenarioError(f"forces.{side_name}: unknown key {short_repr(key)}; known keys: {list(keys)}")
            if not _is_int(value) or not 0 <= value <= 99:
                raise ScenarioError(f"forces.{side_name}.{key}: must be an integer in [0, 99], got {short_repr(value)}")
            forces[keys[key]] = int(value)
    deploy_in = data.get("deploy", [])
    if deploy_in == "all":
        deploy_in = list(DEPLOY_PARTS)
    if not isinstance(deploy_in, (list, tuple)):
        raise ScenarioError(f"deploy: must be \"all\" or an array of parts {list(DEPLOY_PARTS)}, "
                            f"got {_type_name(deploy_in)}")
    deploy = set()
    for i, part in enumerate(deploy_in):
        if not isinstance(part, str) or part not in DEPLOY_PARTS:
            raise ScenarioError(f"deploy[{i}]: unknown part {short_repr(part)}; known parts: {list(DEPLOY_PARTS)}")
        if part in deploy:
            raise ScenarioError(f"deploy[{i}]: {short_repr(part)} is listed twice")
        deploy.add(part)
    return forces, deploy


def _preset_counts(s) -> list[int]:
    """What the position already holds of each force pool (3.2, 3.3)."""
    counts = [0] * len(POOL_KEYS)
    for k in range(1, MAX_PIECES):
        kind = int(s["piece_kind"][k])
        if kind == PLATFORM:
            counts[POOL_T_PLATFORMS] += 1
        elif kind != NO_PIECE:
            counts[POOL_Z_CRUSTAL_HEXES] += int(PIECE_SIZE[kind])
    pool_of = {Z_INFANTRY: POOL_Z_SQUADS, Z_HOVERCRAFT: POOL_Z_HOVERCRAFT, T_INFANTRY: POOL_T_SQUADS,
               T_ENGINEER: POOL_T_ENGINEERS, T_CRAWLER: POOL_T_CRAWLERS, T_HEAVY_BEAMER: POOL_T_HEAVY_BEAMERS}
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t != NO_UNIT:
            counts[pool_of[t]] += int(s["unit_squads"][u]) if t in (Z_INFANTRY, T_INFANTRY, T_ENGINEER) else 1
    return counts


def _set_pools(states, forces, deploy, turn, phase_letter) -> None:
    """D21: the pools the players still place = the force pool minus what is preset."""
    s = states[0]
    if not deploy:
        return
    if turn != 1 or phase_letter != "A":
        raise ScenarioError(f"deploy: the players set up before turn 1, phase A (3.2, 3.3, 4.0); this "
                            f"scenario starts at turn {turn}, phase {phase_letter}")
    preset = _preset_counts(s)
    for part, pools in DEPLOY_PARTS.items():
        if part not in deploy:
            continue
        for i in pools:
            left = forces[i] - preset[i]
            if left < 0:
                raise ScenarioError(f"deploy: the scenario presets {preset[i]} {POOL_NAMES[i]}, more than the "
                                    f"force pool of {forces[i]} (3.2, 3.3, D4)")
            s["pool"][i] = left
    bad = int(pools_fit(s))
    if bad >= 0:
        raise ScenarioError(f"deploy: the {POOL_NAMES[bad]} left to set up ({int(s['pool'][bad])}) do not fit "
                            f"(no room within the stacking limits 9.1/9.2, the counter cap or the "
                            f"{MAX_PIECES - 1} pieces and {MAX_UNITS} counters a state holds)")
    s["phase"] = setup_phase_for(s)


def _build_pieces(states, pieces_in, turn: int, rules: RulesOptions) -> list[dict]:
    """Place every crustal and platform (6.2, D7, 14.6, 15.4); returns the normalized entries."""
    used_labels = {False: {}, True: {}}  # is_platform -> {label: entry name}
    owner = {int(c): "the Central Crustal (D2)" for c in CENTRAL_CELLS}  # cell -> who holds it
    entries = []  # (where, kind, cells, label or None, damage, controller, neutralized, control_turn)
    for i, p in enumerate(pieces_in):
        where = f"pieces[{i}]"
        if isinstance(p, dict) and isinstance(p.get("id"), str):
            where += f" ({json.dumps(p['id'])})"
        if not isinstance(p, dict):
            raise ScenarioError(f"{where}: must be an object, got {_type_name(p)}")
        _check_keys(where, p, PIECE_KEYS, ("kind", "hexes"))
        kind_name = p["kind"]
        if not isinstance(kind_name, str) or kind_name not in SCENARIO_KINDS:
            raise ScenarioError(f"{where}: unknown kind {short_repr(kind_name)}; known kinds: {list(SCENARIO_KINDS)}")
        kind = PIECE_NAMES.index(kind_name)
        hexes = p["hexes"]
        if not isinstance(hexes, (list, tuple)):
            raise ScenarioError(f"{where}: hexes must be an array of [col, row], got {_type_name(hexes)}")
        cells = [_hex_cell(where, f"hexes[{j}]", h) for j, h in enumerate(hexes)]
        err = shape_error(kind, cells)
        if err:
            raise ScenarioError(f"{where}: {err}")
        for c in cells:  # 6.2, D12: one piece a hex, only molten hexes
            if c in owner:
                raise ScenarioError(f"{where}: hex {_hex_json(c)} is already taken by {owner[c]}; "
                                    f"only one crustal or attack platform a hex (6.2)")
        label = None
        if "id" in p:
            label = _parse_label(where, kind, p["id"])
            family = used_labels[kind == PLATFORM]
            if label in family:
                raise ScenarioError(f"{where}: id {short_repr(p['id'])} is also the id of {family[label]}")
            family[label] = where
        damage = p.get("damage", 0)
        if not _is_int(damage):
            raise ScenarioError(f"{where}: damage must be an integer, got {short_repr(damage)}")
        default_controller = "technocrat" if kind == PLATFORM else "ziegler"
        controller = p.get("controller", default_controller)
        if controller not in SIDE_NAMES:
            raise ScenarioError(f"{where}: controller must be one of {list(SIDE_NAMES)}, got {short_repr(controller)}")
        neutralized = p.get("neutralized", False)
        if not isinstance(neutralized, bool):
            raise ScenarioError(f"{where}: neutralized must be true or false, got {short_repr(neutralized)}")
        control_turn = p.get("control_turn", 0)
        if not _is_int(control_turn) or not 0 <= control_turn <= turn:
            raise ScenarioError(f"{where}: control_turn must be an integer from 0 to the turn ({turn}) "
                                f"(15.4), got {short_repr(control_turn)}")
        if kind == PLATFORM and turn > rules.platform_turns:
            raise ScenarioError(f"{where}: attack platforms break up in the Crustal Control phase of "
                                f"turn {rules.platform_turns} (14.5); none can be in play on turn {turn}")
        for c in cells:
            owner[c] = where
        entries.append((where, kind, cells, label, int(damage), SIDE_NAMES.index(controller),
                        neutralized, int(control_turn)))

    # D12 / 2.2.2: pieces without an id get the first free letter (crustals) or number (platforms)
    normalized = []
    for where, kind, cells, label, damage, controller, neutralized, control_turn in entries:
        if label is None:
            family = used_labels[kind == PLATFORM]
            label = next(n for n in range(1, MAX_LABEL + 1) if n not in family)
            family[label] = where
        try:
            place_piece(states, kind, cells, controller=controller, damage=damage,
                        neutralized=neutralized, label=label, control_turn=control_turn)
        except ValueError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        normalized.append({
            "id": _format_label(kind, label), "kind": PIECE_NAMES[kind],
            "hexes": [_hex_json(c) for c in cells], "damage": damage,
            "controller": SIDE_NAMES[controller], "neutralized": neutralized,
            "control_turn": control_turn,
        })
    return normalized


def _build_units(states, units_in) -> list[dict]:
    """Place every unit (8.2, D3, 9.1, 9.2, 10.0); returns the normalized entries."""
    s = states[0]
    normalized = []
    for i, u in enumerate(units_in):
        where = f"units[{i}]"
        if not isinstance(u, dict):
            raise ScenarioError(f"{where}: must be an object, got {_type_name(u)}")
        _check_keys(where, u, UNIT_KEYS, ("side", "type", "hex"))
        side_name = u["side"]
        if side_name not in SIDE_NAMES:
            raise ScenarioError(f"{where}: side must be one of {list(SIDE_NAMES)}, got {short_repr(side_name)}")
        side = SIDE_NAMES.index(side_name)
        if not isinstance(u["type"], str):
            raise ScenarioError(f"{where}: type must be a string, got {_type_name(u['type'])}")
        try:
            t = unit_type(side, u["type"])
        except ValueError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        squads = u.get("squads", 1)
        if not _is_int(squads):
            raise ScenarioError(f"{where}: squads must be an integer, got {short_repr(squads)}")
        cell = _hex_cell(where, "hex", u["hex"])
        hx = _hex_json(cell)
        if not ON_MAP[cell]:
            raise ScenarioError(f"{where}: hex {hx} is off the map; units cannot stand there (D3)")
        if s["board"][cell] < 0:
            raise ScenarioError(f"{where}: hex {hx} is molten; units stand on crustals, attack "
                                f"platforms or the Central Crustal (8.2)")
        if count_units(s, cell, 1 - side) > 0:
            raise ScenarioError(f"{where}: hex {hx} already holds {SIDE_NAMES[1 - side]} units; a "
                                f"scenario cannot hold a combat in progress (8.3, 12.1)")
        try:
            place_unit(states, t, cell, int(squads))
        except ValueError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        if not stacking_ok(s, cell):
            on_platform = s["piece_kind"][s["board"][cell]] == PLATFORM
            raise ScenarioError(
                f"{where}: hex {hx} is over the stacking limit ({count_units(s, cell, side)} "
                f"{side_name} counters, {count_units(s, cell, -1)} in all; at most "
                f"{int(side_limit(s, cell))} of one side and {int(total_limit(s, cell))} in all "
                f"{'on an attack platform (9.2)' if on_platform else 'in a crustal hex (9.1, 9.4)'})")
        entry = {"side": side_name, "type": UNIT_NAMES[t]}
        if UNIT_IS_INFANTRY[t]:
            entry["squads"] = int(squads)
        entry["hex"] = hx
        normalized.append(entry)
    return normalized


def validate_scenario(data) -> dict:
    """Check a scenario; return it normalized (every optional key filled in, rules as overrides).

    Raises :class:`ScenarioError` naming the first offending entry.
    """
    return _build(data)[1]


def scenario_to_state(data, seed: int) -> np.ndarray:
    """The position of a scenario as a batch of one state (shape ``(1,)``).

    The dice are seeded with ``seed`` (``dice.seed_state``) and the scenario's
    rules options are set; play has not begun: call ``actions.start`` on
    ``states[0]``.  Raises :class:`ScenarioError` (and returns nothing) if the
    scenario is malformed or illegal, or ``seed`` is not a seed
    (:func:`check_seed`).
    """
    seed = check_seed(seed)
    states, _ = _build(data)
    try:
        seed_state(states[0], seed)
    except ValueError as exc:
        raise ScenarioError(f"seed: {exc}") from None
    return states


def with_rules(scenario, rules=None) -> dict:
    """The scenario dict of ``scenario`` (a built-in name, a path or a dict)
    with the rules overrides ``rules`` (a ``RulesOptions`` or a dict; None:
    none) merged over its own.  A wrong option is refused here, naming it
    (``turn_limit``: D19 revised)."""
    data = load_scenario(scenario) if not isinstance(scenario, dict) else dict(scenario)
    if rules is not None:
        overrides = rules.to_dict() if isinstance(rules, RulesOptions) else dict(rules)
        RulesOptions.from_dict(overrides)
        merged = dict(data.get("rules") or {})
        merged.update(overrides)
        data["rules"] = merged
    return data


def start_states(template, seeds, max_turns=None) -> np.ndarray:
    """Games started from the position ``template`` (a state or a batch of one,
    from :func:`scenario_to_state`), one per seed: each a copy with its dice
    seeded (2.3), the harness's turn limit ``max_turns`` set (None: none, the
    rulebook's game; D19 revised), and play begun (``actions.start``, 4.0).
    The one way a game starts: ``Game``, ``core.init`` and the arena use it;
    the environments start their episodes the same way in compiled code
    (``actions.start`` after seeding)."""
    limit = check_max_turns(max_turns)
    seeds = [seeds] if np.ndim(seeds) == 0 else list(seeds)
    seeds = [check_seed(seed) for seed in seeds]
    states = np.repeat(np.asarray(template).reshape(-1)[:1], len(seeds))
    ev, ev_n = no_events()
    for i, seed in enumerate(seeds):
        seed_state(states[i], seed)
        states[i]["max_turns"] = limit
        start(states[i], ev, ev_n)
    return states


# ------------------------------------------------------------ state -> dict


def state_to_scenario(states, name: str = "", description: str = "") -> dict:
    """Describe the position of one state (a record or a batch of one) as a scenario dict.

    Only the position is kept (turn, phase, rules, pieces, units); selections,
    movement allowances, flags and the dice are not.  Piece order follows the
    state's piece indices, unit order its unit indices, so
    ``state_to_scenario(scenario_to_state(d, seed))`` equals
    ``validate_scenario(d)`` apart from ``name`` and ``description``, which a
    state does not hold (pass them in).
    """
    if isinstance(states, np.ndarray) and states.ndim == 1:
        if states.shape[0] != 1:
            raise ScenarioError(f"state_to_scenario takes one state, got a batch of {states.shape[0]}")
        s = states[0]
    else:
        s = states
    phase = int(s["phase"])
    if phase == PHASE_OVER or not 0 <= phase < len(PHASE_LETTERS):
        raise ScenarioError("state: the game is over; a scenario describes a position still in play")
    setting_up = phase > PHASE_OVER  # D21: a set-up in progress (a chosen item is not kept)
    if setting_up:
        phase = 0
    pieces = []
    for k in range(1, MAX_PIECES):
        kind = int(s["piece_kind"][k])
        if kind == NO_PIECE:
            continue
        cells = [int(c) for c in s["piece_cells"][k] if c >= 0]
        pieces.append({
            "id": _format_label(kind, int(s["piece_label"][k])), "kind": PIECE_NAMES[kind],
            "hexes": [_hex_json(c) for c in cells], "damage": int(s["piece_damage"][k]),
            "controller": SIDE_NAMES[int(s["piece_controller"][k])],
            "neutralized": bool(s["piece_neutralized"][k]),
            "control_turn": int(s["piece_control_turn"][k]),
        })
    units = []
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t == NO_UNIT:
            continue
        entry = {"side": SIDE_NAMES[int(UNIT_SIDE[t])], "type": UNIT_NAMES[t]}
        if UNIT_IS_INFANTRY[t]:
            entry["squads"] = int(s["unit_squads"][u])
        entry["hex"] = _hex_json(int(s["unit_cell"][u]))
        units.append(entry)
    out = {
        "format": FORMAT, "version": VERSION, "name": name, "description": description,
        "turn": int(s["turn"]), "phase": PHASE_LETTERS[phase],
        "rules": _rules_overrides(RulesOptions.from_record(s["rules"])),
    }
    if setting_up:
        preset = _preset_counts(s)
        forces = [int(v) for v in RULEBOOK_FORCES]
        deploy = []
        for part, pools in DEPLOY_PARTS.items():
            if any(int(s["pool"][i]) > 0 for i in pools):
                deploy.append(part)
                for i in pools:
                    forces[i] = preset[i] + int(s["pool"][i])
        out["forces"] = _forces_json(forces)
        out["deploy"] = deploy
    out["pieces"] = pieces
    out["units"] = units
    return out


# ------------------------------------------------------------ files


def builtin_scenarios() -> list[str]:
    """Names of the scenarios shipped in ``hotspot/scenarios``."""
    folder = resources.files("hotspot").joinpath("scenarios")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def _read_json(text: str, source: str):
    try:
        return loads(text)  # the one reader's limits (core.jsonfile)
    except JSONInputError as exc:
        raise ScenarioError(f"{source}: not valid JSON: {exc}") from None


def random_name_seed(name: str) -> int:
    """The seed of a scenario name ``"random:SEED"``: a :class:`ScenarioError`
    unless SEED is a non-negative integer Python can read (at most
    ``sys.get_int_max_str_digits()`` digits, 4300 by default)."""
    _, _, seed_text = name.partition(":")
    if not re.fullmatch(r"[0-9]+", seed_text):
        raise ScenarioError(f"scenario name {short_repr(name)}: the seed after 'random:' must be a "
                            f"non-negative integer")
    limit = _int_digits_limit()
    if limit and len(seed_text) > limit:
        raise ScenarioError(f"scenario name 'random:...' ({len(seed_text)} characters): the seed after "
                            f"'random:' has more than {limit} digits")
    return int(seed_text)


def load_scenario(name_or_path) -> dict:
    """A checked, normalized scenario dict.

    ``name_or_path`` is a built-in name (``"standard"``: the file
    ``hotspot/scenarios/standard.json``), ``"random"`` (a random setup, D12,
    with a fresh seed that is recorded in its name) or ``"random:SEED"``, or
    the path of a JSON file; a scenario dict is checked and normalized.
    """
    if isinstance(name_or_path, dict):
        return validate_scenario(name_or_path)
    if isinstance(name_or_path, str) and (name_or_path == "random" or name_or_path.startswith("random:")):
        seed = secrets.randbits(63) if name_or_path == "random" else random_name_seed(name_or_path)
        return random_setup(seed)
    if isinstance(name_or_path, str) and re.fullmatch(r"[A-Za-z0-9_\-]+", name_or_path):
        resource = resources.files("hotspot").joinpath("scenarios", f"{name_or_path}.json")
        if resource.is_file():
            return validate_scenario(_read_json(resource.read_text(encoding="utf-8"), name_or_path))
        if not os.path.exists(name_or_path):
            raise ScenarioError(f"scenario {short_repr(name_or_path)}: no such built-in scenario "
                                f"(built-in: {builtin_scenarios() + ['random', 'random:SEED']}) "
                                f"and no such file")
    if not isinstance(name_or_path, (str, os.PathLike)):
        raise ScenarioError(f"scenario: expected a name or a path, got {type(name_or_path).__name__}")
    path = os.fspath(name_or_path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read the scenario file: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not a UTF-8 text file ({exc.reason} at byte {exc.start})") from None
    except ValueError as exc:  # a name the OS cannot take, e.g. with a NUL character
        raise ScenarioError(f"{short_repr(path)}: not a usable file name ({exc})") from None
    try:
        return validate_scenario(_read_json(text, path))
    except ScenarioError as exc:
        if str(exc).startswith(f"{path}:"):
            raise
        raise ScenarioError(f"{path}: {exc}") from None


def _drop_defaults(data: dict) -> dict:
    """A shorter equivalent of a normalized scenario: optional keys at their defaults left out."""
    out = {k: v for k, v in data.items()
           if k in ("format", "version") or v != {"name": "", "description": "", "turn": 1,
                                                  "phase": "A", "rules": {}, "pieces": [],
                                                  "units": []}[k]}
    pieces = []
    for p in data.get("pieces", []):
        default_controller = "technocrat" if p["kind"] == "platform" else "ziegler"
        pieces.append({k: v for k, v in p.items()
                       if not ((k == "damage" and v == 0) or (k == "controller" and v == default_controller)
                               or (k == "neutralized" and v is False) or (k == "control_turn" and v == 0))})
    if pieces:
        out["pieces"] = pieces
    units = [{k: v for k, v in u.items() if not (k == "squads" and v == 1)} for u in data.get("units", [])]
    if units:
        out["units"] = units
    return out


def dumps_scenario(data, omit_defaults: bool = False) -> str:
    """The scenario as JSON text, one piece or unit a line.  Checks it first."""
    data = validate_scenario(data)
    if omit_defaults:
        data = _drop_defaults(data)
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if key in ("pieces", "units") and value:
            lines.append(f"  {json.dumps(key)}: [")
            for j, entry in enumerate(value):
                lines.append("    " + json.dumps(entry) + ("," if j + 1 < len(value) else ""))
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def save_scenario(data, path, omit_defaults: bool = False) -> None:
    """Check a scenario and write it as JSON to ``path`` (see :func:`dumps_scenario`)."""
    text = dumps_scenario(data, omit_defaults=omit_defaults)
    with open(os.fspath(path), "w", encoding="utf-8") as f:
        f.write(text)


# ------------------------------------------------------------ random setups (D12)

_CRUSTAL_KINDS = (ONE_HEX, TWO_HEX, TRIANGULAR, LONG)
_FOOTPRINTS: dict[int, list[tuple[int, ...]]] = {}


def _footprints(kind: int) -> list[tuple[int, ...]]:
    """Every placement of a crustal of ``kind`` wholly on the map, in slot order (front first)."""
    if kind not in _FOOTPRINTS:
        out = []
        for c in range(NUM_CELLS):
            if not ON_MAP[c]:
                continue
            if kind == ONE_HEX:
                out.append((c,))
                continue
            for d in range(6):
                a, b = int(NEIGHBOUR[c, d]), int(NEIGHBOUR[c, (d + 1) % 6])
                if kind == TWO_HEX:
                    cells = (a, c)  # front a, rear c: facing d
                elif kind == TRIANGULAR:
                    cells = (c, a, b)  # three mutually adjacent hexes; each triangle thrice
                else:
                    cells = (a, c, int(NEIGHBOUR[c, (d + 3) % 6]))  # front, centre, rear
                if all(x >= 0 and ON_MAP[x] for x in cells):
                    out.append(cells)
        _FOOTPRINTS[kind] = out
    return _FOOTPRINTS[kind]


def _split_squads(rng, squads: int) -> list[int]:
    """Infantry counters of 1, 2 or 3 squads (10.0, D4) totalling ``squads``."""
    out = []
    while squads > 0:
        n = int(rng.integers(1, min(3, squads) + 1))
        out.append(n)
        squads -= n
    return out


def _distribute(rng, counters: list, hexes: list[int], soft_cap: int, hard_cap: int, what: str) -> list:
    """Put each counter in a random hex: below ``soft_cap`` (no stress, 9.3) while any such
    hex is left, else below ``hard_cap`` (the stacking limit, 9.1/9.2)."""
    load = {h: 0 for h in hexes}
    placed = []
    for counter in counters:
        room = [h for h in hexes if load[h] < soft_cap] or [h for h in hexes if load[h] < hard_cap]
        if not room:
            raise ValueError(f"random_setup: no room for the {what} within the stacking limit "
                             f"({hard_cap} a hex, 9.1, 9.2)")
        h = room[int(rng.integers(len(room)))]
        load[h] += 1
        placed.append((counter, h))
    return placed


def random_setup(seed: int, rules=None, *, crustal_hexes: int = 18, ziegler_squads: int = 42,
                 hovercraft: int = 6, platforms: int = 5, technocrat_squads: int = 12,
                 engineers: int = 3, crawlers: int = 6, heavy_beamers: int = 2) -> dict:
    """A random legal turn-1 setup (D12) as a scenario dict; the same seed gives the same dict.

    Ziegler (3.2): a random mix of the four crustal types totalling exactly
    ``crustal_hexes`` hexes, each in random molten hexes wholly on the map,
    one piece a hex and none on the Central Crustal (6.2, D2, D12);
    ``ziegler_squads`` infantry squads in random counters of 1-3 squads (D4)
    and ``hovercraft`` hovercraft, each on a random hex of the Central
    Crustal or a crustal.  Technocrat (3.3): ``platforms`` attack platforms
    on distinct random molten perimeter hexes, after the crustals, carrying
    ``technocrat_squads`` squads (counters of 1-3), ``engineers``,
    ``crawlers`` and ``heavy_beamers``, each on a random platform.

    Stacking: units fill hexes up to the stress threshold (9.3: no stress
    at the start) while they can, then up to the stacking limit (9.1, 9.2);
    ``ValueError`` if even that has no room.  ``rules`` (a RulesOptions, a
    dict of overrides or None) is stored in the scenario and its limits used.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {short_repr(seed)}")
    counts = dict(crustal_hexes=crustal_hexes, ziegler_squads=ziegler_squads, hovercraft=hovercraft,
                  platforms=platforms, technocrat_squads=technocrat_squads, engineers=engineers,
                  crawlers=crawlers, heavy_beamers=heavy_beamers)
    for key, value in counts.items():
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"random_setup: {key} must be a non-negative integer, got {short_repr(value)}")
    rules = _coerce_rules(rules)
    rng = np.random.default_rng(int(seed))
    max_crustals = MAX_PIECES - 1 - platforms
    if max_crustals < 0 or -(-crustal_hexes // 3) > max_crustals:
        raise ValueError(f"random_setup: {crustal_hexes} crustal hexes and {platforms} platforms do not "
                         f"fit in {MAX_PIECES - 1} pieces")

    # 3.2, D12: the mix of crustal types, drawn so that it stays within the piece budget
    kinds = []
    left = crustal_hexes
    while left > 0:
        budget = max_crustals - len(kinds) - 1  # pieces left after this one
        options = [k for k in _CRUSTAL_KINDS
                   if PIECE_SIZE[k] <= left and -(-(left - PIECE_SIZE[k]) // 3) <= budget]
        kind = options[int(rng.integers(len(options)))]
        kinds.append(kind)
        left -= int(PIECE_SIZE[kind])

    # 3.2, 6.2, D12: molten hexes on the map, one piece a hex, off the Central Crustal
    taken = set(int(c) for c in CENTRAL_CELLS)
    pieces = []
    crustal_cells = []
    for n, kind in enumerate(kinds):
        options = [f for f in _footprints(kind) if taken.isdisjoint(f)]
        if not options:
            raise ValueError(f"random_setup: no room left on the map for a {PIECE_NAMES[kind]} crustal")
        cells = options[int(rng.integers(len(options)))]
        taken.update(cells)
        crustal_cells.extend(cells)
        pieces.append({"id": _letters(n + 1), "kind": PIECE_NAMES[kind],
                       "hexes": [_hex_json(c) for c in cells]})

    # 3.3: platforms on distinct molten perimeter hexes, after the Ziegler set-up
    edge = [c for c in range(NUM_CELLS) if PERIMETER[c] and c not in taken]
    if platforms > len(edge):
        raise ValueError(f"random_setup: only {len(edge)} molten perimeter hexes for {platforms} platforms")
    platform_cells = [edge[int(i)] for i in rng.choice(len(edge), size=platforms, replace=False)]
    for n, c in enumerate(platform_cells):
        pieces.append({"id": str(n + 1), "kind": "platform", "hexes": [_hex_json(c)]})

    # 9.3: no stress at the start where there is room; 9.1, 9.2: never over the limit
    stress = rules.stress_threshold if rules.stress_threshold >= 1 else MAX_UNITS
    crustal_limit = min(rules.stack_side_crustal, rules.stack_total_crustal)
    z_counters = ([(Z_INFANTRY, n) for n in _split_squads(rng, ziegler_squads)]
                  + [(Z_HOVERCRAFT, 1)] * hovercraft)
    t_counters = ([(T_INFANTRY, n) for n in _split_squads(rng, technocrat_squads)]
                  + [(T_ENGINEER, 1)] * engineers + [(T_CRAWLER, 1)] * crawlers
                  + [(T_HEAVY_BEAMER, 1)] * heavy_beamers)
    if len(z_counters) + len(t_counters) > MAX_UNITS:
        raise ValueError(f"random_setup: {len(z_counters) + len(t_counters)} counters, at most {MAX_UNITS}")
    z_hexes = [int(c) for c in CENTRAL_CELLS] + crustal_cells
    units = []
    for (t, squads), c in _distribute(rng, z_counters, z_hexes, min(stress, crustal_limit),
                                      crustal_limit, "Ziegler units"):
        units.append(_unit_entry(t, squads, c))
    if t_counters and not platform_cells:
        raise ValueError("random_setup: Technocrat units but no attack platform to carry them (3.3)")
    for (t, squads), c in _distribute(rng, t_counters, platform_cells,
                                      min(stress, rules.stack_platform), rules.stack_platform,
                                      "Technocrat units"):
        units.append(_unit_entry(t, squads, c))

    data = {
        "format": FORMAT, "version": VERSION, "name": f"random:{int(seed)}",
        "description": (f"Random set-up (D12), seed {int(seed)}: {crustal_hexes} crustal hexes, "
                        f"{ziegler_squads} Ziegler squads, {hovercraft} hovercraft; {platforms} "
                        f"platforms, {technocrat_squads} Technocrat squads, {engineers} engineers, "
                        f"{crawlers} crawlers, {heavy_beamers} heavy beamers."),
        "turn": 1, "phase": "A", "rules": _rules_overrides(rules), "pieces": pieces, "units": units,
    }
    return validate_scenario(data)


def _unit_entry(t: int, squads: int, cell: int) -> dict:
    entry = {"side": SIDE_NAMES[int(UNIT_SIDE[t])], "type": UNIT_NAMES[t]}
    if UNIT_IS_INFANTRY[t]:
        entry["squads"] = int(squads)
    entry["hex"] = _hex_json(cell)
    return entry
