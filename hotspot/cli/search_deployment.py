"""``hotspot search-deployment SIDE``: a side's best set-up (3.2, 3.3, D21)
against a fixed opponent, by successive halving over sampled deployments;
writes it as a scenario, ``best.json``.

    hotspot search-deployment ziegler --games 50 --final-games 1000

(``hotspot balance --search-deployment SIDE`` is the same, kept for one release.)
"""

from __future__ import annotations

import dataclasses

from .common import add_run_options, count_arg, given, parse_rules_options, positive, run_options

#: the folder a search writes unless --out names another
DEFAULT_OUT = "deployment-search"


def add_parser(sub) -> None:
    """The ``hotspot search-deployment`` subcommand's parser, added to ``sub``."""
    p = sub.add_parser(
        "search-deployment",
        help="a side's best set-up against a fixed opponent (3.2, 3.3, D21; writes a scenario)",
        description="Successive halving over sampled deployments of SIDE (--games is the first round's games a "
        "candidate), then --final-games games for each finalist with 95%% intervals; writes best.json (a "
        "scenario), search.json and every round's games to --out; a rerun resumes.",
    )
    p.add_argument(
        "search_deployment",
        choices=("ziegler", "technocrat"),
        metavar="SIDE",
        help="the side whose deployment is searched (ziegler or technocrat)",
    )
    add_players(p)
    p.add_argument(
        "--option",
        action="append",
        default=None,
        metavar="NAME=VALUE",
        help="a rules option held at one value during the search (repeatable)",
    )
    p.add_argument("--candidates", type=count_arg(2), default=None, help="deployments sampled (default 16)")
    p.add_argument(
        "--random-candidates",
        type=count_arg(0),
        default=None,
        help="how many of them are uniformly random legal set-ups (default 4)",
    )
    p.add_argument("--finalists", type=positive, default=None, help="candidates left for the final (default 2)")
    p.add_argument("--final-games", type=positive, default=None, help="games per finalist (default 1000)")
    add_run_options(p, DEFAULT_OUT, games_help="the first round's games a candidate (default 50)")
    p.set_defaults(func=run, games=None)


def add_players(p) -> None:
    """The search's players and base scenario (also ``hotspot balance --search-deployment``'s)."""
    p.add_argument("--opponent", default="scripted", help="the opponent's agent (default scripted)")
    p.add_argument(
        "--agent",
        default="scripted",
        help="the searching side's agent: its set-up plan draws the candidates and it plays them (default scripted)",
    )
    p.add_argument(
        "--base",
        default=None,
        help="scenario holding the fixed part (default: open for the Ziegler, standard's Ziegler set-up for the "
        "Technocrat)",
    )


def run(args) -> int:
    """Run a deployment search from parsed arguments (``hotspot
    search-deployment``, or ``hotspot balance --search-deployment``)."""
    from ..design.deployment import search_deployment

    rules = parse_rules_options(args.option, "a deployment search plays under one value an option")
    out = DEFAULT_OUT if args.out == "balance-results" else args.out  # the old flag's folder
    chosen = given(
        candidates=args.candidates,
        random_candidates=args.random_candidates,
        games=args.games,
        finalists=args.finalists,
        final_games=args.final_games,
    )
    summary = search_deployment(
        args.search_deployment,
        opponent=args.opponent,
        agent=args.agent,
        base=args.base,
        rules=rules or None,
        options=dataclasses.replace(run_options(args), out=out),
        **chosen,
    )
    print(summary["text"])
    print(f"Results in {out}/ (best.json, search.json, run.json, candidates/, round*/games.jsonl)")
    return 0
