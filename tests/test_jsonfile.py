"""The one reader of outside JSON (``hotspot.core.jsonfile``): records,
scenarios, saved games, run folders and the web app's requests parse through
it, so each refuses deep nesting, huge numbers, non-JSON constants and bad
UTF-8 with a one-line error naming the file, and never a traceback."""

from __future__ import annotations

import re

import pytest

from hotspot.arena.folder import RunConfigError, read_run_config, scan_games
from hotspot.core.jsonfile import MAX_DEPTH, MAX_INT_DIGITS, JSONInputError, loads, read_json
from hotspot.core.record import GameRecord, RecordError
from hotspot.core.scenario import ScenarioError, load_scenario
from hotspot.human.session import Session, SessionError

HOSTILE = {
    "deep": ("[" * 100_000 + "]" * 100_000, f"nested too deep (more than {MAX_DEPTH} levels)"),
    "deep object": ('{"a":' * 5000 + "1" + "}" * 5000, "nested too deep"),
    "huge integer": ("9" * 5000, f"at most {MAX_INT_DIGITS}"),
    "huge float": ("1e999", "too large for a float"),
    "NaN": ('{"seed": NaN}', "NaN is not a JSON value"),
    "cut short": ('{"seed": 1', "line 1 column"),
    "bad UTF-8": (b'{"a": "\xff"}', "not UTF-8"),
}


def test_limits_hold_and_strings_do_not_count_as_nesting():
    assert loads('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert loads('{"s": "a\\"[{"}') == {"s": 'a"[{'}
    assert loads(str(10**19)) == 10**19  # a 64-bit seed reads
    for text, words in HOSTILE.values():
        with pytest.raises(JSONInputError, match=re.escape(words)) as info:
            loads(text)
        assert "\n" not in str(info.value)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_loader_refuses_hostile_files_in_one_line(tmp_path, name):
    text, words = HOSTILE[name]
    path = tmp_path / "hostile.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    for load, error in (
        (GameRecord.load, RecordError),
        (load_scenario, ScenarioError),
        (Session.load, SessionError),
        (read_json, JSONInputError),
    ):
        with pytest.raises(error) as info:
            load(str(path))
        message = str(info.value)
        assert "\n" not in message and (words in message or "not UTF-8" in message or "UTF-8" in message)
    (tmp_path / "run.json").write_bytes(path.read_bytes())
    with pytest.raises(RunConfigError, match="damaged"):
        read_run_config(tmp_path)
    (tmp_path / "games.jsonl").write_bytes(path.read_bytes().replace(b"\n", b" ") + b"\n")
    games = scan_games(tmp_path / "games.jsonl")
    assert len(games.damaged) == 1 and "\n" not in str(games.damaged[0])
