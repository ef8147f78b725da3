"""Game records: (scenario, seed, actions) that replay to the identical game.

A record is saved as JSON: ``{"format": "hotspot-record", "version": 1,
"scenario": {...}, "seed": int, "actions": [int, ...], "result": str}``.  A
game restored from state bytes (which may be in the middle of a phase) has no
scenario; its record holds ``"initial_state"``, the base64 of those bytes,
instead, and replays from it.
Loading checks every field and refuses a corrupt record with a message naming
what is wrong; replaying refuses a record whose action is illegal at its point.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field
from pathlib import Path

from .errors import short_repr
from .integrity import from_bytes
from .jsonfile import JSONInputError, read_json

RECORD_FORMAT = "hotspot-record"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A game record is malformed or does not replay."""


@dataclass
class GameRecord:
    scenario: dict | None
    seed: int
    actions: list[int] = field(default_factory=list)
    result: str = ""
    initial_state: str | None = None  # base64 state bytes, for games not started from a scenario
    max_turns: int | None = None  # a harness's turn limit (D19 revised); None: the rulebook's none

    def to_dict(self) -> dict:
        data = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "scenario": self.scenario,
            "seed": int(self.seed),
            "actions": [int(a) for a in self.actions],
            "result": self.result,
        }
        if self.initial_state is not None:
            data["initial_state"] = self.initial_state
        if self.max_turns is not None:
            data["max_turns"] = int(self.max_turns)
        return data

    @classmethod
    def from_dict(cls, data) -> "GameRecord":
        if not isinstance(data, dict):
            raise RecordError(f"a game record is a JSON object, got {type(data).__name__}")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a hotspot game record (format is {short_repr(data.get('format'))})")
        if data.get("version") != RECORD_VERSION:
            raise RecordError(
                f"record version {short_repr(data.get('version'))} is not supported (expected {RECORD_VERSION})"
            )
        unknown = set(data) - {
            "format",
            "version",
            "scenario",
            "seed",
            "actions",
            "result",
            "initial_state",
            "max_turns",
        }
        if unknown:
            raise RecordError(f"unknown keys in game record: {sorted(unknown)}")
        scenario = data.get("scenario")
        initial = data.get("initial_state")
        if initial is None and not isinstance(scenario, dict):
            raise RecordError("record field 'scenario' must be a scenario object")
        if scenario is not None and not isinstance(scenario, dict):
            raise RecordError("record field 'scenario' must be a scenario object (or null with 'initial_state')")
        if initial is not None:
            if not isinstance(initial, str):
                raise RecordError("record field 'initial_state' must be a base64 string")
            try:
                from_bytes(base64.b64decode(initial, validate=True))
            except (binascii.Error, ValueError) as exc:
                raise RecordError(f"record field 'initial_state' is corrupt: {exc}") from None
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise RecordError(f"record field 'seed' must be a non-negative integer, got {short_repr(seed)}")
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise RecordError("record field 'actions' must be a list of integers")
        for i, a in enumerate(actions):
            if isinstance(a, bool) or not isinstance(a, int):
                raise RecordError(f"actions[{i}] must be an integer, got {short_repr(a)}")
        result = data.get("result", "")
        if not isinstance(result, str):
            raise RecordError("record field 'result' must be a string")
        max_turns = data.get("max_turns")
        if max_turns is not None and (
            isinstance(max_turns, bool) or not isinstance(max_turns, int) or not 1 <= max_turns <= 10000
        ):
            raise RecordError(f"record field 'max_turns' must be an integer in [1, 10000], got {short_repr(max_turns)}")
        return cls(
            scenario=scenario,
            seed=seed,
            actions=list(actions),
            result=result,
            initial_state=initial,
            max_turns=max_turns,
        )

    def save(self, path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1))

    @classmethod
    def load(cls, path) -> "GameRecord":
        try:
            data = read_json(path)
        except OSError as exc:
            raise RecordError(f"{path}: cannot read the record: {exc.strerror}") from None
        except JSONInputError as exc:  # the one reader's limits (core.jsonfile)
            raise RecordError(f"{path}: not valid JSON ({exc})") from None
        except ValueError as exc:  # a name the OS cannot take, e.g. with a NUL character
            raise RecordError(f"{short_repr(str(path))}: not a usable file name ({exc})") from None
        try:
            return cls.from_dict(data)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None
