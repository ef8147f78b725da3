"""A peer in the same run: OpenSpiel's random play, driven from Python.

Plays whole random games of chess and backgammon through ``pyspiel`` the way
a Python user of OpenSpiel would: ``state.legal_actions()`` and a uniform
pick at every decision, chance outcomes sampled from
``state.chance_outcomes()`` with their probabilities, ``state.apply_action``
each time, a new game when one ends.  Reported: applied actions per second
(decisions and chance outcomes alike, each one ``apply_action``), decisions
per second, and actions per game.

Against it, in the same run: the core's random play at batch 1024 on one
thread (as ``bench_core``; its random player computes the legal mask before
every action, as OpenSpiel's ``legal_actions``).  The target: the
core at batch 1024 on one thread makes at least 15x the actions per second of
OpenSpiel chess.

OpenSpiel is optional (``pip install open_spiel`` or ``pip install -e
".[benchmark]"``); without it the script says so and skips its rows.

    python benchmarks/bench_openspiel.py       # full: about half a minute
    python benchmarks/bench_openspiel.py --tiny
"""

from __future__ import annotations

import random

import _common as C

NAME = "openspiel"
GAMES = ("chess", "backgammon")
REFERENCE_BATCH = 1024


def openspiel_workload(pyspiel, game_name: str, seed: int = 0):
    """``run_once`` playing one whole random game of ``game_name``."""
    game = pyspiel.load_game(game_name)
    pick = random.Random(seed)

    def run_once():
        state = game.new_initial_state()
        decisions = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = pick.choices([o for o, _ in outcomes], weights=[w for _, w in outcomes])[0]
                chance += 1
            else:
                legal = state.legal_actions()
                action = legal[pick.randrange(len(legal))]
                decisions += 1
            state.apply_action(action)
        return {"actions": decisions + chance, "decisions": decisions, "games": 1}

    return run_once


def openspiel_version():
    """The installed open_spiel distribution's version (pyspiel has no __version__)."""
    from importlib import metadata

    try:
        return metadata.version("open_spiel")
    except metadata.PackageNotFoundError:
        return "unknown"


def main(argv=None) -> dict:
    p = C.make_parser("bench_openspiel", __doc__)
    p.add_argument("--games", nargs="+", default=list(GAMES), help="OpenSpiel games (default: %(default)s)")
    p.add_argument(
        "--batch", type=int, default=None, help=f"core batch to compare with (default {REFERENCE_BATCH}, tiny 16)"
    )
    args = p.parse_args(argv)
    repeats, min_time = C.timing_args(args)
    batch = args.batch or (16 if args.tiny else REFERENCE_BATCH)

    try:
        import pyspiel
    except ImportError:
        pyspiel = None
        print(
            "pyspiel is not installed (pip install open_spiel, or the 'benchmark' extra): skipping the OpenSpiel rows"
        )

    rows = []
    if pyspiel is not None:
        for name in args.games:
            run_once = openspiel_workload(pyspiel, name)
            run_once()  # warm-up
            samples = [C.sample_rate(run_once, min_time) for _ in range(repeats)]
            games = sum(s["games"] for s in samples)
            rows.append(
                {
                    "what": f"OpenSpiel {name} (Python loop)",
                    "game": name,
                    "threads": 1,
                    "actions_per_s": C.median_of(samples, "actions_per_s"),
                    "decisions_per_s": C.median_of(samples, "decisions_per_s"),
                    "games_per_s": C.median_of(samples, "games_per_s"),
                    "actions_per_game": sum(s["actions"] for s in samples) / games,
                    "samples": samples,
                }
            )
            print(f"  OpenSpiel {name}: {C.fmt(rows[-1]['actions_per_s'])} actions/s", flush=True)

    core = C.measure_core(batch, 1, repeats, min_time)
    rows.append(
        {
            "what": f"hotspot core, batch {batch}",
            "game": "hotspot",
            "threads": 1,
            "actions_per_s": core["actions_per_s"],
            "decisions_per_s": core["actions_per_s"],
            "games_per_s": core["games_per_s"],
            "actions_per_game": core["actions_per_game"],
            "samples": core["samples"],
        }
    )
    print(f"  hotspot core, batch {batch}, 1 thread: {C.fmt(core['actions_per_s'])} actions/s", flush=True)
    for r in rows:
        r["core_vs_this"] = C.ratio(core["actions_per_s"], r["actions_per_s"])

    C.print_table(
        f"Random play, one thread: OpenSpiel (Python-driven) vs the hotspot core "
        f"(median of {repeats} x >= {min_time:g} s)",
        ["what", "actions/s", "decisions/s", "games/s", "actions/game", "core / this"],
        [
            [
                r["what"],
                r["actions_per_s"],
                r["decisions_per_s"],
                r["games_per_s"],
                r["actions_per_game"],
                r["core_vs_this"],
            ]
            for r in rows
        ],
    )

    def rate(game):
        return next((r["actions_per_s"] for r in rows if r["game"] == game), None)

    summary = {
        "available": pyspiel is not None,
        "openspiel_version": openspiel_version() if pyspiel is not None else None,
        "core_batch": batch,
        "core_actions_per_s_1_thread": core["actions_per_s"],
        "chess_actions_per_s": rate("chess"),
        "backgammon_actions_per_s": rate("backgammon"),
        "core_vs_chess": C.ratio(core["actions_per_s"], rate("chess")),
        "core_vs_backgammon": C.ratio(core["actions_per_s"], rate("backgammon")),
    }
    if summary["core_vs_chess"] is not None:
        print(f"\ncore (batch {batch}, 1 thread) / OpenSpiel chess = {C.fmt(summary['core_vs_chess'])}x")
    notes = [
        "actions = every apply_action (decisions and chance outcomes); the core's actions are its "
        "atomic actions (its dice are rolled inside actions, not applied as chance actions)"
    ]
    if pyspiel is None:
        notes.append("pyspiel not installed: OpenSpiel rows skipped")
    config = {
        "games": args.games if pyspiel is not None else [],
        "core_batch": batch,
        "repeats": repeats,
        "min_time_s": min_time,
    }
    return C.write_result(args, NAME, config, rows, summary, notes)


if __name__ == "__main__":
    main()
