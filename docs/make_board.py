"""Draw docs/board.png: a game of Hot Spot as the project renders it.

    python docs/make_board.py            # writes docs/board.png
    python docs/make_board.py out.png --scenario open --seed 3 --turn 3

Two scripted players play the rulebook game (``open``: both sides deploy,
3.2, 3.3) until the given turn; the picture is the environments'
``render_mode="rgb_array"`` drawing of that position (``hotspot.env.rendering``),
written as a PNG with the standard library only.
"""

from __future__ import annotations

import argparse
import struct
import zlib
from pathlib import Path

import numpy as np

from hotspot import Game
from hotspot.arena import make_agent
from hotspot.env.rendering import render_rgb


def write_png(path: Path, image: np.ndarray) -> None:
    """Write an (H, W, 3) uint8 array as an 8-bit RGB PNG."""
    height, width, _ = image.shape
    rows = b"".join(b"\x00" + image[y].tobytes() for y in range(height))  # filter 0 on every row

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    )


def board_after(scenario: str, seed: int, turn: int) -> Game:
    """A game between two scripted players, stopped when turn ``turn`` begins (or at its end)."""
    game = Game(scenario, seed=seed, max_turns=200)
    agents = {side: make_agent("scripted", seed=seed + i) for i, side in enumerate(("ziegler", "technocrat"))}
    while not game.is_terminal() and game.turn < turn:
        side = game.current_player()
        name = "ziegler" if side == 0 else "technocrat"
        action = agents[name].act(game.observation(side), game.legal_action_mask(), side)
        game.apply_action(int(action))
    return game


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default=str(Path(__file__).with_name("board.png")))
    parser.add_argument("--scenario", default="open")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--turn", type=int, default=3)
    parser.add_argument("--radius", type=int, default=16, help="hex radius in pixels")
    args = parser.parse_args(argv)
    game = board_after(args.scenario, args.seed, args.turn)
    write_png(Path(args.out), render_rgb(game.s, radius=args.radius))
    print(f"{args.out}: {args.scenario}, seed {args.seed}, turn {game.turn}, phase {game.phase}, {game.result()}")


if __name__ == "__main__":
    main()
