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
    return (
        add_scaled(1, x8[0], 2)
        + add_scaled(x16[0], 3, 1)
        + add_scaled(x8[1], x16[1], x8[2])
        + add_scaled(np.int64(4), 5, 0)
    )


@jit(inline=True)
def thin_wrapper(a, b):
    return add_scaled(a, b, 10)


@jit
def calls_wrapper(a):
    return thin_wrapper(a, 1)


@pytest.mark.skipif(
    not __import__("hotspot.core._jit", fromlist=["HOOK"]).HOOK,
    reason="the general-types hook is off on this numba (or HOTSPOT_NUMBA_HOOK=0)",
)
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


# ----------------------------------------------------------------- the cache
CACHE_PROBE = """
import json, sys
from pathlib import Path
import numba
sys.path.insert(0, sys.argv[1])
import probe_mod
import hotspot.core._jit as J
print(json.dumps({"cache_dir": str(J.CACHE_DIR), "numba_cache_dir": numba.config.CACHE_DIR,
                  "value": int(probe_mod.f(41)),
                  "cache_path": probe_mod.f._cache._cache_path}))
"""


def _probe(tmp_path, **env):
    """Run a fresh process that compiles one cached ``jit`` function; what it saw."""
    import json
    import subprocess
    import sys

    mod = tmp_path / "mod"
    mod.mkdir(exist_ok=True)
    (mod / "probe_mod.py").write_text("from hotspot.core._jit import jit\n\n\n@jit\ndef f(x):\n    return x + 1\n")
    full = dict(os.environ)
    full.update(env)
    proc = subprocess.run(
        [sys.executable, "-c", CACHE_PROBE, str(mod)], env=full, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_cache_lives_in_the_user_cache_folder_keyed_by_version(tmp_path):
    """The package's compiled code is cached under $XDG_CACHE_HOME/hotspot/numba/<key>,
    the key naming the source stamp, numba and Python versions; numba's own
    CACHE_DIR setting is left as the user had it (unset) for other code."""
    import numba

    from hotspot.core._jit import source_stamp

    out = _probe(tmp_path, XDG_CACHE_HOME=str(tmp_path / "xdg"), NUMBA_CACHE_DIR="")
    base = tmp_path / "xdg" / "hotspot" / "numba"
    assert out["value"] == 42
    assert out["cache_dir"].startswith(str(base))
    key = os.path.basename(out["cache_dir"])
    assert key.startswith(source_stamp()[:16]) and f"numba{numba.__version__}" in key
    assert out["cache_path"].startswith(out["cache_dir"])
    assert not out["numba_cache_dir"]  # restored: other numba code caches where it always did
    assert list((base / key).rglob("*.nbi")), "the compiled function was cached there"


def test_numba_cache_dir_overrides_and_is_kept(tmp_path):
    """NUMBA_CACHE_DIR set by the user: the package caches under it (in hotspot/<key>)
    and numba's setting for everything else stays the user's."""
    user = tmp_path / "user-cache"
    out = _probe(tmp_path, NUMBA_CACHE_DIR=str(user))
    assert out["cache_dir"].startswith(str(user / "hotspot"))
    assert out["numba_cache_dir"] == str(user)
    assert list((user / "hotspot").rglob("*.nbi"))


def test_importing_and_compiling_writes_nothing_into_the_package(tmp_path):
    """No numba cache file is created, changed or deleted inside the package."""
    import hotspot

    pkg = os.path.dirname(hotspot.__file__)

    def cache_files():
        found = {}
        for root, _, files in os.walk(pkg):
            for name in files:
                if name.endswith((".nbi", ".nbc")) or name.endswith(".sha256"):
                    path = os.path.join(root, name)
                    found[path] = os.stat(path).st_mtime_ns
        return found

    before = cache_files()
    _probe(tmp_path, XDG_CACHE_HOME=str(tmp_path / "xdg2"), NUMBA_CACHE_DIR="")
    assert cache_files() == before


# ----------------------------------------------------------------- numba's private API
FALLBACK_PROBE = """
import json
import numpy as np
import hotspot.core._jit as J

@J.jit(cache=False)
def add(a, b):
    return a + b

@J.jit(cache=False)
def caller(x8):
    return add(x8[0], 1) + add(np.int64(2), 3)

print(json.dumps({"hook": J.HOOK, "value": int(caller(np.array([5], dtype=np.int8))),
                  "versions": len(add.signatures)}))
"""


def _fallback_probe(**env):
    import json
    import subprocess
    import sys

    full = dict(os.environ)
    full.update(env)
    proc = subprocess.run([sys.executable, "-c", FALLBACK_PROBE], env=full, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_without_the_private_hook_the_same_code_compiles_and_agrees():
    """The fallback (HOTSPOT_NUMBA_HOOK=0, or a numba outside HOOK_NUMBA_VERSIONS):
    plain njit, the same values, one version per call-site type combination."""
    off = _fallback_probe(HOTSPOT_NUMBA_HOOK="0")
    assert off["hook"] is False and off["value"] == 11
    assert off["versions"] >= 2  # numba's own specializations per call-site types (int8, int64, literals)
    on = _fallback_probe()
    import hotspot.core._jit as J

    assert on["hook"] is J.HOOK and on["value"] == 11
    if J.HOOK:
        assert on["versions"] == 1


def test_the_hook_is_installed_only_on_checked_numba_versions(monkeypatch):
    import numba

    import hotspot.core._jit as J

    lo, hi = J.HOOK_NUMBA_VERSIONS
    monkeypatch.setattr(numba, "__version__", f"{hi[0]}.{hi[1] + 1}.0")
    assert J.hook_enabled() is False
    monkeypatch.setattr(numba, "__version__", f"{lo[0]}.{lo[1]}.0")
    assert J.hook_enabled() is True
    monkeypatch.setenv("HOTSPOT_NUMBA_HOOK", "0")
    assert J.hook_enabled() is False


def test_private_numba_attributes_are_read_only_in_the_jit_module():
    """No module but core/_jit.py touches numba's private attributes."""
    import re
    from pathlib import Path

    import hotspot

    root = Path(hotspot.__file__).parent
    private = re.compile(r"\._cache\b|_cache_file|_index_path|get_call_template|_compiler\b|numba\.core\.")
    offenders = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if p.name != "_jit.py" and private.search(p.read_text(encoding="utf-8"))
    ]
    assert offenders == []


# ----------------------------------------------------------------- the cache key: what is compiled
def _hotspot_modules():
    """Every module of the package, imported (``__main__`` aside; a module
    whose optional dependency is missing is left out)."""
    import importlib
    import pkgutil
    import warnings

    import hotspot

    out = {"hotspot": hotspot}
    for info in pkgutil.walk_packages(hotspot.__path__, "hotspot."):
        if info.name.endswith("__main__"):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # old import paths kept as shims
                out[info.name] = importlib.import_module(info.name)
        except ImportError:
            continue
    return out


def _compiled_functions(modules):
    """{(module, qualname): dispatcher} of every compiled function a hotspot module defines."""
    from numba.core.dispatcher import Dispatcher

    found = {}
    for module in modules.values():
        for value in vars(module).values():
            if isinstance(value, Dispatcher) and value.py_func.__module__.startswith("hotspot."):
                found[value.py_func.__module__, value.py_func.__qualname__] = value
    return found


def _origin(module: str, name: str, depth: int = 0):
    """The hotspot module whose top level assigns ``name``, following ``from ... import``."""
    import ast

    from hotspot.core._jit import module_file

    path = module_file(module)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t)):
                return module
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name:
            return module
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and depth < 10:
            if node.level:
                base = module.split(".")[: None if path.name == "__init__.py" else -1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                if (alias.asname or alias.name) == name and source.startswith("hotspot"):
                    return _origin(source, alias.name, depth + 1)
    return None


def _module_level_imports(module: str) -> set:
    import ast

    from hotspot.core._jit import module_file

    path = module_file(module)
    out = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[: None if path.name == "__init__.py" else -1]
                base = base[: len(base) - (node.level - 1)]
                out.add(".".join(base + ([node.module] if node.module else [])))
            elif (node.module or "").startswith("hotspot"):
                out.add(node.module)
    return out


def test_the_cache_key_is_made_of_exactly_what_is_compiled():
    """COMPILED_MODULES (the files the cache key hashes) is exactly: the jit
    module, every module that defines a compiled function, every module whose
    module-level values (tables, sizes, codes) compiled code reads, and the
    modules those values are computed from."""
    import types

    from numba.core.dispatcher import Dispatcher

    from hotspot.core._jit import COMPILED_MODULES

    modules = _hotspot_modules()
    functions = _compiled_functions(modules)
    defining = {module for module, _ in functions}

    def names(code):
        out = set(code.co_names)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                out |= names(const)
        return out

    constants = set()
    for (module, _), dispatcher in functions.items():
        glob = dispatcher.py_func.__globals__
        for name in names(dispatcher.py_func.__code__):
            value = glob.get(name)
            if value is None or isinstance(value, Dispatcher):
                continue
            if isinstance(value, types.ModuleType):
                if value.__name__.startswith("hotspot"):
                    constants.add(value.__name__)
                continue
            if not str(getattr(value, "__module__", "hotspot")).startswith("hotspot") and (
                callable(value) or isinstance(value, type)
            ):
                continue  # numpy, numba, math, builtins
            origin = _origin(module, name)
            if origin is not None:
                constants.add(origin)
    wanted = {"hotspot.core._jit"} | defining | constants
    for module in sorted(constants - defining):  # what those constants are computed from
        wanted |= {m for m in _module_level_imports(module) if m in modules}
    assert len(set(COMPILED_MODULES)) == len(COMPILED_MODULES)
    assert set(COMPILED_MODULES) == wanted, (
        f"missing: {sorted(wanted - set(COMPILED_MODULES))}; not compiled: {sorted(set(COMPILED_MODULES) - wanted)}"
    )
    assert {"hotspot.core.rules_data", "hotspot.core.state"} <= constants  # tables and layout, no function


def _package_copy(tmp_path):
    """The package's Python files, copied under tmp_path/hotspot."""
    import shutil

    import hotspot

    src = os.path.dirname(hotspot.__file__)
    root = tmp_path / "hotspot"
    for dirpath, dirnames, files in os.walk(src):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(dirpath, name), src)
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(os.path.join(dirpath, name), root / rel)
    return root


def test_the_key_changes_with_compiled_code_only(tmp_path):
    """Code put in a file that merely mentions the decorator (or any file not
    compiled) keeps the key; an edit to a compiled module, or to a module of
    the constants compiled code reads, changes it."""
    from hotspot.core._jit import COMPILED_MODULES, source_stamp

    root = _package_copy(tmp_path)
    before = source_stamp(root)
    assert before == source_stamp()  # the copy is the package
    (root / "human" / "notes.py").write_text('"""A new module that mentions jit, @jit and njit."""\nJIT = "jit"\n')
    with open(root / "human" / "web.py", "a", encoding="utf-8") as f:
        f.write("\n# not compiled: from hotspot.core._jit import jit\n")
    with open(root / "core" / "game.py", "a", encoding="utf-8") as f:
        f.write("\n\ndef helper():  # python only, next to the compiled core\n    return 'jit'\n")
    assert "hotspot.human.web" not in COMPILED_MODULES and "hotspot.core.game" not in COMPILED_MODULES
    assert source_stamp(root) == before
    for edited in ("core/combat.py", "core/rules_data.py", "agents/scripted/__init__.py"):
        with open(root / edited, "a", encoding="utf-8") as f:
            f.write("\n# an edit\n")
        after = source_stamp(root)
        assert after != before, edited
        before = after


def test_jit_refuses_compiled_code_in_a_module_the_key_does_not_cover():
    """A compiled function of a hotspot module missing from COMPILED_MODULES is
    refused at once, naming the list; code outside the package (tests,
    scripts) compiles as before (numba stamps its own file)."""
    from hotspot.core._jit import jit as package_jit

    def helper(x):
        return x + 1

    helper.__module__ = "hotspot.human.web"
    with pytest.raises(RuntimeError, match="COMPILED_MODULES"):
        package_jit(cache=False)(helper)
    helper.__module__ = "my_script"
    assert package_jit(cache=False)(helper)(1) == 2
