"""``hotspot evaluate``: the standard protocol (the reference ladder, both
seats on mirrored seeds, sequential stopping), its result card, and the
rating model behind the published scale (``hotspot.arena.rating``: a rating
per seat, bounds for a seat that never wins or never loses)."""

import csv
import json
import math
import subprocess
import sys
import time

import numpy as np
import pytest

from hotspot.arena import ArenaError
from hotspot.arena.evaluate import run_evaluate
from hotspot.arena.folder import FolderLockedError
from hotspot.arena.rating import (
    ANCHOR_RATING,
    RATINGS_FILE,
    REFERENCE_LADDER,
    SCALE,
    fit_ratings,
    load_reference,
    rate,
    seat_results,
)
from hotspot.arena.stats import wilson_interval

# ------------------------------------------------------------ the rating model


def _simulate(true, n, seed=0):
    rng = np.random.default_rng(seed)
    out = {}
    for t in true:
        for z in true:
            p = 1 / (1 + 10 ** (-(true[t][0] - true[z][1]) / 400))
            out[(t, z)] = [float(rng.binomial(n, p)), n]
    return out


def test_fit_recovers_seat_ratings_and_the_anchor():
    """Each seat's rating is recovered from simulated games (the model's own
    P = 1 / (1 + 10^(-(T_i - Z_j) / 400))), scripted at 1000 overall."""
    true = {"scripted": (1300, 700), "a": (1500, 1000), "b": (1100, 600)}
    fit = fit_ratings(_simulate(true, 4000), prior=0.0)
    assert (fit["scripted"][0] + fit["scripted"][1]) / 2 == pytest.approx(ANCHOR_RATING)
    for agent, (t, z) in true.items():  # true ratings shifted so that scripted is 1000 overall
        assert fit[agent][0] == pytest.approx(t, abs=25) and fit[agent][1] == pytest.approx(z, abs=25)


def test_one_seat_known_answer_and_draws_count_half():
    """A Technocrat scoring 3 of 4 (wins 2, draws 2) against a Ziegler rated
    1000 is rated 1000 + 400 log10(3); its 95% interval is where the
    log-likelihood is within 1.92 of its top."""
    est = rate([("z", 3.0, 4)], [], {"z": (0.0, 1000.0)})["technocrat"]
    assert est.value == pytest.approx(1000 + 400 * math.log10(3), abs=2)
    for bound in (est.low, est.high):
        d = (bound - 1000) / SCALE
        ll = 3 * math.log(1 / (1 + math.exp(-d))) + 1 * math.log(1 / (1 + math.exp(d)))
        top = 3 * math.log(0.75) + math.log(0.25)
        assert top - ll == pytest.approx(1.92, abs=0.02)


def test_an_agent_that_never_wins_gets_a_bound_not_an_interval():
    """A seat that never won has no finite estimate: the card prints an
    upper bound (one that never lost, a lower bound), never an interval
    blown up by a divergent fit."""
    ratings = {"scripted": (1400.0, 600.0)}
    est = rate([("scripted", 0.0, 50)], [("scripted", 50.0, 50)], ratings)
    assert est["technocrat"].value is None and est["technocrat"].low is None
    assert est["technocrat"].text().startswith("< ") and est["technocrat"].high < 600
    assert est["ziegler"].text().startswith("> ") and est["ziegler"].low > 1400
    assert est["overall"].text() == "unbounded"  # one seat unbounded below, the other above
    weak = rate([("scripted", 0.0, 50)], [("scripted", 0.0, 50)], ratings)["overall"]
    assert weak.text().startswith("< ")


def test_intervals_cover_the_truth_at_their_level():
    """Over 200 simulated agents, the 95% interval of the Technocrat rating
    holds the true rating in about 95% of cases (binomial 99.9% band)."""
    rng = np.random.default_rng(7)
    opponents = {"o1": (0.0, 900.0), "o2": (0.0, 1200.0)}
    hits = 0
    for _ in range(200):
        truth = rng.uniform(800, 1400)
        games = []
        for o, (_, z) in opponents.items():
            p = 1 / (1 + 10 ** (-(truth - z) / 400))
            games.append((o, float(rng.binomial(60, p)), 60))
        est = rate(games, [], opponents)["technocrat"]
        hits += (est.low is None or est.low <= truth) and (est.high is None or truth <= est.high)
    lo, hi = wilson_interval(hits, 200, confidence=0.999)
    assert lo <= 0.95 <= hi, hits


# ------------------------------------------------------------ the published scale


def test_the_published_ratings_are_refitted_from_their_committed_games():
    """The published file names the protocol and its game set; refitting the
    committed games (every game with its seed) gives the published ratings."""
    reference = load_reference()
    assert reference["protocol"]["ladder"] == list(REFERENCE_LADDER)
    assert set(reference["agents"]) == set(REFERENCE_LADDER)
    path = RATINGS_FILE.parents[2] / reference["game_set"]["file"]
    with path.open(encoding="utf-8") as f:
        rows = [
            {
                "technocrat": r["technocrat"],
                "ziegler": r["ziegler"],
                "winner": None if r["winner"] == "draw" else r["winner"],
            }
            for r in csv.DictReader(f)
        ]
    assert len(rows) == reference["game_set"]["games"]
    fit = fit_ratings(seat_results(rows), anchor="scripted", prior=1.0)
    for agent, entry in reference["agents"].items():
        assert fit[agent][0] == pytest.approx(entry["technocrat"], abs=0.1)
        assert fit[agent][1] == pytest.approx(entry["ziegler"], abs=0.1)
    scripted = reference["agents"]["scripted"]
    assert (scripted["technocrat"] + scripted["ziegler"]) / 2 == pytest.approx(ANCHOR_RATING, abs=0.1)
    assert reference["agents"]["random"]["overall"]["low"] is None  # random never wins: a bound


# ------------------------------------------------------------ the protocol and its card


@pytest.fixture()
def reference(tmp_path):
    """A small reference file on the protocol's settings (the agents' ratings made up)."""
    published = json.loads(RATINGS_FILE.read_text()) if RATINGS_FILE.exists() else None
    doc = {
        "format": "hotspot-reference-ratings",
        "version": 1,
        "anchor": {"agent": "scripted", "rating": 1000.0},
        "protocol": {"scenario": "open", "rules": {}, "max_turns": 200, "ladder": list(REFERENCE_LADDER)},
        "game_set": {"games": 0},
        "agents": {
            "random": {"technocrat": 0.0, "ziegler": 300.0},
            "scripted": {"technocrat": 1400.0, "ziegler": 600.0},
            "ismcts": {"technocrat": 1450.0, "ziegler": 650.0},
            "portfolio": {"technocrat": 1500.0, "ziegler": 700.0},
            "portfolio(horizon=2)": {"technocrat": 1550.0, "ziegler": 750.0},
        },
    }
    assert published is None or published["protocol"]["scenario"] == doc["protocol"]["scenario"]
    path = tmp_path / "reference.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_card_by_opponent_and_seat_with_ratings(tmp_path, reference):
    """``random`` evaluated against ``random`` and ``scripted``: game i as
    Technocrat and as Ziegler share a seed; the card has each opponent's
    score by seat with Wilson intervals; random never wins against scripted
    as Technocrat, so its Technocrat rating is a bound.  A rerun resumes
    (no game played again)."""
    kwargs = dict(opponents=["random", "scripted"], games=6, step=3, ratings=reference, workers=1, progress=False)
    card = run_evaluate("random", out=tmp_path / "ev", **kwargs)
    assert card["left_out"] == ["random"]  # the agent itself is no opponent
    (entry,) = card["opponents"]
    assert entry["opponent"] == "scripted" and entry["as_technocrat"]["games"] == 6 == entry["as_ziegler"]["games"]
    assert entry["as_technocrat"]["score"] == 0.0
    assert card["ratings"]["technocrat"]["text"].startswith("< ")
    rows = [json.loads(line) for line in (tmp_path / "ev" / "games.jsonl").read_text().splitlines()]
    by_index = {}
    for r in rows:
        by_index.setdefault(r["index"], set()).add(r["seed"])
    assert all(len(seeds) == 1 for seeds in by_index.values())  # mirrored seeds
    assert (tmp_path / "ev" / "card.txt").read_text().startswith("Evaluation of random")
    again = run_evaluate("random", out=tmp_path / "ev", **kwargs)
    assert again["played_now"] == 0 and again["opponents"] == card["opponents"]


def test_sequential_stopping_stops_an_opponent_at_the_precision(tmp_path, reference):
    """scripted beats random in every game: after the first step of 8 games
    a side the interval is narrower than +-0.1, and the opponent stops."""
    card = run_evaluate(
        "scripted", opponents=["random"], games=40, step=8, precision=0.1, ratings=reference,
        out=tmp_path / "ev", workers=1, progress=False,
    )  # fmt: skip
    (entry,) = card["opponents"]
    assert entry["stopped"] == "precision" and entry["as_technocrat"]["games"] == 8
    assert entry["score"] == 1.0 and card["ratings"]["overall"]["text"].startswith("> ")


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"opponents": ["mcts"]}, "no published rating"),
        ({"precision": 0.7}, "precision must be a number in (0, 0.5)"),
        ({"games": 0}, "games must be a positive integer"),
        ({"ratings": "no/such/file.json"}, "cannot read them"),
    ],
)
def test_bad_arguments_are_one_line_and_write_nothing(tmp_path, reference, kwargs, words):
    args = {"opponents": ["random"], "games": 2, "ratings": reference, "out": tmp_path / "ev", "progress": False}
    with pytest.raises(ArenaError) as exc:
        run_evaluate("scripted", **{**args, **kwargs})
    assert words in str(exc.value) and "\n" not in str(exc.value)
    assert not (tmp_path / "ev").exists()


def test_a_second_writer_is_refused(tmp_path, reference):
    """One writer a folder: while another process holds it, an evaluation
    into the same folder is refused at once."""
    out = tmp_path / "ev"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from hotspot.arena.folder import writer_lock\n"
            f"with writer_lock({str(out)!r}):\n    print('held', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        t0 = time.time()
        with pytest.raises(FolderLockedError):
            run_evaluate("scripted", opponents=["random"], games=2, ratings=reference, out=out, progress=False)
        assert time.time() - t0 < 30
    finally:
        holder.kill()
        holder.wait()


def test_the_command_line_evaluates_a_module_agent(tmp_path, reference):
    """``hotspot evaluate mybots:Agent --workers 2``: the card printed and
    written (text, JSON, PNG); a bad agent is one line and exit status 2."""
    (tmp_path / "cardbots.py").write_text(
        "import numpy as np\nfrom hotspot.agents import Agent\n\n"
        "class Last(Agent):\n    def act(self, info_state, mask, side):\n        return int(np.flatnonzero(mask)[-1])\n",
        encoding="utf-8",
    )

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "hotspot", "evaluate", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=900,
        )

    done = run("cardbots:Last", "--opponents", "random,scripted", "--games", "2", "--step", "2", "--ratings",
               str(reference), "--workers", "2", "--no-progress", "--out", "card")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Rating on the published scale" in done.stdout and "as Technocrat" in done.stdout
    card = json.loads((tmp_path / "card" / "card.json").read_text())
    assert card["agent"] == "cardbots:Last" and card["games"] == 8
    assert (tmp_path / "card" / "card.png").read_bytes()[:4] == b"\x89PNG"
    done = run("cardbots:Nope", "--ratings", str(reference), "--out", "never")
    assert done.returncode == 2 and "has no attribute 'Nope'" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "never").exists()


def test_another_scenario_is_not_on_the_published_scale(tmp_path, reference):
    card = run_evaluate(
        "scripted", opponents=["random"], games=2, scenario="standard", max_turns=2, ratings=reference,
        out=tmp_path / "ev", workers=1, progress=False,
    )  # fmt: skip
    assert card["ratings"] is None and "not on the published scale" in card["text"]
