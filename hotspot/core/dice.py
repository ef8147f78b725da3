"""The die (2.3): a seeded generator stored in the game state, and scripted dice.

Every roll goes through :func:`roll_die`.  Scripted rolls (``dice_queue``) are
used first, in order; then the splitmix64 generator in ``state["rng"]`` gives
the roll, so the same seed always gives the same game, alone, in a batch or in
another process.  Each roll is reported as an event with its chart (16.0).
"""

import numpy as np

from ._jit import jit
from .events import EV_ROLL, log_event

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_SIX = np.uint64(6)


@jit
def splitmix64(x):
    """One step of the splitmix64 generator (Steele, Lea and Flood 2014) from
    state ``x`` (uint64): ``(next state, 64 random bits)``.  The package's one
    generator: the dice, the agents' own generators and every seed derivation
    use it."""
    x = x + _GOLDEN
    z = (x ^ (x >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return x, z ^ (z >> np.uint64(31))


@jit
def mix64(x):
    """splitmix64's output for state ``x``: a well-mixed 64-bit function of x
    (used to derive independent seeds from one seed)."""
    return splitmix64(x)[1]


@jit
def mix64_run(first, n):
    """:func:`mix64` of ``first``, ``first + 1``, ..., ``first + n - 1`` (modulo 2**64), in one call."""
    out = np.empty(n, np.uint64)
    for i in range(n):
        out[i] = mix64(first + np.uint64(i))
    return out


def mix64_int(x: int) -> int:
    """:func:`mix64` for a Python integer (taken modulo 2**64)."""
    return int(mix64(np.uint64(int(x) % (1 << 64))))


@jit
def next_random(s):
    """Advance the state's splitmix64 generator; return 64 random bits."""
    s["rng"], z = splitmix64(s["rng"])
    return z


@jit
def random_below(s, n):
    """A uniform integer in [0, n) from the state's generator (n >= 1)."""
    return int(next_random(s) % np.uint64(n))


@jit
def roll_die(s, chart, subject, ev, ev_n):
    """One roll of the die on ``chart`` for ``subject`` (a piece, unit or cell)."""
    pos = s["dice_pos"]
    if pos < s["dice_len"]:
        roll = int(s["dice_queue"][pos])
        s["dice_pos"] = pos + 1
    else:
        roll = 1 + int(next_random(s) % _SIX)
    log_event(ev, ev_n, EV_ROLL, chart, subject, roll, 0, 0)
    return roll


def seed_state(state, seed: int) -> None:
    """Seed the dice of one state from an integer seed (any size; hashed by numpy's SeedSequence)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    word = np.random.SeedSequence(int(seed)).generate_state(1, dtype=np.uint64)[0]
    state["rng"] = word


def script_dice(state, rolls) -> None:
    """Make the next rolls of this state exactly ``rolls`` (each 1..6), then the generator again."""
    from .state import DICE_QUEUE

    rolls = list(rolls)
    if len(rolls) > DICE_QUEUE:
        raise ValueError(f"at most {DICE_QUEUE} scripted rolls, got {len(rolls)}")
    for r in rolls:
        if not 1 <= int(r) <= 6:
            raise ValueError(f"a die roll is 1..6, got {r!r}")
    state["dice_queue"][:] = 0
    state["dice_queue"][: len(rolls)] = rolls
    state["dice_len"] = len(rolls)
    state["dice_pos"] = 0
