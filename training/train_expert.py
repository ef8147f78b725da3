"""Expert iteration: the search's value head and policy head, the
learned parts of ``learned-ismcts`` (and of the retired ``expert-ismcts`` and
``expert-policy``).
numpy only (no torch): runs on the core install.

    python -m training.train_expert --ship                # the best network to NET_DIR/expert.npz (13 min on 2 cores)
    python -m training.train_expert --generations 3 --search-games 200 --net-dir runs/expert
    python -m training.train_expert --tiny                # smoke sizes (the numbers mean nothing)

Generation 0 learns the value head from fast compiled games: scripted against
scripted (with a share ``eps`` of uniformly random decisions, so that the
network also sees the positions a search reaches when it leaves the scripted
plan) and scripted against random, on the ``standard``, ``open`` and random
(D12) setups.  Each position is a start of turn (``hotspot.agents.expert``),
its target the game's result for the Technocrat (+1, -1, 0 for a game
stopped by ``--max-turns``).  It has no policy head (its search's default is
the scripted player's choice).

Generation g >= 1 plays games with the search on generation g-1's network
(``ISMCTSAgent(net=..., policy=...)``, as both sides, against itself and
against scripted) and records, besides the start-of-turn positions, every
searched decision's policy target: the decision features of the acting
side's information state (D20) and the root's visit distribution over the
legal actions.  It refits the value head on all positions (squared error)
and the policy head on all policy targets (cross-entropy of the masked
softmax, ``hotspot.agents.policy_net``), each from generation g-1's weights;
20% of the rows are held out and their losses reported (the policy's also
as top-1 agreement with the search's most visited action).  Then generation
g (both heads: the policy head names the root's default) is rated against
generation g-1 (``--rate-games`` games a side on ``standard`` and ``open``,
search against search) and kept only if the lower end of its 95% interval is
above 0.5.  ``--ship`` writes the best generation with a policy head (the
last kept one, else the last one, said in the output) to
``--net-dir``'s ``expert.npz`` (no agent plays it: the package ships no
such network); every generation, its losses and its
rating go to ``--out`` and ``--net-dir``.  (``weights/value_ismcts.npz``, the
``learned-ismcts`` value network, is the value head of an earlier run of
this script, before the policy head; it is left as it is.)
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from benchmarks import _common as C
from hotspot.agents.base import POLICY_ISMCTS, POLICY_RANDOM, POLICY_SCRIPTED
from hotspot.agents.expert import record_games
from hotspot.agents.ismcts import DEFAULT_PARAMS, NO_NET, P_ITERATIONS, P_POLICY
from hotspot.agents.policy_net import (
    cross_entropy,
    fit_policy,
    init_policy,
    logits,
    save_expert,
    two_headed,
)
from hotspot.agents.value_net import fit, init_net, predict, save_net, value_size
from hotspot.arena.stats import wilson_interval
from hotspot.core import init
from hotspot.core.limits import DEFAULT_MAX_TURNS

SCENARIOS = ("standard", "open", "random")


def _states(scenario: str, first: int, n: int, max_turns: int):
    if scenario == "random":  # a random setup (D12) per game
        return np.concatenate([init(f"random:{k}", seeds=[k], max_turns=max_turns) for k in range(first, first + n)])
    return init(scenario, seeds=range(first, first + n), max_turns=max_turns)


def _job(args):
    """One batch of recorded games (a worker process); with policy targets
    when the search plays (the fourth item, else None)."""
    scenario, first, n, pz, pt, eps, seed, net_z, net_t, max_turns, params = args
    st = _states(scenario, first, n, max_turns)
    searched = POLICY_ISMCTS in (pz, pt)
    out = record_games(st, pz, pt, eps, seed, params=params, net_z=net_z, net_t=net_t, policy_targets=searched)
    return out[0], out[1], out[2] + first, (out[3][:3] if searched else None)


def _map(jobs, workers: int):
    if workers <= 1:
        return [_job(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_job, jobs))


def generate(jobs, workers: int):
    """``(X, y, policy)``: positions, results and the policy targets ``(Xp, P, M)`` (or None)."""
    parts = _map(jobs, workers)
    X = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    pol = [p[3] for p in parts if p[3] is not None]
    policy = tuple(np.concatenate([q[i] for q in pol]) for i in range(3)) if pol else None
    return X, y, policy


def policy_metrics(head, Xp, P, M) -> dict:
    """Held-out cross-entropy, the targets' own entropy (its floor) and the
    top-1 agreement with the search's most visited action."""
    if len(Xp) == 0:
        return {"rows": 0}
    z = np.where(M, logits(head, Xp), -np.inf)
    entropy = float(-np.sum(np.where(P > 0, P * np.log(np.where(P > 0, P, 1.0)), 0.0)) / len(P))
    return {
        "rows": int(len(Xp)),
        "cross_entropy": cross_entropy(head, Xp, P, M),
        "target_entropy": entropy,
        "top1": float(np.mean(np.argmax(z, axis=1) == np.argmax(P, axis=1))),
        "uniform_cross_entropy": float(np.mean(np.log(M.sum(axis=1)))),
    }


def gen0_jobs(games: int, max_turns: int, seed: int):
    jobs = []
    k = 0
    for scen in SCENARIOS:
        for pz, pt, eps in (
            (POLICY_SCRIPTED, POLICY_SCRIPTED, 0.0),
            (POLICY_SCRIPTED, POLICY_SCRIPTED, 0.05),
            (POLICY_SCRIPTED, POLICY_SCRIPTED, 0.15),
            (POLICY_RANDOM, POLICY_SCRIPTED, 0.0),
            (POLICY_SCRIPTED, POLICY_RANDOM, 0.0),
        ):
            jobs.append((scen, 10_000 * k, games, pz, pt, eps, seed + k, NO_NET, NO_NET, max_turns, DEFAULT_PARAMS))
            k += 1
    return jobs


def search_jobs(net, games: int, max_turns: int, seed: int, gen: int, params, batch: int = 4):
    """The search with ``net`` against scripted (both sides) and itself."""
    jobs = []
    k = 0
    for scen in SCENARIOS:
        for pz, pt in (
            (POLICY_ISMCTS, POLICY_SCRIPTED),
            (POLICY_SCRIPTED, POLICY_ISMCTS),
            (POLICY_ISMCTS, POLICY_ISMCTS),
        ):
            for first in range(0, games, batch):
                n = min(batch, games - first)
                jobs.append(
                    (
                        scen,
                        1_000_000 * gen + 10_000 * k + first,
                        n,
                        pz,
                        pt,
                        0.0,
                        seed + 7919 * gen + k * 131 + first,
                        net,
                        net,
                        max_turns,
                        params,
                    )
                )
            k += 1
    return jobs


def rate(net_new, net_old, games: int, max_turns: int, seed: int, workers: int, params) -> dict:
    """Search with ``net_new`` against search with ``net_old``, ``games`` a side per scenario."""
    jobs = []
    for i, scen in enumerate(("standard", "open")):
        jobs.append(
            (
                scen,
                500_000 + 1000 * i,
                games,
                POLICY_ISMCTS,
                POLICY_ISMCTS,
                0.0,
                seed + i,
                net_new,
                net_old,
                max_turns,
                params,
            )
        )  # new as Ziegler
        jobs.append(
            (
                scen,
                600_000 + 1000 * i,
                games,
                POLICY_ISMCTS,
                POLICY_ISMCTS,
                0.0,
                seed + 50 + i,
                net_old,
                net_new,
                max_turns,
                params,
            )
        )  # new as Technocrat
    scores = []
    for j, (_x, y, g, _) in zip(jobs, _map(jobs, workers)):
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
    p.add_argument("--policy-hidden", type=int, default=32, help="the policy head's hidden units")
    p.add_argument("--policy-epochs", type=int, default=30)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--iterations",
        type=int,
        default=int(DEFAULT_PARAMS[P_ITERATIONS]),
        help="the search's iterations a decision in generation g's games (default: the ismcts agent's)",
    )
    p.add_argument("--ship", action="store_true", help="write the best network to NET_DIR/expert.npz")
    p.add_argument("--net-dir", type=Path, default=C.RESULTS_DIR / "expert")
    a = p.parse_args(argv)
    if a.tiny:
        a.games, a.search_games, a.rate_games, a.generations, a.epochs, a.policy_epochs = 4, 1, 1, 1, 2, 2
        a.iterations, a.max_turns = 2, 4
    for name in (
        "generations",
        "games",
        "search_games",
        "rate_games",
        "hidden",
        "epochs",
        "workers",
        "max_turns",
        "iterations",
        "policy_hidden",
        "policy_epochs",
    ):
        if getattr(a, name) < (0 if name == "generations" else 1):
            p.error(f"--{name.replace('_', '-')} must be positive")
    a.net_dir.mkdir(parents=True, exist_ok=True)
    params = DEFAULT_PARAMS.copy()
    params[P_ITERATIONS] = a.iterations
    params[P_POLICY] = 1  # the root's default is the policy head's choice where the net has one
    t0 = time.time()
    log = {"generations": []}
    X, y, _ = generate(gen0_jobs(a.games, a.max_turns, a.seed), a.workers)
    rng = np.random.default_rng(a.seed)
    held = rng.random(len(X)) < 0.2
    net, losses = fit(init_net(a.hidden, a.seed), X[~held], y[~held], epochs=a.epochs)
    test_mse = float(np.mean((predict(net, X[held]) - y[held]) ** 2))
    save_net(a.net_dir / "value_gen0.npz", net, 0)
    log["generations"].append(
        {
            "generation": 0,
            "positions": int(len(X)),
            "train_loss": losses[-1],
            "test_mse": test_mse,
            "target_variance": float(np.var(y[held])),
            "seconds": time.time() - t0,
        }
    )
    print(f"gen 0: {len(X)} positions, test mse {test_mse:.4f} (variance {np.var(y[held]):.4f})", flush=True)
    best, best_gen = net, 0  # the search's net: value head (+ policy head from generation 1)
    policy = init_policy(a.policy_hidden, a.seed)
    Xp = P = M = None  # the policy head's data, from generation 1 on
    shipped = None  # (generation, value, policy, kept)
    for gen in range(1, a.generations + 1):
        Xg, yg, pol = generate(search_jobs(best, a.search_games, a.max_turns, a.seed, gen, params), a.workers)
        X = np.concatenate([X, Xg])
        y = np.concatenate([y, yg])
        Xp, P, M = (
            pol
            if Xp is None
            else (np.concatenate([Xp, pol[0]]), np.concatenate([P, pol[1]]), np.concatenate([M, pol[2]]))
        )
        held = rng.random(len(X)) < 0.2
        value = best[: value_size(best)]
        value_cand, losses = fit(value, X[~held], y[~held], epochs=a.epochs, seed=a.seed + gen)
        test_mse = float(np.mean((predict(value_cand, X[held]) - y[held]) ** 2))
        pheld = rng.random(len(Xp)) < 0.2
        policy, plosses = fit_policy(
            policy, Xp[~pheld], P[~pheld], M[~pheld], epochs=a.policy_epochs, seed=a.seed + gen
        )
        pm = policy_metrics(policy, Xp[pheld], P[pheld], M[pheld])
        cand = two_headed(value_cand, policy)
        rating = rate(cand, best, a.rate_games, a.max_turns, a.seed + 1000 * gen, a.workers, params)
        save_expert(a.net_dir / f"expert_gen{gen}.npz", value_cand, policy, gen)
        kept = rating["ci95"][0] > 0.5 or (rating["score"] > 0.5 and a.tiny)
        log["generations"].append(
            {
                "generation": gen,
                "positions": int(len(X)),
                "search_positions": int(len(Xg)),
                "train_loss": losses[-1],
                "test_mse": test_mse,
                "policy_decisions": int(len(Xp)),
                "policy_new_decisions": int(len(pol[0])),
                "policy_train_loss": plosses[-1],
                "policy_held_out": pm,
                "rating_vs_previous": rating,
                "kept": bool(kept),
                "seconds": time.time() - t0,
            }
        )
        print(
            f"gen {gen}: +{len(Xg)} search positions, test mse {test_mse:.4f}; +{len(pol[0])} decisions, "
            f"policy held-out cross-entropy {pm.get('cross_entropy', float('nan')):.3f} (targets' entropy "
            f"{pm.get('target_entropy', float('nan')):.3f}, uniform {pm.get('uniform_cross_entropy', float('nan')):.3f}), "
            f"top-1 {pm.get('top1', float('nan')):.3f}; vs gen {best_gen}: "
            f"{rating['score']:.3f} [{rating['ci95'][0]:.3f}, {rating['ci95'][1]:.3f}] "
            f"{'kept' if kept else 'not kept'}",
            flush=True,
        )
        if kept or shipped is None or not shipped[3]:
            shipped = (gen, value_cand, policy.copy(), bool(kept))
        if kept:
            best, best_gen = cand, gen
    if a.ship and shipped is not None:
        save_expert(a.net_dir / "expert.npz", shipped[1], shipped[2], shipped[0])
        print(
            f"shipped generation {shipped[0]} ({'kept' if shipped[3] else 'the last one: none was kept'}) "
            f"to {a.net_dir / 'expert.npz'}"
        )
    elif a.ship:
        print("nothing shipped: --generations 0 trains no policy head")
    config = {k: v for k, v in vars(a).items() if k not in ("out", "net_dir")}
    C.write_result(
        a,
        "train_expert",
        config,
        log["generations"],
        {
            "best_generation": best_gen,
            "shipped_generation": None if shipped is None else shipped[0],
            "seconds": time.time() - t0,
            "generations": len(log["generations"]),
        },
    )


if __name__ == "__main__":
    main()
