"""Gymnasium, vector and PettingZoo environments, with rendering.

``import hotspot`` registers ``hotspot/Hotspot-v0`` and
``hotspot/HotspotLearner-v0`` (``LearnerEnv``: the same game as a stock RL
library learns it) with ``gymnasium.make``.
``HotspotAECEnv`` needs the ``pettingzoo`` extra (``pip install
"hotspot[pettingzoo]"``); it is imported when first asked for.  The
PettingZoo factories are ``hotspot.env.pettingzoo.env()`` and ``raw_env()``
(``hotspot_v0``).
"""

from .hotspot_env import HotspotEnv
from .learner_env import LearnerEnv
from .vector_env import HotspotVectorEnv
from .viewer import write_replay_html

__all__ = ["HotspotAECEnv", "HotspotEnv", "HotspotVectorEnv", "LearnerEnv", "write_replay_html"]


def __getattr__(name):
    if name == "HotspotAECEnv":
        from .pettingzoo import HotspotAECEnv

        return HotspotAECEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
