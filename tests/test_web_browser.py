"""The browser app (``hotspot serve``) end to end in headless
Chromium: a person plays a whole game against the random agent by clicking
hexes and counters (the list of legal actions for the rest) and sees the
result; a refused click shows the rule that refuses it."""

import random
import threading

import pytest
from test_viewer import chromium_page, needs_chromium

from hotspot.human.web import WebApp, make_server


@pytest.fixture
def url():
    server = make_server(WebApp(), "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def _state(page):
    return page.evaluate("window.hotspotApp.state")


def _click_hex(page, key):
    """Click hex ``key`` ("col,row") near its top edge, clear of the counters in its centre."""
    hex_ = page.locator(f'g.hs-hex[data-hex="{key}"] > polygon')
    box = hex_.bounding_box()
    hex_.click(position={"x": box["width"] / 2, "y": box["height"] * 0.15})


def _wait_for_answer(page, version):
    page.wait_for_function(
        "v => document.body.dataset.version !== v || document.querySelector('#choices button')", arg=version
    )


@needs_chromium
def test_a_whole_game_against_random_in_the_browser(url):
    errors = []
    with chromium_page(errors, viewport={"width": 1400, "height": 1000}) as page:
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#ziegler", "random")
        page.select_option("#technocrat", "human")
        page.select_option("#scenario", "standard")
        page.fill("#seed", "3")
        page.fill("#maxturns", "1")
        page.click("#new")
        page.wait_for_selector("body[data-tomove='human']")
        state = _state(page)
        assert state["phase"] == "E" and state["to_move"]["side"] == "technocrat"

        # A refused click: a Ziegler crustal in the Technocrat's crustal phase (4.0 A/E, 15.2).
        crustal = next(p for p in state["board"]["pieces"] if p[2] not in (1, 6) and p[4] == 0)  # not CC, D2
        _click_hex(page, "{},{}".format(*crustal[3][0]))
        page.wait_for_function("document.querySelector('#message').textContent.includes('15.2')")
        assert "does not control that piece (4.0 A/E, 15.2)" in page.inner_text("#message")
        assert page.locator(".hs-refused").count() == 1 and _state(page) == state

        rng = random.Random(7)
        used = {"hex": 0, "counter": 0, "menu": 0, "list": 0}
        while page.get_attribute("body", "data-over") != "1":
            state = _state(page)
            assert state["to_move"]["human"]
            action = rng.choice([a["action"] for a in state["legal"]])
            version = page.get_attribute("body", "data-version")
            units = [int(u) for u, acts in state["unitTargets"].items() if action in acts]
            hexes = [key for key, acts in state["targets"].items() if action in acts]
            if units and page.locator(f'.hs-counter[data-unit="{units[0]}"]').count():
                page.click(f'.hs-counter[data-unit="{units[0]}"]')
                used["counter"] += 1
            elif hexes:
                _click_hex(page, hexes[0])
                used["hex"] += 1
            else:
                page.click(f'#actions [data-action="{action}"]')
                used["list"] += 1
            _wait_for_answer(page, version)
            if page.locator("#choices button").count():  # several actions there: pick from the menu
                page.click(f'#choices [data-action="{action}"]')
                used["menu"] += 1
                _wait_for_answer(page, version)
            assert not page.inner_text("#message"), page.inner_text("#message")
        state = _state(page)
        assert state["over"] and state["result"] in page.inner_text("#status")
        assert used["hex"] > 0 and used["counter"] > 0 and used["list"] > 0
        assert len(state["log"]) > sum(used.values())  # the agent's decisions are logged too
    # a refused click's 409 is logged by the browser as a failed resource; nothing else may fail
    assert [e for e in errors if "status of 409" not in e] == []


@needs_chromium
def test_concede_in_the_browser(url):
    """5.0: the Concede button (after the page's confirmation) gives the game to
    the other side; the page shows the result and takes no further decision."""
    errors = []
    with chromium_page(errors) as page:
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#ziegler", "scripted")
        page.select_option("#technocrat", "human")
        page.select_option("#scenario", "open")
        page.click("#new")
        page.wait_for_selector("body[data-tomove='human']")
        assert not page.is_disabled("#concede")
        asked = []
        page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        page.click("#concede")  # dismissed: nothing happens
        assert asked and "cannot be undone" in asked[0] and not _state(page)["over"]
        page.once("dialog", lambda d: d.accept())
        page.click("#concede")
        page.wait_for_selector("body[data-over='1']")
        assert "the Technocrat conceded, 5.0" in page.inner_text("#status")
        assert page.is_disabled("#concede") and page.is_disabled("#undo")
        assert page.get_attribute("body", "data-busy") == "0"  # the answer is in: the page takes clicks again
    assert errors == []


def _bar(page):
    return {name: page.input_value(f"#{name}") for name in ("ziegler", "technocrat", "scenario", "seed", "maxturns")}


@needs_chromium
def test_the_settings_bar_shows_the_game_on_the_board(url, tmp_path):
    """What a person sees is the game being played: a game made by
    ``/api/new`` (another client, a script) or loaded from a file shows its
    own players, scenario, seed and turn limit in the settings bar, not the
    form's defaults; an agent with parameters is shown as named."""
    import json

    errors = []
    with chromium_page(errors, viewport={"width": 1400, "height": 1000}) as page:
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        made = page.evaluate(
            """async () => (await fetch('/api/new', {method: 'POST', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({ziegler: 'human', technocrat: 'portfolio(plans=8)', scenario: 'open',
                                      seed: 7, max_turns: 50})})).status"""
        )
        assert made == 200
        saved = page.evaluate("async () => (await fetch('/api/save')).json()")
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        shown = {"ziegler": "human", "technocrat": "portfolio(plans=8)", "scenario": "open", "seed": "7"}
        assert _bar(page) == {**shown, "maxturns": "50"}

        page.select_option("#technocrat", "random")  # a new game from the form: the bar keeps what was chosen
        page.select_option("#scenario", "standard")
        page.fill("#seed", "3")
        page.fill("#maxturns", "")
        page.click("#new")
        page.wait_for_function("window.hotspotApp.state && window.hotspotApp.state.settings.seed === 3")
        assert _bar(page) == {"ziegler": "human", "technocrat": "random", "scenario": "standard", "seed": "3",
                              "maxturns": ""}  # fmt: skip

        game = tmp_path / "game.json"
        game.write_text(json.dumps(saved))
        page.set_input_files("#load", str(game))  # the saved game back: the bar shows it again
        page.wait_for_function("window.hotspotApp.state && window.hotspotApp.state.settings.seed === 7")
        assert _bar(page) == {**shown, "maxturns": "50"}
    assert errors == []
