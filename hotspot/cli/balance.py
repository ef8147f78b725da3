"""``hotspot balance``: the Technocrat's score over a grid of set-ups and rules options.
``--calibrate`` and ``--search-deployment`` are ``hotspot calibrate`` and
``hotspot search-deployment`` (``.calibrate``, ``.search_deployment``), kept
here for one release with a warning.
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import calibrate, search_deployment
from .common import add_run_options, count_arg, positive, precision_arg, run_options


def add_parser(sub) -> None:
    """The ``hotspot balance`` subcommand's parser, added to ``sub``."""
    bal = sub.add_parser(
        "balance",
        help="Technocrat score (a draw half a point) over a grid of setups and rules options",
        description="Plays --games games in every cell (scenario x rules options x agent pair) "
        "and reports the Technocrat score (a draw half a point) with 95% Wilson intervals, as a table "
        "and a plot (balance.png in --out); a rerun resumes.",
    )
    _add_grid_arguments(bal)
    _add_calibration_flags(bal)
    _add_deployment_flags(bal)
    add_run_options(bal, "balance-results")
    bal.set_defaults(func=run, games=None)  # 100, or 2000 with --precision


def _add_grid_arguments(bal) -> None:
    """The grid's arguments: set-ups, rules options, agents, stopping, probes, report."""
    bal.add_argument(
        "--scenarios",
        default="standard",
        help="comma-separated: standard, open, balanced, balanced-strong, random (a set-up per game), random:SEED, JSON paths "
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
        type=precision_arg,
        default=None,
        metavar="H",
        help="sequential stopping: play each cell in steps of --step games until its 95%% interval's "
        "half-width is <= H (e.g. 0.03) or it has played --games games (default 2000 then)",
    )
    bal.add_argument("--step", type=positive, default=100, help="games a cell plays between looks (default 100)")
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


def _add_calibration_flags(bal) -> None:
    """The calibration's flags (``hotspot calibrate`` now; these go in 0.4)."""
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
    cal.add_argument("--trials", type=positive, default=None, help="optuna trials (default 20)")
    cal.add_argument(
        "--confirm-pair",
        action="append",
        default=None,
        metavar="TECHNOCRAT:ZIEGLER",
        help="the pair(s) that confirm the best setting (default: the --pair)",
    )
    cal.add_argument(
        "--halving",
        action="store_true",
        help="judge --candidates settings at the one --pair (a strong pair) by successive halving: --games games "
        "a candidate, the half nearest --target go on with twice the games, the last plays to --confirm-games",
    )
    cal.add_argument(
        "--confirm-games",
        type=positive,
        default=None,
        help="games of each finalist and confirming pair (default 1000)",
    )


def _add_deployment_flags(bal) -> None:
    """The deployment search's flags (``hotspot search-deployment`` now; these go in 0.4)."""
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
    search_deployment.add_players(dep)
    dep.add_argument(
        "--candidates",
        type=count_arg(2),
        default=None,
        help="deployments sampled (default 16), or with --calibrate --halving the settings judged (default 8)",
    )
    dep.add_argument(
        "--random-candidates",
        type=count_arg(0),
        default=None,
        help="how many of them are uniformly random legal set-ups (default 4)",
    )
    dep.add_argument(
        "--finalists",
        type=positive,
        default=None,
        help="candidates left for the final (default 2); with --calibrate, the best distinct settings "
        "played again with --confirm-games games (default 3)",
    )
    dep.add_argument("--final-games", type=positive, default=None, help="games per finalist (default 1000)")


def _moved(flag: str, command: str) -> None:
    print(f"hotspot: warning: 'hotspot balance {flag}' is now '{command}' (the flag goes in 0.4)", file=sys.stderr)


def run(args) -> int:
    from ..arena.tournament import parse_pairings
    from ..design.balance import parse_option, parse_scenarios, run_balance

    if args.search_deployment:
        _moved("--search-deployment SIDE", "hotspot search-deployment SIDE")
        return search_deployment.run(args)
    if args.calibrate:
        _moved("--calibrate NAME=LOW..HIGH", "hotspot calibrate NAME=LOW..HIGH")
        return calibrate.run(args)
    from ..design.balance import parse_agent_list, parse_probes

    pairs = None
    if args.pair:
        pairs = [p for item in args.pair for p in parse_pairings(item)]
    technocrats = parse_agent_list(args.technocrat, "technocrat") if args.technocrat else None
    zieglers = parse_agent_list(args.ziegler, "ziegler") if args.ziegler else None
    probes = parse_probes(",".join(args.probe)) if args.probe else ()
    probe_pairs = [p for item in args.probe_pair for p in parse_pairings(item)] if args.probe_pair else None
    summary = run_balance(
        scenarios=parse_scenarios(args.scenarios),
        rules=[parse_option(o) for o in args.option or []],
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
        options=run_options(args),
    )
    print(summary["text"])
    print(
        f"Results in {args.out}/ (games.jsonl, games.csv, run.json, summary.json, summary.csv"
        f"{', balance.png' if summary.get('plot') else ''}"
        f"{''.join(', ' + Path(p).name for p in summary.get('skill_plots') or [])}"
        f"{', report.html' if summary.get('report') else ''})"
    )
    return 0
