"""The one compile decorator of the core: numba ``njit`` with the on-disk cache.

Setting ``NUMBA_DISABLE_JIT=1`` runs the very same functions as plain Python
(the tests compare the two paths game for game).

Numba stamps a cached function with the source of *its own* file only, so a
change to a function in another module that it calls (e.g. ``make_maneuver``
in crustal_movement.py, called by ``step`` in actions.py) would leave the
caller's stale machine code in the cache.  The locator below stamps every
function of this package with a hash of all the package's compiled modules
instead: any edit to the core recompiles the core (once), never a stale mix.
"""
import functools
import hashlib
import os

from numba import njit

_CORE_DIR = os.path.dirname(os.path.abspath(__file__))


@functools.lru_cache(maxsize=None)
def _hash_sources(key):
    h = hashlib.sha256()
    for name, _mtime, _size in key:
        with open(os.path.join(_CORE_DIR, name), "rb") as f:
            text = f.read()
        if b"_jit" in text or b"njit" in text:  # only the modules holding compiled code
            h.update(name.encode())
            h.update(text)
    return h.digest()


def core_source_stamp():
    """A hash of the core's compiled modules (re-read only when a file changes)."""
    key = []
    for name in sorted(os.listdir(_CORE_DIR)):
        if name.endswith(".py"):
            st = os.stat(os.path.join(_CORE_DIR, name))
            key.append((name, st.st_mtime_ns, st.st_size))
    return _hash_sources(tuple(key))


def _install_core_locators():
    try:
        from numba.core import caching, config
    except ImportError:  # pragma: no cover
        return
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    user = getattr(caching, "UserProvidedCacheLocator", None) or getattr(
        caching, "_UserProvidedCacheLocator", None)
    tree = getattr(caching, "InTreeCacheLocator", None) or getattr(caching, "_InTreeCacheLocator", None)
    if impl is None or user is None or tree is None or getattr(impl, "_hotspot_core", False):
        return

    def in_core(py_file):
        return os.path.dirname(os.path.abspath(py_file)) == _CORE_DIR

    class CoreUserProvidedLocator(user):
        def get_source_stamp(self):
            return core_source_stamp()

        @classmethod
        def from_function(cls, py_func, py_file):
            if not in_core(py_file):
                return None
            return super().from_function(py_func, py_file)

    class CoreInTreeLocator(tree):
        def get_source_stamp(self):
            return core_source_stamp()

        @classmethod
        def from_function(cls, py_func, py_file):
            if config.CACHE_DIR or not in_core(py_file):
                return None
            return super().from_function(py_func, py_file)

    impl._locator_classes = [CoreUserProvidedLocator, CoreInTreeLocator] + list(impl._locator_classes)
    impl._hotspot_core = True


_install_core_locators()

jit = njit(cache=True, nogil=True)
