"""Run folders: the files a run keeps in its ``--out`` folder, read so that
nothing is skipped, lost or mixed without a word.

* ``games.jsonl``: one row a line (a JSON object: the fields of
  :data:`hotspot.arena.gamerow.GAME_ROW_FIELDS`, written by
  :func:`hotspot.arena.match.play_game`).  :func:`scan_games` checks every
  line (:func:`check_row`: it parses, it is an object, every field is there
  with its type and range, the key matches the fields, the record fields
  load) and reports a damaged one with
  its line number and what is wrong.  A run refuses to resume over damaged
  lines (:class:`DamagedFileError`; nothing in the folder is changed) unless
  told to drop them (``drop_damaged=True``, ``--drop-damaged``): the file is
  then rewritten without them (a temporary file, then ``os.replace``) and
  their games are played again.  The common case is the last line of a run
  killed while writing it: a line without its newline that does not parse.
  It is damaged like any other.
* ``run.json``: the run's configuration, written when a run starts: the
  settings that decide which games a run plays (``kind``, agents or pairs,
  scenarios and the digest of every scenario *file*, rules options, seed,
  ``max_turns``, games).  A later run in the same folder with another
  configuration is refused (:class:`RunConfigError`) with every setting that
  differs, the folder's value and the new one.  A count in ``growable``
  (``games`` for the arena and the balance grid) may grow: game ``i``'s seed
  does not depend on the number of games, so more games extend the same run.
  A folder without ``run.json`` (written by an older version) resumes if every
  row of its games.jsonl is one of the games now planned
  (:func:`rows_outside_plan`); ``run.json`` is then written.
* ``.lock``: one writer a folder.  Every command that writes a run folder
  holds an exclusive OS lock on this file for the whole run
  (:func:`writer_lock`: ``fcntl.flock``, or ``msvcrt.locking`` on Windows),
  which the OS releases when the process ends however it ends, so there is
  no stale lock to clean by hand.  A second writer is refused at once
  (:class:`FolderLockedError`, naming the folder and the holder's pid, which
  the holder writes into the file) before it reads or changes anything
  else.  Readers (``hotspot replay``, ``hotspot serve``) never take it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from hotspot.core.jsonfile import JSONInputError, loads, read_json

from . import gamerow
from .errors import ArenaError, RowError
from .gamerow import MAX_SEED, short_text  # noqa: F401  (MAX_SEED: its old home)
from .match import Plan, canonical_rules, row_key, setup_seed, spec_keys

GAMES_FILE = "games.jsonl"
RUN_FILE = "run.json"
LOCK_FILE = ".lock"
RUN_FORMAT = "hotspot-run"
RUN_VERSION = 1
SHOWN = 5  # damaged lines or differences named in one message; the rest are counted


class DamagedFileError(ArenaError):
    """games.jsonl has damaged lines and the run was not told to drop them."""


class RunConfigError(ArenaError):
    """The folder holds another run (another configuration), or its run.json is damaged."""


class FolderLockedError(ArenaError):
    """Another process is writing the run folder (it holds the folder's lock)."""


# ------------------------------------------------------------ one writer a folder

_HELD: dict[str, list] = {}  # resolved folder -> [file descriptor, depth, pid] held by this process


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


def lock_holder(folder) -> int | None:
    """The pid that ``folder``'s lock file names: the writer holding it while
    that process lives (None when there is no lock file or no pid in it)."""
    try:
        text = (Path(folder) / LOCK_FILE).read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


@contextmanager
def writer_lock(out_dir):
    """Hold ``out_dir``'s writer lock (``.lock``) for the ``with`` block,
    creating the folder if need be; :class:`FolderLockedError` at once if
    another process holds it.  Re-entrant within a process (a command that
    locks its folder may call :func:`hotspot.arena.runner.run_games`, which
    locks it too)."""
    path = Path(out_dir).resolve()
    key = str(path)
    held = _HELD.get(key)
    if held is not None and held[2] == os.getpid():
        held[1] += 1
        try:
            yield path
        finally:
            held[1] -= 1
        return
    try:
        path.mkdir(parents=True, exist_ok=True)
        lock_path = path / LOCK_FILE
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise ArenaError(f"{path}: cannot write this folder ({exc.strerror or exc})") from None
    if not _try_lock(fd):
        os.close(fd)
        raise FolderLockedError(
            f"{path}: another run is writing this folder (pid {lock_holder(path) or 'unknown'}); "
            f"nothing was changed: wait for it to end or choose another --out"
        )
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        _HELD[key] = [fd, 1, os.getpid()]
        yield path
    finally:
        _HELD.pop(key, None)
        try:
            _unlock(fd)
        finally:
            os.close(fd)


# ------------------------------------------------------------ rows


def check_row(row) -> str:
    """The key of a games.jsonl row after checking every field the tables and
    the game record (:func:`record_from_row`) read (:func:`.gamerow.check`:
    each field of the declared row, its type and range), the set-up of a
    random scenario and the key against the row's fields; a malformed row
    raises :class:`RowError` naming the field.

    The scenario is not loaded here (a random setup costs about 20 ms to
    build): :func:`record_from_row` loads it through the scenario loader."""
    gamerow.check(row)
    seed = row["seed"]
    expected_setup = f"random:{setup_seed(seed)}" if row["scenario"] == "random" else row["scenario"]
    if row["setup"] != expected_setup:
        raise RowError(
            f"field 'setup' is {short_text(row['setup'])}, expected {short_text(expected_setup)} "
            f"for scenario {short_text(row['scenario'])} and seed {seed}"
        )
    key = row_key(row)
    if row["key"] != key:
        raise RowError(
            "field 'key' does not match the row's fields (pairing, agents, scenario, rules, index, seed, max_turns)"
        )
    return key


def record_from_row(row):
    """The ``GameRecord`` of a games.jsonl row, checked before compiled code
    replays it: the row by :func:`check_row` (seed, actions, max_turns: all
    that ``GameRecord.from_dict`` checks, and more), its scenario by the
    scenario loader; a bad row or scenario is a :class:`RowError` naming it.
    (``match.unchecked_record`` builds the record without these checks.)"""
    from hotspot.core.scenario import ScenarioError

    from . import match

    check_row(row)
    try:
        return match.unchecked_record(row)
    except (ScenarioError, ArenaError) as exc:
        raise RowError(f"game {row['key']}: {exc}") from None


def replay_row(row):
    """Replay a row (checked as :func:`record_from_row` does) and check it
    ends as recorded (``ArenaError`` if not); returns the replayed ``Game``."""
    from hotspot.core.scenario import ScenarioError

    from . import match

    check_row(row)
    try:
        return match.unchecked_replay(row)
    except ScenarioError as exc:
        raise RowError(f"game {row['key']}: {exc}") from None


@dataclass(frozen=True)
class DamagedLine:
    """A line of games.jsonl that is not a valid row: its number (from 1) and what is wrong."""

    line: int
    problem: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.problem}"


@dataclass
class GamesFile:
    """A games.jsonl file as read: its valid rows by key (the first row of a
    key wins) and its damaged lines."""

    path: Path
    rows: dict[str, dict] = field(default_factory=dict)
    damaged: list[DamagedLine] = field(default_factory=list)

    def damaged_text(self) -> str:
        """The damaged lines, the first few named (one line of text)."""
        return f"{self.path}: {len(self.damaged)} damaged line(s): {_listing([str(d) for d in self.damaged])}"


def parse_line(raw: bytes):
    """The JSON value of one line, or RowError saying why it is not one."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RowError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        return loads(text)  # the one reader's limits (core.jsonfile)
    except JSONInputError as exc:
        raise RowError(f"not valid JSON ({exc})") from None


def scan_games(path) -> GamesFile:
    """Read a games.jsonl file, checking every line (:func:`check_row`); a
    missing file has no rows.  Blank lines are ignored."""
    games = GamesFile(Path(path))
    if not games.path.exists():
        return games
    with open(games.path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                row = parse_line(raw.strip())
                key = check_row(row)
            except RowError as exc:
                problem = str(exc)
                if not raw.endswith(b"\n"):
                    problem += " (the last line, without its newline: a write cut short by an interrupted run?)"
                games.damaged.append(DamagedLine(number, problem))
                continue
            games.rows.setdefault(key, row)
    return games


def read_rows(path) -> dict[str, dict]:
    """The rows of a games.jsonl file by key (the first row of a key wins);
    :class:`DamagedFileError` if a line is damaged (:func:`scan_games` reads
    a file with damaged lines)."""
    games = scan_games(path)
    if games.damaged:
        raise DamagedFileError(games.damaged_text())
    return games.rows


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder
    and ``os.replace``: a reader (or a kill) sees the old file or the new one.
    The new file keeps the old one's permissions (a new one: the umask's)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if tmp.exists():
            tmp.unlink()
        raise


def drop_damaged(games: GamesFile) -> None:
    """Rewrite games.jsonl without its damaged (and blank) lines, keeping every
    other line byte for byte, and warn on stderr naming the lines dropped."""
    bad = {d.line for d in games.damaged}
    kept = []
    with open(games.path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if number not in bad and raw.strip():
                kept.append(raw if raw.endswith(b"\n") else raw + b"\n")
    atomic_write(games.path, b"".join(kept))
    print(f"warning: dropped {games.damaged_text()}; any planned game they held is played again", file=sys.stderr)


# ------------------------------------------------------------ run.json


def scenario_digest(scenario) -> str | None:
    """The sha256 of a scenario's checked content (canonical JSON, less its
    name and description), for a scenario file and a built-in scenario
    alike; None for a random setup: editing the file, or a release that
    changes a built-in (``balanced-strong``'s garrison), changes the games of
    the run, so the digest is part of its configuration."""
    from hotspot.core.scenario import load_scenario

    if not isinstance(scenario, str) or scenario == "random" or scenario.startswith("random:"):
        return None
    return content_digest(load_scenario(scenario))


def content_digest(scenario: dict) -> str:
    """The sha256 of what in a scenario dict decides its games (all but its name and description)."""
    data = {k: v for k, v in scenario.items() if k not in ("name", "description")}
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def scenario_files(scenarios) -> dict[str, str]:
    """{path: digest} of the scenario files among ``scenarios`` (:func:`scenario_digest`)."""
    digests = {s: scenario_digest(s) for s in scenarios}
    return {s: d for s, d in sorted(digests.items()) if d is not None}


def read_run_config(out_dir) -> dict | None:
    """The configuration in ``out_dir/run.json``, None if there is no such file;
    :class:`RunConfigError` if it is damaged."""
    path = Path(out_dir) / RUN_FILE
    if not path.exists():
        return None
    try:
        data = read_json(path)  # the one reader's limits (core.jsonfile)
    except (OSError, ValueError) as exc:  # (JSONInputError is a ValueError)
        problem = f"{type(exc).__name__}: {exc}"
    else:
        if (
            isinstance(data, dict)
            and data.get("format") == RUN_FORMAT
            and data.get("version") == RUN_VERSION
            and isinstance(data.get("config"), dict)
        ):
            return data["config"]
        problem = f"not a {RUN_FORMAT} file of version {RUN_VERSION}"
    raise RunConfigError(
        f"{path}: damaged ({problem}); it records the settings of the run in this folder: "
        f"repair it, or move it away to have games.jsonl checked against this run's settings"
    )


def _as_json(config: dict) -> dict:
    """``config`` as it reads back from run.json (tuples as lists, ...)."""
    return json.loads(json.dumps(config))


def write_run_config(out_dir, config: dict) -> None:
    """Record ``config`` in ``out_dir/run.json`` (atomically)."""
    from hotspot import __version__

    data = {
        "format": RUN_FORMAT,
        "version": RUN_VERSION,
        "written_by": f"hotspot {__version__}",
        "config": _as_json(config),
    }
    atomic_write(Path(out_dir) / RUN_FILE, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())


def _digests_to_compare(before: dict, after: dict) -> dict:
    """This run's scenario digests (``after``) as compared with a folder's
    (``before``): a built-in scenario the folder's run.json has no digest of
    (written before built-ins had one) is left out, compared by name alone
    as it was then."""
    from hotspot.core.scenario import builtin_scenarios

    builtins = set(builtin_scenarios())
    return {k: v for k, v in after.items() if k in before or k not in builtins}


def config_differences(old: dict, new: dict, growable=()) -> list[str]:
    """The settings of ``new`` that differ from ``old``, as "name: old there,
    new now" (a count in ``growable`` may grow, not shrink; another ``kind``
    of run, e.g. a balance grid in an arena's folder, is the one difference named)."""
    if old.get("kind") != new.get("kind"):
        return [f"kind: {json.dumps(old.get('kind'))} in the folder, {json.dumps(new.get('kind'))} now"]
    out = []
    for name in sorted(set(old) | set(new)):
        before, after = old.get(name), new.get(name)
        if name == "scenario_files" and isinstance(before, dict) and isinstance(after, dict):
            after = _digests_to_compare(before, after)
        if before == after:
            continue
        if name in growable and isinstance(before, int) and isinstance(after, int) and after > before:
            continue
        note = " (a run may grow its games, not shrink them)" if name in growable else ""
        out.append(f"{name}: {json.dumps(before)} in the folder, {json.dumps(after)} now{note}")
    return out


def _group(pairing, technocrat, ziegler, scenario, rules, max_turns) -> tuple:
    return (pairing, technocrat, ziegler, scenario, canonical_rules(rules), max_turns)


class _PlanView:
    """What a plan's games have in common, to say why a row is none of them:
    the settings' values (``values(attr)``), game ``i``'s seeds
    (``seeds_at``) and the games planned a group (pairing, sides, scenario,
    rules, turn limit).  A :class:`.match.Plan` is read series by series,
    without making its games."""

    def __init__(self, specs):
        if isinstance(specs, Plan):
            self.firsts = [part[0] for part in specs.parts if len(part)]
            self._seeds = [(part.seeds, len(part)) for part in specs.parts if len(part)]
            counts = [len(part) for part in specs.parts if len(part)]
        else:
            self.firsts = list(specs)
            self._seeds = None
            counts = [1] * len(self.firsts)
        self.games: dict = {}
        for s, n in zip(self.firsts, counts):
            group = _group(s.pairing, s.technocrat, s.ziegler, s.scenario, s.rules, s.max_turns)
            self.games[group] = self.games.get(group, 0) + n
        self.specs = specs

    def values(self, attr) -> set:
        return {getattr(s, attr) for s in self.firsts}

    def planned(self, attr) -> str:
        return ", ".join(sorted({json.dumps(v) if attr != "rules" else v for v in self.values(attr)}))

    def seeds_at(self, index) -> set:
        if self._seeds is None:
            return {s.seed for s in self.specs if s.index == index}
        return {int(seeds[index]) for seeds, n in self._seeds if isinstance(index, int) and 0 <= index < n}


def _outside_reasons(row: dict, plan: _PlanView) -> list[str]:
    """The settings that make ``row`` none of the ``plan``'s games: pairing,
    scenario, rules, max_turns and seed are each compared; sides and games
    (an index beyond the plan) when those agree."""
    rules = canonical_rules(row["rules"])
    out = []
    if row["pairing"] not in plan.values("pairing"):
        out.append(
            f"pairing: games.jsonl has games of {json.dumps(row['pairing'])}, this run plays {plan.planned('pairing')}"
        )
    if row["scenario"] not in plan.values("scenario"):
        out.append(
            f"scenario: games.jsonl has games of {json.dumps(row['scenario'])}, this run plays "
            f"{plan.planned('scenario')}"
        )
    if rules not in plan.values("rules"):
        out.append(f"rules: games.jsonl has games with rules {rules}, this run plays {plan.planned('rules')}")
    if row["max_turns"] not in plan.values("max_turns"):
        out.append(
            f"max_turns: games.jsonl has games with max_turns {json.dumps(row['max_turns'])}, this run "
            f"plays {plan.planned('max_turns')}"
        )
    seeds = plan.seeds_at(row["index"])
    if seeds and row["seed"] not in seeds:
        out.append(
            f"seed: games.jsonl has games of another seed (e.g. its game {row['index']} has seed {row['seed']}, "
            f"this run's has {', '.join(map(str, sorted(seeds)))})"
        )
    if out:
        return out
    group = _group(row["pairing"], row["technocrat"], row["ziegler"], row["scenario"], rules, row["max_turns"])
    if group not in plan.games:
        return [
            f"sides: games.jsonl has games of {row['technocrat']} (technocrat) against {row['ziegler']} "
            f"(ziegler) in {json.dumps(row['pairing'])}, which this run does not plan"
        ]
    return [
        f"games: games.jsonl has game index {row['index']} of {json.dumps(row['pairing'])} (from 0), "
        f"this run plans {plan.games[group]} a side"
    ]


def reasons_outside(rows, specs) -> list[str]:
    """Why the rows ``rows`` (each known to be none of ``specs``' games) are
    not games of them: one reason for each setting that differs, with the
    first row that shows it."""
    plan = _PlanView(specs)
    reasons: dict[str, str] = {}  # the first example of each setting that differs
    for row in rows:
        for reason in _outside_reasons(row, plan):
            reasons.setdefault(reason.partition(":")[0], reason)
    return list(reasons.values())


def rows_outside_plan(rows: dict[str, dict], specs) -> list[str]:
    """Why rows of games.jsonl are not games of ``specs`` (empty: every row is
    one of them): one reason for each setting that differs, with the first
    row that shows it (:func:`_outside_reasons`)."""
    planned = set(spec_keys(specs))
    if planned.issuperset(rows):
        return []
    return reasons_outside([row for key, row in rows.items() if key not in planned], specs)


def _listing(items: list[str]) -> str:
    more = f"; and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return "; ".join(items[:SHOWN]) + more


def check_run(out_dir, config: dict, specs, rows, growable=(), outside: list[dict] | None = None) -> None:
    """Refuse (:class:`RunConfigError`) to run ``specs`` with ``config`` in
    ``out_dir`` if the folder holds another run: its run.json differs (a count
    in ``growable`` may grow), or a row of games.jsonl is not a planned game
    (the only check for a folder without run.json): ``rows``, the folder's
    rows by key, or None and ``outside``, its rows known to be no planned
    game (:class:`.ledger.Ledger`).  Changes nothing: :func:`write_run_config`
    records ``config`` afterwards."""
    out_dir = Path(out_dir)
    old = read_run_config(out_dir)
    differences = config_differences(old, _as_json(config), growable) if old is not None else []
    if differences:
        raise RunConfigError(
            f"{out_dir} holds another run: its {RUN_FILE} differs from this run's settings: "
            f"{_listing(differences)}. Nothing was changed: rerun with the folder's settings "
            f"to resume it, or choose another --out"
        )
    reasons = rows_outside_plan(rows, specs) if rows is not None else reasons_outside(outside or [], specs)
    if reasons:
        why = "" if old is not None else f" (it has no {RUN_FILE}: an older version's run)"
        raise RunConfigError(
            f"{out_dir} holds another run{why}: games in its {GAMES_FILE} are not games of this "
            f"run: {_listing(reasons)}. Nothing was changed: rerun with the folder's settings "
            f"to resume it, or choose another --out"
        )


__all__ = [
    "DamagedFileError",
    "DamagedLine",
    "FolderLockedError",
    "GAMES_FILE",
    "GamesFile",
    "LOCK_FILE",
    "RUN_FILE",
    "RowError",
    "RunConfigError",
    "check_row",
    "check_run",
    "config_differences",
    "drop_damaged",
    "read_rows",
    "read_run_config",
    "reasons_outside",
    "record_from_row",
    "replay_row",
    "rows_outside_plan",
    "scan_games",
    "scenario_files",
    "write_run_config",
]
