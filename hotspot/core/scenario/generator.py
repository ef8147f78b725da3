"""The random set-up generator (D12): a random legal turn-1 position as a
scenario dict, the same for the same seed."""

from __future__ import annotations

import numpy as np

from ..errors import short_repr
from ..hexgrid import CENTRAL_CELLS, NEIGHBOUR, NUM_CELLS, ON_MAP, PERIMETER
from ..rules_data import (
    LONG,
    ONE_HEX,
    PIECE_NAMES,
    PIECE_SIZE,
    T_CRAWLER,
    T_ENGINEER,
    T_HEAVY_BEAMER,
    T_INFANTRY,
    TRIANGULAR,
    TWO_HEX,
    Z_HOVERCRAFT,
    Z_INFANTRY,
)
from ..state import MAX_PIECES, MAX_UNITS
from .positions import validate_scenario
from .schema import FORMAT, VERSION, coerce_rules, hex_json, letters, rules_overrides, unit_json

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
            raise ValueError(
                f"random_setup: no room for the {what} within the stacking limit ({hard_cap} a hex, 9.1, 9.2)"
            )
        h = room[int(rng.integers(len(room)))]
        load[h] += 1
        placed.append((counter, h))
    return placed


def _crustal_kinds(rng, crustal_hexes: int, max_crustals: int) -> list[int]:
    """3.2, D12: a random mix of crustal types totalling ``crustal_hexes``
    hexes, drawn so that it stays within ``max_crustals`` pieces."""
    kinds = []
    left = crustal_hexes
    while left > 0:
        budget = max_crustals - len(kinds) - 1  # pieces left after this one
        options = [k for k in _CRUSTAL_KINDS if PIECE_SIZE[k] <= left and -(-(left - PIECE_SIZE[k]) // 3) <= budget]
        kind = options[int(rng.integers(len(options)))]
        kinds.append(kind)
        left -= int(PIECE_SIZE[kind])
    return kinds


def _place_crustals(rng, kinds: list[int], taken: set) -> tuple[list[dict], list[int]]:
    """3.2, 6.2, D12: each crustal of ``kinds`` on random molten hexes wholly on
    the map, one piece a hex, none on ``taken`` (the Central Crustal's hexes
    and those placed so far, updated); (the pieces, their cells)."""
    pieces = []
    crustal_cells: list[int] = []
    for n, kind in enumerate(kinds):
        options = [f for f in _footprints(kind) if taken.isdisjoint(f)]
        if not options:
            raise ValueError(f"random_setup: no room left on the map for a {PIECE_NAMES[kind]} crustal")
        cells = options[int(rng.integers(len(options)))]
        taken.update(cells)
        crustal_cells.extend(cells)
        pieces.append({"id": letters(n + 1), "kind": PIECE_NAMES[kind], "hexes": [hex_json(c) for c in cells]})
    return pieces, crustal_cells


def _place_platforms(rng, platforms: int, taken: set) -> list[int]:
    """3.3: ``platforms`` distinct molten perimeter hexes not in ``taken``,
    after the Ziegler set-up."""
    edge = [c for c in range(NUM_CELLS) if PERIMETER[c] and c not in taken]
    if platforms > len(edge):
        raise ValueError(f"random_setup: only {len(edge)} molten perimeter hexes for {platforms} platforms")
    return [edge[int(i)] for i in rng.choice(len(edge), size=platforms, replace=False)]


def _place_units(rng, rules, z_counters, t_counters, crustal_cells, platform_cells) -> list[dict]:
    """The Ziegler's counters on the Central Crustal and the crustals, the
    Technocrat's on the platforms: 9.3, no stress at the start where there is
    room; 9.1, 9.2, never over the limit."""
    stress = rules.stress_threshold if rules.stress_threshold >= 1 else MAX_UNITS
    crustal_limit = min(rules.stack_side_crustal, rules.stack_total_crustal)
    if len(z_counters) + len(t_counters) > MAX_UNITS:
        raise ValueError(f"random_setup: {len(z_counters) + len(t_counters)} counters, at most {MAX_UNITS}")
    z_hexes = [int(c) for c in CENTRAL_CELLS] + crustal_cells
    units = []
    for (t, squads), c in _distribute(
        rng, z_counters, z_hexes, min(stress, crustal_limit), crustal_limit, "Ziegler units"
    ):
        units.append(unit_json(t, squads, c))
    if t_counters and not platform_cells:
        raise ValueError("random_setup: Technocrat units but no attack platform to carry them (3.3)")
    for (t, squads), c in _distribute(
        rng, t_counters, platform_cells, min(stress, rules.stack_platform), rules.stack_platform, "Technocrat units"
    ):
        units.append(unit_json(t, squads, c))
    return units


def random_setup(
    seed: int,
    rules=None,
    *,
    crustal_hexes: int = 18,
    ziegler_squads: int = 42,
    hovercraft: int = 6,
    platforms: int = 5,
    technocrat_squads: int = 12,
    engineers: int = 3,
    crawlers: int = 6,
    heavy_beamers: int = 2,
) -> dict:
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
    counts = dict(
        crustal_hexes=crustal_hexes,
        ziegler_squads=ziegler_squads,
        hovercraft=hovercraft,
        platforms=platforms,
        technocrat_squads=technocrat_squads,
        engineers=engineers,
        crawlers=crawlers,
        heavy_beamers=heavy_beamers,
    )
    for key, value in counts.items():
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"random_setup: {key} must be a non-negative integer, got {short_repr(value)}")
    rules = coerce_rules(rules)
    rng = np.random.default_rng(int(seed))
    max_crustals = MAX_PIECES - 1 - platforms
    if max_crustals < 0 or -(-crustal_hexes // 3) > max_crustals:
        raise ValueError(
            f"random_setup: {crustal_hexes} crustal hexes and {platforms} platforms do not "
            f"fit in {MAX_PIECES - 1} pieces"
        )

    kinds = _crustal_kinds(rng, crustal_hexes, max_crustals)
    taken = set(int(c) for c in CENTRAL_CELLS)
    pieces, crustal_cells = _place_crustals(rng, kinds, taken)
    platform_cells = _place_platforms(rng, platforms, taken)
    for n, c in enumerate(platform_cells):
        pieces.append({"id": str(n + 1), "kind": "platform", "hexes": [hex_json(c)]})
    z_counters = [(Z_INFANTRY, n) for n in _split_squads(rng, ziegler_squads)] + [(Z_HOVERCRAFT, 1)] * hovercraft
    t_counters = (
        [(T_INFANTRY, n) for n in _split_squads(rng, technocrat_squads)]
        + [(T_ENGINEER, 1)] * engineers
        + [(T_CRAWLER, 1)] * crawlers
        + [(T_HEAVY_BEAMER, 1)] * heavy_beamers
    )
    units = _place_units(rng, rules, z_counters, t_counters, crustal_cells, platform_cells)

    data = {
        "format": FORMAT,
        "version": VERSION,
        "name": f"random:{int(seed)}",
        "description": (
            f"Random set-up (D12), seed {int(seed)}: {crustal_hexes} crustal hexes, "
            f"{ziegler_squads} Ziegler squads, {hovercraft} hovercraft; {platforms} "
            f"platforms, {technocrat_squads} Technocrat squads, {engineers} engineers, "
            f"{crawlers} crawlers, {heavy_beamers} heavy beamers."
        ),
        "turn": 1,
        "phase": "A",
        "rules": rules_overrides(rules),
        "pieces": pieces,
        "units": units,
    }
    return validate_scenario(data)
