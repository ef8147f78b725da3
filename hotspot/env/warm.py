"""The environments' first compile, in two processes.

On a fresh install numba's on-disk cache is empty and an environment's first
``reset`` and ``step`` compile the rules, the opponent and the observation
encoder (about a minute on one core).  :func:`begin_compiling` starts a
helper process that compiles the opponent's moves and the observation
encoder (numba's ``Dispatcher.compile`` for the argument types the
environment passes: nothing is played) while this process checks the
scenario and starts the first episode; :func:`finish_compiling` waits for it
before those calls, which then load the helper's machine code from the
cache.  The two halves are about even, so the first step waits about half as
long on two cores.  Nothing happens when the cache already holds the code.

The helper is a plain ``python -c`` process (no ``multiprocessing``: the
caller's main module is never imported again, whatever start method the
caller chose); if it fails, this process compiles what is missing itself.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
from numba.core import config as numba_config

from hotspot.agents.policies import POLICY_SCRIPTED, play_policy_until, play_random_policy_until
from hotspot.core._jit import is_cached
from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.events import no_events
from hotspot.core.state import STATE_DTYPE
from hotspot.features.encoding import encode, new_observation, scratch_state

#: seconds this process waits for the helper before compiling on its own
HELPER_TIMEOUT_S = 600.0

_helper: subprocess.Popen | None = None
_started: set = set()  # the policies a helper was started for in this process (once each)


def _entry_points(policy: int):
    """(dispatcher, example arguments) for what the helper compiles: the
    compiled opponent's moves (``policy``: a compiled policy id, or -1 for
    none) and the observation encoder, with arguments of the types the
    environment passes them."""
    s = np.zeros(1, dtype=STATE_DTYPE)[0]
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    rng = np.zeros(1, dtype=np.uint64)
    ev, ev_n = no_events()
    o = new_observation()
    out = [(encode, (s, 0, True, True, scratch_state()[0], o["board"], o["units"], o["pieces"], o["globals"]))]
    if policy == POLICY_SCRIPTED:
        out.append((play_policy_until, (s, 0, POLICY_SCRIPTED, mask, rng, 0, ev, ev_n)))
    elif policy >= 0:
        out.append((play_random_policy_until, (s, 0, mask, rng, 0, ev, ev_n)))
    return out


def compile_entry_points(policy: int) -> None:
    """Compile (into numba's cache) what :func:`_entry_points` lists; the helper's work."""
    from numba import typeof

    for dispatcher, args in _entry_points(policy):
        dispatcher.compile(tuple(typeof(a) for a in args))


def begin_compiling(policy: int) -> None:
    """Start the helper if the cache lacks the opponent's moves or the encoder
    (a fresh install); otherwise do nothing (nor without compilation,
    ``NUMBA_DISABLE_JIT``, nor a second time for the same opponent)."""
    global _helper
    if numba_config.DISABLE_JIT or _helper is not None or policy in _started:
        return
    if all(is_cached(d) for d, _ in _entry_points(policy)):
        return
    _started.add(policy)
    code = f"from hotspot.env.warm import compile_entry_points; compile_entry_points({int(policy)})"
    try:
        _helper = subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=dict(os.environ),
        )
    except OSError:  # no helper: this process compiles everything, as without one
        _helper = None


def finish_compiling() -> None:
    """Wait for the helper, if one runs (what it failed to compile, this process compiles when it is called)."""
    global _helper
    if _helper is None:
        return
    try:
        _helper.wait(timeout=HELPER_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        _helper.kill()
    _helper = None
