"""The environments' first compile in two processes (``hotspot.env.warm``):
the helper compiles exactly the signatures the environment then calls, so
that the environment loads the helper's machine code instead of compiling
it again; with the cache filled no helper starts."""

import pytest
from numba import typeof

from hotspot.agents.policies import POLICY_RANDOM, POLICY_SCRIPTED
from hotspot.env import HotspotEnv, warm


@pytest.mark.parametrize("opponent, policy", [("random", POLICY_RANDOM), ("scripted", POLICY_SCRIPTED)])
def test_the_helper_compiles_the_signatures_the_environment_calls(opponent, policy):
    env = HotspotEnv(opponent=opponent)
    _, info = env.reset(seed=3)
    env.step(int(info["action_mask"].argmax()))
    for dispatcher, args in warm._entry_points(policy):
        wanted = tuple(typeof(a) for a in args)
        assert wanted in [tuple(sig) for sig in dispatcher.signatures], (dispatcher.__name__, wanted)


def test_no_helper_starts_when_the_cache_holds_the_code():
    HotspotEnv().reset(seed=0)  # fills (or loads) the cache in this process
    warm._started.clear()
    warm.begin_compiling(POLICY_RANDOM)
    assert warm._helper is None
    warm.finish_compiling()  # nothing to wait for
