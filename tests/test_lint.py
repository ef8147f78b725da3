"""The code's form: ruff's lint rules and its formatter, as configured in
pyproject.toml ([tool.ruff]), pass on the whole repository.  CI runs this
through the README's test command; without ruff installed (it is in the test
extra) the test is skipped, except under CI, where it fails."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> list[str]:
    exe = shutil.which("ruff", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("ruff is not installed (pip install -e '.[test]')")
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    return [exe]


@pytest.mark.parametrize("command", [["check", "."], ["format", "--check", "."]], ids=["lint", "format"])
def test_ruff_passes(command):
    """pyproject.toml's ruff configuration: no lint finding, every file formatted."""
    proc = subprocess.run([*_ruff(), *command], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"ruff {' '.join(command)}:\n{proc.stdout[-4000:]}{proc.stderr[-2000:]}"
