"""The arena: games between agents, scores (a draw half a point) with Wilson intervals,
Bradley-Terry ratings and balance grids (``hotspot arena``, ``hotspot balance``).

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
* ``tournament`` (:func:`run_arena`), ``balance`` (:func:`run_balance`) and
  ``game_report`` (:func:`run_report`, ``hotspot report``).
"""

from hotspot.agents.registry import aliases, available_agents, canonical_agent, make_agent, register_agent

from .balance import run_balance  # noqa: E402  (after tournament: it uses it)
from .folder import DamagedFileError, RowError, RunConfigError, read_rows, record_from_row, replay_row, scan_games
from .game_report import run_report  # noqa: E402  (after balance: it uses it)
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
    "run_balance",
    "run_games",
    "run_report",
    "scan_games",
    "wilson_interval",
]
