"""API hygiene: one source of the version number, a changelog entry for it,
and each removed or renamed public name kept for one minor version behind a
shim that raises a DeprecationWarning naming its replacement."""

import importlib

import pytest


def test_the_version_has_one_source():
    """pyproject.toml reads hotspot.__version__; CHANGELOG.md has a section for it."""
    import importlib.metadata
    from pathlib import Path

    import hotspot

    root = Path(__file__).resolve().parent.parent
    assert 'dynamic = ["version"]' in (root / "pyproject.toml").read_text(encoding="utf-8")
    assert importlib.metadata.version("hotspot") == hotspot.__version__
    assert f"## [{hotspot.__version__}]" in (root / "CHANGELOG.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "module, name",
    [
        ("hotspot.core.record", "GameRecord.replay"),
        ("hotspot.core.state", "from_bytes"),
        ("hotspot.arena.match", "record_from_row"),
        ("hotspot.arena.match", "replay_row"),
    ],
)
def test_the_names_due_in_0_3_are_gone(module, name):
    """Deprecated since 0.2.0 and removed in 0.3.0 (CHANGELOG.md): the old
    names are gone, their successors stay (``Game.from_record``,
    ``hotspot.core.from_bytes``, ``hotspot.arena.record_from_row`` and
    ``replay_row``, ``match.unchecked_record`` and ``unchecked_replay``)."""
    obj = importlib.import_module(module)
    for part in name.split("."):
        assert hasattr(obj, part) == (part != name.split(".")[-1]), (module, name)
        obj = getattr(obj, part, None)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("hotspot.env.pettingzoo_env")
    import hotspot.arena
    import hotspot.core
    from hotspot import Game

    assert callable(Game.from_record) and callable(hotspot.core.from_bytes)
    assert callable(hotspot.arena.record_from_row) and callable(hotspot.arena.replay_row)


def test_the_in_game_deployment_search_has_its_own_name():
    """``agents.setup_search.deployment_search`` (the in-game search, named
    like the arena's offline ``search_deployment``) is
    ``deployment_seed_by_playouts``; the old name warns until 0.4.0."""
    from hotspot.agents import setup_search

    with pytest.warns(DeprecationWarning, match="deployment_seed_by_playouts"):
        old = setup_search.deployment_search
    assert old is setup_search.deployment_seed_by_playouts
    with pytest.raises(AttributeError):
        setup_search.no_such_name  # noqa: B018
