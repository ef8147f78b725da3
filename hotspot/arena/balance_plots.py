"""Deprecated: :mod:`hotspot.design.balance_plots` (the game-design tools have their
own package, ``hotspot.design``, above the arena).  Every name is forwarded
there with a DeprecationWarning naming its home; this module goes in 0.4."""

import warnings


def __getattr__(name: str):
    from hotspot.design import balance_plots as home  # a deprecated forwarder (tests/test_architecture.py)

    if name.startswith("__") or not hasattr(home, name):
        raise AttributeError(f"module 'hotspot.arena.balance_plots' has no attribute {name!r}")
    warnings.warn(
        f"hotspot.arena.balance_plots.{name} is hotspot.design.balance_plots.{name} (hotspot.arena.balance_plots goes in 0.4)",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(home, name)
