"""The one reader of JSON from outside: records, scenarios, saved games, run
folders and the web app's requests all parse through :func:`loads` (and read
files through :func:`read_json`), with the project's limits:

* at most ``MAX_BYTES`` of text;
* nesting at most ``MAX_DEPTH`` deep (checked before parsing, so a hostile
  file never reaches Python's recursion limit);
* integers of at most ``MAX_INT_DIGITS`` digits, finite floats, no ``NaN``
  or ``Infinity`` (not JSON);
* UTF-8 text.

Every refusal is a :class:`JSONInputError` (a ``ValueError``) whose message is
one line saying what is wrong; each loader adds the file's name and its own
words ("not a saved game", ...).
"""

from __future__ import annotations

import json
from pathlib import Path

MAX_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 64
MAX_INT_DIGITS = 40


class JSONInputError(ValueError):
    """JSON text (or a file of it) that the project does not read: one line why."""


def _check_depth(text: str, limit: int) -> None:
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                raise JSONInputError(f"nested too deep (more than {limit} levels)")
        elif ch in "]}":
            depth -= 1


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise JSONInputError(f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JSONInputError(f"a number too large for a float ({text[:20]}...)")
    return value


def _constant(name: str):
    raise JSONInputError(f"{name} is not a JSON value")


def loads(data: str | bytes | bytearray) -> object:
    """The JSON value of ``data`` (text, or bytes of UTF-8), within the limits."""
    if isinstance(data, (bytes, bytearray)):
        if len(data) > MAX_BYTES:
            raise JSONInputError(f"{len(data)} bytes (at most {MAX_BYTES})")
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONInputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    elif not isinstance(data, str):
        raise JSONInputError(f"expected text, got {type(data).__name__}")
    if len(data) > MAX_BYTES:
        raise JSONInputError(f"{len(data)} characters (at most {MAX_BYTES})")
    _check_depth(data, MAX_DEPTH)
    try:
        return json.loads(data, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise JSONInputError(f"{exc.msg}: line {exc.lineno} column {exc.colno}") from None
    except RecursionError:  # (the depth check above keeps this from happening)
        raise JSONInputError("nested too deep") from None


def read_json(path) -> object:
    """The JSON value of the file ``path``, within the limits; ``OSError`` if it
    cannot be read (the caller names the file), :class:`JSONInputError` if it is
    not JSON the project reads."""
    path = Path(path)
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    return loads(data)


__all__ = ["JSONInputError", "MAX_BYTES", "MAX_DEPTH", "MAX_INT_DIGITS", "loads", "read_json"]
