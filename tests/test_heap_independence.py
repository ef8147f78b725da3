"""Determinism whatever the heap held: the same seed gives the same game in a
process whose every allocation and every freed block is filled with a byte
(glibc's ``MALLOC_PERTURB_``), so that no decision reads uninitialized or
freed memory.

The defect this guards against: numba frees a local array after its last use
as an array, even while a record taken from it (``obs[0]``) is still read
(numba#8051).  The scripted player's entry point, inlined into a caller that
owned its information-state buffer, read that buffer after it was freed: its
decisions changed with what the heap held, so a game started in a web
request's thread sometimes did not replay to its own save
(``hotspot.core.observation.keep_alive``; BENCHMARKS.md, "Data safety")."""

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent / "heap_script.py"
REPO = Path(__file__).parent.parent

pytestmark = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
    reason="MALLOC_PERTURB_ is glibc's",
)


def _games(perturb: int | None) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("MALLOC_PERTURB_", None)
    if perturb is not None:
        env["MALLOC_PERTURB_"] = str(perturb)
    out = subprocess.run(
        [sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=1500, check=False
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)


def test_every_agent_plays_the_same_game_whatever_the_heap_held():
    """The determinism standard (the same seed, the same game everywhere) with
    the heap filled: each agent's games, compiled and through Python, and a
    session begun in a new thread, saved and loaded back, are the same."""
    plain = _games(None)
    assert plain["session"] == plain["session_loaded"], f"a session does not replay to its own save: {plain}"
    assert len(plain) == 2 + 2 * 7 + 2 * 2  # random and scripted also through Python
    filled = _games(170)
    changed = sorted(k for k in plain if filled.get(k) != plain[k])
    assert not changed, f"MALLOC_PERTURB_=170 changed the games of {changed}"
