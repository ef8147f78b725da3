"""Agents for both sides, behind one interface (base.Agent)."""

from .base import Agent
from .ismcts import ISMCTSAgent
from .policy_agent import PolicyAgent
from .random_agent import RandomAgent
from .scripted import ScriptedAgent
from .search import MCTSAgent

__all__ = ["Agent", "RandomAgent", "ScriptedAgent", "MCTSAgent", "ISMCTSAgent", "PolicyAgent"]
