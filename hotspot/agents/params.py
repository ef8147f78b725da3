"""An agent's parameters, declared once.

A compiled agent (``ismcts``, ``portfolio``) reads its parameters from one
float64 vector indexed by module constants (``P_ITERATIONS``, ...).  Its
:class:`ParamTable` is the one declaration of those parameters; from it come

* the vector's layout: :meth:`ParamTable.index` (a slot's index is its
  position among the table's vector parameters, in the table's order) for the
  ``P_*`` constants, :meth:`ParamTable.defaults` for ``DEFAULT_PARAMS``;
* the spec parameters (:meth:`ParamTable.spec_params`: ``SPEC_PARAMS``, what
  ``ismcts(iterations=64)`` may set, see ``hotspot.agents.specs``);
* the checks of the agent's constructor (:meth:`ParamTable.check`: a value
  converted, or a one-line ``ValueError`` naming the parameter and its range);
* the docs (:meth:`ParamTable.doc`: the parameters section of the agent's
  docstring, and ``docs/agents.md``'s reference).

Adding a parameter is one :class:`AgentParam` line in the agent's table, one
``P_NAME = PARAMS.index("name")`` line if compiled code reads it, and the
keyword in the constructor.  (The ``P_*`` constants are assigned in the
agent's own module, which ``hotspot.core._jit.COMPILED_MODULES`` lists: an
edit of the table changes that module's source and so the compiled-code cache
key.)
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import numpy as np

from .specs import Param

#: the kinds of a parameter: what a value may be
KINDS = ("int", "float", "bool", "choice", "path", "any")


@dataclass(frozen=True)
class AgentParam:
    """One parameter of an agent.

    ``kind``: ``"int"``, ``"float"``, ``"bool"``, ``"choice"`` (one of
    ``choices``, stored in the vector as the matching ``codes`` entry) or
    ``"any"`` (a Python object the constructor interprets, never in the
    vector); ``low``/``high`` bound a number (inclusive, None: unbounded);
    ``doc``: what it does, one sentence.  ``vector``: it has a slot in the
    compiled parameter vector; ``spec``: an agent spec may set it (a
    parameter only Python callers set, or only the agent itself, is not)."""

    name: str
    kind: str
    default: object
    low: float | None = None
    high: float | None = None
    doc: str = ""
    choices: tuple = ()
    codes: tuple = ()
    vector: bool = True
    spec: bool = True

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name!r}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.kind == "choice" and (not self.choices or (self.vector and len(self.codes) != len(self.choices))):
            raise ValueError(f"parameter {self.name!r}: a choice names its choices (and a code each in the vector)")
        if self.kind in ("any", "path") and self.vector:
            raise ValueError(f"parameter {self.name!r}: a {self.kind} value has no slot in the vector")

    def range_text(self) -> str:
        """What a value may be, in words: ``an integer in 1..1000000``."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + "|".join(self.choices)
        if self.kind == "any":
            return "any value"
        if self.kind == "path":
            return "a file's path"
        what = "an integer" if self.kind == "int" else "a number"
        if self.low is None and self.high is None:
            return what
        if self.high is None:
            return f"{what} >= {_fmt(self.low)}"
        if self.low is None:
            return f"{what} <= {_fmt(self.high)}"
        return f"{what} in {_fmt(self.low)}..{_fmt(self.high)}"

    def spec_param(self) -> Param:
        """The parameter as an agent spec declares it (``hotspot.agents.specs.Param``)."""
        return Param(self.kind, self.default, self.low, self.high, self.choices, self.doc)

    def encode(self, value) -> float:
        """A checked value as its slot in the vector holds it."""
        if self.kind == "choice":
            return float(self.codes[self.choices.index(value)])
        return float(value)


class ParamTable:
    """The parameters of agent ``agent``, in the order of the table (see the
    module docstring)."""

    def __init__(self, agent: str, params: tuple[AgentParam, ...]):
        names = [p.name for p in params]
        if len(set(names)) != len(names):
            raise ValueError(f"agent {agent!r}: a parameter is declared twice")
        self.agent = agent
        self.params = tuple(params)
        self.by_name = {p.name: p for p in params}
        #: the vector's slots, by name, in index order
        self.slots = tuple(p.name for p in params if p.vector)

    def index(self, name: str) -> int:
        """The slot of parameter ``name`` in the vector."""
        if name not in self.slots:
            raise KeyError(f"agent {self.agent!r} has no vector parameter {name!r}")
        return self.slots.index(name)

    @property
    def size(self) -> int:
        """The length of the vector (``NUM_PARAMS``)."""
        return len(self.slots)

    def defaults(self) -> np.ndarray:
        """The vector of the defaults (``DEFAULT_PARAMS``)."""
        out = np.zeros(self.size, dtype=np.float64)
        for i, name in enumerate(self.slots):
            p = self.by_name[name]
            out[i] = p.encode(p.default)
        return out

    def spec_params(self) -> dict[str, Param]:
        """The parameters a spec may set (``SPEC_PARAMS``), in the table's order."""
        return {p.name: p.spec_param() for p in self.params if p.spec}

    def check(self, name: str, value):
        """``value`` of parameter ``name`` converted to its kind (an ``int``, a
        ``float``, a ``bool`` or the choice), or a one-line ``ValueError``:
        ``ismcts: c must be a number in 0..100, got -1.0``."""
        p = self.by_name[name]

        def bad():
            return ValueError(f"{self.agent}: {name} must be {p.range_text()}, got {value!r}")

        if p.kind == "any":
            return value
        if p.kind == "path":
            if isinstance(value, (str, os.PathLike)):
                return str(value)
            raise bad()
        if p.kind == "bool":
            if isinstance(value, (bool, np.bool_)):
                return bool(value)
            raise bad()
        if p.kind == "choice":
            if isinstance(value, str) and value in p.choices:
                return value
            raise bad()
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise bad()
        if not math.isfinite(float(value)):
            raise bad()
        if p.kind == "int":
            if float(value) != int(value):
                raise bad()
            value = int(value)
        else:
            value = float(value)
        if (p.low is not None and value < p.low) or (p.high is not None and value > p.high):
            raise bad()
        return value

    def vector(self, **given) -> np.ndarray:
        """The defaults with the ``given`` parameters (None: the default) checked
        and set; a parameter without a slot is refused (the constructor keeps it)."""
        out = self.defaults()
        for name, value in given.items():
            if value is None:
                continue
            if name not in self.slots:
                raise KeyError(f"agent {self.agent!r} has no vector parameter {name!r}")
            out[self.index(name)] = self.by_name[name].encode(self.check(name, value))
        return out

    def doc(self, indent: str = "    ") -> str:
        """The parameters in words, one a line: ``name: range (default D): doc``
        (the parameters section of the agent's docstring)."""
        lines = []
        for p in self.params:
            where = [] if p.spec else ["not in a spec"]
            extra = f" [{', '.join(where)}]" if where else ""
            default = "" if p.kind == "any" else f" (default {_fmt(p.default)})"
            lines.append(f"{indent}{p.name}: {p.range_text()}{default}{extra}: {p.doc}".rstrip(": "))
        return "\n".join(lines)


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    return str(v)
