"""Worker of bench_compile.py: times the first calls of a fresh process.

Run as ``python _compile_worker.py [--with-env]``; prints one JSON line of
wall-clock timestamps (``time.time()``, so the parent can measure from the
moment it spawned this process) and phase durations.  It imports nothing but
the standard library before the clock starts, so every phase is charged to the
call that pays it (importing, compiling or loading from numba's cache).
"""

import time

T_START = time.time()

import json  # noqa: E402
import sys  # noqa: E402


def main():
    phases = []
    mark = [time.perf_counter()]

    def phase(name):
        now = time.perf_counter()
        phases.append({"phase": name, "seconds": now - mark[0]})
        mark[0] = now

    import numpy as np

    import hotspot.core as core

    phase("import hotspot.core")
    states = core.init("standard", seeds=[0])
    phase("init (scenario, dice seeding, start)")
    mask = np.zeros(core.NUM_ACTIONS, dtype=np.bool_)
    core.legal_action_mask(states[0], mask)
    phase("legal_action_mask")
    ev, ev_n = core.no_events()
    err = core.step(states[0], int(np.flatnonzero(mask)[0]), ev, ev_n)
    phase("step")
    first_step_at = time.time()
    if err != 0:
        raise SystemExit(f"the first legal action was refused (error {err})")

    from hotspot.core.rollout import play_random_batch

    play_random_batch(states.copy(), np.ones(1, dtype=np.uint64), 10)
    phase("play_random_batch (parallel)")
    masks = np.zeros((1, core.NUM_ACTIONS), dtype=np.bool_)
    core.legal_action_mask_batch(states, masks)
    errors = np.zeros(1, dtype=np.int32)
    core.step_batch(states, np.flatnonzero(masks[0])[:1].astype(np.int64), errors)
    phase("legal_action_mask_batch + step_batch (parallel)")
    if "--with-env" in sys.argv:
        from hotspot.env.vector_env import HotspotVectorEnv

        envs = HotspotVectorEnv(num_envs=2)
        _, info = envs.reset(seed=0)
        envs.step(info["action_mask"].argmax(axis=1))
        phase("HotspotVectorEnv reset + step")
    print(json.dumps({"t_start": T_START, "first_step_at": first_step_at, "t_end": time.time(), "phases": phases}))


if __name__ == "__main__":
    main()
