"""The rollout policies of the searches (flat Monte Carlo in ``search.py``,
ISMCTS in ``ismcts.py`` and the set-up search in ``setup_search.py``): the
compiled random player or the scripted player, playing both sides of a
determinized game.

:func:`rollout_action` chooses one action and :func:`play_out` plays a
rollout with it (the one play-out loop of every search), with caller-owned
buffers: a search
plays thousands of rollout moves a decision, and the scripted player's
scratch buffers (about 200 KB) are allocated once a decision
(:func:`new_rollout_buffers`), not once a move.  The rollout policies are
the compiled policies of ``policies`` (``policy_action_buf``), each side's
with its own generator.
"""

from hotspot.core._jit import jit
from hotspot.core.actions import NUM_ACTIONS, action_error, apply_action, current_player
from hotspot.core.errors import OK
from hotspot.core.rules_data import PHASE_OVER

from .base import POLICY_NAMES, POLICY_RANDOM, POLICY_SCRIPTED
from .policies import new_policy_buffers, policy_action_buf

#: the rollout policies by name (their ids are the compiled policy ids)
ROLLOUT_NAMES = (POLICY_NAMES[POLICY_RANDOM], POLICY_NAMES[POLICY_SCRIPTED])


def rollout_policy_id(name: str) -> int:
    """The compiled id of rollout policy ``name`` ("random" or "scripted")."""
    if name not in ROLLOUT_NAMES:
        raise ValueError(f"unknown rollout policy {name!r}; known: {list(ROLLOUT_NAMES)}")
    return int(POLICY_NAMES.index(name))


@jit(inline=True)
def new_rollout_buffers():
    """``(obs, work)``: an information-state record and the scripted player's
    scratch buffers, for :func:`rollout_action` (either rollout policy)."""
    return new_policy_buffers(POLICY_SCRIPTED)


@jit(inline=True)
def rollout_action(s, mask, prng, rollout, obs, work):
    """The action of rollout policy ``rollout`` (``POLICY_SCRIPTED`` or
    ``POLICY_RANDOM``) for the player to move in ``s``, with that player's
    generator ``prng[side]`` (fills ``mask``).  The scripted player sees only
    that player's information state (D20), built in ``obs``."""
    return policy_action_buf(rollout, s, mask, prng, current_player(s), obs, work)


@jit(inline=True)
def play_out(s, start_turn, horizon, policy, mask, prng, max_actions, ev, ev_n, obs, work):
    """Play rollout policy ``policy`` for both sides of ``s`` until the game
    ends, the turn passes ``start_turn + horizon`` (horizon < 0: no limit) or
    ``max_actions`` actions are played; an action the policy names that is not
    legal (never expected: the policies choose from the mask) ends it too.
    ``ev``/``ev_n``: the event buffer for ``apply_action`` (``ev`` may have no
    rows: events are not kept); ``obs``/``work``: :func:`new_rollout_buffers`.
    Returns the number of actions played."""
    n = 0
    while s["phase"] != PHASE_OVER and n < max_actions:
        if horizon >= 0 and s["turn"] > start_turn + horizon:
            break
        a = rollout_action(s, mask, prng, policy, obs, work)
        if a < 0 or a >= NUM_ACTIONS or action_error(s, a) != OK:
            break
        apply_action(s, a, ev, ev_n)
        n += 1
    return n
