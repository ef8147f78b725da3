"""Agents from outside the package: a factory in the user's own module
(``module:attribute``), and installed plugins (the ``hotspot.agents``
entry-point group).

``module:attribute`` is the form of Python's entry points (and of
Gymnasium's ``gym.make("module:Env-v0")``): ``mybots:GreedyAgent`` imports
``mybots`` and calls ``GreedyAgent(seed=..., **params)`` (``seed`` only if it
takes one), which must return a :class:`hotspot.agents.Agent`.  The module is
imported as ``python -m`` would find it: from ``sys.path`` with the current
directory first, so a file ``mybots.py`` where the command runs is found.
Its parameters are the factory's ``SPEC_PARAMS`` (a dict of
:class:`hotspot.agents.specs.Param`) if it has one, else its keyword
arguments, each typed by its default (``int``, ``float``, ``bool``, text;
none or no default: any value), and ``**kwargs`` takes any other key.

A plugin package declares its agents in its ``pyproject.toml``::

    [project.entry-points."hotspot.agents"]
    greedy = "mybots:GreedyAgent"

and ``greedy`` is then an agent name like ``scripted`` (``hotspot arena
--list-agents`` lists it) wherever hotspot is installed beside it.

Importing a module runs its code: :func:`import_factory` is called only
where the registry allows code (``allow_code``, see
``hotspot.agents.registry``).
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys

from .specs import ANY_KEYWORD, MODULE_SPEC, Param, SpecError

#: the entry-point group of installed agent plugins
ENTRY_POINT_GROUP = "hotspot.agents"


class PluginError(SpecError):
    """A ``module:attribute`` agent that cannot be loaded (one line)."""


def user_path() -> str:
    """The directory a module spec is looked for in first: the current one,
    as ``python -m`` puts it on ``sys.path`` (added to ``sys.path`` here, and
    inherited by worker processes, spawned or forked)."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)
    return cwd


def import_factory(spec_name: str):
    """The callable a ``module:attribute`` name refers to, imported; a
    :class:`PluginError` naming what is wrong otherwise (a module that is
    not found, fails to import, an attribute that is missing or not
    callable)."""
    match = MODULE_SPEC.match(spec_name)
    if match is None:
        raise PluginError(f"agent {spec_name!r}: not module:attribute")
    module_name, attr = match.groups()
    here = user_path()
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or module_name
        raise PluginError(f"agent {spec_name!r}: no module named {missing!r} (looked in {here} and sys.path)") from None
    except BaseException as exc:  # noqa: BLE001  (the user's module: whatever it raises is one line)
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise PluginError(
            f"agent {spec_name!r}: importing {module_name} failed: {type(exc).__name__}: {_line(exc)}"
        ) from None
    obj = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise PluginError(f"agent {spec_name!r}: module {module_name!r} has no attribute {attr!r}") from None
    if not callable(obj):
        raise PluginError(
            f"agent {spec_name!r}: {attr} is a {type(obj).__name__}, not a class or factory returning an Agent"
        )
    return obj


def factory_params(factory) -> dict[str, Param]:
    """A factory's spec parameters: its ``SPEC_PARAMS`` if it declares them,
    else its keyword arguments typed by their defaults (``seed`` aside)."""
    declared = getattr(factory, "SPEC_PARAMS", None)
    if isinstance(declared, dict) and all(isinstance(p, Param) for p in declared.values()):
        return dict(declared)
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        return {ANY_KEYWORD: Param("any", None)}
    out: dict[str, Param] = {}
    for name, p in sig.parameters.items():
        if name == "seed" or p.kind in (p.POSITIONAL_ONLY, p.VAR_POSITIONAL):
            continue
        if p.kind == p.VAR_KEYWORD:
            out[ANY_KEYWORD] = Param("any", None)
            continue
        default = None if p.default is p.empty else p.default
        kind = "any"
        if isinstance(default, bool):
            kind = "bool"
        elif isinstance(default, int):
            kind = "int"
        elif isinstance(default, float):
            kind = "float"
        elif isinstance(default, str):
            kind = "str"
        out[name] = Param(kind, default)
    return out


def entry_point_agents() -> dict[str, tuple[str, str]]:
    """The agents installed plugins declare: ``{name: ("module:attribute",
    description)}`` from the ``hotspot.agents`` entry-point group (a name
    that is not a plain word is left out)."""
    from importlib.metadata import entry_points

    out = {}
    try:
        found = entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # noqa: BLE001  (broken metadata of another package must not break hotspot)
        return out
    for ep in found:
        dist = getattr(getattr(ep, "dist", None), "name", None)
        out.setdefault(ep.name, (ep.value, f"plugin {ep.value}" + (f" (from {dist})" if dist else "")))
    return out


def _line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:200] + ("..." if len(text) > 200 else "")


__all__ = [
    "ENTRY_POINT_GROUP",
    "PluginError",
    "entry_point_agents",
    "factory_params",
    "import_factory",
    "user_path",
]
