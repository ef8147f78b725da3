"""PPO with action masking on ``HotspotVectorEnv``, in one file (CleanRL's
``ppo.py`` form, Huang et al. 2022; invalid-action masking as in Huang and
Ontañón 2020), torch on the CPU.

The actor is the per-action policy of ``hotspot.agents.action_policy``: it
scores each legal action from the decision's and the action's features
(computed from the learner's information state, ``envs.information_states()``,
D20) and samples from the softmax over the legal actions, so illegal actions
are never drawn; the critic is an MLP on the decision features.  In the
set-up phases (3.2, 3.3, D21) the learner plays the scripted deployment plan
(not trained), as the ``learned`` agent does.  ``--init`` starts the actor
from a trained policy (``training/train_policy.py``'s ``policy.npz``).

Every ``--eval-every`` updates the actor is exported and plays ``--eval-games``
games a seat against ``random`` and against ``scripted`` (compiled, the same
seeds each time); the curve (win rate per seat and opponent against env
steps and wall time) goes to ``curve.csv``, TensorBoard (``runs/ppo/tb`` if
tensorboard is installed) and ``curve.png``; the final actor to
``policy.npz`` (numpy inference: ``ActionPolicyAgent(weights=...)``).
``--max-minutes``, Ctrl-C or SIGTERM end the run after the current update,
with a last evaluation and the policy saved.

    python training/train_ppo.py --total-steps 2000000            # Technocrat vs random on open
    python training/train_ppo.py --opponent scripted --init runs/policy/policy.npz

Extra: ``pip install ".[train]"`` (torch).  Seeds fixed by ``--seed``; the
same seed and thread count give the same run.
"""

from __future__ import annotations

import argparse
import csv
import json
import signal
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from hotspot.agents.action_policy import PolicyNet, featurize
from hotspot.agents.base import POLICY_RANDOM, POLICY_SCRIPTED
from hotspot.agents.imitation import evaluate
from hotspot.agents.scripted import make_work, scripted_decide
from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.rules_data import PHASE_CONTROL, side_index
from hotspot.env.vector_env import HotspotVectorEnv
from hotspot.features.actions import NUM_ACTION_FEATURES, new_action_work
from hotspot.features.decision import NUM_DECISION_FEATURES


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default="runs/ppo")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--side",
        default="technocrat",
        choices=["technocrat", "ziegler", "both"],
        help="the learner's seat; both: half the games in each seat, one network",
    )
    p.add_argument("--opponent", default="random", choices=["random", "scripted"])
    p.add_argument("--scenario", default="open")
    p.add_argument("--max-turns", type=int, default=200)
    p.add_argument("--total-steps", type=int, default=1_000_000, help="learner decisions in all")
    p.add_argument("--max-minutes", type=float, default=0.0, help="stop after this wall time (0: none)")
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--num-steps", type=int, default=128, help="steps a rollout, per env")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--shaping", type=float, default=0.0, help="potential-based shaping (the env's reward_shaping)")
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--init", default=None, help="start the actor from this policy.npz")
    p.add_argument("--eval-every", type=int, default=10, help="updates between evaluations")
    p.add_argument("--eval-games", type=int, default=100, help="games a seat and opponent per evaluation")
    p.add_argument("--eval-seed", type=int, default=9001)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--tiny", action="store_true", help="smoke-test sizes")
    args = p.parse_args(argv)
    if args.tiny:
        args.total_steps, args.num_envs, args.num_steps, args.eval_every, args.eval_games = 64, 2, 16, 1, 2
        args.max_turns, args.hidden = 3, 8
    return args


class Actor(nn.Module):
    """score(action) = MLP([decision features, action features]): the PolicyNet's function."""

    def __init__(self, h):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(NUM_DECISION_FEATURES + NUM_ACTION_FEATURES, h),
            nn.ReLU(),
            nn.Linear(h, h),
            nn.ReLU(),
            nn.Linear(h, 1),
        )

    def logits(self, xs, xa, valid):
        x = torch.cat([xs[:, None, :].expand(-1, xa.shape[1], -1), xa], dim=-1)
        return self.net(x).squeeze(-1).masked_fill(~valid, float("-inf"))

    def to_policy(self, generation=0, teacher="ppo") -> PolicyNet:
        l0, l1, l2 = self.net[0], self.net[2], self.net[4]
        a = [t.detach().double().numpy() for t in (l0.weight, l0.bias, l1.weight, l1.bias, l2.weight[0], l2.bias)]
        return PolicyNet(*a, generation=generation, teacher=teacher)

    def load_policy(self, net: PolicyNet):
        W0, b0, W1, b1, w2, b2 = (torch.from_numpy(x.astype(np.float32)) for x in net.arrays)
        with torch.no_grad():
            for layer, (w, b) in zip((self.net[0], self.net[2], self.net[4]), ((W0, b0), (W1, b1), (w2[None], b2))):
                layer.weight.copy_(w)
                layer.bias.copy_(b)


class Seats:
    """One or two ``HotspotVectorEnv`` (a seat each) stepped as one batch."""

    def __init__(self, seats, num_envs, **kw):
        per = [num_envs // len(seats) + (i < num_envs % len(seats)) for i in range(len(seats))]
        self.envs = [HotspotVectorEnv(n, side=s, **kw) for s, n in zip(seats, per)]
        self.sides = np.concatenate([np.full(e.num_envs, e.side) for e in self.envs])
        self.cut = np.cumsum([e.num_envs for e in self.envs])[:-1]

    def reset(self, seed):
        for j, e in enumerate(self.envs):
            e.reset(seed=seed + 1_000_003 * j)

    def information_states(self):
        return np.concatenate([e.information_states() for e in self.envs])

    def action_masks(self):
        return np.concatenate([e.action_masks() for e in self.envs])

    def step(self, actions):
        parts = [e.step(a) for e, a in zip(self.envs, np.split(actions, self.cut))]
        return tuple(np.concatenate([p[k] for p in parts]) for k in range(1, 4))


def pad(rows):
    """A list of (n_i, F) arrays as a padded tensor (B, L, F) and its valid mask (B, L)."""
    L = max(len(r) for r in rows)
    xa = np.zeros((len(rows), L, NUM_ACTION_FEATURES), np.float32)
    valid = np.zeros((len(rows), L), bool)
    for i, r in enumerate(rows):
        xa[i, : len(r)] = r
        valid[i, : len(r)] = True
    return torch.from_numpy(xa), torch.from_numpy(valid)


def main(argv=None):  # noqa: C901 (a training script read top to bottom (CleanRL))
    args = parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(vars(args), indent=1))
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    seats = [1, 0] if args.side == "both" else [side_index(args.side)]
    envs = Seats(
        seats,
        args.num_envs,
        opponent=args.opponent,
        scenario=args.scenario,
        max_turns=args.max_turns,
        observation="compact",
        reward_shaping=args.shaping,
        shaping_gamma=args.gamma,
        copy=True,
    )
    actor = Actor(args.hidden)
    if args.init:
        actor.load_policy(PolicyNet.load(args.init))
    critic = nn.Sequential(
        nn.Linear(NUM_DECISION_FEATURES, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1)
    )
    params = list(actor.parameters()) + list(critic.parameters())
    optimizer = torch.optim.Adam(params, lr=args.lr, eps=1e-5)
    writer = None
    try:
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(str(out / "tb"))
    except ImportError:  # tensorboard is optional: the CSV has the same curve
        pass

    T, N = args.num_steps, len(envs.sides)
    w, xs1, xa1 = new_action_work(), np.zeros(NUM_DECISION_FEATURES), np.zeros((NUM_ACTIONS, NUM_ACTION_FEATURES))
    setup_work, setup_rng = make_work(), np.array([args.seed], dtype=np.uint64)
    curve_path = out / "curve.csv"
    fields = ["update", "env_steps", "wall_s", "episodes", "train_return"] + [
        f"{opp}_{seat}" for opp in ("random", "scripted") for seat in ("technocrat", "ziegler")
    ]
    curve_file = open(curve_path, "w", newline="")  # noqa: SIM115 (open for the whole run, a row per evaluation)
    curve = csv.DictWriter(curve_file, fieldnames=fields)
    curve.writeheader()

    def observe_batch():
        """Features, legal actions and trained-or-not of each game's decision."""
        info_states, masks = envs.information_states(), envs.action_masks()
        xs = np.zeros((N, NUM_DECISION_FEATURES), np.float32)
        rows, acts, fixed = [], [], np.full(N, -1)
        for i in range(N):
            legal = np.flatnonzero(masks[i]).astype(np.int64)
            o = info_states[i]
            if o["phase"] > PHASE_CONTROL:  # set-up (the scripted plan), a finished game (the reset action)
                fixed[i] = (
                    scripted_decide(o, masks[i], envs.sides[i], setup_rng, 0, *setup_work)
                    if len(legal) > 1
                    else legal[0]
                )
                legal = np.array([fixed[i]], np.int64)
            featurize(o, legal, len(legal), w, xs1, xa1)
            xs[i] = xs1
            rows.append(xa1[: len(legal)].astype(np.float32))
            acts.append(legal)
        return xs, rows, acts, fixed

    def evaluation():
        policy = actor.to_policy()
        res = {}
        for opp_name, opp in (("random", POLICY_RANDOM), ("scripted", POLICY_SCRIPTED)):
            for seat, s in (("technocrat", 1), ("ziegler", 0)):
                res[f"{opp_name}_{seat}"] = float(
                    evaluate(policy, args.scenario, args.eval_seed, args.eval_games, s, opp, args.max_turns).mean()
                )
        return res

    stop = []  # Ctrl-C or SIGTERM: finish the update, evaluate, save the policy and the curve
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.append(True))
    envs.reset(seed=args.seed)
    xs, rows, acts, fixed = observe_batch()
    num_updates = max(1, args.total_steps // (T * N))
    t0 = time.time()
    env_steps = episodes = 0
    returns_done = []
    ep_return = np.zeros(N)
    for update in range(1, num_updates + 1):
        b_xs, b_rows, b_idx, b_logp, b_val, b_rew, b_done, b_train = [], [], [], [], [], [], [], []
        for _t in range(T):
            xa, valid = pad(rows)
            xst = torch.from_numpy(xs)
            with torch.no_grad():
                logits = actor.logits(xst, xa, valid)
                value = critic(xst).squeeze(-1)
                probs = torch.distributions.Categorical(logits=logits)
                idx = probs.sample()
                logp = probs.log_prob(idx)
            idx = idx.numpy()
            train = fixed < 0
            idx[~train] = 0
            action = np.array([acts[i][idx[i]] for i in range(N)])
            b_xs.append(xs)
            b_rows.append(rows)
            b_idx.append(idx)
            b_logp.append(logp.numpy())
            b_val.append(value.numpy())
            b_train.append(train)
            reward, term, trunc = envs.step(action)
            done = term | trunc
            b_rew.append(reward.astype(np.float32))
            b_done.append(done)
            ep_return += reward
            for i in np.flatnonzero(done):
                returns_done.append(ep_return[i])
                ep_return[i] = 0
            episodes += int(done.sum())
            env_steps += int(train.sum())
            xs, rows, acts, fixed = observe_batch()
        with torch.no_grad():
            next_value = critic(torch.from_numpy(xs)).squeeze(-1).numpy()
        # generalized advantage estimation (the done flag of step t ends the episode after it)
        adv = np.zeros((T, N), np.float32)
        last = np.zeros(N, np.float32)
        for t in reversed(range(T)):
            nv = next_value if t == T - 1 else b_val[t + 1]
            nonterminal = 1.0 - b_done[t]
            delta = b_rew[t] + args.gamma * nv * nonterminal - b_val[t]
            last = delta + args.gamma * args.gae_lambda * nonterminal * last
            adv[t] = last
        ret = adv + np.array(b_val)
        flat_xs = np.concatenate(b_xs)
        flat_rows = [r for step in b_rows for r in step]
        flat_idx = np.concatenate(b_idx)
        flat_logp = np.concatenate(b_logp)
        flat_adv, flat_ret = adv.reshape(-1), ret.reshape(-1)
        flat_train = np.concatenate(b_train)
        B = T * N
        mb = max(1, B // args.num_minibatches)
        for _ in range(args.update_epochs):
            order = rng.permutation(B)
            for start in range(0, B, mb):
                j = order[start : start + mb]
                xa, valid = pad([flat_rows[k] for k in j])
                xst = torch.from_numpy(flat_xs[j])
                logits = actor.logits(xst, xa, valid)
                dist = torch.distributions.Categorical(logits=logits)
                idx_t = torch.from_numpy(flat_idx[j])
                ratio = torch.exp(dist.log_prob(idx_t) - torch.from_numpy(flat_logp[j]))
                a = torch.from_numpy(flat_adv[j])
                tr = torch.from_numpy(flat_train[j].astype(np.float32))
                if tr.sum() > 1:
                    mean = (a * tr).sum() / tr.sum()
                    std = torch.sqrt(((a - mean) ** 2 * tr).sum() / tr.sum()) + 1e-8
                    a = (a - mean) / std
                pg = torch.max(-a * ratio, -a * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef))
                pg_loss = (pg * tr).sum() / tr.sum().clamp(min=1)
                entropy = (dist.entropy() * tr).sum() / tr.sum().clamp(min=1)
                v_loss = 0.5 * ((critic(xst).squeeze(-1) - torch.from_numpy(flat_ret[j])) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(params, args.max_grad_norm)
                optimizer.step()
        out_of_time = bool(stop) or (args.max_minutes > 0 and time.time() - t0 > 60 * args.max_minutes)
        if update % args.eval_every == 0 or update == num_updates or out_of_time:
            row = {
                "update": update,
                "env_steps": env_steps,
                "wall_s": round(time.time() - t0, 1),
                "episodes": episodes,
                "train_return": round(float(np.mean(returns_done[-100:])), 4) if returns_done else "",
            }
            row.update(evaluation())
            curve.writerow(row)
            curve_file.flush()
            if writer is not None:
                for k, v in row.items():
                    if k not in ("update", "env_steps") and v != "":
                        writer.add_scalar(k, float(v), env_steps)
            print(json.dumps(row), flush=True)
        if out_of_time:
            break
    curve_file.close()
    actor.to_policy().save(out / "policy.npz")
    plot_curve(curve_path, out / "curve.png", args)


def plot_curve(csv_path: Path, png: Path, args):
    """The learning curve as a PNG (matplotlib, extra ``plots``; skipped without it)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return
    x = [int(r["env_steps"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, style in (
        ("random_technocrat", "-"),
        ("random_ziegler", "--"),
        ("scripted_technocrat", "-"),
        ("scripted_ziegler", "--"),
    ):
        opp, seat = key.split("_")
        ax.plot(x, [float(r[key]) for r in rows], style, label=f"as {seat} vs {opp}")
    ax.set_xlabel("learner decisions (env steps)")
    ax.set_ylabel(f"score ({args.eval_games} games a seat; a draw 1/2)")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(f"PPO as {args.side} vs {args.opponent} on {args.scenario}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    main()
