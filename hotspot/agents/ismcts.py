"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling,
Powley and Whitehouse 2012), compiled, honest about hidden information (D20).

The searching side acts from its *information state* only (``observe(s,
side, fog=True)``: enemy piece damage -1 (14.2, 14.3), enemy counters below
the top of a stack of type -1 (9.5), squads of unseen enemy counters -1, the
dice cleared).  One decision is one compiled call, :func:`ismcts_search`:

1. **Determinization.**  Each iteration samples a playable state consistent
   with the information state (``hotspot.agents.beliefs.determinize``: hidden
   damage, hidden unit types drawn without replacement from the enemy's
   forces minus those in sight, hidden squads, a fresh dice seed; the events
   the side has seen are in the information state itself: revealed stacks,
   control, damage it was told of, 15.2-15.3).  Nothing is read from the true
   state.
2. **Selection in one tree of information sets.**  A node is the sequence of
   atomic actions from the root (both sides' actions: what the searching side
   sees of the enemy's moves is the actions themselves; chance, the dice, is
   inside ``apply_action`` and differs from determinization to
   determinization, as SO-ISMCTS merges it).  At a node only the children
   legal in the current determinization compete; each counts its
   *availability* (how often it could have been chosen) and is scored by
   UCB1 over that count: ``mean + c * sqrt(ln(avail) / visits)``, the mean
   from the point of view of the side that takes the action.
3. **Expansion with progressive widening.**  The action grammar is atomic
   (select a counter, step it a hex, end its move...), so a decision has up
   to dozens of legal actions and a turn some 30 decisions.  A node may have
   at most ``ceil(pw_c * visits ** pw_alpha)`` children; the first child
   expanded is the rollout policy's own choice (the scripted player: it
   models the opponent and is the search's default), the others in random
   order; in selection the policy's choice gets a bonus ``prior / (1 +
   visits)`` (a PUCT-like prior that fades with evidence).  So a small budget
   refines the scripted play instead of spreading thin over every legal
   action, and leaves it only for an action that does better.  With
   ``P_POLICY`` set and a two-headed network (``hotspot.agents.policy_net``:
   value head, then policy head; ``expert-ismcts``) the root's default is
   the policy head's choice on the side's information state instead (the
   first child, the prior bonus and the margin's reference; deeper nodes
   keep the rollout policy's).
4. **Rollout and evaluation.**  From the new node the rollout policy (the
   scripted player, or the random one) plays both sides until the end of the
   current turn plus ``horizon`` turns (``horizon < 0``: the end of the
   game), then the position is valued: +1/-1 for a finished game, else the
   heuristic of ``hotspot.agents.beliefs.evaluate`` (engineer squads left,
   crustals controlled, counters on the Central Crustal, material, the
   engineers' distance to the Central Crustal; 5.0, 15.5) or, for
   ``learned-ismcts``, a value network over the same information.
5. **Choice.**  The root child with the most visits (ties: the better mean,
   then the rollout policy's choice); it replaces the rollout policy's choice
   only if its mean value is higher by more than ``margin``.

Decisions with one legal action are not searched.  The set-up phases (3.2,
3.3, D21) are not searched by the tree: a search over some 300 hexes a
placement, with a heuristic that has no signal before play, would spend the
budget on noise.  Instead, at the first decision of its set-up, the agent
compares whole deployments of the scripted plan
(``hotspot.agents.scripted.setup``) by play-outs from its information state
(``hotspot.agents.setup_search``: ``deploy_candidates`` seeds of the plan,
successive halving from ``deploy_games`` play-outs each, play-outs of
``deploy_turns`` turns), then plays the winner's placements.

The arena, the environments and the terminal drive the agent from Python
(``act``, one compiled search a decision), so that its compiled code is
built only when it plays; ``ismcts_action`` is the default agent as one
compiled call on a state (expert iteration's games, ``expert.record_games``,
search with it in compiled code).  Its budget, parameters and measured time per decision and per game are in
``DEFAULT_PARAMS`` and BENCHMARKS.md.
"""

from __future__ import annotations

import numpy as np

from hotspot.core._jit import jit
from hotspot.core.actions import NUM_ACTIONS, apply_action, current_player, legal_action_mask
from hotspot.core.dice import splitmix64
from hotspot.core.events import EV_WIDTH
from hotspot.core.observation import keep_alive, observe
from hotspot.core.rules_data import PHASE_OVER, TECHNOCRAT
from hotspot.core.setup import is_setup_phase
from hotspot.core.state import STATE_DTYPE
from hotspot.features.decision import NUM_DECISION_FEATURES, decision_features

from .action_policy import flat_policy_choice, seat_policies
from .base import POLICY_RANDOM, POLICY_SCRIPTED, Agent, agent_generator, checked_act_arguments
from .beliefs import DMG_P0, EVAL_WEIGHTS, PRIOR_FORCES, SQUAD_PROBS, determinize, draw, draw_below, evaluate
from .clock import now_seconds
from .params import ParamTable
from .policy_net import check_policy, policy_choice, two_headed
from .rollouts import new_rollout_buffers, play_out, rollout_action
from .setup_search import DEPLOY_PARAMS, searched_setup_decide
from .specs import Param
from .value_net import NUM_VALUE_FEATURES, load_net, value_net, value_size, weights_file

# ------------------------------------------------------------------ parameters

#: the ``ismcts`` agent's parameters, declared once (``hotspot.agents.params``):
#: the vector of :func:`ismcts_search` (its slots in this order), the spec
#: parameters, the constructor's checks and the docs all come from here
PARAMS = ParamTable(
    "ismcts",
    {
        "iterations": Param("int", 16, 1, 1_000_000, doc="determinizations (tree iterations) a searched decision"),
        "horizon": Param("int", 0, -1, 1000, doc="turns played after the current one before valuing (-1: to the end)"),
        "c": Param("float", 0.7, 0.0, 100.0, doc="the UCB1 exploration constant"),
        "pw_c": Param(
            "float", 1.0, 0.01, 100.0, doc="progressive widening: at most ceil(pw_c * visits ** pw_alpha) children"
        ),
        "pw_alpha": Param("float", 0.5, 0.0, 1.0, doc="progressive widening's exponent"),
        "max_rollout_actions": Param("int", 5000, 0, None, doc="at most this many actions in a rollout", spec=False),
        "rollout": Param(
            "choice",
            "scripted",
            doc="the rollout policy (rollouts.ROLLOUT_NAMES)",
            choices=("scripted", "random"),
            codes=(POLICY_SCRIPTED, POLICY_RANDOM),
        ),
        "dmg_p0": Param(
            "float", DMG_P0, 0.0, 1.0, doc="determinization: the probability that hidden damage is 0", spec=False
        ),
        "prior": Param(
            "float", 1.0, 0.0, 100.0, doc="the selection bonus of the rollout policy's own choice: prior / (1 + visits)"
        ),
        "margin": Param(
            "float",
            0.1,
            0.0,
            100.0,
            doc="another action replaces the policy's choice only if its mean value is higher by more",
        ),
        "policy": Param(
            "bool",
            False,
            doc="the root's default (first child, prior bonus, margin) is the policy head's choice: set by passing "
            "policy= (a value-only net keeps the rollout policy's)",
            spec=False,
        ),
        **DEPLOY_PARAMS,
        "think_ms": Param(
            "int",
            0,
            0,
            600_000,
            doc="time budget a searched decision in milliseconds (0: none; iterations still cap it)",
        ),
        "reply": Param(
            "bool", False, doc="the Technocrat's play-outs go one turn further, through the Ziegler's reply"
        ),
        "reuse": Param("bool", False, doc="keep the tree for the same side's next atomic step", vector=False),
        "guide": Param("bool", False, doc="the learned per-action policy names the root's default", vector=False),
    },
)

#: indices into the float64 parameter vector of :func:`ismcts_search` (``PARAMS``)
P_ITERATIONS = PARAMS.index("iterations")
P_HORIZON = PARAMS.index("horizon")
P_C = PARAMS.index("c")
P_PW_C = PARAMS.index("pw_c")
P_PW_ALPHA = PARAMS.index("pw_alpha")
P_MAX_ROLLOUT = PARAMS.index("max_rollout_actions")
P_ROLLOUT = PARAMS.index("rollout")  # a compiled policy id: POLICY_RANDOM or POLICY_SCRIPTED
P_DMG_P0 = PARAMS.index("dmg_p0")
P_PRIOR = PARAMS.index("prior")
P_MARGIN = PARAMS.index("margin")
P_POLICY = PARAMS.index("policy")
P_DEPLOY_CANDIDATES = PARAMS.index("deploy_candidates")
P_DEPLOY_GAMES = PARAMS.index("deploy_games")
P_DEPLOY_TURNS = PARAMS.index("deploy_turns")
P_THINK_MS = PARAMS.index("think_ms")
P_REPLY = PARAMS.index("reply")
NUM_PARAMS = PARAMS.size

#: the ``ismcts`` agent's (and ``ismcts_action``'s) parameters
DEFAULT_PARAMS = PARAMS.defaults()

#: the iteration cap of a search given ``think_ms`` and no ``iterations``
THINK_ITERATIONS = 100_000

# tree node fields (int64 columns of the ``tree`` array)
N_PARENT = 0
N_FIRST = 1  # first child (-1: none)
N_NEXT = 2  # next sibling (-1: none)
N_ACTION = 3  # the action that leads here from the parent
N_MOVER = 4  # the side that takes it (0 Ziegler, 1 Technocrat)
N_VISITS = 5
N_AVAIL = 6  # times the node was available (legal) when its parent was selected from
N_CHILDREN = 7  # children expanded
N_POLICY = 8  # 1: the rollout policy's own choice where it was expanded
NODE_FIELDS = 9

# value heads (``net`` argument): none (the heuristic evaluate) or a value network
NO_NET = np.zeros((0,), dtype=np.float64)


def new_tree(iterations: int, reuse: int = 1):
    """Tree buffers for a search of ``iterations`` iterations (one node each,
    plus the root), ``reuse`` searches deep (a subtree kept for the next
    decision, :func:`ismcts_search`'s ``root``)."""
    n = int(iterations) * max(1, int(reuse)) + 1
    return np.zeros((n, NODE_FIELDS), dtype=np.int64), np.zeros(n, dtype=np.float64)


# ------------------------------------------------------------------ compiled search


@jit
def _new_node(tree, value, n_nodes, parent, action, mover, is_policy):
    i = n_nodes
    tree[i, N_PARENT] = parent
    tree[i, N_FIRST] = -1
    tree[i, N_NEXT] = -1
    tree[i, N_ACTION] = action
    tree[i, N_MOVER] = mover
    tree[i, N_VISITS] = 0
    tree[i, N_AVAIL] = 0
    tree[i, N_CHILDREN] = 0
    tree[i, N_POLICY] = is_policy
    value[i] = 0.0
    if parent >= 0:
        tree[i, N_NEXT] = tree[parent, N_FIRST]
        tree[parent, N_FIRST] = i
        tree[parent, N_CHILDREN] += 1
    return i


@jit
def _widening_allows(tree, node, pw_c, pw_alpha):
    """Progressive widening: may ``node`` get another child?"""
    limit = np.ceil(pw_c * (max(tree[node, N_VISITS], 1) ** pw_alpha))
    return tree[node, N_CHILDREN] < max(1.0, limit)


@jit(inline=True)
def value_of(s, net, feat):
    """The value of ``s`` for the Technocrat in [-1, 1]: the result if the game
    is over, else the heuristic (``net`` empty) or the value network."""
    if net.shape[0] == 0 or s["phase"] == PHASE_OVER:
        return evaluate(s, TECHNOCRAT, EVAL_WEIGHTS)
    return value_net(s, net, feat)


@jit
def ismcts_search(o, given_mask, side, params, seed, net, tree, value, child_of, root=0, used=0, pnet=None):  # noqa: C901 (the four ISMCTS steps inlined in one compiled loop)
    """One searched decision of ``side`` on its information state ``o``.

    ``tree``/``value``: buffers of at least ``iterations + 1`` rows
    (:func:`new_tree`); ``child_of``: int64 scratch of NUM_ACTIONS, all -1.
    ``root``/``used``: a search that goes on below node ``root`` of a tree
    whose first ``used`` rows hold an earlier search (the same side's
    previous decision, whose chosen action led here: the same information
    set); the budget is topped up, the root's visits count towards
    ``iterations``.  ``root=0, used=0``: a new tree.  ``pnet``: a per-action
    policy (``action_policy.PolicyNet.flat``) whose choice on ``o`` is the
    root's default (first child, prior bonus, the margin's reference).
    Returns ``(action, default_action, n_nodes, child)``: the chosen action,
    the rollout policy's choice on the first determinization, the nodes used
    and the chosen action's node (-1: none; the root's children, their
    visits and values are in the tree for :func:`root_statistics`)."""
    iterations = int(params[P_ITERATIONS])
    think_ms = params[P_THINK_MS]
    horizon = int(params[P_HORIZON])
    if params[P_REPLY] > 0.0 and side == TECHNOCRAT and horizon >= 0:
        horizon += 1  # the turn ends with the Technocrat's phases: the Ziegler's reply is in the next
    c = params[P_C]
    pw_c = params[P_PW_C]
    pw_alpha = params[P_PW_ALPHA]
    max_rollout = int(params[P_MAX_ROLLOUT])
    rollout = int(params[P_ROLLOUT])
    dmg_p0 = params[P_DMG_P0]
    prior = params[P_PRIOR]
    margin = params[P_MARGIN]
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    prng = np.zeros(2, dtype=np.uint64)
    d = np.empty(1, dtype=STATE_DTYPE)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    feat = np.zeros(NUM_VALUE_FEATURES, dtype=np.float64)
    obs, work = new_rollout_buffers()
    n_legal = 0
    first_legal = -1
    for a in range(NUM_ACTIONS):
        if given_mask[a]:
            n_legal += 1
            if first_legal < 0:
                first_legal = a
    if n_legal == 0:
        return -1, -1, 0, -1
    # the default: the rollout policy's choice on a first determinization
    determinize(o, side, d[0], rng, PRIOR_FORCES, SQUAD_PROBS, dmg_p0)
    prng[0] = draw(rng)
    prng[1] = draw(rng)
    default = rollout_action(d[0], mask, prng, rollout, obs, work)
    off = value_size(net)
    if params[P_POLICY] > 0.0 and net.shape[0] > off:
        # expert iteration: the policy head of the two-headed ``net``, on the
        # side's information state ``o`` itself (D20), names the default
        pfeat = np.zeros(NUM_DECISION_FEATURES, dtype=np.float64)
        decision_features(o, pfeat)
        hid = np.zeros(int(net[off + 1]), dtype=np.float64)
        pick = policy_choice(pfeat, given_mask, net, off, hid)
        if pick >= 0:
            default = pick
    if pnet is not None:
        if pnet.shape[0] > 0:  # the per-action policy on the side's information state (D20)
            pick = flat_policy_choice(o, given_mask, pnet)
            if pick >= 0:
                default = pick
    if default < 0 or default >= NUM_ACTIONS or not given_mask[default]:
        default = first_legal
    if n_legal == 1:
        return default, default, 0, -1
    if used <= 0 or root < 0 or root >= used:
        root = 0
        n_nodes = _new_node(tree, value, 0, -1, -1, -1, 0) + 1
    else:
        n_nodes = used
    start_turn = int(o["turn"])
    path = np.empty(tree.shape[0] + 2, dtype=np.int64)
    t_end = now_seconds() + think_ms / 1000.0 if think_ms > 0.0 else 0.0
    for it in range(max(0, iterations - int(tree[root, N_VISITS]))):
        if think_ms > 0.0 and it > 0 and now_seconds() >= t_end:
            break
        if it > 0:
            determinize(o, side, d[0], rng, PRIOR_FORCES, SQUAD_PROBS, dmg_p0)
        s = d[0]
        prng[0] = draw(rng)
        prng[1] = draw(rng)
        node = root
        depth = 0
        path[0] = root
        expanded = False
        while s["phase"] != PHASE_OVER and not expanded:
            if horizon >= 0 and s["turn"] > start_turn + horizon:
                break
            mover = current_player(s)
            legal_action_mask(s, mask)
            if node == root:  # the root's actions are the decision's (D20: what the side sees)
                for a in range(NUM_ACTIONS):
                    mask[a] = mask[a] and given_mask[a]
            # index the children by action
            ch = tree[node, N_FIRST]
            n_legal_children = 0
            while ch >= 0:
                a = tree[ch, N_ACTION]
                child_of[a] = ch
                if mask[a]:
                    n_legal_children += 1
                ch = tree[ch, N_NEXT]
            n_here = 0
            for a in range(NUM_ACTIONS):
                if mask[a]:
                    n_here += 1
            if n_here == 0:
                break
            pick = -1
            if n_legal_children < n_here and _widening_allows(tree, node, pw_c, pw_alpha) and n_nodes < tree.shape[0]:
                # expand: the rollout policy's choice if untried, else a random untried action
                if node == root and tree[root, N_CHILDREN] == 0:
                    a = default
                else:
                    a = rollout_action(s, mask, prng, rollout, obs, work)  # refills mask (same legal set)
                    if node == root:
                        for b in range(NUM_ACTIONS):
                            mask[b] = mask[b] and given_mask[b]
                is_policy = 1
                if a < 0 or not mask[a] or child_of[a] >= 0:
                    is_policy = 0
                    k = draw_below(rng, n_here - n_legal_children)
                    a = -1
                    for b in range(NUM_ACTIONS):
                        if mask[b] and child_of[b] < 0:
                            if k == 0:
                                a = b
                                break
                            k -= 1
                pick = _new_node(tree, value, n_nodes, node, a, mover, is_policy)
                n_nodes += 1
                expanded = True
            else:
                # select among the children legal here (UCB1 over availability)
                best = -1e300
                ch = tree[node, N_FIRST]
                while ch >= 0:
                    a = tree[ch, N_ACTION]
                    if mask[a]:
                        tree[ch, N_AVAIL] += 1
                        nv = tree[ch, N_VISITS]
                        if nv == 0:
                            score = 1e200
                        else:
                            score = value[ch] / nv + c * np.sqrt(np.log(tree[ch, N_AVAIL]) / nv)
                            if tree[ch, N_POLICY]:
                                score += prior / (1.0 + nv)
                        if score > best:
                            best = score
                            pick = ch
                    ch = tree[ch, N_NEXT]
            # clear the index
            ch = tree[node, N_FIRST]
            while ch >= 0:
                child_of[tree[ch, N_ACTION]] = -1
                ch = tree[ch, N_NEXT]
            if pick < 0:
                break
            apply_action(s, tree[pick, N_ACTION], ev, ev_n)
            node = pick
            depth += 1
            path[depth] = node
        # rollout
        play_out(s, start_turn, horizon, rollout, mask, prng, max_rollout, ev, ev_n, obs, work)
        v = value_of(s, net, feat)  # the Technocrat's point of view
        tree[root, N_VISITS] += 1
        for j in range(1, depth + 1):
            nd = path[j]
            tree[nd, N_VISITS] += 1
            value[nd] += v if tree[nd, N_MOVER] == TECHNOCRAT else -v
    # choice: the root child with the most visits (ties: better mean, then the default)
    best = -1
    best_n = -1
    best_v = -1e300
    ch = tree[root, N_FIRST]
    while ch >= 0:
        a = tree[ch, N_ACTION]
        nv = tree[ch, N_VISITS]
        if given_mask[a] and nv > 0:
            mv = value[ch] / nv
            if nv > best_n or (nv == best_n and (mv > best_v or (mv == best_v and a == default))):
                best = a
                best_n = nv
                best_v = mv
        ch = tree[ch, N_NEXT]
    if best < 0:
        best = default
    elif best != default and margin > 0.0:
        ch = tree[root, N_FIRST]
        while ch >= 0:
            if tree[ch, N_ACTION] == default and tree[ch, N_VISITS] > 0:
                if best_v < value[ch] / tree[ch, N_VISITS] + margin:
                    best = default
                break
            ch = tree[ch, N_NEXT]
    chosen = -1
    ch = tree[root, N_FIRST]
    while ch >= 0:
        if tree[ch, N_ACTION] == best:
            chosen = ch
        ch = tree[ch, N_NEXT]
    return best, default, n_nodes, chosen


def root_statistics(tree, value, root=0):
    """``(actions, visits, mean values)`` of the root's children of the last
    search (values from the searching side's point of view), by action."""
    acts, visits, means = [], [], []
    ch = int(tree[root, N_FIRST]) if tree[root, N_CHILDREN] > 0 else -1
    while ch >= 0:
        n = int(tree[ch, N_VISITS])
        acts.append(int(tree[ch, N_ACTION]))
        visits.append(n)
        means.append(float(value[ch] / n) if n else float("nan"))
        ch = int(tree[ch, N_NEXT])
    order = np.argsort(acts)
    return (
        np.asarray(acts, dtype=np.int64)[order],
        np.asarray(visits, dtype=np.int64)[order],
        np.asarray(means, dtype=np.float64)[order],
    )


@jit
def ismcts_decide(o, mask, side, rng, slot, params, net, tree, value, child_of, reuse=None, pnet=None):
    """The ISMCTS agent's action on information state ``o`` (legal ``mask``);
    ``rng[slot]`` is the agent's generator (one draw a decision).  The set-up
    phases play the scripted deployment plan (3.2, 3.3, D21), the deployment
    chosen at the set-up's first decision by the set-up search
    (``setup_search``) when ``params`` ask for one.

    ``reuse`` (int64 of 4, or None: a new tree each decision): ``[n_actions
    expected next, side, node, rows used]`` of the previous search; when
    ``o`` is the position right after that search's own action (the game's
    action count one more, the same side to move: the same information set,
    nothing of the opponent's in between) the search goes on below that
    action's node instead of starting again (``ismcts_search``'s ``root``),
    and ``reuse`` is updated after each search."""
    if is_setup_phase(o["phase"]):
        return searched_setup_decide(
            o,
            mask,
            side,
            rng,
            slot,
            int(params[P_DEPLOY_CANDIDATES]),
            int(params[P_DEPLOY_GAMES]),
            int(params[P_DEPLOY_TURNS]),
            int(params[P_ROLLOUT]),
            params[P_DMG_P0],
        )
    rng[slot], seed = splitmix64(rng[slot])
    if reuse is None:
        a, default, n, child = ismcts_search(o, mask, side, params, seed, net, tree, value, child_of, 0, 0, pnet)
        return a
    root = 0
    used = 0
    if (
        reuse[0] == o["n_actions"]
        and reuse[1] == side
        and reuse[2] > 0
        and reuse[3] + int(params[P_ITERATIONS]) <= tree.shape[0]
    ):
        root = int(reuse[2])
        used = int(reuse[3])
    a, default, n, child = ismcts_search(o, mask, side, params, seed, net, tree, value, child_of, root, used, pnet)
    if n > 0 and child > 0:
        reuse[0] = o["n_actions"] + 1
        reuse[1] = side
        reuse[2] = child
        reuse[3] = n
    else:
        reuse[2] = -1
        reuse[3] = 0
    return a


@jit
def ismcts_action(s, mask, rng, slot):
    """The ``ismcts`` agent at its default parameters (``DEFAULT_PARAMS``, no
    network) for the player to move in ``s``, as one compiled call (fills
    ``mask``), on that player's information state (D20): what ``act`` of an
    ``ISMCTSAgent()`` with the same generator plays."""
    legal_action_mask(s, mask)
    side = current_player(s)
    if side < 0:
        return -1
    o = np.empty(1, dtype=STATE_DTYPE)
    observe(s, side, True, o[0])
    n = int(DEFAULT_PARAMS[P_ITERATIONS]) + 1
    tree = np.zeros((n, NODE_FIELDS), dtype=np.int64)
    value = np.zeros(n, dtype=np.float64)
    child_of = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    a = ismcts_decide(o[0], mask, side, rng, slot, DEFAULT_PARAMS, NO_NET, tree, value, child_of, None)
    return keep_alive(o, a)


# ------------------------------------------------------------------ the agent


#: the parameters an ``ismcts`` spec may set (``ismcts(iterations=256,think_ms=500)``)
SPEC_PARAMS = PARAMS.spec_params()


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS (see the module docstring).

    The parameters are :data:`PARAMS`'s (listed below).  Besides them:

    * ``net``: a value network (``hotspot.agents.value_net``: a vector, or the
      path of an ``.npz``) instead of the heuristic evaluation.
    * ``policy``: a policy head (``hotspot.agents.policy_net``, a vector; needs
      ``net``): its choice on the information state replaces the rollout
      policy's at the root (the first child expanded, the prior bonus, the
      margin's reference); deeper nodes keep the rollout policy's.
    * ``guide``: the per-action policy (``hotspot.agents.action_policy``;
      True: the shipped ``learned`` policies, or what ``seat_policies``
      takes) names the root's default in the same way, ahead of ``policy``
      (the spec ``ismcts(guide=true)``).
    * ``seed``: the agent's own randomness (determinizations, expansion
      order, rollouts): equal seeds, equal play.

    ``think_ms`` stops the search at ``iterations`` or when the time is spent,
    whichever comes first (given ``think_ms`` and no ``iterations``, the cap is
    :data:`THINK_ITERATIONS`); a time budget makes play depend on the
    machine's speed: games with it are not reproducible from their seed.
    ``reply``: the Ziegler's play-outs always see the enemy's reply (its
    phases A-D come before the Technocrat's E-H in the same turn); with it the
    Technocrat's go one turn further (``horizon + 1``).  ``reuse``: the tree
    below the chosen action is kept for the same side's next decision when
    nothing happened in between but that action (the next atomic step of the
    same move), and topped up to ``iterations``.

    At the default parameters (and no network) ``act`` with the same seed
    plays what the compiled ``ismcts_action`` plays.

    Parameters (``PARAMS``):
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int | None = None,
        horizon: int | None = None,
        c: float | None = None,
        pw_c: float | None = None,
        pw_alpha: float | None = None,
        rollout: str = "scripted",
        net=None,
        seed: int | None = None,
        max_rollout_actions: int | None = None,
        prior: float | None = None,
        margin: float | None = None,
        policy=None,
        deploy_candidates: int | None = None,
        deploy_games: int | None = None,
        deploy_turns: int | None = None,
        think_ms: int | None = None,
        reuse: bool = False,
        reply: bool = False,
        guide=False,
    ):
        if think_ms is not None and iterations is None:
            iterations = THINK_ITERATIONS
        params = PARAMS.vector(
            iterations=iterations,
            horizon=horizon,
            c=c,
            pw_c=pw_c,
            pw_alpha=pw_alpha,
            max_rollout_actions=max_rollout_actions,
            rollout=rollout,
            prior=prior,
            margin=margin,
            deploy_candidates=deploy_candidates,
            deploy_games=deploy_games,
            deploy_turns=deploy_turns,
            think_ms=think_ms,
            reply=reply,
        )
        reuse = PARAMS.check("reuse", reuse)
        if net is None:
            self.net = NO_NET
        elif isinstance(net, np.ndarray):
            self.net = np.ascontiguousarray(net, dtype=np.float64)
        else:
            self.net = load_net(net)
        if policy is not None:
            if self.net.size == 0:
                raise ValueError("a policy head needs a value network (net=...): the search's net is two-headed")
            self.net = two_headed(self.net, check_policy(policy))
            params[P_POLICY] = 1.0
        self.guide = (
            None
            if guide is False or guide is None
            else tuple(net.flat() for net in seat_policies(None if guide is True else guide))
        )
        self.params = params
        self.rollout = rollout
        self.reuse = reuse
        self.policy_id = None  # driven from Python: see the module docstring
        self.tree, self.value = new_tree(int(params[P_ITERATIONS]), 4 if self.reuse else 1)
        self._child_of = np.full(NUM_ACTIONS, -1, dtype=np.int64)
        self._reuse = np.array([-1, -1, -1, 0], dtype=np.int64)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = agent_generator(seed)
        self._reuse[:] = (-1, -1, -1, 0)

    def act(self, info_state, mask, side) -> int:
        o, m = checked_act_arguments(info_state, mask, side)
        a = int(
            ismcts_decide(
                o[0],
                m,
                int(side),
                self._rng,
                0,
                self.params,
                self.net,
                self.tree,
                self.value,
                self._child_of,
                self._reuse if self.reuse else None,
                None if self.guide is None else self.guide[int(side)],
            )
        )
        if a < 0 or not m[a]:  # cannot happen: every candidate comes from the mask
            raise RuntimeError(f"the search chose the illegal action {a}")
        return a

    def root_statistics(self):
        """``(actions, visits, mean values)`` of the last searched decision's root."""
        return root_statistics(self.tree, self.value)

    def __repr__(self) -> str:
        net, guide = bool(self.net.size), self.guide is not None  # a network given or not
        return PARAMS.repr("ISMCTSAgent", self.params, reuse=self.reuse, net=net, guide=guide)


if ISMCTSAgent.__doc__:  # (None under python -OO)
    ISMCTSAgent.__doc__ = ISMCTSAgent.__doc__.rstrip() + "\n" + PARAMS.doc("        ") + "\n"


def learned_ismcts_agent(seed: int | None = None, **params) -> ISMCTSAgent:
    """``learned-ismcts``: the search with the shipped value network
    (``weights/value_ismcts.npz``, expert iteration) in place of the heuristic;
    ``params``: :class:`ISMCTSAgent`'s."""
    return ISMCTSAgent(net=weights_file("ismcts"), seed=seed, **params)
