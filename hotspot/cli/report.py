"""``hotspot report SETUP...``: a game report of set-ups, side by side (HTML + JSON)."""

from __future__ import annotations

from .common import add_run_options, positive, run_options


def add_parser(sub) -> None:
    """The ``hotspot report`` subcommand's parser, added to ``sub``."""
    rep = sub.add_parser(
        "report",
        help="a game report of one or more set-ups: balance along the skill ladder, skill depth, chance, "
        "decisiveness, what the fog and each force are worth (report.html, report.json)",
        description="Plays every agent of --agents against every one on each SETUP (mirrored seeds), the fog "
        "probes and each force one counter down and up at a cheap pair, and the same deployments under other "
        "dice, then writes report.html (with its PNGs) and report.json to --out, the set-ups side by side, and prints "
        "the verdicts and each set-up's paired difference against the first (game by game on the same seeds). "
        "--quick: scripted and one cheap strong agent, sizes for a few minutes on two cores. A rerun resumes. "
        "docs/balance.md#the-game-report",
    )
    rep.add_argument(
        "setups",
        nargs="+",
        metavar="SETUP",
        help="a preset (open, standard, balanced, balanced-strong) or a scenario file (hotspot scenario NAME --out FILE)",
    )
    rep.add_argument(
        "--agents",
        default=None,
        metavar="A,B,...",
        help="the skill ladder (default: the reference ladder random,scripted,ismcts,portfolio,"
        "portfolio(horizon=2); with --quick: scripted,portfolio(value=learned))",
    )
    rep.add_argument("--quick", action="store_true", help="scripted and one cheap strong agent, small sizes")
    rep.add_argument(
        "--probe-games",
        type=positive,
        default=None,
        help="games of each fog probe and force change (default 400; quick 60)",
    )
    rep.add_argument(
        "--probe-pair",
        default="scripted:scripted",
        metavar="TECHNOCRAT:ZIEGLER",
        help="the pair that plays the probes and the forces (default scripted:scripted)",
    )
    rep.add_argument(
        "--deployments",
        type=positive,
        default=None,
        help="deployments replayed under other dice (default 40; quick 10)",
    )
    rep.add_argument("--dice-seeds", type=positive, default=None, help="dice seeds a deployment (default 25; quick 10)")
    rep.add_argument("--no-forces", action="store_true", help="no per-force changes")
    rep.add_argument("--no-plot", action="store_true", help="no PNGs")
    add_run_options(rep, "report", "games a cell of the skill grid (default 100; quick 16)")
    rep.set_defaults(func=run, games=None)


def run(args) -> int:
    from ..arena.tournament import parse_agents, parse_pairings
    from ..design.game_report import run_report
    from ..design.readings import terminal_text

    try:
        pair = parse_pairings(args.probe_pair)
    except ValueError as exc:
        raise ValueError(f"--probe-pair: {exc}") from None
    if len(pair) != 1:
        raise ValueError(f"--probe-pair {args.probe_pair!r}: give one pair, TECHNOCRAT:ZIEGLER")
    report = run_report(
        args.setups,
        agents=parse_agents(args.agents) if args.agents else None,
        quick=args.quick,
        games=args.games,
        probe_games=args.probe_games,
        deployments=args.deployments,
        dice_seeds=args.dice_seeds,
        probe_pair=tuple(pair[0]),
        ablation=not args.no_forces,
        plots=not args.no_plot,
        options=run_options(args),
    )
    print(terminal_text(report))
    print(f"Report: {report['html']} (and report.json; every game with its seed under {args.out}/)")
    return 0
