"""Target ``record``: ``GameRecord.load`` then replay on record files as bytes."""

from __future__ import annotations

import json

from .contract import check, refused
from .games import exercise
from .harness import target
from .inputs import file_bytes, picks_strategy, st


def _setup_records(workdir):
    import numpy as np

    from hotspot import Game
    from hotspot.core.actions import NUM_ACTIONS
    from hotspot.core.rollout import random_action

    docs = []
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    for i, (scenario, n, max_turns) in enumerate((("standard", 30, None), ("open", 20, 5), ("random:4", 60, 2))):
        game = Game(scenario, seed=i, max_turns=max_turns)
        rng = np.array([7 + i], dtype=np.uint64)
        for _ in range(n):
            game.apply_action(int(random_action(game.s, mask, rng, 0)))
        docs.append(game.record.to_dict())
        mid = Game.from_bytes(game.to_bytes())  # a record with initial_state
        for _ in range(10):
            if not mid.is_terminal():
                mid.apply_action(int(random_action(mid.s, mask, rng, 0)))
        docs.append(mid.record.to_dict())
    path = workdir / "record.json"
    return {"docs": docs, "path": path}


def record_strategy(ctx):
    s = st()
    return s.tuples(file_bytes(ctx["docs"], "hotspot-record"), picks_strategy())


@target(
    "record",
    "GameRecord.load + replay on record files as bytes (mutated records, bad initial_state, "
    "invalid UTF-8, deep nesting, huge numbers, garbage): RecordError, or a game that works",
    _setup_records,
    record_strategy,
)
def check_record(ctx, x):
    from hotspot.core.game import Game
    from hotspot.core.record import GameRecord, RecordError

    data, picks = x
    path = ctx["path"]
    path.write_bytes(data)
    try:
        record = GameRecord.load(path)
    except Exception as exc:  # noqa: BLE001
        label = refused(exc, RecordError)
        check(str(path) in str(exc), f"the RecordError does not name the file: {exc}")
        return label
    try:
        game = Game.from_record(record)
    except Exception as exc:  # noqa: BLE001
        return refused(exc, RecordError) + " (replay)"
    again = Game.from_record(record)
    check(again.to_bytes() == game.to_bytes(), "two replays of one record differ")
    check(
        GameRecord.from_dict(json.loads(json.dumps(record.to_dict()))).to_dict() == record.to_dict(),
        "the record does not round trip through to_dict / from_dict",
    )
    exercise(game, picks)
    return "accepted"
