"""Decision features for the policy head (``hotspot.agents.policy_net``): what
a network needs to prefer one atomic action over another at a decision of the
phases of play, computed in compiled code from the acting side's information
state (``observe(s, side, fog=True)``, D20; never the true state).

The atomic actions are positional (``hotspot.core.actions``: select piece k,
select unit u, step direction m...), so besides the position
(``hotspot.features.position``) the network is told the phase and what is
selected: a step action means "this unit, that way", and the way matters by
how much nearer the Central Crustal it leads (D2, 15.5).

====  ======================================================================
0-20  the position features (``position_features``: engineers, control,
      material, turn, the platforms' break-up 14.5, local odds)
21-28 the phase one-hot, phases of play A-H (4.0)
29    the side to move is the Technocrat (1) or the Ziegler (0)
30    a unit is selected (``sel_unit``)
31-36 its type one-hot (``rules_data`` unit types 1-6)
37    its squads / 3 (9.0)
38    its distance to the Central Crustal / 10
39-44 for each step direction m (``actions.A_MANEUVER + m`` in B/D/F, 8.1):
      the change of that distance one hex that way (-1, 0, +1; +2 off the
      board's cells)
45    a crustal or platform is selected (``sel_piece``, phases A/E)
====  ======================================================================
"""

from hotspot.core._jit import jit
from hotspot.core.hexgrid import DISTANCE_TO_CENTRAL, NEIGHBOUR
from hotspot.core.rules_data import NUM_UNIT_TYPES, PHASE_CONTROL, PHASE_PLAYER, TECHNOCRAT

from .position import NUM_POSITION_FEATURES, position_features

F_PHASE = NUM_POSITION_FEATURES  # 8 phase one-hots (A-H)
F_SIDE = F_PHASE + PHASE_CONTROL + 1
F_UNIT = F_SIDE + 1  # a unit is selected
F_UNIT_TYPE = F_UNIT + 1  # types 1..NUM_UNIT_TYPES-1
F_UNIT_SQUADS = F_UNIT_TYPE + NUM_UNIT_TYPES - 1
F_UNIT_DIST = F_UNIT_SQUADS + 1
F_UNIT_STEP = F_UNIT_DIST + 1  # 6 directions
F_PIECE = F_UNIT_STEP + 6
NUM_DECISION_FEATURES = F_PIECE + 1


@jit
def decision_features(o, out):
    """Fill ``out`` (NUM_DECISION_FEATURES float64) with the features of the
    decision in record ``o`` (an information state; a phase of play)."""
    position_features(o, out[:NUM_POSITION_FEATURES])
    for i in range(NUM_POSITION_FEATURES, NUM_DECISION_FEATURES):
        out[i] = 0.0
    p = int(o["phase"])
    if 0 <= p <= PHASE_CONTROL:
        out[F_PHASE + p] = 1.0
        out[F_SIDE] = 1.0 if PHASE_PLAYER[p] == TECHNOCRAT else 0.0
    u = int(o["sel_unit"])
    if u >= 0:
        t = int(o["unit_type"][u])
        c = int(o["unit_cell"][u])
        out[F_UNIT] = 1.0
        if 1 <= t < NUM_UNIT_TYPES:
            out[F_UNIT_TYPE + t - 1] = 1.0
        out[F_UNIT_SQUADS] = max(0, int(o["unit_squads"][u])) / 3.0
        if c >= 0:
            here = float(DISTANCE_TO_CENTRAL[c])
            out[F_UNIT_DIST] = here / 10.0
            for d in range(6):
                n = NEIGHBOUR[c, d]
                out[F_UNIT_STEP + d] = 2.0 if n < 0 else float(DISTANCE_TO_CENTRAL[n]) - here
    if int(o["sel_piece"]) >= 0:
        out[F_PIECE] = 1.0
