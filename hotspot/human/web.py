"""``hotspot serve``: Hot Spot in a browser (the standard library's HTTP server, no build step).

A person plays against any agent by clicking hexes and counters, watches two
agents play, or opens a game of an arena run or a game record given on the
command line in the replay viewer.  The game itself is a
:class:`hotspot.human.session.Session` (the rules, the agents, undo, save,
load, the log); :mod:`hotspot.human.clicks` maps clicks to the session's legal
actions; this module serves the page and a small JSON API:

=====================  ======  ==================================================
path                   method  what
=====================  ======  ==================================================
``/``                  GET     the page (``static/index.html``, ``app.js``,
                               ``app.css``; the board: ``hotspot/env/static``)
``/api/info``          GET     agents, scenarios, whether a game is on
``/api/new``           POST    ``{"ziegler", "technocrat", "scenario", "seed",
                               "max_turns"}``: a new game ("human" or an agent)
``/api/state``         GET     ``?view=default|full|ziegler|technocrat``: the game
``/api/click``         POST    ``{"hex": [col, row]}`` or ``{"unit": id}``: the
                               legal action clicked; several: ``choices``; none:
                               409 and the rule that refuses it
``/api/play``          POST    ``{"action": id}``: a legal action (the list)
``/api/advance``       POST    ``{"max": n}``: agents decide (watching a game)
``/api/undo``          POST    the person's last decision (no die rolled since)
``/api/concede``       POST    the person to move (or the only person) concedes:
                               the other side wins (5.0; final)
``/api/save``          GET     the saved game (JSON, ``Session.to_json``)
``/api/load``          POST    a saved game's JSON
``/api/games``         GET     the games given on the command line
``/replay``            GET     ``?game=i``: that game in the replay viewer
=====================  ======  ==================================================

After a person's decision the agents decide at once until a person is to
move again; in a game of agents only, each ``/api/advance`` lets them take
``max`` decisions (the page asks on a timer).  Every answer is JSON (the page
and the replay are HTML); a bad request is a 4xx with ``{"error": message}``
naming what is wrong, and leaves the game as it was.

Security: the server binds 127.0.0.1 unless told otherwise; it serves only
its own files by name and the games it was started with (by number: no path
from a request is ever opened); a POST must say ``Content-Type:
application/json`` (so another web site cannot post to it without the
browser's permission); a request with a ``Host`` other than the address
served is refused (DNS rebinding); bodies are at most :data:`MAX_BODY` bytes.
"""

from __future__ import annotations

import json
import re
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from hotspot.agents.registry import aliases, available_agents, is_available
from hotspot.arena.folder import GAMES_FILE, RowError, record_from_row, scan_games
from hotspot.core.hexgrid import MAP_COLS, MAP_ROWS, col_row
from hotspot.core.jsonfile import JSONInputError, loads
from hotspot.core.record import GameRecord
from hotspot.core.rules_data import NO_UNIT, SIDE_NAMES
from hotspot.core.state import MAX_UNITS
from hotspot.env.viewer import STATIC as BOARD_STATIC
from hotspot.env.viewer import board_meta, board_of, replay_html, status_of

# the click mapping lives in .clicks; its names stay importable from here
from .clicks import action_targets, click_map, counter_click, refusal, unit_refusal  # noqa: F401
from .session import HUMAN, Session, SessionError

STATIC = Path(__file__).with_name("static")
MAX_BODY = 4 << 20  # bytes of a request body (a saved game is a few dozen kB)
MAX_LOG = 300  # log entries sent with a state (the last ones)
SCENARIOS = ("standard", "open", "random")  # what the page offers; also random:N
VIEWS = {"default": "default", "full": None, "ziegler": 0, "technocrat": 1}


class RequestError(Exception):
    """A request refused with an HTTP status and a message (the game unchanged)."""

    def __init__(self, status: int, message: str, **extra):
        super().__init__(message)
        self.status = int(status)
        self.extra = extra


# ------------------------------------------------------------ the application


def _int(value, what: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        span = f"[{low}, {high}]" if high is not None else f">= {low}"
        raise RequestError(400, f"{what} must be an integer in {span}, got {json.dumps(value)[:40]}")
    return value


class WebApp:
    """The server's state (one session, the games it may open) and its API,
    callable without HTTP: ``handle(method, path, body)``."""

    def __init__(self, paths=()):
        self._lock = threading.RLock()
        self.session: Session | None = None
        self.games: list[dict] = []  # {"label", "row"} or {"label", "record"}
        self.warnings: list[str] = []  # damaged lines of the games files, not offered
        self.agents = [HUMAN] + list(aliases()) + available_agents()
        for path in paths:
            self.add_games(path)

    # ------------------------------------------------------------ games to open
    def add_games(self, path) -> int:
        """Offer the games of ``path``: a game record, a games.jsonl or a run
        folder holding one; returns how many.  Raises ``ValueError`` naming
        the path if it holds none."""
        path = Path(path)
        if path.is_dir():
            path = path / GAMES_FILE
        if path.suffix == ".jsonl":
            games = scan_games(path)
            if not games.rows and not path.exists():
                raise ValueError(f"{path}: no such file")
            if games.damaged:  # reported, not offered
                self.warnings.append(games.damaged_text())
            for row in games.rows.values():
                outcome = f"{row['winner']} wins" if row.get("winner") else "no winner (max_turns)"
                self.games.append(
                    {
                        "label": f"{path.parent.name}/{row['pairing']} #{row['index']}: technocrat "
                        f"{row['technocrat']}, ziegler {row['ziegler']}, {row['setup']}: "
                        f"{outcome} after {row['turns']} turns",
                        "row": row,
                    }
                )
            return len(games.rows)
        record = GameRecord.load(path)
        self.games.append(
            {"label": f"{path.name}: {record.result or 'unfinished'} ({len(record.actions)} actions)", "record": record}
        )
        return 1

    def _record(self, index: int) -> GameRecord:
        game = self.games[index]
        if "record" in game:
            return game["record"]
        try:
            return record_from_row(game["row"])
        except RowError as exc:
            raise RequestError(422, f"game {index}: {exc}") from None

    # ------------------------------------------------------------ requests
    def handle(self, method: str, path: str, body: bytes | None = None) -> tuple[int, str, bytes]:
        """One request: (status, content type, body).  Never raises."""
        url = urlsplit(path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        try:
            with self._lock:
                return self._route(method, url.path, query, body)
        except RequestError as exc:
            return _json(exc.status, {"error": str(exc), **exc.extra})
        except SessionError as exc:
            return _json(409, {"error": str(exc)})
        except Exception as exc:  # noqa: BLE001 - the server must answer, whatever went wrong
            return _json(500, {"error": f"internal error: {type(exc).__name__}: {exc}"})

    def _route(self, method, path, query, body):
        if path == "/favicon.ico":
            return 204, "image/x-icon", b""
        if path == "/" or path.startswith("/static/"):
            _need(method, "GET")
            return _static(path)
        if path == "/replay":
            _need(method, "GET")
            index = _int(_query_int(query, "game"), "game", 0, max(len(self.games) - 1, 0))
            if not self.games:
                raise RequestError(404, "no games were given to `hotspot serve`")
            title = f"Hot Spot: {self.games[index]['label']}"
            return 200, "text/html; charset=utf-8", replay_html(self._record(index), title).encode("utf-8")
        routes = {
            "/api/info": ("GET", self.info),
            "/api/state": ("GET", self.state),
            "/api/new": ("POST", self.new),
            "/api/click": ("POST", self.click),
            "/api/play": ("POST", self.play),
            "/api/advance": ("POST", self.advance),
            "/api/undo": ("POST", self.undo),
            "/api/concede": ("POST", self.concede),
            "/api/save": ("GET", self.save),
            "/api/load": ("POST", self.load),
            "/api/games": ("GET", self.list_games),
        }
        if path not in routes:
            raise RequestError(404, f"no such page: {path[:80]}")
        want, fn = routes[path]
        _need(method, want)
        args = query if want == "GET" else _body_json(body)
        return _json(200, fn(args))

    # ------------------------------------------------------------ the API
    def info(self, args) -> dict:
        return {
            "agents": self.agents,
            "scenarios": list(SCENARIOS),
            "sides": list(SIDE_NAMES),
            "playing": self.session is not None,
            "games": len(self.games),
        }

    def list_games(self, args) -> dict:
        return {"games": [{"id": i, "label": g["label"]} for i, g in enumerate(self.games)]}

    def new(self, args) -> dict:
        _keys(args, {"ziegler", "technocrat", "scenario", "seed", "max_turns", "view"})
        sides = {}
        for side in SIDE_NAMES:
            name = args.get(side, HUMAN)
            if name not in self.agents and not (
                isinstance(name, str) and len(name) <= 200 and is_available(name, allow_code=False)
            ):
                raise RequestError(
                    400,
                    f"{side}: {json.dumps(name)[:40]} is not 'human' or an available agent "
                    f"({', '.join(self.agents[1:])}), by name or by a spec such as "
                    f"'ismcts(iterations=64)'",
                )
            sides[side] = name
        scenario = args.get("scenario", "standard")
        if not isinstance(scenario, str) or not (scenario in SCENARIOS or re.fullmatch(r"random:\d{1,18}", scenario)):
            raise RequestError(
                400, f"scenario must be one of {', '.join(SCENARIOS)} or random:N, got {json.dumps(scenario)[:40]}"
            )
        seed = _int(args.get("seed", 0), "seed", 0, (1 << 63) - 1)
        max_turns = args.get("max_turns")
        if max_turns is not None:
            max_turns = _int(max_turns, "max_turns", 1, 10_000)
        session = Session.new(
            technocrat=sides["technocrat"],
            ziegler=sides["ziegler"],
            scenario=scenario,
            seed=seed,
            max_turns=max_turns,
            allow_code=False,  # a request never names a module or a file, whatever the server was started with
        )
        return self._install(session, args.get("view", "default"))

    def state(self, args) -> dict:
        return self._state(args.get("view", "default"))

    def play(self, args) -> dict:
        _keys(args, {"action", "view"})
        session = self._session()
        action = _int(args.get("action"), "action", 0, (1 << 31) - 1)
        session.play(action)
        self._agents_move()
        return self._state(args.get("view", "default"))

    def click(self, args) -> dict:
        """The legal action a click asks for: played if one; ``choices`` if
        several; a 409 with the rule that refuses it if none."""
        _keys(args, {"hex", "unit", "view"})
        session = self._session()
        game = session.game
        if ("hex" in args) == ("unit" in args):
            raise RequestError(400, 'a click names a hex ({"hex": [col, row]}) or a counter ({"unit": id})')
        who = session.to_move()
        if who is None:
            raise RequestError(409, f"the game is over: {session.result()}")
        if not who["human"]:
            raise RequestError(409, f"the {who['side']} is played by the {who['controller']} agent: wait for it")
        hexes, units = click_map(game, game.legal_actions())
        if "unit" in args:
            unit = _int(args["unit"], "unit", 0, MAX_UNITS - 1)
            if int(game.s["unit_type"][unit]) == NO_UNIT:
                raise RequestError(400, f"there is no counter {unit} in play")
            hex_ = col_row(int(game.s["unit_cell"][unit]))
            matches = counter_click(game, hexes, units, unit)
        else:
            hex_ = args["hex"]
            if not (isinstance(hex_, list) and len(hex_) == 2):
                raise RequestError(400, "hex must be [col, row]")
            c, r = _int(hex_[0], "col", -4, MAP_COLS + 3), _int(hex_[1], "row", -4, MAP_ROWS + 3)
            hex_ = (c, r)
            matches = hexes.get(f"{c},{r}", [])
        if not matches:
            reason = unit_refusal(game, unit) if "unit" in args else refusal(game, hex_)
            raise RequestError(409, reason, hex=list(hex_))
        if len(matches) > 1:
            captions = {a.action: a for a in session.legal()}
            return {
                "choices": [
                    {"action": a, "caption": captions[a].caption, "command": captions[a].command} for a in matches
                ]
            }
        session.play(matches[0])
        self._agents_move()
        return self._state(args.get("view", "default"))

    def advance(self, args) -> dict:
        _keys(args, {"max", "view"})
        session = self._session()
        session.advance(_int(args.get("max", 1), "max", 1, 100_000))
        return self._state(args.get("view", "default"))

    def undo(self, args) -> dict:
        _keys(args, {"view"})
        self._session().undo()
        return self._state(args.get("view", "default"))

    def concede(self, args) -> dict:
        _keys(args, {"view"})
        self._session().concede()
        return self._state(args.get("view", "default"))

    def save(self, args) -> dict:
        return self._session().to_json()

    def load(self, args) -> dict:
        return self._install(Session.from_json(args, allow_code=False), "default")

    def _install(self, session: Session, view) -> dict:
        """Make ``session`` (new or loaded) the app's game, let its agents move
        (in a game with a person), and return its state."""
        self.session = session
        self._agents_move()
        return self._state(view)

    # ------------------------------------------------------------ helpers
    def _session(self) -> Session:
        if self.session is None:
            raise RequestError(409, "no game yet: start a new game")
        return self.session

    def _agents_move(self) -> None:
        """In a game with a person, the agents decide until a person is to move."""
        if self.session.humans():
            self.session.advance()

    def _state(self, view) -> dict:
        session = self._session()
        if view not in VIEWS:
            raise RequestError(400, f"view must be one of {', '.join(VIEWS)}, got {json.dumps(view)[:40]}")
        data = session.state_dict(VIEWS[view], board=False, text=False, log=MAX_LOG)
        seen = data.pop("view")
        game = session.game
        observer = -1 if seen is None else SIDE_NAMES.index(seen)
        s = game.s if observer < 0 else game.observation(observer)[0]
        data["view"] = seen or "full"
        data["meta"] = board_meta(game.s)
        data["board"] = board_of(s, observer)
        data["notes"] = status_of(game.s)["notes"]
        hexes, units = click_map(game, [a["action"] for a in data["legal"]])
        data["targets"] = hexes
        data["unitTargets"] = {str(u): acts for u, acts in units.items()}
        return data


# ------------------------------------------------------------ HTTP


def _json(status: int, data) -> tuple[int, str, bytes]:
    return status, "application/json", json.dumps(data, separators=(",", ":")).encode("utf-8")


def _need(method: str, want: str) -> None:
    if method != want:
        raise RequestError(405, f"use {want} here, not {method}")


def _query_int(query: dict, name: str):
    text = query.get(name)
    if text is None or not re.fullmatch(r"\d{1,9}", text):
        raise RequestError(400, f"?{name}= must be a non-negative integer")
    return int(text)


def _keys(args: dict, allowed: set) -> None:
    unknown = sorted(set(args) - allowed)
    if unknown:
        raise RequestError(
            400, f"unknown field(s) {', '.join(map(str, unknown))[:80]} (expected some of {', '.join(sorted(allowed))})"
        )


def _body_json(body: bytes | None) -> dict:
    try:
        data = loads(body or b"{}")  # the one reader's limits (core.jsonfile)
    except JSONInputError as exc:
        raise RequestError(400, f"the request body is not JSON: {str(exc)[:120]}") from None
    if not isinstance(data, dict):
        raise RequestError(400, f"the request body must be a JSON object, got {type(data).__name__}")
    return data


_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}
# Every file the server sends, by the name it is asked for: nothing else is ever opened.
_FILES = {
    "/": STATIC / "index.html",
    "/static/app.js": STATIC / "app.js",
    "/static/app.css": STATIC / "app.css",
    "/static/board.js": BOARD_STATIC / "board.js",
    "/static/board.css": BOARD_STATIC / "board.css",
}


def _static(path: str) -> tuple[int, str, bytes]:
    file = _FILES.get(path)
    if file is None:
        raise RequestError(404, f"no such file: {path[:80]}")
    return 200, _TYPES[file.suffix], file.read_bytes()


class _Handler(BaseHTTPRequestHandler):
    app: WebApp
    hosts: frozenset | None
    server_version = "hotspot"
    # a page's requests reuse one connection (every answer has its Content-Length);
    # an answer sent before the request's body was read closes it
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name; quiet by default
        pass

    def _answer(self, status: int, ctype: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def _body_left_unread(self) -> None:
        """Close the connection after this answer if the request sent a body
        this handler does not read (the next request would begin inside it)."""
        if self.headers.get("Transfer-Encoding") or (self.headers.get("Content-Length") or "0").strip() != "0":
            self.close_connection = True

    def _refused(self) -> bool:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]").lower()
        if self.hosts is not None and host not in self.hosts:
            self._body_left_unread()
            self._answer(
                *_json(421, {"error": f"this server answers for {', '.join(sorted(self.hosts))}, not {host[:60]!r}"})
            )
            return True
        return False

    def do_GET(self):  # noqa: N802 - http.server's name
        self._body_left_unread()
        if not self._refused():
            self._answer(*self.app.handle("GET", self.path))

    def do_POST(self):  # noqa: N802
        if self._refused():
            return
        if self.headers.get("Transfer-Encoding"):  # a body without a Content-Length is not read
            self.close_connection = True
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype != "application/json":
            self._body_left_unread()
            self._answer(*_json(415, {"error": "a POST must send Content-Type: application/json"}))
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self.close_connection = True
            self._answer(
                *_json(
                    413 if length > MAX_BODY else 400,
                    {"error": f"a request body is 0 to {MAX_BODY} bytes with its Content-Length"},
                )
            )
            return
        self._answer(*self.app.handle("POST", self.path, self.rfile.read(length)))

    def do_PUT(self):  # noqa: N802
        self._body_left_unread()
        self._answer(*_json(405, {"error": "use GET or POST"}))

    do_DELETE = do_PATCH = do_PUT


def make_server(app: WebApp, host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    """A threading HTTP server for ``app`` on ``host:port`` (port 0: a free one); call ``serve_forever``."""
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(f"port must be an integer in [0, 65535], got {port!r}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    server_class = type("Server", (ThreadingHTTPServer,), {"address_family": family, "daemon_threads": True})
    server = server_class((host, port), type("Handler", (_Handler,), {"app": app}))
    # DNS rebinding: a page of another site must not reach this server by a name of its own;
    # bound to every address (0.0.0.0, ::), the user has chosen to be reached by any name.
    names = {"localhost", "127.0.0.1", "::1", host.lower()}
    server.RequestHandlerClass.hosts = None if host in ("", "0.0.0.0", "::") else frozenset(names)
    return server


def serve(paths=(), host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False) -> None:
    """Run the app until interrupted (``hotspot serve``)."""
    app = WebApp(paths)
    for warning in app.warnings:
        print(f"hotspot: warning: {warning}", file=sys.stderr)
    server = make_server(app, host, port)
    url = f"http://{'localhost' if host in ('127.0.0.1', '::1', 'localhost') else host}:{server.server_address[1]}/"
    print(f"Hot Spot at {url} ({len(app.games)} game(s) to open); Ctrl-C stops it", flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    finally:
        server.server_close()
