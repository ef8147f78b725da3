"""The one compile decorator of the core: numba ``njit`` with the on-disk cache.

Setting ``NUMBA_DISABLE_JIT=1`` runs the very same functions as plain Python
(the tests compare the two paths game for game).
"""
from numba import njit

jit = njit(cache=True, nogil=True)
