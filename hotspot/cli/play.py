"""``hotspot play``: a game in the terminal (a ``human`` side), or one game between agents."""

from __future__ import annotations

import numpy as np

from .common import add_max_turns, parse_rules_options


def add_parser(sub) -> None:
    """The ``hotspot play`` subcommand's parser, added to ``sub``."""
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
        help="built-in name (standard; open: set-up by the players; balanced: D23; random, random:SEED) or JSON "
        "path (default: standard)",
    )
    play.add_argument("--record", default=None, help="write the game record (JSON) to this file")
    add_max_turns(play, "the game then has no result")
    play.add_argument("--quiet", action="store_true", help="print only the result")
    play.set_defaults(func=run)


def run(args) -> int:
    from ..human import HUMAN, Session

    rules = parse_rules_options(args.option) or None

    def new_session():
        return Session.new(
            technocrat=args.technocrat,
            ziegler=args.ziegler,
            scenario=args.scenario,
            seed=args.seed,
            rules=rules,
            max_turns=args.max_turns,
        )

    if args.load or HUMAN in (args.technocrat, args.ziegler):
        from ..human.terminal import play_in_terminal

        if args.agent_seed is not None:
            raise ValueError("--agent-seed is for two random players; agents playing a person are seeded from --seed")
        if args.load:  # the save's agents may run code only if the person names them here too
            session = Session.load(args.load, allow_code={args.technocrat, args.ziegler})
        else:
            session = new_session()
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
        session = new_session()
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


def _random_game(scenario: str, seed: int, agent_seed: int | None, max_turns=None, rules=None):
    from ..core.actions import NUM_ACTIONS
    from ..core.game import Game
    from ..core.rollout import random_action

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
