"""A potential for reward shaping: how a position stands for one side, in [-1, 1].

The environments' optional shaped reward (``reward_shaping``, off by
default) adds ``w * (gamma * Phi(s') - Phi(s))`` to each step's reward,
potential-based shaping (Ng, Harada and Russell, 1999): the optimal policies
of the shaped task are those of the game's +1/-1, whatever ``Phi``.

``Phi`` for the Technocrat is the mean of three terms, each in [-1, 1]:

material
    ``(M_T - M_Z) / (M_T + M_Z)``: each side's attack plus defense factors
    times squads over its units on the map (the rules' ``attack`` and
    ``defense``, D4, D5): the losses each side has inflicted (12.5, 11.2,
    8.2).
crustals
    ``2 * H / N - 1``: H the crustals the Technocrat controls (15.2) of the N
    crustals in play (the Central Crustal and the platforms aside).
engineers
    ``2 * min(E, 3) / 3 - 1``: E the Technocrat's engineer squads on the map
    (5.0, D19: with none left he has lost).

``Phi`` for the Ziegler player is ``-Phi`` of the Technocrat: the game is
zero-sum.  Units still in a set-up pool (3.2, 3.3, D21) do not count yet.
The learner's environment (``hotspot.env.LearnerEnv``) may add two more
potentials (``progress``, ``central``): the engineers' way to the Central
Crustal, which the material term does not see.
The potentials read the true state, hidden information included (D20): it
is part of the reward, which the learner does not observe before it is paid.
"""

from __future__ import annotations

import numpy as np

from hotspot.core.hexgrid import DISTANCE_TO_CENTRAL
from hotspot.core.rules_data import (
    CENTRAL,
    NO_PIECE,
    PLATFORM,
    T_ENGINEER,
    T_INFANTRY,
    TECHNOCRAT,
    UNIT_SIDE,
    Z_HOVERCRAFT,
    Z_INFANTRY,
)

_DISTANCE = np.asarray(DISTANCE_TO_CENTRAL, np.float64)
_MAX_DISTANCE = 13.0  # the largest distance of an on-map hex to the Central Crustal


def potential(states, side: int):
    """``Phi`` of a state record (a float) or of a batch of states (an array), for ``side`` (0 or 1)."""
    states = np.asarray(states)
    types = states["unit_type"].astype(np.int64)
    present = types > 0
    kinds = np.where(present, types, 0)
    squads = np.where(present, states["unit_squads"], 0).astype(np.float64)
    rules = states["rules"]
    factors = rules["attack"].astype(np.float64) + rules["defense"]
    strength = np.take_along_axis(factors, kinds, axis=-1) * squads
    technocrat = present & (UNIT_SIDE[kinds] == TECHNOCRAT)
    m_t = np.where(technocrat, strength, 0.0).sum(axis=-1)
    m_z = np.where(present & ~technocrat, strength, 0.0).sum(axis=-1)
    material = (m_t - m_z) / np.maximum(m_t + m_z, 1.0)
    piece = states["piece_kind"]
    crustal = (piece != NO_PIECE) & (piece != CENTRAL) & (piece != PLATFORM)
    held = (crustal & (states["piece_controller"] == TECHNOCRAT)).sum(axis=-1)
    crustals = 2.0 * held / np.maximum(crustal.sum(axis=-1), 1) - 1.0
    engineers = np.where(types == T_ENGINEER, squads, 0.0).sum(axis=-1)
    engineer_term = 2.0 * np.minimum(engineers, 3.0) / 3.0 - 1.0
    phi = (material + crustals + engineer_term) / 3.0
    phi = phi if side == TECHNOCRAT else -phi
    return float(phi) if np.ndim(phi) == 0 else phi


def progress(s, side: int) -> float:
    """How near the Technocrat's engineers are to winning (15.5, 5.0), in [-1, 1], for ``side``.

    Each engineer squad on the map counts ``1 - d / 13`` (``d`` its hex's
    distance to the Central Crustal; a squad on a platform is at the
    platform's hex), half as much when it stands on a crustal with no other
    Technocrat combat unit (12.3: engineers alone are eliminated by any
    attack), nothing on a platform from the turn the platforms break up
    (14.5); the sum (at most 3) is mapped to [-1, 1].  -1 with no engineer
    squad left (5.0)."""
    types = s["unit_type"].astype(np.int64)
    cells = s["unit_cell"].astype(np.int64)
    engineers = (types == T_ENGINEER) & (cells >= 0)
    if not engineers.any():
        phi = -1.0
    else:
        at = np.maximum(cells, 0)
        weight = s["unit_squads"] * (1.0 - np.minimum(_DISTANCE[at], _MAX_DISTANCE) / _MAX_DISTANCE)
        piece = s["board"][at]
        on_platform = (piece >= 0) & (s["piece_kind"][np.maximum(piece, 0)] == PLATFORM)
        if int(s["turn"]) >= int(s["rules"]["platform_turns"]):
            weight = np.where(on_platform, 0.0, weight)
        guards = (types >= T_INFANTRY) & (types != T_ENGINEER) & (cells >= 0)
        guarded = np.isin(cells, cells[guards])
        weight = np.where(on_platform | guarded, weight, 0.5 * weight)
        phi = 2.0 * min(float(weight[engineers].sum()), 3.0) / 3.0 - 1.0
    return phi if side == TECHNOCRAT else -phi


def central(s, side: int) -> float:
    """The race for the Central Crustal (15.5), in [-1, 1], for ``side``:
    the Technocrat's engineer squads on it (0.5 each, up to 1) less the
    Ziegler combat units on it (0.1 each, up to 1)."""
    types = s["unit_type"].astype(np.int64)
    cells = s["unit_cell"].astype(np.int64)
    on = (cells >= 0) & (s["board"][np.maximum(cells, 0)] == 0)
    engineer_squads = float(s["unit_squads"][on & (types == T_ENGINEER)].sum())
    defenders = int((on & ((types == Z_INFANTRY) | (types == Z_HOVERCRAFT))).sum())
    phi = min(0.5 * engineer_squads, 1.0) - min(0.1 * defenders, 1.0)
    return phi if side == TECHNOCRAT else -phi


#: the potentials a learner's shaping may weigh (``hotspot.env.LearnerEnv``'s ``shaping``)
POTENTIALS = {"material": potential, "progress": progress, "central": central}


__all__ = ["POTENTIALS", "central", "potential", "progress"]
