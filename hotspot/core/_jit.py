"""The one compile decorator of the package: numba ``njit`` with the on-disk cache.

Setting ``NUMBA_DISABLE_JIT=1`` runs the very same functions as plain Python
(the tests compare the two paths game for game).

Where the compiled code is cached.  numba stamps a cached function with the
source of *its own* file only, so an edit to a function in another module that
it calls (``make_maneuver`` in crustal_movement.py, called by ``step`` in
actions.py), or to a constant it reads (numba freezes global arrays and
numbers into the machine code: ``rules_data``'s tables), would leave the
caller's stale machine code in a cache shared across versions.  The package's
functions are therefore cached in a folder keyed by what is compiled: a hash
of the source files of :data:`COMPILED_MODULES` (the modules that define
compiled functions and the modules of the constants they read), by the numba
version and by the Python version (:func:`cache_dir`).  An edit to one of
those files or an upgrade selects a new, empty folder, and numba's own
per-function index does the rest; an edit anywhere else (a file that merely
mentions the decorator included) keeps the folder.  :func:`jit` refuses a
function of a ``hotspot`` module that is not listed (add the module), and
``tests/test_jit.py`` checks that the list is exactly what the compiled code
is made of.
Nothing is ever written into, or deleted from, the package itself (an
installed package stays as pip installed it).  The folder lies in the user's
cache directory (``$XDG_CACHE_HOME``, ``~/.cache``, ``~/Library/Caches`` or
``%LOCALAPPDATA%``), or under ``NUMBA_CACHE_DIR`` when that is set; folders of
other versions not used for :data:`KEEP_DAYS` days are removed.  Only the
package's own functions are pointed there: numba's ``CACHE_DIR`` setting is
changed while one of them is decorated and restored at once, so other numba
code in the process caches where it always does.

numba's private API is touched in this module only, in three guarded places:
:func:`_get_call_template` (one machine-code version per general argument
types, which halves the cold compile time) replaces a dispatcher's
``get_call_template`` only on the numba versions it was checked against
(:data:`HOOK_NUMBA_VERSIONS`) and unless ``HOTSPOT_NUMBA_HOOK=0``; on any
other numba the package compiles with plain ``njit`` (the same results,
more versions, a slower first compile).  :func:`is_cached` reads numba's
cache index path and answers False where numba moved it.  :data:`borrowed`
(an array view without a reference count, for hot call trees) is built
from numba's array helpers and is the identity where they are missing.
"""

import hashlib
import os
import shutil
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from types import MethodType

import numba
import numba.core.dispatcher
from numba import njit, types
from numba.core import config as numba_config
from numba.core import typing

_PACKAGE = Path(__file__).resolve().parent.parent
KEEP_DAYS = 14  # cache folders of other source versions unused this long are removed

#: What the package's machine code is compiled from: this module (the
#: decorator and its hook), every module that defines a compiled function,
#: and every module whose module-level values compiled code reads as
#: constants (with the modules those constants are computed from).  The cache
#: key hashes exactly these files (:func:`source_stamp`).
COMPILED_MODULES = (
    "hotspot.core._jit",
    # the rules (core): compiled functions
    "hotspot.core.actions",
    "hotspot.core.batch",
    "hotspot.core.breakdowns",
    "hotspot.core.collisions",
    "hotspot.core.combat",
    "hotspot.core.control",
    "hotspot.core.crustal_movement",
    "hotspot.core.damage",
    "hotspot.core.dice",
    "hotspot.core.events",
    "hotspot.core.hexgrid",
    "hotspot.core.hovercraft",
    "hotspot.core.integrity",
    "hotspot.core.observation",
    "hotspot.core.overruns",
    "hotspot.core.pieces",
    "hotspot.core.regular_movement",
    "hotspot.core.rollout",
    "hotspot.core.sequence",
    "hotspot.core.setup",
    "hotspot.core.stacking",
    "hotspot.core.units",
    "hotspot.core.victory",
    # the rules' constants read by compiled code (tables, the state's layout, error codes)
    "hotspot.core.errors",
    "hotspot.core.rules_data",
    "hotspot.core.state",
    # features, agents, environments, the arena's compiled games
    "hotspot.features.actions",
    "hotspot.features.decision",
    "hotspot.features.encoding",
    "hotspot.features.learner",
    "hotspot.features.planes",
    "hotspot.features.position",
    "hotspot.agents.action_policy",
    "hotspot.agents.base",
    "hotspot.agents.beliefs",
    "hotspot.agents.clock",
    "hotspot.agents.expert",
    "hotspot.agents.imitation",
    "hotspot.agents.ismcts",
    "hotspot.agents.policies",
    "hotspot.agents.policy_net",
    "hotspot.agents.portfolio",
    "hotspot.agents.rollouts",
    "hotspot.agents.scripted",
    "hotspot.agents.scripted.combat",
    "hotspot.agents.scripted.common",
    "hotspot.agents.scripted.control",
    "hotspot.agents.scripted.crustals",
    "hotspot.agents.scripted.movement",
    "hotspot.agents.scripted.paths",
    "hotspot.agents.scripted.setup",
    "hotspot.agents.search",
    "hotspot.agents.selfcheck",
    "hotspot.agents.setup_search",
    "hotspot.agents.value_net",
    "hotspot.agents.plan_value",
    "hotspot.agents.planes_net",
    "hotspot.env.episodes",
    "hotspot.arena.match",
    "hotspot.arena.turn_points",
)


def module_file(module: str, root: Path = _PACKAGE) -> Path:
    """The source file of the package's module ``module`` (``hotspot.x.y``) under ``root``."""
    path = root.joinpath(*module.split(".")[1:])
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def source_stamp(root: Path = _PACKAGE, modules=COMPILED_MODULES) -> str:
    """A hash of the source files of ``modules`` (:data:`COMPILED_MODULES`): what is compiled."""
    digest = hashlib.sha256()
    for module in sorted(modules):
        path = module_file(module, root)
        digest.update(module.encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:  # not installed: a key of its own
            digest.update(b"\0missing")
        digest.update(b"\0")
    return digest.hexdigest()


def _user_cache_home() -> Path:
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"])
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"])
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    return Path.home() / ".cache"


def cache_base() -> Path:
    """The folder holding one cache folder per version of the compiled sources."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / "hotspot"
    return _user_cache_home() / "hotspot" / "numba"


def cache_dir() -> Path:
    """numba's cache folder for this version of the package's compiled sources."""
    py = f"py{sys.version_info[0]}{sys.version_info[1]}"
    return cache_base() / f"{source_stamp()[:16]}-numba{numba.__version__}-{py}"


def _prune(base: Path, keep: Path) -> None:
    """Remove the cache folders of other versions unused for KEEP_DAYS days."""
    try:
        old = time.time() - KEEP_DAYS * 86400
        for path in base.iterdir():
            if path != keep and path.is_dir() and path.stat().st_mtime < old:
                shutil.rmtree(path, ignore_errors=True)
    except OSError:
        pass


CACHE_DIR = cache_dir()
_prune(CACHE_DIR.parent, CACHE_DIR)


@contextmanager
def _package_cache():
    """numba's CACHE_DIR pointed at :data:`CACHE_DIR` while a function is
    decorated (numba fixes a function's cache path then); restored after."""
    before = numba_config.CACHE_DIR
    numba_config.CACHE_DIR = str(CACHE_DIR)
    try:
        yield
    finally:
        numba_config.CACHE_DIR = before


def _general(t):
    """The type a compiled function is specialized for when called with ``t``
    from compiled code: literals lose their value and integers are widened to
    int64, so that one machine-code version serves every call site."""
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.bitwidth < 64:
        return types.int64
    return t


#: numba (major, minor) versions whose ``Dispatcher.get_call_template`` the
#: hook below reproduces (its body is the same from 0.59 to 0.68); outside
#: this range the hook is not installed
HOOK_NUMBA_VERSIONS = ((0, 59), (0, 68))


def hook_enabled() -> bool:
    """Whether :func:`jit` installs the general-types hook (see the module doc)."""
    if os.environ.get("HOTSPOT_NUMBA_HOOK", "1").strip() == "0":
        return False
    try:
        version = tuple(int(part) for part in numba.__version__.split(".")[:2])
    except ValueError:
        return False
    lo, hi = HOOK_NUMBA_VERSIONS
    return (
        lo <= version <= hi
        and hasattr(numba.core.dispatcher.Dispatcher, "get_call_template")
        and hasattr(typing, "make_concrete_template")
    )


HOOK = hook_enabled()


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
    template = typing.make_concrete_template(name, key=self.py_func.__name__, signatures=self.nopython_signatures)
    return template, pysig, args, {}


def jit(fn=None, *, inline: bool = False, cache: bool = True, parallel: bool = False, nogil: bool = True):
    """``numba.njit(cache=True, nogil=True)``, specialized once per general
    argument types (see ``_get_call_template``).

    ``@jit(inline=True)`` marks a thin wrapper that numba inlines into its
    compiled callers (``inline="always"``): numba re-optimizes and re-emits the
    whole call tree below every separately compiled function, so a chain of
    thin wrappers over a large tree (policy -> scripted player -> heuristics)
    multiplies the cold compile time.  Called from Python it is an ordinary
    compiled function.  ``@jit(parallel=True)`` is a batch entry point whose
    ``prange`` loops run over the cores (called from Python).
    ``@jit(nogil=False)``: a function with an object-mode block (the clock of
    ``hotspot.agents.clock``), which cannot release the GIL."""

    def decorate(f):
        module = getattr(f, "__module__", None) or ""
        if module.startswith("hotspot.") and module not in COMPILED_MODULES:
            raise RuntimeError(
                f"{module}.{f.__qualname__}: compiled code in {module}, which is not in "
                f"hotspot.core._jit.COMPILED_MODULES (the modules the cache key is made of): "
                f"add it there"
            )
        options = {"cache": cache, "nogil": nogil}
        if parallel:
            options["parallel"] = True
        if inline:
            options["inline"] = "always"
        with _package_cache():
            dispatcher = njit(**options)(f)
        if HOOK:
            dispatcher.get_call_template = MethodType(_get_call_template, dispatcher)
        return dispatcher

    return decorate if fn is None else decorate(fn)


def is_cached(dispatcher) -> bool:
    """Whether numba's on-disk cache holds a version of ``dispatcher`` (False
    when unsure).  Reads numba's private cache attributes, here only, guarded:
    a numba that moved them gets False ("compile it"), never an error."""
    try:
        return os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:
        return False


def _borrowed_intrinsic():
    """The compiled ``borrowed`` (see :func:`borrowed`), or None where this
    numba lacks what it is built from (``borrowed`` then returns its array:
    the same results, the reference counting kept)."""
    if numba_config.DISABLE_JIT:
        return None
    try:
        from numba.extending import intrinsic
        from numba.np.arrayobj import make_array, populate_array
    except ImportError:
        return None

    @intrinsic
    def _borrowed(typingctx, arr):
        if not isinstance(arr, types.Array):
            return None

        def codegen(context, builder, sig, args):
            src = make_array(sig.args[0])(context, builder, args[0])
            out = make_array(sig.return_type)(context, builder)
            populate_array(
                out, data=src.data, shape=src.shape, strides=src.strides, itemsize=src.itemsize, meminfo=None
            )
            return out._getvalue()

        return arr(arr), codegen

    return _borrowed


_BORROWED = _borrowed_intrinsic()


def _identity(a):
    return a


#: ``borrowed(a)``, in compiled code: a view of array ``a`` (the same data,
#: shape and strides) that carries no reference count.  numba increments and
#: decrements an array's count (an atomic operation) on entry to and exit
#: from nearly every compiled function it is passed to; a scratch buffer
#: handed down a deep tree of small functions (the scripted player's) spends
#: a third of its time there.  The view is only as alive as ``a``: take it of
#: an argument of the function that takes it (its caller holds ``a`` for the
#: whole call) and never return it or keep it.  The results are the same.
#: numba's private API (``make_array``, ``populate_array``) is touched here,
#: guarded: without it, or in pure Python (``NUMBA_DISABLE_JIT=1``),
#: ``borrowed`` is the identity.
borrowed = _BORROWED if _BORROWED is not None else _identity
