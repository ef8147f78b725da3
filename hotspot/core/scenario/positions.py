"""Scenario <-> state: a scenario is checked by building its position on a
state (:func:`validate_scenario`, :func:`scenario_to_state`), games start
from that position (:func:`start_states`), and a state's position is written
back as a scenario (:func:`state_to_scenario`).

Every check beyond the JSON types (:mod:`.schema`) is the core's own
(``placement.place_piece``, ``place_unit``, ``position_errors``, ``stacking``);
their errors are re-raised as :class:`ScenarioError` naming the entry.
"""

from __future__ import annotations

import json
import warnings

import numpy as np

from ..actions import start
from ..dice import seed_state
from ..errors import short_repr
from ..events import no_events
from ..hexgrid import CENTRAL_CELLS, ON_MAP
from ..limits import check_max_turns
from ..placement import blank_state, place_piece, place_unit, position_errors, shape_error
from ..rules_data import (
    NO_PIECE,
    NO_UNIT,
    PHASE_LETTERS,
    PHASE_OVER,
    PIECE_NAMES,
    PIECE_SIZE,
    PLATFORM,
    POOL_KEYS,
    POOL_NAMES,
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
    T_CRAWLER,
    T_ENGINEER,
    T_HEAVY_BEAMER,
    T_INFANTRY,
    Z_HOVERCRAFT,
    Z_INFANTRY,
    RulesOptions,
    unit_type,
)
from ..setup import pools_fit, setup_phase_for
from ..stacking import side_limit, stacking_ok, total_limit
from ..state import LAST_TURN, MAX_PIECES, MAX_UNITS
from ..units import count_units
from .schema import (
    DEPLOY_PARTS,
    FORMAT,
    MAX_LABEL,
    PIECE_KEYS,
    PLAYABLE_PHASES,
    READABLE_VERSIONS,
    SCENARIO_KINDS,
    TOP_KEYS,
    UNIT_KEYS,
    VERSION,
    ScenarioError,
    check_keys,
    check_seed,
    forces_json,
    format_label,
    hex_cell,
    hex_json,
    is_int,
    parse_label,
    parse_setup,
    rules_overrides,
    type_name,
    unit_json,
)

# ------------------------------------------------------------ dict -> state


def _build(data) -> tuple[np.ndarray, dict]:
    """Check ``data`` and build its position: (batch of one state, normalized scenario dict).

    Raises :class:`ScenarioError` naming the first offending entry.  Nothing
    is returned unless the whole scenario is legal.
    """
    if not isinstance(data, dict):
        raise ScenarioError(f"scenario: must be an object, got {type_name(data)}")
    check_keys("scenario", data, TOP_KEYS, ("format", "version"))
    if data["format"] != FORMAT:
        raise ScenarioError(f"format: must be {FORMAT!r}, got {short_repr(data['format'])}")
    if not is_int(data["version"]) or data["version"] not in READABLE_VERSIONS:
        raise ScenarioError(
            f"version: this library reads versions {list(READABLE_VERSIONS)}, got {short_repr(data['version'])}"
        )
    if data["version"] == 1:
        for key in ("forces", "deploy"):
            if key in data:
                raise ScenarioError(f"{key}: set-up by the players (D21) needs scenario version 2")
    name = data.get("name", "")
    description = data.get("description", "")
    for key, value in (("name", name), ("description", description)):
        if not isinstance(value, str):
            raise ScenarioError(f"{key}: must be a string, got {type_name(value)}")

    # rules first: the stacking limits and damage ratings below are the scenario's own
    rules_in = data.get("rules", {})
    if not isinstance(rules_in, dict):
        raise ScenarioError(f"rules: must be an object of rules options, got {type_name(rules_in)}")
    if "turn_limit" in rules_in:  # version-1 files written before D19 was revised
        warnings.warn(
            "scenario rules: option 'turn_limit' is ignored: the rulebook has no turn "
            "limit (5.0, D19 revised); pass max_turns to a harness instead",
            DeprecationWarning,
            stacklevel=3,
        )
        rules_in = {k: v for k, v in rules_in.items() if k != "turn_limit"}
    try:
        rules = RulesOptions.from_dict(rules_in)
    except (ValueError, TypeError) as exc:
        raise ScenarioError(f"rules: {exc}") from None

    turn = data.get("turn", 1)
    if not is_int(turn) or not 1 <= turn <= LAST_TURN:
        raise ScenarioError(
            f"turn: must be an integer >= 1 (4.0) and <= {LAST_TURN} (the state's turn counter), got {short_repr(turn)}"
        )
    phase_letter = data.get("phase", "A")
    if not isinstance(phase_letter, str) or phase_letter not in PLAYABLE_PHASES:
        raise ScenarioError(
            f"phase: must be one of the letters {''.join(PLAYABLE_PHASES)} (4.0), got {short_repr(phase_letter)}"
        )

    pieces_in = data.get("pieces", [])
    units_in = data.get("units", [])
    for key, value in (("pieces", pieces_in), ("units", units_in)):
        if not isinstance(value, (list, tuple)):
            raise ScenarioError(f"{key}: must be an array, got {type_name(value)}")
    if len(pieces_in) > MAX_PIECES - 1:
        raise ScenarioError(
            f"pieces: {len(pieces_in)} pieces, at most {MAX_PIECES - 1} crustals and attack platforms fit in a state"
        )
    if len(units_in) > MAX_UNITS:
        raise ScenarioError(f"units: {len(units_in)} units, at most {MAX_UNITS} fit in a state")

    states = blank_state(rules)
    s = states[0]
    s["turn"] = turn
    s["phase"] = PHASE_LETTERS.index(phase_letter)

    forces, deploy = parse_setup(data)
    pieces = _build_pieces(states, pieces_in, turn, rules)
    units = _build_units(states, units_in)

    errors = position_errors(states)
    if errors:  # a safety net: the checks above should have caught everything
        raise ScenarioError("position: " + "; ".join(errors))
    _set_pools(states, forces, deploy, turn, phase_letter)
    normalized = {
        "format": FORMAT,
        "version": VERSION,
        "name": name,
        "description": description,
        "turn": int(turn),
        "phase": phase_letter,
        "rules": rules_overrides(rules),
    }
    if deploy:
        normalized["forces"] = forces_json(forces)
        normalized["deploy"] = [part for part in DEPLOY_PARTS if part in deploy]
    normalized["pieces"] = pieces
    normalized["units"] = units
    return states, normalized


def _preset_counts(s) -> list[int]:
    """What the position already holds of each force pool (3.2, 3.3)."""
    counts = [0] * len(POOL_KEYS)
    for k in range(1, MAX_PIECES):
        kind = int(s["piece_kind"][k])
        if kind == PLATFORM:
            counts[POOL_T_PLATFORMS] += 1
        elif kind != NO_PIECE:
            counts[POOL_Z_CRUSTAL_HEXES] += int(PIECE_SIZE[kind])
    pool_of = {
        Z_INFANTRY: POOL_Z_SQUADS,
        Z_HOVERCRAFT: POOL_Z_HOVERCRAFT,
        T_INFANTRY: POOL_T_SQUADS,
        T_ENGINEER: POOL_T_ENGINEERS,
        T_CRAWLER: POOL_T_CRAWLERS,
        T_HEAVY_BEAMER: POOL_T_HEAVY_BEAMERS,
    }
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
        raise ScenarioError(
            f"deploy: the players set up before turn 1, phase A (3.2, 3.3, 4.0); this "
            f"scenario starts at turn {turn}, phase {phase_letter}"
        )
    preset = _preset_counts(s)
    for part, pools in DEPLOY_PARTS.items():
        if part not in deploy:
            continue
        for i in pools:
            left = forces[i] - preset[i]
            if left < 0:
                raise ScenarioError(
                    f"deploy: the scenario presets {preset[i]} {POOL_NAMES[i]}, more than the "
                    f"force pool of {forces[i]} (3.2, 3.3, D4)"
                )
            s["pool"][i] = left
    bad = int(pools_fit(s))
    if bad >= 0:
        raise ScenarioError(
            f"deploy: the {POOL_NAMES[bad]} left to set up ({int(s['pool'][bad])}) do not fit "
            f"(no room within the stacking limits 9.1/9.2, the counter cap or the "
            f"{MAX_PIECES - 1} pieces and {MAX_UNITS} counters a state holds)"
        )
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
            raise ScenarioError(f"{where}: must be an object, got {type_name(p)}")
        check_keys(where, p, PIECE_KEYS, ("kind", "hexes"))
        kind_name = p["kind"]
        if not isinstance(kind_name, str) or kind_name not in SCENARIO_KINDS:
            raise ScenarioError(f"{where}: unknown kind {short_repr(kind_name)}; known kinds: {list(SCENARIO_KINDS)}")
        kind = PIECE_NAMES.index(kind_name)
        hexes = p["hexes"]
        if not isinstance(hexes, (list, tuple)):
            raise ScenarioError(f"{where}: hexes must be an array of [col, row], got {type_name(hexes)}")
        cells = [hex_cell(where, f"hexes[{j}]", h) for j, h in enumerate(hexes)]
        err = shape_error(kind, cells)
        if err:
            raise ScenarioError(f"{where}: {err}")
        for c in cells:  # 6.2, D12: one piece a hex, only molten hexes
            if c in owner:
                raise ScenarioError(
                    f"{where}: hex {hex_json(c)} is already taken by {owner[c]}; "
                    f"only one crustal or attack platform a hex (6.2)"
                )
        label = None
        if "id" in p:
            label = parse_label(where, kind, p["id"])
            family = used_labels[kind == PLATFORM]
            if label in family:
                raise ScenarioError(f"{where}: id {short_repr(p['id'])} is also the id of {family[label]}")
            family[label] = where
        damage = p.get("damage", 0)
        if not is_int(damage):
            raise ScenarioError(f"{where}: damage must be an integer, got {short_repr(damage)}")
        default_controller = "technocrat" if kind == PLATFORM else "ziegler"
        controller = p.get("controller", default_controller)
        if controller not in SIDE_NAMES:
            raise ScenarioError(f"{where}: controller must be one of {list(SIDE_NAMES)}, got {short_repr(controller)}")
        neutralized = p.get("neutralized", False)
        if not isinstance(neutralized, bool):
            raise ScenarioError(f"{where}: neutralized must be true or false, got {short_repr(neutralized)}")
        control_turn = p.get("control_turn", 0)
        if not is_int(control_turn) or not 0 <= control_turn <= turn:
            raise ScenarioError(
                f"{where}: control_turn must be an integer from 0 to the turn ({turn}) "
                f"(15.4), got {short_repr(control_turn)}"
            )
        if kind == PLATFORM and turn > rules.platform_turns:
            raise ScenarioError(
                f"{where}: attack platforms break up in the Crustal Control phase of "
                f"turn {rules.platform_turns} (14.5); none can be in play on turn {turn}"
            )
        for c in cells:
            owner[c] = where
        entries.append(
            (where, kind, cells, label, int(damage), SIDE_NAMES.index(controller), neutralized, int(control_turn))
        )

    # D12 / 2.2.2: pieces without an id get the first free letter (crustals) or number (platforms)
    normalized = []
    for where, kind, cells, label, damage, controller, neutralized, control_turn in entries:
        if label is None:
            family = used_labels[kind == PLATFORM]
            label = next(n for n in range(1, MAX_LABEL + 1) if n not in family)
            family[label] = where
        try:
            place_piece(
                states,
                kind,
                cells,
                controller=controller,
                damage=damage,
                neutralized=neutralized,
                label=label,
                control_turn=control_turn,
            )
        except ValueError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        normalized.append(
            {
                "id": format_label(kind, label),
                "kind": PIECE_NAMES[kind],
                "hexes": [hex_json(c) for c in cells],
                "damage": damage,
                "controller": SIDE_NAMES[controller],
                "neutralized": neutralized,
                "control_turn": control_turn,
            }
        )
    return normalized


def _build_units(states, units_in) -> list[dict]:
    """Place every unit (8.2, D3, 9.1, 9.2, 10.0); returns the normalized entries."""
    s = states[0]
    normalized = []
    for i, u in enumerate(units_in):
        where = f"units[{i}]"
        if not isinstance(u, dict):
            raise ScenarioError(f"{where}: must be an object, got {type_name(u)}")
        check_keys(where, u, UNIT_KEYS, ("side", "type", "hex"))
        side_name = u["side"]
        if side_name not in SIDE_NAMES:
            raise ScenarioError(f"{where}: side must be one of {list(SIDE_NAMES)}, got {short_repr(side_name)}")
        side = SIDE_NAMES.index(side_name)
        if not isinstance(u["type"], str):
            raise ScenarioError(f"{where}: type must be a string, got {type_name(u['type'])}")
        try:
            t = unit_type(side, u["type"])
        except ValueError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        squads = u.get("squads", 1)
        if not is_int(squads):
            raise ScenarioError(f"{where}: squads must be an integer, got {short_repr(squads)}")
        cell = hex_cell(where, "hex", u["hex"])
        hx = hex_json(cell)
        if not ON_MAP[cell]:
            raise ScenarioError(f"{where}: hex {hx} is off the map; units cannot stand there (D3)")
        if s["board"][cell] < 0:
            raise ScenarioError(
                f"{where}: hex {hx} is molten; units stand on crustals, attack platforms or the Central Crustal (8.2)"
            )
        if count_units(s, cell, 1 - side) > 0:
            raise ScenarioError(
                f"{where}: hex {hx} already holds {SIDE_NAMES[1 - side]} units; a "
                f"scenario cannot hold a combat in progress (8.3, 12.1)"
            )
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
                f"{'on an attack platform (9.2)' if on_platform else 'in a crustal hex (9.1, 9.4)'})"
            )
        normalized.append(unit_json(t, squads, cell))
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
        pieces.append(
            {
                "id": format_label(kind, int(s["piece_label"][k])),
                "kind": PIECE_NAMES[kind],
                "hexes": [hex_json(c) for c in cells],
                "damage": int(s["piece_damage"][k]),
                "controller": SIDE_NAMES[int(s["piece_controller"][k])],
                "neutralized": bool(s["piece_neutralized"][k]),
                "control_turn": int(s["piece_control_turn"][k]),
            }
        )
    units = []
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t == NO_UNIT:
            continue
        units.append(unit_json(t, int(s["unit_squads"][u]), int(s["unit_cell"][u])))
    out = {
        "format": FORMAT,
        "version": VERSION,
        "name": name,
        "description": description,
        "turn": int(s["turn"]),
        "phase": PHASE_LETTERS[phase],
        "rules": rules_overrides(RulesOptions.from_record(s["rules"])),
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
        out["forces"] = forces_json(forces)
        out["deploy"] = deploy
    out["pieces"] = pieces
    out["units"] = units
    return out
