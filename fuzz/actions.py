"""Target ``actions``: ``Game.why_illegal`` / ``apply_action`` with actions of every type."""

from __future__ import annotations

from .contract import check, refused, same, short
from .games import game_pool
from .harness import target
from .inputs import action_specs, is_integer_action, resolve_action, st


def _setup_actions(workdir):
    return {"games": game_pool()}


def actions_strategy(ctx):
    s = st()
    return s.tuples(s.integers(0, len(ctx["games"]) - 1), action_specs(), s.booleans())


@target(
    "actions",
    "Game.why_illegal / apply_action with ints of any size, numpy ints of every dtype, floats, "
    "bools, strings, None, arrays: IllegalActionError or TypeError and no change, or accepted exactly when "
    "the mask allows it",
    _setup_actions,
    actions_strategy,
)
def check_actions(ctx, x):
    import numpy as np

    from hotspot import IllegalActionError
    from hotspot.core.integrity import FAULTS, state_fault

    index, spec, events = x
    game = ctx["games"][index].clone()
    mask = game.legal_action_mask()
    a = resolve_action(spec, np.flatnonzero(mask))
    before = (game.to_bytes(), game.record.to_dict())
    in_mask = is_integer_action(a) and 0 <= int(a) < mask.size and bool(mask[int(a)])
    try:
        why = game.why_illegal(a)
    except Exception as exc:  # noqa: BLE001
        refused(exc, TypeError)
        check(not is_integer_action(a), f"why_illegal refused the integer {short(a)}")
        why = "TypeError"
    check((why is None) == in_mask, f"why_illegal({short(a)}) = {short(why)} but the mask says {in_mask}")
    same(before, (game.to_bytes(), game.record.to_dict()), "why_illegal")
    try:
        result = game.apply_action(a, events=events)
    except Exception as exc:  # noqa: BLE001
        label = refused(exc, IllegalActionError, TypeError)
        check(not in_mask, f"apply_action refused {short(a)}, which the mask allows")
        check(
            isinstance(exc, IllegalActionError) == is_integer_action(a),
            f"{type(exc).__name__} for {short(a)}: IllegalActionError is for integers, TypeError for the rest",
        )
        same(before, (game.to_bytes(), game.record.to_dict()), "action")
        return label
    check(in_mask, f"apply_action accepted {short(a)}, which the mask does not allow")
    check(game.record.actions == before[1]["actions"] + [int(a)], "the record does not end with the action")
    check(isinstance(result, list) if events else result is None, "apply_action's return value")
    code, j = state_fault(game.s)
    check(code == 0, f"after the action: {FAULTS[int(code)]} (index {int(j)})")
    return "accepted"
