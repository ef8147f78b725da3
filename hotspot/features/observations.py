"""The environments' observation forms, in one place: the spaces, and an
observation built from an information state.

Every environment (``HotspotEnv``, ``HotspotVectorEnv``, the PettingZoo env)
and every adapter that plays a model trained on one (``PolicyAgent``,
``sb3(path=...)``) builds its observation here, so that a model sees in the
arena exactly what it saw in training:

``observation_space(bounds, mode)``
    the Gymnasium space of form ``mode`` (:data:`OBSERVATION_MODES`) for an
    environment whose entries have ``bounds`` (``ObservationBounds``).
``observation_form(bounds, mode, obs)``
    the observation in form ``mode`` of the encoded dict ``obs`` (one or a
    batch, as ``encoding.encode`` writes it).
``observe_info_state(info_state, side, mode, bounds=None)``
    the observation of ``side`` from its information state (a state record
    as ``Game.observation(side)`` or ``Agent.act`` receives it; D20 already
    applied): what the environments return for the same position.

The forms (the environments' ``observation`` argument) are described in
``hotspot.env.hotspot_env``: ``"full"`` (a dict of int arrays), ``"compact"``
(without the hex planes), ``"flat"`` (one float32 vector in [0, 1]) and
``"image"`` (the hex planes as an image and the tables flat).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from .bounds import ObservationBounds
from .encoding import bound_counters, encode_info_state, new_observation

#: the forms of the observation (the ``observation`` argument of every env)
OBSERVATION_MODES = ("full", "compact", "flat", "image")


def observation_space(bounds: ObservationBounds, mode: str = "full") -> spaces.Space:
    """The observation space of form ``mode`` (``OBSERVATION_MODES``) with the entries' ``bounds``."""
    if mode in ("full", "compact"):
        names = ("board", "units", "pieces", "globals") if mode == "full" else ("units", "pieces", "globals")
        return spaces.Dict(
            {name: spaces.Box(bounds.low[name], bounds.high[name], dtype=bounds.dtypes[name]) for name in names}
        )
    if mode == "flat":
        return spaces.Box(0.0, 1.0, shape=(bounds.flat_size,), dtype=np.float32)
    return spaces.Dict(
        {
            "board": spaces.Box(0, 255, shape=bounds.image_shape, dtype=np.uint8),
            "features": spaces.Box(0.0, 1.0, shape=(bounds.features_size,), dtype=np.float32),
        }
    )


def observation_form(bounds: ObservationBounds, mode: str, obs: dict):
    """Observation dict ``obs`` (one or a batch, as ``encode`` writes it) in
    form ``mode``: ``"full"`` a copy of ``obs``, ``"compact"`` a copy
    without ``board``, ``"flat"`` and ``"image"`` the normalised forms."""
    if mode == "flat":
        return bounds.flat(obs)
    if mode == "image":
        return bounds.image(obs)
    names = ("board", "units", "pieces", "globals") if mode == "full" else ("units", "pieces", "globals")
    return {k: np.array(obs[k]) for k in names}


def observe_info_state(info_state, side: int, mode: str = "full", bounds: ObservationBounds | None = None):
    """The observation in form ``mode`` of ``side``'s information state
    ``info_state`` (a state record, or a (1,) array of one, such as
    ``Game.observation(side)``): the environments' observation of the same
    position.  ``bounds``: the environment's (``env.bounds``); None takes
    them from ``info_state`` itself, which gives the environment's bounds
    for every scenario whose forces are at most the rulebook's and the same
    rules options and ``max_turns``."""
    if mode not in OBSERVATION_MODES:
        raise ValueError(f"observation must be one of {list(OBSERVATION_MODES)}, got {mode!r}")
    o = np.asarray(info_state).reshape(-1)
    if o.shape != (1,):
        raise ValueError("info_state must be one state record")
    if bounds is None:
        bounds = ObservationBounds(o)
    obs = new_observation()
    encode_info_state(o[0], int(side), True, obs["board"], obs["units"], obs["pieces"], obs["globals"])
    bound_counters(o[0], True, obs["board"], obs["pieces"], obs["globals"])
    return observation_form(bounds, mode, obs)


__all__ = ["OBSERVATION_MODES", "observation_form", "observation_space", "observe_info_state"]
