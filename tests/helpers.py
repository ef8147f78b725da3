"""Position-building helpers for the rulebook tests (tests/test_rules_*.py).

A ``Pos`` wraps one hand-built game state (``blank_state``) with an event
buffer, so that a test reads like the rulebook example it checks:

    g = Pos()
    k = g.piece(ONE_HEX, [(3, 4)])
    g.begin(PHASE_Z_CRUSTAL, turn=2)
    g.act(A_SELECT_PIECE + k)
    g.act(A_MANEUVER + M_STEP + S)

Hexes are given as ``(col, row)`` map coordinates (D1: odd-q, odd columns
shifted half a hex down).  Every refused action is checked to leave the
state byte-identical (``Pos.refuse``).

By default a *reserve engineer* stands on a neutralized Technocrat one-hex
crustal in the map corner (0, 0): it keeps D19 ("no engineer left: Ziegler
wins") from ending the game, and it asks for no decision in phases A, E or H
(a neutralized crustal never moves, never reverts and is never neutralized
again).  Its only decision is its own movement in phase F.
"""

from __future__ import annotations

import numpy as np

from hotspot.core.actions import (
    A_COMBINE,
    A_END_PHASE,
    A_END_PIECE,
    A_MANEUVER,  # noqa: F401
    A_SELECT_PIECE,
    A_SELECT_UNIT,
    A_SPLIT,
    action_error,
    start,
    step,
)
from hotspot.core.dice import script_dice
from hotspot.core.events import EV_ELIMINATED, EV_ROLL, event_buffer
from hotspot.core.hexgrid import NEIGHBOUR, cell_of, col_row  # noqa: F401
from hotspot.core.placement import blank_state, place_piece, place_unit, position_errors
from hotspot.core.rules_data import (
    CENTRAL,
    CHART_CRUSTAL_DAMAGE,
    NO_PIECE,
    NO_UNIT,
    ONE_HEX,
    T_CRAWLER,
    T_ENGINEER,
    T_HEAVY_BEAMER,
    T_INFANTRY,
    TECHNOCRAT,
    UNIT_IS_INFANTRY,
    UNIT_SIDE,
    Z_HOVERCRAFT,
    Z_INFANTRY,
    ZIEGLER,
    RulesOptions,
)
from hotspot.core.state import MAX_PIECES, MAX_UNITS

# directions (hexgrid): 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW
N, NE, SE, S, SW, NW = range(6)

RESERVE_HEX = (0, 0)


def C(col, row=None):
    """Cell of a map hex; accepts ``C(col, row)`` or ``C((col, row))``."""
    if row is None:
        col, row = col
    return cell_of(col, row)


def nb(hex_, d):
    """(col, row) of the neighbour of ``hex_`` in direction ``d``, computed
    independently of the engine's tables from the odd-q layout of D1."""
    col, row = hex_
    odd = col & 1
    if d == N:
        return col, row - 1
    if d == S:
        return col, row + 1
    if d == NE:
        return col + 1, row - 1 + odd
    if d == SE:
        return col + 1, row + odd
    if d == SW:
        return col - 1, row + odd
    if d == NW:
        return col - 1, row - 1 + odd
    raise ValueError(d)


def cr(cell):
    return col_row(int(cell))


class Pos:
    """One hand-built position with its event log."""

    def __init__(self, rules: RulesOptions | None = None, reserve: bool = True, **options):
        if options:
            rules = RulesOptions(**options)
        self.states = blank_state(rules)
        self.s = self.states[0]
        self.ev, self.ev_n = event_buffer(8192)
        self.reserve_piece = None
        self.reserve_unit = None
        if reserve:
            self.reserve_piece = self.piece(
                ONE_HEX, [RESERVE_HEX], controller=TECHNOCRAT, neutralized=True, control_turn=0
            )
            self.reserve_unit = self.unit(T_ENGINEER, RESERVE_HEX)

    # ------------------------------------------------------------ building
    def piece(self, kind, hexes, **kw) -> int:
        return place_piece(self.states, kind, [C(h) for h in hexes], **kw)

    def unit(self, unit_type, hex_, squads=1) -> int:
        return place_unit(self.states, unit_type, C(hex_), squads)

    def units(self, unit_type, hex_, n, squads=1) -> list[int]:
        return [self.unit(unit_type, hex_, squads) for _ in range(n)]

    def dice(self, *rolls):
        script_dice(self.s, list(rolls))

    def begin(self, phase, turn=1):
        """Start play of the position at ``turn`` and ``phase`` (4.0)."""
        assert position_errors(self.states) == [], position_errors(self.states)
        self.s["turn"] = turn
        self.s["phase"] = phase
        self.clear_events()
        start(self.s, self.ev, self.ev_n)

    # ------------------------------------------------------------- playing
    def act(self, *actions):
        for a in actions:
            err = int(step(self.s, a, self.ev, self.ev_n))
            assert err == 0, f"action {a} refused with error {err}"

    def refuse(self, action, code):
        """The action is refused with ``code`` and the state is byte-identical afterwards."""
        before = self.states.tobytes()
        n_before = int(self.ev_n[0])
        assert int(action_error(self.s, action)) == code
        err = int(step(self.s, action, self.ev, self.ev_n))
        assert err == code, f"expected error {code}, got {err}"
        assert self.states.tobytes() == before
        assert int(self.ev_n[0]) == n_before

    def legal(self, action) -> bool:
        return int(action_error(self.s, action)) == 0

    def move_unit(self, u, *dirs, end=False):
        """Select unit u and step it in the given directions."""
        self.act(A_SELECT_UNIT + u)
        for d in dirs:
            self.act(A_MANEUVER + d)
        if end and self.s["sel_unit"] == u:
            self.act(A_END_PIECE)

    # -------------------------------------------------------------- events
    def clear_events(self):
        self.ev[:] = 0
        self.ev_n[0] = 0

    def events(self, kind=None):
        n = min(int(self.ev_n[0]), self.ev.shape[0])
        rows = [tuple(int(x) for x in self.ev[i]) for i in range(n)]
        return [r for r in rows if kind is None or r[0] == kind]

    def rolls(self, chart=None, subject=None):
        """Die rolls logged (EV_ROLL rows), optionally for one chart and subject."""
        return [
            r for r in self.events(EV_ROLL) if (chart is None or r[1] == chart) and (subject is None or r[2] == subject)
        ]

    def damage_rolls(self, piece):
        """Rolls on the Crustal Damage Chart made for ``piece`` (collisions, 14.3)."""
        return len(self.rolls(CHART_CRUSTAL_DAMAGE, piece))

    def eliminated(self, reason=None):
        """Units eliminated (EV_ELIMINATED rows: unit index), optionally for one reason."""
        return [r[1] for r in self.events(EV_ELIMINATED) if reason is None or r[2] == reason]

    # --------------------------------------------------------------- state
    def cells(self, k):
        return [cr(c) for c in self.s["piece_cells"][k] if c >= 0]

    def where(self, u):
        c = int(self.s["unit_cell"][u])
        return None if c < 0 else cr(c)

    def alive(self, u) -> bool:
        return int(self.s["unit_type"][u]) != NO_UNIT

    def piece_alive(self, k) -> bool:
        return int(self.s["piece_kind"][k]) != NO_PIECE

    def squads(self, u) -> int:
        return int(self.s["unit_squads"][u])

    @property
    def phase(self) -> int:
        return int(self.s["phase"])

    @property
    def turn(self) -> int:
        return int(self.s["turn"])


def strip(g, col=3, first_row=1, n_longs=3, controller=None):
    """A straight N-S strip of ground: ``n_longs`` long crustals end to end in
    column ``col`` from ``first_row`` down (3 * n_longs hexes).  Returns the
    piece indices.  Pieces set up touching cause no collision (D12)."""
    from hotspot.core.rules_data import LONG, ZIEGLER

    pieces = []
    for i in range(n_longs):
        r = first_row + 3 * i
        pieces.append(
            g.piece(
                LONG, [(col, r), (col, r + 1), (col, r + 2)], controller=ZIEGLER if controller is None else controller
            )
        )
    return pieces


def policy_snapshots(n_games: int, every: int, pairings, scenario: str = "standard"):
    """Mid-game true states (each a (1,) array, both sides to move) from games
    between compiled policies: game ``g`` is played by ``pairings[g % len]``
    (Ziegler policy, Technocrat policy) on ``scenario`` (even g) or
    ``random:g`` (odd g); every ``every``-th state is kept."""
    import numpy as np

    import hotspot.core as hc
    from hotspot.agents.policies import policy_action
    from hotspot.core.actions import NUM_ACTIONS, apply_action, current_player
    from hotspot.core.rules_data import PHASE_OVER, TECHNOCRAT

    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev, ev_n = hc.no_events()
    out = []
    for g in range(n_games):
        states = hc.init(scenario if g % 2 == 0 else f"random:{g}", seeds=g)
        s = states[0]
        pz, pt = pairings[g % len(pairings)]
        rng = np.array([g + 100, g + 200], dtype=np.uint64)
        i = 0
        while s["phase"] != PHASE_OVER:
            side = current_player(s)
            if i % every == g % every:
                out.append(states.copy())
            apply_action(s, policy_action(pt if side == TECHNOCRAT else pz, s, mask, rng, side), ev, ev_n)
            i += 1
    return out


_ENEMY_TYPES = {ZIEGLER: (T_INFANTRY, T_CRAWLER, T_HEAVY_BEAMER, T_ENGINEER), TECHNOCRAT: (Z_INFANTRY, Z_HOVERCRAFT)}


def perturb_hidden(s, side: int, g: np.random.Generator):
    """A copy of ``s`` differing only in what ``side`` may not see (D20)."""
    t = s.copy()
    t["rng"][0] = np.uint64(g.integers(0, 2**63))
    kind, ctrl = t["piece_kind"][0], t["piece_controller"][0]
    for k in range(MAX_PIECES):
        if kind[k] != NO_PIECE and kind[k] != CENTRAL and ctrl[k] != side:
            t["piece_damage"][0, k] = g.integers(0, 2)
    types, cells = t["unit_type"][0], t["unit_cell"][0]
    own_cells = {int(cells[u]) for u in range(MAX_UNITS) if types[u] != NO_UNIT and UNIT_SIDE[types[u]] == side}
    stacks = {}
    for u in range(MAX_UNITS):
        if types[u] != NO_UNIT and UNIT_SIDE[types[u]] != side:
            t["unit_moves"][0, u] = g.integers(0, 7)
            stacks.setdefault(int(cells[u]), []).append(u)
    for cell, units in stacks.items():
        if cell in own_cells:
            continue
        for j, u in enumerate(units):  # units[0] is the top counter (R9.5)
            if j > 0:
                t["unit_type"][0, u] = g.choice(_ENEMY_TYPES[side])
            t["unit_squads"][0, u] = g.integers(1, 4) if UNIT_IS_INFANTRY[t["unit_type"][0, u]] else 1
    return t


def hidden_twins(snapshots, seed: int = 7):
    """For each snapshot (a (1,) true state), a twin that differs only in what
    the side to move may not see (D20, :func:`perturb_hidden`); yields
    ``(side, info_a, info_b, mask, changed)`` where both information states
    are checked byte-identical.  Positions whose legal actions differ between
    the twins (the mask itself may tell, 13.3) are skipped: they prove nothing."""
    from hotspot.core.game import Game
    from hotspot.core.rules_data import PHASE_PLAYER

    g = np.random.default_rng(seed)
    for s in snapshots:
        side = int(PHASE_PLAYER[s["phase"][0]])
        t = perturb_hidden(s, side, g)
        ga, gb = Game(_state=s.copy(), _record=None), Game(_state=t.copy(), _record=None)
        oa, ob = ga.observation(side), gb.observation(side)
        assert oa.tobytes() == ob.tobytes()  # the perturbation is hidden indeed
        ma, mb = ga.legal_action_mask(), gb.legal_action_mask()
        if not (ma == mb).all():
            continue
        yield side, oa, ob, ma, s.tobytes() != t.tobytes()
