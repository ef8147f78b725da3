"""The restricted-play probe ``sees_through_fog`` (R9.5b, docs/rules.md): D20
turned off for one side only, to measure the price of hidden information.

* 9.5 / D20: with the default ("neither") a side sees only the top counter of
  an enemy stack it has no unit beside, and not the damage of the pieces the
  other side controls (14.2, 14.3);
* R9.5b: the side the option names sees every counter and every damage, the
  other side is still fogged, and the dice stay hidden from both (chance is
  never observable);
* the option round-trips through the rules record and through state bytes,
  and a version-3 state (the layout before the option) still loads.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import C

from hotspot.core.integrity import from_bytes
from hotspot.core.observation import observe
from hotspot.core.placement import blank_state, place_piece, place_unit
from hotspot.core.rules_data import (
    ONE_HEX,
    T_CRAWLER,
    T_ENGINEER,
    TECHNOCRAT,
    UNKNOWN_SQUADS,
    UNKNOWN_UNIT,
    Z_INFANTRY,
    ZIEGLER,
    RulesOptions,
)
from hotspot.core.state import _STATE_DTYPE_V3, STATE_DTYPE, STATE_VERSION, to_bytes


def _position(sight: str):
    states = blank_state(RulesOptions(sees_through_fog=sight))
    k_t = place_piece(states, ONE_HEX, [C(3, 4)], controller=TECHNOCRAT)
    k_z = place_piece(states, ONE_HEX, [C(10, 4)], controller=ZIEGLER)
    states["piece_damage"][0, k_t] = 1
    states["piece_damage"][0, k_z] = 2
    t_units = [place_unit(states, t, C(3, 4)) for t in (T_ENGINEER, T_CRAWLER, T_ENGINEER)]
    z_units = [place_unit(states, Z_INFANTRY, C(10, 4), squads=n) for n in (3, 2)]
    return states, (k_t, k_z), t_units, z_units


def _seen(states, side):
    obs = np.zeros(1, dtype=STATE_DTYPE)
    observe(states[0], side, True, obs[0])
    return obs[0]


def _sees_all(o, states, units, piece):
    s = states[0]
    return (
        all(o["unit_type"][u] == s["unit_type"][u] and o["unit_squads"][u] == s["unit_squads"][u] for u in units)
        and o["piece_damage"][piece] == s["piece_damage"][piece]
    )


@pytest.mark.parametrize("sight", ["neither", "technocrat", "ziegler", "both"])
def test_each_side_sees_through_the_fog_only_when_the_option_names_it(sight):
    states, (k_t, k_z), t_units, z_units = _position(sight)
    z_view, t_view = _seen(states, ZIEGLER), _seen(states, TECHNOCRAT)
    assert _sees_all(z_view, states, t_units, k_t) == (sight in ("ziegler", "both"))
    assert _sees_all(t_view, states, z_units, k_z) == (sight in ("technocrat", "both"))
    if sight in ("neither", "technocrat"):  # 9.5: only the top counter's type, no sizes
        assert z_view["unit_squads"][t_units[0]] == UNKNOWN_SQUADS
        assert z_view["unit_type"][t_units[1]] == UNKNOWN_UNIT
        assert z_view["piece_damage"][k_t] == -1  # 14.2, 14.3
    for view in (z_view, t_view):  # chance is never observable
        assert view["rng"] == 0 and view["dice_len"] == 0 and not view["dice_queue"].any()


def test_the_option_is_a_choice_with_a_one_line_error():
    assert RulesOptions.describe()["sees_through_fog"] == ["neither", "technocrat", "ziegler", "both"]
    with pytest.raises(ValueError, match="sees_through_fog.*one of"):
        RulesOptions(sees_through_fog="everyone")
    for value in ("neither", "technocrat", "ziegler", "both"):
        assert RulesOptions.from_record(RulesOptions(sees_through_fog=value).to_record()).sees_through_fog == value


def test_state_bytes_keep_the_option_and_version_3_bytes_still_load():
    states, *_ = _position("ziegler")
    back = from_bytes(to_bytes(states))
    assert back["rules"]["sees_through_fog"][0] == 2 and back["version"][0] == STATE_VERSION == 4
    old = np.zeros(1, dtype=_STATE_DTYPE_V3)
    plain, *_ = _position("neither")
    for name in _STATE_DTYPE_V3.names:
        if name == "rules":
            for r in _STATE_DTYPE_V3["rules"].names:
                old["rules"][r] = plain["rules"][r]
        else:
            old[name] = plain[name]
    old["version"] = 3
    converted = from_bytes(old.tobytes())
    assert converted["version"][0] == 4 and converted["rules"]["sees_through_fog"][0] == 0
    assert to_bytes(converted) == to_bytes(plain)
