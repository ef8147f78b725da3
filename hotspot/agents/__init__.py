"""Agents for both sides, behind one interface (base.Agent)."""

from .base import Agent
from .info import (
    action_to_string,
    is_setup_phase,
    legal_actions,
    phase_name,
    phase_of,
    side_to_move,
    side_to_move_name,
    turn_of,
)
from .ismcts import ISMCTSAgent
from .policy_agent import PolicyAgent
from .random_agent import RandomAgent
from .scripted import ScriptedAgent
from .search import MCTSAgent

__all__ = [
    "Agent",
    "RandomAgent",
    "ScriptedAgent",
    "MCTSAgent",
    "ISMCTSAgent",
    "PolicyAgent",
    # plain values from an agent's info_state (hotspot.agents.info)
    "phase_of",
    "phase_name",
    "turn_of",
    "side_to_move",
    "side_to_move_name",
    "is_setup_phase",
    "action_to_string",
    "legal_actions",
]
