"""The ``hotspot`` command line: one module a subcommand (``hotspot.cli.play``,
``.replay``, ``.serve``, ``.scenario``, ``.arena``, ``.compare``, ``.balance``, ``.calibrate``,
``.search_deployment``, ``.evaluate``, ``.report``, ``.export``, ``.dataset``), each
with ``add_parser(sub)`` and ``run(args)``, and ``.common``, what they share.

    hotspot play [--technocrat human|AGENT] [--ziegler human|AGENT] [--seed N] [--scenario NAME|PATH]
                 [--option NAME=VALUE ...] [--max-turns N|none] [--record FILE] [--save FILE] [--load FILE]
                 [--quiet]
    hotspot replay FILE [--game N] [--html PAGE] [--step | --moves]
                                                (a game record, or row N of an arena games.jsonl)
    hotspot scenario NAME|PATH [--out FILE]     (print or save a scenario, e.g. random:7)
    hotspot serve [GAMES ...] [--port N] [--host ADDR] [--open]   (play, watch and replay in a browser)
    hotspot arena [--agents A,B | --pairings A:B,...] [--games N] [--scenario S] [--seed N] [--out DIR]
                  [--workers N] [--backend local|ray] [--address ADDR] [--max-games N] [--max-turns N|none]
                  [--drop-damaged] [--adjudicate RULES]
    hotspot compare A B [--elo0 E0] [--elo1 E1] [--alpha A] [--beta B] [--step N] [--games N] [--out DIR]
                  [--adjudicate RULES]          (a sequential test on game pairs: is A stronger than B?)
    hotspot balance [--scenarios S,...] [--option NAME=V1,V2 ...] [--pair T:Z ...] [--games N] [--out DIR]
                    [--technocrat A,B,... --ziegler A,B,...] [--precision H] [--step N]
                    [--probe NAME,...] [--probe-pair T:Z] [--report] [--max-turns N|none] [--drop-damaged]
    hotspot calibrate NAME=LOW..HIGH ... [--scenario S] [--pair T:Z] [--target P] [--trials N] [--games N]
                    [--finalists N] [--confirm-pair T:Z] [--confirm-games N] [--halving] [--report]
    hotspot search-deployment ziegler|technocrat [--candidates N] [--finalists N]
                    [--final-games N] [--games N] [--opponent AGENT] [--agent AGENT] [--base SCENARIO]
                    (``hotspot balance --calibrate`` / ``--search-deployment``: the same, until 0.3)
    hotspot evaluate AGENT [--opponents A,B,...] [--precision H] [--step N] [--games N] [--out DIR]
                    [--workers N] [--max-games N] [--minutes M] [--seat technocrat|ziegler] [--ratings FILE]
                                                (the standard protocol: a result card)
    hotspot report SETUP [SETUP ...] [--quick] [--agents A,B,...] [--games N] [--probe-games N]
                   [--probe-pair T:Z] [--deployments N] [--dice-seeds N] [--out DIR]
                                                (a game report: report.html and report.json)
    hotspot export FOLDER|GAMES.jsonl [--out FILE.parquet]
                                                (the games as Parquet: one file, or the folder's own shards)
    hotspot dataset FOLDER --seat technocrat|ziegler --out ID [--observation compact|flat|full] [--max-games N]
                                                (one seat's side of the games as a Minari dataset)

Wherever an agent is named it may be a registered name or alias, a spec with
parameters (``ismcts(iterations=64)``), your own ``module:attribute``
(``mybots:Greedy``; in ``--pairings`` write ``'mybots:Greedy vs scripted'``)
or a model file (``sb3(path=model.zip)``): a module or a model file runs
code, so only the command line names them (docs/evaluate.md).

``hotspot play`` with a ``human`` side is a game in the terminal
(``hotspot.human.terminal``: the board with its key, the log, the legal
actions numbered, typed commands, undo, save and ``--load``); without one it
plays the game between the agents and prints the result and the final board
(two random players by default, as before).

The rulebook has no turn limit (5.0, D19 revised).  ``--max-turns N`` stops a
game after turn N's Crustal Control phase with no winner (a truncation; the
arena and the balance tool count it as a draw, half a point); the default is
``hotspot.core.limits.DEFAULT_MAX_TURNS``, ``--max-turns none`` plays with no
limit.

A rerun of ``arena`` or ``balance`` with the same ``--out`` resumes the run if
its settings are those of the folder's ``run.json`` (``--games`` may grow) and
refuses otherwise, naming the settings that differ; a damaged line of
``games.jsonl`` is refused with its line number unless ``--drop-damaged``
(``hotspot.arena.folder``).  Every count (``--games``, ``--workers``, ...) must
be a positive integer.
"""

from __future__ import annotations

import argparse
import sys

from . import (
    arena,
    balance,
    calibrate,
    compare,
    dataset,
    evaluate,
    export,
    play,
    replay,
    report,
    scenario,
    search_deployment,
    serve,
)

#: the subcommands, in the order ``hotspot --help`` lists them
COMMANDS = (
    play,
    replay,
    serve,
    scenario,
    arena,
    compare,
    balance,
    calibrate,
    search_deployment,
    evaluate,
    report,
    export,
    dataset,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hotspot", description="Hot Spot (Metagaming, 1979): rules, simulator, arena")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, OSError, ImportError) as exc:
        print(f"hotspot: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        if args.command == "serve":
            return 0
        if args.command in ("arena", "balance", "calibrate", "search-deployment", "compare", "evaluate", "report"):
            print(
                "\nhotspot: interrupted; the finished games are in games.jsonl: rerun the same command "
                "to resume (with --drop-damaged if it reports a line cut short)",
                file=sys.stderr,
            )
        return 130


__all__ = ["COMMANDS", "build_parser", "main"]
