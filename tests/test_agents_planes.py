"""The planes network's agent (``planes(path=...)``, ``hotspot.agents.planes_net``):
its hex convolution is a convolution over a hex's six neighbours (D1 map), it
plays only legal actions, and a weights file for other planes is refused in one line."""

from __future__ import annotations

import numpy as np
import pytest

from hotspot.agents.planes_net import ON_GRID, PlanesAgent, PlanesNet, PlanesNetError, hex_conv
from hotspot.agents.registry import make_agent
from hotspot.core.game import Game
from hotspot.core.hexgrid import NEIGHBOUR, ON_MAP
from hotspot.features.planes import AXIAL_COLS, AXIAL_ROWS, NUM_SLOTS, cell_index


def test_hex_conv_sums_a_hex_and_its_six_neighbours():
    """D1: a kernel of ones over the hex taps sums the hex and its map neighbours, nothing else."""
    x = np.zeros((1, 1, AXIAL_ROWS, AXIAL_COLS), np.float32)
    g = np.random.default_rng(0)
    x[0, 0] = g.random((AXIAL_ROWS, AXIAL_COLS)) * ON_GRID
    y = hex_conv(x, np.ones((1, 1, 3, 3), np.float32), np.zeros(1, np.float32))[0, 0]
    for cell in np.flatnonzero(ON_MAP)[::7]:
        r, c = cell_index(cell)
        want = x[0, 0, r, c] + sum(x[0, 0][cell_index(n)] for n in NEIGHBOUR[cell] if n >= 0 and ON_MAP[n])
        assert y[r, c] == pytest.approx(want, abs=1e-5)
    assert not y[ON_GRID == 0].any()


def test_the_agent_plays_only_legal_actions(tmp_path):
    path = tmp_path / "net.npz"
    PlanesNet.init(channels=8, blocks=1, seed=2).save(path)
    agent = make_agent(f"planes(path={path},temperature=1)", seed=4)
    game = Game("standard", seed=5)
    for _ in range(60):
        side = game.current_player()
        mask = game.legal_action_mask()
        a = agent.act(game.observation(side), mask, side)
        assert mask[a]
        game.apply_action(a)
    logits, value = PlanesNet.load(path).forward(np.zeros((2, 43, AXIAL_ROWS, AXIAL_COLS), np.float32))
    assert logits.shape == (2, NUM_SLOTS) and value.shape == (2,) and np.all(np.abs(value) <= 1)


def test_bad_weights_are_one_line_errors(tmp_path):
    bad = tmp_path / "bad.npz"
    np.savez(bad, format=np.array("something else"))
    with pytest.raises(PlanesNetError, match="format"):
        PlanesAgent(path=str(bad))
    other = tmp_path / "other.npz"
    net = PlanesNet.init(channels=4, blocks=0)
    np.savez(other, format=np.array("hotspot-planes-net-1"), planes=np.array(["a", "b"]), **net.arrays)
    with pytest.raises(PlanesNetError, match="other planes"):
        PlanesAgent(path=str(other))
    with pytest.raises(ValueError, match="needs path"):
        PlanesAgent()
