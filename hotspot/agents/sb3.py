"""A Stable-Baselines3 or sb3-contrib model file as an agent: ``sb3(path=model.zip)``.

    hotspot evaluate "sb3(path=ppo_technocrat.zip)"
    hotspot arena --pairings "sb3(path=ppo_technocrat.zip):scripted"
    hotspot play --technocrat human --ziegler "sb3(path=ppo_ziegler.zip)"

The adapter reads the model's own observation space and finds the
environments' observation form it was trained on (``flat``, ``full``,
``compact`` or ``image``, ``hotspot.features.observations``, or
``LearnerEnv``'s ``learner`` observation of one side, 1202 floats for the
Technocrat and 1778 for the Ziegler, ``hotspot.features.learner``: then the
model plays through that env's unit and piece slots and pruned mask, and
only that side); a space that is none of them is refused in one line.  Each decision it builds that
observation from the agent's information state (D20), as the environments
do, and plays the best legal action by the model's own scores: the masked
logits of a PPO, A2C or MaskablePPO policy, the masked Q-values of a DQN
(``deterministic=false``: sampled from the masked policy with the agent's
own seeded generator).

Parameters (``sb3(path=..., setup=scripted, ...)``): ``path`` the model's
``.zip``; ``technocrat`` / ``ziegler`` a seat's own model (default
``path``): a ``LearnerEnv`` model plays only the side it was trained as, so
``sb3(path=technocrat_ppo.zip,ziegler=ziegler_ppo.zip)`` plays both seats; ``algo`` the algorithm that saved it (``auto``: read from the file:
MaskablePPO for sb3-contrib's maskable policies, DQN for a Q-network, else
PPO, then A2C); ``setup`` ``policy`` (the model plays the set-up phases),
``scripted`` (the scripted deployment plan does, D21, as ``LearnerEnv``
does for its learner) or ``auto`` (the default: ``scripted`` for a
``LearnerEnv`` model, else ``policy``); ``deterministic``; ``threads`` torch's
threads in this process (1: small networks run fastest on one thread of a
busy machine).

**A model file is code**: SB3's ``.zip`` holds pickles, which run when they
are loaded.  Load only files you trust; the web app never loads one from a
request (``allow_code``, ``hotspot.agents.registry``).  Needs the ``train``
extra (``pip install "hotspot[train]"``).
"""

from __future__ import annotations

import json
import os
import zipfile

import numpy as np

from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.rules_data import SIDE_NAMES, TECHNOCRAT, ZIEGLER

from .policy_agent import SETUP_MODES, SeatModelsAgent
from .specs import Param, SpecError

ALGOS = ("auto", "maskable_ppo", "ppo", "a2c", "dqn")

SPEC_PARAMS = {
    "path": Param("path", None, doc="the model file (.zip) saved by model.save()"),
    "algo": Param("choice", "auto", choices=ALGOS, doc="the algorithm that saved it (auto: read from the file)"),
    "setup": Param("choice", "auto", choices=("auto", *SETUP_MODES), doc="who plays the set-up phases (3.2, 3.3, D21)"),
    "deterministic": Param("bool", True, doc="the best legal action (false: sampled from the masked policy)"),
    "threads": Param("int", 1, 0, 256, doc="torch threads of this process (0: leave torch's setting)"),
    "technocrat": Param("path", "", doc="the Technocrat seat's own model file (default: path)"),
    "ziegler": Param("path", "", doc="the Ziegler seat's own model file (default: path)"),
}


class ModelFileError(SpecError):
    """A file that is not a usable model (one line)."""


def _model_data(path: str) -> dict:
    """The JSON ``data`` member of an SB3 model file, or a ModelFileError."""
    if not os.path.isfile(path):
        raise ModelFileError(f"sb3: no such model file {path!r}")
    if not zipfile.is_zipfile(path):
        raise ModelFileError(f"sb3: {path!r} is not a Stable-Baselines3 model (not a .zip archive)")
    try:
        with zipfile.ZipFile(path) as z:
            return json.loads(z.read("data"))
    except (KeyError, ValueError, OSError, zipfile.BadZipFile):
        raise ModelFileError(f"sb3: {path!r} is not a Stable-Baselines3 model (no readable 'data' member)") from None


def _algorithm(name: str, data: dict):
    """The SB3 algorithm class of ``name`` (``auto``: from the file's policy class)."""
    if name == "auto":
        policy = data.get("policy_class") if isinstance(data, dict) else None
        module = policy.get("__module__", "") if isinstance(policy, dict) else ""
        name = "maskable_ppo" if "maskable" in module else "dqn" if ".dqn" in module else "ppo"
    try:
        if name == "maskable_ppo":
            from sb3_contrib import MaskablePPO as algo
        else:
            import stable_baselines3 as sb3

            algo = {"ppo": sb3.PPO, "a2c": sb3.A2C, "dqn": sb3.DQN}[name]
    except ImportError as exc:
        raise ModelFileError(
            f"sb3: loading a model needs {exc.name or 'stable-baselines3'}: pip install 'hotspot[train]'"
        ) from None
    return name, algo


def observation_mode_of(space, who: str = "sb3") -> tuple[str, int | None]:
    """``(form, side)``: the environments' observation form whose space is
    ``space`` (shapes compared) and, for ``LearnerEnv``'s ``learner`` form,
    the side it observes (else None); or a ModelFileError naming the space."""
    from gymnasium import spaces

    from hotspot.features.encoding import observation_shapes
    from hotspot.features.learner import LEARNER_SIZE

    if isinstance(space, spaces.Box) and len(space.shape) == 1:
        for side, n in LEARNER_SIZE.items():
            if space.shape == (n,):
                return "learner", side

    shapes = {k: shape for k, (shape, _) in observation_shapes().items()}
    flat = sum(int(np.prod(s)) for s in shapes.values())
    if isinstance(space, spaces.Box) and space.shape == (flat,):
        return "flat", None
    if isinstance(space, spaces.Dict):
        got = {k: tuple(v.shape) for k, v in space.spaces.items()}
        if got == shapes:
            return "full", None
        if got == {k: v for k, v in shapes.items() if k != "board"}:
            return "compact", None
        if set(got) == {"board", "features"} and got["features"] == (flat - int(np.prod(shapes["board"])),):
            return "image", None
    raise ModelFileError(
        f"{who}: the model's observation space {space} is none of hotspot's observation forms "
        f"(flat is Box(0.0, 1.0, ({flat},), float32); full, compact and image are Dicts; "
        f"LearnerEnv's is Box(-5.0, 5.0, (n,), float32), n {LEARNER_SIZE[1]} or {LEARNER_SIZE[0]})"
    )


class Model:
    """One loaded model file: its algorithm, observation form and (``LearnerEnv``) side."""

    def __init__(self, path: str, algo: str, threads: int):
        path = os.path.expanduser(str(path))
        data = _model_data(path)
        algo, cls = _algorithm(algo, data)
        import torch

        if threads:
            torch.set_num_threads(int(threads))
        try:
            model = cls.load(path, device="cpu")
        except Exception as exc:  # noqa: BLE001  (a damaged or foreign file: one line)
            text = " ".join(str(exc).split())[:200]
            raise ModelFileError(f"sb3: cannot load {path!r} as {algo}: {type(exc).__name__}: {text}") from None
        n = getattr(model.action_space, "n", None)
        if n is None or int(n) != NUM_ACTIONS:
            raise ModelFileError(f"sb3: the model's action space {model.action_space} is not Discrete({NUM_ACTIONS})")
        self.model, self.algo, self.path, self._torch = model, algo, path, torch
        self.greedy = algo == "dqn"  # Q-values: the best legal action, never sampled
        self.observation, self.side = observation_mode_of(model.observation_space)

    def scores(self, observation) -> np.ndarray:
        """The model's score of every action at ``observation`` (logits, or Q-values for DQN)."""
        policy = self.model.policy
        obs, _ = policy.obs_to_tensor(observation)
        with self._torch.no_grad():
            if self.algo == "dqn":
                out = policy.q_net(obs)
            else:
                out = policy.get_distribution(obs).distribution.logits
        return out.reshape(-1).cpu().numpy().astype(np.float64)


class SB3Agent(SeatModelsAgent):
    """A Stable-Baselines3 model (or one a seat) as an agent (see the module's docstring)."""

    SPEC_PARAMS = SPEC_PARAMS

    def __init__(
        self,
        seed: int | None = None,
        path: str | None = None,
        algo: str = "auto",
        setup: str = "auto",
        deterministic: bool = True,
        threads: int = 1,
        technocrat: str = "",
        ziegler: str = "",
    ):
        if not path:
            raise ModelFileError("sb3: name the model file, e.g. sb3(path=model.zip)")
        model = Model(path, algo, threads)
        models = {}
        for side, seat_path in ((TECHNOCRAT, technocrat), (ZIEGLER, ziegler)):
            m = Model(seat_path, algo, threads) if seat_path else model
            if m.side is not None and m.side != side:
                if seat_path:
                    raise ModelFileError(
                        f"sb3: {SIDE_NAMES[side]}={seat_path} is a {SIDE_NAMES[m.side]} model (LearnerEnv); "
                        f"it cannot play the {SIDE_NAMES[side]}"
                    )
                continue  # a LearnerEnv model of one side: that seat only (``seats``)
            models[side] = m
        forms = {m.observation for m in models.values()} or {model.observation}
        if len(forms) > 1:
            raise ModelFileError(f"sb3: the two seats' models observe different forms {sorted(forms)}; use one form")
        mode = forms.pop()
        self.model, self.algo, self.path = model.model, model.algo, model.path
        if setup == "auto":
            setup = "scripted" if mode == "learner" else "policy"
        super().__init__(models, mode, setup=setup, deterministic=deterministic, name=f"sb3:{model.path}")
        self.reset(seed)

    def missing_seat(self, side: int) -> Exception:
        other = SIDE_NAMES[side]
        return ModelFileError(
            f"sb3: {self.path!r} was trained as the {SIDE_NAMES[1 - side]} (LearnerEnv) and cannot play the "
            f"{other}: give that seat its own model, e.g. sb3(path={os.path.basename(self.path)},{other}=OTHER.zip)"
        )

    def __repr__(self) -> str:
        return f"SB3Agent(path={self.path!r}, algo={self.algo!r}, observation={self.observation!r})"


__all__ = ["ALGOS", "Model", "ModelFileError", "SB3Agent", "SPEC_PARAMS", "observation_mode_of"]
