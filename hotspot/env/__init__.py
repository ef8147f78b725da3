"""Gymnasium, vector and PettingZoo environments, with rendering.

``import hotspot`` registers ``hotspot/Hotspot-v0`` (``gymnasium.make``).
"""
from .hotspot_env import HotspotEnv

__all__ = ["HotspotEnv"]
