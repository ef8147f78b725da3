"""Pictures of the board: ``render_rgb`` (an RGB array, numpy only) for
``render_mode="rgb_array"``.

Flat-topped hexes in the odd-q layout of D1.  Colours: molten rock dark red,
the Central Crustal grey, Ziegler crustals sand, Technocrat-controlled
crustals blue, neutralized crustals purple, attack platforms dark slate; a
darker dot marks the front hex of two-hex and long crustals.  Units are
squares in the hex centre: white (left) for Ziegler, black (right) for
Technocrat, taller for bigger stacks.
"""

from __future__ import annotations

import functools

import numpy as np

from hotspot.core.hexgrid import MAP_COLS, MAP_ROWS, cell_of
from hotspot.core.render import render_text
from hotspot.core.rules_data import CENTRAL, LONG, PLATFORM, TECHNOCRAT, TWO_HEX, UNIT_SIDE
from hotspot.core.state import MAX_UNITS

RADIUS = 14
COLOURS = {
    "molten": (120, 22, 10),
    "central": (150, 150, 150),
    "crustal": (214, 190, 140),
    "techno": (90, 130, 200),
    "neutralized": (150, 90, 170),
    "platform": (60, 70, 85),
    "border": (40, 20, 15),
    "front": (120, 100, 60),
    "ziegler": (250, 250, 250),
    "technocrat": (10, 10, 10),
}


def hex_centre(col: int, row: int, radius: float = RADIUS) -> tuple[float, float]:
    """Pixel centre (x, y) of map hex (col, row)."""
    x = radius + 1.5 * radius * col
    y = np.sqrt(3) / 2 * radius * (1 + 2 * row + (col & 1))
    return x, y


@functools.lru_cache(maxsize=4)
def _layout(radius: int = RADIUS):
    width = int(np.ceil(1.5 * radius * (MAP_COLS - 1) + 2 * radius)) + 1
    height = int(np.ceil(np.sqrt(3) * radius * (MAP_ROWS + 0.5))) + 1
    cells, centres = [], []
    for col in range(MAP_COLS):
        for row in range(MAP_ROWS):
            cells.append(cell_of(col, row))
            centres.append(hex_centre(col, row, radius))
    centres = np.array(centres)
    ys, xs = np.mgrid[0:height, 0:width]
    d1 = np.full((height, width), np.inf)
    d2 = np.full((height, width), np.inf)
    nearest = np.zeros((height, width), dtype=np.int64)
    reach = int(np.ceil(1.6 * radius))
    for i, (cx, cy) in enumerate(centres):  # each hex rasterizes its own neighbourhood
        x0, x1 = max(int(cx) - reach, 0), min(int(cx) + reach + 1, width)
        y0, y1 = max(int(cy) - reach, 0), min(int(cy) + reach + 1, height)
        d = np.hypot(xs[y0:y1, x0:x1] - cx, ys[y0:y1, x0:x1] - cy)
        b1, b2, bn = d1[y0:y1, x0:x1], d2[y0:y1, x0:x1], nearest[y0:y1, x0:x1]
        closer = d < b1
        b2[:] = np.where(closer, b1, np.minimum(b2, d))
        bn[closer] = i
        b1[closer] = d[closer]
    inside = d1 <= radius  # outside every hex: background
    with np.errstate(invalid="ignore"):
        border = (d2 - d1 < 1.6) | ~inside
    dx = xs - centres[nearest, 0]
    dy = ys - centres[nearest, 1]
    return dict(
        width=width, height=height, cell=np.array(cells)[nearest], inside=inside, border=border, dx=dx, dy=dy, d1=d1
    )


def render_rgb(s, radius: int = RADIUS) -> np.ndarray:
    """The board of state record ``s`` as an ``(H, W, 3)`` uint8 image."""
    lay = _layout(radius)
    cell = lay["cell"]
    board = s["board"][cell]
    kind = np.where(board >= 0, s["piece_kind"][np.maximum(board, 0)], -1)
    controller = np.where(board >= 0, s["piece_controller"][np.maximum(board, 0)], -1)
    neutral = np.where(board >= 0, s["piece_neutralized"][np.maximum(board, 0)], 0)
    img = np.empty((lay["height"], lay["width"], 3), dtype=np.uint8)
    img[:] = COLOURS["molten"]
    img[kind == CENTRAL] = COLOURS["central"]
    crustal = (kind > CENTRAL) & (kind != PLATFORM)
    img[crustal] = COLOURS["crustal"]
    img[crustal & (controller == TECHNOCRAT)] = COLOURS["techno"]
    img[crustal & (neutral > 0)] = COLOURS["neutralized"]
    img[kind == PLATFORM] = COLOURS["platform"]
    front = np.zeros_like(board, dtype=bool)
    for k in np.flatnonzero((s["piece_kind"] == TWO_HEX) | (s["piece_kind"] == LONG)):
        front |= cell == s["piece_cells"][k, 0]
    img[front & (lay["d1"] < radius * 0.25)] = COLOURS["front"]
    counts = np.zeros((2, len(s["board"])), dtype=np.int64)
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t > 0:
            counts[UNIT_SIDE[t], int(s["unit_cell"][u])] += 1
    dx, dy = lay["dx"], lay["dy"]
    for side, sign, colour in ((0, -1, "ziegler"), (TECHNOCRAT, 1, "technocrat")):
        n = counts[side][cell]
        half = radius * 0.12 + radius * 0.06 * np.minimum(n, 9)
        marker = (n > 0) & (sign * dx >= 1) & (sign * dx <= radius * 0.45) & (np.abs(dy) <= half)
        img[marker] = COLOURS[colour]
    img[lay["border"]] = COLOURS["border"]
    return img


def render_state(s, mode):
    """What the environments' ``render()`` returns for ``render_mode`` ``mode``."""
    if mode == "ansi":
        return render_text(s)
    if mode == "rgb_array":
        return render_rgb(s)
    return None
