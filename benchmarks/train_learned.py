"""Train the learned agent (issue 5): MaskablePPO (sb3-contrib) on HotspotEnv,
one small MLP per side, then export the policy network to numpy
(``hotspot/agents/weights/learned_<side>.npz``) for ``hotspot.agents.learned``.

    pip install -e ".[train]"
    python benchmarks/train_learned.py --side technocrat --timesteps 100000 --seed 0
    python benchmarks/train_learned.py --side ziegler --timesteps 100000 --seed 0

The opponent is drawn per episode from ``--opponents`` (default: "random",
plus "scripted" when the compiled scripted policy exists).  The input is the
flat feature vector of ``hotspot.agents.learned.features`` (the env's
observation dict, flattened and scaled), so the exported network sees exactly
what the numpy agent computes from an information state.

Reward: +1/-1 at the end (the env's).  ``--shaping C`` (default 0.05 for the
Technocrat, 0 for the Ziegler) adds a potential-based term
``C * (gamma * phi(s') - phi(s))`` with ``phi`` = minus the hex distance from
the nearest own engineer squad to the Central Crustal (/10) plus the own
engineer squads left (/4): random Technocrats almost never win against the
random Ziegler, so the sparse reward alone gives little to learn from.
Potential-based shaping leaves the optimal policy unchanged.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

from hotspot.agents.learned import WEIGHTS_DIR, features, weights_path
from hotspot.agents.policies import POLICY_NAMES
from hotspot.core.rules_data import T_ENGINEER
from hotspot.env.hotspot_env import HotspotEnv, side_index


def _hex_distance(c0, r0, c1, r1):
    """Approximate hex distance between offset coordinates (for shaping only)."""
    dc = np.abs(c1 - c0)
    dr = np.abs(r1 - r0)
    return np.maximum(dc, dr + dc // 2)


def engineer_potential(obs: dict) -> float:
    units = obs["units"]
    central = obs["pieces"][0]
    mine = (units[:, 0] == 1) & (units[:, 1] == 1) & (units[:, 2] == T_ENGINEER)
    if not mine.any():
        return -2.0
    squads = np.maximum(units[mine, 3].astype(np.int64), 0).sum()
    cc = [(int(central[6 + 2 * i]), int(central[7 + 2 * i])) for i in range(3) if central[6 + 2 * i] >= 0]
    if not cc:
        return squads / 4.0
    uc = units[mine, 4].astype(np.int64)
    ur = units[mine, 5].astype(np.int64)
    d = min(int(_hex_distance(uc, ur, c, r).min()) for c, r in cc)
    return -d / 10.0 + squads / 4.0


class FlatHotspot(gym.Env):
    """HotspotEnv with flat float features, an opponent drawn per episode, and
    optional potential-based shaping; keeps ``action_masks()`` for MaskablePPO."""

    def __init__(self, side, opponents, scenario="standard", shaping=0.0, gamma=0.99, seed=0):
        self.envs = [HotspotEnv(side=side, opponent=o, scenario=scenario) for o in opponents]
        self.env = self.envs[0]
        self.shaping = float(shaping)
        self.gamma = float(gamma)
        self.rng = np.random.default_rng(seed)
        self.seed0 = int(seed)
        self.episode = 0
        probe, _ = self.env.reset(seed=self.seed0)
        dim = features(probe).shape[0]
        self.observation_space = gym.spaces.Box(-128.0, 32767.0, shape=(dim,), dtype=np.float32)
        self.action_space = gym.spaces.Discrete(self.env.action_space.n)
        self._phi = 0.0

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            self.seed0 = int(seed)
        self.env = self.envs[int(self.rng.integers(len(self.envs)))]
        obs, info = self.env.reset(seed=self.seed0 * 1_000_003 + self.episode)
        self.episode += 1
        self._phi = engineer_potential(obs) if self.shaping else 0.0
        return features(obs), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(int(action))
        if self.shaping:
            done = terminated or truncated
            phi = 0.0 if done else engineer_potential(obs)
            reward += self.shaping * (self.gamma * phi - self._phi)
            self._phi = phi
        return features(obs), float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()


def export_policy(model, path: Path, meta: dict) -> dict:
    """Write the policy MLP (hidden Linear layers + action head) as numpy arrays."""
    import torch
    policy = model.policy
    arrays = {}
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    acts = [m for m in policy.mlp_extractor.policy_net if not isinstance(m, torch.nn.Linear)]
    assert all(isinstance(a, torch.nn.Tanh) for a in acts), acts
    for i, lin in enumerate(linears):
        arrays[f"W{i}"] = lin.weight.detach().cpu().numpy().astype(np.float32)
        arrays[f"b{i}"] = lin.bias.detach().cpu().numpy().astype(np.float32)
    arrays["Wpi"] = policy.action_net.weight.detach().cpu().numpy().astype(np.float32)
    arrays["bpi"] = policy.action_net.bias.detach().cpu().numpy().astype(np.float32)
    arrays["meta"] = np.array(json.dumps(meta))
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)
    return {k: list(v.shape) for k, v in arrays.items() if k != "meta"}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--side", choices=["technocrat", "ziegler", "both"], default="both")
    p.add_argument("--timesteps", type=int, default=100_000, help="learner steps per side")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--opponents", default=None,
                   help="comma list of compiled opponents (default: random,scripted if available)")
    p.add_argument("--scenario", default="standard")
    p.add_argument("--n-envs", type=int, default=4)
    p.add_argument("--n-steps", type=int, default=512)
    p.add_argument("--hidden", default="128,128")
    p.add_argument("--shaping", type=float, default=None)
    p.add_argument("--out-dir", default=str(WEIGHTS_DIR))
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(args.threads)
    opponents = args.opponents.split(",") if args.opponents else [o for o in ("random", "scripted")
                                                                    if o in POLICY_NAMES]
    hidden = [int(h) for h in args.hidden.split(",")]
    sides = ["technocrat", "ziegler"] if args.side == "both" else [args.side]
    for side in sides:
        shaping = args.shaping if args.shaping is not None else (0.05 if side == "technocrat" else 0.0)
        seed = args.seed + 101 * side_index(side)

        def make(i, side=side, shaping=shaping, seed=seed):
            return lambda: Monitor(FlatHotspot(side, opponents, args.scenario, shaping, 0.99, seed * 1000 + i))

        venv = DummyVecEnv([make(i) for i in range(args.n_envs)])
        model = MaskablePPO("MlpPolicy", venv, seed=seed, n_steps=args.n_steps, batch_size=256, n_epochs=4,
                            learning_rate=3e-4, ent_coef=0.01, gamma=0.99,
                            policy_kwargs=dict(net_arch=dict(pi=hidden, vf=hidden), activation_fn=torch.nn.Tanh),
                            verbose=1, device="cpu")
        t0 = time.perf_counter()
        model.learn(total_timesteps=args.timesteps)
        wall = time.perf_counter() - t0
        meta = {"side": side, "timesteps": int(model.num_timesteps), "seed": seed, "opponents": opponents,
                "scenario": args.scenario, "hidden": hidden, "shaping": shaping, "train_wall_s": round(wall, 1),
                "command": " ".join([Path(sys.argv[0]).name] + sys.argv[1:])}
        path = Path(args.out_dir) / weights_path(side).name
        shapes = export_policy(model, path, meta)
        print(json.dumps({"written": str(path), "shapes": shapes, **meta}), flush=True)
        venv.close()


if __name__ == "__main__":
    main()
