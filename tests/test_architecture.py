"""The package's shape: layers that import only downward, no import
cycles, no private names imported across modules.

Layers, lowest first (docs/architecture.md):

    core -> features -> agents -> env -> arena -> design -> human -> cli

A module may import its own layer and the layers below it, never above;
imports inside functions count too (a lazy import is still a dependency), and
so does ``importlib.import_module("a.literal.name")`` (``__import__`` too).
The one exception is a deprecated forwarder (:data:`FORWARDERS`): an old
module path that forwards its names to their new home, one layer up, from
its module ``__getattr__`` and nowhere else, until the release it names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import hotspot

ROOT = Path(hotspot.__file__).resolve().parent
LAYERS = ("core", "features", "agents", "env", "arena", "design", "human", "cli")
ALIASES = {
    "__main__": "cli",
    "results": "arena",
}  # ``python -m hotspot`` is the command line; results: the arena's tables


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {_module_name(p): p for p in ROOT.rglob("*.py")}


def _literal_import(node: ast.AST, package: str) -> str | None:
    """The module a call ``importlib.import_module("literal")`` (or
    ``import_module(...)``, ``__import__(...)``) imports, else None; a relative
    literal is resolved against ``package``."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    arg = node.args[0]
    if called not in ("import_module", "__import__") or not isinstance(arg, ast.Constant):
        return None
    if not isinstance(arg.value, str):
        return None
    target = arg.value
    if target.startswith("."):
        level = len(target) - len(target.lstrip("."))
        base = package.split(".")[: len(package.split(".")) - (level - 1)]
        target = ".".join(base + ([target[level:]] if target[level:] else []))
    return target


def _imports(name: str, path: Path):
    """(imported module, imported name or None, line) for every import of ``path``."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        literal = _literal_import(node, package)
        if literal is not None:
            yield literal, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                if f"{target}.{alias.name}" in MODULES:
                    yield f"{target}.{alias.name}", None, node.lineno
                else:
                    yield target, alias.name, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno


#: deprecated forwarders: old module -> the package its names moved to (the
#: game-design tools left the arena for ``hotspot.design``; they go in 0.4)
DESIGN_MODULES = ("balance", "balance_plots", "calibrate", "deployment", "skill", "report", "game_report")
FORWARDERS = {"hotspot.arena": "hotspot.design"} | {f"hotspot.arena.{m}": f"hotspot.design.{m}" for m in DESIGN_MODULES}


def _forwarded(name: str, path: Path) -> set[int]:
    """The lines of ``path``'s imports made inside its module ``__getattr__``
    of the new home :data:`FORWARDERS` names (nothing for other modules)."""
    if name not in FORWARDERS:
        return set()
    home = "hotspot.design"  # a forwarder may read any module of the new package (game_report's names have three)
    lines = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            for sub in ast.walk(node):
                targets = [a.name for a in sub.names] if isinstance(sub, ast.Import) else []
                if isinstance(sub, ast.ImportFrom):
                    targets = [f"{sub.module}.{a.name}" for a in sub.names]
                if any(t == home or t.startswith(home + ".") for t in targets):
                    lines.add(sub.lineno)
    return lines


def _layer(module: str) -> int:
    parts = module.split(".")
    if parts[0] != "hotspot" or len(parts) == 1:
        return -1  # the top-level package (a facade over core) or not ours
    return LAYERS.index(ALIASES.get(parts[1], parts[1]))


def test_every_module_is_in_a_layer():
    assert {ALIASES.get(m.split(".")[1], m.split(".")[1]) for m in MODULES if m != "hotspot"} == set(LAYERS)


def test_imports_point_only_downward():
    upward = []
    for name, path in MODULES.items():
        forwarded = _forwarded(name, path)
        for target, _, line in _imports(name, path):
            if line in forwarded:
                continue
            if target.startswith("hotspot") and _layer(name) >= 0 and _layer(target) > _layer(name):
                upward.append(f"{path.relative_to(ROOT.parent)}:{line} imports {target}")
    assert upward == []


def test_no_import_cycles_between_modules():
    graph = {
        name: {
            t
            for t, _, line in _imports(name, path)
            if t in MODULES and t != name and line not in _forwarded(name, path)
        }
        for name, path in MODULES.items()
    }
    # a package's __init__ importing its own modules is how a package re-exports: not a cycle
    for name in graph:
        graph[name] = {t for t in graph[name] if not (MODULES[t].name == "__init__.py" and name.startswith(t + "."))}
    cycles, state = [], {}

    def visit(node, stack):
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert cycles == []


def test_no_private_name_is_imported_from_another_module():
    private = []
    for name, path in MODULES.items():
        for target, imported, line in _imports(name, path):
            if target.startswith("hotspot") and imported and imported.startswith("_") and not imported.startswith("__"):
                private.append(f"{path.relative_to(ROOT.parent)}:{line} imports {target}.{imported}")
    assert private == []


def test_the_layer_check_would_catch_an_upward_import(tmp_path):
    """The checks above can fail: an agents module importing env is upward."""
    fake = tmp_path / "hotspot" / "agents" / "bad.py"
    fake.parent.mkdir(parents=True)
    fake.write_text(
        "from hotspot.env.hotspot_env import HotspotEnv\nfrom ..core.rollout import _hidden\n"
        "import importlib\n"
        "def f():\n"
        "    return importlib.import_module('hotspot.arena.match'), importlib.import_module('.base', __package__)\n"
    )
    found = list(_imports("hotspot.agents.bad", fake))
    assert ("hotspot.env.hotspot_env", "HotspotEnv", 1) in found
    assert _layer("hotspot.env.hotspot_env") > _layer("hotspot.agents.bad")
    assert ("hotspot.core.rollout", "_hidden", 2) in found
    assert ("hotspot.arena.match", None, 5) in found  # an import by name is an import
    assert ("hotspot.agents.base", None, 5) in found


def test_the_readme_imports_only_the_public_surface():
    """README snippets import from hotspot, hotspot.core, hotspot.env,
    hotspot.agents or hotspot.arena, never from deep modules."""
    import re

    readme = (ROOT.parent / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    deep = [
        line.strip()
        for block in blocks
        for line in block.splitlines()
        if re.match(r"\s*(from|import) hotspot\.\w+\.\w+", line)
    ]
    assert deep == []


def test_public_surface_exports_what_the_readme_uses():
    import hotspot.core
    import hotspot.env

    for name in ("Game", "GameRecord", "RulesOptions", "init", "StateError", "RecordError", "ScenarioError"):
        assert hasattr(hotspot, name), name
    for name in (
        "init",
        "step",
        "legal_action_mask",
        "step_batch",
        "legal_action_mask_batch",
        "play_random_batch",
        "set_max_turns",
        "from_bytes",
        "to_bytes",
        "returns",
        "NUM_ACTIONS",
    ):
        assert name in hotspot.core.__all__ and hasattr(hotspot.core, name), name
    for name in ("HotspotEnv", "HotspotVectorEnv", "HotspotAECEnv", "write_replay_html"):
        assert name in hotspot.env.__all__, name
    assert hotspot.env.HotspotVectorEnv.__name__ == "HotspotVectorEnv"
    assert hotspot.env.HotspotAECEnv.__name__ == "HotspotAECEnv"


#: the functions longer than LONGEST_FUNCTION lines, each at most as long as
#: it is now: one may shrink (lower its figure or drop it), none may grow, and
#: no other function may pass the limit (cut it into named steps instead).
#: The exceptions and why: two compiled loops, where every separately compiled
#: function costs numba's front end a fraction of a second on a cold start
#: (BENCHMARKS.md, "Compilation and cache"), so a split would lengthen the
#: arena's first run; and two training scripts that read top to bottom as
#: CleanRL's do.
LONGEST_FUNCTION = 120
LONG_FUNCTIONS = {
    "hotspot/agents/ismcts.py:ismcts_search": 208,  # compiled: the four ISMCTS steps in one loop
    "training/train_ppo.py:main": 187,  # a training script, read top to bottom
    "hotspot/agents/scripted/movement.py:t_move": 156,  # compiled: the Technocrat's movement roles in order
    "training/train_expert.py:main": 140,  # a training script, read top to bottom
}


def _function_lengths():
    repo = ROOT.parent
    for folder in (ROOT, repo / "training"):
        for path in sorted(folder.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    name = f"{path.relative_to(repo).as_posix()}:{node.name}"
                    yield name, node.end_lineno - node.lineno + 1


def test_no_function_grows_past_the_limit():
    """A function reads as one idea: none longer than LONGEST_FUNCTION lines
    but the listed ones, and those no longer than they are (a ratchet)."""
    lengths = dict(_function_lengths())
    too_long = {n: k for n, k in lengths.items() if k > LONG_FUNCTIONS.get(n, LONGEST_FUNCTION)}
    assert not too_long, f"functions past their limit (cut them into named steps): {too_long}"
    stale = [n for n in LONG_FUNCTIONS if lengths.get(n, 0) <= LONGEST_FUNCTION]
    assert not stale, f"listed as long but gone or within the limit now (drop them from LONG_FUNCTIONS): {stale}"


def test_deprecated_forwarders_only_forward():
    """Each old path of a moved module (:data:`FORWARDERS`) is a forwarder and
    nothing more: a docstring, ``import warnings`` and a module
    ``__getattr__``; each name read there warns, naming its new home, and is
    the new home's object."""
    import importlib

    import pytest

    for old, home in FORWARDERS.items():
        if old == "hotspot.arena":
            continue  # the arena's own package: two forwarded names, checked below
        body = ast.parse(MODULES[old].read_text(encoding="utf-8")).body
        kinds = [type(node).__name__ for node in body]
        assert kinds == ["Expr", "Import", "FunctionDef"], (old, kinds)
        module, target = importlib.import_module(old), importlib.import_module(home)
        public = next(
            n for n, v in vars(target).items() if not n.startswith("_") and getattr(v, "__module__", "") == home
        )
        with pytest.warns(DeprecationWarning, match=rf"{old}\.{public} is {home}\.{public}"):
            assert getattr(module, public) is getattr(target, public)
        assert not hasattr(module, "no_such_name")  # an unknown name is an AttributeError, not a warning

    with pytest.warns(
        DeprecationWarning, match=r"hotspot.arena.game_report.verdicts is hotspot.design.readings.verdicts"
    ):
        from hotspot.arena.game_report import verdicts  # moved on, into the report's readings
    from hotspot.design.readings import verdicts as moved

    assert verdicts is moved
    import hotspot.arena
    import hotspot.design

    for name in ("run_balance", "run_report"):
        with pytest.warns(DeprecationWarning, match=rf"hotspot.arena.{name} is hotspot.design.{name}"):
            assert getattr(hotspot.arena, name) is getattr(hotspot.design, name)


def test_the_arena_never_imports_design():
    """design imports arena, never the reverse (but for the forwarders)."""
    found = []
    for name, path in MODULES.items():
        if name.startswith("hotspot.arena"):
            forwarded = _forwarded(name, path)
            found += [
                f"{name}:{line} {t}"
                for t, _, line in _imports(name, path)
                if t.startswith("hotspot.design") and line not in forwarded
            ]
    assert found == []
