"""The HTML replay viewer (``hotspot replay --html``), tested in
headless Chromium: the page loads without console errors, stepping changes the
board, the view switch shows what each side saw (D20)."""

import contextlib
import os
import shutil

import numpy as np
import pytest

from hotspot.core import units
from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.game import Game
from hotspot.core.rollout import random_action
from hotspot.core.rules_data import UNIT_SIDE
from hotspot.env.viewer import VIEWS, board_of, replay_frames, write_replay_html

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Browser tests run where Chromium is (CI installs Debian's, see .ci/run) and are skipped elsewhere.
needs_chromium = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"), reason="no Chromium on this machine")


@contextlib.contextmanager
def chromium_page(errors: list, **page_options):
    """A page of headless Chromium driven by playwright (no browser download:
    Debian's ``chromium``); the page's console errors and exceptions go to ``errors``."""
    playwright = pytest.importorskip("playwright.sync_api")
    assert CHROMIUM, "CI installs Debian's chromium (see .ci/run)"
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        try:
            page = browser.new_page(**page_options)
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            yield page
        finally:
            browser.close()


def _finished_game(seed=3):
    game = Game("standard", seed=seed)
    rng = np.array([seed + 1], dtype=np.uint64)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    while not game.is_terminal():
        game.apply_action(int(random_action(game.s, mask, rng, 0)))
    return game


def test_frames_follow_the_record():
    """One frame per action plus the start; captions name the actions and the dice rolls."""
    game = _finished_game()
    frames = replay_frames(game.record)
    assert len(frames) == len(game.record.actions) + 1
    assert frames[0]["caption"] == "start" and frames[-1]["phase"] == "-"
    assert frames[-1]["result"] == game.result()
    replay = Game("standard", seed=game.record.seed)
    rolls = 0
    for a, frame in zip(game.record.actions, frames[1:]):
        assert frame["caption"].split(":")[0] in ("ziegler", "technocrat")
        assert replay.action_to_string(a) in frame["caption"]
        rolls += sum(e["event"] == "roll" for e in replay.apply_action(a, events=True))
    assert sum(f["caption"].count("roll ") for f in frames) == rolls
    assert sum(e.startswith("roll ") for f in frames for e in f["events"][0]) == rolls


def test_boards_show_counters_and_what_each_side_saw():
    """Every frame has the board in full and as each side saw it (D20): a side
    sees all of its own counters with their factors; of the other side's
    it sees less somewhere in the game (hidden types, squads or damage)."""
    game = _finished_game()
    frames = replay_frames(game.record)
    assert all(len(f["boards"]) == len(VIEWS) == 3 for f in frames)
    full = board_of(game.s)
    assert frames[-1]["boards"][0] == full
    for u in full["units"]:  # [id, side, type, squads, attack, defense, movement, col, row, moves left]
        assert u[1] == UNIT_SIDE[u[2]] and u[3] >= 1 and min(u[4], u[5]) >= 0
    fogged = [False, False]
    for f in frames:
        for side in (0, 1):
            seen = f["boards"][1 + side]
            own = [u for u in f["boards"][0]["units"] if u[1] == side]
            assert [u[:9] for u in seen["units"] if u[1] == side] == [u[:9] for u in own]
            fogged[side] |= seen != f["boards"][0]
    assert fogged == [True, True]


def test_counters_factors_and_sides_are_the_cores():
    """board_of reads a counter's side and factors as units.side_seen_by,
    attack_of and defense_of do, in full and in each side's view (D20)."""
    game = _finished_game(seed=5)
    replay = Game("standard", seed=game.record.seed)
    for i, a in enumerate(game.record.actions):
        for observer in (-1, 0, 1) if i % 5 == 0 else ():
            s = replay.s if observer < 0 else replay.observation(observer)[0]
            for u, side, _, _, attack, defense, *_ in board_of(s, observer)["units"]:
                assert attack == units.attack_of(s, u) and defense == units.defense_of(s, u)
                assert side == (units.unit_side(s, u) if observer < 0 else units.side_seen_by(s, u, observer))
        replay.apply_action(a)


@needs_chromium
def test_viewer_in_headless_chromium(tmp_path):
    """The page loads without console errors; the buttons step through the game and change the board."""
    game = _finished_game()
    page_path = write_replay_html(game.record, tmp_path / "replay.html")
    errors = []
    with chromium_page(errors) as page:
        page.goto(page_path.as_uri())
        assert page.get_attribute("body", "data-step") == "0"
        start_board = page.inner_html("#board")
        page.click("#last")
        assert page.get_attribute("body", "data-step") == str(len(game.record.actions))
        assert page.inner_html("#board") != start_board
        assert game.result() in page.inner_text("#status")
        full_board = page.inner_html("#board")
        page.select_option("#view", "1")  # as the Ziegler player saw it (D20)
        assert page.inner_html("#board") != full_board
        page.select_option("#view", "0")
        assert page.inner_html("#board") == full_board
        page.click("#first")
        assert page.inner_html("#board") == start_board
        assert "Ziegler counter" in page.inner_text("#legend")
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("body", "data-step") == "1"
        assert page.locator(".hs-counter").count() > 0 and page.locator("text.hs-coord").count() == 15 * 21
    assert errors == []
