"""Hypothesis strategies shared by the targets: junk values, mutations of
JSON documents and of their text, hostile files, and actions of every type."""

from __future__ import annotations

import base64
import copy
import functools
import json
from decimal import Decimal
from fractions import Fraction


def st():
    from hypothesis import strategies

    return strategies


INTERESTING_INTS = (
    0,
    1,
    -1,
    2,
    3,
    6,
    7,
    8,
    99,
    100,
    127,
    128,
    255,
    256,
    241,
    242,
    10**4,
    2**15 - 1,
    2**15,
    -(2**15),
    2**31 - 1,
    2**31,
    -(2**31),
    2**63 - 1,
    2**63,
    -(2**63),
    -(2**63) - 1,
    2**64 - 1,
    2**64,
    2**100,
    -(2**100),
)


def _huge(sign: int) -> int:
    return sign * 10**5000  # past Python's int <-> str limit (4300 digits)


def huge_ints():
    """+-10**5000 (drawn by sign: hypothesis cannot repr a strategy holding them)."""
    return st().sampled_from((1, -1)).map(_huge)


def junk_values(json_safe: bool = True):
    """Values of any JSON type (or, with json_safe False, any Python value)."""
    s = st()
    ints = s.one_of(s.sampled_from(INTERESTING_INTS), s.integers())
    scalars = s.one_of(
        s.none(),
        s.booleans(),
        ints,
        s.floats(allow_nan=True, allow_infinity=True),
        s.text(max_size=12),
        s.sampled_from(WORDS),
    )
    if not json_safe:
        scalars = s.one_of(
            scalars,
            huge_ints(),
            s.binary(max_size=8),
            s.builds(tuple, s.lists(ints, max_size=3)),
            s.just(Fraction(1, 3)),
            s.just(Decimal("2.5")),
            s.just(1 + 2j),
            s.just(object),
            s.just({1, 2}),
        )
    nested = s.recursive(
        scalars,
        lambda inner: s.one_of(s.lists(inner, max_size=3), s.dictionaries(s.text(max_size=8), inner, max_size=3)),
        max_leaves=8,
    )
    return s.one_of(scalars, nested, s.builds(_deep_list, s.integers(1, 300)))


def _deep_list(depth: int):
    x: list = []
    for _ in range(depth):
        x = [x]
    return x


WORDS = (
    "ziegler",
    "technocrat",
    "infantry",
    "hovercraft",
    "crawler",
    "heavy_beamer",
    "engineer",
    "one_hex",
    "two_hex",
    "triangular",
    "long",
    "platform",
    "central",
    "A",
    "B",
    "Z",
    "AA",
    "1",
    "I",
    "IV",
    "H",
    "I",
    "all",
    "random",
    "standard",
    "open",
    "hotspot-scenario",
    "hotspot-record",
    "d13",
    "diagonal",
    "owner",
    "",
    " ",
    "\x00",
    "\u00e9",
    "\ud7ff",
    "ziegler_units",
    "technocrat_units",
    "ziegler_crustals",
    "technocrat_platforms",
    "concession",
    "AAAA",
)


def json_paths(doc, prefix=()) -> list:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += json_paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += json_paths(v, prefix + (i,))
    return out


def _get(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def _set(doc, path, value):
    if not path:
        return value
    _get(doc, path[:-1])[path[-1]] = value
    return doc


def mutate_state_b64(draw, text: str) -> str:
    s = st()
    try:
        raw = bytearray(base64.b64decode(text, validate=True))
    except Exception:  # noqa: BLE001 - already not base64: replace it
        return draw(s.text(max_size=40))
    if raw:
        for _ in range(draw(s.integers(1, 4))):
            raw[draw(s.integers(0, len(raw) - 1))] = draw(s.integers(0, 255))
    return base64.b64encode(bytes(raw)).decode("ascii")


def mutate_json(draw, doc, json_safe: bool = True):
    """0-3 mutations of a JSON document at drawn places: replace a value by junk,
    tweak it (an int nudged or set to an extreme, a word swapped, a list
    shortened, duplicated or reversed, an ``initial_state`` byte changed),
    delete or add a key or element, wrap a value in a list."""
    s = st()
    doc = copy.deepcopy(doc)
    for _ in range(draw(s.integers(0, 3))):
        paths = json_paths(doc)
        depth = draw(s.sampled_from((1, 2, 3, 4, 99)))  # shallow fields as often as deep ones
        paths = [q for q in paths if len(q) <= depth] or paths
        path = draw(s.sampled_from(paths))
        value = _get(doc, path)
        op = draw(s.sampled_from(("replace", "tweak", "tweak", "tweak", "delete", "insert", "wrap")))
        if op == "replace":
            doc = _set(doc, path, draw(junk_values(json_safe)))
        elif op == "wrap":
            doc = _set(doc, path, [value] if draw(s.booleans()) else {"x": value})
        elif op == "delete" and path:
            parent = _get(doc, path[:-1])
            del parent[path[-1]]
        elif op == "insert" and isinstance(value, (dict, list)):
            new = draw(junk_values(json_safe))
            if isinstance(value, dict):
                value[
                    draw(
                        s.one_of(
                            s.sampled_from(
                                (
                                    "id",
                                    "hex",
                                    "squads",
                                    "kind",
                                    "rules",
                                    "seed",
                                    "actions",
                                    "initial_state",
                                    "max_turns",
                                    "forces",
                                    "deploy",
                                    "x",
                                )
                            )
                        ),
                        s.text(max_size=6),
                    )
                ] = new
            else:
                value.insert(draw(s.integers(0, len(value))), new)
        elif op == "tweak":
            if path and path[-1] == "initial_state" and isinstance(value, str):
                new = mutate_state_b64(draw, value)
            elif isinstance(value, bool):
                new = draw(s.sampled_from((not value, 0, 1, None)))
            elif isinstance(value, int):
                new = draw(
                    s.one_of(
                        s.integers(value - 3, value + 3),
                        s.sampled_from(INTERESTING_INTS),
                        *(() if json_safe else (huge_ints(),)),
                    )
                )
            elif isinstance(value, str):
                new = draw(s.one_of(s.sampled_from(WORDS), s.text(max_size=6)))
            elif isinstance(value, list) and value:
                how = draw(s.sampled_from(("drop", "dup", "reverse", "empty")))
                new = {"drop": value[:-1], "dup": value + value[-1:], "reverse": value[::-1], "empty": []}[how]
            else:
                new = draw(junk_values(json_safe))
            doc = _set(doc, path, new)
    return doc


TEXT_TOKENS = (
    b"9" * 5000,
    b"-" + b"9" * 5000,
    b"1e99999",
    b"NaN",
    b"-Infinity",
    b"[" * 50,
    b"\xff",
    b"\xc3\x28",
    b"\xed\xa0\x80",
    b"\x00",
    b'"\\ud800"',
    b"\\",
    b"}",
    b"]",
    b",",
    b"null",
    b"true",
    b"\t\n",
)


def mutate_text(draw, data: bytes) -> bytes:
    """Often no change; else a byte set, bytes inserted (a token: a 5000-digit
    number, invalid UTF-8, a bracket...), a range cut, or the text truncated."""
    s = st()
    op = draw(s.sampled_from(("none", "none", "none", "set", "insert", "token", "cut", "truncate", "bom")))
    data = bytearray(data)
    n = len(data)
    if op == "set" and n:
        data[draw(s.integers(0, n - 1))] = draw(s.integers(0, 255))
    elif op == "insert":
        i = draw(s.integers(0, n))
        data[i:i] = draw(s.binary(min_size=1, max_size=6))
    elif op == "token":
        i = draw(s.integers(0, n))
        data[i:i] = draw(s.sampled_from(TEXT_TOKENS))
    elif op == "cut" and n:
        i = draw(s.integers(0, n - 1))
        del data[i : i + draw(s.integers(1, 40))]
    elif op == "truncate":
        del data[draw(s.integers(0, n)) :]
    elif op == "bom":
        data[0:0] = b"\xef\xbb\xbf"
    return bytes(data)


def special_documents(fmt: str) -> list[bytes]:
    """Hand-made hostile files: deep nesting, huge numbers, wrong top-level types."""
    head = f'{{"format": "{fmt}", "version": '.encode()
    return [
        b"",
        b" ",
        b"null",
        b"[]",
        b"0",
        b'"x"',
        b"{}",
        b"[" * 100000 + b"]" * 100000,
        b'{"a": ' * 50000 + b"1" + b"}" * 50000,
        head + b"9" * 5000 + b"}",
        head + b"1e400}",
        head + b"1, " + b'"x": ' + b"[" * 3000 + b"]" * 3000 + b"}",
        b"\xff\xfe{\x00}\x00",
        b'{"format": "' + fmt.encode() + b'", "version": 1, "seed": ' + b"9" * 4400 + b"}",
        head + b"NaN}",
        head + b"1}" + b"garbage",
    ]


@functools.lru_cache(maxsize=None)
def _special(fmt: str) -> tuple:
    return tuple(special_documents(fmt))


def file_bytes(docs: list, fmt: str):
    """Bytes of a file: a mutated real document (JSON then text mutations), a
    special hostile file, or garbage."""
    s = st()

    @s.composite
    def strategy(draw):
        kind = draw(s.sampled_from(("doc",) * 8 + ("special", "garbage")))
        if kind == "special":
            return draw(s.sampled_from(_special(fmt)))
        if kind == "garbage":
            return draw(s.binary(max_size=300))
        doc = mutate_json(draw, draw(s.sampled_from(docs)))
        try:
            text = json.dumps(doc, indent=draw(s.sampled_from((None, 1)))).encode("utf-8", "surrogatepass")
        except (ValueError, RecursionError):  # nothing JSON can write: an empty file instead
            text = b""
        return mutate_text(draw, text)

    return strategy()


def picks_strategy():
    s = st()
    return s.lists(s.integers(0, 2**16), min_size=1, max_size=8)


WRAPPERS = ("int",) * 6 + (
    "np.int8",
    "np.int16",
    "np.int32",
    "np.int64",
    "np.uint8",
    "np.uint16",
    "np.uint32",
    "np.uint64",
    "np.intp",
    "float",
    "np.float32",
    "np.float64",
    "bool",
    "np.bool_",
    "str",
    "bytes",
    "0d-int64",
    "0d-uint8",
    "0d-float",
    "0d-object",
    "1d",
    "list",
    "tuple",
    "None",
    "Fraction",
    "Decimal",
    "complex",
)


def action_specs():
    """(what, n, wrapper): the n-th legal action now ("legal") or the integer n
    ("value"), given as the type ``wrapper`` names."""
    s = st()
    ints = s.one_of(
        s.integers(0, 241), s.integers(-300, 600), s.integers(), s.sampled_from(INTERESTING_INTS), huge_ints()
    )
    return s.one_of(
        s.tuples(s.just("legal"), s.integers(0, 2**16), s.sampled_from(WRAPPERS)),
        s.tuples(s.just("value"), ints, s.sampled_from(WRAPPERS)),
    )


def wrap(wrapper: str, n: int):
    """The integer ``n`` as the type ``wrapper`` names (numpy ints wrap around
    like a C cast; a float of a huge int is inf)."""
    import numpy as np

    if wrapper == "int":
        return n
    if wrapper.startswith("np.") and wrapper not in ("np.bool_",) and "float" not in wrapper:
        return np.array(n % 2**64, dtype=np.uint64).astype(getattr(np, wrapper[3:]))[()]
    if wrapper in ("float", "np.float32", "np.float64"):
        try:
            f = float(n)
        except OverflowError:
            f = float("inf") if n > 0 else float("-inf")
        return f if wrapper == "float" else getattr(np, wrapper[3:])(f)
    if wrapper == "bool":
        return bool(n % 2)
    if wrapper == "np.bool_":
        return np.bool_(n % 2)
    if wrapper == "str":
        return str(n) if abs(n) < 10**4000 else "9" * 5000
    if wrapper == "bytes":
        return str(n % 1000).encode()
    if wrapper == "0d-int64":
        return np.array(n % 2**64, dtype=np.uint64).astype(np.int64).reshape(())
    if wrapper == "0d-uint8":
        return np.array(n % 256, dtype=np.uint8).reshape(())
    if wrapper == "0d-float":
        return np.array(float(n % 1000))
    if wrapper == "0d-object":
        return np.array(n, dtype=object)
    if wrapper == "1d":
        return np.array([n % 2**63], dtype=np.int64)
    if wrapper == "list":
        return [n]
    if wrapper == "tuple":
        return (n,)
    if wrapper == "None":
        return None
    if wrapper == "Fraction":
        return Fraction(n, 1)
    if wrapper == "Decimal":
        return Decimal(n % 10**6)
    if wrapper == "complex":
        return complex(n % 1000, 0)
    raise ValueError(wrapper)


def resolve_action(spec, legal):
    what, n, wrapper = spec
    if what == "legal":
        n = int(legal[n % len(legal)]) if len(legal) else n % 242
    return wrap(wrapper, n)


def is_integer_action(a) -> bool:
    """What the entry points take as an action: an int or numpy integer, not a bool."""
    import numpy as np

    return isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_))


def is_env_action(a) -> bool:
    """What the environments take as an action: also a 0-d integer array (``HotspotEnv`` docstring)."""
    import numpy as np

    return is_integer_action(a) or (isinstance(a, np.ndarray) and a.shape == () and np.issubdtype(a.dtype, np.integer))


def env_seeds():
    s = st()
    return s.one_of(
        s.none(),
        s.integers(0, 2**64),
        s.sampled_from(INTERESTING_INTS),
        huge_ints(),
        s.integers(),
        s.builds(lambda w, n: wrap(w, n), s.sampled_from(WRAPPERS), s.integers(-5, 2**40)),
        junk_values(False),
    )
