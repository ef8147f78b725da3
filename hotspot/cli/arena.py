"""``hotspot arena``: a round robin (or chosen pairings) of agents, rated."""

from __future__ import annotations

from .common import add_adjudicate_option, add_run_options, parse_rules_options, run_options


def add_parser(sub) -> None:
    """The ``hotspot arena`` subcommand's parser, added to ``sub``."""
    arena = sub.add_parser(
        "arena",
        help="play agents against each other (both sides) and rate them",
        description="Round robin of agents (default: the cheap agents, random and scripted now, each also "
        "against itself: those whose games take at most a second while the whole default stays within "
        "a minute on two cores; --agents random,scripted,learned is the longer variant) or chosen "
        "pairings, each pairing played as both sides. Writes "
        "games.jsonl (every game, with its seed and actions), summary.json, "
        "summary.csv and ratings.csv to --out; a rerun resumes.",
    )
    arena.add_argument(
        "--agents",
        default=None,
        help="comma-separated agents (names, aliases or specs such as "
        "'ismcts(iterations=64,think_ms=500)') for the round robin, or 'all' "
        "(default: the cheap agents: random,scripted; see --list-agents)",
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
    add_run_options(arena, "arena-results")
    add_adjudicate_option(arena)
    arena.set_defaults(func=run)


def run(args) -> int:
    from ..agents.registry import (
        DEFAULT_MAX_SECONDS_PER_GAME,
        DEFAULT_ROUND_ROBIN_CORE_SECONDS,
        agent_costs,
        agent_parameters,
        aliases,
        available_agents,
        default_agents,
        needs_parameters,
        registered_agents,
    )
    from ..arena.tournament import parse_agents, parse_pairings, run_arena

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
            f"(default: the round robin without --agents: the available agents whose games take at most "
            f"{DEFAULT_MAX_SECONDS_PER_GAME:g} s, while the whole round robin stays within "
            f"{DEFAULT_ROUND_ROBIN_CORE_SECONDS:g} s of one core; '?': not measured; an agent with parameters is named by a "
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
        rules=parse_rules_options(args.option),
        self_play=not args.no_self_play,
        options=run_options(args),
    )
    print(summary["text"])
    print(f"Results in {args.out}/ (games.jsonl, run.json, summary.json, summary.csv, ratings.csv)")
    return 0
