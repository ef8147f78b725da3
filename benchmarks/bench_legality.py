"""The fast legal-action list against the one legality check, at scale.

Plays random games (the core's random player) and scripted games (the
scripted player on both sides) and, before every action, compares
``core.actions.legal_actions`` with ``action_error`` on every one of the
``NUM_ACTIONS`` actions (``agents.selfcheck.checked_games``).  The games
cycle through chunks of ``standard``, ``open`` and a random set-up (D12), each
chunk under one rules variant: the defaults and one value of each choice
option of D22 (``losses="owner"``, ``forward_into_blocked="refuse"`` ...) and
the boolean options flipped.  Every game is capped at ``--max-turns`` turns
(D19 revised); the count of games and checked actions and every disagreement
found are reported.

    python benchmarks/bench_legality.py                      # 10^6 random, 10^4 scripted games (tens of minutes)
    python benchmarks/bench_legality.py --tiny               # CI smoke run
"""

from __future__ import annotations

import time

import _common as C
import numpy as np

NAME = "legality"


def variants() -> list[tuple[str, dict]]:
    """(name, rules overrides): the defaults, each further value of a choice
    option, and the boolean options flipped."""
    from hotspot.core.rules_data import CHOICE_OPTIONS

    out = [("defaults", {})]
    for name, values in CHOICE_OPTIONS.items():
        out += [(f"{name}={v}", {name: v}) for v in values[1:]]
    for flip in (
        {"forbid_molten_entry": True},
        {"cia_enabled": False},
        {"two_hex_turn_after_collision": False},
        {"counter_cap": 16},
    ):
        out += [(",".join(f"{k}={v}" for k, v in flip.items()), flip)]
    return out


def run(kind: str, games: int, chunk: int, max_turns: int, seed0: int) -> dict:
    """Check ``games`` games of ``kind`` ("random" or "scripted") in chunks."""
    from hotspot.agents.selfcheck import checked_games
    from hotspot.core import init

    scripted = kind == "scripted"
    rules = variants()
    played = checked_total = 0
    failures = []
    t0 = time.perf_counter()
    i = 0
    while played < games:
        n = min(chunk, games - played)
        scenario = ("standard", "open", f"random:{seed0 + i}")[i % 3]
        rname, overrides = rules[(i // 3) % len(rules)]
        seeds = range(seed0 + played, seed0 + played + n)
        states = init(scenario, seeds=seeds, rules=overrides, max_turns=max_turns)
        rng = np.arange(2 * n, dtype=np.uint64) + np.uint64(2 * (seed0 + played) + 1)
        checked = np.zeros(n, dtype=np.int64)
        bad = np.zeros(n, dtype=np.int64)
        checked_games(states, rng, scripted, 100_000, checked, bad)
        checked_total += int(checked.sum())
        for j in np.flatnonzero(bad >= 0):
            failures.append({"scenario": scenario, "rules": rname, "seed": int(seeds[j]), "action": int(bad[j])})
        played += n
        i += 1
    return {
        "kind": kind,
        "games": played,
        "actions_checked": checked_total,
        "disagreements": len(failures),
        "failures": failures[:20],
        "seconds": time.perf_counter() - t0,
    }


def main(argv=None) -> dict:
    p = C.make_parser("bench_legality", __doc__)
    p.add_argument("--random-games", type=int, default=None, help="random games (default 10^6, tiny 200)")
    p.add_argument("--scripted-games", type=int, default=None, help="scripted games (default 10^4, tiny 6)")
    p.add_argument("--chunk", type=int, default=5000, help="games built and played at once (default %(default)s)")
    p.add_argument("--max-turns", type=int, default=60, help="turn cap of every game (default %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="first game seed (default %(default)s)")
    args = p.parse_args(argv)
    random_games = args.random_games if args.random_games is not None else (200 if args.tiny else 10**6)
    scripted_games = args.scripted_games if args.scripted_games is not None else (6 if args.tiny else 10**4)
    if min(random_games, scripted_games) < 0 or args.chunk < 1 or args.max_turns < 1:
        raise SystemExit("game counts must be >= 0, --chunk and --max-turns >= 1")
    chunk = min(args.chunk, 100) if args.tiny else args.chunk
    rows = [
        run("random", random_games, chunk, args.max_turns, args.seed),
        run("scripted", scripted_games, min(chunk, 500), args.max_turns, args.seed),
    ]
    C.print_table(
        "legal_actions against action_error before every action",
        ["player", "games", "actions checked", "disagreements", "seconds"],
        [[r["kind"], r["games"], r["actions_checked"], r["disagreements"], r["seconds"]] for r in rows],
    )
    summary = {
        "random_games": rows[0]["games"],
        "scripted_games": rows[1]["games"],
        "actions_checked": sum(r["actions_checked"] for r in rows),
        "disagreements": sum(r["disagreements"] for r in rows),
        "rules_variants": [name for name, _ in variants()],
    }
    config = {
        "random_games": random_games,
        "scripted_games": scripted_games,
        "chunk": chunk,
        "max_turns": args.max_turns,
        "seed": args.seed,
    }
    doc = C.write_result(args, NAME, config, rows, summary)
    if summary["disagreements"]:
        raise SystemExit(f"{summary['disagreements']} disagreement(s) between legal_actions and action_error")
    return doc


if __name__ == "__main__":
    main()
