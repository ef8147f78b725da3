"""Fuzzing (issue 10): hypothesis-drawn hostile input at every entry point.

    python benchmarks/fuzz.py                              # every target, 1,000 examples each
    python benchmarks/fuzz.py --examples 100000 --jobs 2   # the long run (BENCHMARKS.md, "Fuzzing")
    python benchmarks/fuzz.py --target record --examples 200 --seed 3
    python benchmarks/fuzz.py --replay WORKDIR/state_bytes/last_input.json   # one saved input again
    python benchmarks/fuzz.py --tiny                       # smoke sizes

The contract every target checks: an input is either *accepted*, and then
everything works on what it produced (the legal-action mask, rendering,
observations and encodings, legal actions applied with every invariant of
docs/state-layout.md still holding, the bytes and the record round trip), or
*refused* with the exception the entry point documents, raised on purpose
by a ``raise`` statement of the ``hotspot`` package (an ``IndexError``,
``KeyError``, ``UnicodeDecodeError``, ``RecursionError``, ``OverflowError``,
numba typing error or a ``TypeError``/``ValueError`` from inside some
library is a failure), and a refused input changes nothing (the game's or
the environment's state bytes, masks and record are identical before and
after).  A crash (a signal), a hang or an example slower than its deadline
is a failure too.

Targets (``--target``, default all):

``state_bytes``   ``core.from_bytes`` / ``Game.from_bytes`` on real states
                  (from games played a few random actions, every scenario
                  kind and rules choice) with fields set to drawn values,
                  bytes set or bits flipped; random bytes of the state's
                  length (with and without a valid version); wrong lengths;
                  batches; version-2 layouts; bytearray, memoryview and
                  things that are not bytes.  Refusal: ``StateError``
                  (``TypeError`` for what is not bytes).
``record``        ``GameRecord.load`` then ``replay`` on record files as
                  bytes: real records mutated as JSON (values replaced by
                  junk, deleted, added, ``initial_state`` bytes changed) and
                  as text (bytes set, inserted, cut, invalid UTF-8, huge
                  numbers), deep nesting, garbage.  Refusal: ``RecordError``.
``scenario_file`` ``load_scenario`` on scenario files as bytes (the built-in
                  scenarios, random set-ups and mid-game positions, mutated
                  as above) and ``Game(dict)`` / ``validate_scenario`` on
                  mutated dicts holding any Python value; then
                  ``scenario_to_state`` and ``Game`` with a drawn seed.
                  Refusal: ``ScenarioError``.
``actions``       ``Game.why_illegal`` / ``apply_action`` with ints of any
                  size and sign, numpy ints of every dtype, floats, bools,
                  strings, bytes, None, arrays, lists, fractions.  Refusal:
                  ``IllegalActionError`` (an integer not legal now) or
                  ``TypeError`` (not an integer); accepted exactly when the
                  mask says legal.
``env_step``      ``HotspotEnv.step`` (both illegal-action modes, both
                  sides, two opponents) with the actions above after a few
                  legal steps, ``reset`` with odd seeds and options, steps
                  before reset.  Refusal: ``IllegalActionError``,
                  ``TypeError``, ``ValueError`` (a seed), ``RuntimeError``
                  (no episode); "lose" mode ends the episode with reward -1
                  and the state unchanged.
``vector_env_step`` ``HotspotVectorEnv.step`` with arrays of every shape and
                  dtype, lists, scalars, legal and illegal values, and
                  ``reset`` with odd seeds and seed lists.  Refusal:
                  ``ValueError`` (shape, dtype, seed) or
                  ``IllegalActionError`` naming the game; no game changed.
``pettingzoo_step`` the AEC env's ``step``, actions as above.  Refusal:
                  ``IllegalActionError`` or ``TypeError``.
``cli_args``      ``hotspot.cli.main(argv)`` with argument lists drawn from
                  the real subcommands and options (read from the parser)
                  and junk values; each call bounded to a second or so
                  (``--max-turns 1``, one worker, at most 2 games, no Ray,
                  no search agent).  It must return or exit with 0 or 2,
                  print a message when not 0, and never a traceback; the
                  exception behind an error message must be a deliberate
                  refusal of the hotspot package (or the OS's error naming
                  a path).

Isolation: without ``--in-process`` every target runs in a child process
(this script with ``--in-process``), so a crash inside compiled code kills
the child only: the parent reports a child killed by a signal (or stopped by
the hang watchdog, ``--hang-s``) as a failure naming the target and its last
input.  Before each example the child writes the input to
``<workdir>/<target>/last_input.json`` (``--replay`` runs it again) and
``faulthandler`` writes the Python stack of a crash or hang next to it.
Failures keep their input (repr and base64 pickle).  Exit status 1 if any
target failed.  The workdir (``--workdir``, default a temporary folder) is
removed after a run without failures unless it was given.  Hypothesis runs
with a fixed ``--seed``, no example database and no shrinking, in runs of
``CHUNK`` examples (its memory grows with the examples of a run).
"""
from __future__ import annotations

import argparse
import ast
import base64
import contextlib
import copy
import faulthandler
import functools
import io
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from fractions import Fraction
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable

import _common as C

HOTSPOT_DIR = str(C.REPO_ROOT / "hotspot") + os.sep
DEFAULT_EXAMPLES = 1000
TINY_EXAMPLES = 10
DEFAULT_HANG_S = 120.0
#: the first examples may compile code (numba loads or compiles a function at
#: its first call): only a hang (--hang-s) fails them, not the deadline
WARM_UP_EXAMPLES = 50
MAX_FAILURES_KEPT = 20
CHUNK = 5000  # examples per hypothesis run (see run_target)


# ------------------------------------------------------------------ contract
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
        raise ContractError(f"{type(exc).__name__} ({exc}) was not raised by a raise statement of the hotspot "
                            f"package that names it: it came from {path}:{line}") from exc
    return f"refused:{type(exc).__name__}"


def same(before, after, what: str) -> None:
    """A refused input changed nothing: the snapshots are identical."""
    if before != after:
        keys = [k for k in before if before[k] != after.get(k)] if isinstance(before, dict) else []
        raise ContractError(f"a refused {what} changed the state ({', '.join(map(str, keys)) or 'snapshot'})")


def _r(x) -> str:
    """repr for a message, shortened; never raises (an int too long to print is shown by its size)."""
    try:
        with _any_int_prints():
            text = repr(x)
    except Exception:  # noqa: BLE001
        text = f"<{type(x).__name__} that cannot be printed>"
    return text if len(text) <= 200 else text[:197] + "..."


def check(condition, message: str) -> None:
    if not condition:
        raise ContractError(message)


# ------------------------------------------------------------------ inputs
@contextlib.contextmanager
def _any_int_prints():
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
        with _any_int_prints():
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


# ------------------------------------------------------------------ targets
@dataclass
class Target:
    name: str
    doc: str
    setup: Callable[[Path], Any]  # builds the pools (once a process), returns a context
    strategy: Callable[[Any], Any]  # context -> hypothesis strategy of inputs
    check: Callable[[Any, Any], str]  # (context, input) -> outcome label; raises on a broken contract
    both: bool = True  # a few hundred examples must give accepted and refused inputs
    deadline_s: float = 5.0  # one example slower than this is a failure (after the warm-up)


TARGETS: dict[str, Target] = {}


def target(name: str, doc: str, setup, strategy, both: bool = True, deadline_s: float = 5.0):
    def deco(fn):
        TARGETS[name] = Target(name, doc, setup, strategy, fn, both, deadline_s)
        return fn
    return deco


# ------------------------------------------------------------------ shared pools
@functools.lru_cache(maxsize=None)
def game_pool():
    """Real games (a ``Game`` each, not to be changed: clone them): every scenario
    kind and every D22 choice, after 0 to a few thousand random legal actions,
    some over (won or truncated), some in set-up, some with a loss pending."""
    import numpy as np

    from hotspot import Game
    from hotspot.core.actions import NUM_ACTIONS
    from hotspot.core.rollout import random_action

    configs = [("standard", {}, None), ("open", {}, None), ("standard", {"losses": "owner"}, None),
               ("random:1", {"combat_table": "diagonal", "stress_timing": "moving_side"}, 3),
               ("random:2", {"forward_into_blocked": "refuse", "collision_count": "per_hex",
                             "control_blocker": "hex"}, None),
               ("open", {"losses": "owner"}, 2)]
    games = []
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    for i, (scenario, rules, max_turns) in enumerate(configs):
        rng = np.array([1000 + i], dtype=np.uint64)
        game = Game(scenario, seed=i, rules=rules, max_turns=max_turns)
        done = 0
        for k in (0, 1, 3, 10, 40, 150, 600, 20000):
            while done < k and not game.is_terminal():
                game.apply_action(int(random_action(game.s, mask, rng, 0)))
                done += 1
            games.append(game.clone())
            if game.is_terminal():
                break
    return games


def pool_state_bytes() -> list[bytes]:
    return [g.to_bytes() for g in game_pool()]


def exercise(game, picks, expect_bytes: bytes | None = None, replay: bool = True) -> None:
    """Everything works on an accepted game: every invariant holds, the mask
    agrees with why_illegal on every action, a game not over has a legal action,
    render / observation / encodings, bytes round trip, an illegal action is
    refused leaving the game unchanged, a few legal actions keep every
    invariant, and the record replays to the same state."""
    import numpy as np

    from hotspot import Game, IllegalActionError
    from hotspot.core.actions import NUM_ACTIONS
    from hotspot.core.integrity import FAULTS, state_fault
    from hotspot.core.record import GameRecord
    from hotspot.features.encoding import encode, new_observation, scratch_state
    from hotspot.env.rendering import render_state

    def invariants(where):
        code, j = state_fault(game.s)
        check(code == 0, f"{where}: invariant broken: {FAULTS[int(code)]} (index {int(j)})")

    picks = list(picks) or [0]
    invariants("accepted state")
    mask = game.legal_action_mask()
    legal = np.flatnonzero(mask)
    check(game.is_terminal() == (legal.size == 0),
          f"{'a game over has legal actions' if game.is_terminal() else 'a game not over has no legal action'}")
    for a in range(NUM_ACTIONS):
        check((game.why_illegal(a) is None) == bool(mask[a]), f"mask and why_illegal disagree on action {a}")
    game.render()
    for a in legal[:4]:
        game.action_to_string(int(a))
    if picks[0] % 8 == 0:
        render_state(game.s, "rgb_array")
    obs, scratch = new_observation(), scratch_state()
    for side in (0, 1):
        for fog in (True, False):
            game.observation(side, fog)
            encode(game.s, side, fog, True, scratch[0], obs["board"], obs["units"], obs["pieces"], obs["globals"])
    data = game.to_bytes()
    if expect_bytes is not None:
        check(data == expect_bytes, "to_bytes does not give back the accepted bytes")
    check(Game.from_bytes(data).to_bytes() == data, "from_bytes(to_bytes()) changed the state")
    illegal = np.flatnonzero(~mask)
    if illegal.size:
        a = int(illegal[picks[0] % illegal.size])
        before = (game.to_bytes(), game.record.to_dict())
        try:
            game.apply_action(a)
        except IllegalActionError as exc:
            refused(exc, IllegalActionError)
        else:
            raise ContractError(f"illegal action {a} (not in the mask) was accepted")
        same(before, (game.to_bytes(), game.record.to_dict()), "illegal action")
    for p in picks[:8]:
        legal = game.legal_actions()
        if game.is_terminal() or not legal.size:
            break
        game.apply_action(int(legal[p % legal.size]), events=bool(p & 1))
        invariants(f"after legal action {int(legal[p % legal.size])}")
    if replay:
        record = GameRecord.from_dict(json.loads(json.dumps(game.record.to_dict())))
        check(Game.from_record(record).to_bytes() == game.to_bytes(), "the record does not replay to the same state")


# ------------------------------------------------------------------ strategies
def st():
    from hypothesis import strategies
    return strategies


INTERESTING_INTS = (0, 1, -1, 2, 3, 6, 7, 8, 99, 100, 127, 128, 255, 256, 241, 242, 10**4, 2**15 - 1, 2**15,
                    -2**15, 2**31 - 1, 2**31, -2**31, 2**63 - 1, 2**63, -2**63, -2**63 - 1, 2**64 - 1, 2**64,
                    2**100, -2**100)


def _huge(sign: int) -> int:
    return sign * 10**5000  # past Python's int <-> str limit (4300 digits)


def huge_ints():
    """+-10**5000 (drawn by sign: hypothesis cannot repr a strategy holding them)."""
    return st().sampled_from((1, -1)).map(_huge)


def junk_values(json_safe: bool = True):
    """Values of any JSON type (or, with json_safe False, any Python value)."""
    s = st()
    ints = s.one_of(s.sampled_from(INTERESTING_INTS), s.integers())
    scalars = s.one_of(s.none(), s.booleans(), ints, s.floats(allow_nan=True, allow_infinity=True),
                       s.text(max_size=12), s.sampled_from(WORDS))
    if not json_safe:
        scalars = s.one_of(scalars, huge_ints(), s.binary(max_size=8),
                           s.builds(tuple, s.lists(ints, max_size=3)), s.just(Fraction(1, 3)),
                           s.just(Decimal("2.5")), s.just(1 + 2j), s.just(object), s.just({1, 2}))
    nested = s.recursive(scalars, lambda inner: s.one_of(s.lists(inner, max_size=3),
                                                           s.dictionaries(s.text(max_size=8), inner, max_size=3)),
                         max_leaves=8)
    return s.one_of(scalars, nested, s.builds(_deep_list, s.integers(1, 300)))


def _deep_list(depth: int):
    x: list = []
    for _ in range(depth):
        x = [x]
    return x


WORDS = ("ziegler", "technocrat", "infantry", "hovercraft", "crawler", "heavy_beamer", "engineer", "one_hex",
         "two_hex", "triangular", "long", "platform", "central", "A", "B", "Z", "AA", "1", "I", "IV", "H", "I",
         "all", "random", "standard", "open", "hotspot-scenario", "hotspot-record", "d13", "diagonal", "owner",
         "", " ", "\x00", "\u00e9", "\ud7ff", "ziegler_units", "technocrat_units", "ziegler_crustals",
         "technocrat_platforms", "concession", "AAAA")


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
                value[draw(s.one_of(s.sampled_from(("id", "hex", "squads", "kind", "rules", "seed", "actions",
                                                      "initial_state", "max_turns", "forces", "deploy", "x"))),
                                  s.text(max_size=6))] = new
            else:
                value.insert(draw(s.integers(0, len(value))), new)
        elif op == "tweak":
            if path and path[-1] == "initial_state" and isinstance(value, str):
                new = mutate_state_b64(draw, value)
            elif isinstance(value, bool):
                new = draw(s.sampled_from((not value, 0, 1, None)))
            elif isinstance(value, int):
                new = draw(s.one_of(s.integers(value - 3, value + 3), s.sampled_from(INTERESTING_INTS),
                                    *(() if json_safe else (huge_ints(),))))
            elif isinstance(value, str):
                new = draw(s.one_of(s.sampled_from(WORDS), s.text(max_size=6)))
            elif isinstance(value, list) and value:
                how = draw(s.sampled_from(("drop", "dup", "reverse", "empty")))
                new = {"drop": value[:-1], "dup": value + value[-1:], "reverse": value[::-1], "empty": []}[how]
            else:
                new = draw(junk_values(json_safe))
            doc = _set(doc, path, new)
    return doc


TEXT_TOKENS = (b"9" * 5000, b"-" + b"9" * 5000, b"1e99999", b"NaN", b"-Infinity", b"[" * 50, b"\xff", b"\xc3\x28",
               b"\xed\xa0\x80", b"\x00", b'"\\ud800"', b"\\", b"}", b"]", b",", b"null", b"true", b"\t\n")


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
        del data[i:i + draw(s.integers(1, 40))]
    elif op == "truncate":
        del data[draw(s.integers(0, n)):]
    elif op == "bom":
        data[0:0] = b"\xef\xbb\xbf"
    return bytes(data)


def special_documents(fmt: str) -> list[bytes]:
    """Hand-made hostile files: deep nesting, huge numbers, wrong top-level types."""
    head = f'{{"format": "{fmt}", "version": '.encode()
    return [b"", b" ", b"null", b"[]", b"0", b'"x"', b"{}", b"[" * 100000 + b"]" * 100000,
            b'{"a": ' * 50000 + b"1" + b"}" * 50000, head + b"9" * 5000 + b"}", head + b"1e400}",
            head + b"1, " + b'"x": ' + b"[" * 3000 + b"]" * 3000 + b"}", b"\xff\xfe{\x00}\x00",
            b'{"format": "' + fmt.encode() + b'", "version": 1, "seed": ' + b"9" * 4400 + b"}",
            head + b"NaN}", head + b"1}" + b"garbage"]


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


# ------------------------------------------------------------------ state_bytes
def _field_slots():
    """(name, byte offset, scalar dtype, count) of every field of STATE_DTYPE, rules flattened."""
    from hotspot.core.state import STATE_DTYPE
    out = []

    def walk(dtype, base, prefix):
        for name in dtype.names:
            sub, off = dtype.fields[name][:2]
            if sub.names:
                walk(sub, base + off, prefix + name + ".")
            else:
                scalar = sub.subdtype[0] if sub.subdtype else sub
                count = int(sub.itemsize // scalar.itemsize)
                out.append((prefix + name, base + off, scalar, count))
    walk(STATE_DTYPE, 0, "")
    return out


def _to_v2(data: bytes) -> bytes:
    """A version-2 layout (state._STATE_DTYPE_V2) holding what it can of a state."""
    import numpy as np

    from hotspot.core import state as S
    new = np.frombuffer(data, S.STATE_DTYPE)
    old = np.zeros(1, S._STATE_DTYPE_V2)
    for name in old.dtype.names:
        if name == "rules":
            for r in old.dtype["rules"].names:
                old["rules"][r] = 0 if r == "turn_limit" else new["rules"][r]
        else:
            old[name] = new[name]
    old["version"] = 2
    return old.tobytes()


def state_bytes_strategy(ctx):
    import numpy as np

    from hotspot.core.state import STATE_BYTES, STATE_VERSION
    s = st()
    base = ctx["states"]
    slots = ctx["slots"]

    def set_fields(draw, data: bytearray, first: int = 0):
        for _ in range(draw(s.integers(1, 4))):
            name, off, dt, count = draw(s.sampled_from(slots))
            i = draw(s.integers(0, count - 1))
            if dt.kind == "f":
                v = draw(s.floats(width=8 * dt.itemsize))
            elif dt.kind == "b":
                v = draw(s.integers(0, 255))
                dt = np.dtype("u1")
            else:
                info = np.iinfo(dt)
                v = draw(s.one_of(s.sampled_from([x for x in (-2, -1, 0, 1, 2, 3, 7, 8, 31, 32, 95, 96, 99, 100,
                                                                 127, 313, 314, info.min, info.max)
                                                    if info.min <= x <= info.max]),
                                  s.integers(int(info.min), int(info.max))))
            p = first + off + i * dt.itemsize
            data[p:p + dt.itemsize] = np.array(v, dtype=dt).tobytes()

    @s.composite
    def strategy(draw):
        kind = draw(s.sampled_from(("field",) * 6 + ("byte", "bits", "valid", "random", "random_v3",
                                                     "length", "batch", "v2", "type")))
        data = bytearray(draw(s.sampled_from(base)))
        if kind == "field":
            set_fields(draw, data)
        elif kind == "byte":
            for _ in range(draw(s.integers(1, 8))):
                data[draw(s.integers(0, STATE_BYTES - 1))] = draw(s.integers(0, 255))
        elif kind == "bits":
            for _ in range(draw(s.integers(1, 8))):
                data[draw(s.integers(0, STATE_BYTES - 1))] ^= 1 << draw(s.integers(0, 7))
        elif kind in ("random", "random_v3"):
            data = bytearray(draw(s.binary(min_size=STATE_BYTES, max_size=STATE_BYTES)))
            if kind == "random_v3":
                data[0:2] = np.array(STATE_VERSION, "<i2").tobytes()
        elif kind == "length":
            how = draw(s.sampled_from(("cut", "extend", "garbage")))
            if how == "cut":
                data = data[:draw(s.integers(0, STATE_BYTES - 1))]
            elif how == "extend":
                data += draw(s.binary(min_size=1, max_size=64))
            else:
                data = bytearray(draw(s.binary(max_size=64)))
        elif kind == "batch":
            other = bytearray(draw(s.sampled_from(base)))
            if draw(s.booleans()):
                set_fields(draw, other)
            data = data + other
        elif kind == "v2":
            data = bytearray(_to_v2(bytes(data)))
            if draw(s.booleans()):
                data[draw(s.integers(2, len(data) - 1))] = draw(s.integers(0, 255))
        elif kind == "type":  # not bytes: bytes-like ones are read, others are a TypeError
            how = draw(s.sampled_from(("bytearray", "memoryview", "str", "list", "None", "ndarray", "int")))
            value = {"bytearray": lambda: bytearray(data), "memoryview": lambda: memoryview(bytes(data)),
                     "str": lambda: bytes(data).decode("latin-1"), "list": lambda: list(data[:16]),
                     "None": lambda: None, "ndarray": lambda: np.frombuffer(bytes(data), np.uint8),
                     "int": lambda: len(data)}[how]()
            return value, draw(picks_strategy())
        return bytes(data), draw(picks_strategy())

    return strategy()


def _setup_states(workdir):
    return {"states": pool_state_bytes(), "slots": _field_slots()}


@target("state_bytes", "core.from_bytes / Game.from_bytes on mutated real states, random bytes, wrong lengths, "
        "batches and version-2 layouts: StateError, or a game that works", _setup_states, state_bytes_strategy)
def check_state_bytes(ctx, x):
    from hotspot import Game
    from hotspot.core.integrity import from_bytes
    from hotspot.core.state import STATE_BYTES, StateError
    data, picks = x
    try:
        states = from_bytes(data, source="fuzzed bytes")
    except Exception as exc:  # noqa: BLE001 - judged by refused()
        label = refused(exc, StateError, TypeError)
        check(isinstance(exc, TypeError) == (not isinstance(data, (bytes, bytearray, memoryview))),
              f"{type(exc).__name__} for a {type(data).__name__}: TypeError is for what is not bytes")
        try:
            Game.from_bytes(data)
        except Exception as exc2:  # noqa: BLE001
            refused(exc2, type(exc))
        else:
            raise ContractError("Game.from_bytes accepted bytes that core.from_bytes refused")
        return label
    if states.shape[0] != 1:
        try:
            Game.from_bytes(data)
        except Exception as exc:  # noqa: BLE001
            refused(exc, StateError)
        else:
            raise ContractError(f"Game.from_bytes accepted a batch of {states.shape[0]} states")
        for i in range(states.shape[0]):
            exercise(Game.from_bytes(states[i:i + 1].tobytes()), picks)
        return "accepted:batch"
    game = Game.from_bytes(data)
    exercise(game, picks, expect_bytes=bytes(data) if len(data) == STATE_BYTES else None)
    return "accepted" if isinstance(data, bytes) else f"accepted:{type(data).__name__}"


# ------------------------------------------------------------------ record
def _setup_records(workdir):
    import numpy as np

    from hotspot import Game
    from hotspot.core.actions import NUM_ACTIONS
    from hotspot.core.rollout import random_action
    docs = []
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    for i, (scenario, n, max_turns) in enumerate((("standard", 30, None), ("open", 20, 5), ("random:4", 60, 2))):
        game = Game(scenario, seed=i, max_turns=max_turns)
        rng = np.array([7 + i], dtype=np.uint64)
        for _ in range(n):
            game.apply_action(int(random_action(game.s, mask, rng, 0)))
        docs.append(game.record.to_dict())
        mid = Game.from_bytes(game.to_bytes())  # a record with initial_state
        for _ in range(10):
            if not mid.is_terminal():
                mid.apply_action(int(random_action(mid.s, mask, rng, 0)))
        docs.append(mid.record.to_dict())
    path = workdir / "record.json"
    return {"docs": docs, "path": path}


def record_strategy(ctx):
    s = st()
    return s.tuples(file_bytes(ctx["docs"], "hotspot-record"), picks_strategy())


@target("record", "GameRecord.load + replay on record files as bytes (mutated records, bad initial_state, "
        "invalid UTF-8, deep nesting, huge numbers, garbage): RecordError, or a game that works",
        _setup_records, record_strategy)
def check_record(ctx, x):
    from hotspot.core.game import Game
    from hotspot.core.record import GameRecord, RecordError
    data, picks = x
    path = ctx["path"]
    path.write_bytes(data)
    try:
        record = GameRecord.load(path)
    except Exception as exc:  # noqa: BLE001
        label = refused(exc, RecordError)
        check(str(path) in str(exc), f"the RecordError does not name the file: {exc}")
        return label
    try:
        game = Game.from_record(record)
    except Exception as exc:  # noqa: BLE001
        return refused(exc, RecordError) + " (replay)"
    again = Game.from_record(record)
    check(again.to_bytes() == game.to_bytes(), "two replays of one record differ")
    check(GameRecord.from_dict(json.loads(json.dumps(record.to_dict()))).to_dict() == record.to_dict(),
          "the record does not round trip through to_dict / from_dict")
    exercise(game, picks)
    return "accepted"


# ------------------------------------------------------------------ scenario_file
def _setup_scenarios(workdir):
    from hotspot import Game
    from hotspot.core.scenario import ScenarioError, random_setup, state_to_scenario
    folder = C.REPO_ROOT / "hotspot" / "scenarios"
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]
    docs += [random_setup(k) for k in range(3)]
    for game in game_pool()[::5]:
        try:
            docs.append(state_to_scenario(game.state))
        except ScenarioError:
            pass
    Game(docs[0])  # compile / load what a scenario game needs
    return {"docs": docs, "path": workdir / "scenario.json"}


def scenario_strategy(ctx):
    s = st()

    @s.composite
    def as_dict(draw):
        return mutate_json(draw, draw(s.sampled_from(ctx["docs"])), json_safe=False)

    seeds = s.one_of(s.integers(0, 2**64), s.sampled_from(INTERESTING_INTS), huge_ints(), s.integers(),
                     junk_values(False))
    names = s.one_of(s.sampled_from(("standard", "open", "random", "random:0", "random:", "random:-1", "random:x",
                                     "random: 1", "random:1.5", "nope", "", "-", "hotspot", "random:random:1", "a\x00b",
                                     "standard\x00", "\x00")),
                     s.builds(lambda d: "random:" + d, s.text("0123456789", min_size=1, max_size=30)),
                     s.sampled_from((4290, 4301, 5000)).map(lambda n: "random:" + "9" * n),
                     s.text("abcdefxyzABZ019_-:", max_size=12))
    return s.tuples(s.one_of(s.tuples(s.just("file"), file_bytes(ctx["docs"], "hotspot-scenario")),
                             s.tuples(s.just("dict"), as_dict()),
                             s.tuples(s.just("name"), names)),
                    seeds, picks_strategy())


@target("scenario_file", "load_scenario on scenario files as bytes (the built-ins, random set-ups and "
        "positions, mutated), Game / validate_scenario on mutated dicts, with drawn seeds: ScenarioError, "
        "or a game that works", _setup_scenarios, scenario_strategy)
def check_scenario(ctx, x):
    from hotspot import Game
    from hotspot.core.scenario import ScenarioError, load_scenario, scenario_to_state, validate_scenario
    (kind, payload), seed, picks = x
    if kind == "file":
        path = ctx["path"]
        path.write_bytes(payload)
        try:
            data = load_scenario(str(path))
        except Exception as exc:  # noqa: BLE001
            label = refused(exc, ScenarioError)
            check(str(path) in str(exc), f"the ScenarioError does not name the file: {exc}")
            return label
    elif kind == "name":
        try:
            data = load_scenario(payload)
        except Exception as exc:  # noqa: BLE001
            return refused(exc, ScenarioError) + " (name)"
    else:
        original = copy.deepcopy(payload) if _deepcopyable(payload) else None
        try:
            data = validate_scenario(payload)
        except Exception as exc:  # noqa: BLE001
            label = refused(exc, ScenarioError)
            if isinstance(payload, dict):  # Game also takes a name or a path (a str): not comparable
                try:
                    Game(payload, seed=0)
                except Exception as exc2:  # noqa: BLE001
                    refused(exc2, ScenarioError)
                else:
                    raise ContractError("Game accepted a scenario dict that validate_scenario refused")
            if original is not None:
                check(_same_json(original, payload), "validate_scenario changed the dict it was given")
            return label + " (dict)"
    check(validate_scenario(data) == data, "a normalized scenario does not normalize to itself")
    try:
        scenario_to_state(data, seed)
    except Exception as exc:  # noqa: BLE001
        label = refused(exc, ScenarioError)
        try:
            Game(data, seed=seed)
        except Exception as exc2:  # noqa: BLE001
            refused(exc2, ScenarioError)
        else:
            raise ContractError(f"Game accepted the seed {_r(seed)} that scenario_to_state refused")
        return label + " (seed)"
    game = Game(data, seed=seed)
    exercise(game, picks)
    return "accepted"


def _deepcopyable(x) -> bool:
    try:
        copy.deepcopy(x)
        return True
    except Exception:  # noqa: BLE001
        return False


def _same_json(a, b) -> bool:
    try:
        return repr(a) == repr(b)
    except Exception:  # noqa: BLE001 - e.g. a 5000-digit int: cannot tell, assume the same
        return True


# ------------------------------------------------------------------ actions
WRAPPERS = ("int",) * 6 + ("np.int8", "np.int16", "np.int32", "np.int64", "np.uint8", "np.uint16", "np.uint32",
                           "np.uint64", "np.intp", "float", "np.float32", "np.float64", "bool", "np.bool_",
                           "str", "bytes", "0d-int64", "0d-uint8", "0d-float", "0d-object", "1d", "list",
                           "tuple", "None", "Fraction", "Decimal", "complex")


def action_specs():
    """(what, n, wrapper): the n-th legal action now ("legal") or the integer n
    ("value"), given as the type ``wrapper`` names."""
    s = st()
    ints = s.one_of(s.integers(0, 241), s.integers(-300, 600), s.integers(), s.sampled_from(INTERESTING_INTS),
                    huge_ints())
    return s.one_of(s.tuples(s.just("legal"), s.integers(0, 2**16), s.sampled_from(WRAPPERS)),
                    s.tuples(s.just("value"), ints, s.sampled_from(WRAPPERS)))


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


def _setup_actions(workdir):
    return {"games": game_pool()}


def actions_strategy(ctx):
    s = st()
    return s.tuples(s.integers(0, len(ctx["games"]) - 1), action_specs(), s.booleans())


@target("actions", "Game.why_illegal / apply_action with ints of any size, numpy ints of every dtype, floats, "
        "bools, strings, None, arrays: IllegalActionError or TypeError and no change, or accepted exactly when "
        "the mask allows it", _setup_actions, actions_strategy)
def check_actions(ctx, x):
    import numpy as np

    from hotspot import IllegalActionError
    from hotspot.core.integrity import FAULTS, state_fault
    index, spec, events = x
    game = ctx["games"][index].clone()
    mask = game.legal_action_mask()
    a = resolve_action(spec, np.flatnonzero(mask))
    before = (game.to_bytes(), game.record.to_dict())
    in_mask = is_integer_action(a) and 0 <= int(a) < mask.size and bool(mask[int(a)])
    try:
        why = game.why_illegal(a)
    except Exception as exc:  # noqa: BLE001
        refused(exc, TypeError)
        check(not is_integer_action(a), f"why_illegal refused the integer {_r(a)}")
        why = "TypeError"
    check((why is None) == in_mask, f"why_illegal({_r(a)}) = {_r(why)} but the mask says {in_mask}")
    same(before, (game.to_bytes(), game.record.to_dict()), "why_illegal")
    try:
        result = game.apply_action(a, events=events)
    except Exception as exc:  # noqa: BLE001
        label = refused(exc, IllegalActionError, TypeError)
        check(not in_mask, f"apply_action refused {_r(a)}, which the mask allows")
        check(isinstance(exc, IllegalActionError) == is_integer_action(a),
              f"{type(exc).__name__} for {_r(a)}: IllegalActionError is for integers, TypeError for the rest")
        same(before, (game.to_bytes(), game.record.to_dict()), "action")
        return label
    check(in_mask, f"apply_action accepted {_r(a)}, which the mask does not allow")
    check(game.record.actions == before[1]["actions"] + [int(a)], "the record does not end with the action")
    check(isinstance(result, list) if events else result is None, "apply_action's return value")
    code, j = state_fault(game.s)
    check(code == 0, f"after the action: {FAULTS[int(code)]} (index {int(j)})")
    return "accepted"


# ------------------------------------------------------------------ env_step
ENV_CONFIGS = [(side, opponent, mode, scenario) for mode in ("raise", "lose") for side in ("technocrat", "ziegler")
               for opponent, scenario in (("random", "standard"), ("scripted", "open"))]


def _setup_env(workdir):
    return {"envs": {}, "fresh": {}}


def _env(ctx, i, fresh=False):
    from hotspot.env.hotspot_env import HotspotEnv
    key = "fresh" if fresh else "envs"
    if i not in ctx[key]:
        side, opponent, mode, scenario = ENV_CONFIGS[i]
        ctx[key][i] = HotspotEnv(side=side, opponent=opponent, scenario=scenario, illegal_action=mode,
                                 render_mode="ansi")
    return ctx[key][i]


def env_seeds():
    s = st()
    return s.one_of(s.none(), s.integers(0, 2**64), s.sampled_from(INTERESTING_INTS), huge_ints(), s.integers(),
                    s.builds(lambda w, n: wrap(w, n), s.sampled_from(WRAPPERS), s.integers(-5, 2**40)),
                    junk_values(False))


def env_strategy(ctx):
    s = st()
    return s.tuples(s.integers(0, len(ENV_CONFIGS) - 1), s.integers(0, 2**32), s.integers(0, 40),
                    picks_strategy(), action_specs(),
                    s.one_of(s.none(), s.none(), s.tuples(env_seeds(), s.one_of(s.none(), junk_values(False)))),
                    s.sampled_from(("step",) * 12 + ("before_reset", "after_end")))


def _with(label: str, extra: list) -> str:
    """An outcome label with the reset's outcome, if a reset was fuzzed too."""
    return label if not extra else f"{label} | {' '.join(extra)}"


def _env_snapshot(env):
    return {"state": env.states.tobytes(), "mask": env.mask.tobytes(), "opp_rng": env.opp_rng.tobytes(),
            "episode_seed": None if env._episode_seed is None else int(env._episode_seed),
            "started": env._started, "illegal_end": env._illegal_end}


def _check_env_obs(env, obs, info, where):
    from hotspot.core.integrity import FAULTS, state_fault
    check(env.observation_space.contains(obs), f"{where}: the observation is outside the observation space")
    check(bool((info["action_mask"] == env.action_masks()).all()), f"{where}: info mask != action_masks()")
    code, j = state_fault(env.state)
    check(code == 0, f"{where}: {FAULTS[int(code)]} (index {int(j)})")


@target("env_step", "HotspotEnv.step (raise and lose modes) with any action after a few legal steps, reset with "
        "odd seeds and options, steps before reset: the documented refusal and no change, or a step that works",
        _setup_env, env_strategy)
def check_env_step(ctx, x):
    import numpy as np

    from hotspot import IllegalActionError
    from hotspot.core.rules_data import PHASE_OVER
    cfg, seed, steps, picks, spec, reset_junk, mode = x
    env = _env(ctx, cfg)
    labels = []
    if mode == "before_reset":
        fresh = _env(ctx, cfg, fresh=True)
        before = _env_snapshot(fresh)
        try:
            fresh.step(resolve_action(spec, []))
        except Exception as exc:  # noqa: BLE001
            label = refused(exc, RuntimeError, TypeError)
            same(before, _env_snapshot(fresh), "step before reset")
            return label + " (before reset)"
        raise ContractError("step() before reset() was accepted")
    if reset_junk is not None:
        junk_seed, options = reset_junk
        before = _env_snapshot(env)
        try:
            obs, info = env.reset(seed=junk_seed, options=options)
        except Exception as exc:  # noqa: BLE001
            labels.append(refused(exc, ValueError) + " (reset)")
            check(not is_integer_action(junk_seed) or int(junk_seed) < 0,
                  f"reset refused the non-negative integer seed {_r(junk_seed)}")
            same(before, _env_snapshot(env), "reset seed")
        else:
            check(junk_seed is None or is_integer_action(junk_seed), f"reset accepted the seed {_r(junk_seed)}")
            _check_env_obs(env, obs, info, "reset")
            labels.append("accepted (reset)")
    obs, info = env.reset(seed=seed)
    for k in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        if not legal.size or int(env.state["phase"]) == PHASE_OVER:
            break
        obs, reward, terminated, truncated, info = env.step(int(legal[picks[k % len(picks)] % legal.size]))
        if terminated or truncated:
            break
    if mode == "after_end" or int(env.state["phase"]) == PHASE_OVER:
        if int(env.state["phase"]) != PHASE_OVER and env.illegal_action == "lose":
            env.step(-1)  # ends the episode (lose mode)
        if int(env.state["phase"]) == PHASE_OVER or env._illegal_end:
            before = _env_snapshot(env)
            try:
                env.step(resolve_action(spec, []))
            except Exception as exc:  # noqa: BLE001
                label = refused(exc, RuntimeError, TypeError)
                same(before, _env_snapshot(env), "step after the episode's end")
                return _with(label + " (after end)", labels)
            raise ContractError("step() after the end of the episode was accepted")
    legal = np.flatnonzero(env.action_masks())
    a = resolve_action(spec, legal)
    in_mask = is_env_action(a) and 0 <= int(a) < env.mask.size and bool(env.mask[int(a)])
    before = _env_snapshot(env)
    try:
        obs, reward, terminated, truncated, info = env.step(a)
    except Exception as exc:  # noqa: BLE001
        label = refused(exc, IllegalActionError, TypeError)
        check(not in_mask, f"step refused {_r(a)}, which the mask allows")
        check(env.illegal_action == "raise" or not is_env_action(a),
              f"lose mode raised {type(exc).__name__} for the integer {_r(a)}")
        same(before, _env_snapshot(env), "action")
        return _with(label, labels)
    if not in_mask:
        check(env.illegal_action == "lose", f"raise mode accepted {_r(a)}, which the mask does not allow")
        check(reward == -1.0 and terminated and not truncated and "illegal_action" in info,
              "lose mode: an illegal action must end the episode with reward -1")
        after = _env_snapshot(env)
        check(after["state"] == before["state"], "lose mode: an illegal action changed the game state")
        return _with("refused:lose", labels)
    _check_env_obs(env, obs, info, "step")
    check(reward in (-1.0, 0.0, 1.0) and isinstance(terminated, bool) and isinstance(truncated, bool),
          "reward / terminated / truncated")
    check(terminated == (int(env.state["phase"]) == PHASE_OVER and not bool(env.state["truncated"])),
          "terminated does not match the game")
    env.render()
    return _with("accepted", labels)


# ------------------------------------------------------------------ vector_env_step
VEC_SIZES = (1, 2, 3)
VEC_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
              "bool", "object", "str")


def _setup_vector(workdir):
    return {"envs": {}}


def _venv(ctx, n):
    from hotspot.env.vector_env import HotspotVectorEnv
    if n not in ctx["envs"]:
        # the strict mode: an illegal action is refused and nothing changes (the default "lose" ends that game)
        ctx["envs"][n] = HotspotVectorEnv(num_envs=n, opponent="random", render_mode="ansi", illegal_action="raise")
    return ctx["envs"][n]


def vector_strategy(ctx):
    s = st()
    elem = s.one_of(s.tuples(s.just("legal"), s.integers(0, 2**16)),
                    s.tuples(s.just("value"), s.one_of(s.integers(-300, 600), s.integers(),
                                                        s.sampled_from(INTERESTING_INTS), huge_ints())))
    array = s.tuples(s.sampled_from(("ndarray",) * 6 + ("list", "tuple", "ragged", "scalar", "none", "str")),
                     s.sampled_from(("ok",) * 6 + ("short", "long", "scalar", "col", "row", "empty")),
                     s.sampled_from(("int64",) * 4 + VEC_DTYPES), s.lists(elem, min_size=4, max_size=4))
    seeds = s.one_of(env_seeds(), s.lists(env_seeds(), max_size=4), s.lists(s.integers(0, 2**64), max_size=4))
    return s.tuples(s.sampled_from(VEC_SIZES), s.integers(0, 2**32), s.integers(0, 8), picks_strategy(), array,
                    s.one_of(s.none(), s.none(), seeds))


def _vec_actions(spec, env):
    import numpy as np
    container, shape, dtype, elems = spec
    n = env.num_envs
    values = []
    for i in range(n + 1):
        what, v = elems[i % len(elems)]
        if what == "legal":
            legal = np.flatnonzero(env.masks[min(i, n - 1)])
            v = int(legal[v % legal.size]) if legal.size else v % 242
        values.append(v)
    size = {"ok": n, "short": n - 1, "long": n + 1, "scalar": 1, "col": n, "row": n, "empty": 0}[shape]
    values = values[:size]
    if container == "none":
        return None
    if container == "str":
        return "".join(str(v % 10) for v in values)
    if container == "scalar":
        return values[0] if values else 0
    if container == "ragged":
        return [values, values[:1]]
    if container in ("list", "tuple"):
        return values if container == "list" else tuple(values)
    if dtype == "object":
        arr = np.array(values + [None], dtype=object)[:-1]
    elif dtype == "str":
        arr = np.array([_r(v)[:20] for v in values])
    elif dtype in ("float32", "float64", "bool"):
        arr = np.array([float(v) if abs(v) < 2**1000 else float("inf") for v in values]).astype(dtype)
    else:
        arr = np.array([v % 2**64 for v in values], dtype=np.uint64).astype(dtype)
    if shape == "scalar":
        return arr.reshape(())
    if shape == "col":
        return arr.reshape(n, 1)
    if shape == "row":
        return arr.reshape(1, n)
    return arr


def _valid_seed(x) -> bool:
    return is_integer_action(x) and x >= 0


def _vec_snapshot(env):
    return {k: getattr(env, k).tobytes() for k in ("states", "seeds", "opp_rng", "needs_reset", "masks", "rewards",
                                                   "terminated", "truncated")} | {"started": env._started}


@target("vector_env_step", "HotspotVectorEnv.step with arrays of every shape and dtype, lists, scalars, legal "
        "and illegal values, reset with odd seeds and seed lists: ValueError / IllegalActionError and no game "
        "changed, or a step that works", _setup_vector, vector_strategy)
def check_vector_step(ctx, x):
    import numpy as np

    from hotspot import IllegalActionError
    from hotspot.core.integrity import FAULTS, state_fault
    n, seed, steps, picks, spec, reset_junk = x
    env = _venv(ctx, n)
    labels = []
    if reset_junk is not None:
        before = _vec_snapshot(env)
        valid = _valid_seed(reset_junk) or (isinstance(reset_junk, (list, tuple)) and len(reset_junk) == n
                                              and all(_valid_seed(v) for v in reset_junk))
        try:
            obs, info = env.reset(seed=reset_junk)
        except Exception as exc:  # noqa: BLE001
            labels.append(refused(exc, ValueError) + " (reset)")
            check(not valid, f"reset refused the valid seed {_r(reset_junk)}")
            same(before, _vec_snapshot(env), "reset seed")
        else:
            check(valid or reset_junk is None or isinstance(reset_junk, np.ndarray),
                  f"reset accepted the seed {_r(reset_junk)}")
            check(env.observation_space.contains(obs), "reset: observation outside the space")
            labels.append("accepted (reset)")
    env.reset(seed=seed)
    for k in range(steps):
        acts = np.array([np.flatnonzero(env.masks[i])[picks[(k + i) % len(picks)] % int(env.masks[i].sum())]
                         if env.masks[i].any() else 0 for i in range(n)])
        env.step(acts)
    actions = _vec_actions(spec, env)
    before = _vec_snapshot(env)
    masks, needs_reset = env.masks.copy(), env.needs_reset.copy()
    try:
        obs, rewards, terminated, truncated, info = env.step(actions)
    except Exception as exc:  # noqa: BLE001
        label = refused(exc, ValueError, IllegalActionError)
        same(before, _vec_snapshot(env), "vector step")
        return _with(label, labels)
    arr = np.asarray(actions)
    check(arr.shape == (n,) and np.issubdtype(arr.dtype, np.integer),
          f"step accepted actions of shape {arr.shape} dtype {arr.dtype}")
    for i in range(n):
        if not needs_reset[i]:
            a = int(arr[i])
            check(0 <= a < masks.shape[1] and masks[i, a], f"game {i}: step accepted action {a}, not in its mask")
    check(env.observation_space.contains(obs), "step: observation outside the space")
    check(rewards.shape == (n,) and terminated.shape == (n,) and truncated.shape == (n,), "step: result shapes")
    check(bool((info["action_mask"] == env.action_masks()).all()), "step: info mask != action_masks()")
    for i in range(n):
        code, j = state_fault(env.states[i])
        check(code == 0, f"game {i}: {FAULTS[int(code)]} (index {int(j)})")
    return _with("accepted", labels)


# ------------------------------------------------------------------ pettingzoo_step
def _setup_pz(workdir):
    from hotspot.env.pettingzoo import HotspotAECEnv
    # the strict mode: an illegal action is refused and nothing changes (the default "lose" ends the game)
    return {"env": HotspotAECEnv(render_mode=None, illegal_action="raise")}


def pz_strategy(ctx):
    s = st()
    return s.tuples(s.integers(0, 2**32), s.integers(0, 40), picks_strategy(), action_specs())


def _pz_snapshot(env):
    return {"state": env.states.tobytes(), "agent": env.agent_selection, "rewards": dict(env.rewards),
            "cumulative": dict(env._cumulative_rewards), "terminations": dict(env.terminations),
            "truncations": dict(env.truncations)}


@target("pettingzoo_step", "the PettingZoo AEC env's step with any action after a few legal steps: "
        "IllegalActionError / TypeError and no change, or a step that works", _setup_pz, pz_strategy)
def check_pz_step(ctx, x):
    import numpy as np

    from hotspot import IllegalActionError
    from hotspot.core.integrity import FAULTS, state_fault
    seed, steps, picks, spec = x
    env = ctx["env"]
    env.reset(seed=seed)
    for k in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(legal[picks[k % len(picks)] % legal.size]))
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        return "skipped (game over)"
    mask = env.observe(agent)["action_mask"]
    a = resolve_action(spec, np.flatnonzero(mask))
    in_mask = is_env_action(a) and 0 <= int(a) < mask.size and bool(mask[int(a)])
    before = _pz_snapshot(env)
    try:
        env.step(a)
    except Exception as exc:  # noqa: BLE001
        label = refused(exc, IllegalActionError, TypeError)
        check(not in_mask, f"step refused {_r(a)}, which the mask allows")
        check(isinstance(exc, IllegalActionError) == is_env_action(a),
              f"{type(exc).__name__} for {_r(a)}: IllegalActionError is for integers, TypeError for the rest")
        same(before, _pz_snapshot(env), "action")
        return label
    check(in_mask, f"step accepted {_r(a)}, which the mask does not allow")
    code, j = state_fault(env.states[0])
    check(code == 0, f"after the step: {FAULTS[int(code)]} (index {int(j)})")
    for name in env.possible_agents:
        check(env.observation_space(name).contains(env.observe(name)), f"observation of {name} outside its space")
    return "accepted"


# ------------------------------------------------------------------ cli_args
CLI_VALUES = {
    "seed": ("0", "7", "-1", "x", "1.5", "99999999999999999999999", "", "0x10", "9" * 5000),
    "agent_seed": ("0", "3", "-1", "x", "18446744073709551616", ""),
    "scenario": ("standard", "open", "random", "random:3", "random:-1", "random:x", "random:" + "9" * 30,
                 "random:" + "9" * 5000, "nope", "scen.json", "bad.json", "nonutf8.json", "missing.json", "",
                 "dir", "rec.json"),
    "scenarios": ("standard", "standard,open", "standard,,", ",", "random:1,x", "scen.json,bad.json", ""),
    "record": ("out.json", "dir", "sub/none/x.json", "rec.json/x", "", "a\x00b"),
    "html": ("out.html", "dir", "sub/none/x.html", "", "a\x00b"),
    "out": ("out", "dir", "rec.json", "sub/none/x", "", ".", "a\x00b"),
    "file": ("rec.json", "rec_initial.json", "bad.json", "nonutf8.json", "empty.json", "scen.json", "games.jsonl",
             "bad_games.jsonl", "missing.json", "dir", "deep.json", "huge.json", "rec\x00.json", "\x00"),
    "name": ("standard", "open", "random:5", "random:x", "nope", "scen.json", "bad.json", "missing.json", "",
             "rec.json"),
    "game": ("0", "1", "3", "-1", "99", "x", "99999999999999999999"),
    "agents": ("random", "random,scripted", "scripted", "nope", "", ",", "random,random", "random,nope"),
    "pairings": ("random:scripted", "random:random", "random:", "x:y", ":", "random:scripted,scripted:random",
                 "random", ""),
    "pair": ("random:random", "scripted:random", "random:", "x:y", ":", "random"),
    "option": ("combat_table=diagonal", "combat_table=d13,diagonal", "losses=owner", "nope=1", "combat_table=",
               "=", "platform_turns=3", "platform_turns=x", "attack=1", "stress_timing=every_phase,moving_side",
               "platform_turns=99999999999999999999", "x"),
    "games": ("1", "2", "0", "-1", "x", ""),
    "max_games": ("1", "0", "-1", "x"),
    "max_actions": ("1", "10", "0", "-5", "x"),
    "chunk": ("1", "0", "-1", "x"),
    "workers": ("0", "-1", "x", "1.5"),
    "backend": ("local", "nope"),
    "address": ("auto", "x"),
    "max_turns": ("1", "2", "none", "0", "-1", "x", "10001", ""),
    "candidates": ("1", "2", "0", "-1", "x"),
    "random_candidates": ("0", "1", "-1", "x"),
    "finalists": ("1", "0", "-1", "x"),
    "final_games": ("1", "0", "-1", "x"),
    "search_deployment": ("nope", "ziegler", "technocrat"),
    "opponent": ("random", "scripted", "nope"),
    "agent": ("random", "scripted", "nope"),
    "base": ("standard", "open", "nope", "bad.json"),
}
CLI_JUNK = ("", "-", "--", "--nope", "-x", "\x00", "\u00e9", "9" * 50, "--seed=1", "--help", "scenario")
# what keeps one call around a second (appended last: argparse keeps the last value)
CLI_TAIL = {"play": ["--max-turns", "1"],
            "serve": ["--port", "0"],  # a free port: examples never collide
            "arena": ["--workers", "1", "--no-progress", "--max-turns", "1"],
            "balance": ["--workers", "1", "--no-progress", "--no-plot", "--max-turns", "1"]}
SEARCH_TAIL = ["--candidates", "2", "--random-candidates", "1", "--finalists", "1", "--final-games", "1",
               "--games", "1"]


def cli_options():
    """{subcommand: [(option string, dest, takes a value)]} read from hotspot's parser."""
    from hotspot.cli import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = {}
    for name, p in sub.choices.items():
        opts = []
        for action in p._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            takes = action.nargs != 0
            if action.option_strings:
                opts.append((action.option_strings[-1], action.dest, takes))
            else:
                opts.append((None, action.dest, True))
        out[name] = opts
    return out


def _setup_cli(workdir):
    """Files the arguments name (a record, arena games, scenarios, broken ones), made once."""
    import numpy as np

    from hotspot import Game
    from hotspot.cli import main
    from hotspot.core.actions import NUM_ACTIONS
    from hotspot.core.rollout import random_action
    from hotspot.core.scenario import dumps_scenario, load_scenario
    fixtures = workdir / "fixtures"
    shutil.rmtree(fixtures, ignore_errors=True)
    fixtures.mkdir(parents=True)
    game = Game("standard", seed=1, max_turns=1)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    rng = np.array([5], dtype=np.uint64)
    while not game.is_terminal():
        game.apply_action(int(random_action(game.s, mask, rng, 0)))
    game.record.save(fixtures / "rec.json")
    mid = Game.from_bytes(Game("open", seed=2).to_bytes())
    mid.record.save(fixtures / "rec_initial.json")
    (fixtures / "scen.json").write_text(dumps_scenario(load_scenario("open")))
    (fixtures / "bad.json").write_text('{"format": "hotspot-record", "version": 1, "seed": -1}')
    (fixtures / "nonutf8.json").write_bytes(b'{"format": "\xff\xfe"}')
    (fixtures / "empty.json").write_bytes(b"")
    (fixtures / "deep.json").write_bytes(b"[" * 100000 + b"]" * 100000)
    (fixtures / "huge.json").write_bytes(b'{"format": "hotspot-record", "version": ' + b"9" * 5000 + b"}")
    (fixtures / "dir").mkdir()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["arena", "--agents", "random", "--games", "1", "--max-turns", "1", "--workers", "1", "--no-progress",
              "--out", str(workdir / "arena")])
    rows = (workdir / "arena" / "games.jsonl").read_bytes()
    (fixtures / "games.jsonl").write_bytes(rows)
    lines = rows.splitlines(keepends=True)
    (fixtures / "bad_games.jsonl").write_bytes(lines[0][: len(lines[0]) // 2] + b"\n" + b"".join(lines[1:])
                                               + b"\xff{]\n")
    return {"options": cli_options(), "fixtures": fixtures, "run": workdir / "run"}


def cli_strategy(ctx):
    s = st()
    options = ctx["options"]

    @s.composite
    def argv(draw):
        kind = draw(s.sampled_from(("command",) * 12 + ("help", "junk", "empty")))
        if kind == "empty":
            return []
        if kind == "junk":
            return draw(s.lists(s.one_of(s.sampled_from(CLI_JUNK), s.text(max_size=8)), min_size=1, max_size=4))
        command = draw(s.sampled_from(sorted(options)))
        if kind == "help":
            return [command, "--help"]
        args = [command]
        positional = [o for o in options[command] if o[0] is None]
        named = [o for o in options[command] if o[0] is not None]
        for _, dest, _ in positional:
            if draw(s.integers(0, 9)):  # a positional is sometimes missing
                args.append(draw(s.sampled_from(CLI_VALUES.get(dest, ("x",)))))
        for opt, dest, takes in draw(s.lists(s.sampled_from(named), max_size=5)):
            args.append(opt)
            if takes:
                args.append(draw(s.sampled_from(CLI_VALUES.get(dest, ("x", "1", "")))))
        if draw(s.integers(0, 9)) == 0:
            args.insert(draw(s.integers(0, len(args))), draw(s.sampled_from(CLI_JUNK)))
        tail = list(CLI_TAIL.get(command, []))
        if command in ("arena", "balance") and "--games" not in args:
            tail += ["--games", "1"]  # not the default 100 a pairing or cell
        if command == "balance" and "--search-deployment" in args:
            tail += SEARCH_TAIL
        return args + tail

    return argv()


@target("cli_args", "hotspot.cli.main(argv) with argument lists of the real subcommands and options and junk "
        "values: exit 0, or exit 2 with a message; never a traceback", _setup_cli, cli_strategy, deadline_s=30.0)
def check_cli(ctx, argv):
    from hotspot import cli
    run = ctx["run"]
    shutil.rmtree(run, ignore_errors=True)
    shutil.copytree(ctx["fixtures"], run)
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(run)
    try:
        ctx["error"] = None
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _recording_errors(cli, ctx), \
                _server_returns_at_once():
            try:
                code = cli.main(list(argv))
            except SystemExit as exc:
                code = exc.code
    finally:
        os.chdir(cwd)
    if code is None:
        code = 0
    text = out.getvalue() + err.getvalue()
    check(code in (0, 1, 2), f"exit status {_r(code)} (expected 0, 1 or 2); stderr: {err.getvalue()[-500:]!r}")
    check("Traceback" not in text, f"a traceback was printed: {text[-1500:]}")
    if code != 0:
        check(err.getvalue().strip() != "", f"exit {code} without a message")
        exc = ctx["error"]
        # the OS's own errors name the path (a NUL in a path is Python's ValueError, not an OSError)
        if exc is not None and not isinstance(exc, OSError) and str(exc) != "embedded null byte":
            refused(exc, ValueError, ImportError)  # the message comes from a deliberate refusal
        return f"refused:exit {code}"
    return "accepted"


@contextlib.contextmanager
def _server_returns_at_once():
    """``hotspot serve`` checks its arguments, builds its app and binds its
    socket as it would, then serves no request: the fuzzer judges the
    argument handling, not a server left running for ever."""
    import socketserver
    original = socketserver.BaseServer.serve_forever
    socketserver.BaseServer.serve_forever = lambda self, poll_interval=0.5: None
    try:
        yield
    finally:
        socketserver.BaseServer.serve_forever = original


@contextlib.contextmanager
def _recording_errors(cli, ctx):
    """While main runs, the exception a subcommand raises (main prints it as
    ``hotspot: error: ...``) is kept in ``ctx["error"]`` so that it can be
    judged like any refusal."""
    original = cli.build_parser

    def build_parser():
        parser = original()
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        for p in sub.choices.values():
            func = p.get_default("func")

            def recording(args, func=func):
                try:
                    return func(args)
                except BaseException as exc:
                    ctx["error"] = exc
                    raise
            p.set_defaults(func=recording)
        return parser

    cli.build_parser = build_parser
    try:
        yield
    finally:
        cli.build_parser = original


# ------------------------------------------------------------------ self-test targets (hidden)
def _no_setup(workdir):
    return {}


def _ints(ctx):
    return st().integers(0, 1000)


@target("_selftest_indexerror", "fails: raises IndexError", _no_setup, _ints, both=False)
def _selftest_indexerror(ctx, x):
    return [][x]


@target("_selftest_inside", "fails: a documented type (ValueError) not raised by hotspot", _no_setup, _ints,
        both=False)
def _selftest_inside(ctx, x):
    try:
        int("not a number")
    except Exception as exc:  # noqa: BLE001
        return refused(exc, ValueError)


@target("_selftest_segfault", "crashes the process at example 3", _no_setup, _ints, both=False)
def _selftest_segfault(ctx, x):
    ctx["n"] = ctx.get("n", 0) + 1
    if ctx["n"] == 3:
        import ctypes
        ctypes.string_at(0)
    return "accepted"


@target("_selftest_hang", "hangs at example 2", _no_setup, _ints, both=False)
def _selftest_hang(ctx, x):
    ctx["n"] = ctx.get("n", 0) + 1
    if ctx["n"] == 2:
        while True:
            time.sleep(1)
    return "accepted"


# ------------------------------------------------------------------ running
def run_target(t: Target, examples: int, seed: int, workdir: Path, deadline_s: float | None = None,
               hang_s: float = DEFAULT_HANG_S, log=None) -> dict:
    """Run target ``t`` on ``examples`` hypothesis-drawn inputs in this process;
    its row: examples run, outcomes by kind, failures (with their inputs)."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hseed

    workdir.mkdir(parents=True, exist_ok=True)
    last_input = workdir / "last_input.json"
    crash_log = open(workdir / "faulthandler.txt", "w")  # noqa: SIM115 - open for the process' life
    faulthandler.enable(file=crash_log)
    t_setup = time.perf_counter()
    ctx = t.setup(workdir)
    setup_s = time.perf_counter() - t_setup
    deadline = t.deadline_s if deadline_s is None else deadline_s
    outcomes: dict = {}
    failures: list = []
    stats = {"examples": 0, "failed": 0, "slow": 0, "max_example_s": 0.0}

    def fail(x, kind, message, tb=""):
        stats["failed"] += 1
        if len(failures) < MAX_FAILURES_KEPT:
            failures.append({"example": stats["examples"], "kind": kind, "message": message[:3000],
                             "traceback": tb[-4000:], "input": describe(x)})
        if log:
            log(f"  {t.name}: FAILURE at example {stats['examples']}: {kind}: {message[:300]}")

    strategy = t.strategy(ctx)

    def one(x):
        n = stats["examples"]
        last_input.write_text(json.dumps({"target": t.name, "example": n, "seed": seed, "input": describe(x)}))
        faulthandler.dump_traceback_later(hang_s, exit=True, file=crash_log)
        t0 = time.perf_counter()
        try:
            outcome = t.check(ctx, x)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - every other exception breaks the contract
            outcome = None
            fail(x, type(exc).__name__, f"{type(exc).__name__}: {_safe_str(exc)}",
                 "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
        finally:
            faulthandler.cancel_dump_traceback_later()
        dt = time.perf_counter() - t0
        if dt > stats["max_example_s"]:
            stats["max_example_s"] = dt
            stats["slowest"] = {"example": n, "seconds": dt, "input": describe(x)}
        if dt > deadline and n >= WARM_UP_EXAMPLES:
            stats["slow"] += 1
            fail(x, "slow", f"the example took {dt:.2f} s, more than the deadline of {deadline} s")
        if outcome is not None:
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        stats["examples"] += 1
        if log and stats["examples"] % 1000 == 0:
            log(f"  {t.name}: {stats['examples']:,} examples, {stats['failed']} failures")

    t0 = time.perf_counter()
    # in runs of at most CHUNK examples: hypothesis keeps every example's choices
    # for the length of a run (about 10 MB a thousand state_bytes examples)
    done, part = 0, 0
    while done < examples:
        n = min(CHUNK, examples - done)
        run = settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate],
                       suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                       derandomize=False)(hseed(seed if part == 0 else f"{seed}/{part}")(given(strategy)(one)))
        before = stats["examples"]
        run()
        if stats["examples"] == before:  # hypothesis found nothing new to try
            break
        done += n
        part += 1
    wall = time.perf_counter() - t0
    faulthandler.disable()
    crash_log.close()
    accepted = sum(v for k, v in outcomes.items() if k.startswith("accepted"))
    refusals = sum(v for k, v in outcomes.items() if k.startswith("refused"))
    return {"target": t.name, "examples": stats["examples"], "outcomes": dict(sorted(outcomes.items())),
            "accepted": accepted, "refused": refusals, "failures": stats["failed"], "slow": stats["slow"],
            "failure_examples": failures, "wall_s": wall, "setup_s": setup_s,
            "examples_per_s": stats["examples"] / wall if wall else None, "max_example_s": stats["max_example_s"],
            "slowest_example": stats.get("slowest"),
            "deadline_s": deadline, "seed": seed, "both_expected": t.both, "died": None}


def _safe_str(exc) -> str:
    try:
        return str(exc)
    except Exception:  # noqa: BLE001
        return f"<str() of the {type(exc).__name__} failed>"


def _die_with_parent():  # pragma: no cover - runs in the child before exec
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001 - not Linux: the child may outlive a killed parent
        pass


def run_child(name: str, args, workdir: Path, log) -> dict:
    """Run one target in a child process (this script, --in-process); a child
    that dies (signal, hang watchdog, timeout) becomes a failure row naming the
    target and its last input."""
    tdir = workdir / name
    tdir.mkdir(parents=True, exist_ok=True)
    out = tdir / "result.json"
    out.unlink(missing_ok=True)
    cmd = [sys.executable, str(Path(__file__).resolve()), "--in-process", "--target", name, "--examples",
           str(args.examples), "--seed", str(args.seed), "--out", str(out), "--workdir", str(workdir),
           "--hang-s", str(args.hang_s)]
    if args.deadline is not None:
        cmd += ["--deadline", str(args.deadline)]
    t0 = time.perf_counter()
    with open(tdir / "stdout.txt", "w") as so, open(tdir / "stderr.txt", "w") as se:
        proc = subprocess.Popen(cmd, stdout=so, stderr=se, env=C.child_env(), cwd=str(C.REPO_ROOT),
                                preexec_fn=_die_with_parent if os.name == "posix" else None)
        try:
            rc = proc.wait(timeout=args.timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = proc.wait()
            timed_out = True
    wall = time.perf_counter() - t0
    if not timed_out and out.exists():
        row = json.loads(out.read_text())["rows"][0]
        row["child_wall_s"] = wall
        return row
    crash = (tdir / "faulthandler.txt").read_text(errors="replace") if (tdir / "faulthandler.txt").exists() else ""
    stderr = (tdir / "stderr.txt").read_text(errors="replace")
    last = None
    if (tdir / "last_input.json").exists():
        try:
            last = json.loads((tdir / "last_input.json").read_text())
        except ValueError:
            last = None
    if timed_out:
        kind = f"timeout: the child ran past --timeout {args.timeout} s"
    elif rc < 0:
        kind = f"crash: killed by signal {signal.Signals(-rc).name}"
    elif "Timeout (" in crash:
        kind = f"hang: one example ran past --hang-s {args.hang_s} s"
    else:
        kind = f"child exited with status {rc} and no result"
    log(f"  {name}: {kind}; last input: {tdir / 'last_input.json'}")
    return {"target": name, "examples": None if last is None else last["example"], "outcomes": {},
            "accepted": 0, "refused": 0, "failures": 1, "slow": 0,
            "failure_examples": [{"example": None if last is None else last["example"], "kind": kind,
                                  "message": (crash or stderr)[-4000:], "traceback": stderr[-4000:],
                                  "input": None if last is None else last["input"]}],
            "wall_s": wall, "child_wall_s": wall, "seed": args.seed, "both_expected": TARGETS[name].both,
            "died": {"returncode": rc, "kind": kind, "last_input_file": str(tdir / "last_input.json")}}


def replay(path: Path) -> int:
    """Run one saved input (a last_input.json, or a failure entry of a result) again."""
    doc = json.loads(Path(path).read_text())
    name = doc["target"]
    x = undescribe(doc["input"])
    t = TARGETS[name]
    with tempfile.TemporaryDirectory(prefix="hotspot-fuzz-replay-") as tmp:
        ctx = t.setup(Path(tmp))
        print(f"{name}: input {describe(x)['repr'][:500]}")
        try:
            print(f"outcome: {t.check(ctx, x)}")
        except BaseException:  # noqa: BLE001
            traceback.print_exc()
            return 1
    return 0


def main(argv=None) -> int:
    p = C.make_parser("fuzz", __doc__)
    p.add_argument("--target", action="append", default=None, choices=sorted(TARGETS), metavar="NAME",
                   help=f"a target to run (repeatable; default all: {', '.join(n for n in TARGETS if n[0] != '_')})")
    p.add_argument("--examples", type=int, default=None,
                   help=f"examples per target (default {DEFAULT_EXAMPLES}, tiny {TINY_EXAMPLES})")
    p.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    p.add_argument("--deadline", type=float, default=None,
                   help="seconds one example may take (default: the target's, 5 s; 30 s for cli_args)")
    p.add_argument("--hang-s", type=float, default=DEFAULT_HANG_S,
                   help="an example running this long is a hang: the child is stopped (default %(default)s)")
    p.add_argument("--timeout", type=float, default=None, help="seconds a target's child may run (default none)")
    p.add_argument("--jobs", type=int, default=1, help="targets run at once, one child each (default 1)")
    p.add_argument("--workdir", type=Path, default=None,
                   help="folder for last inputs and crash logs (default: a temporary one, kept on failure)")
    p.add_argument("--in-process", action="store_true", help="run the targets in this process (no child)")
    p.add_argument("--replay", type=Path, default=None, metavar="FILE",
                   help="run the input saved in FILE (last_input.json) once and exit")
    args = p.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    if args.examples is None:
        args.examples = TINY_EXAMPLES if args.tiny else DEFAULT_EXAMPLES
    if args.examples < 1 or args.jobs < 1 or args.hang_s <= 0:
        p.error("--examples, --jobs and --hang-s must be positive")
    names = args.target or [n for n in TARGETS if not n.startswith("_")]

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    own_workdir = args.workdir is None
    workdir = Path(tempfile.mkdtemp(prefix="hotspot-fuzz-")) if own_workdir else args.workdir
    workdir.mkdir(parents=True, exist_ok=True)
    rows = []
    t0 = time.perf_counter()
    if args.in_process:
        for name in names:
            log(f"  {name}: {args.examples:,} examples ...")
            rows.append(run_target(TARGETS[name], args.examples, args.seed, workdir / name, args.deadline,
                                   args.hang_s, log))
    else:
        pending = list(names)
        if args.jobs == 1:
            for name in pending:
                log(f"  {name}: {args.examples:,} examples (child process) ...")
                rows.append(run_child(name, args, workdir, log))
        else:
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(args.jobs) as pool:
                rows = list(pool.map(lambda n: run_child(n, args, workdir, log), pending))
    wall = time.perf_counter() - t0

    print(f"{'target':<18} {'examples':>9} {'accepted':>9} {'refused':>9} {'failures':>8} {'wall s':>8} "
          f"{'ex/s':>7} {'max ex s':>8} {'child s':>8}")
    for r in rows:
        print(f"{r['target']:<18} {r['examples'] if r['examples'] is not None else '-':>9} {r['accepted']:>9} "
              f"{r['refused']:>9} {r['failures']:>8} {r['wall_s']:>8.1f} "
              f"{(r.get('examples_per_s') or 0):>7.1f} {(r.get('max_example_s') or 0):>8.2f} "
              f"{r.get('child_wall_s') or 0:>8.1f}")
        for f in r["failure_examples"][:3]:
            print(f"    FAILURE ({f['kind']}): {f['message'][:400]}")
    failures = sum(r["failures"] for r in rows)
    summary = {"targets": [r["target"] for r in rows], "examples": sum(r["examples"] or 0 for r in rows),
               "failures": failures, "crashed": [r["target"] for r in rows if r.get("died")], "ok": failures == 0,
               "wall_s": wall, "workdir": str(workdir)}
    C.write_result(args, "fuzz", config={"targets": names, "examples": args.examples, "seed": args.seed,
                                         "deadline": args.deadline, "hang_s": args.hang_s, "jobs": args.jobs,
                                         "in_process": args.in_process, "timeout": args.timeout},
                   rows=rows, summary=summary,
                   notes=["accepted: the input worked end to end; refused:<Exception>: the documented refusal, "
                          "raised by hotspot on purpose, nothing changed; failures keep their input (--replay)"])
    if failures:
        log(f"{failures} failure(s); inputs and crash logs in {workdir}")
    elif own_workdir:
        shutil.rmtree(workdir, ignore_errors=True)  # nothing to keep (the JSON names it all the same)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
