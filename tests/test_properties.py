"""Properties of random games (hypothesis), checked after every atomic action:

* one piece a hex and the board matching the pieces (6.2), stacking limits
  (9.1, 9.2) in every hex;
* no unit ever stands on a molten hex (8.2) -- in particular none after a
  movement phase;
* attack factors never grow, except a counter's by combining (10.0), and a
  side's total never grows;
* the legal-action mask never offers an action that the core refuses, and
  the core refuses every action the mask leaves out, leaving the state
  unchanged.
"""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hotspot.core import NUM_ACTIONS, init, no_events
from hotspot.core.actions import A_COMBINE, A_MANEUVER, action_error, apply_action, step
from hotspot.core.placement import position_errors
from hotspot.core.rollout import random_action
from hotspot.core.rules_data import UNIT_SIDE
from hotspot.core.state import MAX_UNITS

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _attacks(s):
    per_unit = np.zeros(MAX_UNITS, dtype=np.int64)
    side_total = np.zeros(2, dtype=np.int64)
    for u in range(MAX_UNITS):
        t = int(s["unit_type"][u])
        if t > 0:
            per_unit[u] = int(s["rules"]["attack"][t]) * int(s["unit_squads"][u])
            side_total[UNIT_SIDE[t]] += per_unit[u]
    return per_unit, side_total


def _random_game(setup_seed, dice_seed, agent_seed, check, max_actions=3000):
    states = init(f"random:{setup_seed}", seeds=dice_seed)
    s = states[0]
    rng = np.array([agent_seed], dtype=np.uint64)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev, ev_n = no_events()
    n = 0
    while s["phase"] != 8 and n < max_actions:
        a = int(random_action(s, mask, rng, 0))
        check(states, mask, a)
        apply_action(s, a, ev, ev_n)
        n += 1
    return states, n


@SETTINGS
@given(setup=st.integers(0, 10_000), dice=st.integers(0, 2**40), agent=st.integers(1, 2**40))
def test_board_and_stacking_invariants(setup, dice, agent):
    """6.2 one piece a hex, 9.1/9.2 stacking and 8.2 no unit on molten rock hold after every action."""

    def check(states, mask, a):
        errors = position_errors(states)
        assert errors == [], errors

    states, n = _random_game(setup, dice, agent, check)
    assert position_errors(states) == []
    assert n > 0


@SETTINGS
@given(setup=st.integers(0, 10_000), dice=st.integers(0, 2**40), agent=st.integers(1, 2**40))
def test_attack_factors_never_grow_except_by_combining(setup, dice, agent):
    """10.0, 12.5: a counter's attack factor grows only when another counter joins it;
    a side's total attack never grows."""
    last = {}

    def check(states, mask, a):
        s = states[0]
        per_unit, totals = _attacks(s)
        if last:
            prev_unit, prev_totals, prev_action = last["u"], last["t"], last["a"]
            assert (totals <= prev_totals).all(), (prev_totals, totals)
            grew = np.flatnonzero((per_unit > prev_unit) & (prev_unit > 0))
            if grew.size:
                assert A_COMBINE <= prev_action < A_MANEUVER, (prev_action, grew)
        last.update(u=per_unit, t=totals, a=a)

    _random_game(setup, dice, agent, check)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.integers(0, 10_000), dice=st.integers(0, 2**40), agent=st.integers(1, 2**40))
def test_mask_matches_core(setup, dice, agent):
    """Every action in the mask is accepted by ``step``; every other one is refused with the
    state left byte-identical."""
    ev, ev_n = no_events()

    def check(states, mask, a):
        s = states[0]
        before = states.tobytes()
        for b in range(NUM_ACTIONS):
            if mask[b]:
                clone = states.copy()
                assert step(clone[0], b, ev, ev_n) == 0
            else:
                assert action_error(s, b) != 0
        refused = np.flatnonzero(~mask)
        b = int(refused[a % refused.size])
        assert step(s, b, ev, ev_n) != 0
        assert states.tobytes() == before

    _random_game(setup, dice, agent, check, max_actions=400)
