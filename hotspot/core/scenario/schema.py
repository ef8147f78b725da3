"""The scenario format: its keys and versions, :class:`ScenarioError`, and the
checks and conversions of its JSON values (hexes, piece ids, seeds, rules
overrides, force pools and deployment parts, D21).

Everything here reads or writes JSON values only; building the position they
describe is :mod:`hotspot.core.scenario.positions`.
"""

from __future__ import annotations

import re
import sys

import numpy as np

from ..errors import short_repr
from ..hexgrid import cell_of, col_row
from ..rules_data import (
    DEFAULT_RULES,
    PHASE_LETTERS,
    PHASE_OVER,
    PLATFORM,
    POOL_KEYS,
    POOL_SIDE,
    POOL_T_CRAWLERS,
    POOL_T_ENGINEERS,
    POOL_T_HEAVY_BEAMERS,
    POOL_T_PLATFORMS,
    POOL_T_SQUADS,
    POOL_Z_CRUSTAL_HEXES,
    POOL_Z_HOVERCRAFT,
    POOL_Z_SQUADS,
    RULEBOOK_FORCES,
    SIDE_NAMES,
    UNIT_IS_INFANTRY,
    UNIT_NAMES,
    UNIT_SIDE,
    RulesOptions,
)

FORMAT = "hotspot-scenario"
VERSION = 2
READABLE_VERSIONS = (1, 2)  # version 1: no set-up by the players (D21), every file still loads

TOP_KEYS = ("format", "version", "name", "description", "turn", "phase", "rules", "forces", "deploy", "pieces", "units")
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

PLAYABLE_PHASES = PHASE_LETTERS[:PHASE_OVER]  # "A".."H"


class ScenarioError(ValueError):
    """A malformed or illegal scenario; the message names the offending entry."""


# --------------------------------------------------------------- helpers


def is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def int_digits_limit() -> int:
    """The most digits Python turns an int into text (and JSON) with; 0: no limit."""
    get = getattr(sys, "get_int_max_str_digits", None)
    return get() if get is not None else 0


def check_seed(seed, what: str = "seed") -> int:
    """A dice seed: a non-negative integer that a game record can save (JSON
    writes integers of at most ``sys.get_int_max_str_digits()`` digits, 4300
    by default).  Raises :class:`ScenarioError` naming ``what``."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ScenarioError(f"{what}: must be a non-negative integer, got {short_repr(seed)}")
    limit = int_digits_limit()
    if limit and seed >= 10**limit:
        raise ScenarioError(f"{what}: an integer of more than {limit} digits (a game record could not save it)")
    return int(seed)


def type_name(value) -> str:
    return {
        dict: "object",
        list: "array",
        tuple: "array",
        str: "string",
        bool: "boolean",
        type(None): "null",
        float: "number",
        int: "integer",
    }.get(type(value), type(value).__name__)


def check_keys(where: str, entry: dict, allowed: tuple, required: tuple) -> None:
    unknown = [k for k in entry if k not in allowed]
    if unknown:
        raise ScenarioError(
            f"{where}: unknown key(s) {', '.join(repr(k) for k in unknown)}; known keys: {list(allowed)}"
        )
    for key in required:
        if key not in entry:
            raise ScenarioError(f"{where}: missing required key {short_repr(key)}")


def hex_cell(where: str, what: str, value) -> int:
    """The cell of a JSON ``[col, row]``; refuses bad types and hexes outside the playable area (D3)."""
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(is_int(v) for v in value):
        raise ScenarioError(f"{where}: {what} must be [col, row] (two integers), got {short_repr(value)}")
    col, row = int(value[0]), int(value[1])
    try:
        return cell_of(col, row)
    except ValueError:
        raise ScenarioError(
            f"{where}: {what} [{short_repr(col)}, {short_repr(row)}] is outside the playable area "
            f"(the map, D1, and the margin pieces may drift into, D3)"
        ) from None


def hex_json(cell: int) -> list:
    col, row = col_row(int(cell))
    return [col, row]


# Identification labels (2.2.2, 2.2.3) are stored in ``piece_label`` (int8):
# crustal letters count A=1 .. Z=26, AA=27 ... ; platform numbers are themselves.
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def letters(n: int) -> str:
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
    for value, sym in (
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while n >= value:
            out += sym
            n -= value
    return out


def parse_label(where: str, kind: int, ident) -> int:
    """The label number of a piece id: letters for crustals (2.2.2), a number for platforms (2.2.3)."""
    if not isinstance(ident, str):
        raise ScenarioError(f"{where}: id must be a string, got {type_name(ident)} {short_repr(ident)}")
    if kind == PLATFORM:
        if re.fullmatch(r"[0-9]{1,3}", ident):
            n = int(ident)
        else:
            n = _roman(ident)
            if n is None:
                raise ScenarioError(
                    f'{where}: an attack platform\'s id is a number, "1" or "I" (2.2.3), got {short_repr(ident)}'
                )
    else:
        if not re.fullmatch(r"[A-Z]{1,2}", ident):
            raise ScenarioError(
                f"{where}: a crustal's id is one or two capital letters (2.2.2), got {short_repr(ident)}"
            )
        n = 0
        for ch in ident:
            n = n * 26 + (ord(ch) - ord("A") + 1)
    if not 1 <= n <= MAX_LABEL:
        raise ScenarioError(f"{where}: id {short_repr(ident)} is out of range (label 1..{MAX_LABEL})")
    return n


def format_label(kind: int, label: int) -> str:
    """Inverse of :func:`parse_label` (platforms are written as Arabic numbers)."""
    if kind != PLATFORM and label >= 1:
        return letters(label)
    return str(label)


def rules_overrides(rules: RulesOptions) -> dict:
    """The options of ``rules`` that differ from the defaults (D1-D19), as a JSON-able dict."""
    default = DEFAULT_RULES.to_dict()
    out = {}
    for key, value in rules.to_dict().items():
        if isinstance(value, dict):
            diff = {k: int(v) for k, v in value.items() if default[key][k] != v}
            if diff:
                out[key] = diff
        elif value != default[key]:
            out[key] = (
                value if isinstance(value, str) else bool(value) if isinstance(default[key], bool) else int(value)
            )
    return out


def coerce_rules(rules) -> RulesOptions:
    if rules is None:
        return DEFAULT_RULES
    if isinstance(rules, RulesOptions):
        return rules
    if isinstance(rules, dict):
        return RulesOptions.from_dict(rules)
    raise TypeError(f"rules must be a RulesOptions, a dict or None, got {type(rules).__name__}")


def forces_json(forces) -> dict:
    out = {"ziegler": {}, "technocrat": {}}
    for i, key in enumerate(POOL_KEYS):
        out[SIDE_NAMES[int(POOL_SIDE[i])]][key] = int(forces[i])
    return out


def parse_setup(data) -> tuple[list[int], set]:
    """D21: the force pools (``forces``, default the rulebook's, 3.2, 3.3, D4)
    and the parts of the deployment left to the players (``deploy``)."""
    forces = [int(v) for v in RULEBOOK_FORCES]
    given = data.get("forces", {})
    if not isinstance(given, dict):
        raise ScenarioError(
            f'forces: must be an object {{"ziegler": {{...}}, "technocrat": {{...}}}}, got {type_name(given)}'
        )
    for side_name, entry in given.items():
        if side_name not in SIDE_NAMES:
            raise ScenarioError(f"forces: unknown side {short_repr(side_name)}; known: {list(SIDE_NAMES)}")
        if not isinstance(entry, dict):
            raise ScenarioError(f"forces.{side_name}: must be an object, got {type_name(entry)}")
        keys = {POOL_KEYS[i]: i for i in range(len(POOL_KEYS)) if SIDE_NAMES[int(POOL_SIDE[i])] == side_name}
        for key, value in entry.items():
            if key not in keys:
                raise ScenarioError(f"forces.{side_name}: unknown key {short_repr(key)}; known keys: {list(keys)}")
            if not is_int(value) or not 0 <= value <= 99:
                raise ScenarioError(f"forces.{side_name}.{key}: must be an integer in [0, 99], got {short_repr(value)}")
            forces[keys[key]] = int(value)
    deploy_in = data.get("deploy", [])
    if deploy_in == "all":
        deploy_in = list(DEPLOY_PARTS)
    if not isinstance(deploy_in, (list, tuple)):
        raise ScenarioError(
            f'deploy: must be "all" or an array of parts {list(DEPLOY_PARTS)}, got {type_name(deploy_in)}'
        )
    deploy = set()
    for i, part in enumerate(deploy_in):
        if not isinstance(part, str) or part not in DEPLOY_PARTS:
            raise ScenarioError(f"deploy[{i}]: unknown part {short_repr(part)}; known parts: {list(DEPLOY_PARTS)}")
        if part in deploy:
            raise ScenarioError(f"deploy[{i}]: {short_repr(part)} is listed twice")
        deploy.add(part)
    return forces, deploy


def unit_json(t: int, squads: int, cell: int) -> dict:
    """The scenario entry of a unit of type ``t`` (``squads``: infantry only, 10.0, D4) in ``cell``."""
    entry = {"side": SIDE_NAMES[int(UNIT_SIDE[t])], "type": UNIT_NAMES[t]}
    if UNIT_IS_INFANTRY[t]:
        entry["squads"] = int(squads)
    entry["hex"] = hex_json(cell)
    return entry
