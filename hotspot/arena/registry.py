"""The agent registry, for the arena (it lives in ``hotspot.agents.registry``,
below the environments, which name their opponents by spec too)."""

from hotspot.agents.registry import (
    DEFAULT_MAX_SECONDS_PER_GAME,
    UnknownAgentError,
    agent_cost,
    agent_costs,
    agent_parameters,
    aliases,
    available_agents,
    canonical_agent,
    default_agents,
    is_available,
    is_fast,
    make_agent,
    policy_id_of,
    register_agent,
    register_alias,
    registered_agents,
    resolve_spec,
    unregister_agent,
)
from hotspot.agents.specs import Param, SpecError, split_top

__all__ = [
    "DEFAULT_MAX_SECONDS_PER_GAME",
    "Param",
    "SpecError",
    "UnknownAgentError",
    "agent_cost",
    "agent_costs",
    "agent_parameters",
    "aliases",
    "available_agents",
    "canonical_agent",
    "default_agents",
    "is_available",
    "is_fast",
    "make_agent",
    "policy_id_of",
    "register_agent",
    "register_alias",
    "registered_agents",
    "resolve_spec",
    "split_top",
    "unregister_agent",
]

# OpenSpiel's own bots as agents (the ``openspiel`` extra: without it they are
# registered but unavailable).  They live with the OpenSpiel game in the
# environments layer (``hotspot.env.openspiel``), which the arena may import;
# their parameters are declared here, so that listing them needs no OpenSpiel.
_OPENSPIEL_PARAMS = {
    "iterations": Param("int", 16, 1, 1_000_000, doc="simulations a decision"),
    "uct_c": Param("float", 2.0, 0.0, 100.0, doc="UCT exploration"),
    "rollouts": Param("int", 1, 1, 1000, doc="random rollouts to the end of the game a leaf"),
    "rollout": Param(
        "choice",
        "compiled",
        choices=("compiled", "python"),
        doc="random rollouts in the core's compiled code, or OpenSpiel's RandomRolloutEvaluator",
    ),
}
register_agent(
    "openspiel-ismcts",
    "hotspot.env.openspiel:OpenSpielISMCTSAgent",
    "OpenSpiel's ISMCTSBot (Python, unmodified) from the information state; random rollouts",
    params={**_OPENSPIEL_PARAMS, "think_ms": Param("int", 0, 0, 600_000, doc="time budget a decision (0: none)")},
)
register_agent(
    "openspiel-mcts",
    "hotspot.env.openspiel:OpenSpielMCTSAgent",
    "OpenSpiel's MCTSBot (Python, unmodified) on one determinization of the information state",
    params=_OPENSPIEL_PARAMS,
)
