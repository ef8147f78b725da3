"""Gymnasium, vector and PettingZoo environments, with rendering.

``import hotspot`` registers ``hotspot/Hotspot-v0`` (``gymnasium.make``).
``HotspotAECEnv`` needs the ``pettingzoo`` extra (``pip install
"hotspot[pettingzoo]"``); it is imported when first asked for.  The
PettingZoo factories are ``hotspot.env.pettingzoo.env()`` and ``raw_env()``
(``hotspot_v0``).
"""

from .hotspot_env import HotspotEnv
from .vector_env import HotspotVectorEnv
from .viewer import write_replay_html

__all__ = ["HotspotAECEnv", "HotspotEnv", "HotspotVectorEnv", "write_replay_html"]


def __getattr__(name):
    if name == "HotspotAECEnv":
        from .pettingzoo import HotspotAECEnv

        return HotspotAECEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
