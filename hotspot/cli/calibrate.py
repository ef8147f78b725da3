"""``hotspot calibrate``: the values of rules options, counter factors or
forces that bring the Technocrat's score to a target (optuna's TPE, or
successive halving at one strong pair); writes a scenario, ``calibrated.json``.

    hotspot calibrate platform_turns=3..6 --scenario open --pair scripted:scripted
    hotspot calibrate forces.ziegler.infantry_squads=42..66 --halving --pair best:best

(``hotspot balance --calibrate`` is the same, kept for one release.)
"""

from __future__ import annotations

from .common import add_run_options, count_arg, given, parse_rules_options, positive, run_options


def add_parser(sub) -> None:
    """The ``hotspot calibrate`` subcommand's parser, added to ``sub``."""
    p = sub.add_parser(
        "calibrate",
        help="the rules or forces that bring the Technocrat's score to a target (writes a scenario)",
        description="Searches the knobs' values that bring the Technocrat's score to --target: optuna's TPE over "
        "--trials trials of --games mirrored games at --pair (cheap pairs), the --finalists best settings "
        "replayed with --confirm-games games, the nearest chosen and confirmed at --confirm-pair; or, with "
        "--halving, --candidates settings judged at one strong --pair by successive halving. Writes "
        "calibrated.json (a scenario), trials.csv and calibration.json to --out; a rerun resumes.",
    )
    p.add_argument(
        "calibrate",
        nargs="+",
        metavar="NAME=LOW..HIGH",
        help="a knob and its integer range: a numeric rules option (platform_turns=3..6), a counter "
        "factor (attack.technocrat_crawler=1..4, D5) or a force (forces.ziegler.hovercraft=3..9)",
    )
    p.add_argument(
        "--scenario", dest="scenarios", default="standard", help="the scenario calibrated (default standard)"
    )
    p.add_argument(
        "--option",
        action="append",
        default=None,
        metavar="NAME=VALUE",
        help="a rules option held at one value during the calibration (repeatable)",
    )
    p.add_argument(
        "--pair",
        action="append",
        default=None,
        metavar="TECHNOCRAT:ZIEGLER",
        help="the pair(s) the trials play (default scripted:scripted); with --halving exactly one",
    )
    p.add_argument(
        "--confirm-pair",
        action="append",
        default=None,
        metavar="TECHNOCRAT:ZIEGLER",
        help="the pair(s) that confirm the best setting (default: the --pair)",
    )
    p.add_argument("--target", type=float, default=0.5, help="the Technocrat score sought (default 0.5)")
    p.add_argument("--trials", type=positive, default=None, help="optuna trials (default 20)")
    p.add_argument(
        "--halving",
        action="store_true",
        help="judge --candidates settings at the one --pair by successive halving: --games games a candidate, "
        "the half nearest --target go on with twice the games, the last plays to --confirm-games",
    )
    p.add_argument(
        "--candidates", type=count_arg(2), default=None, help="with --halving: the settings judged (default 8)"
    )
    p.add_argument("--finalists", type=positive, default=None, help="the best distinct settings replayed (default 3)")
    p.add_argument(
        "--confirm-games", type=positive, default=None, help="games of each finalist and confirming pair (default 1000)"
    )
    p.add_argument("--report", action="store_true", help="write report.html (and its PNGs) in --out")
    add_run_options(p, "calibration", games_help="games a trial (default 100; with --halving, 16 a candidate)")
    p.set_defaults(func=run, games=None)


def run(args) -> int:
    """Run a calibration from parsed arguments (``hotspot calibrate``, or
    ``hotspot balance --calibrate``, whose namespace has the same names)."""
    from ..arena.tournament import parse_pairings
    from ..design.balance import parse_scenarios
    from ..design.calibrate import parse_knob, run_calibration, run_halving

    others = [
        flag
        for flag, name in (
            ("--technocrat", "technocrat"),
            ("--ziegler", "ziegler"),
            ("--precision", "precision"),
            ("--probe", "probe"),
            ("--probe-pair", "probe_pair"),
        )
        if getattr(args, name, None)
    ]
    if others:
        raise ValueError(
            f"--calibrate plays --pair and --confirm-pair, not {', '.join(others)}: run those as a separate grid"
        )
    scenarios = parse_scenarios(args.scenarios)
    if len(scenarios) != 1:
        raise ValueError("a calibration calibrates one scenario: give one scenario")
    rules = parse_rules_options(args.option, "a calibration plays under one value an option")
    knobs = [parse_knob(k) for k in args.calibrate]
    pairs = [p for item in args.pair for p in parse_pairings(item)] if args.pair else None
    confirm = [p for item in args.confirm_pair for p in parse_pairings(item)] if args.confirm_pair else None
    common = dict(rules=rules, target=args.target, options=run_options(args))
    if args.halving:
        if not pairs or len(pairs) != 1 or confirm:
            raise ValueError("--halving judges the candidates at one pair: give one --pair (no --confirm-pair)")
        chosen = given(candidates=args.candidates, games=args.games, confirm_games=args.confirm_games)
        summary = run_halving(scenarios[0], knobs, pair=pairs[0], **common, **chosen)
    else:
        chosen = given(trials=args.trials, games=args.games, confirm_games=args.confirm_games, finalists=args.finalists)
        summary = run_calibration(
            scenarios[0], knobs, pairs=pairs, confirm_pairs=confirm, report=args.report, **common, **chosen
        )
    print(summary["text"])
    return 0
