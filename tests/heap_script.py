"""Games whose actions tests/test_heap_independence.py compares between
processes whose heaps differ: every registered agent (small budgets) against
the scripted player on both sides (through the compiled and the Python paths
where both exist),
and a session of the web app's kind started in a new thread, saved and loaded
back.  Prints one JSON object: a digest of each game's actions."""

import hashlib
import json
import sys
import threading

from hotspot.arena.match import GameSpec, play_game
from hotspot.human.session import Session, SessionError

AGENTS = (
    "random",
    "scripted",
    "mcts(simulations=2,max_candidates=3)",
    "ismcts(iterations=8)",
    "portfolio(horizon=1)",
    "learned",
    "learned-ismcts(iterations=8)",
)


def digest(actions) -> str:
    return hashlib.sha1(json.dumps([int(a) for a in actions]).encode()).hexdigest()[:12]


def session_game(out: dict) -> None:
    """What /api/new, /api/state, /api/advance and /api/save and /api/load do,
    in a request's thread."""
    session = Session.new(technocrat="scripted", ziegler="scripted", scenario="standard", seed=49)
    session.state_dict(None)
    session.advance(12)
    saved = session.to_json()
    out["session"] = digest(d.action for d in session.history)
    try:
        loaded = Session.from_json(json.loads(json.dumps(saved)))
    except SessionError as exc:  # the replay asked an agent and it decided otherwise
        out["session_loaded"] = f"refused: {exc}"
    else:
        out["session_loaded"] = digest(d.action for d in loaded.history)


def main(agents) -> None:
    out = {}
    for name in agents:
        for index, (technocrat, ziegler) in enumerate(((name, "scripted"), ("scripted", name))):
            spec = GameSpec(
                pairing=f"{technocrat}:{ziegler}",
                technocrat=technocrat,
                ziegler=ziegler,
                index=index,
                seed=1000 + index,
                scenario="random",
                max_turns=3,
            )
            row = play_game(spec)
            out[f"{name}/{index}/{row['path']}"] = digest(row["actions"])
            if row["path"] == "compiled":  # and through Python: the agents' own entry points
                out[f"{name}/{index}/python"] = digest(play_game(spec, force_python=True)["actions"])
    thread = threading.Thread(target=session_game, args=(out,))
    thread.start()
    thread.join()
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1].split(";") if len(sys.argv) > 1 else AGENTS)
