"""The one compile decorator of the package: numba ``njit`` with the on-disk cache.

Setting ``NUMBA_DISABLE_JIT=1`` runs the very same functions as plain Python
(the tests compare the two paths game for game).

numba stamps a cached function with the source of *its own* file only, so an
edit to a function in another module that it calls (``make_maneuver`` in
crustal_movement.py, called by ``step`` in actions.py, or any core rule
called by the environments' compiled step) would leave the caller's stale
machine code in the cache.  At import we therefore hash every source file of
the ``hotspot`` package that holds compiled code and, when the hash differs from the one stamped in the
core's ``__pycache__``, empty the numba caches of the whole package: any edit
recompiles (once), never a stale mix.  Only public file operations are used.
"""
import hashlib
import os
from pathlib import Path

from numba import njit

_PACKAGE = Path(__file__).resolve().parent.parent
_STAMP = Path(__file__).resolve().parent / "__pycache__" / "hotspot-sources.sha256"


def source_stamp() -> str:
    """A hash of every Python source file of the package that holds compiled code."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        text = path.read_bytes()
        if b"jit" in text:
            digest.update(str(path.relative_to(_PACKAGE)).encode())
            digest.update(text)
    return digest.hexdigest()


def _refresh_cache() -> None:
    stamp = source_stamp()
    try:
        if _STAMP.read_text() == stamp:
            return
    except OSError:
        pass
    try:
        for cache in _PACKAGE.rglob("__pycache__"):
            for path in cache.iterdir():
                if path.suffix in (".nbi", ".nbc"):
                    path.unlink(missing_ok=True)
        _STAMP.parent.mkdir(exist_ok=True)
        tmp = _STAMP.with_name(f"{_STAMP.name}.{os.getpid()}")
        tmp.write_text(stamp)
        tmp.replace(_STAMP)
    except OSError:  # a read-only installation: numba's own per-file rules apply
        pass


_refresh_cache()

jit = njit(cache=True, nogil=True)
