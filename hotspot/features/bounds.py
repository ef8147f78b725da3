"""Each observation entry's range, and the normalised forms of an observation.

The environments observe with ``encoding.encode`` (the layout is in
``hotspot.features.encoding``).  ``ObservationBounds(templates)`` gives every
entry's low and high for the starting positions an environment plays from
(their rules options, forces and turn limit): the real ranges of the rules,
not the limits of the integer types, so that every observation lies in its
space.  The ranges, entry by entry:

``board`` planes (``[0, 1]`` unless said): ``own_damage`` ``[0, R]``, R the
    largest damage rating of the rules (D7; ``encode`` clips a piece's damage
    at its rating, 14.6); the six unit planes ``[0, F_t]``, F_t the squads (or
    counters, for the units of one squad) of that type the forces hold
    (3.2, 3.3, D4: the scenario's units and set-up pools, or the rulebook's
    forces if larger: 42 Ziegler infantry squads, 6 hovercraft, 12 Technocrat
    infantry squads, 6 crawlers, 2 heavy beamers, 3 engineers);
    ``enemy_unknown`` and ``own_can_move`` ``[0, C]``, C the most counters
    one side may have (its squads and other units).
``units`` columns: present, own, done, attacking, selected ``[0, 1]``; type
    ``[-1, 6]`` (-1 unknown, D20); squads ``[-1, 3]`` (10.0, D4; -1 unknown);
    col ``[0, 14]``, row ``[0, 20]`` (D1: a unit stands on a map hex); moves
    ``[0, M]``, M the largest movement allowance of the rules (8.1, 13.1).
``pieces`` columns: present, own, neutralized, done, selected ``[0, 1]``;
    kind ``[0, 6]``; damage ``[-1, R]`` (-1 unknown); rating ``[0, R]``;
    col ``[-4, 18]`` and row ``[-4, 24]`` of each of its three hexes (a piece
    may stand partly off the map, 6.9, D3; -1 for a hex it does not have);
    moves ``[0, P]``, P the largest crustal or platform allowance (6.3, 6.7;
    1 for a maneuver, 6.4-6.6).
``globals``: turn ``[1, T]``, T the env's ``max_turns`` (``TURN_CAP`` with
    no limit); max_turns ``[0, TURN_CAP]``; platform turns ``[1, B]``, B
    the rules option ``platform_turns`` (14.5); side ``[0, 1]``; to move ``[-1, 1]``;
    result ``[0, 2]``; truncated ``[0, 1]``; actions ``[0, ACTIONS_CAP]``;
    the phase one-hot ``[0, 1]``; each set-up pool ``[0, its force]`` (3.2,
    3.3, D21); set-up item ``[-1, 14]``, its col ``[-1, 14]`` and row
    ``[-1, 20]``; loss side ``[-1, 1]``, its col and row as the set-up's.

Normalised forms (the environments' ``observation="flat"`` and
``"image"``):

``flat(obs)``
    one float32 vector in ``[0, 1]``: every entry of ``board``, ``units``,
    ``pieces`` and ``globals`` in that order (C order), each mapped by
    ``(x - low) / (high - low)``.
``image(obs)``
    ``{"board": uint8 (19, 63, 45), "features": float32}``: the hex planes
    as a channel-first image, each plane scaled to ``floor(255 x / high + 1/2)``
    and each hex drawn as an ``IMAGE_SCALE`` x ``IMAGE_SCALE`` block (so
    that the image is at least the 36 x 36 of Stable-Baselines3's default
    CNN), and the flat form of the unit, piece and global tables.

Both take one observation or a batch (a leading axis on every array).
"""

from __future__ import annotations

import numpy as np

from hotspot.core.hexgrid import MAP_COLS, MAP_ROWS, MARGIN
from hotspot.core.rules_data import (
    ITEM_POOL,
    ITEM_UNIT_TYPE,
    NUM_ITEMS,
    NUM_POOLS,
    NUM_UNIT_TYPES,
    PLATFORM,
    RULEBOOK_FORCES,
    UNIT_SIDE,
)

from .encoding import (
    ACTIONS_CAP,
    GLOBAL_FEATURES,
    PIECE_FEATURES,
    PLANE_NAMES,
    TURN_CAP,
    UNIT_FEATURES,
    observation_shapes,
)

#: each hex of ``image`` is a block of this many pixels a side
IMAGE_SCALE = 3
#: the most squads in one infantry counter (10.0, D4)
MAX_SQUADS = 3
# the unit type each set-up pool places (0 for the crustal hexes and platforms)
_POOL_UNIT_TYPE = np.zeros(NUM_POOLS, dtype=np.int64)
for _item in range(NUM_ITEMS):
    if ITEM_UNIT_TYPE[_item] > 0:
        _POOL_UNIT_TYPE[ITEM_POOL[_item]] = ITEM_UNIT_TYPE[_item]
_UNIT_PLANES = {
    t: PLANE_NAMES.index(name)
    for t, name in enumerate(
        ("", "z_infantry", "z_hovercraft", "t_infantry", "t_crawler", "t_heavy_beamer", "t_engineer")
    )
    if name
}


def forces(templates) -> np.ndarray:
    """The most squads (units of one squad: counters) of each unit type that
    any of ``templates`` holds, on the map and in its set-up pools, and never
    fewer than the rulebook's forces (3.2, 3.3, D4)."""
    most = np.zeros(NUM_UNIT_TYPES, dtype=np.int64)
    rulebook = np.zeros(NUM_UNIT_TYPES, dtype=np.int64)
    for pool in range(NUM_POOLS):
        rulebook[_POOL_UNIT_TYPE[pool]] += int(RULEBOOK_FORCES[pool])
    for s in np.atleast_1d(templates):
        here = np.zeros(NUM_UNIT_TYPES, dtype=np.int64)
        types = s["unit_type"].astype(np.int64)
        np.add.at(here, types[types > 0], s["unit_squads"][types > 0].astype(np.int64))
        for pool in range(NUM_POOLS):
            here[_POOL_UNIT_TYPE[pool]] += int(s["pool"][pool])
        most = np.maximum(most, here)
    most[0] = 0
    return np.maximum(most, np.where(np.arange(NUM_UNIT_TYPES) > 0, rulebook, 0))


class ObservationBounds:
    """The low and high of every observation entry for an environment that
    plays from ``templates`` (its starting states, ``env.templates``), and
    the observation's normalised forms ``flat`` and ``image``."""

    def __init__(self, templates):
        templates = np.atleast_1d(templates)
        rules = templates["rules"]
        rating = int(rules["damage_rating"].max())
        unit_moves = int(rules["movement"].max())
        piece_moves = int(max(rules["one_hex_move"].max(), rules["platform_move"].max(), 1))
        max_turns = int(templates["max_turns"].max())
        platform_turns = int(rules["platform_turns"].max())
        force = forces(templates)
        counters = max(int(force[UNIT_SIDE == side].sum()) for side in (0, 1))
        pools = np.maximum(templates["pool"].max(axis=0).astype(np.int64), RULEBOOK_FORCES.astype(np.int64))
        shapes = observation_shapes()
        low = {name: np.zeros(shape, dtype=np.int64) for name, (shape, _) in shapes.items()}
        high = {name: np.ones(shape, dtype=np.int64) for name, (shape, _) in shapes.items()}

        def column(table, features, name, lo, hi):
            low[table][..., features.index(name)] = lo
            high[table][..., features.index(name)] = hi

        high["board"][PLANE_NAMES.index("own_damage")] = rating
        for t, plane in _UNIT_PLANES.items():
            high["board"][plane] = force[t]
        high["board"][PLANE_NAMES.index("enemy_unknown")] = counters
        high["board"][PLANE_NAMES.index("own_can_move")] = counters
        column("units", UNIT_FEATURES, "type", -1, NUM_UNIT_TYPES - 1)
        column("units", UNIT_FEATURES, "squads", -1, MAX_SQUADS)
        column("units", UNIT_FEATURES, "col", 0, MAP_COLS - 1)
        column("units", UNIT_FEATURES, "row", 0, MAP_ROWS - 1)
        column("units", UNIT_FEATURES, "moves", 0, unit_moves)
        column("pieces", PIECE_FEATURES, "kind", 0, PLATFORM)
        column("pieces", PIECE_FEATURES, "damage", -1, rating)
        column("pieces", PIECE_FEATURES, "rating", 0, rating)
        for i in range(3):
            column("pieces", PIECE_FEATURES, f"col{i}", -MARGIN, MAP_COLS - 1 + MARGIN)
            column("pieces", PIECE_FEATURES, f"row{i}", -MARGIN, MAP_ROWS - 1 + MARGIN)
        column("pieces", PIECE_FEATURES, "moves", 0, piece_moves)
        g = {name: i for i, name in enumerate(GLOBAL_FEATURES)}
        for name, lo, hi in (
            ("turn", 1, max_turns if max_turns > 0 else TURN_CAP),
            ("max_turns", 0, TURN_CAP),
            ("platform_turns", 1, platform_turns),
            ("to_move", -1, 1),
            ("result", 0, 2),
            ("actions", 0, ACTIONS_CAP),
            ("setup_item", -1, NUM_ITEMS - 1),
            ("setup_col", -1, MAP_COLS - 1),
            ("setup_row", -1, MAP_ROWS - 1),
            ("loss_side", -1, 1),
            ("loss_col", -1, MAP_COLS - 1),
            ("loss_row", -1, MAP_ROWS - 1),
        ):
            low["globals"][g[name]] = lo
            high["globals"][g[name]] = hi
        for pool in range(NUM_POOLS):
            high["globals"][g[f"pool_{pool}"]] = pools[pool]
        for name, (_, dtype) in shapes.items():  # a range of one value says nothing; keep every range open
            high[name] = np.minimum(np.maximum(high[name], low[name] + 1), np.iinfo(dtype).max)
        self.dtypes = {name: dtype for name, (_, dtype) in shapes.items()}
        self.low = {name: low[name].astype(self.dtypes[name]) for name in shapes}
        self.high = {name: high[name].astype(self.dtypes[name]) for name in shapes}
        self._offset = {name: low[name].astype(np.float32) for name in shapes}
        # a division of integers exact in float32 (not a product with 1 / span) keeps high at 1.0 exactly
        self._span = {name: (high[name] - low[name]).astype(np.float32) for name in shapes}
        self.plane_high = high["board"][:, 0, 0].astype(np.int64)
        self.flat_size = sum(int(np.prod(shape)) for shape, _ in shapes.values())
        self.features_size = self.flat_size - int(np.prod(shapes["board"][0]))
        self.image_shape = (len(PLANE_NAMES), MAP_ROWS * IMAGE_SCALE, MAP_COLS * IMAGE_SCALE)

    def contains(self, obs) -> bool:
        """Whether every entry of observation dict ``obs`` (one or a batch) lies in its range."""
        return all(((obs[k] >= self.low[k]) & (obs[k] <= self.high[k])).all() for k in obs)

    def _normalised(self, obs, names) -> np.ndarray:
        batch = np.shape(obs[names[0]])[: np.ndim(obs[names[0]]) - np.ndim(self.low[names[0]])]
        parts = [
            ((np.asarray(obs[k], dtype=np.float32) - self._offset[k]) / self._span[k]).reshape(batch + (-1,))
            for k in names
        ]
        return np.concatenate(parts, axis=-1)

    def flat(self, obs) -> np.ndarray:
        """The flat float32 form in ``[0, 1]`` of a full observation dict (or a batch)."""
        return self._normalised(obs, ("board", "units", "pieces", "globals"))

    def image(self, obs) -> dict:
        """``{"board": channel-first uint8 image, "features": float32 in [0, 1]}`` of a full observation dict."""
        board = np.asarray(obs["board"]).astype(np.int64)
        high = self.plane_high[:, None, None]
        scaled = ((board * 255 + high // 2) // high).astype(np.uint8)
        image = np.repeat(np.repeat(scaled, IMAGE_SCALE, axis=-2), IMAGE_SCALE, axis=-1)
        return {"board": image, "features": self._normalised(obs, ("units", "pieces", "globals"))}


__all__ = ["IMAGE_SCALE", "MAX_SQUADS", "ObservationBounds", "forces"]
