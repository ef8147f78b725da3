"""RLlib's PPO network with hotspot's action mask: ``MaskedPPOModule``.

RLlib's default PPO module (``DefaultPPOTorchRLModule``: an MLP encoder, a
policy head and a value head) over the ``"observations"`` entry of a
``{"observations": Box, "action_mask": Box}`` observation
(``hotspot.env.rllib``), its logits set to the lowest float wherever the
mask is 0, so that no illegal action is sampled, trained or scored (as
RLlib's action-masking example does).  ``hotspot.env.rllib.ppo_config``
trains it; ``rllib(path=...)`` plays its checkpoints.  Importing this module
needs the ``rllib`` extra.
"""

from __future__ import annotations

import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns

#: the observation keys the module reads
OBS_KEY, MASK_KEY = "observations", "action_mask"
_LOWEST = torch.finfo(torch.float32).min


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """PPO's default torch module, its action logits masked (see the module's docstring)."""

    def __init__(self, *, observation_space=None, **kwargs):
        if observation_space is None or OBS_KEY not in getattr(observation_space, "spaces", {}):
            raise ValueError(
                f"MaskedPPOModule needs a Dict observation space with {OBS_KEY!r} and {MASK_KEY!r}, "
                f"got {observation_space}"
            )
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self):
        super().setup()  # the networks over the observations alone
        self.observation_space = self.observation_space_with_mask

    @staticmethod
    def _split(batch: dict) -> tuple:
        """(mask, the batch with the observations alone), the input batch untouched."""
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):
            return batch.get(MASK_KEY), batch
        inner = dict(batch)
        inner[Columns.OBS] = obs[OBS_KEY]
        inner[MASK_KEY] = obs[MASK_KEY]
        return obs[MASK_KEY], inner

    @staticmethod
    def _masked(out: dict, mask) -> dict:
        if mask is not None:
            logits = out[Columns.ACTION_DIST_INPUTS]
            out[Columns.ACTION_DIST_INPUTS] = torch.where(mask > 0, logits, torch.full_like(logits, _LOWEST))
        return out

    def _forward(self, batch, **kwargs):
        mask, inner = self._split(batch)
        return self._masked(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch, **kwargs):
        mask, inner = self._split(batch)
        return self._masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch, embeddings=None):
        _, inner = self._split(batch)
        return super().compute_values(inner, embeddings)


__all__ = ["MASK_KEY", "MaskedPPOModule", "OBS_KEY"]
