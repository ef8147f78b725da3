"""Train the planes network (``hotspot.agents.planes_net``, the agent
``planes(path=...)``) on a search's decisions: the board as hex planes in,
the search's choice and the game's outcome out.

One command a stage, each writing into ``--out`` (default ``runs/planes``)::

    python training/train_planes.py data --games-from FOLDER ...  # the expert's decisions -> data.npz
    python training/train_planes.py fit                           # torch, CPU: policy + value -> net.npz
    python training/train_planes.py dagger                        # its own positions, labelled by the expert
    python training/train_planes.py fit --init                    # again, on everything so far
    python training/train_planes.py eval                          # hotspot compare planes(path=net.npz) scripted
    python training/train_planes.py keep                          # a generation if it beats the last one kept

``data`` reads every game of ``--expert`` (default ``best``) in the arena
folders or ``games.jsonl(.gz)`` files named (games with their actions, as
the arena keeps them) and replays it: each decision of the expert's seat in
a phase of play (4.0 A-H) with two legal actions or more is kept as the true
state, the side, the legal mask, the action taken and the game's outcome for
that side (+1, -1, 0 a draw or a turn limit).  ``fit`` encodes the states as
the side sees them (``features.planes.board_planes``, D20) and trains the
network (torch; the same layers as the numpy forward pass, checked equal
after export): cross-entropy of the softmax over the legal actions plus the
value's squared error (``--value-weight``), Adam, games split 90/10 into
training and held-out decisions; it writes ``net.npz`` and ``fit.json``
(held-out top-1 agreement with the expert and losses; ``--init``: start from
the run's ``net.npz``).  ``dagger`` (Ross et al. 2011) plays the network
(``planes(path=net.npz)``) against ``--opponent`` in both seats
(``--dagger-games`` a seat, seeds apart from the expert's games), keeps each
of its decisions with probability ``--dagger-p``, asks a fresh ``--expert``
what it would play there (``--labels shadow``: one expert a game, asked at
every decision of the network's seat, so that its labels follow the plan it
made at the phase's start), and writes ``dagger_N.npz`` (N counts the rounds);
``fit`` trains on ``data.npz`` and every ``dagger_N.npz``, the value head on
the expert's games only (a DAgger position's outcome is the network's game,
not the expert's; ``--dagger-repeat R`` counts each of its decisions R
times an epoch), the held-out decisions and the Brier score from the
expert's games only.  ``eval`` runs the
sequential test of ``hotspot compare`` between ``planes(path=net.npz)`` and
``--opponent`` (default ``scripted``) on mirrored pairs.  ``keep`` makes
generations (expert iteration's rule: a network is kept only when it is
stronger than the one before): the run's ``net.npz`` becomes candidate N
in ``generations/``; the first is generation 0, each later one plays the
last kept generation in ``hotspot compare``'s GSPRT on mirrored pairs
(``--pairs`` at most, elo0 0, elo1 30, alpha = beta = 0.05) and is kept
when H1 is accepted; ``generations/generations.json`` lists every
candidate (its Elo against the last kept one, with its interval, and
whether it was kept) and ``generations.png`` charts their Elo from
generation 0 (matplotlib, the ``plots`` extra).  A rerun of an interrupted
``keep`` resumes its test.  ``--tiny`` runs a
stage at a smoke-test size.  Extra: ``pip install ".[train]"`` (torch) for
``fit``; the other stages need only the package.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np

from hotspot.agents.planes_net import PlanesNet
from hotspot.arena.folder import record_from_row, scan_games
from hotspot.core import no_events
from hotspot.core.actions import NUM_ACTIONS, apply_action, current_player, legal_action_mask
from hotspot.core.game import Game
from hotspot.core.rules_data import PHASE_CONTROL, PHASE_OVER
from hotspot.features.planes import HEX_KERNEL_MASK, NUM_PLANES, board_planes


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("stage", choices=["data", "fit", "dagger", "eval", "keep"])
    p.add_argument("--out", default="runs/planes", help="the run's folder (default runs/planes)")
    p.add_argument("--games-from", nargs="*", default=[], help="arena folders or games.jsonl(.gz) files (data)")
    p.add_argument("--max-games", type=int, default=None, help="data: at most this many games from each source")
    p.add_argument("--expert", default="best", help="the teacher agent's spec (default best)")
    p.add_argument("--seed", type=int, default=2412)
    p.add_argument("--channels", type=int, default=32)
    p.add_argument("--blocks", type=int, default=3)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--decisions", type=int, default=None, help="fit: at most this many training decisions an epoch")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--value-weight", type=float, default=0.5, help="the value loss's weight (default 0.5)")
    p.add_argument("--init", action="store_true", help="fit: start from the run's net.npz")
    p.add_argument(
        "--dagger-repeat", type=int, default=1, help="fit: each DAgger decision counted this many times an epoch (1)"
    )
    p.add_argument("--scenario", default="open", help="dagger: the scenario played (default open)")
    p.add_argument("--dagger-games", type=int, default=100, help="dagger: the network's games a seat (default 100)")
    p.add_argument("--dagger-p", type=float, default=0.25, help="dagger: share of its decisions labelled (0.25)")
    p.add_argument(
        "--labels",
        choices=("fresh", "shadow"),
        default="fresh",
        help="dagger: a fresh expert at each position (default), or one expert a game shadowing the network",
    )
    p.add_argument("--opponent", default="scripted", help="eval: the opponent (default scripted)")
    p.add_argument("--pairs", type=int, default=500, help="eval, keep: the most mirrored pairs (default 500)")
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--tiny", action="store_true", help="a smoke-test size")
    return p.parse_args(argv)


# ------------------------------------------------------------------ data


def game_rows(source: Path) -> list[dict]:
    if source.is_dir():
        return list(scan_games(source / "games.jsonl").rows.values())
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def expert_decisions(row: dict, expert: str):
    """(states, sides, masks, actions, outcomes) of ``expert``'s decisions in ``row``."""
    rec = record_from_row(row)
    actions = list(rec.actions)
    rec.actions = []
    s = Game.from_record(rec).state.copy()
    seats = (row["ziegler"] == expert, row["technocrat"] == expert)
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    ev, ev_n = no_events()
    out = ([], [], [], [], [])
    for a in actions:
        side = current_player(s[0])
        legal_action_mask(s[0], mask)
        if not mask[a]:
            raise ValueError(f"game {row['key']}: action {a} does not replay")
        if seats[side] and s["phase"][0] <= PHASE_CONTROL and mask.sum() >= 2:
            out[0].append(s.copy())
            out[1].append(side)
            out[2].append(np.packbits(mask))
            out[3].append(a)
        apply_action(s[0], a, ev, ev_n)
    if s["phase"][0] != PHASE_OVER:
        raise ValueError(f"game {row['key']}: its actions do not end the game")
    won = {"ziegler": 0, "technocrat": 1}.get(row["winner"])
    out[4].extend(0.0 if won is None else (1.0 if side == won else -1.0) for side in out[1])
    return out


def stage_data(args, out: Path):
    from hotspot.arena import canonical_agent

    expert = canonical_agent(args.expert)
    rows = []
    for source in args.games_from:
        found = [r for r in game_rows(Path(source)) if expert in (r["technocrat"], r["ziegler"]) and r.get("actions")]
        rows += sorted(found, key=lambda r: r["key"])[: args.max_games]
    rows = [r for r in rows if not r.get("adjudication")]  # games played to their end: their outcome is real
    if not rows:
        sys.exit(f"no games of {expert} with their actions in {args.games_from or 'nothing named (--games-from)'}")
    rows.sort(key=lambda r: r["key"])
    if args.tiny:
        rows = rows[:4]
    cols = ([], [], [], [], [])
    game = []
    for g, row in enumerate(rows):
        part = expert_decisions(row, expert)
        for c, p in zip(cols, part):
            c.extend(p)
        game += [g] * len(part[0])
    np.savez_compressed(
        out / "data.npz",
        states=np.concatenate(cols[0]),
        sides=np.array(cols[1], np.int64),
        masks=np.array(cols[2], np.uint8),
        actions=np.array(cols[3], np.int64),
        outcomes=np.array(cols[4], np.float32),
        games=np.array(game, np.int64),
        expert=np.str_(expert),
    )
    print(f"data: {len(game)} decisions from {len(rows)} games of {expert} -> {out / 'data.npz'}")


def load_data(out: Path) -> dict:
    """``data.npz`` and every ``dagger_N.npz`` of the run as one dataset: game
    ids kept apart, ``expert_game`` true on the expert's own games' rows."""
    parts, offset = [], 0
    for path in [out / "data.npz"] + sorted(out.glob("dagger_*.npz"), key=lambda q: int(q.stem.split("_")[1])):
        with np.load(path, allow_pickle=False) as f:
            part = {k: f[k] for k in ("states", "sides", "masks", "actions", "outcomes", "games")}
        part["games"] = part["games"] + offset
        offset = int(part["games"].max()) + 1 if len(part["games"]) else offset
        part["expert_game"] = np.full(len(part["actions"]), path.name == "data.npz")
        parts.append(part)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


# ------------------------------------------------------------------ dagger


def _learner_games(job):
    """Worker: the network's games against ``opponent`` in seat ``side``; the
    true states of the decisions kept (probability ``p``), the game of each,
    and (``shadow``: an expert's spec) the shadowing expert's action there:
    one expert a game, asked at every decision of the network's seat in a
    phase of play, so that it plans each phase at its start and follows that
    plan as the network's moves unfold (its labels belong to one plan, as its
    own decisions do); else None."""
    from hotspot.agents.planes_net import PlanesAgent
    from hotspot.arena import make_agent
    from hotspot.arena.match import agent_seeds

    net_path, opponent, scenario, side, seeds, p, shadow = job
    learner = PlanesAgent(path=str(net_path))
    g = np.random.default_rng(seeds[0])
    kept, game_of, labels = [], [], []
    for seed in seeds:
        game = Game(scenario, seed=int(seed), max_turns=200)
        agents = [None, None]
        agents[side], agents[1 - side] = learner, make_agent(opponent)
        for k, agent in enumerate(agents):
            agent.reset(agent_seeds(int(seed))[k])
        expert = make_agent(shadow, seed=agent_seeds(int(seed))[side]) if shadow else None
        while not game.is_terminal():
            who = game.current_player()
            mask = game.legal_action_mask()
            mine = who == side and game.s["phase"] <= PHASE_CONTROL
            label = int(expert.act(game.observation(who), mask, who)) if expert is not None and mine else None
            if mine and mask.sum() >= 2 and g.random() < p:
                kept.append(game.state.copy())
                game_of.append(int(seed))
                labels.append(label)
            game.apply_action(int(agents[who].act(game.observation(who), mask, who)))
    return kept, game_of, (labels if shadow else None)


def _expert_actions(job):
    """Worker: the expert's action at each state (a fresh agent a state, seeded)."""
    from hotspot.arena import make_agent

    expert, states, seeds = job
    out = []
    for s, seed in zip(states, seeds):
        game = Game(_state=s.copy(), _record=None)
        side = game.current_player()
        out.append(int(make_agent(expert, seed=int(seed)).act(game.observation(side), game.legal_action_mask(), side)))
    return out


def stage_dagger(args, out: Path):
    from concurrent.futures import ProcessPoolExecutor

    from hotspot.arena import canonical_agent
    from hotspot.arena.match import check_scenario

    check_scenario(args.scenario)
    expert, opponent = canonical_agent(args.expert), canonical_agent(args.opponent)
    if not (0.0 < args.dagger_p <= 1.0):
        sys.exit(f"--dagger-p must be in (0, 1], got {args.dagger_p}")
    if not (out / "net.npz").exists():
        sys.exit(f"dagger: no network at {out / 'net.npz'} (run the fit stage first)")
    round_ = 1 + len(list(out.glob("dagger_*.npz")))
    t0 = time.time()
    first = 2_000_000 + 10_000 * round_  # seeds apart from the expert games' and eval's
    games = 1 if args.tiny else args.dagger_games
    workers = args.workers or os.cpu_count() or 1
    jobs = [
        (
            out / "net.npz",
            opponent,
            args.scenario,
            side,
            list(range(first + w, first + games, workers)),
            args.dagger_p,
            expert if args.labels == "shadow" else None,
        )
        for side in (1, 0)
        for w in range(min(workers, games))
    ]
    with ProcessPoolExecutor(workers) as ex:
        played = list(ex.map(_learner_games, jobs))
        states = [s for kept, _, _ in played for s in kept]
        game_of = [2 * gs + job[3] for (_, gos, _), job in zip(played, jobs) for gs in gos]
        if not states:
            sys.exit("dagger: no decisions kept (raise --dagger-p or --dagger-games)")
        if args.labels == "shadow":
            labels = [a for _, _, part in played for a in part]
        else:
            chunks = np.array_split(np.arange(len(states)), max(1, min(len(states), workers * 8)))
            label_jobs = [(expert, [states[i] for i in c], [first + int(i) for i in c]) for c in chunks if len(c)]
            labels = [a for part in ex.map(_expert_actions, label_jobs) for a in part]
    sides, masks = [], []
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    for s in states:
        sides.append(int(current_player(s[0])))
        legal_action_mask(s[0], mask)
        masks.append(np.packbits(mask))
    path = out / f"dagger_{round_}.npz"
    np.savez_compressed(
        path,
        states=np.concatenate(states),
        sides=np.array(sides, np.int64),
        masks=np.array(masks, np.uint8),
        actions=np.array(labels, np.int64),
        outcomes=np.zeros(len(labels), np.float32),  # not a target: the value learns from the expert's games
        games=np.unique(game_of, return_inverse=True)[1].astype(np.int64),
        expert=np.str_(expert),
    )
    print(
        f"dagger: {len(labels)} positions of the network's {2 * games} games against {opponent}, labelled by {expert}, "
        f"in {time.time() - t0:.0f} s -> {path}"
    )


# ------------------------------------------------------------------ fit


def torch_net(channels: int, blocks: int, hidden: int = 64):
    import torch
    from torch import nn

    from hotspot.agents.planes_net import ON_GRID
    from hotspot.features.planes import NUM_CELL_CHANNELS, NUM_GLOBAL_ACTIONS

    mask, on_grid = torch.tensor(HEX_KERNEL_MASK), torch.tensor(ON_GRID)

    class HexConv(nn.Conv2d):
        def __init__(self, i, o):
            super().__init__(i, o, 3, padding=1)

        def forward(self, x):
            return nn.functional.conv2d(x, self.weight * mask, self.bias, padding=1) * on_grid

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = HexConv(NUM_PLANES, channels)
            self.blocks = nn.ModuleList(
                nn.ModuleList([HexConv(channels, channels), HexConv(channels, channels)]) for _ in range(blocks)
            )
            self.policy = nn.Conv2d(channels, NUM_CELL_CHANNELS, 1)
            self.glob = nn.Linear(channels, NUM_GLOBAL_ACTIONS)
            self.value1 = nn.Linear(channels, hidden)
            self.value2 = nn.Linear(hidden, 1)

        def forward(self, planes):
            x = torch.relu(self.stem(planes))
            for c1, c2 in self.blocks:
                x = torch.relu(x + c2(torch.relu(c1(x))))
            pooled = x.sum(dim=(2, 3)) / on_grid.sum()
            cells = self.policy(x) * on_grid
            logits = torch.cat([cells.flatten(1), self.glob(pooled)], dim=1)
            value = torch.tanh(self.value2(torch.relu(self.value1(pooled))))[:, 0]
            return logits, value

        def export(self) -> PlanesNet:
            sd = {k: v.detach().numpy() for k, v in self.state_dict().items()}
            a = {"stem_w": sd["stem.weight"] * HEX_KERNEL_MASK, "stem_b": sd["stem.bias"]}
            for i in range(blocks):
                for j in (1, 2):
                    a[f"block{i}_{j}_w"] = sd[f"blocks.{i}.{j - 1}.weight"] * HEX_KERNEL_MASK
                    a[f"block{i}_{j}_b"] = sd[f"blocks.{i}.{j - 1}.bias"]
            a["policy_w"], a["policy_b"] = sd["policy.weight"][:, :, 0, 0], sd["policy.bias"]
            a["global_w"], a["global_b"] = sd["glob.weight"], sd["glob.bias"]
            for name in ("value1", "value2"):
                a[f"{name}_w"], a[f"{name}_b"] = sd[f"{name}.weight"], sd[f"{name}.bias"]
            return PlanesNet(a)

        def load(self, net: PlanesNet) -> None:
            """Start from an exported network (``--init``): ``export``'s inverse."""
            a, sd = net.arrays, {}
            if net.channels != channels or net.blocks != blocks:
                sys.exit(f"--init: net.npz is {net.channels} x {net.blocks}, not {channels} x {blocks}")
            sd["stem.weight"], sd["stem.bias"] = a["stem_w"], a["stem_b"]
            for i in range(blocks):
                for j in (1, 2):
                    sd[f"blocks.{i}.{j - 1}.weight"] = a[f"block{i}_{j}_w"]
                    sd[f"blocks.{i}.{j - 1}.bias"] = a[f"block{i}_{j}_b"]
            sd["policy.weight"], sd["policy.bias"] = a["policy_w"][:, :, None, None], a["policy_b"]
            sd["glob.weight"], sd["glob.bias"] = a["global_w"], a["global_b"]
            for name in ("value1", "value2"):
                sd[f"{name}.weight"], sd[f"{name}.bias"] = a[f"{name}_w"], a[f"{name}_b"]
            self.load_state_dict({k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in sd.items()})

    return Net()


def encode(data: dict, idx: np.ndarray):
    """The planes, the legal actions' slots and the targets of decisions ``idx``."""
    states = data["states"][idx]
    slots = np.zeros((len(idx), NUM_ACTIONS), np.int64)
    planes = board_planes(states, data["sides"][idx], slots=slots)
    masks = np.unpackbits(data["masks"][idx], axis=1, count=NUM_ACTIONS).astype(bool)
    return planes, slots, masks, data["actions"][idx], data["outcomes"][idx]


def value_brier(net, data: dict, idx: np.ndarray, batch: int) -> tuple[float, float]:
    """The Brier score of the Technocrat's expected score against the game's
    result (1 a win, 0 a loss, 1/2 a draw) at decisions ``idx``: by the value
    head (``(v + 1) / 2`` for the side that sees) and by the shipped plan
    value, the adjudication's judge, at the same positions."""
    import torch

    from hotspot.arena.adjudication import judge_nets
    from hotspot.arena.turn_points import state_point

    nets, head, judge, actual = judge_nets(), [], [], []
    for i in range(0, len(idx), batch):
        part = idx[i : i + batch]
        planes, *_ = encode(data, part)
        with torch.no_grad():
            v = net(torch.from_numpy(planes))[1].numpy()
        side, outcome = data["sides"][part], data["outcomes"][part]
        mine, result = (v + 1) / 2, (outcome + 1) / 2  # the side's expected and actual score
        head += list(np.where(side == 1, mine, 1 - mine))
        actual += list(np.where(side == 1, result, 1 - result))
        judge += [state_point(data["states"][j], nets)[0] for j in part]
    actual = np.array(actual)
    return float(np.mean((np.array(head) - actual) ** 2)), float(np.mean((np.array(judge) - actual) ** 2))


def stage_fit(args, out: Path):
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    data = load_data(out)
    g = np.random.default_rng(args.seed)
    games = np.unique(data["games"][data["expert_game"]])  # held out: the expert's games only
    held = set(g.choice(games, size=max(1, len(games) // 10), replace=False).tolist())
    is_held = np.isin(data["games"], list(held)) & data["expert_game"]
    train_idx, test_idx = np.flatnonzero(~is_held), np.flatnonzero(is_held)
    if args.dagger_repeat < 1:
        sys.exit(f"--dagger-repeat must be 1 or more, got {args.dagger_repeat}")
    dagger_idx = train_idx[~data["expert_game"][train_idx]]
    train_idx = np.concatenate(
        [train_idx] + [dagger_idx] * (args.dagger_repeat - 1)
    )  # the learner's own positions weigh more
    net = torch_net(args.channels, args.blocks)
    if args.init:
        net.load(PlanesNet.load(out / "net.npz"))
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)

    def losses(idx):
        planes, slots, masks, actions, outcomes = encode(data, idx)
        logits, value = net(torch.from_numpy(planes))
        legal = torch.gather(logits, 1, torch.from_numpy(slots)).masked_fill(~torch.from_numpy(masks), -1e9)
        ce = torch.nn.functional.cross_entropy(legal, torch.from_numpy(actions))
        weight = torch.from_numpy(data["expert_game"][idx].astype(np.float32))  # DAgger rows: no value target
        mse = torch.sum(weight * (value - torch.from_numpy(outcomes)) ** 2) / torch.clamp(weight.sum(), min=1.0)
        top1 = (legal.argmax(1).numpy() == actions).mean()
        return ce, mse, top1

    t0 = time.perf_counter()
    epochs = 1 if args.tiny else args.epochs
    for epoch in range(epochs):
        g.shuffle(train_idx)
        epoch_idx = train_idx[: args.decisions]
        for i in range(0, len(epoch_idx), args.batch):
            ce, mse, _ = losses(epoch_idx[i : i + args.batch])
            opt.zero_grad()
            (ce + args.value_weight * mse).backward()
            opt.step()
            if (i // args.batch) % 500 == 0:
                print(f"epoch {epoch + 1}: {i}/{len(epoch_idx)} decisions, cross-entropy {ce.item():.3f}", flush=True)
        with torch.no_grad():  # the held-out decisions in batches (planes take 72 KB a decision)
            parts = [losses(test_idx[i : i + 4 * args.batch]) for i in range(0, len(test_idx), 4 * args.batch)]
            n = [len(test_idx[i : i + 4 * args.batch]) for i in range(0, len(test_idx), 4 * args.batch)]
            ce, mse, top1 = (float(np.average([float(p[k]) for p in parts], weights=n)) for k in range(3))
        print(f"epoch {epoch + 1}: held-out cross-entropy {ce:.3f}, value mse {mse:.3f}, top-1 {top1:.3f}")
    brier = value_brier(net, data, test_idx[:20_000], args.batch)
    print(
        f"held-out Brier of the Technocrat's score: the value head {brier[0]:.4f}, the shipped plan value {brier[1]:.4f}"
    )
    exported = net.export()
    with torch.no_grad():  # the numpy forward pass is the torch one
        planes, *_ = encode(data, test_idx[:8])
        ref_logits, ref_value = net(torch.from_numpy(planes))
    logits, value = exported.forward(planes)
    gap = max(np.abs(logits - ref_logits.numpy()).max(), np.abs(value - ref_value.numpy()).max())
    if gap > 1e-3:
        sys.exit(f"fit: the exported network differs from torch's by {gap:.2g}")
    exported.save(out / "net.npz")
    report = {
        "decisions": len(data["actions"]),
        "dagger_decisions": int((~data["expert_game"]).sum()),
        "init": bool(args.init),
        "held_out": len(test_idx),
        "held_out_cross_entropy": float(ce),
        "held_out_value_mse": float(mse),
        "held_out_top1": float(top1),
        "held_out_brier": brier[0],
        "plan_value_brier": brier[1],
        "channels": args.channels,
        "blocks": args.blocks,
        "epochs": epochs,
        "decisions_an_epoch": len(train_idx[: args.decisions]),
        "dagger_repeat": args.dagger_repeat,
        "wall_s": round(time.perf_counter() - t0, 1),
    }
    (out / "fit.json").write_text(json.dumps(report, indent=1) + "\n")
    print(f"fit: {out / 'net.npz'} ({report})")


# ------------------------------------------------------------------ eval


def stage_eval(args, out: Path):
    from hotspot.arena.compare import run_compare

    agent = f"planes(path={out / 'net.npz'})"
    pairs = 4 if args.tiny else args.pairs
    result = run_compare(
        agent, args.opponent, out=out / "eval", games=pairs, step=2 if args.tiny else 10, workers=args.workers
    )
    print(result["text"] if isinstance(result, dict) and "text" in result else result)


# ------------------------------------------------------------------ generations


def stage_keep(args, out: Path):
    from hotspot.arena.compare import run_compare

    if not (out / "net.npz").exists():
        sys.exit(f"keep: no network at {out / 'net.npz'} (run the fit stage first)")
    gdir = out / "generations"
    gdir.mkdir(exist_ok=True)
    log_path = gdir / "generations.json"
    log = json.loads(log_path.read_text()) if log_path.exists() else []
    n = len(log)
    candidate = gdir / f"candidate_{n}.npz"
    shutil.copyfile(out / "net.npz", candidate)
    kept = [e for e in log if e["kept"]]
    if not kept:
        entry = {"candidate": n, "kept": True, "elo": 0.0, "low": 0.0, "high": 0.0, "from_gen0": 0.0}
        entry |= {"against": None, "pairs": 0, "verdict": "generation 0"}
    else:
        last = kept[-1]
        pairs = 4 if args.tiny else args.pairs
        result = run_compare(
            f"planes(path={candidate})",
            f"planes(path={gdir / last['file']})",
            out=gdir / f"test_{n}",
            games=pairs,
            step=2 if args.tiny else 10,
            workers=args.workers,
            progress=False,
        )
        e, decision = result["elo"], result["sprt"]["decision"]
        entry = {"candidate": n, "kept": decision == "H1", "elo": e["elo"], "low": e["low"], "high": e["high"]}
        entry |= {"from_gen0": last["from_gen0"] + e["elo"], "against": last["file"], "pairs": result["pairs"]["pairs"]}
        entry["verdict"] = result["verdict"]
    entry["file"] = candidate.name
    entry["generation"] = len(kept) if entry["kept"] else None
    log.append(entry)
    log_path.write_text(json.dumps(log, indent=1, default=float) + "\n")
    _chart_generations(log, gdir / "generations.png")
    status = f"generation {entry['generation']}" if entry["kept"] else "not kept"
    print(f"keep: candidate {n} ({entry['verdict']}): {status}; Elo from generation 0 {entry['from_gen0']:+.0f}")


def _chart_generations(log: list[dict], path: Path) -> None:
    """Each candidate's Elo from generation 0 (kept ones filled), if matplotlib is there."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for e in log:
        x, y = e["candidate"], e["from_gen0"]
        ax.errorbar(
            x, y, yerr=[[e["elo"] - e["low"]], [e["high"] - e["elo"]]], fmt="o" if e["kept"] else "x", color="k"
        )
    ax.set_xlabel("candidate")
    ax.set_ylabel("Elo from generation 0")
    ax.set_title("planes network generations (filled: kept)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None) -> int:
    args = parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stages = {"data": stage_data, "fit": stage_fit, "dagger": stage_dagger, "eval": stage_eval, "keep": stage_keep}
    stages[args.stage](args, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
