"""Deprecated: :mod:`hotspot.design.deployment` (the game-design tools have their
own package, ``hotspot.design``, above the arena).  Every name is forwarded
there with a DeprecationWarning naming its home; this module goes in 0.4."""

import warnings


def __getattr__(name: str):
    from hotspot.design import deployment as home  # a deprecated forwarder (tests/test_architecture.py)

    if name.startswith("__") or not hasattr(home, name):
        raise AttributeError(f"module 'hotspot.arena.deployment' has no attribute {name!r}")
    warnings.warn(
        f"hotspot.arena.deployment.{name} is hotspot.design.deployment.{name} (hotspot.arena.deployment goes in 0.4)",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(home, name)
