"""Real games every target starts from (:func:`game_pool`) and :func:`exercise`:
everything that must work on an accepted game."""

from __future__ import annotations

import functools
import json

from .contract import ContractError, check, refused, same


@functools.lru_cache(maxsize=None)
def game_pool():
    """Real games (a ``Game`` each, not to be changed: clone them): every scenario
    kind and every D22 choice, after 0 to a few thousand random legal actions,
    some over (won or truncated), some in set-up, some with a loss pending."""
    import numpy as np

    from hotspot import Game
    from hotspot.core.actions import NUM_ACTIONS
    from hotspot.core.rollout import random_action

    configs = [
        ("standard", {}, None),
        ("open", {}, None),
        ("standard", {"losses": "owner"}, None),
        ("random:1", {"combat_table": "diagonal", "stress_timing": "moving_side"}, 3),
        ("random:2", {"forward_into_blocked": "refuse", "collision_count": "per_hex", "control_blocker": "hex"}, None),
        ("open", {"losses": "owner"}, 2),
    ]
    games = []
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    for i, (scenario, rules, max_turns) in enumerate(configs):
        rng = np.array([1000 + i], dtype=np.uint64)
        game = Game(scenario, seed=i, rules=rules, max_turns=max_turns)
        done = 0
        for k in (0, 1, 3, 10, 40, 150, 600, 20000):
            while done < k and not game.is_terminal():
                game.apply_action(int(random_action(game.s, mask, rng, 0)))
                done += 1
            games.append(game.clone())
            if game.is_terminal():
                break
    return games


def pool_state_bytes() -> list[bytes]:
    return [g.to_bytes() for g in game_pool()]


def exercise(game, picks, expect_bytes: bytes | None = None, replay: bool = True) -> None:
    """Everything works on an accepted game: every invariant holds, the mask
    agrees with why_illegal on every action, a game not over has a legal action,
    render / observation / encodings, bytes round trip, an illegal action is
    refused leaving the game unchanged, a few legal actions keep every
    invariant, and the record replays to the same state."""
    import numpy as np

    from hotspot import Game, IllegalActionError
    from hotspot.core.actions import NUM_ACTIONS
    from hotspot.core.integrity import FAULTS, state_fault
    from hotspot.core.record import GameRecord
    from hotspot.env.rendering import render_state
    from hotspot.features.encoding import encode, new_observation, scratch_state

    def invariants(where):
        code, j = state_fault(game.s)
        check(code == 0, f"{where}: invariant broken: {FAULTS[int(code)]} (index {int(j)})")

    picks = list(picks) or [0]
    invariants("accepted state")
    mask = game.legal_action_mask()
    legal = np.flatnonzero(mask)
    check(
        game.is_terminal() == (legal.size == 0),
        f"{'a game over has legal actions' if game.is_terminal() else 'a game not over has no legal action'}",
    )
    for a in range(NUM_ACTIONS):
        check((game.why_illegal(a) is None) == bool(mask[a]), f"mask and why_illegal disagree on action {a}")
    game.render()
    for a in legal[:4]:
        game.action_to_string(int(a))
    if picks[0] % 8 == 0:
        render_state(game.s, "rgb_array")
    obs, scratch = new_observation(), scratch_state()
    for side in (0, 1):
        for fog in (True, False):
            game.observation(side, fog)
            encode(game.s, side, fog, True, scratch[0], obs["board"], obs["units"], obs["pieces"], obs["globals"])
    data = game.to_bytes()
    if expect_bytes is not None:
        check(data == expect_bytes, "to_bytes does not give back the accepted bytes")
    check(Game.from_bytes(data).to_bytes() == data, "from_bytes(to_bytes()) changed the state")
    illegal = np.flatnonzero(~mask)
    if illegal.size:
        a = int(illegal[picks[0] % illegal.size])
        before = (game.to_bytes(), game.record.to_dict())
        try:
            game.apply_action(a)
        except IllegalActionError as exc:
            refused(exc, IllegalActionError)
        else:
            raise ContractError(f"illegal action {a} (not in the mask) was accepted")
        same(before, (game.to_bytes(), game.record.to_dict()), "illegal action")
    for p in picks[:8]:
        legal = game.legal_actions()
        if game.is_terminal() or not legal.size:
            break
        game.apply_action(int(legal[p % legal.size]), events=bool(p & 1))
        invariants(f"after legal action {int(legal[p % legal.size])}")
    if replay:
        record = GameRecord.from_dict(json.loads(json.dumps(game.record.to_dict())))
        check(Game.from_record(record).to_bytes() == game.to_bytes(), "the record does not replay to the same state")
