"""API hygiene: one source of the version number, a changelog entry for it."""


def test_the_version_has_one_source():
    """pyproject.toml reads hotspot.__version__; CHANGELOG.md has a section for it."""
    import importlib.metadata
    from pathlib import Path

    import hotspot
    root = Path(__file__).resolve().parent.parent
    assert 'dynamic = ["version"]' in (root / "pyproject.toml").read_text(encoding="utf-8")
    assert importlib.metadata.version("hotspot") == hotspot.__version__
    assert f"## [{hotspot.__version__}]" in (root / "CHANGELOG.md").read_text(encoding="utf-8")
