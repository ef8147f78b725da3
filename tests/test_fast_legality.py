"""The legal-action list (``actions.legal_actions``) is exactly the set of
actions that ``action_error`` (the one legality check, R4.2 and every rule
behind it) accepts, after every action of random and scripted games: the
set-up (3.2, 3.3, D21), every phase of play (4.0 A-H) and the owner's loss
choice (D22), on ``standard``, ``open`` and random set-ups (D12), under every
value of every choice rules option (D22) and the boolean options; and the
random player's pick from the list is the pick ``random_choice`` makes from
the mask (the same games on the same seeds).

The longer run, 10^6 random and 10^4 scripted games, is
``benchmarks/bench_legality.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from hotspot.agents.selfcheck import checked_games
from hotspot.core import init
from hotspot.core.actions import NUM_ACTIONS, apply_action, legal_action_mask, legal_actions
from hotspot.core.crustal_movement import KIND_MANEUVERS, NUM_MANEUVERS, maneuver_geometry
from hotspot.core.events import EV_WIDTH
from hotspot.core.hexgrid import NEIGHBOUR, NUM_CELLS, ON_MAP
from hotspot.core.rollout import random_choice, random_legal_action
from hotspot.core.rules_data import (
    CHOICE_OPTIONS,
    LONG,
    NUM_PIECE_KINDS,
    ONE_HEX,
    PHASE_OVER,
    PLATFORM,
    TRIANGULAR,
    TWO_HEX,
)


def _checked_games(states, rng, scripted, max_actions):
    """(actions checked, games with a disagreement, first disagreeing action or -1)."""
    checked = np.zeros(len(states), dtype=np.int64)
    bad = np.zeros(len(states), dtype=np.int64)
    checked_games(states, rng, scripted, max_actions, checked, bad)
    wrong = bad[bad >= 0]
    return int(checked.sum()), int(wrong.size), int(wrong[0]) if wrong.size else -1


def _options():
    """One rules variant per value of each choice option (D22) and per
    boolean option flipped: the rules the legal set depends on."""
    variants = [{}]
    for name, values in CHOICE_OPTIONS.items():
        variants += [{name: v} for v in values[1:]]
    variants += [
        {"forbid_molten_entry": True},
        {"cia_enabled": False},
        {"two_hex_turn_after_collision": False},
        {"counter_cap": 16},
    ]
    return variants


@pytest.mark.parametrize("rules", _options(), ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "defaults")
@pytest.mark.parametrize("scenario", ["standard", "open", "random:3"])
def test_legal_list_is_what_action_error_accepts_random_play(scenario, rules):
    """R4.2 and every rule behind action_error: the list after every action of 32 random games
    (1,248 games over the scenarios and rules variants)."""
    states = init(scenario, seeds=range(32), rules=rules, max_turns=40)
    rng = np.arange(1, 2 * len(states) + 1, dtype=np.uint64)
    checked, bad_games, first_bad = _checked_games(states, rng, False, 20_000)
    assert bad_games == 0, f"legal_actions and action_error disagree on action {first_bad}"
    assert checked > 32 * 50  # the games were played, not cut at once


@pytest.mark.parametrize(
    "rules",
    [{}, {"losses": "owner"}, {"forward_into_blocked": "refuse"}, {"stress_timing": "moving_side", "counter_cap": 16}],
    ids=["defaults", "losses=owner", "refuse", "moving_side,cap"],
)
@pytest.mark.parametrize("scenario", ["standard", "open"])
def test_legal_list_is_what_action_error_accepts_scripted_play(scenario, rules):
    """The same check after every action of 16 scripted games (their set-up plans, 3.2, 3.3, D21)."""
    states = init(scenario, seeds=range(16), rules=rules, max_turns=30)
    rng = np.arange(1, 2 * len(states) + 1, dtype=np.uint64)
    checked, bad_games, first_bad = _checked_games(states, rng, True, 20_000)
    assert bad_games == 0, f"legal_actions and action_error disagree on action {first_bad}"
    assert checked > 16 * 100


def test_mask_is_made_from_the_list_and_the_random_pick_is_the_same():
    """legal_action_mask sets exactly the listed actions, and random_legal_action
    draws the same action as random_choice over the mask from the same generator."""
    states = init("open", seeds=range(3), max_turns=20)
    acts = np.empty(NUM_ACTIONS, dtype=np.int16)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    steps = 0
    for i in range(len(states)):
        s = states[i]
        rng_a = np.array([17 + i], dtype=np.uint64)
        rng_b = rng_a.copy()
        while s["phase"] != PHASE_OVER and steps < 3000:
            legal_action_mask(s, mask)
            n = legal_actions(s, acts)
            assert np.array_equal(np.flatnonzero(mask), np.sort(acts[:n]))
            a = random_legal_action(s, acts, rng_a, 0)
            assert a == random_choice(mask, rng_b, 0)
            apply_action(s, a, ev, ev_n)
            steps += 1
    assert steps > 300


def test_kind_maneuvers_are_the_maneuvers_the_geometry_gives():
    """6.3-6.7, D8: KIND_MANEUVERS (which maneuvers can_move_piece and the list
    try) holds exactly the maneuvers maneuver_geometry gives a move for, each
    kind on every map hex and facing."""
    seen = np.zeros((NUM_PIECE_KINDS, NUM_MANEUVERS), dtype=bool)
    for c0 in range(NUM_CELLS):
        if not ON_MAP[c0]:
            continue
        for d in range(6):
            c1 = NEIGHBOUR[c0, d]
            c2 = NEIGHBOUR[c0, (d + 1) % 6]
            back = NEIGHBOUR[c0, (d + 3) % 6]
            shapes = {
                ONE_HEX: (c0, -1, -1),
                PLATFORM: (c0, -1, -1),
                TRIANGULAR: (c0, c1, c2),
                TWO_HEX: (c0, back, -1),
                LONG: (c0, back, NEIGHBOUR[back, (d + 3) % 6] if back >= 0 else -1),
            }
            for kind, (a, b, c) in shapes.items():
                if min(a, b if kind != ONE_HEX and kind != PLATFORM else 0) < 0:
                    continue
                for m in range(NUM_MANEUVERS):
                    if maneuver_geometry(kind, a, b, c, True, m)[0] > 0:
                        seen[kind, m] = True
    assert np.array_equal(seen, KIND_MANEUVERS)
