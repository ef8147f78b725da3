"""The run options: how a folder-writing run plays its games and where it
keeps them, one frozen dataclass (:class:`RunOptions`) shared by the
runners (:func:`hotspot.arena.run_arena`, :func:`hotspot.design.run_balance`,
:func:`hotspot.arena.evaluate.run_evaluate`, :func:`hotspot.arena.run_games`)
and built by the command line from the options every such command takes
(``hotspot.cli.common.add_run_options``).

Each runner still takes the options as keywords (``run_arena(games=10,
workers=2, out="arena")``), or as one ``options=RunOptions(...)`` (keywords
given beside it override its fields).  Every field is checked here, once,
when the options are made: a bad value is an :class:`ArenaError` (a
``ValueError``) of one line naming the field, raised before a run touches
its folder.

What a run plays (its agents, scenario, rules, the number of games and,
for a sequential run, the precision and the step) is each runner's own:
those mean different things to each (``games`` is a side's games in the
arena, a cell's in a balance grid, the most a side may play in an
evaluation) and have different defaults.
"""

from __future__ import annotations

import dataclasses
import numbers
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

from hotspot.core.limits import DEFAULT_MAX_TURNS, check_max_turns

from .match import ArenaError

BACKENDS = ("local", "ray")


def check_count(name: str, value, low: int = 1) -> int:
    """``value`` as an int if it is an integer >= ``low`` (a number of games,
    workers, ...); else :class:`ArenaError` naming the argument ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
        what = "a positive integer" if low == 1 else f"an integer >= {low}"
        raise ArenaError(f"{name} must be {what}, got {value!r}")
    return int(value)


def check_precision(value):
    """``None`` or a half-width in (0, 0.5) (the 95% interval's at which a
    sequential run stops: a balance cell, an evaluated opponent); else
    :class:`ArenaError` (one line)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 0.5:
        raise ArenaError(
            f"precision must be a number in (0, 0.5), the 95% interval's half-width at which a cell "
            f"stops (e.g. 0.03), got {value!r}"
        )
    return float(value)


def default_workers() -> int:
    """The worker processes of a run that names none: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover  (not Linux)
        return max(1, os.cpu_count() or 1)


def _field(default, kind: str, help: str):
    """A run option's field: its default, declared here once, and how the
    command line offers it (``kind``: ``int``, ``count`` (a positive
    integer or none), ``folder``, ``choice`` (:data:`BACKENDS`), ``text``,
    ``switch`` (``--name``), ``off-switch`` (``--no-name``), ``turns``
    (``--max-turns N|none``), ``adjudicate`` (its own option); the flags are
    made by ``hotspot.cli.common.add_run_options``)."""
    return dataclasses.field(default=default, metadata={"cli": kind, "help": help})


@dataclass(frozen=True)
class RunOptions:
    """The options every folder-writing run shares, checked when made."""

    seed: int = _field(0, "int", "master seed: game i's seed derives from it")
    out: str | os.PathLike | None = _field(
        None,
        "folder",
        "output folder; a rerun with the same settings resumes it, other settings are refused (run.json)",
    )
    workers: int | None = _field(None, "count", "parallel processes (default: all cores; 1: no pool)")
    backend: str = _field("local", "choice", "local processes, or a Ray cluster (pip install 'hotspot[ray]')")
    address: str | None = _field(
        None, "text", "Ray cluster address (e.g. auto or ray://host:10001); default: a local Ray instance"
    )
    chunk: int | None = _field(None, "count", "games per task (default: automatic)")
    max_games: int | None = _field(
        None, "count", "play at most this many new games now; rerun the same command to go on"
    )
    progress: bool = _field(True, "off-switch", "no progress bar (nor progress lines in a log)")
    max_actions: int | None = _field(None, "count", "safety limit of actions a game (default 200000)")
    max_turns: int | None = _field(
        DEFAULT_MAX_TURNS, "turns", "a game still going after this turn is a draw: half a point to each side"
    )
    drop_damaged: bool = _field(
        False,
        "switch",
        "drop damaged lines of games.jsonl (reported with their line numbers) and play their games again; "
        "without it a run refuses to resume over them",
    )
    adjudicate: str = _field(
        "", "adjudicate", "adjudication rules (.adjudication: 'resign', 'draw(turns=60)'); '' none"
    )

    def __post_init__(self):
        def fix(name, value):
            object.__setattr__(self, name, value)

        if isinstance(self.seed, bool) or not isinstance(self.seed, numbers.Integral):
            raise ArenaError(f"seed must be an integer, got {self.seed!r}")
        fix("seed", int(self.seed))
        if self.out is not None and (not isinstance(self.out, (str, os.PathLike)) or not str(self.out).strip()):
            raise ArenaError(f"out must be a folder's path, got {self.out!r}")
        for name in ("workers", "chunk", "max_games", "max_actions"):
            value = getattr(self, name)
            if value is not None:
                fix(name, check_count(name, value))
        if self.backend not in BACKENDS:
            raise ArenaError(f"unknown backend {self.backend!r}; expected 'local' or 'ray'")
        if self.address is not None and not isinstance(self.address, str):
            raise ArenaError(f"address must be a Ray cluster's address (a string) or None, got {self.address!r}")
        for name in ("progress", "drop_damaged"):
            value = getattr(self, name)
            if not isinstance(value, (bool, numbers.Integral)) or value not in (0, 1):
                raise ArenaError(f"{name} must be True or False, got {value!r}")
            fix(name, bool(value))
        try:
            fix("max_turns", check_max_turns(self.max_turns) or None)
        except ValueError as exc:
            raise ArenaError(str(exc)) from None
        from .adjudication import canonical_adjudication

        fix("adjudicate", canonical_adjudication(self.adjudicate))

    @classmethod
    def merge(cls, options: RunOptions | None, overrides: dict, *, out=None, where: str = "run") -> RunOptions:
        """``options`` (default: the defaults) with the fields of ``overrides``
        (a runner's keyword arguments) replaced; ``out``: the runner's default
        folder, used when none is given.  A keyword that is no field is a
        ``TypeError``, as for any function (``where``: the runner's name)."""
        fields = {f.name for f in dataclasses.fields(cls)}
        for name in overrides:
            if name not in fields:
                raise TypeError(f"{where}() got an unexpected keyword argument {name!r}")
        if options is None:
            merged = cls(**overrides)
        elif not isinstance(options, cls):
            raise TypeError(f"{where}(): options must be a RunOptions, got {type(options).__name__}")
        else:
            merged = dataclasses.replace(options, **overrides) if overrides else options
        if merged.out is None and out is not None:
            merged = dataclasses.replace(merged, out=out)
        return merged

    @classmethod
    def renamed(cls, where: str, options, run_options) -> RunOptions | None:
        """``options`` after the deprecated keyword ``run_options=`` of
        ``where`` (the run options are ``options=`` in every runner; the old
        keyword warns and goes in 0.4)."""
        if run_options is None:
            return options
        if options is not None:
            raise TypeError(f"{where}(): give options= (the run options), not run_options= as well")
        warnings.warn(
            f"{where}(run_options=...) is {where}(options=...), as in every runner (run_options= goes in 0.4)",
            DeprecationWarning,
            stacklevel=3,
        )
        return run_options

    @property
    def folder(self) -> Path:
        """The run folder (``out``) as a path; ``ArenaError`` if there is none."""
        if self.out is None:
            raise ArenaError("no run folder given (out)")
        return Path(self.out)

    def resolved_workers(self) -> int:
        """``workers``, or every core this process may use when it is None."""
        return default_workers() if self.workers is None else self.workers

    def runner_kwargs(self) -> dict:
        """The options :func:`hotspot.arena.runner.run_games` reads, as keywords."""
        return {
            "workers": self.workers,
            "backend": self.backend,
            "address": self.address,
            "chunk": self.chunk,
            "max_games": self.max_games,
            "progress": self.progress,
            "drop_damaged": self.drop_damaged,
        }


__all__ = ["BACKENDS", "RunOptions", "check_count", "default_workers"]
