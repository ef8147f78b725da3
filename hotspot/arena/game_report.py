"""Deprecated: :mod:`hotspot.design.game_report` (the game-design tools have
their own package, ``hotspot.design``, above the arena; the report's readings
are :mod:`hotspot.design.readings`, its page :mod:`hotspot.design.report_page`).
Every name is forwarded to its home with a DeprecationWarning naming it;
this module goes in 0.4."""

import warnings


def __getattr__(name: str):
    from hotspot.design import game_report, readings, report_page, skill  # a deprecated forwarder

    homes = [m for m in (readings, report_page, skill, game_report) if not name.startswith("__") and hasattr(m, name)]
    if not homes:
        raise AttributeError(f"module 'hotspot.arena.game_report' has no attribute {name!r}")
    home = homes[0].__name__
    warnings.warn(
        f"hotspot.arena.game_report.{name} is {home}.{name} (hotspot.arena.game_report goes in 0.4)",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(homes[0], name)
