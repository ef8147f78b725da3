"""Target ``cli_args``: ``hotspot.cli.main(argv)`` with argument lists of the real
subcommands and options and junk values."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil

from .contract import check, refused, short
from .harness import target
from .inputs import st

CLI_VALUES = {
    "seed": ("0", "7", "-1", "x", "1.5", "99999999999999999999999", "", "0x10", "9" * 5000),
    "agent_seed": ("0", "3", "-1", "x", "18446744073709551616", ""),
    "scenario": (
        "standard",
        "open",
        "random",
        "random:3",
        "random:-1",
        "random:x",
        "random:" + "9" * 30,
        "random:" + "9" * 5000,
        "nope",
        "scen.json",
        "bad.json",
        "nonutf8.json",
        "missing.json",
        "",
        "dir",
        "rec.json",
    ),
    "scenarios": ("standard", "standard,open", "standard,,", ",", "random:1,x", "scen.json,bad.json", ""),
    "record": ("out.json", "dir", "sub/none/x.json", "rec.json/x", "", "a\x00b"),
    "html": ("out.html", "dir", "sub/none/x.html", "", "a\x00b"),
    "out": ("out", "dir", "rec.json", "sub/none/x", "", ".", "a\x00b"),
    "file": (
        "rec.json",
        "rec_initial.json",
        "bad.json",
        "nonutf8.json",
        "empty.json",
        "scen.json",
        "games.jsonl",
        "bad_games.jsonl",
        "missing.json",
        "dir",
        "deep.json",
        "huge.json",
        "rec\x00.json",
        "\x00",
    ),
    "name": (
        "standard",
        "open",
        "random:5",
        "random:x",
        "nope",
        "scen.json",
        "bad.json",
        "missing.json",
        "",
        "rec.json",
    ),
    "game": ("0", "1", "3", "-1", "99", "x", "99999999999999999999"),
    "agents": ("random", "random,scripted", "scripted", "nope", "", ",", "random,random", "random,nope"),
    "pairings": (
        "random:scripted",
        "random:random",
        "random:",
        "x:y",
        ":",
        "random:scripted,scripted:random",
        "random",
        "",
    ),
    "pair": ("random:random", "scripted:random", "random:", "x:y", ":", "random"),
    "option": (
        "combat_table=diagonal",
        "combat_table=d13,diagonal",
        "losses=owner",
        "nope=1",
        "combat_table=",
        "=",
        "platform_turns=3",
        "platform_turns=x",
        "attack=1",
        "stress_timing=every_phase,moving_side",
        "platform_turns=99999999999999999999",
        "x",
    ),
    "games": ("1", "2", "0", "-1", "x", ""),
    "max_games": ("1", "0", "-1", "x"),
    "max_actions": ("1", "10", "0", "-5", "x"),
    "chunk": ("1", "0", "-1", "x"),
    "workers": ("0", "-1", "x", "1.5"),
    "backend": ("local", "nope"),
    "address": ("auto", "x"),
    "max_turns": ("1", "2", "none", "0", "-1", "x", "10001", ""),
    "candidates": ("1", "2", "0", "-1", "x"),
    "random_candidates": ("0", "1", "-1", "x"),
    "finalists": ("1", "0", "-1", "x"),
    "final_games": ("1", "0", "-1", "x"),
    "search_deployment": ("nope", "ziegler", "technocrat"),
    "calibrate": ("platform_turns=3..4", "speed=1..2", "platform_turns=9..2", "x", ""),
    "opponent": ("random", "scripted", "nope"),
    "agent": ("random", "scripted", "nope"),
    "base": ("standard", "open", "nope", "bad.json"),
}


CLI_JUNK = ("", "-", "--", "--nope", "-x", "\x00", "\u00e9", "9" * 50, "--seed=1", "--help", "scenario")


# what keeps one call around a second (appended last: argparse keeps the last value)
CLI_TAIL = {
    "play": ["--max-turns", "1"],
    "serve": ["--port", "0"],  # a free port: examples never collide
    "arena": ["--workers", "1", "--no-progress", "--max-turns", "1"],
    "search-deployment": ["--workers", "1", "--no-progress", "--max-turns", "1"],
    "balance": ["--workers", "1", "--no-progress", "--no-plot", "--max-turns", "1"],
    "evaluate": ["--workers", "1", "--no-progress", "--no-plot", "--max-turns", "1"],
    "calibrate": ["--workers", "1", "--no-progress", "--max-turns", "1", "--trials", "1", "--games", "1"]
    + ["--finalists", "1", "--confirm-games", "1", "--candidates", "2"],
}


SEARCH_TAIL = [
    "--candidates",
    "2",
    "--random-candidates",
    "1",
    "--finalists",
    "1",
    "--final-games",
    "1",
    "--games",
    "1",
]


def cli_options():
    """{subcommand: [(option string, dest, takes a value)]} read from hotspot's parser."""
    from hotspot.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = {}
    for name, p in sub.choices.items():
        opts = []
        for action in p._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            takes = action.nargs != 0
            if action.option_strings:
                opts.append((action.option_strings[-1], action.dest, takes))
            else:
                opts.append((None, action.dest, True))
        out[name] = opts
    return out


def _setup_cli(workdir):
    """Files the arguments name (a record, arena games, scenarios, broken ones), made once."""
    import numpy as np

    from hotspot import Game
    from hotspot.cli import main
    from hotspot.core.actions import NUM_ACTIONS
    from hotspot.core.rollout import random_action
    from hotspot.core.scenario import dumps_scenario, load_scenario

    fixtures = workdir / "fixtures"
    shutil.rmtree(fixtures, ignore_errors=True)
    fixtures.mkdir(parents=True)
    game = Game("standard", seed=1, max_turns=1)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    rng = np.array([5], dtype=np.uint64)
    while not game.is_terminal():
        game.apply_action(int(random_action(game.s, mask, rng, 0)))
    game.record.save(fixtures / "rec.json")
    mid = Game.from_bytes(Game("open", seed=2).to_bytes())
    mid.record.save(fixtures / "rec_initial.json")
    (fixtures / "scen.json").write_text(dumps_scenario(load_scenario("open")))
    (fixtures / "bad.json").write_text('{"format": "hotspot-record", "version": 1, "seed": -1}')
    (fixtures / "nonutf8.json").write_bytes(b'{"format": "\xff\xfe"}')
    (fixtures / "empty.json").write_bytes(b"")
    (fixtures / "deep.json").write_bytes(b"[" * 100000 + b"]" * 100000)
    (fixtures / "huge.json").write_bytes(b'{"format": "hotspot-record", "version": ' + b"9" * 5000 + b"}")
    (fixtures / "dir").mkdir()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(
            [
                "arena",
                "--agents",
                "random",
                "--games",
                "1",
                "--max-turns",
                "1",
                "--workers",
                "1",
                "--no-progress",
                "--out",
                str(workdir / "arena"),
            ]
        )
    rows = (workdir / "arena" / "games.jsonl").read_bytes()
    (fixtures / "games.jsonl").write_bytes(rows)
    lines = rows.splitlines(keepends=True)
    (fixtures / "bad_games.jsonl").write_bytes(
        lines[0][: len(lines[0]) // 2] + b"\n" + b"".join(lines[1:]) + b"\xff{]\n"
    )
    return {"options": cli_options(), "fixtures": fixtures, "run": workdir / "run"}


def cli_strategy(ctx):
    s = st()
    options = ctx["options"]

    @s.composite
    def argv(draw):
        kind = draw(s.sampled_from(("command",) * 12 + ("help", "junk", "empty")))
        if kind == "empty":
            return []
        if kind == "junk":
            return draw(s.lists(s.one_of(s.sampled_from(CLI_JUNK), s.text(max_size=8)), min_size=1, max_size=4))
        command = draw(s.sampled_from(sorted(options)))
        if kind == "help":
            return [command, "--help"]
        args = [command]
        positional = [o for o in options[command] if o[0] is None]
        named = [o for o in options[command] if o[0] is not None]
        for _, dest, _ in positional:
            if draw(s.integers(0, 9)):  # a positional is sometimes missing
                args.append(draw(s.sampled_from(CLI_VALUES.get(dest, ("x",)))))
        for opt, dest, takes in draw(s.lists(s.sampled_from(named), max_size=5)):
            args.append(opt)
            if takes:
                args.append(draw(s.sampled_from(CLI_VALUES.get(dest, ("x", "1", "")))))
        if draw(s.integers(0, 9)) == 0:
            args.insert(draw(s.integers(0, len(args))), draw(s.sampled_from(CLI_JUNK)))
        tail = list(CLI_TAIL.get(command, []))
        if command in ("arena", "balance", "evaluate") and "--games" not in args:
            tail += ["--games", "1"]  # not the default 100 a pairing or cell (evaluate: 1000 an opponent)
        if command == "evaluate" and "--step" not in args:
            tail += ["--step", "1"]
        if command == "search-deployment" or (command == "balance" and "--search-deployment" in args):
            tail += SEARCH_TAIL
        return args + tail

    return argv()


@target(
    "cli_args",
    "hotspot.cli.main(argv) with argument lists of the real subcommands and options and junk "
    "values: exit 0, or exit 2 with a message; never a traceback",
    _setup_cli,
    cli_strategy,
    deadline_s=30.0,
)
def check_cli(ctx, argv):
    from hotspot import cli

    run = ctx["run"]
    shutil.rmtree(run, ignore_errors=True)
    shutil.copytree(ctx["fixtures"], run)
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(run)
    try:
        ctx["error"] = None
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            recording_errors(cli, ctx),
            server_returns_at_once(),
        ):
            try:
                code = cli.main(list(argv))
            except SystemExit as exc:
                code = exc.code
    finally:
        os.chdir(cwd)
    if code is None:
        code = 0
    text = out.getvalue() + err.getvalue()
    check(code in (0, 1, 2), f"exit status {short(code)} (expected 0, 1 or 2); stderr: {err.getvalue()[-500:]!r}")
    check("Traceback" not in text, f"a traceback was printed: {text[-1500:]}")
    if code != 0:
        check(err.getvalue().strip() != "", f"exit {code} without a message")
        exc = ctx["error"]
        # the OS's own errors name the path (a NUL in a path is Python's ValueError, not an OSError)
        if exc is not None and not isinstance(exc, OSError) and str(exc) != "embedded null byte":
            refused(exc, ValueError, ImportError)  # the message comes from a deliberate refusal
        return f"refused:exit {code}"
    return "accepted"


@contextlib.contextmanager
def server_returns_at_once():
    """``hotspot serve`` checks its arguments, builds its app and binds its
    socket as it would, then serves no request: the fuzzer judges the
    argument handling, not a server left running for ever."""
    import socketserver

    original = socketserver.BaseServer.serve_forever
    socketserver.BaseServer.serve_forever = lambda self, poll_interval=0.5: None
    try:
        yield
    finally:
        socketserver.BaseServer.serve_forever = original


@contextlib.contextmanager
def recording_errors(cli, ctx):
    """While main runs, the exception a subcommand raises (main prints it as
    ``hotspot: error: ...``) is kept in ``ctx["error"]`` so that it can be
    judged like any refusal."""
    original = cli.build_parser

    def build_parser():
        parser = original()
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        for p in sub.choices.values():
            func = p.get_default("func")

            def recording(args, func=func):
                try:
                    return func(args)
                except BaseException as exc:
                    ctx["error"] = exc
                    raise

            p.set_defaults(func=recording)
        return parser

    cli.build_parser = build_parser
    try:
        yield
    finally:
        cli.build_parser = original
