"""The Python facade (``hotspot.Game``) and bad input (brief: clear errors, nothing lost)."""

import numpy as np
import pytest

from hotspot import Game, IllegalActionError, RulesOptions
from hotspot.cli import main as cli_main
from hotspot.core import NUM_ACTIONS, STATE_BYTES, from_bytes
from hotspot.core.actions import A_END_PHASE
from hotspot.core.record import GameRecord, RecordError
from hotspot.core.rollout import random_action
from hotspot.core.rules_data import PHASE_OVER, TECHNOCRAT, ZIEGLER


def _play_some(game, n, seed=1):
    rng = np.array([seed], dtype=np.uint64)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    for _ in range(n):
        if game.is_terminal():
            break
        game.apply_action(int(random_action(game.s, mask, rng, 0)))


def test_illegal_action_is_refused_with_reason_and_game_unchanged():
    """An illegal action raises IllegalActionError naming why; the game is byte-identical after."""
    game = Game("standard", seed=0)
    before = game.to_bytes()
    illegal = int(np.flatnonzero(~game.legal_action_mask())[0])
    with pytest.raises(IllegalActionError, match="illegal action"):
        game.apply_action(illegal)
    assert game.to_bytes() == before
    assert game.record.actions == []
    with pytest.raises(IllegalActionError, match="out of range"):
        game.apply_action(NUM_ACTIONS + 5)
    with pytest.raises(TypeError):
        game.apply_action("end phase")
    assert game.to_bytes() == before
    assert game.why_illegal(illegal) is not None
    assert game.why_illegal(int(game.legal_actions()[0])) is None


def test_wrong_options_and_scenarios_are_refused():
    """A wrong rules option or an unknown scenario is refused with a message naming it."""
    with pytest.raises(ValueError, match="turn_limit.*max_turns"):  # D19 revised: not a rules option
        Game("standard", rules={"turn_limit": 0})
    with pytest.raises(ValueError, match="no_such_option"):
        Game("standard", rules={"no_such_option": 1})
    with pytest.raises(ValueError):
        Game("no-such-scenario")
    with pytest.raises(TypeError):
        RulesOptions(turn_limit=3)
    assert Game("standard", rules=RulesOptions(platform_turns=3)).s["rules"]["platform_turns"] == 3
    for bad in (0, -1, 10001, 2.5, True, "10"):
        with pytest.raises(ValueError, match="max_turns"):
            Game("standard", max_turns=bad)


def test_max_turns_truncation_has_no_winner_and_replays():
    """D19 revised: a game stopped by max_turns is over with no winner:
    result "ongoing", is_truncated(), winner() -1, returns 0/0; its record
    keeps max_turns and replays to the same stop."""
    game = Game("standard", seed=3, max_turns=1)
    _play_some(game, 10_000)
    assert game.is_terminal() and game.is_truncated() and game.turn == 1
    assert game.winner() == -1 and list(game.returns()) == [0.0, 0.0]
    assert game.result() == "ongoing" and "no winner" in game.render()
    data = game.record.to_dict()
    assert data["max_turns"] == 1
    replayed = Game.from_record(GameRecord.from_dict(data))
    assert replayed.is_truncated() and replayed.to_bytes() == game.to_bytes()


def test_clone_is_independent_and_bytes_round_trip():
    """clone() copies the state; to_bytes()/from_bytes() restore it exactly."""
    game = Game("standard", seed=2)
    _play_some(game, 40)
    copy = game.clone()
    data = game.to_bytes()
    assert len(data) == STATE_BYTES
    _play_some(copy, 40, seed=9)
    assert game.to_bytes() == data
    assert copy.to_bytes() != data
    restored = Game.from_bytes(data)
    assert restored.to_bytes() == data
    assert list(restored.legal_actions()) == list(game.legal_actions())


def test_corrupt_bytes_and_records_are_refused(tmp_path):
    """Corrupt state bytes or records are refused with a clear error."""
    game = Game("standard", seed=2)
    with pytest.raises(ValueError, match="multiple of the state size"):
        from_bytes(game.to_bytes()[:-3])
    bad = bytearray(game.to_bytes())
    bad[0] = 99
    with pytest.raises(ValueError, match="layout version"):
        from_bytes(bytes(bad))
    path = tmp_path / "r.json"
    path.write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        GameRecord.load(path)
    record = game.record.to_dict()
    record["actions"] = [A_END_PHASE, "x"]
    with pytest.raises(RecordError, match=r"actions\[1\]"):
        GameRecord.from_dict(record)
    record["actions"] = [NUM_ACTIONS + 1]
    with pytest.raises(RecordError, match=r"actions\[0\]"):
        Game.from_record(GameRecord.from_dict(record))


def test_returns_and_concession():
    """5.0: a player may concede; the other side wins, returns are +1/-1."""
    game = Game("standard", seed=0)
    assert list(game.returns()) == [0.0, 0.0]
    game.concede("ziegler")
    assert game.is_terminal() and game.winner() == TECHNOCRAT
    assert list(game.returns()) == [-1.0, 1.0]
    with pytest.raises(ValueError, match="already over"):
        game.concede("technocrat")
    with pytest.raises(ValueError, match="unknown side"):
        Game("standard").concede("martians")


@pytest.mark.parametrize("moves", [0, 1, 2, 40])
def test_a_concession_during_the_set_up_leaves_a_valid_state(moves):
    """5.0 during the set-up (D21; found by the fuzzer's saved_game target): the
    forces not yet placed are dropped with the game's end, so that every
    invariant holds and the state's bytes load back (they were refused)."""
    from hotspot.core.integrity import FAULTS, state_fault

    game = Game("open", seed=3)
    for _ in range(moves):  # set-up choices, hexes and facings (an item may be pending)
        game.apply_action(int(game.legal_actions()[0]))
    assert game.phase > PHASE_OVER
    game.concede("ziegler")
    assert game.is_terminal() and game.winner() == TECHNOCRAT
    code, _ = state_fault(game.s)
    assert code == 0, FAULTS[int(code)]
    assert Game.from_bytes(game.to_bytes()).to_bytes() == game.to_bytes()


def test_observation_fog_hides_enemy_damage_and_stacks():
    """D20: each side sees its own pieces' damage, not the other's; of an enemy stack
    without a friendly unit in the hex only the count and the top counter's type."""
    game = Game("standard", seed=0)
    s = game.s
    # give a Ziegler crustal and a platform some damage
    crustal = next(k for k in range(1, 32) if s["piece_kind"][k] in (2, 3, 4, 5))
    platform = next(k for k in range(1, 32) if s["piece_kind"][k] == 6)
    s["piece_damage"][crustal] = 1
    s["piece_damage"][platform] = 1
    z = game.observation("ziegler")[0]
    t = game.observation(TECHNOCRAT)[0]
    full = game.observation(ZIEGLER, fog=False)[0]
    assert z["piece_damage"][crustal] == 1 and z["piece_damage"][platform] == -1
    assert t["piece_damage"][crustal] == -1 and t["piece_damage"][platform] == 1
    assert full.tobytes() == s.tobytes()
    assert z["rng"] == 0 and t["rng"] == 0
    # Technocrat stacks on platforms: count kept, top type kept, the rest unknown
    for cell in set(int(c) for c, ty in zip(s["unit_cell"], s["unit_type"]) if ty >= 3):
        units = [u for u in range(96) if s["unit_type"][u] >= 3 and s["unit_cell"][u] == cell]
        seen = [u for u in range(96) if z["unit_cell"][u] == cell and z["unit_type"][u] != 0]
        assert seen == units
        assert z["unit_type"][units[0]] == s["unit_type"][units[0]]
        assert all(z["unit_type"][u] == -1 and z["unit_squads"][u] == -1 for u in units[1:])
        assert all(t["unit_type"][u] == s["unit_type"][u] for u in units)


def test_render_and_action_strings():
    """The text board shows the Central Crustal, crustals, platforms and stacks."""
    game = Game("standard", seed=0)
    text = game.render()
    assert "@@" in text and "Pieces:" in text and "Stacks:" in text and "platform" in text
    assert "Turn 1, phase A" in text
    assert all(isinstance(game.action_to_string(a), str) for a in range(NUM_ACTIONS))
    assert game.action_to_string(A_END_PHASE) == "end phase"


def test_events_report_what_happened():
    """apply_action(events=True) reports the action, moves and rolls; nothing is recorded otherwise."""
    game = Game("standard", seed=0)
    events = game.apply_action(int(game.legal_actions()[0]), events=True)
    assert events[0]["event"] == "action"
    assert game.apply_action(int(game.legal_actions()[0])) is None


def test_cli_play(capsys, tmp_path):
    """`hotspot play` plays a whole game and prints the result and the final board."""
    record = tmp_path / "g.json"
    assert cli_main(["play", "--seed", "3", "--scenario", "standard", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Result:" in out and "Pieces:" in out
    replayed = Game.from_record(GameRecord.load(record))
    assert replayed.is_terminal()
    # --max-turns (D19 revised): a stop without a winner, said as such
    assert cli_main(["play", "--seed", "3", "--max-turns", "1", "--quiet", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "no winner" in out and "max-turns" in out
    assert GameRecord.load(record).max_turns == 1 and Game.from_record(GameRecord.load(record)).is_truncated()
    with pytest.raises(SystemExit):
        cli_main(["play", "--max-turns", "0.5"])
    assert "--max-turns" in capsys.readouterr().err
    assert cli_main(["play", "--scenario", "nonexistent"]) == 2
    assert "error" in capsys.readouterr().err


def test_game_from_bytes_records_and_replays_mid_phase():
    """A game restored from bytes in the middle of a phase keeps a record that replays exactly."""
    game = Game("standard", seed=4)
    _play_some(game, 25)
    restored = Game.from_bytes(game.to_bytes())
    _play_some(restored, 60, seed=3)
    data = restored.record.to_dict()
    replayed = Game.from_record(GameRecord.from_dict(data))
    assert replayed.to_bytes() == restored.to_bytes()
    data["initial_state"] = "@@not base64@@"
    with pytest.raises(RecordError, match="initial_state"):
        GameRecord.from_dict(data)


def test_batch_rollouts_take_max_turns():
    """D19 revised: core rollouts stop at a harness's max_turns with no winner.
    play_random_batch(..., max_turns=N) writes N into every state (None: no
    limit); by default it keeps each state's own (init's max_turns)."""
    from hotspot.core import init, set_max_turns
    from hotspot.core.rollout import play_random_batch
    from hotspot.core.rules_data import ONGOING, PHASE_OVER

    states = init("standard", seeds=range(16))
    assert (states["max_turns"] == 0).all()  # the core: no limit unless asked
    play_random_batch(states, np.arange(1, 17, dtype=np.uint64), 10**6, max_turns=1)
    assert (states["max_turns"] == 1).all() and (states["phase"] == PHASE_OVER).all()
    assert (states["turn"] == 1).all()
    stopped = states["truncated"] == 1
    assert stopped.any() and (states["result"][stopped] == ONGOING).all()
    assert (states["result"][~stopped] != ONGOING).all()
    kept = init("standard", seeds=range(4), max_turns=3)
    play_random_batch(kept, np.arange(1, 5, dtype=np.uint64), 10**6)
    assert (kept["max_turns"] == 3).all() and (kept["turn"] <= 3).all()
    set_max_turns(kept, None)
    assert (kept["max_turns"] == 0).all()
    with pytest.raises(ValueError, match="max_turns"):
        set_max_turns(kept, 0)


def test_version_2_state_bytes_still_load():
    """The state layout (v3: set-up pools, pending losses, revealed hexes,
    max_turns, D19 revised, D21, D22; v4: the probe option sees_through_fog,
    R9.5b) reads the bytes of a v2 state field by field: the rules'
    turn_limit is dropped, the new fields start empty, and the game plays on
    exactly as the same position in the current layout."""
    import numpy as np

    from hotspot.core.state import _STATE_DTYPE_V2, STATE_DTYPE, STATE_VERSION

    game = Game("standard", seed=5)
    for _ in range(30):
        game.apply_action(int(game.legal_actions()[0]))
    old = np.zeros(1, dtype=_STATE_DTYPE_V2)
    for name in _STATE_DTYPE_V2.names:
        if name == "rules":
            for r in _STATE_DTYPE_V2["rules"].names:
                old["rules"][r] = 15 if r == "turn_limit" else game.state["rules"][r]
        else:
            old[name] = game.state[name]
    old["version"] = 2
    states = from_bytes(old.tobytes())
    assert states.dtype == STATE_DTYPE and int(states[0]["version"]) == STATE_VERSION == 4
    assert states.tobytes() == game.state.tobytes()
    restored = Game.from_bytes(old.tobytes())
    a = int(restored.legal_actions()[-1])
    restored.apply_action(a)
    game.apply_action(a)
    assert restored.to_bytes() == game.to_bytes()


def test_hostile_actions_and_files_get_the_documented_errors(tmp_path):
    """Bad input gets the documented error and changes nothing: an action far
    outside the 64-bit range is an IllegalActionError (not OverflowError), in
    the Game and in the env's raising mode; a record or scenario file that is
    not UTF-8, nested too deep or holds an integer of thousands of digits is a
    RecordError / ScenarioError naming the file."""
    from hotspot.core.record import GameRecord, RecordError
    from hotspot.core.scenario import ScenarioError, load_scenario
    from hotspot.env.hotspot_env import HotspotEnv

    game = Game("standard", seed=1)
    before = game.to_bytes()
    for a in (2**70, -(2**70), 10**400):
        with pytest.raises(IllegalActionError):
            game.apply_action(a)
        assert game.why_illegal(a) is not None
    assert game.to_bytes() == before
    env = HotspotEnv(illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(2**70)
    env = HotspotEnv(illegal_action="lose")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(2**70)
    assert terminated and reward == -1.0 and "illegal_action" in info
    bad_files = {
        "latin1.json": '{"format": "caf\xe9"}'.encode("latin-1"),
        "deep.json": b"[" * 100_000 + b"]" * 100_000,
        "digits.json": b'{"format": ' + b"9" * 5000 + b"}",
    }
    for name, data in bad_files.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(RecordError, match=name):
            GameRecord.load(path)
        with pytest.raises(ScenarioError, match=name):
            load_scenario(str(path))


def test_integers_too_long_to_print_get_their_documented_errors():
    """Python cannot print an int of over 4300 digits; a refusal's message must
    not need to (found by the fuzzer, fuzz/): such an action is an
    IllegalActionError, a list holding one a TypeError, and the game is unchanged."""
    game = Game("standard", seed=1)
    before = game.to_bytes()
    huge = 10**5000
    with pytest.raises(IllegalActionError, match="bits"):
        game.apply_action(huge)
    with pytest.raises(IllegalActionError):
        game.apply_action(-huge)
    with pytest.raises(TypeError, match="an action is an integer"):
        game.why_illegal([huge])
    assert game.to_bytes() == before and game.record.actions == []


def test_game_from_bytes_refuses_a_batch_with_state_error():
    """Game.from_bytes takes the bytes of one state: a batch is a StateError."""
    from hotspot.core.state import StateError

    data = Game("standard", seed=1).to_bytes()
    with pytest.raises(StateError, match="batch of 2"):
        Game.from_bytes(data + data)


def test_seeds_are_non_negative_integers_a_record_can_save():
    """A dice seed is a non-negative integer that a game record can write as JSON
    (at most 4300 digits): others are ScenarioErrors naming the seed, as is a
    'random:SEED' name whose seed is too long to read."""
    from hotspot.core.scenario import ScenarioError, load_scenario

    for seed in (10**5000, -(10**5000), -1, 1.5, "7", True):
        with pytest.raises(ScenarioError, match="seed"):
            Game("standard", seed=seed)
    game = Game("standard", seed=10**4000)  # large but savable: the record round trips
    assert Game.from_record(GameRecord.from_dict(game.record.to_dict())).to_bytes() == game.to_bytes()
    with pytest.raises(ScenarioError, match="more than 4300 digits"):
        load_scenario("random:" + "9" * 5000)


def test_record_fields_of_the_wrong_type_are_record_errors():
    """A record's scenario is an object (or null when it has an initial_state);
    replaying a hand-built record with an action too long to print is a
    RecordError."""
    game = Game.from_bytes(Game("standard", seed=2).to_bytes())
    data = game.record.to_dict()
    data["scenario"] = 5
    with pytest.raises(RecordError, match="'scenario'"):
        GameRecord.from_dict(data)
    record = GameRecord(None, 0, [10**5000], initial_state=game.record.initial_state)
    with pytest.raises(RecordError, match="actions\\[0\\]"):
        Game.from_record(record)


def test_cli_play_refuses_a_negative_agent_seed(capsys):
    """hotspot play --agent-seed -1 exits 2 with a message naming the option."""
    assert cli_main(["play", "--agent-seed", "-1", "--max-turns", "1"]) == 2
    assert "--agent-seed must be a non-negative integer" in capsys.readouterr().err


def test_file_names_with_a_nul_are_refused_by_the_loaders(tmp_path):
    """A path the OS cannot take (a NUL character) is the loader's documented
    error naming it, not Python's ValueError (found by the fuzzer, fuzz/)."""
    from hotspot.core.scenario import ScenarioError, load_scenario

    with pytest.raises(ScenarioError, match="not a usable file name"):
        load_scenario(str(tmp_path / "a\x00b.json"))
    with pytest.raises(RecordError, match="not a usable file name"):
        GameRecord.load(str(tmp_path / "a\x00b.json"))
