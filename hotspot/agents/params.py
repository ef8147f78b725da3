"""An agent's parameters, declared once.

Every agent's parameter is one :class:`hotspot.agents.specs.Param`.  A
compiled agent (``ismcts``, ``portfolio``) reads its parameters from one
float64 vector indexed by module constants (``P_ITERATIONS``, ...).  Its
:class:`ParamTable` (a name to each ``Param``) is the one declaration of
those parameters; from it come

* the vector's layout: :meth:`ParamTable.index` (a slot's index is its
  position among the table's vector parameters, in the table's order) for the
  ``P_*`` constants, :meth:`ParamTable.defaults` for ``DEFAULT_PARAMS``;
* the spec parameters (:meth:`ParamTable.spec_params`: ``SPEC_PARAMS``, what
  ``ismcts(iterations=64)`` may set, see ``hotspot.agents.specs``);
* the checks of the agent's constructor (:meth:`ParamTable.check`: a value
  converted, or a one-line ``ValueError`` naming the parameter and its range);
* the docs (:meth:`ParamTable.doc`: the parameters section of the agent's
  docstring, and ``docs/agents.md``'s reference).

Adding a parameter is one ``"name": Param(...)`` line in the agent's table, one
``P_NAME = PARAMS.index("name")`` line if compiled code reads it, and the
keyword in the constructor.  (The ``P_*`` constants are assigned in the
agent's own module, which ``hotspot.core._jit.COMPILED_MODULES`` lists: an
edit of the table changes that module's source and so the compiled-code cache
key.)
"""

from __future__ import annotations

import math
import os

import numpy as np

from .specs import Param

#: the kinds of a compiled agent's parameter: what a value may be
KINDS = ("int", "float", "bool", "choice", "path", "any")


def _check_declaration(agent: str, name: str, p: Param) -> None:
    """A table's parameter declared as the vector can hold it (one line otherwise)."""
    where = f"agent {agent!r}, parameter {name!r}"
    if p.kind not in KINDS:
        raise ValueError(f"{where}: kind {p.kind!r} is not one of {', '.join(KINDS)}")
    if p.kind == "choice" and (not p.choices or (p.vector and len(p.codes) != len(p.choices))):
        raise ValueError(f"{where}: a choice names its choices (and a code each in the vector)")
    if p.kind in ("any", "path") and p.vector:
        raise ValueError(f"{where}: a {p.kind} value has no slot in the vector (vector=False)")


class ParamTable:
    """The parameters of agent ``agent``, in the order of the table (see the
    module docstring)."""

    def __init__(self, agent: str, params: dict[str, Param]):
        for name, p in params.items():
            _check_declaration(agent, name, p)
        self.agent = agent
        self.by_name = dict(params)
        #: the vector's slots, by name, in index order
        self.slots = tuple(name for name, p in params.items() if p.vector)

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
        return {name: p for name, p in self.by_name.items() if p.spec}

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

    def decode(self, name: str, slot: float):
        """A vector slot's value as the parameter's kind (:meth:`Param.encode`'s inverse)."""
        p = self.by_name[name]
        if p.kind == "choice":
            return p.choices[p.codes.index(int(slot))]
        return {"int": int, "bool": bool}.get(p.kind, float)(slot)

    def repr(self, cls: str, vector: np.ndarray, **others) -> str:
        """``cls(name=value, ...)``: each vector parameter read back from
        ``vector`` in the table's order, then ``others`` (the parameters the
        agent keeps outside the vector, as it shows them)."""
        shown = [f"{name}={self.decode(name, vector[i])!r}" for i, name in enumerate(self.slots)]
        return f"{cls}({', '.join(shown + [f'{k}={v!r}' for k, v in others.items()])})"

    def doc(self, indent: str = "    ") -> str:
        """The parameters in words, one a line: ``name: range (default D): doc``
        (the parameters section of the agent's docstring)."""
        lines = []
        for name, p in self.by_name.items():
            extra = "" if p.spec else " [not in a spec]"
            default = "" if p.kind == "any" else f" (default {_fmt(p.default)})"
            lines.append(f"{indent}{name}: {p.range_text()}{default}{extra}: {p.doc}".rstrip(": "))
        return "\n".join(lines)


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    return str(v)
