"""``hotspot evaluate AGENT``: the evaluation protocol, a result card."""

from __future__ import annotations

from .common import add_run_options, positive, precision_arg, run_options


def add_parser(sub) -> None:
    """The ``hotspot evaluate`` subcommand's parser, added to ``sub``."""
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
        type=precision_arg,
        default=0.05,
        help="stop an opponent when the score's 95%% interval has this half-width (default 0.05)",
    )
    ev.add_argument("--step", type=positive, default=50, help="games a side between looks (default 50)")
    ev.add_argument("--ratings", default=None, help="another reference ratings file (default: the published one)")
    ev.add_argument("--no-plot", action="store_true", help="no card.png")
    add_run_options(ev, "evaluate-results/AGENT", "the most games a side against one opponent (default 1000)")
    ev.set_defaults(func=run, games=1000, out=None)


def run(args) -> int:
    from ..arena.evaluate import run_evaluate
    from ..arena.tournament import parse_agents

    card = run_evaluate(
        args.agent,
        opponents=parse_agents(args.opponents) if args.opponents else None,
        scenario=args.scenario,
        games=args.games,
        precision=args.precision,
        step=args.step,
        ratings=args.ratings,
        plot=not args.no_plot,
        options=run_options(args),
    )
    print(card["text"])
    print(
        f"Card in {card['folder']}/ (card.txt, card.json{', card.png' if card.get('plot') else ''}; every game in games.jsonl)"
    )
    return 0
