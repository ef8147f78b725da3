"""A Ray RLlib checkpoint as an agent: ``rllib(path=CHECKPOINT)``.

    hotspot evaluate "rllib(path=rllib-ppo)"
    hotspot arena --pairings "rllib(path=rllib-ppo):scripted"
    hotspot play --technocrat human --ziegler "rllib(path=rllib-ppo)"

``path`` is the folder ``Algorithm.save()`` wrote (RLlib's new API stack:
``learner_group/learner/rl_module/<policy>/``), a ``MultiRLModule``'s folder,
or one ``RLModule``'s folder.  Each seat plays the policy (module id) named
after it, ``"technocrat"`` and ``"ziegler"`` as ``hotspot.env.rllib.ppo_config``
trains them; ``technocrat=`` / ``ziegler=`` name other module ids, and a
checkpoint of one policy (``ppo_config(shared=True)``, or one module's
folder) plays both seats.

A module's observation space must be the environments' ``flat`` form
(``hotspot.env.rllib``: ``{"observations": Box, "action_mask": Box}``, or a
bare ``Box`` for a module trained without the mask); each decision the agent
builds that observation from its information state (D20), as the env does,
passes the legal-action mask with it, and plays the legal action of highest
logit (``deterministic=false``: sampled from the masked policy by the agent's
own seeded generator).  The set-up phases (3.2, 3.3, D21) are the policy's,
as in the PettingZoo env it was trained on (``setup=scripted``: the scripted
deployment plan's).

**A checkpoint is code**: RLlib's files are pickles, which run when they are
loaded.  Load only checkpoints you trust; the web app never loads one from a
request (``allow_code``, ``hotspot.agents.registry``).  Needs the ``rllib``
extra (``pip install "hotspot[rllib]"``).
"""

from __future__ import annotations

import logging
import os

import numpy as np

from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.rules_data import SIDE_NAMES, TECHNOCRAT, ZIEGLER

from .policy_agent import SETUP_MODES, SeatModelsAgent
from .sb3 import ModelFileError, observation_mode_of
from .specs import Param

SPEC_PARAMS = {
    "path": Param("path", None, doc="the checkpoint folder Algorithm.save() wrote (or an RLModule's folder)"),
    "technocrat": Param("str", "", doc="the Technocrat's module id (default technocrat, or the only module)"),
    "ziegler": Param("str", "", doc="the Ziegler's module id (default ziegler, or the only module)"),
    "setup": Param("choice", "policy", choices=SETUP_MODES, doc="who plays the set-up phases (3.2, 3.3, D21)"),
    "deterministic": Param("bool", True, doc="the best legal action (false: sampled from the masked policy)"),
    "threads": Param("int", 1, 0, 256, doc="torch threads of this process (0: leave torch's setting)"),
}

#: where ``Algorithm.save()`` keeps the modules (RLlib's new API stack)
ALGORITHM_MODULES = os.path.join("learner_group", "learner", "rl_module")


def load_modules(path: str) -> dict:
    """``{module_id: RLModule}`` of a checkpoint folder (see the module's
    docstring), or a ModelFileError in one line."""
    path = os.path.expanduser(str(path))
    if not os.path.isdir(path):
        raise ModelFileError(f"rllib: no such checkpoint folder {path!r}")
    path = os.path.abspath(path)  # RLlib reads a relative path as a URI
    folder = os.path.join(path, ALGORITHM_MODULES)
    if not os.path.isdir(folder):
        folder = path
    if not os.path.isfile(os.path.join(folder, "class_and_ctor_args.pkl")):
        raise ModelFileError(
            f"rllib: {path!r} is not an RLlib checkpoint (no {ALGORITHM_MODULES}/ and no class_and_ctor_args.pkl)"
        )
    try:
        from ray.rllib.core.rl_module.multi_rl_module import MultiRLModule
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ImportError as exc:
        raise ModelFileError(
            f"rllib: loading a checkpoint needs {exc.name or 'ray[rllib]'}: pip install 'hotspot[rllib]'"
        ) from None
    # RLlib's notices about its own constructor (RLModuleConfig), not the user's checkpoint
    quiet = [logging.getLogger(name) for name in ("ray.rllib", "ray._common.deprecation")]
    levels = [q.level for q in quiet]
    for q in quiet:
        q.setLevel(logging.ERROR)
    try:
        module = RLModule.from_checkpoint(folder)
    except Exception as exc:  # noqa: BLE001  (a damaged or foreign checkpoint: one line)
        text = " ".join(str(exc).split())[:200]
        raise ModelFileError(f"rllib: cannot load {path!r}: {type(exc).__name__}: {text}") from None
    finally:
        for q, level in zip(quiet, levels):
            q.setLevel(level)
    if isinstance(module, MultiRLModule):
        return {str(k): module[k] for k in module.keys()}
    return {os.path.basename(os.path.normpath(folder)): module}


class Module:
    """One RLlib module: its observation form and whether it takes the mask."""

    def __init__(self, module, module_id: str, path: str):
        import torch

        space = module.observation_space
        self.masked = hasattr(space, "spaces") and {"observations", "action_mask"} <= set(space.spaces)
        inner = space["observations"] if self.masked else space
        self.observation, side = observation_mode_of(inner, who=f"rllib: module {module_id!r} of {path!r}")
        n = getattr(module.action_space, "n", None)
        if n is None or int(n) != NUM_ACTIONS or side is not None or self.observation != "flat":
            raise ModelFileError(
                f"rllib: module {module_id!r} of {path!r} is not a hotspot policy "
                f"(action space {module.action_space}, observation {self.observation})"
            )
        module.eval()
        self.module, self.module_id, self._torch = module, module_id, torch
        self._mask = torch.ones((1, NUM_ACTIONS), dtype=torch.float32)

    def scores(self, observation) -> np.ndarray:
        """The module's logit of every action at ``observation`` (unmasked)."""
        torch = self._torch
        obs = torch.as_tensor(np.asarray(observation, dtype=np.float32)[None])
        batch = {"obs": {"observations": obs, "action_mask": self._mask} if self.masked else obs}
        with torch.no_grad():
            out = self.module.forward_inference(batch)
        return out["action_dist_inputs"].reshape(-1).cpu().numpy().astype(np.float64)


class RLlibAgent(SeatModelsAgent):
    """An RLlib checkpoint's policies as an agent (see the module's docstring)."""

    SPEC_PARAMS = SPEC_PARAMS

    def __init__(
        self,
        seed: int | None = None,
        path: str | None = None,
        technocrat: str = "",
        ziegler: str = "",
        setup: str = "policy",
        deterministic: bool = True,
        threads: int = 1,
    ):
        if not path:
            raise ModelFileError("rllib: name the checkpoint folder, e.g. rllib(path=rllib-ppo)")
        if threads:
            import torch

            torch.set_num_threads(int(threads))
        loaded = load_modules(path)
        models = {}
        for side, wanted in ((TECHNOCRAT, technocrat), (ZIEGLER, ziegler)):
            module_id = wanted or (SIDE_NAMES[side] if SIDE_NAMES[side] in loaded else "")
            if not module_id and len(loaded) == 1:
                module_id = next(iter(loaded))
            if module_id not in loaded:
                raise ModelFileError(
                    f"rllib: {path!r} has no module {module_id or SIDE_NAMES[side]!r} for the {SIDE_NAMES[side]} "
                    f"(it has {sorted(loaded)}); name one with rllib(path=...,{SIDE_NAMES[side]}=ID)"
                )
            models[side] = Module(loaded[module_id], module_id, path)
        self.path = str(path)
        super().__init__(models, "flat", setup=setup, deterministic=deterministic, name=f"rllib:{path}")
        self.reset(seed)

    def __repr__(self) -> str:
        ids = {SIDE_NAMES[s]: m.module_id for s, m in self.models.items()}
        return f"RLlibAgent(path={self.path!r}, modules={ids})"


__all__ = ["Module", "RLlibAgent", "SPEC_PARAMS", "load_modules"]
