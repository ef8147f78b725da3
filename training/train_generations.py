"""Generations of the portfolio search's learned value (expert iteration:
Anthony et al. 2017; TD-Gammon's value from self-play): the games of
generation k train the value of generation k+1, which is kept only if its
search beats generation k's.

One command a stage; each writes into ``--out`` (default ``runs/generations``),
``g<K>/`` a generation, and a stage that is done is skipped (``--force``
redoes it; the games and match stages are arena folders, so a rerun resumes
them game by game)::

    python -m training.train_generations games --gen 0   # generation 0's search against itself on open
    python -m training.train_generations data  --gen 0   # its games' positions -> g0/positions.npz
    python -m training.train_generations fit   --gen 1   # the value on generation 0's positions -> g1/value.npz
    python -m training.train_generations match --gen 1   # generation 1's search against the champion's
    python -m training.train_generations run --generations 3   # every stage in order, resumable
    python -m training.train_generations calibration --gen 1   # its value on its own games: Brier, reliability
    python -m training.train_generations intents          # the changes the search keeps -> intent_prior.npz
    python -m training.train_generations elo             # the kept generations' Elo -> elo.json, elo.png
    python -m training.train_generations ship            # the champion's value -> the shipped plan_value.npz
                                                         # (--gen K --force: generation K's, kept or not)

Generation 0 is the portfolio search with the hand-written evaluation
(``beliefs.evaluate``); generation k >= 1 is the same search valuing the
play-outs' last positions with its networks (``hotspot.agents.plan_value``,
``portfolio(value_net=...)``).  ``games`` plays the current champion (the
newest kept generation below ``--gen``, or ``--gen`` itself if given games
of its own) against itself, ``--games`` a side, every game kept with its
seed and actions; ``data`` replays them into positions (the two valuation
points of each turn, each with the game's result and the hand-written
evaluation of the same position); ``fit`` trains generation k's networks on
the positions of the last ``--window`` generations' games (numpy, Adam,
games split 90/10 into training and held-out positions; starting from the
champion's weights) and writes the held-out Brier score of the networks and
of the hand-written evaluation (raw, and fitted to the results: Platt's
scaling), with the reliability curve, to ``g<K>/fit.json``; ``match`` plays
generation k against the champion on mirrored seeds, ``--match-games`` a
side: k is kept when the lower end of its score's 95% interval is above 0.5.
``--extra-games FOLDER`` adds an arena folder's games (any agents) to
generation 0's positions.  Every stage writes the seconds it took to
``g<K>/times.json``.  ``--backend ray`` plays the games on a Ray cluster
(the arena's backend).  ``--tiny`` runs every stage at a smoke-test size.
Times on the 2-core reference machine: docs/training.md.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import time
from pathlib import Path

import numpy as np

from hotspot.agents.plan_value import (
    PLAN_VALUE_FILE,
    brier,
    fit_plan_value,
    game_positions,
    load_plan_value,
    platt,
    predict_plan_value,
    reliability,
    save_plan_value,
)
from hotspot.arena.folder import record_from_row, scan_games
from hotspot.arena.stats import wilson_interval
from hotspot.core.game import Game


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        prog="python -m training.train_generations",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("stage", choices=["games", "data", "fit", "match", "run", "calibration", "elo", "intents", "ship"])
    p.add_argument("--gen", type=int, default=0, help="the generation a stage is about (default 0)")
    p.add_argument("--generations", type=int, default=3, help="run: generations after 0 (default 3)")
    p.add_argument("--out", default="runs/generations", help="the run's folder (default runs/generations)")
    p.add_argument("--scenario", default="open", help="the scenario of every game (default open)")
    p.add_argument("--horizon", type=int, default=0, help="the search's horizon, every generation (default 0)")
    p.add_argument("--plans", type=int, default=24, help="the search's plan valuations a phase (default 24)")
    p.add_argument("--games", type=int, default=150, help="self-play games a generation (default 150)")
    p.add_argument("--match-games", type=int, default=200, help="games a side of a match (default 200)")
    p.add_argument("--window", type=int, default=2, help="fit on the last N generations' games (default 2)")
    p.add_argument("--extra-games", action="append", default=[], help="an arena folder added to gen 0's data")
    p.add_argument("--hidden", type=int, default=24, help="hidden units a network (default 24)")
    p.add_argument("--epochs", type=int, default=40, help="training epochs (default 40)")
    p.add_argument("--seed", type=int, default=2412, help="the master seed of every stage (default 2412)")
    p.add_argument("--workers", type=int, default=None, help="game processes (default: the cores)")
    p.add_argument("--backend", default="local", choices=["local", "ray"], help="where games run (default local)")
    p.add_argument(
        "--intents-agent", default=None, help="intents: the search whose changes are counted (default: the champion)"
    )
    p.add_argument("--weights", default=None, help="ship: where the value goes (default: the shipped file)")
    p.add_argument("--tiny", action="store_true", help="smoke-test sizes")
    p.add_argument("--force", action="store_true", help="redo a stage that is done")
    args = p.parse_args(argv)
    if args.tiny:
        args.games, args.match_games, args.epochs, args.hidden, args.plans = 1, 1, 2, 4, 2
    for name in ("gen", "generations", "games", "match_games", "window", "hidden", "epochs", "plans"):
        if getattr(args, name) < (0 if name in ("gen", "generations") else 1):
            least = ">= 0" if name in ("gen", "generations") else ">= 1"
            sys.exit(f"train_generations: --{name.replace('_', '-')} must be {least}, got {getattr(args, name)}")
    return args


# ------------------------------------------------------------------ the generations' folders


def gen_dir(args, k: int) -> Path:
    return Path(args.out) / f"g{k}"


def value_file(args, k: int) -> Path:
    return gen_dir(args, k) / "value.npz"


def agent_spec(args, k: int) -> str:
    """The search of generation ``k`` as an agent spec."""
    base = f"portfolio(horizon={args.horizon},plans={args.plans}"
    if k == 0:
        return base + ")"
    return base + f",value_net={value_file(args, k).as_posix()})"


def is_kept(args, k: int) -> bool:
    """Generation 0 is kept; generation k >= 1 when its match says so."""
    if k == 0:
        return True
    path = gen_dir(args, k) / "match.json"
    return path.exists() and json.loads(path.read_text())["kept"]


def champion(args, below: int) -> int:
    """The newest kept generation below ``below``."""
    return max(k for k in range(below) if is_kept(args, k))


def record_time(args, k: int, stage: str, seconds: float) -> None:
    path = gen_dir(args, k) / "times.json"
    times = json.loads(path.read_text()) if path.exists() else {}
    times[stage] = round(seconds, 1)
    path.write_text(json.dumps(times, indent=1) + "\n")


def run_games(args, pairing, games: int, out: Path, seed: int):
    from hotspot.arena import run_arena

    return run_arena(
        pairings=[pairing],
        games=games,
        scenario=args.scenario,
        seed=seed,
        out=str(out),
        workers=args.workers,
        backend=args.backend,
        progress=not args.tiny,
    )


# ------------------------------------------------------------------ stages


def stage_games(args, k: int) -> None:
    """Self-play of generation ``k``'s player: ``k`` itself once kept, else the champion."""
    player = k if is_kept(args, k) and (k == 0 or value_file(args, k).exists()) else champion(args, k)
    spec = agent_spec(args, player)
    run_games(args, (spec, spec), args.games, gen_dir(args, k) / "games", args.seed + 1000 * k)
    print(f"games: generation {k}'s games by {spec}")


def replayable(rows):
    """``(key, started state, actions, Technocrat result)`` of arena rows, for
    ``plan_value.game_positions``."""
    for row in rows:
        rec = record_from_row(row)
        actions = np.array(rec.actions, dtype=np.int64)
        rec.actions = []
        result = {"technocrat": 1.0, "ziegler": -1.0}.get(row.get("winner"), 0.0)
        yield row["key"], Game.from_record(rec).state, actions, result


def stage_data(args, k: int) -> None:
    folders = [gen_dir(args, k) / "games"] + ([Path(f) for f in args.extra_games] if k == 0 else [])
    rows = []
    for folder in folders:
        games = scan_games(folder / "games.jsonl")
        if not games.rows:
            sys.exit(f"{folder}: no games; run the games stage first")
        rows += sorted(games.rows.values(), key=lambda r: r["key"])
    data = game_positions(replayable(rows))
    np.savez_compressed(gen_dir(args, k) / "positions.npz", **data, games=len(rows))
    print(f"data: {len(data['y'])} positions from {len(rows)} games -> {gen_dir(args, k) / 'positions.npz'}")


def load_positions(args, gens) -> dict:
    """The positions of generations ``gens`` as one set (game ids kept apart)."""
    parts, offset = [], 0
    for g in gens:
        path = gen_dir(args, g) / "positions.npz"
        if not path.exists():
            sys.exit(f"{path} is missing; run the data stage of generation {g} first")
        with np.load(path, allow_pickle=False) as d:
            part = {key: d[key] for key in ("X", "half", "hand", "y", "game")}
            part["game"] = part["game"] + offset
            offset += int(d["games"])
        parts.append(part)
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def judge(net, hand, hand_fitted, y, constant: float) -> dict:
    """Brier scores of the networks' values ``net``, the hand-written
    evaluation raw (``hand``) and fitted to the results (``hand_fitted``),
    and a constant forecast, on results ``y``; the reliability curves."""
    brier_scores = {
        "network": brier(net, y),
        "hand_evaluation": brier(hand, y),
        "hand_evaluation_platt": brier(hand_fitted, y),
        "constant": brier(np.full(len(y), constant), y),
    }
    return {
        "brier": brier_scores,
        "reliability": {
            "network": reliability(net, y),
            "hand_evaluation": reliability(hand, y),
            "hand_evaluation_platt": reliability(hand_fitted, y),
        },
        "brier_reduction_vs_hand_platt": 1.0 - brier_scores["network"] / brier_scores["hand_evaluation_platt"],
    }


def stage_fit(args, k: int) -> None:
    if k < 1:
        sys.exit("fit: generation 0 is the hand-written evaluation; fit generation 1 or later")
    gens = list(range(max(0, k - args.window), k))
    data = load_positions(args, gens)
    rng = np.random.default_rng(args.seed + k)
    games = np.unique(data["game"])
    held = rng.choice(games, max(1, len(games) // 10), replace=False)
    test = np.isin(data["game"], held)
    train = ~test if (~test).any() else test
    init_from = champion(args, k)
    init = load_plan_value(value_file(args, init_from)) if init_from > 0 else None
    if init is not None and int(init[0][1]) != args.hidden:
        init = None  # another size: start afresh
    nets, losses = fit_plan_value(
        data["X"][train],
        data["half"][train],
        data["y"][train],
        hidden=args.hidden,
        epochs=args.epochs,
        seed=args.seed + k,
        init=init,
    )
    save_plan_value(value_file(args, k), nets, generation=k)
    y = data["y"][test]
    net = predict_plan_value(nets, data["X"][test], data["half"][test])
    hand = data["hand"][test]
    hand_fitted = platt(data["hand"][train], data["y"][train])(hand)
    report = {
        "generation": k,
        "trained_on_generations": gens,
        "positions": {"train": int(train.sum()), "held_out": int(test.sum())},
        "games": {"train": int(len(games) - len(held)), "held_out": int(len(held))},
        **judge(net, hand, hand_fitted, y, data["y"][train].mean()),
        "loss_last_epoch": [float(loss[-1]) for loss in losses],
        "hidden": args.hidden,
        "epochs": args.epochs,
    }
    b = report["brier"]
    (gen_dir(args, k) / "fit.json").write_text(json.dumps(report, indent=1) + "\n")
    print(
        f"fit: generation {k} on {report['positions']['train']} positions of generations {gens}; held-out Brier "
        f"network {b['network']:.4f}, hand evaluation {b['hand_evaluation']:.4f} "
        f"(fitted to the results {b['hand_evaluation_platt']:.4f}), constant {b['constant']:.4f}"
    )


def stage_calibration(args, k: int) -> None:
    """Generation ``k``'s networks on the positions of its own games (never
    trained on: generation k learns from earlier generations' games) beside
    the hand-written evaluation: Brier scores and reliability curves ->
    ``g<K>/calibration.json`` and ``calibration.png``."""
    if k < 1 or not value_file(args, k).exists():
        sys.exit(f"calibration: generation {k} has no networks (fit generation >= 1 first)")
    data = load_positions(args, [k])
    nets = load_plan_value(value_file(args, k))
    y = data["y"]
    net = predict_plan_value(nets, data["X"], data["half"])
    earlier = load_positions(args, list(range(max(0, k - args.window), k)))  # what Platt's scaling may see
    hand_fitted = platt(earlier["hand"], earlier["y"])(data["hand"])
    report = {
        "generation": k,
        "positions": int(len(y)),
        "games": int(len(np.unique(data["game"]))),
        **judge(net, data["hand"], hand_fitted, y, earlier["y"].mean()),
    }
    b = report["brier"]
    (gen_dir(args, k) / "calibration.json").write_text(json.dumps(report, indent=1) + "\n")
    print(
        f"calibration: generation {k} on {len(y)} positions of its own {report['games']} games: Brier network "
        f"{b['network']:.4f}, hand evaluation {b['hand_evaluation']:.4f} (fitted {b['hand_evaluation_platt']:.4f}), "
        f"constant {b['constant']:.4f}: {100 * report['brier_reduction_vs_hand_platt']:.0f}% below the fitted hand"
    )
    plt = _pyplot()
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(4.2, 4.2))
    ax.plot([0, 1], [0, 1], color="0.7", lw=1)
    for name, label in (
        ("network", "network"),
        ("hand_evaluation_platt", "hand evaluation, fitted"),
        ("hand_evaluation", "hand evaluation"),
    ):
        pts = report["reliability"][name]
        ax.plot(
            [p["predicted"] for p in pts],
            [p["observed"] for p in pts],
            "o-",
            ms=3,
            label=f"{label} (Brier {b[name]:.3f})",
        )
    ax.set_xlabel("predicted Technocrat score")
    ax.set_ylabel("observed Technocrat score")
    ax.set_title(f"Reliability, generation {k}'s own games ({len(y)} positions)", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(gen_dir(args, k) / "calibration.png", dpi=110)


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no chart: matplotlib is not installed (the plots extra); the JSON is written")
        return None
    return plt


def match_report(rows, a: str) -> dict:
    """``a``'s score against the other agent, by seat and over both (draws half)."""
    out = {}
    for seat in ("technocrat", "ziegler", "both"):
        sel = [r for r in rows if seat == "both" or r[seat] == a]
        score = sum(1.0 if r.get("winner_agent") == a else 0.5 if r.get("winner") is None else 0.0 for r in sel)
        n = len(sel)
        lo, hi = wilson_interval(score, n) if n else (math.nan, math.nan)
        out[seat] = {"games": n, "score": score / n if n else math.nan, "ci95": [lo, hi]}
    return out


def stage_match(args, k: int) -> None:
    if k < 1:
        sys.exit("match: generation 0 has no earlier generation to meet")
    if not value_file(args, k).exists():
        sys.exit(f"{value_file(args, k)} is missing; run the fit stage of generation {k} first")
    rival = champion(args, k)
    a, b = agent_spec(args, k), agent_spec(args, rival)
    run_games(args, (a, b), args.match_games, gen_dir(args, k) / "match", args.seed + 1000 * k + 500)
    rows = list(scan_games(gen_dir(args, k) / "match" / "games.jsonl").rows.values())
    from hotspot.arena import canonical_agent

    report = {"generation": k, "against": rival, "agent": a, "rival": b}
    report.update(match_report(rows, canonical_agent(a)))
    report["kept"] = bool(report["both"]["ci95"][0] > 0.5)
    report["seconds_per_game"] = sum(r["wall_s"] for r in rows) / max(1, len(rows))  # both players, one core
    (gen_dir(args, k) / "match.json").write_text(json.dumps(report, indent=1) + "\n")
    both = report["both"]
    print(
        f"match: generation {k} against {rival}: {both['score']:.3f} [{both['ci95'][0]:.3f}, {both['ci95'][1]:.3f}] "
        f"over {both['games']} games (as Technocrat {report['technocrat']['score']:.3f}, as Ziegler "
        f"{report['ziegler']['score']:.3f}): {'kept' if report['kept'] else 'not kept'}"
    )


def stage_elo(args) -> None:
    """Each kept generation's Elo, chained through its match against the champion it beat."""
    elo = {0: 0.0}
    table = [{"generation": 0, "elo": 0.0, "kept": True}]
    k = 1
    while (gen_dir(args, k) / "match.json").exists():
        m = json.loads((gen_dir(args, k) / "match.json").read_text())
        s = min(max(m["both"]["score"], 1e-3), 1 - 1e-3)
        lo, hi = (min(max(x, 1e-3), 1 - 1e-3) for x in m["both"]["ci95"])
        base = elo[m["against"]]
        e = base + 400 * math.log10(s / (1 - s))
        row = {
            "generation": k,
            "against": m["against"],
            "elo": e,
            "ci95": [base + 400 * math.log10(lo / (1 - lo)), base + 400 * math.log10(hi / (1 - hi))],
            "kept": m["kept"],
        }
        if m["kept"]:
            elo[k] = e
        table.append(row)
        k += 1
    (Path(args.out) / "elo.json").write_text(json.dumps(table, indent=1) + "\n")
    for row in table:
        ci = row.get("ci95")
        ci_text = f" [{ci[0]:.0f}, {ci[1]:.0f}]" if ci else ""
        print(f"generation {row['generation']}: Elo {row['elo']:.0f}{ci_text}{'' if row['kept'] else ' (not kept)'}")
    plt = _pyplot()
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(5, 3.2))
    for row in table:
        ci = row.get("ci95") or [row["elo"], row["elo"]]
        ax.errorbar(
            row["generation"],
            row["elo"],
            yerr=[[row["elo"] - ci[0]], [ci[1] - row["elo"]]],
            fmt="o" if row["kept"] else "x",
            color="C0" if row["kept"] else "C3",
            capsize=3,
        )
    ax.set_xticks([row["generation"] for row in table])
    ax.set_xlabel("generation")
    ax.set_ylabel("Elo (generation 0 = 0)")
    ax.set_title(f"The search's value by generation ({args.scenario}; x: not kept)", fontsize=9)
    fig.tight_layout()
    fig.savefig(Path(args.out) / "elo.png", dpi=110)
    print(f"elo: {Path(args.out) / 'elo.png'}")


def stage_intents(args) -> None:
    """The intent prior: ``--games`` self-play games of the search (in this
    process), counting each greedy change it tried and kept by (side, phase
    kind, counter kind, intent) -> ``intent_prior.npz``, ``intent_prior.json``."""
    from hotspot.agents.portfolio import INTENT_NAMES, intent_prior, save_intent_prior
    from hotspot.arena import make_agent
    from hotspot.arena.match import GameSpec, play_game

    spec = args.intents_agent or agent_spec(args, champion(args, 10**6))
    agents = (make_agent(spec, seed=0), make_agent(spec, seed=1))
    for i in range(args.games):
        play_game(GameSpec(f"{spec}:{spec}", spec, spec, i, args.seed + 7000 + i, scenario=args.scenario), agents)
    stats = agents[0].stats + agents[1].stats
    save_intent_prior(Path(args.out) / "intent_prior.npz", stats)
    prior = intent_prior(stats)
    rows = []
    for side, side_name in enumerate(("ziegler", "technocrat")):
        for pk, phase_name in enumerate(("crustal", "movement")):
            for kind, kind_name in enumerate(("unit", "one-hex crustal", "other piece")):
                for it, intent in enumerate(INTENT_NAMES):
                    tried, kept = stats[side, pk, kind, it]
                    if tried:
                        rows.append(
                            {
                                "side": side_name,
                                "phase": phase_name,
                                "counter": kind_name,
                                "intent": intent,
                                "tried": int(tried),
                                "kept": int(kept),
                                "prior": float(prior[side, pk, kind, it]),
                            }
                        )
    (Path(args.out) / "intent_prior.json").write_text(
        json.dumps({"agent": spec, "games": args.games, "rows": rows}, indent=1) + "\n"
    )
    total = stats[..., 0].sum()
    print(f"intents: {int(total)} changes tried, {int(stats[..., 1].sum())} kept, in {args.games} games of {spec}")


def stage_ship(args) -> None:
    """The champion's networks (``--gen K --force``: generation K's, kept or not)."""
    if args.force and args.gen > 0:
        k = args.gen
        if not value_file(args, k).exists():
            sys.exit(f"{value_file(args, k)} is missing; nothing to ship")
    else:
        k = champion(args, 10**6)
    if k == 0:
        sys.exit(f"{args.out}: no generation after 0 was kept; nothing to ship (--gen K --force ships K anyway)")
    nets = load_plan_value(value_file(args, k))  # checked before it replaces the shipped one
    target = Path(args.weights) if args.weights else PLAN_VALUE_FILE
    save_plan_value(target, nets, generation=k)
    print(f"shipped generation {k}: {value_file(args, k)} -> {target}")
    prior_file = Path(args.out) / "intent_prior.npz"
    if prior_file.exists() and not args.weights:
        from hotspot.agents.portfolio import INTENT_PRIOR_FILE, load_intent_prior

        load_intent_prior(prior_file)  # checked first
        shutil.copyfile(prior_file, INTENT_PRIOR_FILE)
        print(f"shipped the intent prior: {prior_file} -> {INTENT_PRIOR_FILE}")


# ------------------------------------------------------------------ main


def run_stage(args, stage: str, k: int) -> None:
    done = {
        "data": gen_dir(args, k) / "positions.npz",
        "fit": gen_dir(args, k) / "fit.json",
        "match": gen_dir(args, k) / "match.json",
        "calibration": gen_dir(args, k) / "calibration.json",
    }.get(stage)
    if done is not None and done.exists() and not args.force:
        print(f"{stage} of generation {k}: done ({done}; --force to redo)")
        return
    gen_dir(args, k).mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    stages = {"games": stage_games, "data": stage_data, "fit": stage_fit, "match": stage_match}
    stages["calibration"] = stage_calibration
    stages[stage](args, k)
    record_time(args, k, stage, time.time() - t0)


def main(argv=None):
    args = parse_args(argv)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    if args.stage == "run":
        run_stage(args, "games", 0)
        run_stage(args, "data", 0)
        for k in range(1, args.generations + 1):
            run_stage(args, "fit", k)
            run_stage(args, "match", k)
            run_stage(args, "games", k)
            run_stage(args, "data", k)
            run_stage(args, "calibration", k)
        stage_elo(args)
    elif args.stage == "elo":
        stage_elo(args)
    elif args.stage == "ship":
        stage_ship(args)
    elif args.stage == "intents":
        stage_intents(args)
    else:
        run_stage(args, args.stage, args.gen)


if __name__ == "__main__":
    main()
