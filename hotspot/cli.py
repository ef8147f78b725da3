"""The ``hotspot`` command line.

    hotspot play [--technocrat human|AGENT] [--ziegler human|AGENT] [--seed N] [--scenario NAME|PATH]
                 [--option NAME=VALUE ...] [--max-turns N|none] [--record FILE] [--save FILE] [--load FILE]
                 [--quiet]
    hotspot replay FILE [--game N] [--html PAGE] [--step | --moves]
                                                (a game record, or row N of an arena games.jsonl)
    hotspot scenario NAME|PATH [--out FILE]     (print or save a scenario, e.g. random:7)
    hotspot serve [GAMES ...] [--port N] [--host ADDR] [--open]   (play, watch and replay in a browser)
    hotspot arena [--agents A,B | --pairings A:B,...] [--games N] [--scenario S] [--seed N] [--out DIR]
                  [--workers N] [--backend local|ray] [--address ADDR] [--max-games N] [--max-turns N|none]
                  [--drop-damaged]
    hotspot balance [--scenarios S,...] [--option NAME=V1,V2 ...] [--pair T:Z ...] [--games N] [--out DIR]
                    [--technocrat A,B,... --ziegler A,B,...] [--precision H] [--step N]
                    [--probe NAME,...] [--probe-pair T:Z] [--report] [--max-turns N|none] [--drop-damaged]
    hotspot balance --calibrate NAME=LOW..HIGH ... [--pair T:Z] [--target P] [--trials N] [--games N]
                    [--finalists N] [--confirm-pair T:Z] [--confirm-games N] [--report]
    hotspot balance --search-deployment ziegler|technocrat [--candidates N] [--finalists N]
                    [--final-games N] [--games N] [--opponent AGENT] [--agent AGENT] [--base SCENARIO]
    hotspot evaluate AGENT [--opponents A,B,...] [--precision H] [--step N] [--games N] [--out DIR]
                    [--workers N] [--max-games N] [--ratings FILE]   (the standard protocol: a result card)

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
from pathlib import Path

import numpy as np


def _random_game(scenario: str, seed: int, agent_seed: int | None, max_turns=None, rules=None):
    from .core.actions import NUM_ACTIONS
    from .core.game import Game
    from .core.rollout import random_action

    game = Game(scenario, seed=seed, rules=rules, max_turns=max_turns)
    if agent_seed is not None and agent_seed < 0:
        raise ValueError(f"--agent-seed must be a non-negative integer, got {agent_seed}")
    rng = np.array(
        [np.random.SeedSequence(seed if agent_seed is None else agent_seed).generate_state(1, dtype=np.uint64)[0]],
        dtype=np.uint64,
    )
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    while not game.is_terminal():
        game.apply_action(int(random_action(game.s, mask, rng, 0)))
    return game


def cmd_play(args) -> int:
    from .human import HUMAN, Session

    rules = _parse_rules_options(args.option) or None
    if args.load or HUMAN in (args.technocrat, args.ziegler):
        from .human.terminal import play_in_terminal

        if args.agent_seed is not None:
            raise ValueError("--agent-seed is for two random players; agents playing a person are seeded from --seed")
        if args.load:  # the save's agents may run code only if the person names them here too
            session = Session.load(args.load, allow_code={args.technocrat, args.ziegler})
        else:
            session = Session.new(
                technocrat=args.technocrat,
                ziegler=args.ziegler,
                scenario=args.scenario,
                seed=args.seed,
                rules=rules,
                max_turns=args.max_turns,
            )
        status = play_in_terminal(session, save_path=args.save, autosave=args.save is not None)
        if args.record:
            session.game.record.save(args.record)
            print(f"Record written to {args.record}")
        return status
    if (args.technocrat, args.ziegler) == ("random", "random"):
        game = _random_game(args.scenario, args.seed, args.agent_seed, args.max_turns, rules)
    else:  # agents only: the session plays them, seeded as the arena seeds them
        if args.agent_seed is not None:
            raise ValueError("--agent-seed is for two random players; other agents are seeded from --seed")
        session = Session.new(
            technocrat=args.technocrat,
            ziegler=args.ziegler,
            scenario=args.scenario,
            seed=args.seed,
            rules=rules,
            max_turns=args.max_turns,
        )
        session.advance()
        game = session.game
    if not args.quiet:
        print(game.render())
        print()
    result = (
        f"no winner: stopped by --max-turns {args.max_turns} (a truncation, not a result: the rulebook "
        f"has no turn limit, D19)"
        if game.is_truncated()
        else game.result()
    )
    print(
        f"Result: {result} after {game.turn} turn(s) and {len(game.record.actions)} actions "
        f"(scenario {args.scenario}, seed {args.seed})"
    )
    if args.record:
        game.record.save(args.record)
        print(f"Record written to {args.record}")
    return 0


def cmd_replay(args) -> int:
    from .core.game import Game
    from .core.record import GameRecord

    if str(args.file).endswith(".jsonl"):
        from .arena.folder import record_from_row, scan_games

        games = scan_games(args.file)
        if games.damaged:  # reported, not replayed: --game counts the valid rows
            print(f"hotspot: warning: {games.damaged_text()}; --game counts the other rows", file=sys.stderr)
        rows = list(games.rows.values())
        if not rows:
            raise ValueError(f"{args.file}: no game rows")
        n = 0 if args.game is None else args.game
        if not 0 <= n < len(rows):
            raise ValueError(
                f"{args.file}: --game must be in [0, {len(rows)}) (the row's position among the file's valid rows)"
            )
        row = rows[n]
        print(
            f"Game {n}: {row['pairing']}, technocrat {row['technocrat']}, ziegler {row['ziegler']}, "
            f"game {row['index']}, seed {row['seed']}, scenario {row['setup']}"
        )
        record = record_from_row(row)
    else:
        if args.game is not None:
            raise ValueError("--game is for an arena games.jsonl file")
        record = GameRecord.load(args.file)
    if args.step or args.moves:
        from .human.terminal import step_through

        shown = step_through(record, interactive=args.step and sys.stdin.isatty(), moves_only=args.moves)
        if shown < len(record.actions):  # stopped by the reader ('q')
            return 0
    game = Game.from_record(record)
    if not args.moves:
        print(game.render())
    result = f"no winner: stopped after turn {game.turn} by max_turns (D19)" if game.is_truncated() else game.result()
    print(f"\nResult: {result} after {len(game.record.actions)} actions")
    if args.html:
        from .env.viewer import write_replay_html

        write_replay_html(record, args.html)
        print(f"Replay viewer written to {args.html}")
    return 0


def cmd_serve(args) -> int:
    from .human.web import serve

    if any(not str(path).strip() for path in args.games):
        raise ValueError("serve: a GAMES path is empty (give a record, a games.jsonl or a run folder)")
    for item in args.agent:
        _offer_agent(item)
    serve(args.games, host=args.host, port=args.port, open_browser=args.open)
    return 0


def cmd_evaluate(args) -> int:
    from .arena.evaluate import run_evaluate
    from .arena.tournament import parse_agents

    card = run_evaluate(
        args.agent,
        opponents=parse_agents(args.opponents) if args.opponents else None,
        scenario=args.scenario,
        games=args.games,
        precision=args.precision,
        step=args.step,
        ratings=args.ratings,
        plot=not args.no_plot,
        **_run_kwargs(args),
    )
    print(card["text"])
    print(
        f"Card in {card['folder']}/ (card.txt, card.json{', card.png' if card.get('plot') else ''}; every game in games.jsonl)"
    )
    return 0


def _run_kwargs(args) -> dict:
    """The options every folder-writing command shares (``_add_run_options``), as keyword arguments."""
    return {
        "seed": args.seed,
        "out": args.out,
        "workers": args.workers,
        "backend": args.backend,
        "address": args.address,
        "chunk": args.chunk,
        "max_games": args.max_games,
        "progress": not args.no_progress,
        "max_actions": args.max_actions,
        "max_turns": args.max_turns,
        "drop_damaged": args.drop_damaged,
    }


def _offer_agent(item: str) -> None:
    """``--agent NAME=SPEC`` of ``hotspot serve``: the person starting the
    server offers agent SPEC (a module:attribute agent or a model file may
    be one) under the plain name NAME, which the page's requests may name;
    the requests themselves never name a module or a file."""
    from .arena.registry import canonical_agent, make_agent, register_agent

    name, eq, spec = item.partition("=")
    name, spec = name.strip(), spec.strip()
    if not eq or not name or not spec:
        raise ValueError(f"--agent {item!r}: expected NAME=SPEC, e.g. mine=mybots:Greedy or 'ppo=sb3(path=model.zip)'")
    canonical = canonical_agent(spec)  # checked (and imported) now: a bad spec is refused before the server starts
    try:
        register_agent(
            name,
            lambda seed=None: make_agent(canonical, seed=seed),
            f"{canonical} (offered by the server's command line)",
        )
    except ValueError as exc:
        raise ValueError(
            f"--agent {item!r}: {name!r} cannot name it ({str(exc).split(' (')[0]}); choose another NAME"
        ) from None


def _parse_rules_options(items) -> dict:
    from .arena.balance import parse_option

    rules = {}
    for item in items or []:
        key, values = parse_option(item)
        if len(values) != 1:
            raise ValueError(f"--option {item!r}: the arena takes one value an option (a grid is `hotspot balance`)")
        rules[key] = values[0]
    return rules


def cmd_arena(args) -> int:
    from .arena.registry import (
        DEFAULT_MAX_SECONDS_PER_GAME,
        agent_costs,
        agent_parameters,
        aliases,
        available_agents,
        default_agents,
        needs_parameters,
        registered_agents,
    )
    from .arena.tournament import parse_agents, parse_pairings, run_arena

    if args.list_agents:
        avail, default, costs = set(available_agents()), set(default_agents()), agent_costs()
        for name, desc in registered_agents().items():
            state = (
                "default"
                if name in default
                else "available"
                if name in avail
                else "adapter"
                if needs_parameters(name)
                else "not available"
            )
            cost = "?" if costs[name] is None else f"{costs[name]:g} s"
            print(f"{name:15s} {state:13s} {cost:>8s}/game  {desc}")
            if agent_parameters(name) != "no parameters":
                print(f"{'':15s} parameters: {agent_parameters(name)}")
        for alias, spec in aliases().items():
            print(f"{alias:15s} {'alias':13s} {'':>8s}       {spec}")
        print(
            f"(default: the round robin without --agents: every available agent whose games take at most "
            f"{DEFAULT_MAX_SECONDS_PER_GAME:g} s; '?': not measured; an agent with parameters is named by a "
            f"spec such as 'ismcts(iterations=256,think_ms=500)'; an adapter with its file, 'sb3(path=model.zip)'; "
            f"your own agent as module:attribute, e.g. 'mybots:Greedy' (docs/evaluate.md))"
        )
        return 0
    if args.pairings and args.agents:
        raise ValueError("give --agents (a round robin) or --pairings, not both")
    agents = parse_agents(args.agents) if args.agents else None
    pairings = parse_pairings(args.pairings) if args.pairings else None
    summary = run_arena(
        agents=agents,
        pairings=pairings,
        games=args.games,
        scenario=args.scenario,
        rules=_parse_rules_options(args.option),
        self_play=not args.no_self_play,
        **_run_kwargs(args),
    )
    print(summary["text"])
    print(f"Results in {args.out}/ (games.jsonl, run.json, summary.json, summary.csv, ratings.csv)")
    return 0


def cmd_balance(args) -> int:
    from .arena.balance import parse_option, parse_scenarios, run_balance
    from .arena.tournament import parse_pairings

    if args.search_deployment:
        return _search_deployment(args)
    from .arena.balance import parse_agent_list, parse_probes

    if args.calibrate:
        return _calibrate(args)
    pairs = None
    if args.pair:
        pairs = [p for item in args.pair for p in parse_pairings(item)]
    technocrats = parse_agent_list(args.technocrat, "technocrat") if args.technocrat else None
    zieglers = parse_agent_list(args.ziegler, "ziegler") if args.ziegler else None
    probes = parse_probes(",".join(args.probe)) if args.probe else ()
    probe_pairs = [p for item in args.probe_pair for p in parse_pairings(item)] if args.probe_pair else None
    summary = run_balance(
        scenarios=parse_scenarios(args.scenarios),
        options=[parse_option(o) for o in args.option or []],
        pairs=pairs,
        technocrats=technocrats,
        zieglers=zieglers,
        precision=args.precision,
        step=args.step,
        probes=probes,
        probe_pairs=probe_pairs,
        report=args.report,
        games=args.games,
        plot=not args.no_plot,
        **_run_kwargs(args),
    )
    print(summary["text"])
    print(
        f"Results in {args.out}/ (games.jsonl, games.csv, run.json, summary.json, summary.csv"
        f"{', balance.png' if summary.get('plot') else ''}"
        f"{''.join(', ' + Path(p).name for p in summary.get('skill_plots') or [])}"
        f"{', report.html' if summary.get('report') else ''})"
    )
    return 0


def _precision_arg(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 0.5), got {text!r}") from None
    if not 0 < value < 0.5:
        raise argparse.ArgumentTypeError(f"expected a half-width in (0, 0.5), e.g. 0.03, got {text!r}")
    return value


def _calibrate(args) -> int:
    from .arena.balance import parse_option, parse_scenarios
    from .arena.calibrate import parse_knob, run_calibration
    from .arena.tournament import parse_pairings

    others = [
        flag
        for flag, value in (
            ("--technocrat", args.technocrat),
            ("--ziegler", args.ziegler),
            ("--precision", args.precision),
            ("--probe", args.probe),
            ("--probe-pair", args.probe_pair),
        )
        if value
    ]
    if others:
        raise ValueError(
            f"--calibrate plays --pair and --confirm-pair, not {', '.join(others)}: run those as a separate grid"
        )
    scenarios = parse_scenarios(args.scenarios)
    if len(scenarios) != 1:
        raise ValueError("--calibrate calibrates one scenario: give one --scenarios")
    rules = {}
    for item in args.option or []:
        key, values = parse_option(item)
        if len(values) != 1:
            raise ValueError(f"--option {item!r}: a calibration plays under one value an option")
        rules[key] = values[0]
    pairs = [p for item in args.pair for p in parse_pairings(item)] if args.pair else None
    confirm = [p for item in args.confirm_pair for p in parse_pairings(item)] if args.confirm_pair else None
    summary = run_calibration(
        scenarios[0],
        [parse_knob(k) for k in args.calibrate],
        rules=rules,
        pairs=pairs,
        target=args.target,
        trials=args.trials,
        games=100 if args.games is None else args.games,
        confirm_pairs=confirm,
        confirm_games=args.confirm_games,
        finalists=args.finalists,
        seed=args.seed,
        out=args.out,
        workers=args.workers,
        max_turns=args.max_turns,
        progress=not args.no_progress,
        report=args.report,
    )
    print(summary["text"])
    return 0


def _search_deployment(args) -> int:
    from .arena.balance import parse_option
    from .arena.deployment import search_deployment

    rules = {}
    for item in args.option or []:
        key, values = parse_option(item)
        if len(values) != 1:
            raise ValueError(f"--option {item!r}: a deployment search plays under one value an option")
        rules[key] = values[0]
    out = args.out if args.out != "balance-results" else "deployment-search"
    summary = search_deployment(
        args.search_deployment,
        opponent=args.opponent,
        agent=args.agent,
        base=args.base,
        candidates=args.candidates,
        random_candidates=args.random_candidates,
        games=100 if args.games is None else args.games,
        finalists=args.finalists,
        final_games=args.final_games,
        seed=args.seed,
        rules=rules or None,
        max_turns=args.max_turns,
        out=out,
        workers=args.workers,
        progress=not args.no_progress,
        drop_damaged=args.drop_damaged,
    )
    print(summary["text"])
    print(f"Results in {out}/ (best.json, search.json, run.json, candidates/, round*/games.jsonl)")
    return 0


def _count_arg(low: int):
    """An argparse ``type``: an integer >= ``low`` (a count: games, workers, ...);
    argparse names the argument in its one-line error."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low:
            what = "a positive integer" if low == 1 else f"an integer >= {low}"
            raise argparse.ArgumentTypeError(f"must be {what}, got {value}")
        return value

    parse.__name__ = "count"
    return parse


_positive = _count_arg(1)


def _add_run_options(p, default_out: str, games_help: str | None = None) -> None:
    p.add_argument(
        "--games",
        type=_positive,
        default=100,
        help=games_help or "games per side of a pairing / per cell (default 100); a rerun may raise it",
    )
    p.add_argument("--seed", type=int, default=0, help="master seed: game i's seed derives from it (default 0)")
    p.add_argument(
        "--out",
        default=default_out,
        help=f"output folder (default {default_out}); a rerun with the same settings resumes it, "
        f"other settings are refused (run.json)",
    )
    p.add_argument(
        "--drop-damaged",
        action="store_true",
        help="drop damaged lines of games.jsonl (reported with their line numbers) and play their "
        "games again; without it a run refuses to resume over them",
    )
    p.add_argument(
        "--workers", type=_positive, default=None, help="parallel processes (default: all cores; 1: no pool)"
    )
    p.add_argument("--chunk", type=_positive, default=None, help="games per task (default: automatic)")
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local processes, or a Ray cluster (pip install 'hotspot[ray]')",
    )
    p.add_argument(
        "--address",
        default=None,
        help="Ray cluster address (e.g. auto or ray://host:10001); default: a local Ray instance",
    )
    p.add_argument(
        "--max-games",
        type=_positive,
        default=None,
        help="play at most this many new games now; rerun the same command to go on",
    )
    p.add_argument(
        "--max-actions", type=_positive, default=None, help="safety limit of actions a game (default 200000)"
    )
    _add_max_turns(p, "a game still going then is a draw: half a point to each side")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _max_turns_arg(text):
    from .core.limits import parse_max_turns

    try:
        return parse_max_turns(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_max_turns(p, what: str) -> None:
    from .core.limits import DEFAULT_MAX_TURNS

    p.add_argument(
        "--max-turns",
        type=_max_turns_arg,
        default=DEFAULT_MAX_TURNS,
        metavar="N|none",
        help=f"stop a game after turn N's Crustal Control phase with no winner (D19 revised: the "
        f"rulebook has no turn limit; {what}); 'none': no limit (default {DEFAULT_MAX_TURNS})",
    )


def cmd_scenario(args) -> int:
    import json
    from .core.scenario import load_scenario, save_scenario

    data = load_scenario(args.name)
    if args.out:
        save_scenario(data, args.out)
        print(f"Scenario written to {args.out}")
    else:
        print(json.dumps(data, indent=1))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hotspot", description="Hot Spot (Metagaming, 1979): rules, simulator, arena")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser(
        "play",
        help="play a game in the terminal (a 'human' side), or one game between "
        "agents (default: two random players) and print the result and final board",
        description="With --technocrat human and/or --ziegler human: a game in the terminal "
        "(type 'help' there). Without: one game between the agents, result and "
        "final board printed.",
    )
    play.add_argument(
        "--technocrat",
        default="random",
        metavar="human|AGENT",
        help="who plays the Technocrat: 'human' (you, in the terminal) or an agent, by name, "
        "alias ('best': the strongest) or spec such as 'ismcts(iterations=256)' "
        "(see hotspot arena --list-agents; default random)",
    )
    play.add_argument(
        "--ziegler",
        default="random",
        metavar="human|AGENT",
        help="who plays the Ziegler: 'human' or an agent, by name, alias or spec (default random)",
    )
    play.add_argument(
        "--load",
        default=None,
        metavar="FILE",
        help="resume a saved game (saved with 'save FILE' in the game or --save)",
    )
    play.add_argument(
        "--save",
        default=None,
        metavar="FILE",
        help="save the game to FILE after every decision (resume with --load FILE)",
    )
    play.add_argument(
        "--option",
        action="append",
        default=None,
        metavar="NAME=VALUE",
        help="rules option override, e.g. losses=owner (repeatable; names and values as RulesOptions.describe())",
    )
    play.add_argument("--seed", type=int, default=0, help="dice seed (default 0)")
    play.add_argument(
        "--agent-seed", type=int, default=None, help="seed of the random players (default: the dice seed)"
    )
    play.add_argument(
        "--scenario",
        default="standard",
        help="built-in name (standard, open: set-up by the players, random, random:SEED) or JSON path",
    )
    play.add_argument("--record", default=None, help="write the game record (JSON) to this file")
    _add_max_turns(play, "the game then has no result")
    play.add_argument("--quiet", action="store_true", help="print only the result")
    play.set_defaults(func=cmd_play)
    replay = sub.add_parser(
        "replay", help="replay a game record (or a game of an arena games.jsonl) and print the final board"
    )
    replay.add_argument("file")
    replay.add_argument("--game", type=int, default=None, help="for a games.jsonl: the row to replay (0-based)")
    replay.add_argument("--html", default=None, help="also write the HTML replay viewer to this file")
    steps = replay.add_mutually_exclusive_group()
    steps.add_argument(
        "--step",
        action="store_true",
        help="list the moves with what each caused (rolls, collisions, combat results); at a "
        "terminal, one move per Enter (b: board, c: to the end, q: stop)",
    )
    steps.add_argument("--moves", action="store_true", help="print the plain move list and the result")
    replay.set_defaults(func=cmd_replay)
    srv = sub.add_parser(
        "serve",
        help="play against an agent, watch agents or replay games in a browser",
        description="A local web app (http://localhost:PORT/): play a game against any agent by "
        "clicking hexes and counters, watch two agents play, and open the games given "
        "here in the replay viewer. Only this machine can reach it unless --host says "
        "otherwise. Ctrl-C stops it.",
    )
    srv.add_argument(
        "games",
        nargs="*",
        metavar="GAMES",
        help="games to offer for replay: game records (JSON), arena games.jsonl files or run folders",
    )
    srv.add_argument("--port", type=_count_arg(0), default=8000, help="port (default 8000; 0: any free port)")
    srv.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every network)",
    )
    srv.add_argument("--open", action="store_true", help="open the page in the default web browser")
    srv.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer agent SPEC (your module:attribute, or sb3(path=model.zip)) on the page as NAME; repeatable "
        "(the page's requests name agents only by registered names, never a module or a file)",
    )
    srv.set_defaults(func=cmd_serve)
    scen = sub.add_parser(
        "scenario",
        help="print or save a scenario",
        description="Prints a scenario as JSON, or writes it to --out: a file to edit and play with "
        "--scenario FILE (docs/rules.md).",
    )
    scen.add_argument(
        "name",
        help="a built-in scenario (standard, open, balanced), random or random:N (a random set-up, N its "
        "seed), or a scenario JSON file",
    )
    scen.add_argument("--out", default=None, help="write the scenario to this JSON file instead of printing it")
    scen.set_defaults(func=cmd_scenario)
    arena = sub.add_parser(
        "arena",
        help="play agents against each other (both sides) and rate them",
        description="Round robin of agents (default: every available agent whose games take at most "
        "a second, random, scripted and learned now, each also against itself) or chosen pairings, each pairing played as both sides. Writes "
        "games.jsonl (every game, with its seed and actions), summary.json, "
        "summary.csv and ratings.csv to --out; a rerun resumes.",
    )
    arena.add_argument(
        "--agents",
        default=None,
        help="comma-separated agents (names, aliases or specs such as "
        "'ismcts(iterations=64,think_ms=500)') for the round robin, or 'all' "
        "(default: the fast agents, at most 1 s a game: random,scripted,learned; "
        "see --list-agents)",
    )
    arena.add_argument(
        "--pairings",
        default=None,
        help="comma-separated AGENT:AGENT pairings instead of a round robin "
        "(AGENT: a name, alias or spec, e.g. 'ismcts(iterations=256):scripted')",
    )
    arena.add_argument(
        "--scenario",
        default="open",
        help="open (default: the rulebook game, both sides deploy, 3.2, 3.3), standard (a fixed "
        "set-up), random (a random setup per game), random:SEED or a JSON path",
    )
    arena.add_argument(
        "--option",
        action="append",
        default=None,
        metavar="NAME=VALUE",
        help="rules option override, e.g. combat_table=diagonal (repeatable; "
        "names and values as RulesOptions.describe())",
    )
    arena.add_argument("--no-self-play", action="store_true", help="leave out the agent-vs-itself pairings")
    arena.add_argument("--list-agents", action="store_true", help="list the agents and exit")
    _add_run_options(arena, "arena-results")
    arena.set_defaults(func=cmd_arena)
    bal = sub.add_parser(
        "balance",
        help="Technocrat win rate over a grid of setups and rules options",
        description="Plays --games games in every cell (scenario x rules options x agent pair) "
        "and reports the Technocrat win rate with 95% Wilson intervals, as a table "
        "and a plot (balance.png in --out); a rerun resumes.",
    )
    bal.add_argument(
        "--scenarios",
        default="standard",
        help="comma-separated: standard, open, balanced, random (a set-up per game), random:SEED, JSON paths "
        "(default: standard)",
    )
    bal.add_argument(
        "--option",
        action="append",
        default=None,
        metavar="NAME=V1,V2,...",
        help="a rules option and its values, e.g. combat_table=d13,diagonal or "
        "platform_turns=3,4,5 (repeatable: the grid is every combination; names and values as "
        "RulesOptions.describe())",
    )
    bal.add_argument(
        "--pair",
        action="append",
        default=None,
        metavar="TECHNOCRAT:ZIEGLER",
        help="agent pair(s), Technocrat first (repeatable or comma-separated; default "
        "scripted:scripted, or random:random without the scripted agent)",
    )
    bal.add_argument(
        "--technocrat",
        default=None,
        metavar="A,B,...",
        help="skill grid: the Technocrat's agents (every one plays every --ziegler agent; "
        "one list alone is used for both sides)",
    )
    bal.add_argument("--ziegler", default=None, metavar="A,B,...", help="skill grid: the Ziegler's agents")
    bal.add_argument(
        "--precision",
        type=_precision_arg,
        default=None,
        metavar="H",
        help="sequential stopping: play each cell in steps of --step games until its 95%% interval's "
        "half-width is <= H (e.g. 0.03) or it has played --games games (default 2000 then)",
    )
    bal.add_argument("--step", type=_positive, default=100, help="games a cell plays between looks (default 100)")
    bal.add_argument(
        "--probe",
        action="append",
        default=None,
        metavar="NAME",
        help="restricted-play probe(s), comma-separated or repeated: fog-technocrat, fog-ziegler "
        "(that side sees through the fog, R9.5b), no-hover-second-move, no-close-assaults, or "
        "NAME=VALUE of a rules option; each is played with the base cell's agents and seeds",
    )
    bal.add_argument(
        "--probe-pair",
        action="append",
        default=None,
        metavar="TECHNOCRAT:ZIEGLER",
        help="the pairs the probes play (default: the grid's agents against themselves)",
    )
    bal.add_argument(
        "--report",
        action="store_true",
        help="write report.html (and its PNGs) in --out: grid, probes, calibration, game lengths, draws",
    )
    bal.add_argument("--no-plot", action="store_true", help="no balance.png")
    cal = bal.add_argument_group(
        "calibration",
        "--calibrate NAME=LOW..HIGH (repeatable) searches the knobs' values that bring the Technocrat's score to "
        "--target with optuna (TPE): --trials trials of --games games (mirrored seeds) at --pair (cheap pairs); "
        "the --finalists best settings replayed with --confirm-games games, the nearest chosen and confirmed at "
        "--confirm-pair; writes calibrated.json (a scenario), trials.csv and calibration.json to --out",
    )
    cal.add_argument(
        "--calibrate",
        action="append",
        default=None,
        metavar="NAME=LOW..HIGH",
        help="a knob and its integer range: a numeric rules option (platform_turns=3..6), a counter "
        "factor (attack.technocrat_crawler=1..4, D5) or a force (forces.ziegler.hovercraft=3..9)",
    )
    cal.add_argument("--target", type=float, default=0.5, help="the Technocrat score sought (default 0.5)")
    cal.add_argument("--trials", type=_positive, default=20, help="optuna trials (default 20)")
    cal.add_argument(
        "--confirm-pair",
        action="append",
        default=None,
        metavar="TECHNOCRAT:ZIEGLER",
        help="the pair(s) that confirm the best setting (default: the --pair)",
    )
    cal.add_argument(
        "--confirm-games",
        type=_positive,
        default=1000,
        help="games of each finalist and confirming pair (default 1000)",
    )
    dep = bal.add_argument_group(
        "deployment search (3.2, 3.3, D21)",
        "--search-deployment SIDE improves SIDE's set-up against a fixed opponent instead of a grid: "
        "successive halving over sampled deployments (--games is the first round's games per candidate), "
        "then --final-games games for each finalist with 95% intervals; writes best.json (a scenario) to --out "
        "(default deployment-search)",
    )
    dep.add_argument(
        "--search-deployment",
        choices=("ziegler", "technocrat"),
        default=None,
        metavar="SIDE",
        help="the side whose deployment is searched (ziegler or technocrat)",
    )
    dep.add_argument("--opponent", default="scripted", help="the opponent's agent (default scripted)")
    dep.add_argument(
        "--agent",
        default="scripted",
        help="the searching side's agent: its set-up plan draws the candidates and it plays them (default scripted)",
    )
    dep.add_argument(
        "--base",
        default=None,
        help="scenario holding the fixed part (default: open for the "
        "Ziegler, standard's Ziegler set-up for the Technocrat)",
    )
    dep.add_argument("--candidates", type=_count_arg(2), default=16, help="deployments sampled (default 16)")
    dep.add_argument(
        "--random-candidates",
        type=_count_arg(0),
        default=4,
        help="how many of them are uniformly random legal set-ups (default 4)",
    )
    dep.add_argument(
        "--finalists",
        type=_positive,
        default=2,
        help="candidates left for the final (default 2); with --calibrate, the best distinct settings "
        "played again with --confirm-games games",
    )
    dep.add_argument("--final-games", type=_positive, default=1000, help="games per finalist (default 1000)")
    _add_run_options(bal, "balance-results")
    bal.set_defaults(func=cmd_balance, games=None)  # 100, or 2000 with --precision
    ev = sub.add_parser(
        "evaluate",
        help="rate any agent by the standard protocol: the reference ladder, both seats, a result card",
        description="Plays AGENT against each agent of the reference ladder (random, scripted, ismcts, "
        "portfolio, portfolio(horizon=2)) as Technocrat and as Ziegler on mirrored seeds, on open, until "
        "each score's 95% interval is within --precision, and prints a card: scores by opponent and seat, "
        "and ratings on the published scale (scripted = 1000). Writes card.txt, card.json, card.png and "
        "every game to --out; a rerun resumes. docs/evaluate.md",
    )
    ev.add_argument(
        "agent",
        metavar="AGENT",
        help="the agent: a name or spec ('ismcts(iterations=64)'), your own module:attribute "
        "('mybots:Greedy'), or a model file ('sb3(path=model.zip)')",
    )
    ev.add_argument(
        "--opponents", default=None, metavar="A,B,...", help="a subset of the reference ladder (default: all of it)"
    )
    ev.add_argument(
        "--scenario", default="open", help="the protocol's scenario (default open; another has no published ratings)"
    )
    ev.add_argument(
        "--precision",
        type=_precision_arg,
        default=0.05,
        help="stop an opponent when the score's 95%% interval has this half-width (default 0.05)",
    )
    ev.add_argument("--step", type=_positive, default=50, help="games a side between looks (default 50)")
    ev.add_argument("--ratings", default=None, help="another reference ratings file (default: the published one)")
    ev.add_argument("--no-plot", action="store_true", help="no card.png")
    _add_run_options(ev, "evaluate-results/AGENT", "the most games a side against one opponent (default 1000)")
    ev.set_defaults(func=cmd_evaluate, games=1000, out=None)
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
        if args.command in ("arena", "balance", "evaluate"):
            print(
                "\nhotspot: interrupted; the finished games are in games.jsonl: rerun the same command "
                "to resume (with --drop-damaged if it reports a line cut short)",
                file=sys.stderr,
            )
        return 130


if __name__ == "__main__":
    sys.exit(main())
