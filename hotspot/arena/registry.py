"""Deprecated: the agent registry lives in ``hotspot.agents.registry``
(``Param``, ``SpecError`` and ``split_top`` in ``hotspot.agents.specs``),
below the environments, which name their opponents by spec too.  This module
forwards each name there with a ``DeprecationWarning`` naming its home, and
goes in 0.4."""

import warnings

from hotspot.agents import registry as agents_registry
from hotspot.agents import specs as agents_specs

#: the names it forwards (each with a DeprecationWarning)
FORWARDED = (
    "DEFAULT_MAX_SECONDS_PER_GAME",
    "DEFAULT_ROUND_ROBIN_CORE_SECONDS",
    "CodeNotAllowedError",
    "Param",
    "SpecError",
    "UnknownAgentError",
    "agent_cost",
    "agent_costs",
    "agent_parameters",
    "aliases",
    "available_agents",
    "canonical_agent",
    "check_agent",
    "default_agents",
    "is_available",
    "is_fast",
    "make_agent",
    "needs_parameters",
    "policy_id_of",
    "register_agent",
    "register_alias",
    "registered_agents",
    "resolve_spec",
    "round_robin_seconds",
    "split_top",
    "unregister_agent",
)


def __getattr__(name: str):
    if name not in FORWARDED:
        raise AttributeError(f"module 'hotspot.arena.registry' has no attribute {name!r}")
    home = agents_registry if hasattr(agents_registry, name) else agents_specs
    warnings.warn(
        f"hotspot.arena.registry.{name} is {home.__name__}.{name} (hotspot.arena.registry goes in 0.4)",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(home, name)
