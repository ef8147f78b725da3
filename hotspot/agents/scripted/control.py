"""Crustal Control phase of the scripted player (H, the Technocrat's)."""

from __future__ import annotations

from hotspot.core._jit import jit
from hotspot.core.actions import A_END_PHASE, A_SELECT_PIECE
from hotspot.core.state import MAX_PIECES

from .common import piece_min_dcen


@jit
def t_control(o, mask):
    """15.4: neutralize a controlled crustal only when it touches the Central
    Crustal (it can then never revert and needs no more movement)."""
    for k in range(1, MAX_PIECES):
        if mask[A_SELECT_PIECE + k] and piece_min_dcen(o, k) <= 1:
            return A_SELECT_PIECE + k
    return A_END_PHASE
