"""``hotspot serve``: play, watch and replay games in a browser."""

from __future__ import annotations

from .common import count_arg


def add_parser(sub) -> None:
    """The ``hotspot serve`` subcommand's parser, added to ``sub``."""
    srv = sub.add_parser(
        "serve",
        help="play against an agent, watch agents or replay games in a browser",
        description="A local web app (http://localhost:PORT/): play a game against any agent by "
        "clicking hexes and counters, watch two agents play, and open the games given "
        "here in the replay viewer. Only this machine can reach it unless --host says "
        "otherwise. Ctrl-C stops it.",
    )
    srv.add_argument(
        "games",
        nargs="*",
        metavar="GAMES",
        help="games to offer for replay: game records (JSON), arena games.jsonl files or run folders",
    )
    srv.add_argument("--port", type=count_arg(0), default=8000, help="port (default 8000; 0: any free port)")
    srv.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every network)",
    )
    srv.add_argument("--open", action="store_true", help="open the page in the default web browser")
    srv.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer agent SPEC (your module:attribute, or sb3(path=model.zip)) on the page as NAME; repeatable "
        "(the page's requests name agents only by registered names, never a module or a file)",
    )
    srv.set_defaults(func=run)


def run(args) -> int:
    from ..human.web import serve

    if any(not str(path).strip() for path in args.games):
        raise ValueError("serve: a GAMES path is empty (give a record, a games.jsonl or a run folder)")
    for item in args.agent:
        offer_agent(item)
    serve(args.games, host=args.host, port=args.port, open_browser=args.open)
    return 0


def offer_agent(item: str) -> None:
    """``--agent NAME=SPEC`` of ``hotspot serve``: the person starting the
    server offers agent SPEC (a module:attribute agent or a model file may
    be one) under the plain name NAME, which the page's requests may name;
    the requests themselves never name a module or a file."""
    from ..agents.registry import canonical_agent, make_agent, register_agent

    name, eq, spec = item.partition("=")
    name, spec = name.strip(), spec.strip()
    if not eq or not name or not spec:
        raise ValueError(f"--agent {item!r}: expected NAME=SPEC, e.g. mine=mybots:Greedy or 'ppo=sb3(path=model.zip)'")
    canonical = canonical_agent(spec)  # checked (and imported) now: a bad spec is refused before the server starts
    try:
        register_agent(
            name,
            lambda seed=None: make_agent(canonical, seed=seed),
            f"{canonical} (offered by the server's command line)",
        )
    except ValueError as exc:
        raise ValueError(
            f"--agent {item!r}: {name!r} cannot name it ({str(exc).split(' (')[0]}); choose another NAME"
        ) from None
