"""Train the planes network (``hotspot.agents.planes_net``, the agent
``planes(path=...)``) on a search's decisions: the board as hex planes in,
the search's choice and the game's outcome out.

One command a stage, each writing into ``--out`` (default ``runs/planes``)::

    python training/train_planes.py data --games-from FOLDER ...  # the expert's decisions -> data.npz
    python training/train_planes.py fit                           # torch, CPU: policy + value -> net.npz
    python training/train_planes.py eval                          # hotspot compare planes(path=net.npz) scripted

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
(held-out top-1 agreement with the expert and losses).  ``eval`` runs the
sequential test of ``hotspot compare`` between ``planes(path=net.npz)`` and
``--opponent`` (default ``scripted``) on mirrored pairs.  ``--tiny`` runs a
stage at a smoke-test size.  Extra: ``pip install ".[train]"`` (torch) for
``fit``; the other stages need only the package.
"""

from __future__ import annotations

import argparse
import gzip
import json
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
    p.add_argument("stage", choices=["data", "fit", "eval"])
    p.add_argument("--out", default="runs/planes", help="the run's folder (default runs/planes)")
    p.add_argument("--games-from", nargs="*", default=[], help="arena folders or games.jsonl(.gz) files (data)")
    p.add_argument("--expert", default="best", help="the teacher agent's spec (default best)")
    p.add_argument("--seed", type=int, default=2412)
    p.add_argument("--channels", type=int, default=32)
    p.add_argument("--blocks", type=int, default=3)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--decisions", type=int, default=None, help="fit: at most this many training decisions an epoch")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--value-weight", type=float, default=0.5, help="the value loss's weight (default 0.5)")
    p.add_argument("--opponent", default="scripted", help="eval: the opponent (default scripted)")
    p.add_argument("--pairs", type=int, default=500, help="eval: the most mirrored pairs (default 500)")
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
        rows += [r for r in game_rows(Path(source)) if expert in (r["technocrat"], r["ziegler"]) and r.get("actions")]
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
    with np.load(out / "data.npz", allow_pickle=False) as f:
        data = {k: f[k] for k in f.files}
    g = np.random.default_rng(args.seed)
    games = np.unique(data["games"])
    held = set(g.choice(games, size=max(1, len(games) // 10), replace=False).tolist())
    is_held = np.array([x in held for x in data["games"]])
    train_idx, test_idx = np.flatnonzero(~is_held), np.flatnonzero(is_held)
    net = torch_net(args.channels, args.blocks)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)

    def losses(idx):
        planes, slots, masks, actions, outcomes = encode(data, idx)
        logits, value = net(torch.from_numpy(planes))
        legal = torch.gather(logits, 1, torch.from_numpy(slots)).masked_fill(~torch.from_numpy(masks), -1e9)
        ce = torch.nn.functional.cross_entropy(legal, torch.from_numpy(actions))
        mse = torch.mean((value - torch.from_numpy(outcomes)) ** 2)
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


def main(argv=None) -> int:
    args = parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    {"data": stage_data, "fit": stage_fit, "eval": stage_eval}[args.stage](args, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
