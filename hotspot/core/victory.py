"""Victory conditions (5.0, D19 revised).

The Technocrat wins on taking control of the Central Crustal (15.5; checked
when it happens, D18).  The Ziegler player wins as soon as no engineer squad
is left (the one case of "a Technocrat victory has become impossible" that
the engine proves; docs/rules.md R5.1 lists the cases not proved).  The
rulebook has no turn limit (5.0): "the game continues until one of the
players meets his victory condition".  A harness may stop a game after
``max_turns`` (stored in the state): :func:`truncate` ends it with no winner
(``result`` ONGOING, ``truncated`` 1), which is not a result of the rules.
Concession (5.0) is in the Python API (game.Game.concede), not an action.
"""

from ._jit import jit
from .events import EV_GAME_OVER, log_event
from .rules_data import ONGOING, PHASE_OVER, TECHNOCRAT, TECHNOCRAT_WIN, ZIEGLER, ZIEGLER_WIN
from .state import LAST_TURN
from .units import engineer_squads_left


@jit
def end_game(s, result, truncated, ev, ev_n):
    s["result"] = result
    s["truncated"] = truncated
    s["phase"] = PHASE_OVER
    s["sel_piece"] = -1
    s["sel_unit"] = -1
    log_event(ev, ev_n, EV_GAME_OVER, result, truncated, 0, 0, 0)


@jit(inline=True)
def check_engineers(s, ev, ev_n):
    """D19: no engineer squad left -> Ziegler wins.  Returns True if the game ended.

    Not during the set-up phases (D21), when the engineers are not placed yet."""
    if s["phase"] < PHASE_OVER and engineer_squads_left(s) == 0:
        end_game(s, ZIEGLER_WIN, 0, ev, ev_n)
        return True
    return False


@jit
def truncate_if_over_time(s, ev, ev_n):
    """D19 revised: after the Crustal Control phase of turn ``max_turns`` (> 0)
    a harness's game stops without a winner.  Returns True if it stopped.

    A game with no limit stops the same way after turn ``LAST_TURN`` (32,767),
    the last the state's int16 turn counter holds (no game of the compiled
    players has come near: benchmarks/bench_game_lengths.py)."""
    if (s["max_turns"] > 0 and s["turn"] >= s["max_turns"]) or s["turn"] >= LAST_TURN:
        end_game(s, ONGOING, 1, ev, ev_n)
        return True
    return False


@jit
def winner(s):
    """The side that won (0 Ziegler, 1 Technocrat), or -1: the game goes on,
    or a harness stopped it without a winner (D19 revised)."""
    r = s["result"]
    if r == TECHNOCRAT_WIN:
        return TECHNOCRAT
    if r == ZIEGLER_WIN:
        return ZIEGLER
    return -1


@jit
def side_return(s, side):
    """The return of ``side``: +1.0 if it won, -1.0 if it lost, 0.0 otherwise
    (the game goes on, or was truncated without a winner)."""
    w = winner(s)
    if w < 0:
        return 0.0
    return 1.0 if w == side else -1.0
