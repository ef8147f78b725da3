"""Running many games: chunks of games as tasks, in parallel, resumable.

:func:`run_games` takes the planned games (``GameSpec`` s), skips those whose
row is already in ``OUT/games.jsonl`` (a rerun of an interrupted command
resumes it), splits the rest into tasks of a few games each, runs the tasks
in this process (``workers=1``), on a pool of local processes
(``concurrent.futures.ProcessPoolExecutor``) or on a Ray cluster
(``backend="ray"``), and appends each finished game's row to games.jsonl as
its task ends.  Every game is fixed by its spec, so an interrupted run
finished by a rerun gives exactly the rows of an uninterrupted one.

A ``deadline`` (a :func:`time.monotonic` time) stops handing out tasks once
it has passed: the tasks already running finish and are kept, the games not
handed out are left for a rerun (``RunResult.out_of_time``).  ``on_games``
is told ``(done, planned)`` after the folder is read and after each task.

Before anything is written the folder is checked (:mod:`.folder`): a damaged
line of games.jsonl is refused unless ``drop_damaged`` (then dropped and its
game played again), and with a ``config`` the folder must hold this run
(run.json, or for an older folder the rows themselves); nothing in the folder
changes when a run is refused.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import signal
import sys
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hotspot.agents.registry import policy_id_of

from . import folder, table
from .folder import GAMES_FILE, DamagedLine
from .gamerow import GAME_ROW_NAMES, OPTIONAL
from .ledger import read_ledger
from .match import ArenaError, GameSpec, MadeOnRead, Plan, pick, pool_context, run_task, spec_keys, warm_up
from .options import RunOptions, check_count, default_workers  # noqa: F401  (re-exported: their old home)
from .rowtable import RowsByKey

#: the fields of a row a run keeps in memory (games.jsonl keeps the actions)
ROW_NAMES = tuple(n for n in GAME_ROW_NAMES if n != "actions")

#: the counts of a run's configuration that a rerun may raise (game i's seed
#: does not depend on the number of games: more games extend the same run)
GROWABLE = ("games",)


@dataclass
class RunResult:
    """What :func:`run_games` did."""

    rows: Sequence[dict]  # the rows of the planned games finished so far, in plan order, less their actions (GameRows)
    played: int  # games played by this run
    reused: int  # planned games found in games.jsonl
    remaining: int  # planned games still to play (after a --max-games stop)
    wall_s: float  # wall time of this run
    workers: int = 1
    backend: str = "local"
    planned: int = 0
    missing: Sequence = field(default_factory=list)  # the specs still to play (made when read, for a plan)
    warm_up_s: float = 0.0  # compiling (or loading numba's cache) before the games
    dropped: list[DamagedLine] = field(default_factory=list)  # damaged lines dropped (drop_damaged)
    out_of_time: bool = False  # the deadline passed with games not handed out (left for a rerun)


def spec_max_turns(max_turns) -> int | None:
    """A turn limit as a ``GameSpec`` (and so a run's configuration) holds it:
    None for no limit (None or 0), else checked (``ArenaError``)."""
    return GameSpec("", "", "", 0, 0, max_turns=max_turns).max_turns


class _Appender:
    """Appends rows to games.jsonl, one JSON line each, flushed as they come."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        needs_newline = path.exists() and path.stat().st_size > 0 and _last_byte(path) != b"\n"
        self.f = open(path, "a", encoding="utf-8")
        if needs_newline:  # a last row complete but for its newline: end it
            self.f.write("\n")

    def write(self, rows) -> None:
        for row in rows:
            self.f.write(json.dumps(row, separators=(",", ":")) + "\n")
        self.f.flush()

    def close(self) -> None:
        self.f.close()


def _last_byte(path: Path) -> bytes:
    with open(path, "rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1)


def _group_key(spec: GameSpec):
    return (spec.pairing, spec.technocrat, spec.ziegler, spec.scenario, spec.rules)


def _groups_of(specs) -> tuple[np.ndarray, np.ndarray, list[GameSpec]]:
    """(each spec's group, numbered in order of first appearance; each spec's
    game index; each group's first spec).  A group: a pairing, side,
    scenario and rules.  A :class:`.match.Plan` is read series by series,
    without making its specs."""
    numbers: dict = {}
    firsts: list[GameSpec] = []
    if isinstance(specs, Plan):
        gids, indices = [], []
        for part in specs.parts:
            if not len(part):
                continue
            t = part.template
            g = numbers.setdefault(
                (t["pairing"], t["technocrat"], t["ziegler"], t["scenario"], t["rules"]), len(numbers)
            )
            if g == len(firsts):
                firsts.append(part[0])
            gids.append(np.full(len(part), g, dtype=np.int64))
            indices.append(np.arange(len(part), dtype=np.int64))
        if not gids:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), firsts
        return np.concatenate(gids), np.concatenate(indices), firsts
    gid = np.zeros(len(specs), dtype=np.int64)
    for i, spec in enumerate(specs):
        g = gid[i] = numbers.setdefault(_group_key(spec), len(numbers))
        if g == len(firsts):
            firsts.append(spec)
    return gid, np.array([spec.index for spec in specs], dtype=np.int64), firsts


def pending_order(specs, absent) -> tuple[np.ndarray, np.ndarray, list[GameSpec]]:
    """(the positions in ``specs`` of the games still to play, those whose
    ``absent`` flag is true, in the order game 0 of every group, then game 1
    of every group, ... (a partial run covers every group); each spec's group;
    each group's first spec)."""
    gid, index, firsts = _groups_of(specs)
    positions = np.flatnonzero(np.asarray(absent, dtype=bool))
    g = gid[positions]
    rank = np.zeros(len(firsts), dtype=np.int64)  # the groups in order of their first pending game
    present, first_at = np.unique(g, return_index=True)
    rank[present[np.argsort(first_at)]] = np.arange(len(present))
    return positions[np.lexsort((rank[g], index[positions]))], gid, firsts


def task_positions(order, gid, firsts, workers: int, chunk: int | None, compiled: dict[str, bool]) -> list:
    """Split the games at ``order`` (positions, as :func:`pending_order` gives
    them) into tasks of games of one group, ``chunk`` games each (default:
    about 8 tasks a worker, at most 50 compiled games or 4 Python-path games
    a task), the groups' tasks taken in turn."""
    if not len(order):
        return []
    g = gid[order]
    auto = max(1, math.ceil(len(order) / (8 * max(1, workers))))
    chunked = []
    for k in dict.fromkeys(g.tolist()):
        items = order[g == k]
        first = firsts[k]
        fast = compiled.get(first.technocrat, False) and compiled.get(first.ziegler, False)
        size = chunk if chunk is not None else min(auto, 50 if fast else 4)
        chunked.append([items[i : i + size] for i in range(0, len(items), size)])
    tasks = []
    for r in range(max(len(c) for c in chunked)):
        tasks += [c[r] for c in chunked if r < len(c)]
    return tasks


class TaskList(MadeOnRead):
    """The tasks of a run: each a list of :class:`GameSpec`, made from its
    positions in ``specs`` when it is handed out (a run of a million games
    does not hold a million specs)."""

    def __init__(self, specs, positions: list):
        self.specs, self.positions = specs, positions

    def __len__(self) -> int:
        return len(self.positions)

    def _item(self, k: int) -> list[GameSpec]:
        return [self.specs[int(i)] for i in self.positions[k]]


class Missing(MadeOnRead):
    """The planned games at ``positions`` of a plan, each made when read (a
    run stopped early leaves many: their positions, not their specs)."""

    def __init__(self, specs, positions):
        self.specs, self.positions = specs, positions

    def __len__(self) -> int:
        return len(self.positions)

    def _item(self, i: int) -> GameSpec:
        return self.specs[int(self.positions[i])]


def _progress(total: int, enabled: bool, desc: str):
    if not enabled or total <= 0:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="game", desc=desc, disable=None, file=sys.stderr, dynamic_ncols=True)


def past(deadline: float | None) -> bool:
    """Whether ``deadline`` (a :func:`time.monotonic` time; None: none) has passed."""
    return deadline is not None and time.monotonic() >= deadline


def check_run_args(*, workers=None, backend="local", chunk=None, max_games=None, max_actions=None) -> int:
    """Refuse a bad count or backend (``ArenaError`` naming it) before a run
    touches its folder; returns the number of workers.  (The checks are
    :class:`RunOptions`'.)"""
    options = RunOptions(workers=workers, backend=backend, chunk=chunk, max_games=max_games, max_actions=max_actions)
    return options.resolved_workers()


def run_games(
    specs: Sequence[GameSpec],
    out_dir=None,
    *,
    options: RunOptions | None = None,
    desc: str = "games",
    config: dict | None = None,
    plan: Sequence[GameSpec] | None = None,
    deadline: float | None = None,
    on_games=None,
    **run_options,
) -> RunResult:
    """Play the games of ``specs`` not yet in ``out_dir/games.jsonl``; return all their rows
    less their actions (games.jsonl keeps them; ``hotspot.results.read_games`` reads them).

    The games already in the folder are found from its Parquet shards where
    they cover the log (:func:`.table.summary_rows`: a million games in a few
    seconds), else by reading games.jsonl line by line.

    ``out_dir``: the run folder (default: ``options.out``).  The run options
    (:class:`RunOptions`: ``options``, or its fields as keywords) it reads:
    ``workers``: processes (default: the cores of this machine; 1 plays in this
    process); ``backend``: ``"local"`` or ``"ray"`` (``address``: the Ray
    cluster's, None for a local Ray instance or the one already initialized);
    ``chunk``: games per task; ``max_games``: play at most this many new games
    (game 0 of every pairing and side first, then game 1, ...; the rest is
    left for a rerun).

    ``config``: the settings that decide the games (``run.json``; see
    :mod:`.folder`): a folder holding another run is refused
    (``RunConfigError``), a count named in ``GROWABLE`` may grow.  A damaged
    line of games.jsonl is refused (``DamagedFileError``) unless
    ``drop_damaged``: then it is dropped (a warning on stderr) and its game
    played again.  Nothing in the folder changes when a run is refused.
    The run holds the folder's writer lock (:func:`.folder.writer_lock`): a
    second writer is refused at once (``FolderLockedError``).

    ``plan``: every game the run may ever play (default ``specs``), when
    ``specs`` is one stage of it (``hotspot balance --precision`` plays a
    cell's games in steps): a row of games.jsonl from a later stage is then
    a game of this run, not a foreign one.

    ``deadline``: a :func:`time.monotonic` time after which no new task is
    handed out (the running ones finish; the rest is left for a rerun,
    ``out_of_time``); ``on_games(done, planned)``: told the games of
    ``specs`` done after the folder is read and after each task."""
    t0 = time.perf_counter()
    opts = RunOptions.merge(options, run_options, where="run_games")
    out_dir = opts.folder if out_dir is None else Path(out_dir)
    keys = None if isinstance(specs, Plan) else spec_keys(specs)  # a plan's keys are made only where needed
    if not _distinct(specs, keys):
        raise ArenaError("the planned games are not distinct (a pairing given twice?)")
    with folder.writer_lock(out_dir):  # one writer a folder, for the whole run
        return _run_in_folder(
            specs, keys, out_dir, opts, desc=desc, config=config, plan=plan, t0=t0, deadline=deadline, on_games=on_games
        )


def _distinct(specs, keys) -> bool:
    """Whether no two planned games share a key (a plan's series: no two with
    the same keys, each series' games told apart by their index)."""
    if keys is None:
        templates = [part.key_form for part in specs.parts if len(part)]
        return len(set(templates)) == len(templates)
    return len(set(keys)) == len(keys)


@dataclass
class SteppedRun:
    """What :func:`run_in_steps` did."""

    rows: dict  # every finished row of the plan, by key
    stopped: dict  # group -> "precision" (its rule said stop) or "games" (it played them all)
    played: int = 0
    remaining: int = 0  # games left for a rerun (a --max-games or deadline stop), to the next look
    stop_reason: str | None = None  # why groups were left unfinished: "max_games" or "time" (the deadline)
    wall_s: float = 0.0
    warm_up_s: float = 0.0
    dropped: list = field(default_factory=list)
    last: RunResult | None = None  # the last step's run_games result

    def absorb(self, result: RunResult) -> None:
        """Add a step's :func:`run_games` result."""
        self.last = result
        self.dropped += result.dropped
        self.rows.update((row["key"], row) for row in result.rows)
        self.played += result.played
        self.wall_s += result.wall_s
        self.warm_up_s += result.warm_up_s


def run_in_steps(
    groups: dict,
    out_dir,
    *,
    games: int,
    step: int | None,
    enough,
    plan: Sequence[GameSpec],
    config: dict | None,
    options: RunOptions | None = None,
    desc: str = "games",
    deadline: float | None = None,
    on_progress=None,
    **run_options,
) -> SteppedRun:
    """Sequential stopping over groups of games in one folder.

    ``groups``: key -> the group's *units* in order, each unit a list of
    game specs played together (a balance cell's game i; an evaluated
    agent's game i as Technocrat and as Ziegler, on one seed).  Every active
    group plays its first ``n`` units, ``n`` growing by ``step`` (None: all
    ``games`` units at once); after each step a group stops when it has
    played ``games`` units, or when ``enough(key, rows)`` says so (its rows
    so far: its precision is reached).  The run options (``options``, or
    its fields as keywords) go to :func:`run_games`; their ``max_games`` is
    the most new games in all (the rest is left for a rerun, which resumes).

    ``deadline`` (a :func:`time.monotonic` time): no step starts after it,
    and within a step no task is handed out after it (:func:`run_games`);
    the run stops with ``stop_reason`` "time".  ``on_progress(done,
    planned, groups_done, look)``: told the games done and planned so far
    (the stopped groups' and this step's) after each task (``look`` None)
    and after each step's decisions (``look``: its units a group)."""
    opts = RunOptions.merge(options, run_options, where="run_in_steps")
    out = SteppedRun(rows={}, stopped={})
    active = list(groups)
    n = 0
    budget = opts.max_games
    drop_damaged = opts.drop_damaged
    settled = 0  # the rows of the stopped groups

    def look_after(n):
        return min(games, n + step) if step else games

    def to_next_look(n):
        return sum(len(unit) for key in active for unit in groups[key][n : look_after(n)])

    while active:
        if past(deadline):
            out.stop_reason, out.remaining = "time", to_next_look(n)
            break
        n = look_after(n)
        todo = [spec for key in active for unit in groups[key][:n] for spec in unit]

        def told(done, planned, settled=settled):
            if on_progress is not None:
                on_progress(settled + done, settled + planned, len(out.stopped), None)

        result = run_games(
            todo,
            out_dir,
            options=dataclasses.replace(opts, max_games=budget, drop_damaged=drop_damaged),
            desc=f"{desc} {n}" if step else desc,
            config=config,
            plan=plan,
            deadline=deadline,
            on_games=told,
        )
        drop_damaged = False  # dropped (and reported) once
        out.absorb(result)
        if result.remaining:
            out.remaining = result.remaining
            out.stop_reason = "time" if result.out_of_time else "max_games"
            break
        if budget is not None:
            budget -= result.played
        active, stopped_rows = _decide(out, groups, active, n, games, enough)
        settled += stopped_rows
        if on_progress is not None:
            on_progress(len(out.rows), len(out.rows), len(out.stopped), n)
        if active and budget is not None and budget <= 0:  # --max-games spent: the next step is left
            out.stop_reason, out.remaining = "max_games", to_next_look(n)
            break
    return out


def _decide(out: SteppedRun, groups: dict, active: list, n: int, games: int, enough) -> tuple[list, int]:
    """After the look at ``n`` units: record in ``out.stopped`` the groups
    that stop ("games": all played; "precision": ``enough`` says so);
    returns (the groups going on, the rows of those that stopped)."""
    still, settled = [], 0
    for key in active:
        rows = [out.rows[s.key] for unit in groups[key][:n] for s in unit if s.key in out.rows]
        if n >= games:
            out.stopped[key] = "games"
        elif enough(key, rows):
            out.stopped[key] = "precision"
        else:
            still.append(key)
            continue
        settled += len(rows)
    return still, settled


class _RowStore:
    """The folder's rows by key (:class:`.rowtable.RowsByKey`), the played
    rows added: for a run of any specs, or a folder read row by row."""

    def __init__(self, specs, keys, done: RowsByKey, dropped: list):
        self.specs, self.keys, self.done, self.dropped = specs, keys, done, dropped

    @classmethod
    def open(cls, specs, keys, out_dir: Path, opts: RunOptions, config, plan) -> _RowStore:
        path = out_dir / GAMES_FILE
        fast = table.summary_rows(out_dir)  # the shards' rows (Parquet), without a JSON parse of each line
        if fast is not None:  # columns, without actions
            games_file = folder.GamesFile(path, fast)
        else:
            games_file = folder.scan_games(path)
            for row in games_file.rows.values():
                row.pop("actions", None)  # the rows kept in memory: games.jsonl has the actions
        if games_file.damaged and not opts.drop_damaged:
            raise folder.DamagedFileError(
                f"{games_file.damaged_text()}. Nothing was changed: rerun with "
                f"--drop-damaged (drop_damaged=True) to drop them and play their "
                f"games again, or repair the file"
            )
        if config is not None:
            folder.check_run(out_dir, config, specs if plan is None else plan, games_file.rows, GROWABLE)
        # the checks passed: from here on the folder may change
        out_dir.mkdir(parents=True, exist_ok=True)
        if games_file.damaged:
            folder.drop_damaged(games_file)
            table.remove_shards(out_dir)  # the log's bytes moved: its shards are written again from it
        stored = games_file.rows  # by key; a run of a million games holds them as columns
        done = stored if isinstance(stored, RowsByKey) else RowsByKey.of(stored, ROW_NAMES, OPTIONAL)
        return cls(specs, spec_keys(specs) if keys is None else keys, done, list(games_file.damaged))

    def absent(self):
        return self.done.absent(self.keys)

    def add(self, rows) -> None:
        for row in rows:
            self.done[row["key"]] = {k: v for k, v in row.items() if k != "actions"}

    def rows(self, out_dir: Path):
        return self.done.in_order(self.keys)


class _LedgerStore:
    """A planned run's games found by :class:`.ledger.Ledger` (a number a
    game) and its rows read back from the folder's files a column at a
    time: the memory of a run of a :class:`.match.Plan` in a folder whose
    Parquet shards cover its log, whatever the games."""

    def __init__(self, ledger):
        self.ledger = ledger
        self.dropped: list = []  # a folder with damaged lines is read row by row (_RowStore)

    @classmethod
    def open(cls, specs, out_dir: Path, config, plan) -> _LedgerStore | None:
        if not isinstance(specs, Plan) or plan is not None:
            return None
        found = read_ledger(out_dir, specs)
        if found is None:  # no pyarrow, or shards that do not cover the log exactly: row by row
            return None
        ledger = found[0]
        if config is not None:
            folder.check_run(out_dir, config, specs, None, GROWABLE, outside=ledger.outside)
        out_dir.mkdir(parents=True, exist_ok=True)
        return cls(ledger)

    def absent(self):
        return self.ledger.absent()

    def add(self, rows) -> None:
        for row in rows:  # in the order they are appended to games.jsonl
            self.ledger.add(row["key"], row["index"], row["seed"])

    def rows(self, out_dir: Path):
        end, paths = table.covered(out_dir)
        return table.ShardRows(out_dir, paths, max(end, 0), self.ledger.positions(), ROW_NAMES)


def _run_in_folder(specs, keys, out_dir, opts: RunOptions, *, desc, config, plan, t0, deadline, on_games) -> RunResult:
    workers, backend = opts.resolved_workers(), opts.backend
    store = _LedgerStore.open(specs, out_dir, config, plan) or _RowStore.open(specs, keys, out_dir, opts, config, plan)
    if config is not None:
        folder.write_run_config(out_dir, config)
    order, gid, firsts = pending_order(specs, store.absent())
    reused = len(specs) - len(order)
    if opts.max_games is not None:
        order = order[: opts.max_games]
    groups = [firsts[k] for k in np.unique(gid[order])]  # a game of each group still to play
    names = sorted({s.technocrat for s in groups} | {s.ziegler for s in groups})
    compiled = {name: policy_id_of(name) is not None for name in names}
    tasks = TaskList(specs, task_positions(order, gid, firsts, workers, opts.chunk, compiled))
    played = 0
    warm_s = 0.0
    appender = _Appender(out_dir / GAMES_FILE)
    bar = _progress(len(order), opts.progress, desc)

    since_sync, sync_every = 0, table.sync_rows()

    def finished(task_rows):
        nonlocal played, since_sync
        appender.write(task_rows)
        since_sync += len(task_rows)
        if since_sync >= sync_every:  # the Parquet shards (table.py) keep up with the log
            _sync_shards(out_dir)
            since_sync = 0
        store.add(task_rows)
        played += len(task_rows)
        if bar is not None:
            bar.update(len(task_rows))
        if on_games is not None:
            on_games(reused + played, len(specs))

    if on_games is not None:
        on_games(reused, len(specs))

    try:
        if tasks:  # compile once here, not in every worker
            warm_s = _warm_up(groups, compiled, workers, backend)
            _play_tasks(tasks, opts, workers, finished, deadline)
    finally:
        appender.close()
        if bar is not None:
            bar.close()
    _sync_shards(out_dir)
    absent = store.absent()
    missing = Missing(specs, np.flatnonzero(absent)) if isinstance(specs, Plan) else pick(specs, absent)
    return RunResult(
        rows=store.rows(out_dir),
        played=played,
        reused=reused,
        remaining=len(missing),
        wall_s=time.perf_counter() - t0,
        workers=workers,
        backend=backend,
        planned=len(specs),
        missing=missing,
        warm_up_s=warm_s,
        dropped=store.dropped,
        out_of_time=played < len(order) and past(deadline),
    )


def _sync_shards(out_dir) -> None:
    """Bring the folder's Parquet shards up to date (:func:`.table.sync_shards`);
    they are derived from games.jsonl, where the games are safe, so a failure
    to write them (a full disk, a damaged shard the OS will not replace) is a
    warning on stderr, not the run's end: the next run writes them."""
    try:
        table.sync_shards(out_dir)
    except Exception as exc:  # noqa: BLE001  (derived files: the log holds every game)
        print(f"warning: {out_dir}: the Parquet shards were not written ({type(exc).__name__}: {exc})", file=sys.stderr)


def _warm_up(pending, compiled: dict, workers: int, backend: str) -> float:
    """Compile what the ``pending`` games (one of each group is enough) run
    (:func:`warm_up`); returns the seconds it took."""
    fast = [compiled.get(s.technocrat) and compiled.get(s.ziegler) for s in pending]
    t_warm = time.perf_counter()
    slow = sorted({n for s in pending for n in (s.technocrat, s.ziegler) if not compiled.get(n)})
    warm_up(
        compiled=any(fast),
        python=not all(fast),
        workers=workers if backend == "local" else 1,
        python_agents=slow if backend == "local" else (),
    )
    return time.perf_counter() - t_warm


def _play_tasks(tasks, opts: RunOptions, workers: int, finished, deadline) -> None:
    """Each task on the run's backend, its rows to ``finished``; none handed out after ``deadline``."""
    if opts.backend == "ray":
        _run_ray(tasks, opts.address, workers if opts.address is None else None, finished, deadline)
    elif workers == 1 or len(tasks) == 1:
        for task in tasks:
            if past(deadline):
                break
            finished(run_task(task))
    else:
        _run_pool(tasks, workers, finished, deadline)


def _run_pool(tasks, workers, finished, deadline=None) -> None:
    """The tasks on a pool of ``workers`` processes, each finished task's rows
    to ``finished``; with a ``deadline``, tasks are handed out two a worker
    at a time and none after it (those queued and not started are cancelled)."""
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(tasks)), mp_context=pool_context(), initializer=_ignore_interrupts
    )
    futures = {}
    todo = iter(tasks)
    cap = 4 * workers if deadline is None else 2 * workers  # tasks handed out at a time
    try:
        pending: set[Future] = set()
        while True:
            for task in _next_tasks(todo, cap - len(pending), deadline):
                fut = pool.submit(run_task, task)
                futures[fut] = task
                pending.add(fut)
            if past(deadline):
                pending = {fut for fut in pending if not fut.cancel()}
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                if fut.cancelled():
                    continue
                exc = fut.exception()
                if exc is not None:
                    task = futures[fut]
                    raise ArenaError(
                        f"a task of {len(task)} game(s) ({task[0].pairing}, technocrat "
                        f"{task[0].technocrat}, games {task[0].index}..{task[-1].index}) "
                        f"failed: {type(exc).__name__}: {exc}"
                    ) from exc
                finished(fut.result())
    except BaseException:
        # end the workers first and cancel nothing: the pool's own thread then fails the queued tasks
        # (Python 3.11's would raise on a future cancelled here, printing a traceback)
        _stop_workers(pool)
        pool.shutdown(wait=False)
        raise
    pool.shutdown(wait=True)


def _next_tasks(todo, room: int, deadline) -> list:
    """Up to ``room`` more tasks from the iterator ``todo``; none once the
    ``deadline`` (``time.perf_counter``'s, or None) has passed."""
    out: list[list[GameSpec]] = []  # each task: its games
    while len(out) < room and not past(deadline):
        task = next(todo, None)
        if task is None:
            break
        out.append(task)
    return out


def _ignore_interrupts() -> None:
    """A pool worker ignores SIGINT: Ctrl-C reaches every process of the
    terminal's process group, and the parent, which keeps the finished games,
    stops the workers itself (no worker prints a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's worker processes now (their games are abandoned; a
    rerun plays them): what an interrupted or failed run does."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def _run_ray(tasks, address, num_cpus, finished, deadline=None) -> None:
    try:
        import ray
    except ImportError:
        raise ArenaError(
            "--backend ray needs Ray, which is not installed: python -m pip install 'hotspot[ray]'"
        ) from None
    started = False
    if not ray.is_initialized():
        kwargs = {"address": address, "log_to_driver": False}
        if address is None and num_cpus is not None:
            kwargs["num_cpus"] = num_cpus
        ray.init(**kwargs)
        started = True
    remote = ray.remote(num_cpus=1)(run_task)
    paths = [p for p in sys.path if p and os.path.isdir(p)]  # where module:attribute agents are found
    refs = {}
    todo = iter(tasks)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    cap = 4 * cpus if deadline is None else 2 * cpus  # tasks handed out at a time
    try:
        pending: list = []  # Ray's object refs
        while True:
            for task in _next_tasks(todo, cap - len(pending), deadline):
                ref = remote.remote(task, paths)
                refs[ref] = task
                pending.append(ref)
            if not pending:
                break
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    rows = ray.get(ref)
                except Exception as exc:
                    task = refs[ref]
                    raise ArenaError(
                        f"a Ray task of {len(task)} game(s) ({task[0].pairing}, games "
                        f"{task[0].index}..{task[-1].index}) failed: {exc}"
                    ) from exc
                finished(rows)
    except BaseException:
        for ref in refs:
            try:
                ray.cancel(ref)
            except Exception:  # noqa: BLE001  (already finished)
                pass
        raise
    finally:
        if started:
            ray.shutdown()
