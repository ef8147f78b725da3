"""Train the per-action policy (``hotspot.agents.action_policy``, the agent
``learned``) from a search's games: imitation of the expert, then DAgger.

One command a stage; each writes into ``--out`` (default ``runs/policy``)
and a rerun of a stage that is done skips it (``--force`` redoes it)::

    python training/train_policy.py games   # the expert's games (an arena folder, resumable)
    python training/train_policy.py data    # replay them: labelled decisions -> data.npz
    python training/train_policy.py fit     # torch, CPU: cross-entropy -> policy.npz, fit.json
    python training/train_policy.py dagger  # the policy's own positions labelled by the expert; fit again
    python training/train_policy.py eval    # the policy alone vs scripted, both seats, mirrored seeds
    python training/train_policy.py ship    # copy policy.npz over the shipped policy of --seat (default both)

``games`` plays ``--expert`` (default ``best``) against ``scripted`` on
``--scenario`` (default ``open``) in both seats through the arena (every game
kept with its seed and actions; the arena's folder, so a rerun resumes);
``data`` replays every game and labels the expert's decisions with the
action it took (``hotspot.agents.imitation.replay_decisions``); ``fit``
trains the network (Adam, a fixed seed, games split 90/10 into training and
held-out decisions) and reports the held-out cross-entropy and top-1
agreement with the expert; ``dagger`` (Ross et al. 2011) plays the current
policy against scripted in both seats (``--dagger-games`` a seat), keeps
each of its decisions with probability ``--dagger-p``, asks a fresh expert
what it would play there (a worker pool) and fits again on every label so
far (``data.npz`` and each ``dagger_N.npz``); ``eval`` plays the policy against the compiled
scripted player in both seats on the same seeds (``--eval-games`` a side) in
compiled code.  Extra: ``pip install ".[train]"`` (torch); the other stages
need only the package.  ``--tiny`` runs every size at a smoke-test size.
Times on the 2-core reference machine: docs/training.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np

from hotspot.agents.action_policy import POLICY_FILES, PolicyNet
from hotspot.agents.imitation import (
    evaluate,
    label_decision,
    new_dataset,
    replay_decisions,
    sample_states,
    scripted_baseline,
)
from hotspot.arena.folder import record_from_row, scan_games
from hotspot.arena.stats import wilson_interval
from hotspot.core.actions import NUM_ACTIONS, current_player
from hotspot.core.game import Game
from hotspot.core.state import STATE_DTYPE
from hotspot.features.actions import NUM_ACTION_FEATURES
from hotspot.features.decision import NUM_DECISION_FEATURES


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("stage", choices=["games", "data", "fit", "dagger", "eval", "ship"])
    p.add_argument("--out", default="runs/policy", help="the run's folder (default runs/policy)")
    p.add_argument("--expert", default="best", help="the teacher agent's spec (default best)")
    p.add_argument("--scenario", default="open")
    p.add_argument("--games", type=int, default=600, help="expert games a side (default 600)")
    p.add_argument("--seed", type=int, default=2412, help="the master seed of every stage (default 2412)")
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--dagger-games", type=int, default=300, help="policy games a seat a DAgger round (default 300)")
    p.add_argument("--dagger-p", type=float, default=0.1, help="share of the policy's decisions labelled (default 0.1)")
    p.add_argument("--eval-games", type=int, default=1000, help="games a side of the eval stage (default 1000)")
    p.add_argument("--eval-seed", type=int, default=7001, help="first game seed of the eval stage")
    p.add_argument(
        "--seat",
        default="both",
        choices=["technocrat", "ziegler", "both"],
        help="the seat(s) whose shipped policy ship replaces (default both)",
    )
    p.add_argument("--weights", default=None, help="where ship copies the policy (default: the seat's shipped file)")
    p.add_argument(
        "--games-from",
        action="append",
        default=[],
        help="data: label the expert's decisions in this arena folder's games too (repeatable; e.g. the "
        "self-play games of training/train_generations.py, where the expert holds both seats)",
    )
    p.add_argument("--tiny", action="store_true", help="smoke-test sizes")
    p.add_argument("--force", action="store_true", help="redo a stage that is done")
    args = p.parse_args(argv)
    if args.tiny:
        args.games, args.epochs, args.eval_games, args.hidden, args.dagger_games = 2, 1, 4, 8, 1
    return args


# ------------------------------------------------------------------ stage: games


def stage_games(args, out: Path):
    from hotspot.arena import run_arena

    run_arena(
        pairings=[(args.expert, "scripted")],
        games=args.games,
        scenario=args.scenario,
        seed=args.seed,
        out=str(out / "games"),
        workers=args.workers,
        self_play=False,
        progress=not args.tiny,
    )


# ------------------------------------------------------------------ stage: data


def stage_data(args, out: Path):
    from hotspot.arena import canonical_agent

    expert = canonical_agent(args.expert)
    rows = []
    for folder in [out / "games"] + [Path(f) for f in args.games_from]:
        games = scan_games(folder / "games.jsonl")  # checked rows; a line being written is skipped
        rows += [r for r in games.rows.values() if expert in (r["technocrat"], r["ziegler"])]
    if not rows:
        sys.exit(f"{out / 'games'}: no games of {expert}; run the games stage first (or name --games-from)")
    rows.sort(key=lambda r: r["key"])
    cap_d, cap_a = 2048 * len(rows), 40000 * len(rows)
    D = new_dataset(cap_d, cap_a)
    game = np.zeros(cap_d, np.int32)
    nd = na = 0
    for g, row in enumerate(rows):
        rec = record_from_row(row)
        actions = np.array(rec.actions, dtype=np.int64)
        rec.actions = []
        s = Game.from_record(rec).state
        sides = np.array([row["ziegler"] == expert, row["technocrat"] == expert])
        before = nd
        nd, na, ok = replay_decisions(s[0], actions, sides, D["XS"], D["XA"], D["START"], D["TARGET"], D["ACT"], nd, na)
        if not ok:
            sys.exit(f"game {row['key']}: the recorded actions do not replay")
        game[before:nd] = g
    np.savez_compressed(
        out / "data.npz",
        XS=D["XS"][:nd],
        XA=D["XA"][:na],
        START=D["START"][: nd + 1],
        TARGET=D["TARGET"][:nd],
        ACT=D["ACT"][:na],
        GAME=game[:nd],
        games=len(rows),
        expert=np.str_(expert),
    )
    print(f"data: {nd} decisions, {na} action rows from {len(rows)} games of {expert} -> {out / 'data.npz'}")


def load_data(out: Path) -> dict:
    """``data.npz`` and every ``dagger_N.npz`` of the run as one dataset (game
    ids kept apart, so that the held-out split stays by game)."""
    parts = []
    for path in [out / "data.npz"] + sorted(out.glob("dagger_*.npz")):
        with np.load(path, allow_pickle=False) as d:
            parts.append({k: d[k] for k in d.files})
    data = {k: np.concatenate([p[k] for p in parts]) for k in ("XS", "XA", "TARGET", "ACT")}
    starts, games, rows, gid = [], [], 0, 0
    for p in parts:
        starts.append(p["START"][:-1] + rows)
        games.append(p["GAME"] + gid)
        rows += len(p["XA"])
        gid += int(p["GAME"].max()) + 1 if len(p["GAME"]) else 0
    data["START"] = np.concatenate(starts + [np.array([rows])])
    data["GAME"] = np.concatenate(games)
    data["expert"] = parts[0]["expert"]
    return data


# ------------------------------------------------------------------ stage: dagger


def _expert_actions(job):
    """Worker: the expert's action at each state (a fresh agent a state, seeded)."""
    from hotspot.arena import make_agent
    from hotspot.core.actions import legal_action_mask
    from hotspot.core.observation import observe

    expert, states, seeds = job
    acts = []
    mask = np.zeros(NUM_ACTIONS, dtype=bool)
    o = np.empty(1, dtype=STATE_DTYPE)
    for s, seed in zip(states, seeds):
        side = int(current_player(s))
        legal_action_mask(s, mask)
        observe(s, side, True, o[0])
        acts.append(int(make_agent(expert, seed=int(seed)).act(o, mask, side)))
    return acts


def stage_dagger(args, out: Path):
    from concurrent.futures import ProcessPoolExecutor

    from hotspot.arena import canonical_agent

    net = PolicyNet.load(out / "policy.npz")
    expert = canonical_agent(args.expert)
    t0 = time.time()
    first = 1_000_000 + 10_000 * net.generation  # seeds apart from the eval's and the expert games'
    cap = int(args.dagger_games * 2 * 2000 * max(args.dagger_p, 0.01)) + 16
    sampled = np.empty(cap, dtype=STATE_DTYPE)
    k, game_of = 0, []
    for side in (1, 0):
        for i in range(args.dagger_games):
            seed = first + i
            g = Game(args.scenario, seed=seed)
            before = k
            k = sample_states(
                g.state,
                side,
                args.dagger_p,
                *net.arrays,
                np.array([[seed * 2 + 1, seed * 2 + 2]], np.uint64),
                np.array([seed * 7 + side], np.uint64),
                sampled,
                k,
            )
            game_of += [2 * i + side] * (k - before)
    sampled = sampled[:k]
    workers = args.workers or os.cpu_count() or 1
    chunks = np.array_split(np.arange(k), max(1, min(k, workers * 8)))
    jobs = [(expert, sampled[c], first + c) for c in chunks if len(c)]
    with ProcessPoolExecutor(workers) as ex:
        actions = [a for part in ex.map(_expert_actions, jobs) for a in part]
    D = new_dataset(k + 1, k * NUM_ACTIONS + 1)
    game = np.zeros(k, np.int32)
    nd = na = 0
    for s, a, gi in zip(sampled, actions, game_of):
        before = nd
        nd, na = label_decision(s.copy(), a, D["XS"], D["XA"], D["START"], D["TARGET"], D["ACT"], nd, na)
        if nd > before:
            game[before] = gi
    path = out / f"dagger_{net.generation}.npz"
    np.savez_compressed(
        path,
        XS=D["XS"][:nd],
        XA=D["XA"][:na],
        START=D["START"][: nd + 1],
        TARGET=D["TARGET"][:nd],
        ACT=D["ACT"][:na],
        GAME=game[:nd],
        expert=np.str_(expert),
    )
    print(
        f"dagger: {nd} positions of generation {net.generation} labelled by {expert} in "
        f"{time.time() - t0:.0f} s -> {path}"
    )


# ------------------------------------------------------------------ stage: fit (torch)


def batches(idx, START, batch, rng):
    """Minibatches of decisions: ``(decisions, row index matrix, valid mask)`` padded to the longest."""
    idx = idx[rng.permutation(len(idx))] if rng is not None else idx
    for i in range(0, len(idx), batch):
        d = idx[i : i + batch]
        first, length = START[d], START[d + 1] - START[d]
        L = int(length.max())
        ar = np.arange(L)
        valid = ar[None, :] < length[:, None]
        rows = np.where(valid, first[:, None] + ar[None, :], 0)
        yield d, rows, valid


KINDS = ("select piece", "select unit", "combine", "step or maneuver", "split", "end piece", "end phase")


def stage_fit(args, out: Path, data: dict, init: PolicyNet | None = None):
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(max(1, min(2, torch.get_num_threads())))
    rng = np.random.default_rng(args.seed)
    XS, XA = torch.from_numpy(data["XS"]), torch.from_numpy(data["XA"])
    START, TARGET, GAME = data["START"], data["TARGET"], data["GAME"]
    games = np.unique(GAME)
    held = set(rng.choice(games, size=max(1, len(games) // 10), replace=False).tolist()) if len(games) > 1 else set()
    is_held = np.array([g in held for g in GAME])
    train_idx, test_idx = np.flatnonzero(~is_held), np.flatnonzero(is_held)
    if len(test_idx) == 0:
        test_idx = train_idx

    h = args.hidden
    model = torch.nn.Sequential(
        torch.nn.Linear(NUM_DECISION_FEATURES + NUM_ACTION_FEATURES, h),
        torch.nn.ReLU(),
        torch.nn.Linear(h, h),
        torch.nn.ReLU(),
        torch.nn.Linear(h, 1),
    )
    if init is not None and init.arrays[0].shape[0] == h and init.arrays[2].shape[0] == h:
        W0, b0, W1, b1, w2, b2 = (torch.from_numpy(a.astype(np.float32)) for a in init.arrays)
        with torch.no_grad():
            for layer, (w, b) in zip((model[0], model[2], model[4]), ((W0, b0), (W1, b1), (w2[None, :], b2))):
                layer.weight.copy_(w)
                layer.bias.copy_(b)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    def logits_of(d, rows, valid):
        x = torch.cat([XS[d][:, None, :].expand(-1, rows.shape[1], -1), XA[rows]], dim=-1)
        z = model(x).squeeze(-1)
        return z.masked_fill(~torch.from_numpy(valid), float("-inf"))

    kind_of_target = np.argmax(data["XA"][START[:-1] + TARGET, : len(KINDS)], axis=1)

    def evaluate(idx):
        ce = top1 = uniform = 0.0
        hits, counts = np.zeros(len(KINDS)), np.zeros(len(KINDS))
        with torch.no_grad():
            for d, rows, valid in batches(idx, START, 2048, None):
                z = logits_of(d, rows, valid)
                t = torch.from_numpy(TARGET[d])
                ce += float(torch.nn.functional.cross_entropy(z, t, reduction="sum"))
                hit = (z.argmax(dim=1) == t).numpy()
                top1 += float(hit.sum())
                np.add.at(hits, kind_of_target[d], hit)
                np.add.at(counts, kind_of_target[d], 1)
                uniform += float(np.log(valid.sum(axis=1)).sum())
        by_kind = {
            k: {"decisions": int(c), "top1": round(float(h / c), 4)} for k, h, c in zip(KINDS, hits, counts) if c
        }
        return {
            "cross_entropy": ce / len(idx),
            "top1": top1 / len(idx),
            "uniform_cross_entropy": uniform / len(idx),
            "top1_by_target_kind": by_kind,
        }

    log = []
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for d, rows, valid in batches(train_idx, START, args.batch, rng):
            loss = torch.nn.functional.cross_entropy(logits_of(d, rows, valid), torch.from_numpy(TARGET[d]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(d)
        held_out = evaluate(test_idx)
        log.append(
            {
                "epoch": epoch + 1,
                "train_cross_entropy": total / len(train_idx),
                **held_out,
                "seconds": round(time.time() - t0, 1),
            }
        )
        print(
            f"epoch {epoch + 1}: train CE {total / len(train_idx):.3f}, held-out CE "
            f"{held_out['cross_entropy']:.3f} (uniform {held_out['uniform_cross_entropy']:.3f}), "
            f"top-1 {held_out['top1']:.3f}"
        )
    arrays = [model[0].weight, model[0].bias, model[2].weight, model[2].bias, model[4].weight[0], model[4].bias]
    prev = init.generation if init is not None else 0
    net = PolicyNet(
        *(a.detach().double().numpy() for a in arrays),
        generation=prev + 1,
        teacher=str(data.get("expert", args.expert)),
    )
    net.save(out / "policy.npz")
    report = {
        "decisions": {"train": len(train_idx), "held_out": len(test_idx)},
        "held_out_games": len(held),
        "hidden": h,
        "epochs": log,
        "seed": args.seed,
    }
    (out / "fit.json").write_text(json.dumps(report, indent=1))
    return net


# ------------------------------------------------------------------ stage: eval (compiled)


def stage_eval(args, out: Path, net: PolicyNet):
    t0 = time.time()
    report = {"scenario": args.scenario, "games_a_side": args.eval_games, "first_seed": args.eval_seed}
    total = []
    base = scripted_baseline(args.scenario, args.eval_seed, args.eval_games)
    report["scripted_baseline"] = {"technocrat": float(base.mean()), "ziegler": float(1 - base.mean())}
    print(f"scripted against scripted on these seeds: technocrat {base.mean():.3f}, ziegler {1 - base.mean():.3f}")
    for side, name in ((1, "technocrat"), (0, "ziegler")):
        sc = evaluate(net, args.scenario, args.eval_seed, args.eval_games, side)
        total.append(sc)
        lo, hi = wilson_interval(sc.sum(), len(sc))
        report[name] = {
            "score": float(sc.mean()),
            "interval": [lo, hi],
            "games": len(sc),
            "wins": int((sc == 1).sum()),
            "draws": int((sc == 0.5).sum()),
            "seeds": [args.eval_seed, args.eval_seed + len(sc) - 1],
            "results": "".join("W" if x == 1 else "D" if x == 0.5 else "L" for x in sc),
        }
        print(
            f"policy as {name} vs scripted: {sc.mean():.3f} [{lo:.3f}, {hi:.3f}] ({len(sc)} games, "
            f"{(sc == 1).sum()} won, {(sc == 0.5).sum()} drawn)"
        )
    both = np.concatenate(total)
    lo, hi = wilson_interval(both.sum(), len(both))
    report["both"] = {"score": float(both.mean()), "interval": [lo, hi], "games": len(both)}
    report["seconds"] = round(time.time() - t0, 1)
    print(f"both seats: {both.mean():.3f} [{lo:.3f}, {hi:.3f}]")
    (out / "eval.json").write_text(json.dumps(report, indent=1))


# ------------------------------------------------------------------ main


def main(argv=None):
    args = parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    if args.stage == "games":
        stage_games(args, out)
    elif args.stage == "data":
        if (out / "data.npz").exists() and not args.force:
            print(f"{out / 'data.npz'} exists (--force to redo)")
        else:
            stage_data(args, out)
    elif args.stage == "fit":
        stage_fit(args, out, load_data(out))
    elif args.stage == "dagger":
        stage_dagger(args, out)
        stage_fit(args, out, load_data(out), init=PolicyNet.load(out / "policy.npz"))
    elif args.stage == "eval":
        stage_eval(args, out, PolicyNet.load(out / "policy.npz"))
    elif args.stage == "ship":
        PolicyNet.load(out / "policy.npz")  # checked before it replaces the shipped one
        seats = {"ziegler": [0], "technocrat": [1], "both": [0, 1]}[args.seat]
        for target in [args.weights] if args.weights else [POLICY_FILES[s] for s in seats]:
            shutil.copyfile(out / "policy.npz", target)
            print(f"shipped {out / 'policy.npz'} -> {target}")
    print(f"{args.stage}: {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
