"""The arena and design packages type-check: mypy, with pyproject.toml's
[tool.mypy] settings (not strict: an unannotated function's body is left
unchecked), finds no error in ``hotspot/arena`` and ``hotspot/design``.
Without mypy installed (it is in the test extra) the test is skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["hotspot/arena", "hotspot/design"]


def test_arena_and_design_type_check(monkeypatch):
    """mypy's exit status is 0 on the arena and design packages; its report is shown otherwise."""
    pytest.importorskip("mypy")
    from mypy import api

    monkeypatch.chdir(ROOT)  # the paths, the settings and mypy's cache: the repository's
    stdout, stderr, status = api.run(["--config-file", "pyproject.toml", *PACKAGES])
    assert status == 0, f"mypy {' '.join(PACKAGES)} (exit status {status}):\n{stdout[-6000:]}{stderr[-2000:]}"
