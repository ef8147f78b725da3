"""The run options (``hotspot.arena.options.RunOptions``): one frozen
dataclass for what every folder-writing runner shares, checked once when
made (one line naming the field), built by the command line from its
arguments, and taken by the runners as ``options=`` or as the keywords
they always took."""

from __future__ import annotations

import dataclasses
import json

import pytest

from hotspot.arena import ArenaError, run_arena
from hotspot.arena.options import RunOptions
from hotspot.arena.rating import PROTOCOL
from hotspot.cli import build_parser
from hotspot.cli.common import run_options
from hotspot.design import run_balance


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("workers", 0, "workers must be a positive integer, got 0"),
        ("chunk", -1, "chunk must be a positive integer"),
        ("max_games", 2.5, "max_games must be a positive integer"),
        ("max_actions", True, "max_actions must be a positive integer"),
        ("backend", "dask", "unknown backend 'dask'"),
        ("max_turns", 0, "max_turns must be None"),
        ("seed", "7", "seed must be an integer"),
        ("progress", "yes", "progress must be True or False"),
        ("drop_damaged", 2, "drop_damaged must be True or False"),
        ("address", 5, "address must be"),
        ("out", "", "out must be a folder's path"),
    ],
)
def test_a_bad_field_is_one_line_naming_it(field, value, words):
    with pytest.raises(ArenaError) as exc:
        RunOptions(**{field: value})
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_the_options_are_frozen_and_normalised():
    opts = RunOptions(max_turns=None, workers=2, progress=0)
    assert opts.max_turns is None and opts.workers == 2 and opts.progress is False
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.workers = 3


def test_the_defaults_are_the_evaluation_protocols():
    assert (RunOptions().seed, RunOptions().max_turns) == (PROTOCOL["seed"], PROTOCOL["max_turns"])


def test_merge_keywords_override_options_and_unknown_ones_are_refused():
    base = RunOptions(seed=3, workers=1)
    merged = RunOptions.merge(base, {"workers": 2}, out="default-folder", where="run_arena")
    assert (merged.seed, merged.workers, merged.out) == (3, 2, "default-folder")
    assert RunOptions.merge(RunOptions(out="mine"), {}, out="default-folder").out == "mine"
    with pytest.raises(TypeError, match="run_arena\\(\\) got an unexpected keyword argument 'wokers'"):
        RunOptions.merge(None, {"wokers": 2}, where="run_arena")


def test_the_command_line_builds_them_from_its_arguments():
    args = build_parser().parse_args(
        ["arena", "--seed", "5", "--workers", "2", "--max-turns", "none", "--no-progress", "--drop-damaged"]
    )
    opts = run_options(args)
    assert opts == RunOptions(seed=5, out="arena-results", workers=2, max_turns=None, progress=False, drop_damaged=True)


@pytest.mark.parametrize(
    "command", ["arena", "balance", "calibrate", "compare", "evaluate", "report", "search-deployment"]
)
def test_every_command_offers_every_run_option_with_its_declared_default(command):
    """The run options' flags are made from RunOptions' fields: each command
    that writes a folder has one for each field, and with no flags given the
    options are the dataclass's defaults (but the command's own folder and
    adjudication default)."""
    argv = {"calibrate": ["calibrate", "platform_turns=3..5"], "compare": ["compare", "random", "scripted"]}
    argv |= {"evaluate": ["evaluate", "random"], "search-deployment": ["search-deployment", "ziegler"]}
    argv |= {"report": ["report", "open"]}
    args = build_parser().parse_args(argv.get(command, [command]))
    opts = run_options(args)
    defaults = RunOptions()
    for f in dataclasses.fields(RunOptions):
        if f.name not in ("out", "adjudicate"):
            assert getattr(opts, f.name) == getattr(defaults, f.name), (command, f.name)


def _rows(folder):
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]


def test_options_and_keywords_play_the_same_games(tmp_path):
    common = {"pairings": [("random", "random")], "games": 2, "scenario": "standard"}
    by_keywords = run_arena(**common, seed=4, max_turns=3, workers=1, progress=False, out=tmp_path / "a")
    opts = RunOptions(seed=4, max_turns=3, workers=1, progress=False, out=tmp_path / "b")
    by_options = run_arena(**common, options=opts)
    strip = [{k: v for k, v in r.items() if k != "wall_s"} for r in _rows(tmp_path / "a")]
    assert strip == [{k: v for k, v in r.items() if k != "wall_s"} for r in _rows(tmp_path / "b")]
    assert by_keywords["config"]["max_turns"] == by_options["config"]["max_turns"] == 3


def test_a_runner_refuses_a_bad_option_before_touching_its_folder(tmp_path):
    with pytest.raises(ArenaError, match="^workers must be a positive integer"):
        run_balance(pairs=[("random", "random")], games=1, options=RunOptions(out=tmp_path / "x"), workers=0)
    assert not (tmp_path / "x").exists()
    with pytest.raises(TypeError, match="unexpected keyword argument 'seeds'"):
        run_arena(pairings=[("random", "random")], games=1, out=tmp_path / "y", seeds=3)
    assert not (tmp_path / "y").exists()


def test_every_runner_takes_the_run_options_as_options(tmp_path):
    """One way to pass run options: each runner's signature has ``options``
    (a RunOptions) and takes its fields as keywords; none has its own
    ``seed``/``out``/``workers`` parameters."""
    import inspect

    from hotspot.arena.compare import run_compare
    from hotspot.arena.evaluate import run_evaluate
    from hotspot.arena.runner import run_games
    from hotspot.design import run_calibration, run_report, search_deployment
    from hotspot.design.calibrate import run_halving

    fields = {f.name for f in dataclasses.fields(RunOptions)}
    for runner in (
        run_arena,
        run_balance,
        run_compare,
        run_evaluate,
        run_games,
        run_calibration,
        run_halving,
        search_deployment,
        run_report,
    ):
        params = inspect.signature(runner).parameters
        assert "options" in params and any(p.kind is p.VAR_KEYWORD for p in params.values()), runner.__name__
        assert not fields & set(params), (runner.__name__, fields & set(params))


def test_the_old_balance_keywords_warn_and_still_work(tmp_path):
    """Until 0.4: run_balance(options=[rules]) is rules=, run_options= is options=."""
    common = dict(pairs=[("random", "random")], games=1, workers=1, progress=False, plot=False, max_turns=3)
    new = run_balance(rules=[("platform_turns", [3, 4])], out=tmp_path / "new", **common)
    with pytest.warns(DeprecationWarning, match=r"run_balance\(rules=\.\.\.\)"):
        old = run_balance(options=[("platform_turns", [3, 4])], out=tmp_path / "old", **common)
    assert old["config"]["options"] == new["config"]["options"] == {"platform_turns": [3, 4]}
    with pytest.warns(DeprecationWarning, match=r"run_options= goes in 0.4"):
        run_balance(run_options=RunOptions(out=tmp_path / "old2"), **common)
    with pytest.raises(TypeError, match="not run_options= as well"):
        run_balance(options=RunOptions(), run_options=RunOptions(), **common)
