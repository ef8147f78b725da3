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

# OpenSpiel's own bots as agents (the ``openspiel`` extra: without it they are
# registered but unavailable).  They live with the OpenSpiel game in the
# environments layer (``hotspot.env.openspiel``), which the arena may import.
register_agent("openspiel-ismcts", "hotspot.env.openspiel:OpenSpielISMCTSAgent",
               "OpenSpiel's ISMCTSBot (Python, unmodified) from the information state; random rollouts",
               params="hotspot.env.openspiel:ISMCTS_SPEC_PARAMS")
register_agent("openspiel-mcts", "hotspot.env.openspiel:OpenSpielMCTSAgent",
               "OpenSpiel's MCTSBot (Python, unmodified) on one determinization of the information state",
               params="hotspot.env.openspiel:MCTS_SPEC_PARAMS")
