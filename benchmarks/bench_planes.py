"""What the board's planes and the planes network cost a decision, on one core.

    python benchmarks/bench_planes.py          # about a minute
    python benchmarks/bench_planes.py --tiny   # CI smoke run (the numbers mean nothing)

Positions: every 7th state of games between the compiled scripted players on
``open`` (true states, both sides to move).  Reported, per state, from a warm
cache: ``features.planes.board_planes`` one state a call and in a batch of
all of them (with ``action_slots``), and the forward pass of
``agents.planes_net.PlanesNet`` (compiled, one thread) for one state at a
time at a few sizes (channels x residual blocks; random weights: the cost
does not depend on them), and, where torch and onnxruntime are installed,
the same 32 x 3 network exported by torch and run by onnxruntime on one
thread.  numpy's own matrix product is not used: on two busy cores its BLAS
threads cost far more than the compiled loops.
"""

from __future__ import annotations

import time
from pathlib import Path

import _common as C
import numpy as np

import hotspot.core as hc
from hotspot.agents.planes_net import PlanesNet
from hotspot.agents.policies import policy_action
from hotspot.core.actions import NUM_ACTIONS, apply_action, current_player
from hotspot.core.rules_data import PHASE_OVER, TECHNOCRAT
from hotspot.features.planes import board_planes


def positions(games: int, every: int = 7) -> np.ndarray:
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev, ev_n = hc.no_events()
    out = []
    for g in range(games):
        states = hc.init("open", seeds=g)
        s = states[0]
        rng = np.array([g + 1, g + 2], dtype=np.uint64)
        i = 0
        while s["phase"] != PHASE_OVER:
            side = current_player(s)
            if i % every == 0:
                out.append(states.copy())
            apply_action(s, policy_action("scripted", s, mask, rng, side), ev, ev_n)
            i += 1
    return np.concatenate(out)


def onnx_ms(planes: np.ndarray) -> float | None:
    """The 32 x 3 network's forward pass in onnxruntime on one thread (ms), exported by
    torch from training/train_planes.py's network; None without torch or onnxruntime."""
    try:
        import onnxruntime
        import torch
    except ImportError:
        return None
    import sys
    import tempfile

    sys.path.insert(0, str(C.REPO_ROOT / "training"))
    from train_planes import torch_net

    torch.manual_seed(0)
    net = torch_net(32, 3)
    path = Path(tempfile.mkdtemp()) / "planes.onnx"
    torch.onnx.export(net, (torch.from_numpy(planes),), str(path), input_names=["planes"], dynamo=False)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    logits = session.run(None, {"planes": planes})[0]
    if np.abs(logits - net.export().forward(planes)[0]).max() > 1e-3:
        raise SystemExit("bench_planes: onnxruntime's logits differ from the network's")
    return per_call(lambda: session.run(None, {"planes": planes}), 300) * 1e3


def per_call(fn, n: int) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n


def main(argv=None) -> int:
    p = C.make_parser("bench_planes", __doc__)
    args = p.parse_args(argv)
    states = positions(2 if args.tiny else 20)
    sides = np.array([TECHNOCRAT] * len(states))
    slots = np.zeros((len(states), NUM_ACTIONS), np.int64)
    board_planes(states[:2], sides[:2], slots=slots[:2])  # warm
    n_one = min(len(states), 20 if args.tiny else 500)
    t0 = time.perf_counter()
    for i in range(n_one):  # each position once: the set-up's empty boards cost less than a battle
        board_planes(states[i : i + 1], TECHNOCRAT)
    one = (time.perf_counter() - t0) / n_one
    t0 = time.perf_counter()
    planes = board_planes(states, sides, slots=slots)
    batch = (time.perf_counter() - t0) / len(states)
    rows = [
        {"what": "board_planes, one state a call", "states": 1, "ms": one * 1e3},
        {"what": "board_planes + action_slots, a batch", "states": len(states), "ms": batch * 1e3},
    ]
    for channels, blocks in [(8, 1)] if args.tiny else [(16, 2), (32, 3), (64, 6)]:
        net = PlanesNet.init(channels, blocks, seed=0)
        net.forward(planes[:1])  # compile
        ms = per_call(lambda net=net: net.forward(planes[-1:]), 5 if args.tiny else 100) * 1e3
        rows.append({"what": f"forward, {channels} channels x {blocks} blocks", "states": 1, "ms": ms})
    onnx = None if args.tiny else onnx_ms(planes[-1:])
    if onnx is not None:
        rows.append({"what": "onnxruntime, 32 channels x 3 blocks (one thread)", "states": 1, "ms": onnx})
    C.print_table(
        f"The planes and the planes network on one core ({len(states)} positions of scripted games on open)",
        ["what", "states", "ms a state"],
        [[r["what"], r["states"], f"{r['ms']:.3f}"] for r in rows],
    )
    C.write_result(
        args,
        "bench_planes",
        {"positions": len(states), "source": "every 7th state of scripted games on open"},
        rows,
        {"encode_ms": one * 1e3, "encode_batch_ms": batch * 1e3, "forward_ms": {r["what"]: r["ms"] for r in rows[2:]}},
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
