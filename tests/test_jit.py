"""The package's compile decorator (hotspot.core._jit).

``jit`` compiles one machine-code version of a function per *general*
argument types when it is called from compiled code: literal arguments lose
their value and narrow integers widen to int64, so that the many call sites
of a helper (``log_event`` has twenty, with literals and int8/int16 record
fields) share one version instead of one each, which had dominated the cold
compile time.  ``@jit(inline=True)`` wrappers are inlined into compiled
callers and stay callable from Python.
"""
import os

import numpy as np
import pytest
from numba import types

from hotspot.core._jit import jit

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiles")


@jit(cache=False)  # compiled in this process, so its versions can be counted
def add_scaled(a, b, scale):
    return (a + b) * scale


@jit(cache=False)
def many_call_sites(x8, x16):
    # literals, int8 and int16 record-like values, and int64: one version of add_scaled
    return (add_scaled(1, x8[0], 2) + add_scaled(x16[0], 3, 1) + add_scaled(x8[1], x16[1], x8[2])
            + add_scaled(np.int64(4), 5, 0))


@jit(inline=True)
def thin_wrapper(a, b):
    return add_scaled(a, b, 10)


@jit
def calls_wrapper(a):
    return thin_wrapper(a, 1)


def test_one_version_per_general_argument_types():
    x8 = np.array([1, 2, 3], dtype=np.int8)
    x16 = np.array([7, -2], dtype=np.int16)
    assert many_call_sites(x8, x16) == (1 + 1) * 2 + (7 + 3) * 1 + (2 - 2) * 3 + 0
    # without the widening numba compiles four versions here (literal, int8, int16 mixes)
    assert add_scaled.signatures == [(types.int64, types.int64, types.int64)]


def test_narrow_values_keep_their_value_through_the_widened_call():
    x8 = np.array([-128, 127, 1], dtype=np.int8)
    x16 = np.array([-32768, 32767], dtype=np.int16)
    expected = (1 - 128) * 2 + (-32768 + 3) + (127 + 32767) * 1
    assert many_call_sites(x8, x16) == expected


def test_inline_wrapper_works_compiled_and_from_python():
    assert calls_wrapper(2) == 30
    assert thin_wrapper(3, 4) == 70
