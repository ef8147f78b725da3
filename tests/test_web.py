"""The browser app's JSON API (``hotspot serve``), without a browser:
clicks map to the legal actions, a refused click names the rule, every bad
request is a 4xx with a message and leaves the game as it was, undo / save /
load, watching agents, the games given on the command line, and the HTTP
layer's guards (Host, Content-Type, body size, files by name only)."""

import json
import random
import threading
import urllib.error
import urllib.request

import pytest

from hotspot.arena.match import GameSpec, game_seed, play_game
from hotspot.core.game import Game
from hotspot.core.hexgrid import col_row
from hotspot.core.rules_data import UNIT_SIDE, ZIEGLER
from hotspot.human.web import WebApp, action_targets, make_server


@pytest.fixture(scope="module")
def app():
    return WebApp()


def call(app, method, path, body=None):
    """(status, JSON answer) of one request."""
    raw = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    status, ctype, data = app.handle(method, path, raw)
    assert ctype == "application/json"
    return status, json.loads(data)


def new_game(app, **settings):
    status, state = call(
        app,
        "POST",
        "/api/new",
        {"ziegler": "random", "technocrat": "human", "scenario": "standard", "seed": 3, "max_turns": 1, **settings},
    )
    assert status == 200, state
    return state


def click_for(state, action):
    """The click that asks for ``action``: its hex or its counter (None: only the list has it)."""
    for key, actions in state["targets"].items():
        if action in actions:
            return {"hex": [int(v) for v in key.split(",")]}
    for unit, actions in state["unitTargets"].items():
        if action in actions:
            return {"unit": int(unit)}
    return None


def play_by_clicks(app, state, rng):
    """Play the person's side to the end, clicking where a click can ask for the chosen action."""
    clicks = 0
    while not state["over"]:
        assert state["to_move"]["human"], "the agents move at once after a person's decision"
        action = rng.choice([a["action"] for a in state["legal"]])
        click = click_for(state, action)
        if click is None:
            status, state = call(app, "POST", "/api/play", {"action": action})
        else:
            clicks += 1
            status, answer = call(app, "POST", "/api/click", click)
            assert status == 200, answer
            if "choices" in answer:  # several legal actions there: the page shows a menu
                assert action in [c["action"] for c in answer["choices"]] and len(answer["choices"]) > 1
                status, answer = call(app, "POST", "/api/play", {"action": action})
            state = answer
        assert status == 200, state
    return state, clicks


def test_a_whole_game_against_the_scripted_agent_by_clicks(app):
    """A person plays the Technocrat against the scripted agent to the end,
    by clicks on hexes and counters (the list for the rest); the result shows."""
    state = new_game(app, ziegler="scripted", max_turns=2)
    assert state["to_move"] == {"side": "technocrat", "human": True, "controller": "human"}
    state, clicks = play_by_clicks(app, state, random.Random(5))
    assert clicks > 10
    assert state["over"] and state["result"] and state["legal"] == [] and state["targets"] == {}
    assert "Game over" in state["status"]


def test_clicks_cover_selections_and_steps():
    """Selecting a piece (4.0 E) targets its hexes; a unit's step (8.1) the hex
    it enters (the core's unit_move event says which)."""
    game = Game("standard", seed=3)
    while game.phase != 4:  # phase E, the Technocrat's crustal movement
        game.apply_action(int(game.legal_actions()[-1]))
    for a in game.legal_actions():
        hexes, units = action_targets(game, int(a))
        if a < 32:
            assert hexes == [f"{c},{r}" for c, r in _cells(game, int(a))] and units == []
    while game.phase != 5:  # phase F, regular movement
        game.apply_action(int(game.legal_actions()[-1]))
    checked = 0
    for unit in [int(a) - 32 for a in game.legal_actions() if 32 <= a < 128]:
        selected = game.clone()
        selected.apply_action(32 + unit)
        here = _cell(selected, unit)
        for a in selected.legal_actions():
            if 224 <= a < 230:
                (key,), _ = action_targets(selected, int(a))
                events = selected.clone().apply_action(int(a), events=True)
                (to,) = [e["to_cell"] for e in events if e["event"] == "unit_move" and e["unit"] == unit]
                assert key == "{},{}".format(*col_row(to)) != here
                checked += 1
    assert checked


def _cells(game, k):
    return [col_row(int(c)) for c in game.s["piece_cells"][k] if c >= 0]


def _cell(game, u):
    return "{},{}".format(*col_row(int(game.s["unit_cell"][u])))


def test_a_refused_click_names_the_rule_and_changes_nothing(app):
    """Clicking a Ziegler crustal, or a Ziegler counter on it, in the Technocrat's
    crustal phase: 4.0 A/E, 15.2; an empty molten hex: the phase named; the game is unchanged."""
    state = new_game(app)
    assert state["phase"] == "E"
    crustal = next(p for p in state["board"]["pieces"] if p[2] not in (1, 6) and p[4] == ZIEGLER)  # not CC, D2
    status, answer = call(app, "POST", "/api/click", {"hex": crustal[3][0]})
    assert status == 409 and "(4.0 A/E, 15.2)" in answer["error"] and answer["hex"] == crustal[3][0]
    unit = next(u for u in state["board"]["units"] if UNIT_SIDE[u[2]] == ZIEGLER and [u[7], u[8]] in crustal[3])
    status, answer = call(app, "POST", "/api/click", {"unit": unit[0]})
    assert status == 409 and "(4.0 A/E, 15.2)" in answer["error"] and answer["hex"] == [unit[7], unit[8]]
    status, answer = call(app, "POST", "/api/click", {"hex": [3, 3]})
    assert status == 409 and "phase E is the Technocrat crustal" in answer["error"]
    assert call(app, "GET", "/api/state") == (200, state)


@pytest.mark.parametrize(
    "method, path, body, status, words",
    [
        ("POST", "/api/play", b"{not json", 400, "not JSON"),
        ("POST", "/api/play", b"[1, 2]", 400, "JSON object"),
        ("POST", "/api/play", {"action": "x"}, 400, "action must be an integer"),
        ("POST", "/api/play", {"action": True}, 400, "action must be an integer"),
        ("POST", "/api/play", {"action": 577}, 409, "illegal action 577"),
        ("POST", "/api/play", {"action": 10**30}, 400, "action must be an integer"),
        ("POST", "/api/play", {"action": 1, "extra": 2}, 400, "unknown field(s) extra"),
        ("POST", "/api/click", {"hex": [1]}, 400, "hex must be [col, row]"),
        ("POST", "/api/click", {"hex": [99, 0]}, 400, "col must be an integer"),
        ("POST", "/api/click", {"unit": 95}, 400, "no counter 95"),
        ("POST", "/api/click", {"unit": 1, "hex": [0, 0]}, 400, "a click names a hex"),
        ("POST", "/api/new", {"technocrat": "nobody"}, 400, "not 'human' or an available agent"),
        ("POST", "/api/new", {"scenario": "/etc/passwd"}, 400, "scenario must be one of"),
        ("POST", "/api/new", {"seed": -1}, 400, "seed must be"),
        ("POST", "/api/new", {"max_turns": 0}, 400, "max_turns must be"),
        ("POST", "/api/load", {"format": "hotspot-session"}, 409, "version"),
        ("GET", "/api/state?view=spy", None, 400, "view must be one of"),
        ("GET", "/api/play", None, 405, "use POST"),
        ("GET", "/api/nothing", None, 404, "no such page"),
        ("GET", "/static/../web.py", None, 404, "no such file"),
        ("GET", "/static/session.py", None, 404, "no such file"),
        ("GET", "/replay?game=0", None, 404, "no games"),
        ("GET", "/replay?game=x", None, 400, "?game= must be"),
    ],
)
def test_bad_requests_are_refused_and_change_nothing(app, method, path, body, status, words):
    """Every bad request is a 4xx naming what is wrong; the game is as it was."""
    before = new_game(app)
    if path.startswith("/static/"):
        got, _, data = app.handle(method, path)
        answer = json.loads(data)
    else:
        got, answer = call(app, method, path, body)
    assert got == status and words in answer["error"]
    assert call(app, "GET", "/api/state") == (200, before)


def test_no_game_yet():
    fresh = WebApp()
    assert call(fresh, "GET", "/api/state") == (409, {"error": "no game yet: start a new game"})
    assert call(fresh, "GET", "/api/info")[1]["playing"] is False


def test_views_hide_what_a_side_may_not_see(app):
    """The default view is the person's side (D20); 'full' shows everything; each view draws that side's board."""
    new_game(app)
    _, full = call(app, "GET", "/api/state?view=full")
    _, mine = call(app, "GET", "/api/state")
    _, theirs = call(app, "GET", "/api/state?view=ziegler")
    assert (full["view"], mine["view"], theirs["view"]) == ("full", "technocrat", "ziegler")
    hidden = [u for u in mine["board"]["units"] if u[2] < 0 or u[3] < 0]
    assert hidden and all(u[1] == ZIEGLER for u in hidden)
    assert all(u[2] > 0 and u[3] > 0 for u in full["board"]["units"])
    assert mine["legal"] == full["legal"]


def test_undo_save_and_load(app):
    """Undo takes the person's last decision back (no die rolled since); a save loads to the same game."""
    state = new_game(app, ziegler="scripted")
    assert not state["can_undo"]
    action = state["legal"][0]["action"]  # selecting a platform: no die
    _, after = call(app, "POST", "/api/play", {"action": action})
    assert after["can_undo"] and after["log"] != state["log"]
    _, undone = call(app, "POST", "/api/undo", {})
    assert undone == state
    _, after = call(app, "POST", "/api/play", {"action": action})
    _, saved = call(app, "GET", "/api/save")
    new_game(app)
    _, loaded = call(app, "POST", "/api/load", saved)
    assert loaded == after
    saved["actions"].append(0)
    status, answer = call(app, "POST", "/api/load", saved)
    assert status == 409 and "checksum" in answer["error"]
    assert call(app, "GET", "/api/state") == (200, loaded)


def test_concede(app):
    """5.0: the person concedes; the other side wins; the concession is final."""
    state = new_game(app, ziegler="scripted")
    assert state["can_concede"] and not state["over"]
    status, after = call(app, "POST", "/api/concede", {})
    assert status == 200 and after["over"] and after["conceded"] == "technocrat"
    assert after["result"] == "ziegler wins (the Technocrat conceded, 5.0)" and not after["can_concede"]
    status, answer = call(app, "POST", "/api/concede", {})
    assert status == 409 and "the game is over" in answer["error"]
    assert call(app, "POST", "/api/undo", {})[0] == 409
    assert call(app, "GET", "/api/state") == (200, after)


def test_watching_two_agents(app):
    """With no person, each advance lets the agents take that many decisions; the whole log shows."""
    state = new_game(app, ziegler="random", technocrat="scripted")
    assert state["log"] == [] and not state["to_move"]["human"] and state["view"] == "full"
    _, state = call(app, "POST", "/api/advance", {"max": 5})
    assert len(state["log"]) == 5 and state["legal"] == []
    status, answer = call(app, "POST", "/api/click", {"hex": [7, 10]})
    assert status == 409 and "agent" in answer["error"]
    _, state = call(app, "POST", "/api/advance", {"max": 10**5})
    assert state["over"]


def test_games_from_the_command_line_open_in_the_replay_viewer(tmp_path):
    """Arena games (a run folder) and a record file are listed and open as replay pages, by number only."""
    (tmp_path / "arena").mkdir()
    rows = [
        play_game(GameSpec("random:random", "random", "random", i, game_seed(4, i), "standard", max_turns=2))
        for i in range(2)
    ]
    (tmp_path / "arena" / "games.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    game = Game("standard", seed=1, max_turns=1)
    while not game.is_terminal():
        game.apply_action(int(game.legal_actions()[0]))
    game.record.save(tmp_path / "game.json")
    served = WebApp([tmp_path / "arena", tmp_path / "game.json"])
    _, games = call(served, "GET", "/api/games")
    assert [g["id"] for g in games["games"]] == [0, 1, 2]
    assert "random:random" in games["games"][0]["label"] and games["games"][2]["label"].startswith("game.json")
    status, ctype, page = served.handle("GET", "/replay?game=2")
    assert status == 200 and ctype.startswith("text/html") and b"HotspotBoard" in page
    assert call(served, "GET", "/replay?game=3")[0] == 400
    with pytest.raises(ValueError, match="no such file"):
        WebApp([tmp_path / "missing.jsonl"])


def test_the_http_layer(app):
    """Over HTTP: the page, JSON answers, and the guards (Content-Type, Host, body size)."""
    server = make_server(app, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    def request(path, body=None, headers=None):
        req = urllib.request.Request(base + path, data=body, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.headers["Content-Type"], r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers["Content-Type"], e.read()

    try:
        status, ctype, page = request("/")
        assert status == 200 and ctype.startswith("text/html") and b"app.js" in page
        assert request("/static/board.js")[0] == 200
        status, _, body = request(
            "/api/new", b'{"technocrat": "human", "max_turns": 1}', {"Content-Type": "application/json"}
        )
        assert status == 200 and json.loads(body)["to_move"]["human"]
        assert request("/api/play", b'{"action": 0}', {"Content-Type": "text/plain"})[0] == 415
        assert request("/api/state", headers={"Host": "evil.example:80"})[0] == 421
        assert request("/api/undo", b"{}", {"Content-Type": "application/json", "Content-Length": str(10**9)})[0] == 413
    finally:
        server.shutdown()
        server.server_close()


def test_one_connection_serves_many_requests(app):
    """HTTP/1.1: a page's requests reuse one connection; an answer given before
    a request's body was read (a refused Content-Type) closes the connection,
    so that the next request does not begin inside that body."""
    import http.client

    server = make_server(app, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
        body = b'{"technocrat": "human", "max_turns": 1}'
        conn.request("POST", "/api/new", body=body, headers={"Content-Type": "application/json"})
        first = conn.getresponse()
        assert first.status == 200 and json.loads(first.read())["to_move"]["human"]
        sock = conn.sock
        for _ in range(3):
            conn.request("GET", "/api/state")
            answer = conn.getresponse()
            assert answer.status == 200 and json.loads(answer.read())["to_move"]["human"]
        assert conn.sock is sock, "the connection was not kept"
        conn.request("POST", "/api/play", body=b'{"action": 0}', headers={"Content-Type": "text/plain"})
        refused = conn.getresponse()
        assert refused.status == 415 and refused.getheader("Connection") == "close"
        refused.read()
        conn.request("GET", "/api/state")  # http.client opens a new connection
        again = conn.getresponse()
        assert again.status == 200 and json.loads(again.read())["to_move"]["human"]
        conn.close()
    finally:
        server.shutdown()
        server.server_close()


def test_any_click_is_answered_and_set_up_is_clickable(app):
    """The Ziegler set-up of ``open`` (3.2, D21) by clicks: each hex placed and
    each facing chosen on the board; before every decision a random click
    anywhere is played, offered as choices, or refused with a reason (never a
    server error), and a refused click changes nothing."""
    rng = random.Random(11)
    state = new_game(app, ziegler="human", technocrat="scripted", scenario="open", max_turns=1)
    placed = 0
    while state["phase"] == "Z":
        click = (
            {"hex": [rng.randrange(-4, 19), rng.randrange(-4, 25)]}
            if rng.random() < 0.7
            else {"unit": rng.choice([u[0] for u in state["board"]["units"]] or [0])}
        )
        status, answer = call(app, "POST", "/api/click", click)
        assert status in (200, 400, 409), answer
        if status == 409:
            assert answer["error"] and call(app, "GET", "/api/state") == (200, state)
        elif status == 200 and "choices" not in answer:
            state = answer
            continue
        action = rng.choice([a["action"] for a in state["legal"]])
        click = click_for(state, action)
        if click is None:
            assert state["legal"][0]["caption"].startswith("set up: choose")  # choices are buttons
            status, state = call(app, "POST", "/api/play", {"action": action})
        else:
            placed += 1
            status, state = call(app, "POST", "/api/click", click)
            if "choices" in state:
                status, state = call(app, "POST", "/api/play", {"action": action})
        assert status == 200, state
    assert placed > 20 and state["phase"] == "A"


def test_new_game_takes_an_agent_spec_and_the_best_alias():
    """``/api/new`` takes an agent by spec (``ismcts(n=16)``) and lists the alias
    ``best``; a bad spec is refused with a 400 naming the problem, and the
    game in progress is kept."""
    fresh = WebApp()
    status, info = call(fresh, "GET", "/api/info")
    assert status == 200 and "best" in info["agents"]
    status, _ = call(
        fresh,
        "POST",
        "/api/new",
        {"technocrat": "human", "ziegler": "ismcts(iterations=2,deploy_candidates=0)", "seed": 1},
    )
    assert status == 200
    session = fresh.session
    status, answer = call(fresh, "POST", "/api/new", {"technocrat": "human", "ziegler": "ismcts(iterations=0)"})
    assert status == 400 and "not 'human' or an available agent" in json.dumps(answer)
    assert fresh.session is session


def test_clicks_map_a_game_without_http():
    """The web page's clicks map onto the legal actions without HTTP (``human.clicks``): every targeted
    action is a legal one, a counter's click gives its actions, and a refused hex or unit says why."""
    from hotspot.core.game import Game
    from hotspot.core.hexgrid import MAP_COLS, MAP_ROWS
    from hotspot.core.rules_data import NO_UNIT
    from hotspot.human.clicks import action_targets, click_map, counter_click, refusal, unit_refusal

    game = Game(scenario="standard", seed=1)
    legal = [int(a) for a in game.legal_actions()]
    hexes, units = click_map(game, legal)
    assert hexes and sorted({a for acts in hexes.values() for a in acts}) == sorted(
        a for a in legal if action_targets(game, a)[0]
    )
    for unit, acts in units.items():
        assert counter_click(game, hexes, units, unit) == acts
    # a hex no legal action touches is refused with a reason, not an exception
    free = next((c, r) for c in range(MAP_COLS) for r in range(MAP_ROWS) if f"{c},{r}" not in hexes)
    assert isinstance(refusal(game, free), str) and refusal(game, free)
    enemy = next(
        u for u in range(len(game.s["unit_type"])) if int(game.s["unit_type"][u]) != NO_UNIT and u not in units
    )
    assert isinstance(unit_refusal(game, enemy), str) and unit_refusal(game, enemy)
