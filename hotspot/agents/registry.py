"""Agents by name and spec, for the environments, the arena and the command line.

>>> from hotspot.agents.registry import make_agent, available_agents
>>> available_agents()            # e.g. ['random', 'scripted', ...]
>>> agent = make_agent("random", seed=3)
>>> strong = make_agent("ismcts(iterations=256,think_ms=500)", seed=3)

Wherever an agent is named it may be a *spec* with parameters
(``hotspot.agents.specs``): ``NAME(KEY=VALUE, ...)``.  Each agent declares
its parameters when it is registered (``params=``, :class:`Param`); a bad
spec is refused with one line naming the agent's parameters and ranges.
:func:`canonical_agent` gives the one spelling of a spec (aliases resolved,
keys sorted, defaults left out), which the arena keeps in its rows and
resume keys: the spec is part of a game's identity.  An *alias*
(:func:`register_alias`) names a spec: ``best`` is the strongest agent that
plays a game in at most 10 s on one core.

An entry is a *factory*: a callable ``factory(seed=None) -> Agent``, or a lazy
``"module:attribute"`` reference to one (imported only when used), so that an
agent whose module has not landed yet, or whose optional dependencies are not
installed, is simply not available instead of breaking the import.  Adding an
agent is one line, here or at run time::

    register_agent("mcts", "hotspot.agents.mcts:MCTSAgent", "Monte Carlo tree search")
    register_agent("learned", "hotspot.agents.action_policy:ActionPolicyAgent", "a trained policy")

Agents with a compiled policy (``agent.policy_id`` not None) play whole games
in compiled code when both players have one (``hotspot.arena.match``).
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from typing import Callable

from .base import Agent
from .specs import Param, SpecError, canonical_spec, check_params, declare_params, describe_params, parse_spec


class UnknownAgentError(SpecError):
    """An agent name that is not registered, or whose module cannot be imported."""


@dataclass
class _Entry:
    factory: Callable | str
    description: str = ""
    seconds_per_game: float | None = None


_REGISTRY: dict[str, _Entry] = {}
_ALIASES: dict[str, tuple[str, str]] = {}  # alias -> (spec, description)


def register_agent(
    name: str,
    factory,
    description: str = "",
    *,
    replace: bool = False,
    seconds_per_game: float | None = None,
    params: dict[str, Param] | str | None = None,
) -> None:
    """Register ``factory`` (a callable ``factory(seed=None) -> Agent`` or a
    ``"module:attribute"`` string naming one) under ``name``.

    ``seconds_per_game``: the agent's measured cost, the mean wall time of one
    of its games (see :data:`DEFAULT_MAX_SECONDS_PER_GAME`); None (not
    measured) keeps it out of the default round robin.  ``params``: the
    keyword arguments of ``factory`` that a spec may set, by name
    (:class:`Param`), or a ``"module:attribute"`` string naming that dict
    (loaded when a spec first needs it); ``seed`` is always passed apart."""
    if not isinstance(name, str) or not name or any(c in name for c in ":,=() \t"):
        raise ValueError(
            f"agent name must be a non-empty word without ':', ',', '=', parentheses or spaces, got {name!r}"
        )
    if name in _ALIASES:
        raise ValueError(f"{name!r} is an alias; unregister it first")
    if name in _REGISTRY and not replace:
        raise ValueError(f"agent {name!r} is already registered (pass replace=True to replace it)")
    if not (callable(factory) or (isinstance(factory, str) and ":" in factory)):
        raise ValueError(f"agent factory must be callable or 'module:attribute', got {factory!r}")
    if seconds_per_game is not None:
        if (
            isinstance(seconds_per_game, bool)
            or not isinstance(seconds_per_game, (int, float))
            or not 0 <= seconds_per_game < float("inf")
        ):
            raise ValueError(f"seconds_per_game must be a non-negative number or None, got {seconds_per_game!r}")
        seconds_per_game = float(seconds_per_game)
    for key, p in ({} if isinstance(params, str) else params or {}).items():
        if key == "seed" or not isinstance(p, Param):
            raise ValueError(f"agent {name!r}: parameter {key!r} must be a Param and not 'seed'")
    _REGISTRY[name] = _Entry(factory, description, seconds_per_game)
    declare_params(name, params)


def unregister_agent(name: str) -> None:
    _REGISTRY.pop(name, None)
    _ALIASES.pop(name, None)
    declare_params(name, None)


def register_alias(alias: str, spec: str, description: str = "") -> None:
    """Let ``alias`` (a word) name the agent spec ``spec`` (replacing an older alias)."""
    if alias in _REGISTRY:
        raise ValueError(f"{alias!r} is an agent's name, not free for an alias")
    name, params = parse_spec(spec)
    if name not in _REGISTRY:
        raise ValueError(f"alias {alias!r}: unknown agent {name!r}")
    _ALIASES[alias] = (canonical_spec(name, check_params(name, params)), description)


def aliases() -> dict[str, str]:
    """Every alias with the spec it names."""
    return {a: spec for a, (spec, _) in _ALIASES.items()}


def resolve_spec(spec) -> tuple[str, dict]:
    """``(agent name, checked parameters)`` of a spec (aliases resolved); an
    :class:`UnknownAgentError` or :class:`SpecError` (one line) otherwise."""
    name, params = parse_spec(spec)
    if name in _ALIASES:
        if params:
            raise SpecError(
                f"agent spec {spec!r}: {name} is an alias of {_ALIASES[name][0]} and takes no "
                f"parameters; give that agent's spec instead"
            )
        name, params = parse_spec(_ALIASES[name][0])
    if name not in _REGISTRY:
        raise UnknownAgentError(
            f"agent {name!r} is not available: unknown agent {name!r} (registered agents: "
            f"{sorted(_REGISTRY)}; aliases: {sorted(_ALIASES)})"
        )
    return name, check_params(name, params)


def canonical_agent(spec) -> str:
    """The one spelling of an agent spec (aliases resolved, keys sorted,
    defaults left out): the agent's identity in the arena's rows.  Raises
    like :func:`resolve_spec`, and :class:`UnknownAgentError` when the
    agent's module cannot be loaded here."""
    name, params = resolve_spec(spec)
    _resolve(name)
    return canonical_spec(name, params)


def _resolve(name: str) -> Callable:
    entry = _REGISTRY.get(name)
    if entry is None:
        raise UnknownAgentError(
            f"unknown agent {name!r}; registered agents: {sorted(_REGISTRY)} (available now: {available_agents()})"
        )
    factory = entry.factory
    if isinstance(factory, str):
        module_name, _, attr = factory.partition(":")
        try:
            module = importlib.import_module(module_name)
            factory = getattr(module, attr)
        except (ImportError, AttributeError) as exc:
            raise UnknownAgentError(
                f"agent {name!r} is registered but not available: cannot load {entry.factory!r} ({exc})"
            ) from None
    return factory


def is_available(name: str) -> bool:
    """True if ``name`` (an agent name, alias or spec) is well formed,
    registered, and its factory can be loaded."""
    try:
        canonical_agent(name)
    except SpecError:
        return False
    return True


#: The default round robin takes every available agent whose ``seconds_per_game``
#: is at most this.  An agent's cost is the mean wall time of one game of it
#: against ``random`` and against ``scripted``, as either side, on the
#: ``standard`` scenario with the default ``max_turns``, one game a core on
#: the 2-core reference machine (the wall time of the whole game, both
#: players).  ``hotspot arena``'s defaults are 100 games a side and pairing, a
#: round robin with self-play: an agent at the threshold adds 100 x (2 N - 1)
#: games of at most about a second (500 with N = 3 agents: some 8 minutes of
#: one core, 4 on two), so the default arena stays within a few minutes on
#: two cores (random and scripted alone: 400 games in about 4 s).  Slower agents play
#: with ``--agents all`` or ``--agents NAME,...`` (and in
#: ``benchmarks/bench_ladder.py``, the ladder of every agent).
DEFAULT_MAX_SECONDS_PER_GAME = 1.0


def agent_cost(name: str) -> float | None:
    """The registered ``seconds_per_game`` of agent ``name`` at its default
    parameters (None: not measured, or a spec with parameters)."""
    base, params = resolve_spec(name)
    return _REGISTRY[base].seconds_per_game if canonical_spec(base, params) == base else None


def is_fast(name: str, max_seconds_per_game: float = DEFAULT_MAX_SECONDS_PER_GAME) -> bool:
    """True if ``name`` has a measured cost of at most ``max_seconds_per_game``."""
    cost = agent_cost(name)
    return cost is not None and cost <= max_seconds_per_game


def default_agents(max_seconds_per_game: float = DEFAULT_MAX_SECONDS_PER_GAME) -> list[str]:
    """The agents of the default round robin, in registration order: every
    available agent whose games take at most ``max_seconds_per_game`` seconds
    (its registered ``seconds_per_game``; an agent without one is left out)."""
    return [name for name in available_agents() if is_fast(name, max_seconds_per_game)]


def available_agents() -> list[str]:
    """The names of the registered agents that can be made now, in registration order."""
    return [name for name in _REGISTRY if is_available(name)]


def registered_agents() -> dict[str, str]:
    """Every registered name with its description (available or not)."""
    return {name: entry.description for name, entry in _REGISTRY.items()}


def agent_parameters(name: str) -> str:
    """One line: the parameters agent ``name`` takes, with ranges and defaults."""
    return describe_params(name)


def agent_costs() -> dict[str, float | None]:
    """Every registered name with its ``seconds_per_game`` (None: not measured)."""
    return {name: entry.seconds_per_game for name, entry in _REGISTRY.items()}


def make_agent(name: str, seed: int | None = None) -> Agent:
    """A new agent from ``name`` (a name, alias or spec such as
    ``"ismcts(iterations=256)"``), reset with ``seed`` (its own randomness,
    not the dice).  The agent's ``spec`` attribute is its canonical spec."""
    base, params = resolve_spec(name)
    factory = _resolve(base)
    try:
        takes_seed = "seed" in inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin or odd callable: try the keyword
        takes_seed = True
    if takes_seed:
        agent = factory(seed=seed, **params)
    else:
        agent = factory(**params)
        agent.reset(seed)
    if not isinstance(agent, Agent):
        raise UnknownAgentError(f"agent {name!r}: the factory returned {agent!r}, not a hotspot.agents.Agent")
    agent.spec = canonical_spec(base, params)
    return agent


def policy_id_of(name: str) -> int | None:
    """The compiled policy id of agent ``name`` (None for an agent that runs in Python)."""
    pid = getattr(make_agent(name, 0), "policy_id", None)
    return None if pid is None else int(pid)


# The built-in agents, with their measured cost (seconds_per_game, see
# DEFAULT_MAX_SECONDS_PER_GAME; measured 2026-12-01 on the 2-core reference
# machine, 3-20 games a pairing and side against random and scripted on
# standard, max_turns 200; the mean over the four pairings and sides):
#   random 0.001-0.006 s, scripted 0.005-0.04 s a game (compiled: both in the
#   default round robin);
#   mcts-lite 1.0-10.4 s, mean 5.0 s (driven from Python): not in the default.
#   learned (the per-action policy, driven from Python, a network's fraction of
#   a millisecond a decision): 0.036 s as Ziegler and 0.137 s as Technocrat
#   against random on standard, 0.347 s and 0.491 s against scripted on open
#   (the 4,000 games of bench_strength's learned and learned-scripted claims,
#   two workers, 2026-12-02), mean 0.25 s: in the default round robin.
#   ismcts about 3.8 s a game against scripted on open (3.3 s as Technocrat,
#   4.2 s as Ziegler, with its set-up search, about 1 s of it; 16 iterations,
#   6-12 ms a searched decision; 2,000 games of bench_strength's ismcts-open),
#   learned-ismcts about 4 s
#   (driven from Python): not in the default.
#   portfolio about 2.1 s a game against scripted on open (1.8 s as
#   Technocrat, 2.4 s as Ziegler, with its set-up search; the 2,000 games of
#   bench_strength's portfolio-open, two workers): not in the default.
#   expert-policy 0.05-0.11 s, mean 0.07 s (Python-driven, measured on open in
#   the 4,000 games of bench_strength's expert-policy claims: its games are
#   short, it loses them): in the default round robin.  expert-ismcts about
#   4.2 s a game (3.8 s as Technocrat, 4.5 s as Ziegler, against ismcts on
#   open, 200 games; not measured against random and scripted): not in the
#   default.
# An agent whose module cannot be imported is registered but unavailable; an
# agent not measured yet has no cost and stays out of the default round robin.
# Retired (issue 22; git keeps them), each weaker than a simpler agent in both
# seats on open (docs/results.md, "Agents and their measured strength"):
# expert-policy (against scripted 0.001 as Technocrat and 0.013 as Ziegler,
# where scripted itself scores 0.921 and 0.079; 1,000 games a side),
# expert-ismcts (against ismcts 0.385 as Technocrat and 0.050 as Ziegler,
# 100 games a side, where the seats score about 0.86 and 0.14 between equals).
# mcts-lite is the spec mcts(max_candidates=4,simulations=2).
register_agent(
    "random",
    "hotspot.agents.random_agent:RandomAgent",
    "uniform over the legal actions (compiled)",
    seconds_per_game=0.005,
)
register_agent(
    "scripted",
    "hotspot.agents.scripted:ScriptedAgent",
    "hand-written heuristic player (compiled)",
    seconds_per_game=0.03,
)
register_agent(
    "mcts",
    "hotspot.agents.search:MCTSAgent",
    "flat Monte Carlo search, determinized scripted rollouts (Python-driven)",
    params="hotspot.agents.search:SPEC_PARAMS",
)
register_agent(
    "learned",
    "hotspot.agents.action_policy:ActionPolicyAgent",
    "per-action policy network imitating the search (best), no search; numpy weights",
    seconds_per_game=0.25,
    params="hotspot.agents.action_policy:SPEC_PARAMS",
)
register_agent(
    "ismcts",
    "hotspot.agents.ismcts:ISMCTSAgent",
    "information-set Monte Carlo tree search (single observer, determinized, compiled)",
    seconds_per_game=3.8,
    params="hotspot.agents.ismcts:SPEC_PARAMS",
)
register_agent(
    "portfolio",
    "hotspot.agents.portfolio:PortfolioAgent",
    "portfolio search over counters: whole-phase plans of per-counter intents, greedy over play-outs "
    "to the enemy's reply (compiled)",
    seconds_per_game=2.1,
    params="hotspot.agents.portfolio:SPEC_PARAMS",
)
register_agent(
    "learned-ismcts",
    "hotspot.agents.ismcts:learned_ismcts_agent",
    "ISMCTS valuing positions with the learned value network (expert iteration; numpy weights)",
    seconds_per_game=4.0,
    params="hotspot.agents.ismcts:SPEC_PARAMS",
)

# ``best``: the strongest agent that plays a game in at most 10 s on one core
# of the 2-core reference machine (docs/results.md, "Agents and their measured
# strength"; BENCHMARKS.md): ``hotspot play --ziegler best``.
register_alias("best", "portfolio(horizon=2)", "the strongest agent at <= 10 s a game on one core")
