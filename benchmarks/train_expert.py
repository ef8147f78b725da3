"""Expert iteration for the search's value network (issue 12): the learned
part of ``learned-ismcts``.  numpy only (no torch): runs on the core install.

    python benchmarks/train_expert.py --ship                # the shipped network (12 min on 2 cores)
    python benchmarks/train_expert.py --generations 3 --search-games 200 --net-dir runs/expert
    python benchmarks/train_expert.py --tiny                # smoke sizes (the numbers mean nothing)

Generation 0 learns from fast compiled games: scripted against scripted (with
a share ``eps`` of uniformly random decisions, so that the network also sees
the positions a search reaches when it leaves the scripted plan) and scripted
against random, on the ``standard``, ``open`` and random (D12) setups.  Each
position is a start of turn (``hotspot.agents.expert``), its target the
game's result for the Technocrat (+1, -1, 0 for a game stopped by
``--max-turns``).

Generation g >= 1 adds the positions of games played by the search with
generation g-1's network (``ISMCTSAgent(net=...)``, as both sides, against
itself and against scripted) and refits on all the data, so the value is
learned from the search's own games; then generation g is rated against
generation g-1 (``--rate-games`` games a side on each scenario, search
against search) and kept only if it scores above 0.5.  The best generation
is written to ``hotspot/agents/weights/value_ismcts.npz`` (``--ship``) and
every generation, its losses and its rating to ``--out``.

No policy head is trained: the search's prior is the scripted player's choice
(``hotspot.agents.ismcts``), and a policy network over the atomic action
grammar did not fit this budget (README, "Agents and their measured
strength").
"""
from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import _common as C
import numpy as np

from hotspot.agents.base import POLICY_ISMCTS, POLICY_RANDOM, POLICY_SCRIPTED
from hotspot.agents.expert import record_games
from hotspot.agents.ismcts import DEFAULT_PARAMS, NO_NET, P_ITERATIONS
from hotspot.agents.value_net import fit, init_net, predict, save_net, weights_file
from hotspot.arena.stats import wilson_interval
from hotspot.core import init
from hotspot.core.limits import DEFAULT_MAX_TURNS

SCENARIOS = ("standard", "open", "random")


def _states(scenario: str, first: int, n: int, max_turns: int):
    if scenario == "random":  # a random setup (D12) per game
        return np.concatenate([init(f"random:{k}", seeds=[k], max_turns=max_turns) for k in range(first, first + n)])
    return init(scenario, seeds=range(first, first + n), max_turns=max_turns)


def _job(args):
    """One batch of recorded games (a worker process)."""
    scenario, first, n, pz, pt, eps, seed, net_z, net_t, max_turns, params = args
    st = _states(scenario, first, n, max_turns)
    X, y, g = record_games(st, pz, pt, eps, seed, params=params, net_z=net_z, net_t=net_t)
    return X, y, g + first


def _map(jobs, workers: int):
    if workers <= 1:
        return [_job(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_job, jobs))


def generate(jobs, workers: int):
    parts = _map(jobs, workers)
    X = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    return X, y


def gen0_jobs(games: int, max_turns: int, seed: int):
    jobs = []
    k = 0
    for scen in SCENARIOS:
        for pz, pt, eps in ((POLICY_SCRIPTED, POLICY_SCRIPTED, 0.0), (POLICY_SCRIPTED, POLICY_SCRIPTED, 0.05),
                            (POLICY_SCRIPTED, POLICY_SCRIPTED, 0.15), (POLICY_RANDOM, POLICY_SCRIPTED, 0.0),
                            (POLICY_SCRIPTED, POLICY_RANDOM, 0.0)):
            jobs.append((scen, 10_000 * k, games, pz, pt, eps, seed + k, NO_NET, NO_NET, max_turns, DEFAULT_PARAMS))
            k += 1
    return jobs


def search_jobs(net, games: int, max_turns: int, seed: int, gen: int, params, batch: int = 4):
    """The search with ``net`` against scripted (both sides) and itself."""
    jobs = []
    k = 0
    for scen in SCENARIOS:
        for pz, pt in ((POLICY_ISMCTS, POLICY_SCRIPTED), (POLICY_SCRIPTED, POLICY_ISMCTS),
                       (POLICY_ISMCTS, POLICY_ISMCTS)):
            for first in range(0, games, batch):
                n = min(batch, games - first)
                jobs.append((scen, 1_000_000 * gen + 10_000 * k + first, n, pz, pt, 0.0, seed + 7919 * gen + k * 131 + first,
                             net, net, max_turns, params))
            k += 1
    return jobs


def rate(net_new, net_old, games: int, max_turns: int, seed: int, workers: int, params) -> dict:
    """Search with ``net_new`` against search with ``net_old``, ``games`` a side per scenario."""
    jobs = []
    for i, scen in enumerate(("standard", "open")):
        jobs.append((scen, 500_000 + 1000 * i, games, POLICY_ISMCTS, POLICY_ISMCTS, 0.0, seed + i, net_new, net_old,
                     max_turns, params))  # new as Ziegler
        jobs.append((scen, 600_000 + 1000 * i, games, POLICY_ISMCTS, POLICY_ISMCTS, 0.0, seed + 50 + i, net_old, net_new,
                     max_turns, params))  # new as Technocrat
    scores = []
    for j, (X, y, g) in zip(jobs, _map(jobs, workers)):
        new_is_t = j[8] is net_new
        res = _results(y, g, j[1], j[2])
        scores += [0.5 + 0.5 * (r if new_is_t else -r) for r in res]
    k = float(np.sum(scores))
    lo, hi = wilson_interval(k, len(scores))
    return {"games": len(scores), "score": k / max(1, len(scores)), "ci95": [lo, hi]}


def _results(y, g, first, n):
    """Each game's result from the per-row targets (a game with no row: 0)."""
    out = np.zeros(n)
    out[g - first] = y
    return out.tolist()


def main(argv=None):
    p = C.make_parser("train_expert", __doc__)
    p.set_defaults(out=C.RESULTS_DIR / "train_expert.json")
    p.add_argument("--generations", type=int, default=1, help="search generations after generation 0")
    p.add_argument("--games", type=int, default=400, help="generation 0: games per scenario and pairing")
    p.add_argument("--search-games", type=int, default=12, help="generation g: search games per scenario and pairing")
    p.add_argument("--rate-games", type=int, default=20, help="rating: games a side per scenario")
    p.add_argument("--hidden", type=int, default=16)
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--iterations", type=int, default=int(DEFAULT_PARAMS[P_ITERATIONS]),
                   help="the search's iterations a decision in generation g's games (default: the ismcts agent's)")
    p.add_argument("--ship", action="store_true", help="write the best network to hotspot/agents/weights/")
    p.add_argument("--net-dir", type=Path, default=C.RESULTS_DIR / "expert")
    a = p.parse_args(argv)
    if a.tiny:
        a.games, a.search_games, a.rate_games, a.generations, a.epochs = 4, 1, 1, 1, 2
        a.iterations, a.max_turns = 2, 4
    for name in ("generations", "games", "search_games", "rate_games", "hidden", "epochs", "workers", "max_turns",
                 "iterations"):
        if getattr(a, name) < (0 if name == "generations" else 1):
            p.error(f"--{name.replace('_', '-')} must be positive")
    a.net_dir.mkdir(parents=True, exist_ok=True)
    params = DEFAULT_PARAMS.copy()
    params[P_ITERATIONS] = a.iterations
    t0 = time.time()
    log = {"generations": []}
    X, y = generate(gen0_jobs(a.games, a.max_turns, a.seed), a.workers)
    rng = np.random.default_rng(a.seed)
    held = rng.random(len(X)) < 0.2
    net, losses = fit(init_net(a.hidden, a.seed), X[~held], y[~held], epochs=a.epochs)
    test_mse = float(np.mean((predict(net, X[held]) - y[held]) ** 2))
    save_net(a.net_dir / "value_gen0.npz", net, 0)
    log["generations"].append({"generation": 0, "positions": int(len(X)), "train_loss": losses[-1],
                               "test_mse": test_mse, "target_variance": float(np.var(y[held])),
                               "seconds": time.time() - t0})
    print(f"gen 0: {len(X)} positions, test mse {test_mse:.4f} (variance {np.var(y[held]):.4f})", flush=True)
    best, best_gen = net, 0
    for gen in range(1, a.generations + 1):
        Xg, yg = generate(search_jobs(best, a.search_games, a.max_turns, a.seed, gen, params), a.workers)
        X = np.concatenate([X, Xg])
        y = np.concatenate([y, yg])
        held = rng.random(len(X)) < 0.2
        cand, losses = fit(best, X[~held], y[~held], epochs=a.epochs, seed=a.seed + gen)
        test_mse = float(np.mean((predict(cand, X[held]) - y[held]) ** 2))
        rating = rate(cand, best, a.rate_games, a.max_turns, a.seed + 1000 * gen, a.workers, params)
        save_net(a.net_dir / f"value_gen{gen}.npz", cand, gen)
        kept = rating["ci95"][0] > 0.5 or (rating["score"] > 0.5 and a.tiny)
        log["generations"].append({"generation": gen, "positions": int(len(X)), "search_positions": int(len(Xg)),
                                   "train_loss": losses[-1], "test_mse": test_mse, "rating_vs_previous": rating,
                                   "kept": bool(kept), "seconds": time.time() - t0})
        print(f"gen {gen}: +{len(Xg)} search positions, test mse {test_mse:.4f}, vs gen {best_gen}: "
              f"{rating['score']:.3f} [{rating['ci95'][0]:.3f}, {rating['ci95'][1]:.3f}] "
              f"{'kept' if kept else 'not kept'}", flush=True)
        if kept:
            best, best_gen = cand, gen
    if a.ship:
        save_net(weights_file("ismcts"), best, best_gen)
        print(f"shipped generation {best_gen} to {weights_file('ismcts')}")
    config = {k: v for k, v in vars(a).items() if k not in ("out", "net_dir")}
    C.write_result(a, "train_expert", config, log["generations"],
                   {"best_generation": best_gen, "seconds": time.time() - t0,
                    "generations": len(log["generations"])})

if __name__ == "__main__":
    main()
