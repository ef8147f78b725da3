"""Deprecated since 0.2.0 (removed in 0.3.0): the PettingZoo environment's old
module name; ``hotspot.env.pettingzoo`` is the module (``env``, ``raw_env``,
``HotspotAECEnv``)."""

import warnings

from .pettingzoo import HotspotAECEnv, env, raw_env

warnings.warn(
    "hotspot.env.pettingzoo_env is deprecated since hotspot 0.2.0 and will be removed in 0.3.0; "
    "import hotspot.env.pettingzoo",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = ["HotspotAECEnv", "env", "raw_env"]
