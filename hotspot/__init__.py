"""hotspot: rules library, batch simulator and AI-benchmark harness for Hot Spot
(Metagaming MicroGame #15, 1979)."""

from .core import Game, GameRecord, IllegalActionError, RecordError, RulesOptions, ScenarioError, StateError, init

__version__ = "0.2.0"  # the one source of the version (pyproject.toml reads it; CHANGELOG.md)


def _register_envs() -> None:
    from gymnasium.envs.registration import register, registry

    if "hotspot/Hotspot-v0" not in registry:
        register(
            id="hotspot/Hotspot-v0",
            entry_point="hotspot.env.hotspot_env:HotspotEnv",
            vector_entry_point="hotspot.env.vector_env:HotspotVectorEnv",
        )
    if "hotspot/HotspotLearner-v0" not in registry:
        register(id="hotspot/HotspotLearner-v0", entry_point="hotspot.env.learner_env:LearnerEnv")


_register_envs()
__all__ = [
    "Game",
    "GameRecord",
    "IllegalActionError",
    "RecordError",
    "RulesOptions",
    "ScenarioError",
    "StateError",
    "init",
    "__version__",
]
