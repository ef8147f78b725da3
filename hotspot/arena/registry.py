"""Agents by name, for the arena and the command line.

>>> from hotspot.arena import make_agent, available_agents
>>> available_agents()            # e.g. ['random', 'scripted']
>>> agent = make_agent("random", seed=3)

An entry is a *factory*: a callable ``factory(seed=None) -> Agent``, or a lazy
``"module:attribute"`` reference to one (imported only when used), so that an
agent whose module has not landed yet, or whose optional dependencies are not
installed, is simply not available instead of breaking the import.  Adding an
agent is one line, here or at run time::

    register_agent("mcts", "hotspot.agents.mcts:MCTSAgent", "Monte Carlo tree search")
    register_agent("learned", "hotspot.agents.learned:LearnedAgent", "a trained policy")

Agents with a compiled policy (``agent.policy_id`` not None) play whole games
in compiled code when both players have one (``hotspot.arena.match``).
"""
from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from typing import Callable

from hotspot.agents.base import Agent


class UnknownAgentError(ValueError):
    """An agent name that is not registered, or whose module cannot be imported."""


@dataclass
class _Entry:
    factory: Callable | str
    description: str = ""


_REGISTRY: dict[str, _Entry] = {}


def register_agent(name: str, factory, description: str = "", *, replace: bool = False) -> None:
    """Register ``factory`` (a callable ``factory(seed=None) -> Agent`` or a
    ``"module:attribute"`` string naming one) under ``name``."""
    if not isinstance(name, str) or not name or any(c in name for c in ":,= \t"):
        raise ValueError(f"agent name must be a non-empty word without ':', ',', '=' or spaces, got {name!r}")
    if name in _REGISTRY and not replace:
        raise ValueError(f"agent {name!r} is already registered (pass replace=True to replace it)")
    if not (callable(factory) or (isinstance(factory, str) and ":" in factory)):
        raise ValueError(f"agent factory must be callable or 'module:attribute', got {factory!r}")
    _REGISTRY[name] = _Entry(factory, description)


def unregister_agent(name: str) -> None:
    _REGISTRY.pop(name, None)


def _resolve(name: str) -> Callable:
    entry = _REGISTRY.get(name)
    if entry is None:
        raise UnknownAgentError(f"unknown agent {name!r}; registered agents: {sorted(_REGISTRY)} "
                                f"(available now: {available_agents()})")
    factory = entry.factory
    if isinstance(factory, str):
        module_name, _, attr = factory.partition(":")
        try:
            module = importlib.import_module(module_name)
            factory = getattr(module, attr)
        except (ImportError, AttributeError) as exc:
            raise UnknownAgentError(f"agent {name!r} is registered but not available: cannot load "
                                    f"{entry.factory!r} ({exc})") from None
    return factory


def is_available(name: str) -> bool:
    """True if ``name`` is registered and its factory can be loaded."""
    try:
        _resolve(name)
    except UnknownAgentError:
        return False
    return True


DEFAULT_AGENTS = ("random", "scripted")  # compiled: the default round robin finishes in seconds


def default_agents() -> list[str]:
    """The agents of the default round robin: the fast compiled ones that are available."""
    return [name for name in DEFAULT_AGENTS if is_available(name)]


def available_agents() -> list[str]:
    """The names of the registered agents that can be made now, in registration order."""
    return [name for name in _REGISTRY if is_available(name)]


def registered_agents() -> dict[str, str]:
    """Every registered name with its description (available or not)."""
    return {name: entry.description for name, entry in _REGISTRY.items()}


def make_agent(name: str, seed: int | None = None) -> Agent:
    """A new agent ``name``, reset with ``seed`` (its own randomness, not the dice)."""
    factory = _resolve(name)
    try:
        takes_seed = "seed" in inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin or odd callable: try the keyword
        takes_seed = True
    if takes_seed:
        agent = factory(seed=seed)
    else:
        agent = factory()
        agent.reset(seed)
    if not isinstance(agent, Agent):
        raise UnknownAgentError(f"agent {name!r}: the factory returned {agent!r}, not a hotspot.agents.Agent")
    return agent


def policy_id_of(name: str) -> int | None:
    """The compiled policy id of agent ``name`` (None for an agent that runs in Python)."""
    pid = getattr(make_agent(name, 0), "policy_id", None)
    return None if pid is None else int(pid)


# The built-in agents.  "scripted" lands in hotspot/agents/scripted.py; until
# then it is registered but unavailable.  MCTS and learned agents register
# themselves the same way ("mcts", "learned").
register_agent("random", "hotspot.agents.random_agent:RandomAgent", "uniform over the legal actions (compiled)")
register_agent("scripted", "hotspot.agents.scripted:ScriptedAgent", "hand-written heuristic player (compiled)")
register_agent("mcts", "hotspot.agents.search:MCTSAgent", "flat Monte Carlo search, determinized scripted rollouts (Python-driven)")
register_agent("mcts-lite", "hotspot.agents.search:lite_agent",
               "the same search at a smaller budget (2 determinizations x 4 candidates a decision)")
register_agent("learned", "hotspot.agents.learned:LearnedAgent",
               "MLP policy per side (scripted-player cloning + DAgger), numpy inference")
