"""Fuzzing: hypothesis-drawn hostile input at every entry point.

Run from the repository's root (results go to ``benchmarks/results/fuzz.json``):

    python -m fuzz                                  # every target, 1,000 examples each
    python -m fuzz --examples 100000 --jobs 2       # the long run (BENCHMARKS.md, "Fuzzing")
    python -m fuzz --target record --examples 200 --seed 3
    python -m fuzz --replay WORKDIR/state_bytes/last_input.json   # one saved input again
    python -m fuzz --tiny                           # smoke sizes

The contract every target checks: an input is either *accepted*, and then
everything works on what it produced (the legal-action mask, rendering,
observations and encodings, legal actions applied with every invariant of
docs/state-layout.md still holding, the bytes and the record round trip), or
*refused* with the exception the entry point documents, raised on purpose
by a ``raise`` statement of the ``hotspot`` package (an ``IndexError``,
``KeyError``, ``UnicodeDecodeError``, ``RecursionError``, ``OverflowError``,
numba typing error or a ``TypeError``/``ValueError`` from inside some
library is a failure), and a refused input changes nothing (the game's or
the environment's state bytes, masks and record are identical before and
after).  A crash (a signal), a hang or an example slower than its deadline
is a failure too.

Targets (``--target``, default all):

``state_bytes``   ``core.from_bytes`` / ``Game.from_bytes`` on real states
                  (from games played a few random actions, every scenario
                  kind and rules choice) with fields set to drawn values,
                  bytes set or bits flipped; random bytes of the state's
                  length (with and without a valid version); wrong lengths;
                  batches; version-2 layouts; bytearray, memoryview and
                  things that are not bytes.  Refusal: ``StateError``
                  (``TypeError`` for what is not bytes).
``record``        ``GameRecord.load`` then ``replay`` on record files as
                  bytes: real records mutated as JSON (values replaced by
                  junk, deleted, added, ``initial_state`` bytes changed) and
                  as text (bytes set, inserted, cut, invalid UTF-8, huge
                  numbers), deep nesting, garbage.  Refusal: ``RecordError``.
``scenario_file`` ``load_scenario`` on scenario files as bytes (the built-in
                  scenarios, random set-ups and mid-game positions, mutated
                  as above) and ``Game(dict)`` / ``validate_scenario`` on
                  mutated dicts holding any Python value; then
                  ``scenario_to_state`` and ``Game`` with a drawn seed.
                  Refusal: ``ScenarioError``.
``actions``       ``Game.why_illegal`` / ``apply_action`` with ints of any
                  size and sign, numpy ints of every dtype, floats, bools,
                  strings, bytes, None, arrays, lists, fractions.  Refusal:
                  ``IllegalActionError`` (an integer not legal now) or
                  ``TypeError`` (not an integer); accepted exactly when the
                  mask says legal.
``env_step``      ``HotspotEnv.step`` (both illegal-action modes, both
                  sides, two opponents) with the actions above after a few
                  legal steps, ``reset`` with odd seeds and options, steps
                  before reset.  Refusal: ``IllegalActionError``,
                  ``TypeError``, ``ValueError`` (a seed), ``RuntimeError``
                  (no episode); "lose" mode ends the episode with reward -1
                  and the state unchanged.
``vector_env_step`` ``HotspotVectorEnv.step`` with arrays of every shape and
                  dtype, lists, scalars, legal and illegal values, and
                  ``reset`` with odd seeds and seed lists.  Refusal:
                  ``ValueError`` (shape, dtype, seed) or
                  ``IllegalActionError`` naming the game; no game changed.
``pettingzoo_step`` the AEC env's ``step``, actions as above.  Refusal:
                  ``IllegalActionError`` or ``TypeError``.
``cli_args``      ``hotspot.cli.main(argv)`` with argument lists drawn from
                  the real subcommands and options (read from the parser)
                  and junk values; each call bounded to a second or so
                  (``--max-turns 1``, one worker, at most 2 games, no Ray,
                  no search agent).  It must return or exit with 0 or 2,
                  print a message when not 0, and never a traceback; the
                  exception behind an error message must be a deliberate
                  refusal of the hotspot package (or the OS's error naming
                  a path).
``saved_game``    ``Session.load`` (a game saved by ``hotspot play`` or the
                  web app) on files as bytes: real saves (people and agents,
                  mid-game and over, conceded) mutated as JSON, often with
                  the checksum made right again so that the content is
                  checked, and as text; deep nesting, huge numbers, invalid
                  UTF-8, wrong types, garbage.  Refusal: ``SessionError``
                  naming the file; an accepted save replays to the same game
                  and saves back to the same JSON.
``play_load``     ``hotspot play --load FILE`` in-process
                  (``hotspot.cli.main``, no input: the terminal stops at the
                  end of its input) on the same files: exit 0, or exit 2 with
                  one line ``hotspot: error: ...`` naming the file, and never
                  a traceback; the error must be a deliberate refusal.

Isolation: without ``--in-process`` every target runs in a child process
(``python -m fuzz --in-process``), so a crash inside compiled code kills
the child only: the parent reports a child killed by a signal (or stopped by
the hang watchdog, ``--hang-s``) as a failure naming the target and its last
input.  Before each example the child writes the input to
``<workdir>/<target>/last_input.json`` (``--replay`` runs it again) and
``faulthandler`` writes the Python stack of a crash or hang next to it.
Failures keep their input (repr and base64 pickle).  Exit status 1 if any
target failed.  The workdir (``--workdir``, default a temporary folder) is
removed after a run without failures unless it was given.  Hypothesis runs
with a fixed ``--seed``, no example database and no shrinking, in runs of
``CHUNK`` examples (its memory grows with the examples of a run).

The package: :mod:`.contract` (what a deliberate refusal is), :mod:`.inputs`
(the shared strategies), :mod:`.games` (the real games and ``exercise``),
:mod:`.harness` (the runner and the command line), one module a target, and
:mod:`.selftest` (hidden targets that break the contract on purpose, for the
harness's own tests).  ``benchmarks._common`` (the results' JSON, the
machine) is shared with the benchmarks.
"""

# the targets register themselves, in this order (the default run's)
# isort: off
from . import state_bytes, record, scenario_file, actions, env_step, vector_env_step  # noqa: F401
from . import pettingzoo_step, cli_args, saved_game, play_load, selftest  # noqa: F401

# isort: on
from .contract import ContractError, check, deliberate, describe, raised_where, refused, same, undescribe
from .harness import TARGETS, Target, main, replay, run_child, run_target, target

__all__ = [
    "TARGETS",
    "ContractError",
    "Target",
    "check",
    "deliberate",
    "describe",
    "main",
    "raised_where",
    "refused",
    "replay",
    "run_child",
    "run_target",
    "same",
    "target",
    "undescribe",
]
