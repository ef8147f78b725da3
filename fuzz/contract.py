"""The fuzzer's contract: what counts as a deliberate refusal of the hotspot
package (a ``raise`` statement in ``hotspot/`` naming the exception), a
refusal that changed nothing, and inputs written as JSON (repr and a base64
pickle that ``--replay`` reads)."""

from __future__ import annotations

import ast
import base64
import contextlib
import functools
import os
import pickle
import sys
from pathlib import Path

from benchmarks import _common as C

HOTSPOT_DIR = str(C.REPO_ROOT / "hotspot") + os.sep


class ContractError(AssertionError):
    """An entry point broke its contract (not a refusal it documents)."""


@functools.lru_cache(maxsize=None)
def _raise_lines(path: str) -> dict:
    """line -> names of the exceptions a ``raise`` statement on that line raises
    (``*`` for ``raise`` of a variable or a bare re-raise)."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    lines: dict = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise):
            exc = node.exc
            if isinstance(exc, ast.Call):
                exc = exc.func
                name = exc.attr if isinstance(exc, ast.Attribute) else getattr(exc, "id", "*")
            elif isinstance(exc, ast.Name) and exc.id[:1].isupper():
                name = exc.id  # raise SomeError
            else:
                name = "*"  # a bare re-raise, or raise of a variable
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                lines.setdefault(line, set()).add(name)
    return lines


def raised_where(exc: BaseException) -> tuple[str, int]:
    """(file, line) of the innermost frame of ``exc``'s traceback."""
    tb = exc.__traceback__
    if tb is None:
        return "?", 0
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_filename, tb.tb_lineno


def deliberate(exc: BaseException) -> bool:
    """Was ``exc`` raised on purpose by the hotspot package: its innermost frame
    a ``raise`` statement in ``hotspot/`` that raises this type (by name)?"""
    path, line = raised_where(exc)
    if not os.path.abspath(path).startswith(HOTSPOT_DIR):
        return False
    names = _raise_lines(path).get(line, set())
    return "*" in names or any(k.__name__ in names for k in type(exc).__mro__)


def refused(exc: BaseException, *allowed: type) -> str:
    """The outcome label of a refusal, after checking that ``exc`` is one of the
    documented types ``allowed`` raised deliberately; otherwise the exception
    (a wrong type) is re-raised, or a ContractError names where it came from."""
    if not isinstance(exc, allowed):
        raise exc
    if not deliberate(exc):
        path, line = raised_where(exc)
        raise ContractError(
            f"{type(exc).__name__} ({exc}) was not raised by a raise statement of the hotspot "
            f"package that names it: it came from {path}:{line}"
        ) from exc
    return f"refused:{type(exc).__name__}"


def same(before, after, what: str) -> None:
    """A refused input changed nothing: the snapshots are identical."""
    if before != after:
        keys = [k for k in before if before[k] != after.get(k)] if isinstance(before, dict) else []
        raise ContractError(f"a refused {what} changed the state ({', '.join(map(str, keys)) or 'snapshot'})")


def short(x) -> str:
    """repr for a message, shortened; never raises (an int too long to print is shown by its size)."""
    try:
        with any_int_prints():
            text = repr(x)
    except Exception:  # noqa: BLE001
        text = f"<{type(x).__name__} that cannot be printed>"
    return text if len(text) <= 200 else text[:197] + "..."


def check(condition, message: str) -> None:
    if not condition:
        raise ContractError(message)


@contextlib.contextmanager
def any_int_prints():
    """Python refuses to turn ints of over 4300 digits into text; the harness's
    own reprs of inputs may (the library's messages may not)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:
        yield
        return
    before = get()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


def describe(x) -> dict:
    """An input as JSON: its repr (shortened) and a base64 pickle that --replay reads."""
    try:
        with any_int_prints():
            r = repr(x)
    except Exception as exc:  # noqa: BLE001 - a hostile __repr__
        r = f"<repr failed: {type(exc).__name__}>"
    if len(r) > 2000:
        r = r[:2000] + f"... ({len(r)} characters)"
    try:
        pickled = base64.b64encode(pickle.dumps(x, protocol=4)).decode("ascii")
    except Exception as exc:  # noqa: BLE001
        pickled = None
        r += f" <not picklable: {exc}>"
    return {"repr": r, "pickle_b64": pickled}


def undescribe(d: dict):
    return pickle.loads(base64.b64decode(d["pickle_b64"]))  # noqa: S301 - our own files


def outcome_with(label: str, extra: list) -> str:
    """An outcome label with the reset's outcome, if a reset was fuzzed too."""
    return label if not extra else f"{label} | {' '.join(extra)}"
