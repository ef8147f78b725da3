"""Golden games of the scripted player (the scripted player moved onto the
core's own functions must play the same games on the same seeds).

``golden_games()`` plays a fixed set of whole games with the compiled
policies (``play_games``: scripted against scripted, and scripted against
random both ways round) on ``standard``, ``open`` (set-up included) and
random set-ups, under the default rules and under rules options (D22:
``losses="owner"``, the scripted player names the counter that loses a squad;
a counter cap; smaller stacks; forward moves into blocked hexes refused,
shorter-lived platforms), with the harnesses' turn limit of 200, and returns one sha256 per game of its final state's
bytes, its action count and the agents' final generators.

    PYTHONPATH=. python tests/scripted_golden.py   # rewrites tests/data/scripted_golden.json

The fixture was written by the player before the refactor (commit 4137120,
the cells with rules options other than ``losses`` added from that commit's
code too).

``tests/test_agents_scripted.py::test_same_games_as_before_the_refactor``
replays them and compares.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

import hotspot.core as hc
from hotspot.agents.policies import POLICY_RANDOM, POLICY_SCRIPTED, play_games

PATH = Path(__file__).resolve().parent / "data" / "scripted_golden.json"
MAX_TURNS = 200
MAX_ACTIONS = 100_000
R, S = POLICY_RANDOM, POLICY_SCRIPTED
PAIRINGS = {"SvS": (S, S), "SvR": (S, R), "RvS": (R, S)}  # (Ziegler, Technocrat)
# (name, scenario per seed, rules overrides, seeds)
CELLS = (
    ("standard", lambda i: "standard", None, range(0, 12)),
    ("open", lambda i: "open", None, range(100, 112)),
    ("random", lambda i: f"random:{i}", None, range(200, 212)),
    ("standard-owner-losses", lambda i: "standard", {"losses": "owner"}, range(300, 304)),
    ("open-owner-losses", lambda i: "open", {"losses": "owner"}, range(400, 404)),
    ("standard-counter-cap", lambda i: "standard", {"counter_cap": 2}, range(500, 504)),
    (
        "random-small-stacks",
        lambda i: f"random:{i}",
        {"stack_side_crustal": 5, "stack_total_crustal": 7, "stack_platform": 6, "stress_threshold": 3},
        range(600, 604),
    ),
    ("open-refuse-forward", lambda i: "open", {"forward_into_blocked": "refuse", "platform_turns": 6}, range(700, 704)),
)


def _states(scenario, rules, seeds):
    return np.concatenate([hc.init(scenario(i), seeds=i, rules=rules, max_turns=MAX_TURNS) for i in seeds])


def layout_v3_bytes(states) -> bytes:
    """The bytes of ``states`` in the layout of version 3, in which the
    fixture was written: the version-4 layout only adds the rules option
    ``sees_through_fog`` (R9.5b), which these games leave at its default."""
    from hotspot.core.state import _STATE_DTYPE_V3

    assert (states["rules"]["sees_through_fog"] == 0).all()
    old = np.zeros(states.shape, dtype=_STATE_DTYPE_V3)
    for name in _STATE_DTYPE_V3.names:
        if name == "rules":
            for r in _STATE_DTYPE_V3["rules"].names:
                old["rules"][r] = states["rules"][r]
        else:
            old[name] = states[name]
    old["version"] = 3
    return old.tobytes()


def golden_games() -> dict:
    """{cell/pairing: [sha256 of each game]} over every cell and pairing."""
    out = {}
    for name, scenario, rules, seeds in CELLS:
        seeds = list(seeds)
        for pname, (pz, pt) in PAIRINGS.items():
            states = _states(scenario, rules, seeds)
            rng = np.array([[1000 + i, 5000 + i] for i in seeds], dtype=np.uint64)
            counts = np.zeros(len(seeds), dtype=np.int64)
            play_games(states, pz, pt, rng, MAX_ACTIONS, counts)
            digests = []
            for j in range(len(seeds)):
                h = hashlib.sha256()
                h.update(layout_v3_bytes(states[j : j + 1]))
                h.update(np.int64(counts[j]).tobytes())
                h.update(rng[j].tobytes())
                digests.append(f"{h.hexdigest()} {int(counts[j])} {int(states['result'][j])}")
            out[f"{name}/{pname}"] = digests
    return out


def main() -> None:
    games = golden_games()
    PATH.parent.mkdir(parents=True, exist_ok=True)
    PATH.write_text(json.dumps({"max_turns": MAX_TURNS, "games": games}, indent=1) + "\n")
    n = sum(len(v) for v in games.values())
    print(f"{n} games written to {PATH}", file=sys.stderr)


if __name__ == "__main__":
    main()
