"""Victory conditions (5.0, D19).

The Technocrat wins on taking control of the Central Crustal (15.5; checked
when it happens, D18).  The Ziegler player wins as soon as no engineer squad
is left, and at the end of turn ``turn_limit`` (15), reported as truncated.
Concession (5.0) is in the Python API (game.Game.concede), not an action.
"""
from ._jit import jit
from .events import EV_GAME_OVER, log_event
from .rules_data import PHASE_OVER, ZIEGLER_WIN
from .units import engineer_squads_left


@jit
def end_game(s, result, truncated, ev, ev_n):
    s["result"] = result
    s["truncated"] = truncated
    s["phase"] = PHASE_OVER
    s["sel_piece"] = -1
    s["sel_unit"] = -1
    log_event(ev, ev_n, EV_GAME_OVER, result, truncated, 0, 0, 0)


@jit
def check_engineers(s, ev, ev_n):
    """D19: no engineer squad left -> Ziegler wins.  Returns True if the game ended."""
    if s["phase"] != PHASE_OVER and engineer_squads_left(s) == 0:
        end_game(s, ZIEGLER_WIN, 0, ev, ev_n)
        return True
    return False
