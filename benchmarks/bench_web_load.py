"""The web app under load: several clients clicking, playing, undoing,
saving, loading and advancing at once against one ``hotspot serve``.

    python benchmarks/bench_web_load.py                  # 8 clients, 60 s
    python benchmarks/bench_web_load.py --clients 16 --seconds 120
    python benchmarks/bench_web_load.py --tiny           # smoke sizes

The server runs in its own process (``hotspot.human.web.make_server`` on a
free port of 127.0.0.1, the server of ``hotspot serve``); each client is a
process of its own, as each browser is, with its own connection (HTTP/1.1,
kept open), over the standard library's ``http.client``.  The app holds one
game, shared by the clients, as a person's browser tabs would share it.  Each client repeats, at random:

* **click** (the most common): read the state, click one of the hexes or
  counters the state offers (``targets``, ``unitTargets``);
* **play** a legal action from the list; **undo**; read the **state**;
* **save and load**: download the game, load it back, and check (after the
  run, so that the check takes no processor time from the server) that the
  server's answer to the load is the state that the saved game replays to in
  a fresh, local ``WebApp`` (the saved game is not lost or changed);
* **advance**: once in a while, a new game of two agents advanced a few
  decisions, then a new game for persons again.

A 4xx answer is an answer (another client moved first: the click is no longer
legal, 409); a 5xx, a dropped connection or a load answered with another
state is an error.  A saved game that the server refuses to load back is
counted apart (``refused_own_saves``, with the refused saves kept in the
JSON) and fails the run as an error does.  The
JSON reports the requests, the errors, and the latency percentiles of each
kind of request; the targets: 0 errors, 0 lost games, a click's p99 under
100 ms with 8 clients.
"""

from __future__ import annotations

import http.client
import json
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

import _common as C
import numpy as np

SERVER = (
    "import sys\n"
    "from hotspot.human.web import WebApp, make_server\n"
    "server = make_server(WebApp(), port=0)\n"
    "print(server.server_address[1], flush=True)\n"
    "server.serve_forever()\n"
)
PERSONS = {"technocrat": "human", "ziegler": "human", "scenario": "standard"}
AGENTS = {"technocrat": "scripted", "ziegler": "scripted", "scenario": "standard"}
CLICK_P99_TARGET_MS = 100.0


class Client:
    def __init__(self, port: int, rng: random.Random, stats: dict, lock: threading.Lock):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.rng, self.stats, self.lock = rng, stats, lock

    def request(self, kind: str, method: str, path: str, body=None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        t0 = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=headers)
            resp = self.conn.getresponse()
            payload = resp.read()
            status = resp.status
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()
            self._error(kind, f"{type(exc).__name__}: {exc}")
            return None, None
        ms = (time.perf_counter() - t0) * 1000
        with self.lock:
            self.stats["latency"].setdefault(kind, []).append(ms)
            self.stats["status"][str(status)] = self.stats["status"].get(str(status), 0) + 1
        if status >= 500:
            self._error(kind, f"{status}: {payload[:200]!r}")
        return status, payload

    def _error(self, kind: str, what: str) -> None:
        with self.lock:
            self.stats["errors"].append({"request": kind, "error": what})

    def state(self) -> dict | None:
        status, payload = self.request("state", "GET", "/api/state")
        return json.loads(payload) if status == 200 else None

    def step(self) -> None:
        r = self.rng.random()
        if r < 0.55:
            state = self.state()
            if state is None or state.get("over"):
                self.request("new", "POST", "/api/new", dict(PERSONS, seed=self.rng.randrange(1000)))
                return
            hexes = [("hex", [int(x) for x in key.split(",")]) for key in state.get("targets", {})]
            units = [("unit", int(u)) for u in state.get("unitTargets", {})]
            if hexes or units:
                what, where = self.rng.choice(hexes + units)
                self.request("click", "POST", "/api/click", {what: where})
        elif r < 0.70:
            state = self.state()
            if state and state.get("legal"):
                self.request("play", "POST", "/api/play", {"action": self.rng.choice(state["legal"])["action"]})
        elif r < 0.75:
            self.request("undo", "POST", "/api/undo", {})
        elif r < 0.90:
            self.save_and_load()
        elif r < 0.93:
            self.request("new", "POST", "/api/new", dict(AGENTS, seed=self.rng.randrange(1000)))
            self.request("advance", "POST", "/api/advance", {"max": 20})
            self.request("new", "POST", "/api/new", dict(PERSONS, seed=self.rng.randrange(1000)))
        else:
            self.state()

    def save_and_load(self) -> None:
        status, saved = self.request("save", "GET", "/api/save")
        if status != 200:
            return
        status, answer = self.request("load", "POST", "/api/load", json.loads(saved))
        if status != 200:  # counted apart, with the save
            with self.lock:
                self.stats["refused_own_saves"] += 1
                self.stats.setdefault("refused_saves", []).append(json.loads(saved))
            return
        with self.lock:  # checked after the run, so that checking takes no time from the server
            self.stats["loaded"].append((saved, answer))


def check_loads(stats: dict) -> None:
    """Each save the server loaded back answered with the state that save
    replays to in a fresh, local ``WebApp`` (no game lost or changed)."""
    from hotspot.human.web import WebApp

    for saved, answer in stats.pop("loaded"):
        local_status, _, expected = WebApp().handle("POST", "/api/load", saved)
        stats["loads_checked"] += 1
        if local_status != 200 or json.loads(expected) != json.loads(answer):
            stats["lost_games"] += 1
            stats["errors"].append({"request": "load", "error": "the loaded game is not the state its save replays to"})


def _client(port: int, seed: int, start_at: float, seconds: float) -> dict:
    """One client's run (in its own process): its requests from ``start_at``
    (wall clock) for ``seconds``; its stats."""
    stats = {"latency": {}, "status": {}, "errors": [], "refused_own_saves": 0, "loaded": []}
    client = Client(port, random.Random(seed), stats, threading.Lock())
    time.sleep(max(0.0, start_at - time.time()))
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        client.step()
    return stats


def run(clients: int, seconds: float, seed: int) -> dict:
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True, env=C.child_env())
    try:
        port = int(server.stdout.readline())
        stats = {
            "latency": {},
            "status": {},
            "errors": [],
            "lost_games": 0,
            "loads_checked": 0,
            "refused_own_saves": 0,
            "loaded": [],
        }
        Client(port, random.Random(seed), stats, threading.Lock()).request(
            "new", "POST", "/api/new", dict(PERSONS, seed=seed)
        )
        # each client its own process, as each browser is: the clients' own work
        # does not wait for one interpreter's lock (GIL) and count as the server's
        with ProcessPoolExecutor(clients) as pool:
            start_at = time.time() + 2.0 + 0.2 * clients  # once every process has started
            parts = list(
                pool.map(
                    _client,
                    [port] * clients,
                    [seed * 1000 + i + 1 for i in range(clients)],
                    [start_at] * clients,
                    [seconds] * clients,
                )
            )
        alive = server.poll() is None
    finally:
        server.kill()
        server.wait()
    for part in parts:
        for kind, ms in part["latency"].items():
            stats["latency"].setdefault(kind, []).extend(ms)
        for code, n in part["status"].items():
            stats["status"][code] = stats["status"].get(code, 0) + n
        stats["errors"] += part["errors"]
        stats["refused_own_saves"] += part["refused_own_saves"]
        stats["loaded"] += part["loaded"]
        stats.setdefault("refused_saves", []).extend(part.get("refused_saves", []))
    stats["server_alive"] = alive
    check_loads(stats)
    return stats


def percentiles(values) -> dict:
    a = np.asarray(values, dtype=float)
    return {
        "n": int(a.size),
        "p50_ms": float(np.percentile(a, 50)),
        "p95_ms": float(np.percentile(a, 95)),
        "p99_ms": float(np.percentile(a, 99)),
        "max_ms": float(a.max()),
    }


def main() -> None:
    parser = C.make_parser("bench_web_load", __doc__)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    clients, seconds = (2, 3.0) if args.tiny else (args.clients, args.seconds)
    if clients < 1 or seconds <= 0:
        raise SystemExit("--clients must be >= 1 and --seconds > 0")
    stats = run(clients, seconds, args.seed)
    rows = [{"request": kind, **percentiles(ms)} for kind, ms in sorted(stats["latency"].items())]
    requests = sum(r["n"] for r in rows)
    click = next((r for r in rows if r["request"] == "click"), None)
    summary = {
        "clients": clients,
        "seconds": seconds,
        "requests": requests,
        "errors": len(stats["errors"]),
        "lost_games": stats["lost_games"],
        "loads_checked": stats["loads_checked"],
        "refused_own_saves": stats["refused_own_saves"],
        "status": stats["status"],
        "server_alive": stats["server_alive"],
        "click_p99_ms": click["p99_ms"] if click else None,
        "holds": (
            not stats["errors"]
            and stats["lost_games"] == 0
            and stats["refused_own_saves"] == 0
            and stats["server_alive"]
            and click is not None
            and click["p99_ms"] < CLICK_P99_TARGET_MS
        ),
    }
    C.print_table(
        f"Web app under load: {clients} clients, {seconds:.0f} s, {requests} requests, "
        f"{len(stats['errors'])} errors, {stats['lost_games']} lost games, "
        f"{stats['refused_own_saves']} saves the server refused to load",
        ["request", "n", "p50 ms", "p95 ms", "p99 ms", "max ms"],
        [
            [r["request"], r["n"], C.fmt(r["p50_ms"]), C.fmt(r["p95_ms"]), C.fmt(r["p99_ms"]), C.fmt(r["max_ms"])]
            for r in rows
        ],
    )
    C.write_result(
        args,
        "web_load",
        {"clients": clients, "seconds": seconds, "seed": args.seed},
        rows,
        summary,
        extra={"errors_seen": stats["errors"][:50], "refused_saves": stats.get("refused_saves", [])[:3]},
    )


if __name__ == "__main__":
    main()
