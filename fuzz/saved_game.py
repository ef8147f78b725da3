"""Target ``saved_game``: ``Session.load`` (a game saved by ``hotspot play`` or
the web app) on files as bytes: real saves mutated as JSON (often with their
checksum made right again, so that the content itself is checked) and as
text, and hostile files (deep nesting, huge numbers, invalid UTF-8, wrong
types, garbage)."""

from __future__ import annotations

import hashlib
import json

from .contract import check, refused
from .games import exercise
from .harness import target
from .inputs import mutate_json, mutate_text, picks_strategy, special_documents, st

SAVE_FORMAT = "hotspot-session"
#: (technocrat, ziegler, scenario, seed, max_turns, person decisions, concede)
SAVE_CONFIGS = (
    ("human", "scripted", "standard", 1, 2, 6, False),
    ("random", "human", "open", 2, 2, 40, False),
    ("human", "human", "random:3", 3, 1, 25, False),
    ("human", "random", "standard", 4, 1, 3, True),
    ("random", "scripted", "open", 5, 1, 0, False),
    ("human", "scripted", "random:6", 6, 1, 10_000, False),
)


def sign(doc):
    """``doc`` with its checksum made right (the save's own rule, checked
    against real saves in :func:`setup_saves`); as it was if it cannot be."""
    if not isinstance(doc, dict):
        return doc
    body = {k: v for k, v in doc.items() if k != "checksum"}
    try:
        text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):  # not JSON (NaN is; a huge int is not)
        return doc
    return {**body, "checksum": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()}


def _play(session, decisions: int, seed: int) -> None:
    """The people of ``session`` make up to ``decisions`` seeded-random legal
    decisions, the agents theirs in between."""
    import numpy as np

    rng = np.random.default_rng(seed)
    session.advance()
    for _ in range(decisions):
        if session.is_over() or not session.humans():
            break
        legal = session.legal()
        session.play(legal[int(rng.integers(len(legal)))].action)
        session.advance()


def setup_saves(workdir):
    """Real saves (people and agents, set-up, mid-game, over, conceded) as JSON documents."""
    from hotspot.human.session import Session

    docs = []
    for technocrat, ziegler, scenario, seed, max_turns, decisions, concede in SAVE_CONFIGS:
        session = Session.new(technocrat=technocrat, ziegler=ziegler, scenario=scenario, seed=seed, max_turns=max_turns)
        _play(session, decisions, seed)
        if concede and not session.is_over():
            session.concede()
        doc = session.to_json()
        check(sign(doc) == doc, "sign() does not make a real save's checksum (the save's rule changed?)")
        docs.append(json.loads(json.dumps(doc)))
    Session.from_json(docs[0])  # compile / load what a replay needs
    return {"docs": docs, "special": tuple(special_documents(SAVE_FORMAT)), "path": workdir / "save.json"}


def save_files(ctx):
    """Bytes of a save file: a real save mutated as JSON (signed again 3 times
    in 4) then maybe as text, a hostile file, or garbage."""
    s = st()

    @s.composite
    def strategy(draw):
        kind = draw(s.sampled_from(("doc",) * 8 + ("special", "garbage")))
        if kind == "special":
            return draw(s.sampled_from(ctx["special"]))
        if kind == "garbage":
            return draw(s.binary(max_size=300))
        doc = mutate_json(draw, draw(s.sampled_from(ctx["docs"])))
        if draw(s.integers(0, 3)):
            doc = sign(doc)
        try:
            text = json.dumps(doc, indent=draw(s.sampled_from((None, 1)))).encode("utf-8", "surrogatepass")
        except (ValueError, RecursionError):  # nothing JSON can write: an empty file instead
            text = b""
        return mutate_text(draw, text)

    return strategy()


def saved_game_strategy(ctx):
    return st().tuples(save_files(ctx), picks_strategy())


@target(
    "saved_game",
    "Session.load on saved games as bytes (real saves mutated, signed again or not, invalid "
    "UTF-8, deep nesting, huge numbers, wrong types, garbage): SessionError naming the file in one line, "
    "or a session that works",
    setup_saves,
    saved_game_strategy,
)
def check_saved_game(ctx, x):
    from hotspot.human.session import Session, SessionError

    data, picks = x
    path = ctx["path"]
    path.write_bytes(data)
    try:
        session = Session.load(path)
    except Exception as exc:  # noqa: BLE001 - judged by refused()
        label = refused(exc, SessionError)
        check(str(exc).startswith(f"{path}: "), f"the SessionError does not begin with the file's name: {exc}")
        check("\n" not in str(exc), f"the SessionError is not one line: {str(exc)[:600]!r}")
        return label
    saved = session.to_json()
    again = Session.from_json(json.loads(json.dumps(saved)))
    check(again.game.to_bytes() == session.game.to_bytes(), "a loaded save, saved again, replays to another game")
    check(again.to_json() == saved, "a loaded save, saved again, does not save back to the same JSON")
    session.state_dict()  # what the web app shows of a loaded game
    # a concession (5.0) is not an action: the game's record replays to the position conceded in
    exercise(session.game.clone(), picks, replay=session.conceded is None)
    return "accepted:over" if session.is_over() else "accepted"
