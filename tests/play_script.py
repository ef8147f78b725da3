"""Plays random games and prints a digest of each, for the determinism tests.

Run as ``python tests/play_script.py SCENARIO SEED[,SEED...] MAX_ACTIONS``; with
``NUMBA_DISABLE_JIT=1`` in the environment this is the pure-Python path of the
very same functions.
"""

import hashlib
import json
import sys
import warnings

import numpy as np


def play(scenario: str, seed: int, max_actions: int) -> dict:
    from hotspot.core import NUM_ACTIONS, init, no_events
    from hotspot.core.actions import apply_action
    from hotspot.core.rollout import random_action

    states = init(scenario, seeds=seed)
    s = states[0]
    rng = np.array([seed * 7919 + 1], dtype=np.uint64)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev, ev_n = no_events()
    actions = []
    while s["phase"] != 8 and len(actions) < max_actions:
        a = int(random_action(s, mask, rng, 0))
        apply_action(s, a, ev, ev_n)
        actions.append(a)
    return {"seed": seed, "actions": actions, "digest": hashlib.sha256(states.tobytes()).hexdigest()}


def main(argv):
    scenario, seeds, max_actions = argv[1], [int(x) for x in argv[2].split(",")], int(argv[3])
    warnings.simplefilter("ignore", RuntimeWarning)  # uint64 wrap-around in pure-Python dice
    with np.errstate(over="ignore"):
        print(json.dumps([play(scenario, seed, max_actions) for seed in seeds]))


if __name__ == "__main__":
    main(sys.argv)
