"""The agent registry, for the arena (it lives in ``hotspot.agents.registry``,
below the environments, which name their opponents by spec too)."""
from hotspot.agents.registry import (DEFAULT_MAX_SECONDS_PER_GAME, UnknownAgentError, agent_cost, agent_costs,
                                     agent_parameters, aliases, available_agents, canonical_agent, default_agents,
                                     is_available, is_fast, make_agent, policy_id_of, register_agent,
                                     register_alias, registered_agents, resolve_spec, unregister_agent)
from hotspot.agents.specs import Param, SpecError, split_top

__all__ = ["DEFAULT_MAX_SECONDS_PER_GAME", "Param", "SpecError", "UnknownAgentError", "agent_cost", "agent_costs",
           "agent_parameters", "aliases", "available_agents", "canonical_agent", "default_agents", "is_available",
           "is_fast", "make_agent", "policy_id_of", "register_agent", "register_alias", "registered_agents",
           "resolve_spec", "split_top", "unregister_agent"]
