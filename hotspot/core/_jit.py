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
An installed (non-editable) package writes nothing into site-packages: its
cache lives in a user cache folder named after the source stamp
(``_use_user_cache``).
"""
import hashlib
import os
from pathlib import Path

from types import MethodType

from numba import njit, types
from numba.core import config as numba_config
from numba.core import typing

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


def _installed() -> bool:
    """Installed as a package (not a source checkout, not editable)?"""
    return "site-packages" in _PACKAGE.parts or "dist-packages" in _PACKAGE.parts


def _use_user_cache() -> bool:
    """An installed package keeps its compiled code out of site-packages: numba's
    cache goes to ``$XDG_CACHE_HOME/hotspot/numba/<source stamp>`` (default
    ``~/.cache``), one folder per version of the sources, so nothing is written
    into the package (pip could not remove it) and no stale code is ever loaded.
    A ``NUMBA_CACHE_DIR`` set by the user wins; an unwritable folder makes numba
    fall back to its own locations."""
    if numba_config.CACHE_DIR or not _installed():
        return False
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    numba_config.CACHE_DIR = str(base / "hotspot" / "numba" / source_stamp()[:16])
    return True


if not _use_user_cache():  # a source checkout: the package's own __pycache__, stamped
    _refresh_cache()



def _general(t):
    """The type a compiled function is specialized for when called with ``t``
    from compiled code: literals lose their value and integers are widened to
    int64, so that one machine-code version serves every call site."""
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.bitwidth < 64:
        return types.int64
    return t


def _get_call_template(self, args, kws):
    # numba's own Dispatcher.get_call_template, except that the version it
    # compiles is for the general argument types (see _general): numba would
    # otherwise compile one version per combination of literal values and
    # integer widths at the call sites (log_event had 52), which dominated the
    # cold compile time.  The call itself is typed against those versions with
    # numba's ordinary conversions (int8 -> int64, literal -> int64).
    pysig, args = self._compiler.fold_argument_types(args, kws)
    if self._can_compile:
        self.compile(tuple(_general(a) for a in args))
    name = f"CallTemplate({self.py_func.__name__})"
    template = typing.make_concrete_template(name, key=self.py_func.__name__,
                                             signatures=self.nopython_signatures)
    return template, pysig, args, {}


def jit(fn=None, *, inline: bool = False, cache: bool = True):
    """``numba.njit(cache=True, nogil=True)``, specialized once per general
    argument types (see ``_get_call_template``).

    ``@jit(inline=True)`` marks a thin wrapper that numba inlines into its
    compiled callers (``inline="always"``): numba re-optimizes and re-emits the
    whole call tree below every separately compiled function, so a chain of
    thin wrappers over a large tree (policy -> scripted player -> heuristics)
    multiplies the cold compile time.  Called from Python it is an ordinary
    compiled function."""
    def decorate(f):
        options = {"cache": cache, "nogil": True}
        if inline:
            options["inline"] = "always"
        dispatcher = njit(**options)(f)
        dispatcher.get_call_template = MethodType(_get_call_template, dispatcher)
        return dispatcher
    return decorate if fn is None else decorate(fn)
