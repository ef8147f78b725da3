"""Hidden targets that break the contract on purpose: they test the harness
itself (tests/test_fuzz.py)."""

from __future__ import annotations

import time

from .contract import refused
from .harness import target
from .inputs import st


def _no_setup(workdir):
    return {}


def _ints(ctx):
    return st().integers(0, 1000)


@target("_selftest_indexerror", "fails: raises IndexError", _no_setup, _ints, both=False)
def _selftest_indexerror(ctx, x):
    return [][x]


@target("_selftest_inside", "fails: a documented type (ValueError) not raised by hotspot", _no_setup, _ints, both=False)
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
