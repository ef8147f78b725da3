"""A person's game session (hotspot/human/session.py): whole games
against the scripted agent (the set-up of ``open`` by the person included,
3.2, 3.3, D21), illegal and unknown moves refused with the rule's reason and
the game unchanged, undo of the person's own last decision only while no die
has been rolled since (2.3), save and resume giving the same continued game,
damaged or altered saves refused, what a side may see (D20), and the
JSON-ready state for a web front end."""

from __future__ import annotations

import json
import random

import pytest

from hotspot.core.actions import A_SETUP_CHOOSE, A_SETUP_FACING
from hotspot.core.game import Game
from hotspot.core.rules_data import RESULT_NAMES
from hotspot.human import Session, SessionError


def _play_on(session: Session, rng: random.Random, decisions: int | None = None) -> int:
    """The person picks a seeded-random legal action (by id or by its command)
    until the game ends or ``decisions`` are made; returns how many were made."""
    made = 0
    session.advance()
    while not session.is_over() and (decisions is None or made < decisions):
        choice = rng.choice(session.legal())
        session.play(choice.command if made % 2 else choice.action)
        session.advance()
        made += 1
    return made


def _state(session: Session) -> bytes:
    return session.game.to_bytes()


@pytest.mark.parametrize("scenario,human", [("open", "technocrat"), ("standard", "ziegler")])
def test_a_whole_game_against_the_scripted_agent(scenario, human):
    """A person plays a whole game against the scripted agent, the deployment
    of ``open`` included (3.3; the Ziegler's, 3.2, in test_human_terminal); the game ends with a
    result and replays from its record."""
    other = "technocrat" if human == "ziegler" else "ziegler"
    session = Session.new(**{human: "human", other: "scripted"}, scenario=scenario, seed=5)
    _play_on(session, random.Random(1))
    assert session.is_over() and session.game.result() in RESULT_NAMES[1:]
    mine = [d for d in session.history if d.by == "human"]
    assert mine and all(d.side == ("ziegler", "technocrat").index(human) for d in mine)
    if scenario == "open":  # the person's own set-up decisions
        assert any(A_SETUP_CHOOSE <= d.action < A_SETUP_FACING for d in mine)
    replay = Game.from_record(session.game.record)
    assert replay.to_bytes() == session.game.to_bytes()


def test_same_settings_and_decisions_same_game():
    """Determinism: the dice come from the seed and the agents from the arena's seeds."""
    games = []
    for _ in range(2):
        session = Session.new(technocrat="human", ziegler="scripted", scenario="standard", seed=11)
        _play_on(session, random.Random(4), decisions=60)
        games.append([d.action for d in session.history])
    assert games[0] == games[1]


@pytest.mark.parametrize("technocrat,ziegler", [("random", "scripted"), ("scripted", "random")])
def test_a_session_between_agents_is_the_arenas_game(technocrat, ziegler):
    """The agents are seeded and move as in the arena: the same seed, the same game."""
    from hotspot.arena.match import GameSpec, play_game

    row = play_game(GameSpec("t", technocrat, ziegler, 0, 17, scenario="open", max_turns=200))
    session = Session.new(technocrat=technocrat, ziegler=ziegler, scenario="open", seed=17, max_turns=200)
    session.advance()
    assert [d.action for d in session.history] == row["actions"] and session.is_over()


def test_illegal_move_is_refused_with_the_rules_reason():
    """An illegal action id or typed command is refused with the core's reason;
    the game, its record and the log are unchanged."""
    session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=2)
    session.advance()  # the Ziegler's set-up; now the Technocrat's (3.3)
    assert session.to_move() == {"side": "technocrat", "human": True, "controller": "human"}
    before, n = _state(session), len(session.history)
    illegal = A_SETUP_CHOOSE  # a one-hex crustal: the Ziegler's (3.2)
    reason = session.game.why_illegal(illegal)
    assert reason
    for move in (illegal, "choose one-hex"):
        with pytest.raises(SessionError, match="illegal action") as err:
            session.play(move)
        assert reason in str(err.value)
        assert _state(session) == before and len(session.history) == n
    with pytest.raises(SessionError, match="no action is called"):
        session.play("fly to the moon")
    with pytest.raises(SessionError, match="action id"):
        session.play(1.5)
    assert _state(session) == before and len(session.history) == n


def test_the_agents_side_is_not_the_persons():
    """play() is for the person to move; the agent's turn is advance()'s."""
    session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=2)
    with pytest.raises(SessionError, match="played by the scripted agent"):
        session.play(0)
    assert session.history == []


def test_undo_takes_back_the_persons_decision():
    """Undo of one's own last decision with no die rolled since: the game is as
    before it, the person is to move again, and the same decision gives the same game."""
    session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=2)
    with pytest.raises(SessionError, match="nothing to undo"):
        session.undo()
    _play_on(session, random.Random(3), decisions=5)  # set-up: no dice
    before, n = _state(session), len(session.history)
    choice = session.legal()[-1]
    session.play(choice.action)
    after = _state(session)
    taken = session.undo()
    assert [d.action for d in taken][:1] == [choice.action]
    assert _state(session) == before and len(session.history) == n
    assert session.to_move()["human"]
    session.play(choice.action)
    assert _state(session) == after


def test_undo_is_refused_once_a_die_was_rolled():
    """2.3: a decision followed by a die roll (the core's roll events) cannot be
    taken back; the refusal names the roll and changes nothing."""
    session = Session.new(technocrat="scripted", ziegler="human", scenario="standard", seed=6)
    rng = random.Random(8)
    session.advance()
    for _ in range(3000):
        choice = rng.choice(session.legal())
        start = len(session.history)
        session.play(choice.action)
        session.advance()
        if any(d.rolled for d in session.history[start:]):
            break
    else:
        pytest.fail("no die was rolled")
    before, n = _state(session), len(session.history)
    assert not session.can_undo()
    with pytest.raises(SessionError, match="a die was rolled since"):
        session.undo()
    assert _state(session) == before and len(session.history) == n


def test_save_and_resume_give_the_same_continued_game(tmp_path):
    """A saved game loads as it was (state, log, agents) and continues as the unsaved one does."""
    path = tmp_path / "game.json"
    session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=9, max_turns=30)
    _play_on(session, random.Random(5), decisions=120)
    session.save(path)
    loaded = Session.load(path)
    assert _state(loaded) == _state(session) and loaded.log() == session.log()
    assert loaded.settings == session.settings
    _play_on(session, random.Random(6))
    _play_on(loaded, random.Random(6))
    assert loaded.game.record.actions == session.game.record.actions and loaded.is_over()


def test_damaged_or_altered_saves_are_refused(tmp_path):
    """Bad JSON, another file, a changed field (checksum) and altered agent moves
    are refused with a clear reason."""
    session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=9)
    _play_on(session, random.Random(5), decisions=10)
    good = session.to_json()
    path = tmp_path / "save.json"

    def refused(text, match):
        path.write_text(text)
        with pytest.raises(SessionError, match=match):
            Session.load(path)

    refused(json.dumps(good)[:-40], "bad JSON")
    refused(json.dumps({"actions": []}), "not a saved game")
    refused(json.dumps({**good, "version": 99}), "version 99")
    edited = json.loads(json.dumps(good))
    edited["actions"][0] += 1
    refused(json.dumps(edited), "checksum")
    # a move of the agent altered and the checksum made again: the agent decides otherwise
    from hotspot.human.session import _checksum

    actions = [d.action for d in session.history]
    game = Game(session.scenario, seed=9)
    for i, a in enumerate(actions):
        others = [int(x) for x in game.legal_actions() if x != a]
        if session.history[i].by == "scripted" and others:
            break
        game.apply_action(a)
    body = {k: v for k, v in json.loads(json.dumps(good)).items() if k != "checksum"}
    body["actions"] = actions[:i] + [others[0]]
    refused(json.dumps({**body, "checksum": _checksum(body)}), "actions\\[")
    with pytest.raises(SessionError, match="cannot read"):
        Session.load(tmp_path / "missing.json")


@pytest.mark.parametrize("text, words", [("[" * 100_000 + "]" * 100_000, "nested too deep"), ("9" * 5000, "bad JSON")])
def test_a_hostile_save_is_refused_in_one_line(tmp_path, text, words):
    """A save nested deeper than the parser goes, or holding an integer of
    thousands of digits, is refused with a one-line error naming the file
    (no RecursionError or ValueError traceback)."""
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SessionError, match=words) as err:
        Session.load(path)
    assert "\n" not in str(err.value) and "hostile.json" in str(err.value)


def test_each_side_sees_what_it_may_know():
    """D20: the person's board hides the enemy's stacks and damage; the log
    keeps the other side's damage rolls secret (14.2, 14.3); the full view shows all."""
    session = Session.new(technocrat="human", ziegler="scripted", scenario="standard", seed=6)
    session.advance()
    board = session.board_text()
    assert "?" in board and "Key:" in board and "damage ?/" in board
    assert "!" not in board.split("Pieces:")[0]  # a stack with hidden counters is not a combat (no "!n")
    assert "?" not in session.board_text(view=None).split("Key:")[0].split("Stacks:")[1]
    _play_on(session, random.Random(8), decisions=400)
    secret = [d for d in session.history if any("in secret" in x for x in d.details[1])]
    assert secret, "no secret roll in 400 decisions"
    d = secret[0]
    assert any(x.startswith("roll ") for x in d.details[None])
    assert not any(x.startswith("roll ") and "damage" in x for x in d.details[1])


def test_state_dict_is_json():
    """The web front end's view: JSON-ready, with the legal actions when a person is to move."""
    session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=2)
    session.advance()
    data = json.loads(json.dumps(session.state_dict()))
    assert data["to_move"]["human"] and data["legal"] and data["view"] == "technocrat"
    assert {"action", "caption", "command"} <= set(data["legal"][0])
    assert data["board"]["pieces"] and data["log"] and not data["over"]


def test_bad_settings_are_refused():
    with pytest.raises(SessionError, match="seed"):
        Session.new(seed=-1)
    with pytest.raises(SessionError, match="unknown agent"):
        Session.new(ziegler="nobody")
    with pytest.raises(SessionError, match="scenario"):
        Session.new(scenario="no-such-file.json")


JUNK = (None, -1, "x", [], {}, 10**30, 1.5, True, [1, "a"], {"a": 1})


def test_any_junk_in_a_save_is_refused_clearly():
    """A save altered in any field (its checksum made again) loads, if it still
    describes a game, or is refused with a ``SessionError``: no other error escapes."""
    from hotspot.human.session import _checksum

    session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=9)
    _play_on(session, random.Random(5), decisions=3)
    good = session.to_json()
    places = [("settings", k) for k in good["settings"]] + [
        ("scenario", "rules"),
        ("scenario", "pieces"),
        ("actions",),
        ("scenario",),
        ("settings",),
    ]
    for place in places:
        for junk in JUNK:
            data = json.loads(json.dumps(good))
            del data["checksum"]
            target = data
            for key in place[:-1]:
                target = target[key]
            target[place[-1]] = junk
            if data == {k: v for k, v in good.items() if k != "checksum"}:
                continue
            try:  # a harmless change (no actions, no overrides, no turn limit) loads; nothing else escapes
                Session.from_json({**data, "checksum": _checksum(data)})
            except SessionError as exc:
                assert str(exc)


def test_a_person_may_concede_at_any_time(tmp_path):
    """5.0: "either player may concede at any time": the person's concession
    ends the game with the other side the winner; it is final (no undo, no
    further move), kept by a save, and refused for an agent's side, twice, or
    with no person playing, the game unchanged."""
    session = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=4)
    _play_on(session, random.Random(2), decisions=3)
    with pytest.raises(SessionError, match="played by the scripted agent"):
        session.concede("ziegler")
    assert not session.is_over() and session.state_dict()["can_concede"]
    n = len(session.history)
    assert session.concede() == "ziegler wins (the Technocrat conceded, 5.0)"
    assert session.is_over() and session.game.winner() == 0 and len(session.history) == n
    state = session.state_dict()
    assert state["conceded"] == "technocrat" and not state["can_concede"] and not state["can_undo"]
    before = _state(session)
    with pytest.raises(SessionError, match="the game is over"):
        session.concede()
    with pytest.raises(SessionError, match="conceded"):
        session.undo()
    with pytest.raises(SessionError, match="the game is over"):
        session.play(0)
    assert _state(session) == before
    path = tmp_path / "conceded.json"
    session.save(path)
    loaded = Session.load(path)
    assert loaded.conceded == 1 and loaded.result() == session.result() and _state(loaded) == before
    # a save whose concession names no side is refused (checksum made again)
    from hotspot.human.session import _checksum

    body = {k: v for k, v in session.to_json().items() if k != "checksum"}
    body["conceded"] = "nobody"
    with pytest.raises(SessionError, match="conceded must be"):
        Session.from_json({**body, "checksum": _checksum(body)})
    # a save written before concessions were kept (no "conceded") still loads
    old = Session.new(technocrat="human", ziegler="scripted", scenario="open", seed=4)
    _play_on(old, random.Random(2), decisions=3)
    body = {k: v for k, v in old.to_json().items() if k not in ("checksum", "conceded")}
    assert _state(Session.from_json({**body, "checksum": _checksum(body)})) == _state(old)
    agents = Session.new(technocrat="scripted", ziegler="random", scenario="standard", seed=1)
    with pytest.raises(SessionError, match="no person plays"):
        agents.concede()


def test_with_two_people_the_side_to_move_concedes():
    """Two people at one keyboard: ``concede()`` is the side to move's; either may name his side."""
    session = Session.new(technocrat="human", ziegler="human", scenario="open", seed=3)
    mover = session.game.current_player()
    session.concede()
    assert session.game.winner() == 1 - mover
    other = Session.new(technocrat="human", ziegler="human", scenario="open", seed=3)
    other.concede("technocrat")
    assert other.game.winner() == 0
