"""Fuzzing every entry point: hostile input never crashes the
interpreter, never leaks an undocumented exception and never changes a game it
was refused for.

Each target of the fuzzer (the package ``fuzz/``, ``python -m fuzz``) runs
here for a few hundred hypothesis-drawn examples with a fixed seed.  The
fuzzer runs the target in a child process of its own, and the test runs the
fuzzer in a subprocess with a timeout, so a crash inside compiled code or a hang fails the test instead of
killing pytest.  The contract checked for every example (see the script's
docstring): the input is accepted and then everything works on it (mask,
render, observations, legal actions keep every invariant, bytes and records
round trip), or it is refused with the entry point's documented exception,
raised on purpose by the hotspot package, and nothing changed.  A target
must also have produced both outcomes: one that refuses everything never
reaches the compiled code it is meant to test.

The long run (``--examples 100000``) is documented in BENCHMARKS.md.
The last tests check the harness itself: a wrong exception type, an exception
from inside a library, a changed state, a crash and a hang are all reported
as failures naming the target and the input.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FUZZ = [sys.executable, "-m", "fuzz"]  # run from the repository's root
SEED = 1
# examples per target: a few hundred, sized so that the file runs in ~2 minutes once compiled
EXAMPLES = {
    "state_bytes": 300,
    "record": 300,
    "scenario_file": 300,
    "actions": 500,
    "env_step": 300,
    "vector_env_step": 250,
    "pettingzoo_step": 300,
    "cli_args": 300,
    "saved_game": 300,
    "play_load": 200,
}
# generous: on a fresh checkout the first target compiles the core
TIMEOUT_S = 900

sys.path.insert(0, str(ROOT))
import fuzz  # noqa: E402


def run_fuzz(tmp_path, *args, timeout=TIMEOUT_S):
    out = tmp_path / "fuzz.json"
    proc = subprocess.run(
        [*FUZZ, *map(str, args), "--out", str(out), "--workdir", str(tmp_path / "work")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ),
    )
    doc = json.loads(out.read_text()) if out.exists() else None
    return proc, doc


def describe_failures(row) -> str:
    return "\n".join(
        f"{f['kind']}: {f['message'][:800]}\n  input: {(f['input'] or {}).get('repr', '')[:400]}"
        for f in row["failure_examples"]
    )


def test_every_target_is_tested():
    """Every public target of the script has a test here."""
    assert set(EXAMPLES) == {n for n in fuzz.TARGETS if not n.startswith("_")}


@pytest.mark.parametrize("target", sorted(EXAMPLES))
def test_target_holds_its_contract(target, tmp_path):
    """No crash, hang, wrong or undeliberate exception, changed state or slow
    example; and both outcomes (accepted, refused) occurred."""
    n = EXAMPLES[target]
    proc, doc = run_fuzz(tmp_path, "--target", target, "--examples", n, "--seed", SEED, "--timeout", TIMEOUT_S - 60)
    assert doc is not None, f"no result ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    row = doc["rows"][0]
    assert row["target"] == target
    assert row["failures"] == 0 and proc.returncode == 0, describe_failures(row)
    assert row["died"] is None
    assert row["examples"] == n, row["outcomes"]
    assert sum(row["outcomes"].values()) == n
    assert row["accepted"] > 0, f"no input was accepted: {row['outcomes']}"
    assert row["refused"] > 0, f"no input was refused: {row['outcomes']}"


# ------------------------------------------------------------ the harness itself
def test_a_wrong_exception_type_is_a_failure_with_its_input(tmp_path):
    """A target whose entry point raises IndexError fails every example, and
    each failure keeps the input (repr and a pickle --replay reads)."""
    row = fuzz.run_target(fuzz.TARGETS["_selftest_indexerror"], 5, 0, tmp_path)
    assert row["examples"] == 5 and row["failures"] == 5 and row["accepted"] == row["refused"] == 0
    failure = row["failure_examples"][0]
    assert failure["kind"] == "IndexError"
    assert fuzz.undescribe(failure["input"]) in range(1001)


def test_a_documented_type_from_inside_a_library_is_a_failure(tmp_path):
    """A ValueError is documented for many entry points, but one raised inside
    a library (here int()) rather than by a raise statement of the hotspot
    package is not a refusal: it is reported as a failure naming its origin."""
    row = fuzz.run_target(fuzz.TARGETS["_selftest_inside"], 3, 0, tmp_path)
    assert row["failures"] == 3
    assert row["failure_examples"][0]["kind"] == "ContractError"
    assert "was not raised by a raise statement of the hotspot package" in row["failure_examples"][0]["message"]


def test_refused_accepts_only_deliberate_documented_exceptions():
    """refused(): a StateError raised by core.from_bytes is a refusal; the same
    call with another documented type re-raises it; an IndexError never passes."""
    from hotspot.core.integrity import from_bytes
    from hotspot.core.state import StateError

    with pytest.raises(StateError) as info:
        from_bytes(b"\x00" * 7)
    assert fuzz.refused(info.value, StateError) == "refused:StateError"
    with pytest.raises(StateError):
        fuzz.refused(info.value, TypeError)
    try:
        [][1]
    except IndexError as exc:
        with pytest.raises(IndexError):
            fuzz.refused(exc, ValueError)


def test_a_changed_state_is_a_failure():
    """same(): a refusal that changed a snapshot breaks the contract, naming the field."""
    fuzz.same({"state": b"a", "mask": b"1"}, {"state": b"a", "mask": b"1"}, "action")
    with pytest.raises(fuzz.ContractError, match="mask"):
        fuzz.same({"state": b"a", "mask": b"1"}, {"state": b"a", "mask": b"0"}, "action")


def test_a_crash_in_the_child_is_a_failure_naming_target_and_input(tmp_path):
    """A child killed by a signal (a segfault at example 3) is reported, with the
    input it was running and faulthandler's stack, and the script exits 1."""
    proc, doc = run_fuzz(tmp_path, "--target", "_selftest_segfault", "--examples", 6, timeout=300)
    assert proc.returncode == 1
    row = doc["rows"][0]
    assert row["target"] == "_selftest_segfault" and row["failures"] == 1
    assert "SIGSEGV" in row["died"]["kind"]
    failure = row["failure_examples"][0]
    assert failure["example"] == 2 and failure["input"]["pickle_b64"]
    assert "Fatal Python error" in failure["message"] and "_selftest_segfault" in failure["message"]
    assert Path(row["died"]["last_input_file"]).exists()


def test_a_hang_is_a_failure_naming_target_and_input(tmp_path):
    """An example running past --hang-s stops the child; the row says hang and keeps the input."""
    proc, doc = run_fuzz(tmp_path, "--target", "_selftest_hang", "--examples", 4, "--hang-s", 3, timeout=300)
    assert proc.returncode == 1
    row = doc["rows"][0]
    assert row["died"]["kind"].startswith("hang") and row["failure_examples"][0]["example"] == 1


def test_replay_runs_a_saved_input_again(tmp_path):
    """--replay runs a last_input.json once and prints its outcome (exit 0: the contract holds)."""
    saved = tmp_path / "last_input.json"
    saved.write_text(
        json.dumps(
            {"target": "actions", "example": 0, "seed": 0, "input": fuzz.describe((0, ("value", 10**30, "int"), False))}
        )
    )
    proc = subprocess.run([*FUZZ, "--replay", str(saved)], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT_S)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "outcome: refused:IllegalActionError" in proc.stdout
