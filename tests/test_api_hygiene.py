"""API hygiene: one source of the version number, a changelog entry for it,
and each removed or renamed public name kept for one minor version behind a
shim that raises a DeprecationWarning naming its replacement."""

import importlib
import sys

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


def test_game_record_replay_warns_and_replays():
    from hotspot import Game

    game = Game("standard", seed=4)
    for _ in range(12):
        game.apply_action(int(game.legal_actions()[0]))
    with pytest.warns(DeprecationWarning, match=r"Game\.from_record"):
        replayed = game.record.replay()
    assert replayed.to_bytes() == game.to_bytes()


def test_state_from_bytes_warns_and_checks():
    from hotspot import Game
    from hotspot.core import state
    from hotspot.core.integrity import from_bytes

    with pytest.warns(DeprecationWarning, match="hotspot.core.from_bytes"):
        old = state.from_bytes
    assert old is from_bytes
    data = Game("standard", seed=2).to_bytes()
    assert old(data).tobytes() == data
    with pytest.raises(AttributeError):
        state.no_such_name  # noqa: B018


def test_pettingzoo_env_module_warns_and_is_the_new_module():
    pytest.importorskip("pettingzoo")
    from hotspot.env import pettingzoo as pz

    sys.modules.pop("hotspot.env.pettingzoo_env", None)
    with pytest.warns(DeprecationWarning, match="import hotspot.env.pettingzoo"):
        old = importlib.import_module("hotspot.env.pettingzoo_env")
    assert old.HotspotAECEnv is pz.HotspotAECEnv and old.env is pz.env and old.raw_env is pz.raw_env


@pytest.mark.parametrize("old, new", [("record_from_row", "unchecked_record"), ("replay_row", "unchecked_replay")])
def test_the_unchecked_row_readers_have_their_own_names(old, new):
    """One public name, one behaviour: hotspot.arena.record_from_row checks the
    row; the arena's unchecked readers are match.unchecked_*."""
    from hotspot.arena import match

    with pytest.warns(DeprecationWarning, match=f"hotspot.arena.{old}"):
        shim = getattr(match, old)
    assert shim is getattr(match, new)


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
