"""Scenario files: the built-in scenarios, loading by name or path
(``"random"`` / ``"random:SEED"`` included), rules overrides merged over a
scenario, and JSON text written one piece or unit a line.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from importlib import resources

from ..errors import short_repr
from ..jsonfile import JSONInputError, loads
from ..rules_data import RulesOptions
from .generator import random_setup
from .positions import validate_scenario
from .schema import ScenarioError, int_digits_limit


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
        raise ScenarioError(
            f"scenario name {short_repr(name)}: the seed after 'random:' must be a non-negative integer"
        )
    limit = int_digits_limit()
    if limit and len(seed_text) > limit:
        raise ScenarioError(
            f"scenario name 'random:...' ({len(seed_text)} characters): the seed after "
            f"'random:' has more than {limit} digits"
        )
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
            raise ScenarioError(
                f"scenario {short_repr(name_or_path)}: no such built-in scenario "
                f"(built-in: {builtin_scenarios() + ['random', 'random:SEED']}) "
                f"and no such file"
            )
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
    defaults = {"name": "", "description": "", "turn": 1, "phase": "A", "rules": {}, "pieces": [], "units": []}
    # keys without a default (forces, deploy of version 2) are always kept
    out = {k: v for k, v in data.items() if k in ("format", "version") or k not in defaults or v != defaults[k]}
    pieces = []
    for p in data.get("pieces", []):
        default_controller = "technocrat" if p["kind"] == "platform" else "ziegler"
        pieces.append(
            {
                k: v
                for k, v in p.items()
                if not (
                    (k == "damage" and v == 0)
                    or (k == "controller" and v == default_controller)
                    or (k == "neutralized" and v is False)
                    or (k == "control_turn" and v == 0)
                )
            }
        )
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
