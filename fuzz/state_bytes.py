"""Target ``state_bytes``: ``core.from_bytes`` / ``Game.from_bytes`` on mutated
real states, random bytes, wrong lengths, batches and version-2 layouts."""

from __future__ import annotations

from .contract import ContractError, check, refused
from .games import exercise, pool_state_bytes
from .harness import target
from .inputs import picks_strategy, st


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


def state_bytes_strategy(ctx):  # noqa: C901 (one strategy a field of the state)
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
                v = draw(
                    s.one_of(
                        s.sampled_from(
                            [
                                x
                                for x in (
                                    -2,
                                    -1,
                                    0,
                                    1,
                                    2,
                                    3,
                                    7,
                                    8,
                                    31,
                                    32,
                                    95,
                                    96,
                                    99,
                                    100,
                                    127,
                                    313,
                                    314,
                                    info.min,
                                    info.max,
                                )
                                if info.min <= x <= info.max
                            ]
                        ),
                        s.integers(int(info.min), int(info.max)),
                    )
                )
            p = first + off + i * dt.itemsize
            data[p : p + dt.itemsize] = np.array(v, dtype=dt).tobytes()

    @s.composite
    def strategy(draw):
        kind = draw(
            s.sampled_from(
                ("field",) * 6 + ("byte", "bits", "valid", "random", "random_v3", "length", "batch", "v2", "type")
            )
        )
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
                data = data[: draw(s.integers(0, STATE_BYTES - 1))]
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
            value = {
                "bytearray": lambda: bytearray(data),
                "memoryview": lambda: memoryview(bytes(data)),
                "str": lambda: bytes(data).decode("latin-1"),
                "list": lambda: list(data[:16]),
                "None": lambda: None,
                "ndarray": lambda: np.frombuffer(bytes(data), np.uint8),
                "int": lambda: len(data),
            }[how]()
            return value, draw(picks_strategy())
        return bytes(data), draw(picks_strategy())

    return strategy()


def _setup_states(workdir):
    return {"states": pool_state_bytes(), "slots": _field_slots()}


@target(
    "state_bytes",
    "core.from_bytes / Game.from_bytes on mutated real states, random bytes, wrong lengths, "
    "batches and version-2 layouts: StateError, or a game that works",
    _setup_states,
    state_bytes_strategy,
)
def check_state_bytes(ctx, x):
    from hotspot import Game
    from hotspot.core.integrity import from_bytes
    from hotspot.core.state import STATE_BYTES, StateError

    data, picks = x
    try:
        states = from_bytes(data, source="fuzzed bytes")
    except Exception as exc:  # noqa: BLE001 - judged by refused()
        label = refused(exc, StateError, TypeError)
        check(
            isinstance(exc, TypeError) == (not isinstance(data, (bytes, bytearray, memoryview))),
            f"{type(exc).__name__} for a {type(data).__name__}: TypeError is for what is not bytes",
        )
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
            exercise(Game.from_bytes(states[i : i + 1].tobytes()), picks)
        return "accepted:batch"
    game = Game.from_bytes(data)
    exercise(game, picks, expect_bytes=bytes(data) if len(data) == STATE_BYTES else None)
    return "accepted" if isinstance(data, bytes) else f"accepted:{type(data).__name__}"
