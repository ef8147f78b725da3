"""A wall clock that compiled code can read: the time budgets (``think_ms``)
of the searches.  numba has no clock of its own; one object-mode call
(about 0.3 us) reads ``time.perf_counter``."""

import time

import numba

from hotspot.core._jit import jit


@jit(nogil=False)
def now_seconds():
    """``time.perf_counter()``, from compiled code or Python."""
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t
