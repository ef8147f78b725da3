"""Agent specs: an agent's name with its parameters, in OpenSpiel's
game-string style.

>>> parse_spec("ismcts(iterations=256, think_ms=500)")
('ismcts', {'iterations': 256, 'think_ms': 500})

A spec is ``NAME`` or ``NAME(KEY=VALUE, ...)``: a value is an integer, a
number, ``true``/``false``, a word (letters, digits and ``_ - . + / ~ :``,
so that a file path is a word) or a quoted text (``'my runs/model.zip'``:
anything but quotes, commas and parentheses).  ``NAME`` is a registered
agent or alias (a word such as ``ismcts``), or ``module:attribute``, a
factory in an importable Python module (``mymodule:MyAgent``, the
``module:attribute`` form of Python's entry points; see
``hotspot.agents.registry``).
Each agent declares its parameters (:class:`Param`: a kind and a range, a
default); :func:`check_params` refuses an unknown parameter or a value out of
range with one line naming the agent's parameters and their ranges, and
:func:`canonical_spec` writes the one spelling of a spec that the arena keeps
in its rows and resume keys (keys sorted, defaults left out, numbers in one
form): ``ismcts(iterations=16)`` *is* ``ismcts``, and
``ismcts(think_ms=500,iterations=256)`` is ``ismcts(iterations=256,think_ms=500)``.

Lists of specs (``--agents``, ``--pairings``) are split on the commas and
colons outside parentheses (:func:`split_top`).
"""

from __future__ import annotations

import importlib
import math
import re
from dataclasses import dataclass

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*\Z")
_IDENTS = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
#: ``module:attribute``: a factory in an importable module (dotted names both sides)
MODULE_SPEC = re.compile(rf"({_IDENTS}):({_IDENTS})\Z")
_WORD = re.compile(r"[A-Za-z0-9_\-.+/~:\\]+\Z")
_QUOTED = re.compile(r"[^'\"(),]*\Z")
_INT = re.compile(r"[+-]?[0-9]+\Z")
_MAX_SPEC = 1000  # characters


class SpecError(ValueError):
    """A malformed agent spec, an unknown parameter or a value out of range."""


@dataclass(frozen=True)
class Param:
    """One parameter of an agent: ``kind`` is ``"int"``, ``"float"``,
    ``"bool"``, ``"choice"``, ``"str"`` (a word or quoted text), ``"path"``
    (a file the agent reads: only the person at the command line may name
    one, see ``hotspot.agents.registry``'s ``allow_code``) or ``"any"`` (a
    value of any of the spec's forms, for a factory that does not say);
    ``low``/``high`` bound a number (inclusive), ``choices`` name a choice's
    values; ``default`` is the value the agent plays with when the spec leaves
    the parameter out; ``doc``: what it does, one sentence.

    In a compiled agent's table (``hotspot.agents.params.ParamTable``) two
    more fields count: ``vector`` (it has a slot in the compiled parameter
    vector; a choice's slot holds the matching ``codes`` entry) and ``spec``
    (an agent spec may set it; a parameter only Python callers set, or only
    the agent itself, is not)."""

    kind: str
    default: object
    low: float | None = None
    high: float | None = None
    choices: tuple = ()
    doc: str = ""
    codes: tuple = ()
    vector: bool = True
    spec: bool = True

    def range_text(self) -> str:
        """What a value may be, in words: ``an integer in 1..1000000``."""
        if self.kind in ("bool", "choice", "any", "path", "str"):
            return {
                "bool": "true or false",
                "choice": "one of " + "|".join(self.choices),
                "any": "any value",
                "path": "a file's path",
                "str": "a text",
            }[self.kind]
        what = "an integer" if self.kind == "int" else "a number"
        if self.low is None and self.high is None:
            return what
        if self.high is None:
            return f"{what} >= {_fmt(self.low)}"
        if self.low is None:
            return f"{what} <= {_fmt(self.high)}"
        return f"{what} in {_fmt(self.low)}..{_fmt(self.high)}"

    def encode(self, value) -> float:
        """A checked value as its slot in a compiled parameter vector holds it."""
        if self.kind == "choice":
            return float(self.codes[self.choices.index(value)])
        return float(value)

    @property
    def required(self) -> bool:
        """A ``path`` with no default: the agent cannot be made without it."""
        return self.kind == "path" and self.default is None

    def describe(self, name: str) -> str:
        if self.kind == "choice":
            rng = "|".join(self.choices)
        elif self.kind == "bool":
            rng = "true|false"
        elif self.kind in ("str", "path", "any"):
            rng = {"str": "TEXT", "path": "PATH", "any": "VALUE"}[self.kind]
        elif self.low is None and self.high is None:
            rng = self.kind
        else:
            rng = f"{self.kind} {_fmt(self.low)}..{_fmt(self.high)}"
        return f"{name}={rng} (required)" if self.required else f"{name}={rng} (default {_fmt(self.default)})"

    def check(self, agent: str, name: str, value):
        """``value`` converted to this parameter's kind, or a :class:`SpecError`."""

        def bad(why):
            return SpecError(f"agent {agent!r}: {name}={_fmt(value)} {why}; {agent} takes {describe_params(agent)}")

        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise bad("is not true or false")
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
            raise bad(f"is not one of {'|'.join(self.choices)}")
        if self.kind == "any":
            return value
        if self.kind in ("str", "path"):
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                raise bad("is not a text")
            return value if isinstance(value, str) else _fmt(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad("is not a number")
        if not math.isfinite(value):
            raise bad("is not finite")
        if self.kind == "int":
            if value != int(value):
                raise bad("is not an integer")
            value = int(value)
        else:
            value = float(value)
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise bad(f"is out of range {_fmt(self.low)}..{_fmt(self.high)}")
        return value


#: the key of a :class:`Param` that takes every keyword no other names (a
#: factory with ``**kwargs``)
ANY_KEYWORD = "**"

# the parameters declared by each agent name, filled by the registry: a dict,
# a lazy "module:attribute" naming one, or a callable returning one (loaded
# when first needed)
_PARAMS: dict = {}


def declare_params(agent: str, params) -> None:
    """Declare ``agent``'s parameters: a dict of :class:`Param` by name, a
    ``"module:attribute"`` string naming one, or a callable returning one
    (either loaded when first needed)."""
    if isinstance(params, str) or callable(params):
        _PARAMS[agent] = params
    else:
        _PARAMS[agent] = dict(params or {})


def params_of(agent: str) -> dict[str, Param]:
    """The declared parameters of ``agent`` (empty: it takes none)."""
    ps = _PARAMS.get(agent) or {}
    if isinstance(ps, str):
        module, _, attr = ps.partition(":")
        try:
            ps = dict(getattr(importlib.import_module(module), attr))
        except (ImportError, AttributeError) as exc:
            raise SpecError(f"agent {agent!r}: cannot load its parameters {ps!r} ({exc})") from None
        _PARAMS[agent] = ps
    elif callable(ps):
        ps = dict(ps())
        _PARAMS[agent] = ps
    return dict(ps)


def describe_params(agent: str) -> str:
    """``agent``'s parameters with their ranges and defaults, in one line."""
    ps = params_of(agent)
    if not ps:
        return "no parameters"
    parts = [p.describe(n) for n, p in sorted(ps.items()) if n != ANY_KEYWORD]
    if ANY_KEYWORD in ps:
        parts.append("any other KEY=VALUE")
    return ", ".join(parts)


def _fmt(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, str) and not _WORD.match(v):
        return f"'{v}'"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _value(text: str, spec: str):
    t = text.strip()
    if not t:
        raise SpecError(f"agent spec {spec!r}: a parameter has no value")
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    if _INT.match(t):
        return int(t)
    try:
        v = float(t)
    except ValueError:
        pass
    else:
        if not math.isfinite(v):
            raise SpecError(f"agent spec {spec!r}: {t!r} is not a finite number")
        return v
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        if not _QUOTED.match(t[1:-1]):
            raise SpecError(
                f"agent spec {spec!r}: bad value {t!r} (a quoted text holds no quotes, commas or parentheses)"
            )
        return t[1:-1]
    if not _WORD.match(t):
        raise SpecError(f"agent spec {spec!r}: bad value {t!r} (a number, true/false, a word or a 'quoted text')")
    return t


def parse_spec(spec) -> tuple[str, dict]:
    """``"name(k=v, ...)"`` -> ``(name, {k: v})`` (syntax only: see
    :func:`check_params` for the agent's own parameters)."""
    if not isinstance(spec, str):
        raise SpecError(f"an agent spec is a string like 'ismcts(iterations=64)', got {spec!r}")
    text = spec.strip()
    if not text or len(text) > _MAX_SPEC:
        raise SpecError(f"agent spec {spec[:60]!r}: empty or longer than {_MAX_SPEC} characters")
    name, paren, rest = text.partition("(")
    name = name.strip()
    if not (_NAME.match(name) or MODULE_SPEC.match(name)):
        raise SpecError(
            f"agent spec {spec!r}: {name!r} is not an agent name (a word such as ismcts, or module:attribute "
            f"naming a factory in a Python module)"
        )
    params: dict = {}
    if not paren:
        if ")" in text:
            raise SpecError(f"agent spec {spec!r}: ')' without '('")
        return name, params
    if not rest.endswith(")") or "(" in rest or ")" in rest[:-1]:
        raise SpecError(f"agent spec {spec!r}: expected NAME(KEY=VALUE, ...)")
    body = rest[:-1].strip()
    if not body:
        return name, params
    for item in body.split(","):
        key, eq, val = item.partition("=")
        key = key.strip()
        if not eq or not _NAME.match(key):
            raise SpecError(f"agent spec {spec!r}: {item.strip()!r} is not KEY=VALUE")
        if key in params:
            raise SpecError(f"agent spec {spec!r}: {key} given twice")
        params[key] = _value(val, spec)
    return name, params


def check_params(agent: str, params: dict) -> dict:
    """``params`` checked against ``agent``'s declared parameters and converted
    to their kinds (a :class:`SpecError` names the agent's parameters and
    their ranges otherwise)."""
    declared = params_of(agent)
    out = {}
    for key, value in params.items():
        p = declared.get(key, declared.get(ANY_KEYWORD))
        if p is None:
            raise SpecError(f"agent {agent!r} has no parameter {key!r}; {agent} takes {describe_params(agent)}")
        out[key] = p.check(agent, key, value)
    for key, p in declared.items():
        if p.required and key not in out:
            raise SpecError(
                f"agent {agent!r} needs {key}=..., e.g. {agent}({key}=model.zip); {agent} takes {describe_params(agent)}"
            )
    return out


def canonical_spec(agent: str, params: dict) -> str:
    """The one spelling of ``agent`` with ``params`` (checked): keys sorted,
    values equal to the default left out."""
    declared = params_of(agent)
    items = [(k, v) for k, v in sorted(params.items()) if k not in declared or v != declared[k].default]
    if not items:
        return agent
    return f"{agent}({','.join(f'{k}={_fmt(v)}' for k, v in items)})"


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split on ``sep`` outside parentheses (a list of specs)."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise SpecError(f"{text!r}: ')' without '('")
        if ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if depth != 0:
        raise SpecError(f"{text!r}: '(' without ')'")
    out.append("".join(cur))
    return out
