"""``hotspot evaluate AGENT``: the evaluation protocol, a result card."""

from __future__ import annotations

import sys

from .common import add_adjudicate_option, add_run_options, number_arg, positive, precision_arg, run_options

minutes_arg = number_arg("a number of minutes", positive=True)


def add_parser(sub) -> None:
    """The ``hotspot evaluate`` subcommand's parser, added to ``sub``."""
    ev = sub.add_parser(
        "evaluate",
        help="rate any agent by the standard protocol: the reference ladder, both seats, a result card",
        description="Plays AGENT against each agent of the reference ladder (random, scripted, ismcts, "
        "portfolio, portfolio(horizon=2)) as Technocrat and as Ziegler on mirrored seeds (a pair), on open, "
        "until the 95% interval of the pairs' score is within --precision, and prints a card: scores by "
        "opponent and seat, and ratings on the published scale (scripted = 1000). Writes card.txt, card.json, "
        "card.png and every game to --out; a rerun resumes (after --minutes, --max-games or Ctrl-C the card "
        "is partial). docs/evaluate.md",
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
        type=precision_arg,
        default=0.05,
        help="stop an opponent when the 95%% interval of the pairs' score (one seat: of its games) has this "
        "half-width (default 0.05)",
    )
    ev.add_argument("--step", type=positive, default=50, help="pairs (one seat: games) between looks (default 50)")
    ev.add_argument(
        "--seat",
        choices=("technocrat", "ziegler"),
        default=None,
        help="play and rate the agent in this seat only (a one-seat model); default both seats",
    )
    ev.add_argument(
        "--minutes",
        type=minutes_arg,
        default=None,
        metavar="M",
        help="a time budget: no new games start after M minutes; the card of what was played is partial "
        "and a rerun goes on",
    )
    ev.add_argument("--ratings", default=None, help="another reference ratings file (default: the published one)")
    ev.add_argument("--no-plot", action="store_true", help="no card.png")
    add_run_options(
        ev, "evaluate-results/AGENT", "the most pairs (one seat: games) against one opponent (default 1000)"
    )
    add_adjudicate_option(ev)
    ev.set_defaults(func=run, games=1000, out=None)


def run(args) -> int:
    from ..arena.evaluate import EvaluationInterrupted, run_evaluate
    from ..arena.tournament import parse_agents

    try:
        card = run_evaluate(
            args.agent,
            opponents=parse_agents(args.opponents) if args.opponents else None,
            scenario=args.scenario,
            games=args.games,
            precision=args.precision,
            step=args.step,
            ratings=args.ratings,
            plot=not args.no_plot,
            seat=args.seat,
            minutes=args.minutes,
            options=run_options(args),
        )
    except EvaluationInterrupted as stop:
        if stop.card is None:
            raise  # nothing written yet: the command line's own message
        print(stop.card["text"])
        print(
            f"\nhotspot: interrupted; the {stop.card['games']} finished games are in {stop.card['folder']}/games.jsonl "
            f"and their PARTIAL card in card.txt: rerun the same command to resume (with --drop-damaged if it "
            f"reports a line cut short)",
            file=sys.stderr,
        )
        return 130
    print(card["text"])
    files = f"card.txt, card.json{', card.png' if card.get('plot') else ''}"
    print(f"Card in {card['folder']}/ ({files}; the full table in card.txt; every game in games.jsonl)")
    return 0
