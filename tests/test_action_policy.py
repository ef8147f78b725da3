"""The per-action policy: action features from the acting side's
information state (D20), one shared network scoring every legal action, its
checked weight files, labelled decisions from recorded games and DAgger.

The networks here are small random ones, so that nothing depends on the
shipped weights (one test plays the shipped policy)."""

import numpy as np
import pytest

from hotspot.agents.action_policy import (
    POLICY_FILES,
    ActionPolicyAgent,
    PolicyNet,
    score_actions,
    seat_policies,
)
from hotspot.agents.base import POLICY_SCRIPTED
from hotspot.agents.imitation import new_dataset, play_dagger, replay_decisions
from hotspot.agents.policies import play_games
from hotspot.core.actions import (
    A_MANEUVER,
    NUM_ACTIONS,
    apply_action,
    current_player,
    legal_actions,
)
from hotspot.core.events import EV_WIDTH
from hotspot.core.game import Game
from hotspot.core.hexgrid import DISTANCE_TO_CENTRAL, NEIGHBOUR
from hotspot.core.observation import observe
from hotspot.core.rules_data import PHASE_CONTROL, PHASE_T_MOVE, PHASE_Z_MOVE
from hotspot.core.state import STATE_DTYPE
from hotspot.features import actions as fa
from hotspot.features.actions import (
    NUM_ACTION_FEATURES,
    action_features,
    new_action_work,
)
from hotspot.features.decision import NUM_DECISION_FEATURES

NET = PolicyNet.init(16, 8, seed=3)
EV = np.zeros((0, EV_WIDTH), dtype=np.int32)
EV_N = np.zeros(1, dtype=np.int32)


def _play_scripted_until(game, phase, seed=1):
    """Advance ``game`` with the scripted player until a decision of ``phase`` with a unit selected."""
    from hotspot.agents.scripted import ScriptedAgent

    agent = ScriptedAgent(seed=seed)
    while not game.is_terminal():
        st = game.state[0]
        if st["phase"] == phase and st["sel_unit"] >= 0:
            return True
        side = game.current_player()
        game.apply_action(agent.act(game.observation(side), game.legal_action_mask(), side))
    return False


def _features(st, side, acts):
    obs = np.empty(1, dtype=STATE_DTYPE)
    observe(st, side, True, obs[0])
    out = np.zeros((len(acts), NUM_ACTION_FEATURES))
    action_features(obs[0], np.asarray(acts, np.int64), len(acts), new_action_work(), out)
    return out


def test_a_step_feature_is_the_change_of_the_distance_to_the_central_crustal():
    """8.1, D2: a step action's row says how much nearer the Central Crustal
    the selected unit's hex in that direction is; its kind is "move"."""
    game = Game("standard", seed=4)
    assert _play_scripted_until(game, PHASE_T_MOVE)
    st = game.state[0]
    u = int(st["sel_unit"])
    c = int(st["unit_cell"][u])
    acts = np.empty(NUM_ACTIONS, np.int64)
    n = legal_actions(st, acts)
    steps = [int(a) for a in acts[:n] if A_MANEUVER <= a < A_MANEUVER + 6]
    assert steps, "the selected unit has a step"
    rows = _features(st, 1, steps)
    for a, row in zip(steps, rows):
        t = NEIGHBOUR[c, a - A_MANEUVER]
        assert row[fa.K_MOVE] == 1.0 and row[:7].sum() == 1.0
        assert row[fa.F_STEP_DIST] == DISTANCE_TO_CENTRAL[t] - DISTANCE_TO_CENTRAL[c]
        assert row[fa.F_TYPE + st["unit_type"][u] - 1] == 1.0  # the subject is the selected unit


def test_every_play_action_has_exactly_one_kind_and_the_bias():
    """Each legal action of a phase of play (4.0 A-H) is one of the seven kinds."""
    game = Game("standard", seed=2)
    from hotspot.agents.scripted import ScriptedAgent

    agent = ScriptedAgent(seed=2)
    acts = np.empty(NUM_ACTIONS, np.int64)
    seen = 0
    for _ in range(400):
        st = game.state[0]
        if game.is_terminal():
            break
        n = legal_actions(st, acts)
        if st["phase"] <= PHASE_CONTROL:
            rows = _features(st, game.current_player(), acts[:n])
            assert np.all(rows[:, :7].sum(axis=1) == 1.0) and np.all(rows[:, fa.F_BIAS] == 1.0)
            assert np.all(np.isfinite(rows))
            seen += n
        side = game.current_player()
        game.apply_action(agent.act(game.observation(side), game.legal_action_mask(), side))
    assert seen > 100


def test_features_do_not_see_through_the_fog():
    """D20, 9.5: the features depend on the information state only: changing
    the type and size of an enemy counter hidden in a stack (not the top
    counter, no unit of the observer in its hex) changes none of them."""
    game = Game("standard", seed=4)
    assert _play_scripted_until(game, PHASE_Z_MOVE)
    st = game.state[0].copy()
    acts = np.empty(NUM_ACTIONS, np.int64)
    n = legal_actions(st, acts)
    obs = np.empty(1, dtype=STATE_DTYPE)
    observe(st, 0, True, obs[0])
    hidden = [u for u in range(len(st["unit_type"])) if st["unit_type"][u] > 0 and obs[0]["unit_type"][u] == -1]
    assert hidden, "the Technocrat has a counter the Ziegler cannot see"
    before = _features(st, 0, acts[:n])
    changed = st.copy()
    u = hidden[0]
    changed["unit_squads"][u] = 3 if changed["unit_squads"][u] != 3 else 1
    assert np.array_equal(before, _features(changed, 0, acts[:n]))


def test_compiled_scores_equal_numpy_scores():
    """One network, two evaluations: the compiled scorer that plays and the
    numpy one the training checks against."""
    rng = np.random.default_rng(0)
    xs = rng.normal(size=NUM_DECISION_FEATURES)
    xa = rng.normal(size=(9, NUM_ACTION_FEATURES))
    out = np.zeros(9)
    score_actions(xs, xa, 9, *NET.arrays, out)
    assert np.allclose(out, NET.scores(xs, xa))


@pytest.mark.parametrize(
    "break_it, words",
    [
        (lambda d: d.pop("W1"), "no W1"),
        (lambda d: d.update(W0=np.zeros((16, 7))), "W0 must be"),
        (lambda d: d.update(state_features=np.int64(45)), "features"),
        (lambda d: d.update(b2=np.array([np.nan])), "not finite"),
        (lambda d: d.update(b1=np.zeros(3)), "shapes"),
    ],
)
def test_a_bad_weights_file_is_refused_in_one_line(tmp_path, break_it, words):
    """Weights from another version or a damaged file: a ValueError naming the file and the fault."""
    path = tmp_path / "p.npz"
    NET.save(path)
    with np.load(path) as f:
        d = {k: f[k] for k in f.files}
    break_it(d)
    np.savez(path, **d)
    with pytest.raises(ValueError, match=words) as exc:
        PolicyNet.load(path)
    assert "\n" not in str(exc.value)
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="junk.npz"):
        PolicyNet.load(tmp_path / "junk.npz")


def test_saved_weights_load_to_the_same_network(tmp_path):
    NET.save(tmp_path / "p.npz")
    back = PolicyNet.load(tmp_path / "p.npz")
    assert all(np.array_equal(a, b) for a, b in zip(NET.arrays, back.arrays))


def test_the_agent_plays_whole_games_legally_and_deterministically():
    """The shipped policy as either side on open (set-up by the scripted
    plan, D21): every action legal, the same seed the same game."""
    assert all(path.exists() for path in POLICY_FILES)
    from hotspot.agents.scripted import ScriptedAgent

    def game(seed, side):
        g = Game("open", seed=seed, max_turns=6)
        players = {side: ActionPolicyAgent(seed=seed), 1 - side: ScriptedAgent(seed=seed)}
        while not g.is_terminal():
            s = g.current_player()
            a = players[s].act(g.observation(s), g.legal_action_mask(), s)
            assert g.legal_action_mask()[a]
            g.apply_action(a)
        return list(g.record.actions)

    for side in (0, 1):
        assert game(5, side) == game(5, side)


def test_replayed_labels_are_the_recorded_actions():
    """Labelled decisions of a recorded game: the target row is the action the
    player took, among exactly the legal actions of that decision."""
    from hotspot.agents.scripted import ScriptedAgent

    g2 = Game("standard", seed=3, max_turns=3)
    ag = ScriptedAgent(seed=9)
    recorded = []
    while not g2.is_terminal():
        s = g2.current_player()
        a = ag.act(g2.observation(s), g2.legal_action_mask(), s)
        recorded.append(a)
        g2.apply_action(a)
    D = new_dataset(5000, 100000)
    s0 = Game("standard", seed=3, max_turns=3).state
    nd, _, ok = replay_decisions(
        s0[0],
        np.array(recorded, np.int64),
        np.array([False, True]),
        D["XS"],
        D["XA"],
        D["START"],
        D["TARGET"],
        D["ACT"],
        0,
        0,
    )
    assert ok and nd > 0 and s0[0]["phase"] == g2.state[0]["phase"]
    # each label against a step-by-step replay
    s = Game("standard", seed=3, max_turns=3).state
    acts = np.empty(NUM_ACTIONS, np.int64)
    d = 0
    for a in recorded:
        n = legal_actions(s[0], acts)
        if current_player(s[0]) == 1 and s[0]["phase"] <= PHASE_CONTROL and n >= 2:
            lo, hi = D["START"][d], D["START"][d + 1]
            assert hi - lo == n and sorted(D["ACT"][lo:hi]) == sorted(acts[:n])
            assert D["ACT"][lo + D["TARGET"][d]] == a
            d += 1
        apply_action(s[0], a, EV, EV_N)
    assert d == nd


def test_dagger_with_beta_one_is_the_scripted_game():
    """beta = 1: every decision is the teacher's, so the game is the compiled
    scripted game on the same generators, and each label is the action played."""
    seeds = [21, 22]
    a = np.concatenate([Game("standard", seed=s, max_turns=4).state for s in seeds])
    b = a.copy()
    rng_a = np.array([[1, 2], [3, 4]], dtype=np.uint64)
    rng_b = rng_a.copy()
    D = new_dataset(20000, 400000)
    nd, _, done = play_dagger(
        a,
        1,
        1.0,
        *NET.arrays,
        rng_a,
        np.array([5], np.uint64),
        D["XS"],
        D["XA"],
        D["START"],
        D["TARGET"],
        D["ACT"],
        0,
        0,
    )
    counts = np.zeros(2, np.int64)
    play_games(b, POLICY_SCRIPTED, POLICY_SCRIPTED, rng_b, 100000, counts)
    assert done == 2 and nd > 0 and np.all(D["TARGET"][:nd] >= 0)
    assert a.tobytes() == b.tobytes()


def test_policy_scores_rank_the_legal_actions_of_a_position():
    """The agent's choice is the legal action with the highest score."""
    game = Game("standard", seed=4)
    assert _play_scripted_until(game, PHASE_T_MOVE)
    agent = ActionPolicyAgent(seed=0, weights=NET)
    acts, z = agent.action_scores(game.observation(1), game.legal_action_mask(), 1)
    assert np.array_equal(acts, np.flatnonzero(game.legal_action_mask()))
    assert agent.act(game.observation(1), game.legal_action_mask(), 1) == acts[np.argmax(z)]
    with pytest.raises(ValueError, match="temperature"):
        ActionPolicyAgent(temperature=-1.0, weights=NET)
    other = PolicyNet.init(16, 8, seed=4)
    zieg, tech = seat_policies((other, NET))  # a network a seat
    assert tech is NET and zieg is other
    with pytest.raises(ValueError, match="pair"):
        seat_policies((NET, NET, NET))


def test_the_guided_search_keeps_the_policys_choice_at_its_root():
    """ismcts(guide=...): the per-action policy names the root's default; with
    a margin no value difference can pass (2.0), the search plays it."""
    from hotspot.agents.ismcts import ISMCTSAgent

    game = Game("standard", seed=4)
    assert _play_scripted_until(game, PHASE_T_MOVE)
    policy = ActionPolicyAgent(seed=0, weights=NET)
    search = ISMCTSAgent(iterations=2, margin=2.0, guide=NET, seed=0)
    plain = ISMCTSAgent(iterations=2, margin=2.0, seed=0)
    o, m = game.observation(1), game.legal_action_mask()
    assert search.act(o, m, 1) == policy.act(o, m, 1)
    assert "guide=True" in repr(search) and "guide=False" in repr(plain)
