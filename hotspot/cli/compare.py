"""``hotspot compare A B``: a sequential test on game pairs, is A stronger than B?"""

from __future__ import annotations

from .common import add_adjudicate_option, add_run_options, number_arg, parse_rules_options, positive, run_options

_real = number_arg()


def add_parser(sub) -> None:
    """The ``hotspot compare`` subcommand's parser, added to ``sub``."""
    from ..arena.compare import DEFAULTS

    cmp = sub.add_parser(
        "compare",
        help="is A stronger than B? a sequential test (fishtest's GSPRT) on game pairs, stopping when decided",
        description="Plays A against B in pairs of games on mirrored seeds (A as Technocrat, then as Ziegler, "
        "on the same seed), and after every --step pairs runs fishtest's GSPRT on the pairs' scores: "
        "H1 'A is ELO1 logistic Elo stronger' against H0 'A is at most ELO0 stronger', stopping when "
        "decided (error rates ALPHA and BETA) or after --games pairs. Writes result.txt, result.json "
        "and every game to --out; a rerun resumes. docs/arena.md#is-a-stronger-than-b",
    )
    cmp.add_argument("a", metavar="A", help="the agent tested (a name, spec, module:attribute or model file)")
    cmp.add_argument("b", metavar="B", help="the agent it is compared with")
    cmp.add_argument("--elo0", type=_real, default=DEFAULTS["elo0"], help="H0's Elo difference (default 0)")
    cmp.add_argument("--elo1", type=_real, default=DEFAULTS["elo1"], help="H1's Elo difference (default 30)")
    cmp.add_argument("--alpha", type=_real, default=DEFAULTS["alpha"], help="the false-H1 rate (default 0.05)")
    cmp.add_argument("--beta", type=_real, default=DEFAULTS["beta"], help="the false-H0 rate (default 0.05)")
    cmp.add_argument("--step", type=positive, default=DEFAULTS["step"], help="pairs between looks (default 10)")
    cmp.add_argument("--scenario", default="open", help="the scenario (default open, the rulebook game)")
    cmp.add_argument(
        "--option", action="append", default=None, metavar="NAME=VALUE", help="rules option override (repeatable)"
    )
    add_run_options(cmp, "compare-results/A-vs-B", "the most pairs to play (default 2000)")
    add_adjudicate_option(cmp)
    cmp.set_defaults(func=run, games=DEFAULTS["games"], out=None)


def run(args) -> int:
    from ..arena.compare import run_compare

    rules = parse_rules_options(args.option)
    result = run_compare(
        args.a,
        args.b,
        elo0=args.elo0,
        elo1=args.elo1,
        alpha=args.alpha,
        beta=args.beta,
        games=args.games,
        step=args.step,
        scenario=args.scenario,
        rules=rules or None,
        options=run_options(args),
    )
    print(result["text"])
    print(f"Result in {result['folder']}/ (result.txt, result.json; every game in games.jsonl)")
    return 0
