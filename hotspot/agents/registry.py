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

Agents from outside the package (``hotspot.agents.plugins``): a spec may name
a factory in the user's own module, ``module:attribute`` or
``module:attribute(KEY=VALUE, ...)``, and installed packages register agents
through the ``hotspot.agents`` entry-point group.  Adapters take a model as
a parameter: ``sb3(path=model.zip)`` plays a Stable-Baselines3 model
(``hotspot.agents.sb3``).

Naming a module or a file runs code (an SB3 model file holds pickles): every
function here takes ``allow_code`` (default True, the Python API and the
command line, where the person at the keyboard names it); with
``allow_code=False`` (the web app's requests, a saved game's agents) a
``module:attribute`` spec or a ``path`` parameter is refused with a
:class:`CodeNotAllowedError` before anything is imported or read.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from typing import Callable

from hotspot.core.rules_data import SIDE_NAMES, TECHNOCRAT, ZIEGLER

from .base import Agent
from .plugins import entry_point_agents, factory_params, import_factory
from .specs import (
    MODULE_SPEC,
    Param,
    SpecError,
    canonical_spec,
    check_params,
    declare_params,
    describe_params,
    params_of,
    parse_spec,
)


class UnknownAgentError(SpecError):
    """An agent name that is not registered, or whose module cannot be imported."""


class CodeNotAllowedError(SpecError):
    """A spec that would import a module or read a file where only registered
    agents may be named (``allow_code=False``)."""


@dataclass
class _Entry:
    factory: Callable | str
    description: str = ""
    seconds_per_game: float | None = None


_REGISTRY: dict[str, _Entry] = {}
_ALIASES: dict[str, tuple[str, str]] = {}  # alias -> (spec, description)
_MODULE_FACTORIES: dict[str, Callable] = {}  # "module:attribute" -> its factory, once imported
_PLUGINS: set[str] = set()  # the names installed plugins registered
_plugins_loaded = False


def _load_plugins() -> None:
    """Register the agents of installed plugins (the ``hotspot.agents``
    entry points), once; a plugin never replaces a registered name."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for name, (target, description) in entry_point_agents().items():
        if name in _REGISTRY or name in _ALIASES or not MODULE_SPEC.match(target):
            continue
        try:
            register_agent(name, target, description, params=lambda t=target: factory_params(import_factory(t)))
        except ValueError:  # not a plain word: left out
            continue
        _PLUGINS.add(name)


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
    for key, p in ({} if isinstance(params, str) or callable(params) else params or {}).items():
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


def resolve_spec(spec, *, allow_code: bool = True) -> tuple[str, dict]:
    """``(agent name, checked parameters)`` of a spec (aliases resolved); an
    :class:`UnknownAgentError` or :class:`SpecError` (one line) otherwise.
    A ``module:attribute`` name is imported here (its parameters are its
    factory's); ``allow_code=False`` refuses it, and any ``path`` parameter,
    with a :class:`CodeNotAllowedError` before anything is imported."""
    name, params = parse_spec(spec)
    if name in _ALIASES:
        if params:
            raise SpecError(
                f"agent spec {spec!r}: {name} is an alias of {_ALIASES[name][0]} and takes no "
                f"parameters; give that agent's spec instead"
            )
        name, params = parse_spec(_ALIASES[name][0])
    if MODULE_SPEC.match(name):
        if not allow_code:
            raise CodeNotAllowedError(
                f"agent {name!r}: a module:attribute agent runs the module's code; only registered agents "
                f"may be named here"
            )
        _module_factory(name)
    else:
        if name not in _REGISTRY:
            _load_plugins()
        if name not in _REGISTRY:
            raise UnknownAgentError(
                f"agent {name!r} is not available: unknown agent {name!r} (registered agents: "
                f"{sorted(_REGISTRY)}; aliases: {sorted(_ALIASES)}; or module:attribute for your own)"
            )
    if not allow_code:
        declared = params_of(name)
        for key in params:
            if key in declared and declared[key].kind == "path":
                raise CodeNotAllowedError(
                    f"agent spec {spec!r}: {key}= names a file, which may hold code (a model file is a pickle); "
                    f"only the command line may name one"
                )
    return name, check_params(name, params)


def _module_factory(name: str) -> Callable:
    """The factory of a ``module:attribute`` name, imported once (its
    parameters declared from it, ``hotspot.agents.plugins.factory_params``)."""
    factory = _MODULE_FACTORIES.get(name)
    if factory is None:
        factory = import_factory(name)
        _MODULE_FACTORIES[name] = factory
        declare_params(name, factory_params(factory))
    return factory


def is_outside_agent(spec) -> bool:
    """True if ``spec`` names code from outside this package: a
    ``module:attribute``, an installed plugin, or an adapter given a file
    (``sb3(path=...)``): :func:`check_agent` makes one to be sure it loads."""
    name, params = resolve_spec(spec)
    declared = params_of(name)
    return (
        bool(MODULE_SPEC.match(name))
        or name in _PLUGINS
        or any(declared[k].kind == "path" for k in params if k in declared)
    )


def check_agent(spec, *, allow_code: bool = True, seats=(TECHNOCRAT, ZIEGLER)) -> str:
    """The canonical spelling of ``spec`` (:func:`canonical_agent`), after
    making the agent once when it comes from outside this package
    (:func:`is_outside_agent`: a module may fail to build its agent, a file
    may not be a model, a model may play one seat only), so that a command
    that plays ``seats`` (default both) refuses one that cannot in one line
    before it writes anything."""
    canonical = canonical_agent(spec, allow_code=allow_code)
    if is_outside_agent(canonical):
        agent = make_agent(canonical, seed=0, allow_code=allow_code)
        missing = [SIDE_NAMES[side] for side in seats if side not in getattr(agent, "seats", (0, 1))]
        if missing:
            if len(seats) == 1:
                raise SpecError(f"agent {spec!r} cannot play the {missing[0]} seat, which this command plays")
            raise SpecError(
                f"agent {spec!r} cannot play the {' or the '.join(missing)} seat, and this command plays both "
                f"(sb3: give that seat its own model, e.g. sb3(path=...,{missing[0]}=OTHER.zip))"
            )
    return canonical


def canonical_agent(spec, *, allow_code: bool = True) -> str:
    """The one spelling of an agent spec (aliases resolved, keys sorted,
    defaults left out): the agent's identity in the arena's rows.  Raises
    like :func:`resolve_spec`, and :class:`UnknownAgentError` when the
    agent's module cannot be loaded here."""
    name, params = resolve_spec(spec, allow_code=allow_code)
    _resolve(name)
    return canonical_spec(name, params)


def _resolve(name: str) -> Callable:
    if MODULE_SPEC.match(name):
        return _module_factory(name)
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


def is_available(name: str, *, allow_code: bool = True) -> bool:
    """True if ``name`` (an agent name, alias or spec) is well formed,
    registered (or ``module:attribute`` when ``allow_code``), and its
    factory can be loaded."""
    try:
        canonical_agent(name, allow_code=allow_code)
    except SpecError:
        return False
    return True


#: An agent of the default round robin plays a game in at most this many
#: seconds.  An agent's cost is the mean wall time of one game of it
#: against ``random`` and against ``scripted``, as either side, on the
#: ``standard`` scenario with the default ``max_turns``, one game a core on
#: the 2-core reference machine (the wall time of the whole game, both
#: players).  Slower agents play with ``--agents all`` or ``--agents NAME,...``
#: (and in ``benchmarks/bench_ladder.py``, the ladder of every agent).
DEFAULT_MAX_SECONDS_PER_GAME = 1.0

#: ... and the whole default round robin (``hotspot arena``'s 100 games a side
#: and pairing, self-play included) is estimated at most this many seconds of
#: one core (:func:`round_robin_seconds`): on two cores about 10 s of games
#: after the first compile, so that the quick start's first table comes
#: within a minute on a fresh install.  A cheap agent joins the default only
#: while the whole default stays inside this.
DEFAULT_ROUND_ROBIN_CORE_SECONDS = 20.0
DEFAULT_ROUND_ROBIN_GAMES = 100

#: The built-in agents' measured costs (``seconds_per_game``, as above): the
#: measurements are in BENCHMARKS.md ("Agents: cost and strength"), and
#: ``benchmarks/bench_ladder.py`` measures them again (its ``seconds_per_game``
#: beside ``registered_seconds_per_game``).  An agent not here is not measured.
SECONDS_PER_GAME = {
    "random": 0.005,
    "scripted": 0.03,
    "learned": 0.25,
    "ismcts": 3.8,
    "portfolio": 2.1,
    "learned-ismcts": 4.0,
}


def agent_cost(name: str) -> float | None:
    """The registered ``seconds_per_game`` of agent ``name`` at its default
    parameters (None: not measured, or a spec with parameters)."""
    base, params = resolve_spec(name)
    entry = _REGISTRY.get(base)  # a module:attribute agent has no measured cost
    return entry.seconds_per_game if entry is not None and canonical_spec(base, params) == base else None


def is_fast(name: str, max_seconds_per_game: float = DEFAULT_MAX_SECONDS_PER_GAME) -> bool:
    """True if ``name`` has a measured cost of at most ``max_seconds_per_game``."""
    cost = agent_cost(name)
    return cost is not None and cost <= max_seconds_per_game


def round_robin_seconds(agents, games: int = DEFAULT_ROUND_ROBIN_GAMES) -> float | None:
    """The estimated core-seconds of a round robin of ``agents`` with
    self-play, ``games`` a side and pairing: each ordered pairing's games at
    the cost of its slower agent (None if an agent has no measured cost)."""
    costs = [agent_cost(name) for name in agents]
    if any(c is None for c in costs):
        return None
    return float(sum(games * max(a, b) for a in costs for b in costs))


def default_agents(
    max_seconds_per_game: float = DEFAULT_MAX_SECONDS_PER_GAME,
    budget_core_seconds: float = DEFAULT_ROUND_ROBIN_CORE_SECONDS,
) -> list[str]:
    """The agents of the default round robin, in registration order: each
    available agent whose games take at most ``max_seconds_per_game``
    seconds (its registered ``seconds_per_game``; an agent without one is
    left out), as long as the whole round robin stays within
    ``budget_core_seconds`` (:func:`round_robin_seconds`); an agent that would
    take it over is left out and the next one is tried."""
    chosen: list[str] = []
    for name in available_agents():
        if not is_fast(name, max_seconds_per_game):
            continue
        estimate = round_robin_seconds(chosen + [name])
        if estimate is not None and estimate <= budget_core_seconds:
            chosen.append(name)
    return chosen


def available_agents() -> list[str]:
    """The names of the registered agents (installed plugins included) that
    can be made now by their name alone, in registration order (an adapter
    that needs a file, such as ``sb3``, is named with it: ``sb3(path=...)``)."""
    _load_plugins()
    return [name for name in _REGISTRY if is_available(name) and not needs_parameters(name)]


def needs_parameters(name: str) -> bool:
    """True if agent ``name`` cannot be made without a parameter (a model file)."""
    try:
        return any(p.required for p in params_of(name).values())
    except SpecError:
        return False


def registered_agents() -> dict[str, str]:
    """Every registered name with its description (available or not)."""
    _load_plugins()
    return {name: entry.description for name, entry in _REGISTRY.items()}


def agent_parameters(name: str) -> str:
    """One line: the parameters agent ``name`` takes, with ranges and defaults."""
    return describe_params(name)


def agent_costs() -> dict[str, float | None]:
    """Every registered name with its ``seconds_per_game`` (None: not measured)."""
    return {name: entry.seconds_per_game for name, entry in _REGISTRY.items()}


def make_agent(name: str, seed: int | None = None, *, allow_code: bool = True) -> Agent:
    """A new agent from ``name`` (a name, alias or spec such as
    ``"ismcts(iterations=256)"``, ``"mybots:Greedy(depth=2)"`` or
    ``"sb3(path=model.zip)"``), reset with ``seed`` (its own randomness,
    not the dice).  The agent's ``spec`` attribute is its canonical spec.
    A factory that fails, or returns something that is not an
    :class:`Agent`, is an :class:`UnknownAgentError` naming the spec (one
    line); ``allow_code``: see :func:`resolve_spec`."""
    base, params = resolve_spec(name, allow_code=allow_code)
    factory = _resolve(base)
    try:
        takes_seed = "seed" in inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin or odd callable: try the keyword
        takes_seed = True
    try:
        if takes_seed:
            agent = factory(seed=seed, **params)
        else:
            agent = factory(**params)
            if isinstance(agent, Agent):
                agent.reset(seed)
    except SpecError:
        raise
    except (Exception, SystemExit) as exc:  # noqa: BLE001  (a factory's failure, e.g. a bad model file: one line)
        text = " ".join(str(exc).split())[:300]
        raise UnknownAgentError(f"agent {name!r}: {type(exc).__name__}: {text}") from None
    if not isinstance(agent, Agent):
        raise UnknownAgentError(
            f"agent {name!r}: the factory returned a {type(agent).__name__}, not a hotspot.agents.Agent "
            f"(wrap a function (observation, mask) -> action in hotspot.agents.PolicyAgent)"
        )
    agent.spec = canonical_spec(base, params)
    return agent


def policy_id_of(name: str) -> int | None:
    """The compiled policy id of agent ``name`` (None for an agent that runs in Python)."""
    pid = getattr(make_agent(name, 0), "policy_id", None)
    return None if pid is None else int(pid)


# The built-in agents.  An agent whose module cannot be imported is registered
# but unavailable; an agent without a cost (SECONDS_PER_GAME) stays out of the
# default round robin.  Retired (git keeps them), each weaker than a simpler
# agent in both seats on open (CHANGELOG.md, "Retired agents"):
# expert-policy, expert-ismcts.  mcts-lite is the spec
# mcts(max_candidates=4,simulations=2).
register_agent(
    "random",
    "hotspot.agents.random_agent:RandomAgent",
    "uniform over the legal actions (compiled)",
    seconds_per_game=SECONDS_PER_GAME["random"],
)
register_agent(
    "scripted",
    "hotspot.agents.scripted:ScriptedAgent",
    "hand-written heuristic player (compiled)",
    seconds_per_game=SECONDS_PER_GAME["scripted"],
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
    seconds_per_game=SECONDS_PER_GAME["learned"],
    params="hotspot.agents.action_policy:SPEC_PARAMS",
)
register_agent(
    "ismcts",
    "hotspot.agents.ismcts:ISMCTSAgent",
    "information-set Monte Carlo tree search (single observer, determinized, compiled)",
    seconds_per_game=SECONDS_PER_GAME["ismcts"],
    params="hotspot.agents.ismcts:SPEC_PARAMS",
)
register_agent(
    "portfolio",
    "hotspot.agents.portfolio:PortfolioAgent",
    "portfolio search over counters: whole-phase plans of per-counter intents, greedy over play-outs "
    "to the enemy's reply (compiled)",
    seconds_per_game=SECONDS_PER_GAME["portfolio"],
    params="hotspot.agents.portfolio:SPEC_PARAMS",
)
register_agent(
    "sb3",
    "hotspot.agents.sb3:SB3Agent",
    "a Stable-Baselines3 / sb3-contrib model file, e.g. sb3(path=model.zip) (the train extra; the file is code)",
    params="hotspot.agents.sb3:SPEC_PARAMS",
)
register_agent(
    "rllib",
    "hotspot.agents.rllib:RLlibAgent",
    "a Ray RLlib checkpoint (a policy a seat), e.g. rllib(path=rllib-ppo) (the rllib extra; the checkpoint is code)",
    params="hotspot.agents.rllib:SPEC_PARAMS",
)
register_agent(
    "planes",
    "hotspot.agents.planes_net:PlanesAgent",
    "a policy-value network over the board's hex planes, e.g. planes(path=net.npz), no search; numpy weights",
    params="hotspot.agents.planes_net:SPEC_PARAMS",
)
register_agent(
    "learned-ismcts",
    "hotspot.agents.ismcts:learned_ismcts_agent",
    "ISMCTS valuing positions with the learned value network (expert iteration; numpy weights)",
    seconds_per_game=SECONDS_PER_GAME["learned-ismcts"],
    params="hotspot.agents.ismcts:SPEC_PARAMS",
)

# ``best``: the strongest agent that plays a game in at most 10 s on one core
# of the 2-core reference machine (docs/results.md, "Agents and their measured
# strength"; BENCHMARKS.md): ``hotspot play --ziegler best``.
register_alias("best", "portfolio(horizon=2)", "the strongest agent at <= 10 s a game on one core")

# OpenSpiel's own bots as agents (the ``openspiel`` extra: without it they are
# registered but unavailable).  They live with the OpenSpiel game in the
# environments layer (``hotspot.env.openspiel``), loaded by name only when one
# is made; their parameters are declared here, so that listing them needs no
# OpenSpiel.
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
