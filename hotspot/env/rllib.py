"""Hot Spot for Ray RLlib: the PettingZoo game through RLlib's own PettingZoo
wrapper, with the action mask where RLlib's masking module reads it.

    from hotspot.env.rllib import ppo_config
    algo = ppo_config().env_runners(num_env_runners=2).build_algo()
    algo.train()
    algo.save("rllib-ppo")          # hotspot evaluate "rllib(path=rllib-ppo)"

``HotspotRLlibEnv(config)`` is ``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv``
over ``hotspot.env.pettingzoo.env(observation="flat", **config)`` (a
``MultiAgentEnv``; agents ``"technocrat"`` and ``"ziegler"``, each seen only
when it moves, 4.0).

Observation
    ``{"observations": Box(0, 1, (n,), float32), "action_mask": Box(0, 1,
    (578,), float32)}`` a seat: the PettingZoo env's ``flat`` observation of
    that side (D20's fog unless ``fog=False``) and its legal actions, under the
    two keys of RLlib's action-masking example (RLlib's default
    encoders take neither PettingZoo's ``"observation"`` key nor a nested
    ``Dict``; ``observation=`` other than ``"flat"`` is refused).
Action space, reward, termination and truncation
    as ``hotspot.env.pettingzoo``: ``Discrete(578)``; +1 / -1 at a victory
    (5.0), 0 to both at the turn limit (``max_turns``, D19), both seats' last
    reward delivered when the game ends.
Config
    any keyword of ``hotspot.env.pettingzoo.env`` (``scenario``, ``rules``,
    ``fog``, ``max_turns``, ``random_pool``, ``illegal_action``); an unknown
    key is a one-line ``ValueError``.

``ppo_config(env_config, hidden=..., shared=False)`` is RLlib's multi-agent
PPO on that env: one policy a seat (``"technocrat"``, ``"ziegler"``; with
``shared=True`` one ``"shared"`` policy plays both), each a
``hotspot.agents.rllib_module.MaskedPPOModule`` (RLlib's default PPO
network, its logits the lowest float off the mask, so no illegal action is
ever sampled).  The saved checkpoint is an agent: ``rllib(path=CHECKPOINT)``
(``hotspot.agents.rllib``).  Needs the ``rllib`` extra (``pip install
"hotspot[rllib]"``: Ray's RLlib and torch).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

from . import pettingzoo as hotspot_pettingzoo

#: the name ``register`` gives the env in Ray's registry
ENV_NAME = "hotspot_v0"
#: the keys an env config may hold (``hotspot.env.pettingzoo.env``'s arguments)
CONFIG_KEYS = ("scenario", "rules", "fog", "max_turns", "random_pool", "illegal_action", "observation")
#: the observation keys of the masked module (``hotspot.agents.rllib_module``)
OBS_KEY, MASK_KEY = "observations", "action_mask"


class HotspotRLlibEnv(PettingZooEnv):
    """The PettingZoo game as RLlib's ``MultiAgentEnv`` (see the module's docstring)."""

    def __init__(self, config: dict | None = None):
        config = dict(config or {})
        unknown = sorted(set(config) - set(CONFIG_KEYS))
        if unknown:
            raise ValueError(f"HotspotRLlibEnv: unknown config key(s) {unknown}; known: {list(CONFIG_KEYS)}")
        if config.setdefault("observation", "flat") != "flat":
            raise ValueError(
                f"HotspotRLlibEnv: observation must be 'flat' (RLlib's encoders take one Box), "
                f"got {config['observation']!r}"
            )
        super().__init__(hotspot_pettingzoo.env(**config))
        self.observation_spaces = {agent: _masked_space(space) for agent, space in self.observation_spaces.items()}
        self.observation_space = spaces.Dict(self.observation_spaces)

    def reset(self, *, seed=None, options=None):
        obs, infos = super().reset(seed=seed, options=options)
        return _masked(obs), infos

    def step(self, action_dict):
        obs, rewards, terminateds, truncateds, infos = super().step(action_dict)
        return _masked(obs), rewards, terminateds, truncateds, infos


def _masked_space(space: spaces.Dict) -> spaces.Dict:
    mask = space["action_mask"]
    return spaces.Dict({OBS_KEY: space["observation"], MASK_KEY: spaces.Box(0.0, 1.0, mask.shape, np.float32)})


def _masked(obs: dict) -> dict:
    return {
        agent: {OBS_KEY: o["observation"], MASK_KEY: o["action_mask"].astype(np.float32)} for agent, o in obs.items()
    }


def register(name: str = ENV_NAME) -> str:
    """Registers ``HotspotRLlibEnv`` in Ray's env registry as ``name``; returns it."""
    from ray.tune.registry import register_env

    register_env(name, HotspotRLlibEnv)
    return name


def seat_policy(agent_id, *args, **kwargs) -> str:
    """The policy mapping of ``ppo_config``: each seat its own policy."""
    return str(agent_id)


def shared_policy(agent_id, *args, **kwargs) -> str:
    """The policy mapping of ``ppo_config(shared=True)``: one policy plays both seats."""
    return "shared"


def ppo_config(env_config: dict | None = None, *, hidden=(256, 256), shared: bool = False):
    """RLlib's ``PPOConfig`` for Hot Spot self-play (see the module's docstring);
    chain ``.env_runners(...)``, ``.training(...)``, ``.learners(...)`` on it."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from hotspot.agents.rllib_module import MaskedPPOModule

    HotspotRLlibEnv(env_config)  # a bad config fails here, in one line, not inside a Ray worker
    policies = ("shared",) if shared else ("technocrat", "ziegler")
    module = {"fcnet_hiddens": [int(h) for h in hidden], "fcnet_activation": "relu"}
    specs = {p: RLModuleSpec(module_class=MaskedPPOModule, model_config=module) for p in policies}
    return (
        PPOConfig()
        .environment(register(), env_config=dict(env_config or {}))
        .multi_agent(policies=set(policies), policy_mapping_fn=shared_policy if shared else seat_policy)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
    )


__all__ = ["ENV_NAME", "HotspotRLlibEnv", "ppo_config", "register", "seat_policy", "shared_policy"]
