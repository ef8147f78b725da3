"""The PettingZoo environment under its old module name: ``hotspot.env.pettingzoo``
is the module (``env``, ``raw_env``, ``HotspotAECEnv``)."""
from .pettingzoo import HotspotAECEnv, env, raw_env

__all__ = ["HotspotAECEnv", "env", "raw_env"]
