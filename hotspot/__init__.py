"""hotspot: rules library, batch simulator and AI-benchmark harness for Hot Spot
(Metagaming MicroGame #15, 1979)."""
from .core import Game, IllegalActionError, RulesOptions, init

__version__ = "0.1.0"
__all__ = ["Game", "IllegalActionError", "RulesOptions", "init", "__version__"]
