"""The arena: games between agents, scores (a draw half a point) with Wilson intervals,
Bradley-Terry ratings, the evaluation protocol and run folders (``hotspot arena``,
``hotspot compare``, ``hotspot evaluate``).  The game-design tools that play
through it (balance grids, calibration, deployment search, game reports) are
``hotspot.design``, a layer above.

* ``registry``: agents by name or spec (:func:`make_agent`,
  :func:`available_agents`, :func:`canonical_agent`, :func:`aliases`; it
  lives in ``hotspot.agents.registry``).
* ``match``: one game between two agents (compiled fast path or Python path)
  and its row.
* ``options``: :class:`RunOptions`, what every run shares (seed, folder,
  workers, backend, limits), checked once.
* ``gamerow``: the row a game leaves in games.jsonl, declared once.
* ``runner``: many games, in parallel (processes or Ray), resumable.
* ``folder``: a run's folder: games.jsonl read line by line with every row
  checked (damaged lines reported, refused or dropped), run.json (a folder
  refuses another run's settings), a row's checked replay
  (:func:`record_from_row`, :func:`replay_row`).
* ``stats``: :func:`wilson_interval`, :func:`bradley_terry`, tables.
* ``tournament`` (:func:`run_arena`).

``run_balance`` and ``run_report`` are ``hotspot.design``'s (here they warn,
naming their home, until 0.4).
"""

import warnings

from hotspot.agents.registry import aliases, available_agents, canonical_agent, make_agent, register_agent

from .folder import DamagedFileError, RowError, RunConfigError, read_rows, record_from_row, replay_row, scan_games
from .match import ArenaError, GameSpec, game_seed, play_game
from .options import RunOptions
from .runner import run_games
from .stats import bradley_terry, wilson_interval
from .tournament import run_arena

__all__ = [
    "ArenaError",
    "DamagedFileError",
    "GameSpec",
    "RowError",
    "RunConfigError",
    "RunOptions",
    "aliases",
    "available_agents",
    "canonical_agent",
    "bradley_terry",
    "game_seed",
    "make_agent",
    "play_game",
    "read_rows",
    "record_from_row",
    "register_agent",
    "replay_row",
    "run_arena",
    "run_games",
    "scan_games",
    "wilson_interval",
]


def __getattr__(name: str):
    if name not in ("run_balance", "run_report"):
        raise AttributeError(f"module 'hotspot.arena' has no attribute {name!r}")
    import hotspot.design as home  # a deprecated forwarder (tests/test_architecture.py)

    warnings.warn(
        f"hotspot.arena.{name} is hotspot.design.{name} (the arena's name goes in 0.4)",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(home, name)
