"""``hotspot scenario``: print or save a scenario."""

from __future__ import annotations

import json


def add_parser(sub) -> None:
    """The ``hotspot scenario`` subcommand's parser, added to ``sub``."""
    scen = sub.add_parser(
        "scenario",
        help="print or save a scenario",
        description="Prints a scenario as JSON, or writes it to --out: a file to edit and play with "
        "--scenario FILE (docs/rules.md).",
    )
    scen.add_argument(
        "name",
        help="a built-in scenario (standard, open, balanced, balanced-strong), random or random:N (a random set-up, N its "
        "seed), or a scenario JSON file",
    )
    scen.add_argument("--out", default=None, help="write the scenario to this JSON file instead of printing it")
    scen.set_defaults(func=run)


def run(args) -> int:
    from ..core.scenario import load_scenario, save_scenario

    data = load_scenario(args.name)
    if args.out:
        save_scenario(data, args.out)
        print(f"Scenario written to {args.out}")
    else:
        print(json.dumps(data, indent=1))
    return 0
