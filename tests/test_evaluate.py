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
from hotspot.arena.pairs import half_width, pair_summary
from hotspot.arena.rating import (
    ANCHOR_RATING,
    RATINGS_FILE,
    REFERENCE_LADDER,
    SCALE,
    fit_overall,
    fit_ratings,
    load_reference,
    rate,
    rate_overall,
    scores_against,
    seat_results,
    two_seat_scores,
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
    assert set(est) == {"technocrat", "ziegler"}  # the overall rating is rate_overall's


def _games(technocrat, ziegler, wins, draws, losses):
    return (
        [{"technocrat": technocrat, "ziegler": ziegler, "winner": "technocrat"}] * wins
        + [{"technocrat": technocrat, "ziegler": ziegler, "winner": None}] * draws
        + [{"technocrat": technocrat, "ziegler": ziegler, "winner": "ziegler"}] * losses
    )


def test_the_overall_score_weighs_both_seats_alike_and_its_variance_is_the_seats():
    """The overall score against an opponent is the mean of the agent's
    score as Technocrat and as Ziegler (each seat alike whatever its games),
    its variance (v_T / n_T + v_Z / n_Z) / 4 from each seat's games with one
    virtual game spread over 0, 1/2 and 1; an opponent met in one seat only
    gives no overall score."""
    rows = _games("a", "b", 30, 10, 0) + _games("b", "a", 8, 0, 2) + _games("a", "c", 5, 0, 0)
    scores = two_seat_scores(rows)
    assert set(scores) == {("a", "b")}
    s, v, n = scores[("a", "b")]
    mean_t, mean_z = (30 + 5) / 40, 2 / 10
    assert s == pytest.approx((mean_t + mean_z) / 2) and n == 50

    def seat_var(xs):
        m = sum(xs) / len(xs)
        spread = sum((x - m) ** 2 for x in xs) + sum((x - m) ** 2 for x in (0, 0.5, 1)) / 3
        return spread / (len(xs) + 1) / len(xs)

    v_t = seat_var([1.0] * 30 + [0.5] * 10)
    v_z = seat_var([0.0] * 8 + [1.0] * 2)
    assert v == pytest.approx((v_t + v_z) / 4)
    assert scores_against(scores, "b") == {"a": (pytest.approx(1 - s), v, n)}


def test_the_overall_rating_is_the_elo_of_the_score_over_both_seats():
    """Against one opponent rated 1000, a score of 0.75 over both seats is
    rated 1000 + 400 log10(3), whatever the split between the seats; its 95%
    interval is the score's normal interval mapped through the same curve;
    a score of 1 gives a lower bound only."""
    s, v = 0.75, 0.02**2
    est = rate_overall({"o": (s, v, 200)}, {"o": 1000.0})
    assert est.value == pytest.approx(1000 + 400 * math.log10(3), abs=2)
    for bound, score in ((est.low, s - 1.96 * 0.02), (est.high, s + 1.96 * 0.02)):
        assert bound == pytest.approx(1000 + 400 * math.log10(score / (1 - score)), abs=3)
    won = rate_overall({"o": (1.0, 0.01**2, 100)}, {"o": 1000.0})
    assert won.value is None and won.high is None and won.text().startswith("> ") and won.low > 1000
    lost = rate_overall({"o": (0.0, 0.01**2, 100)}, {"o": 1000.0})
    assert lost.text().startswith("< ") and lost.high < 1000


def test_fit_overall_recovers_the_pair_model_and_the_anchor():
    """With scores drawn from the overall model (S = 1 / (1 + 10^(-(R_a -
    R_b) / 400)) over both seats, each seat's score split unevenly about it),
    every agent's R is recovered, scripted at 1000; a fixed agent stays put."""
    true = {"scripted": 1000.0, "a": 1200.0, "b": 850.0}
    rng = np.random.default_rng(3)
    rows = []
    for x in true:
        for y in true:
            if x < y:
                s = 1 / (1 + 10 ** (-(true[x] - true[y]) / 400))
                t_share = min(0.97, s + 0.25)  # x's score as Technocrat above its overall, as Ziegler below
                z_share = 2 * s - t_share
                n = 4000
                w = int(rng.binomial(n, t_share))
                rows += _games(x, y, w, 0, n - w)
                w = int(rng.binomial(n, z_share))
                rows += _games(y, x, n - w, 0, w)
    fit = fit_overall(two_seat_scores(rows), prior=0.0)
    for agent, r in true.items():
        assert fit[agent] == pytest.approx(r, abs=20)
    held = fit_overall(two_seat_scores(rows), fixed={"scripted": 1000.0, "a": 1300.0}, prior=0.0)
    assert held["a"] == 1300.0 and held["b"] < 1000.0


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
    overall = fit_overall(two_seat_scores(rows), anchor="scripted", prior=1.0)
    for agent, entry in reference["agents"].items():
        assert fit[agent][0] == pytest.approx(entry["technocrat"], abs=0.1)
        assert fit[agent][1] == pytest.approx(entry["ziegler"], abs=0.1)
        assert overall[agent] == pytest.approx(entry["overall"]["fitted"], abs=0.1)
    scripted = reference["agents"]["scripted"]
    assert (scripted["technocrat"] + scripted["ziegler"]) / 2 == pytest.approx(ANCHOR_RATING, abs=0.1)
    assert scripted["overall"]["fitted"] == ANCHOR_RATING
    assert reference["agents"]["random"]["overall"]["low"] is None  # random never wins: a bound


def test_a_reference_file_without_overall_ratings_is_a_one_line_error(tmp_path):
    """A version 1 reference file (the seat model's overall, no
    ``overall.fitted``) is refused in one line that says how to refit it."""
    doc = json.loads(RATINGS_FILE.read_text())
    for entry in doc["agents"].values():
        del entry["overall"]["fitted"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps({**doc, "version": 1}))
    with pytest.raises(ArenaError, match="lacks an overall rating .*fit_reference_ratings.py") as info:
        load_reference(path)
    assert "\n" not in str(info.value)


# ------------------------------------------------------------ the protocol and its card


@pytest.fixture()
def reference(tmp_path):
    """A small reference file on the protocol's settings (the agents' ratings made up)."""
    published = json.loads(RATINGS_FILE.read_text()) if RATINGS_FILE.exists() else None
    doc = {
        "format": "hotspot-reference-ratings",
        "version": 2,
        "anchor": {"agent": "scripted", "rating": 1000.0},
        "protocol": {"scenario": "open", "rules": {}, "max_turns": 200, "ladder": list(REFERENCE_LADDER)},
        "game_set": {"games": 0},
        "agents": {
            "random": {"technocrat": 0.0, "ziegler": 300.0, "overall": {"fitted": -400.0}},
            "scripted": {"technocrat": 1400.0, "ziegler": 600.0, "overall": {"fitted": 1000.0}},
            "ismcts": {"technocrat": 1450.0, "ziegler": 650.0, "overall": {"fitted": 1040.0}},
            "portfolio": {"technocrat": 1500.0, "ziegler": 700.0, "overall": {"fitted": 1100.0}},
            "portfolio(horizon=2)": {"technocrat": 1550.0, "ziegler": 750.0, "overall": {"fitted": 1150.0}},
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


def test_sequential_stopping_counts_pairs(tmp_path, reference, capsys):
    """scripted beats random in every game, so every pair scores 2: at the
    first look (8 pairs) the pairs' interval (clipped at 1, with its
    small-sample prior: one virtual pair spread over the five scores) is
    wider than +-0.05, at the second (16 pairs) narrower, and the opponent
    stops there, where the games' Wilson interval (32 games) is still wider.
    With stderr no terminal, plain progress lines show the run alive, one
    at each look."""
    card = run_evaluate(
        "scripted", opponents=["random"], games=40, step=8, precision=0.05, ratings=reference,
        out=tmp_path / "ev", workers=1, progress=True,
    )  # fmt: skip
    (entry,) = card["opponents"]
    assert entry["stopped"] == "precision" and entry["pairs"] == 16 and entry["as_technocrat"]["games"] == 16
    assert entry["pentanomial"] == [0, 0, 0, 0, 16] and entry["score"] == 1.0
    assert (entry["wilson_high"] - entry["wilson_low"]) / 2 > 0.05
    assert half_width(pair_summary([], "x")) == math.inf
    assert card["ratings"]["overall"]["text"].startswith("> ") and not card["partial"]
    err = capsys.readouterr().err
    assert "evaluate: 16/16 games, 0 of 1 opponents done" in err and "(look at 8 pairs)" in err
    assert "evaluate: 32/32 games, 1 of 1 opponents done" in err and "(look at 16 pairs)" in err
    run_evaluate(
        "scripted", opponents=["random"], games=40, step=8, precision=0.05, ratings=reference,
        out=tmp_path / "ev", workers=1, progress=False,
    )  # fmt: skip
    assert "evaluate:" not in capsys.readouterr().err  # --no-progress: no lines either


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"opponents": ["mcts"]}, "no published rating"),
        ({"precision": 0.7}, "precision must be a number in (0, 0.5)"),
        ({"games": 0}, "games must be a positive integer"),
        ({"ratings": "no/such/file.json"}, "cannot read them"),
        ({"minutes": 0}, "minutes must be a positive number"),
        ({"minutes": -2.5}, "minutes must be a positive number"),
        ({"minutes": float("nan")}, "minutes must be a positive number"),
        ({"seat": "both"}, "seat must be technocrat or ziegler"),
        ({"step": 0}, "step must be a positive integer"),
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


# ------------------------------------------------------------ pairs, partial cards, one seat


def _pair_rows(agent, opponent, outcomes, start=0):
    """Rows of mirrored pairs: ``outcomes`` (winner with the agent as
    Technocrat, winner with it as Ziegler) a pair, the same seed for both."""
    rows = []
    for i, (won_t, won_z) in enumerate(outcomes, start):
        for t, z, winner in ((agent, opponent, won_t), (opponent, agent, won_z)):
            rows.append(
                {"key": f"{t}|{z}|{i}", "pairing": f"{agent}:{opponent}", "technocrat": t, "ziegler": z,
                 "winner": winner, "index": i, "seed": 7000 + i, "scenario": "open", "rules": {},
                 "max_turns": 200, "wall_s": 0.5}
            )  # fmt: skip
    return rows


def _protocol(**changes):
    return {"scenario": "open", "rules": {}, "max_turns": 200, "seed": 0, "precision": 0.05, "step": 50,
            "games": 1000, "seat": None, "minutes": None, **changes}  # fmt: skip


def test_the_stopping_rule_and_the_card_count_pairs_with_wilson_beside():
    """Each seat's Technocrat wins (pair score 1, the seat decides): 40 pairs
    give a pairs' interval within +-0.05 while the games' Wilson interval
    is about +-0.11.  The card's score and 95% CI are the pairs'; the Wilson
    interval stands beside them, each seat keeps its own Wilson interval,
    and the saving is Wilson n = games / ratio."""
    from hotspot.arena.evaluate import evaluation_card, stopping_rule

    rows = _pair_rows("me", "scripted", [("technocrat", "technocrat")] * 36 + [("technocrat", "ziegler")] * 4)
    summary = pair_summary(rows, "me", "scripted")
    lo, hi = wilson_interval(44, 80)
    assert half_width(summary) <= 0.05 < (hi - lo) / 2
    assert stopping_rule("me", None, 0.05)("scripted", rows)
    as_z = [r for r in rows if r["ziegler"] == "me"]  # one seat: its Wilson interval, 4 wins in 40: +-0.1
    assert not stopping_rule("me", "ziegler", 0.05)("scripted", as_z) and stopping_rule("me", "ziegler", 0.11)(
        "scripted", as_z
    )
    card = evaluation_card("me", rows, ["scripted"], {"scripted": "precision"}, load_reference(), _protocol())
    (entry,) = card["opponents"]
    assert (entry["score"], entry["ci_low"], entry["ci_high"]) == (
        summary["score"],
        summary["ci_low"],
        summary["ci_high"],
    )
    assert (entry["wilson_low"], entry["wilson_high"]) == pytest.approx((lo, hi))
    assert entry["pentanomial"] == [0, 0, 36, 0, 4] and card["pairs"] == 40
    assert entry["as_technocrat"]["score"] == 1.0
    assert (entry["as_ziegler"]["ci_low"], entry["as_ziegler"]["ci_high"]) == pytest.approx(wilson_interval(4, 40))
    assert entry["wilson_games"] == pytest.approx(80 / entry["games_ratio"]) and entry["games_ratio"] < 0.3


def _big_card(**protocol):
    """A card of 1000 pairs a side against every reference agent, with mixed
    results (the widest columns), for a long agent spec."""
    from hotspot.arena.evaluate import evaluation_card

    agent = "mybots:Greedy(depth=3,model=/a/long/path/to/models/technocrat_and_ziegler_policy_v12.zip,temperature=0.25)"
    kinds = [("technocrat", "ziegler"), ("technocrat", "technocrat"), ("ziegler", "ziegler"), (None, "ziegler"),
             ("ziegler", "technocrat"), (None, None)]  # fmt: skip
    rows = []
    for opponent in REFERENCE_LADDER:
        rows += _pair_rows(agent, opponent, [kinds[i % len(kinds)] for i in range(1000)])
    stopped = {o: "games" for o in REFERENCE_LADDER[:3]}
    return evaluation_card(agent, rows, list(REFERENCE_LADDER), stopped, load_reference(), _protocol(**protocol))


def test_the_printed_card_fits_80_columns_and_says_the_references_uncertainty():
    """Every line of the printed card is at most 80 columns (the default
    ladder, 1000 pairs a side, a long agent spec wrapped); it names each
    opponent's pentanomial and the reference ladder's published intervals,
    and says that comparing two agents adds both intervals."""
    from hotspot.arena.evaluate import card_text, full_table

    card = _big_card()
    card.update({"partial": True, "partial_reason": "the time budget (--minutes 30) was spent", "remaining": 4000})
    text = card_text(card)
    assert max(len(line) for line in text.splitlines()) <= 80, max(text.splitlines(), key=len)
    assert text.splitlines()[0].startswith("PARTIAL card: the time budget (--minutes 30) was spent")
    assert "166 0 500 167 167   2000      2701   0.74" in text  # pentanomial (0, 1/2, 1, 3/2, 2 points), games, ...
    flat = " ".join(text.split())
    assert "Reference ladder (overall, 95%): random -1674 (< -342), scripted 1000 [986, 1012]," in flat
    assert "comparing two evaluated agents adds both agents' intervals" in flat
    assert "Not finished: at most 4000 game(s) left (each opponent stops when its interval is within +-0.05)" in flat
    wide = full_table(card)
    assert "Wilson 95% CI" in wide and "as Technocrat" in wide and max(len(x) for x in wide.splitlines()) > 80


def test_a_time_budget_leaves_a_partial_card_and_a_rerun_goes_on(tmp_path, reference, monkeypatch):
    """``minutes``: once the budget is spent no game is handed out (the
    clock is the runner's ``past``, here spent after 4 games); the card of
    what was played says PARTIAL (card.txt's first line, card.json, the
    plot's title) and counts what is left to the end, the cap of every
    unfinished opponent (12 - 4 games), not to the next look (2).  The same
    call again resumes and finishes."""
    from hotspot.arena import runner
    from hotspot.arena.evaluate import card_title

    out = tmp_path / "ev"
    games_file = out / "games.jsonl"

    def past(deadline):
        return deadline is not None and games_file.exists() and len(games_file.read_text().splitlines()) >= 4

    monkeypatch.setattr(runner, "past", past)
    kwargs = dict(opponents=["scripted"], games=6, step=3, ratings=reference, out=out, workers=1, chunk=1)
    card = run_evaluate("random", minutes=5, progress=False, **kwargs)
    assert card["games"] == 4 and card["partial"] and card["remaining"] == 8
    assert card["partial_reason"] == "the time budget (--minutes 5) was spent"
    text = (out / "card.txt").read_text()
    assert text.startswith("PARTIAL card: the time budget (--minutes 5) was spent")
    assert "at most 8 game(s) left (each opponent stops when its interval is within +-0.05)" in " ".join(text.split())
    saved = json.loads((out / "card.json").read_text())
    assert saved["partial"] is True and saved["remaining"] == 8 and saved["opponents"][0]["stopped"] == "not finished"
    assert card_title(card).startswith("PARTIAL (the time budget") and card["plot"].endswith("card.png")
    again = run_evaluate("random", progress=False, plot=False, **kwargs)
    assert again["played_now"] == 8 and again["games"] == 12 and not again["partial"] and again["remaining"] == 0
    assert not (out / "card.txt").read_text().startswith("PARTIAL")


def test_a_pool_hands_out_no_game_after_the_deadline(tmp_path, monkeypatch):
    """On a pool of 2 workers, tasks are handed out a few at a time and none
    once the deadline has passed (here: once 2 games are in the file): the
    run stops with most of its 12 games left, all its rows kept, and a
    rerun plays exactly the rest."""
    from hotspot.arena import runner
    from hotspot.arena.tournament import plan_arena

    games_file = tmp_path / "g" / "games.jsonl"

    def past(deadline):
        return deadline is not None and games_file.exists() and len(games_file.read_text().splitlines()) >= 2

    monkeypatch.setattr(runner, "past", past)
    specs = plan_arena([("scripted", "random")], 6, scenario="open")
    first = runner.run_games(specs, tmp_path / "g", workers=2, chunk=1, progress=False, deadline=1.0)
    assert first.out_of_time and 2 <= first.played <= 5 and first.remaining == 12 - first.played
    assert len(games_file.read_text().splitlines()) == first.played
    rest = runner.run_games(specs, tmp_path / "g", workers=2, chunk=1, progress=False)
    assert rest.played == 12 - first.played and len(rest.rows) == 12 and not rest.out_of_time


def _stopping_module(tmp_path, name):
    """A module agent whose fourth game is interrupted (as by Ctrl-C): it
    raises KeyboardInterrupt when made for its fourth game (a game makes it
    with no seed; the check before the run with seed 0)."""
    (tmp_path / f"{name}.py").write_text(
        "import numpy as np\nfrom hotspot.agents import Agent\n\nMADE = []\n\n"
        "class Stop(Agent):\n"
        "    def __init__(self, seed=None):\n"
        "        if seed is None:\n"
        "            MADE.append(1)\n"
        "            if len(MADE) == 4:\n"
        "                raise KeyboardInterrupt\n\n"
        "    def act(self, info_state, mask, side):\n"
        "        return int(np.flatnonzero(mask)[-1])\n",
        encoding="utf-8",
    )


def test_ctrl_c_keeps_the_games_and_writes_a_partial_card(tmp_path, reference, monkeypatch):
    """Ctrl-C during the games: the 3 games finished are kept in games.jsonl
    and a PARTIAL card of them is written before EvaluationInterrupted (a
    KeyboardInterrupt) leaves run_evaluate."""
    from hotspot.arena.evaluate import EvaluationInterrupted

    _stopping_module(tmp_path, "stopbots_api")
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "ev"
    with pytest.raises(EvaluationInterrupted) as stop:
        run_evaluate("stopbots_api:Stop", opponents=["random"], games=4, step=2, ratings=reference, out=out,
                     workers=1, chunk=1, progress=False, plot=False)  # fmt: skip
    assert isinstance(stop.value, KeyboardInterrupt)
    assert len((out / "games.jsonl").read_text().splitlines()) == 3
    card = json.loads((out / "card.json").read_text())
    assert card["partial"] is True and card["partial_reason"] == "interrupted (Ctrl-C)" and card["games"] == 3
    assert card["remaining"] == 8 - 3 and stop.value.card["games"] == 3
    assert (out / "card.txt").read_text().startswith("PARTIAL card: interrupted (Ctrl-C)")


def test_ctrl_c_on_the_command_line_is_exit_130_without_a_traceback(tmp_path, reference):
    _stopping_module(tmp_path, "stopbots")
    done = subprocess.run(
        [sys.executable, "-m", "hotspot", "evaluate", "stopbots:Stop", "--opponents", "random", "--games", "4",
         "--step", "2", "--ratings", str(reference), "--workers", "1", "--chunk", "1", "--no-progress",
         "--no-plot", "--out", "ev"],
        cwd=tmp_path, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "interrupted; the 3 finished games are in ev/games.jsonl" in done.stderr
    assert done.stdout.startswith("PARTIAL card: interrupted (Ctrl-C)")


def test_one_seat_plays_and_rates_that_seat_only(tmp_path, reference):
    """``seat="technocrat"``: the agent plays the Technocrat seat only (no
    pairs: the seat's Wilson interval stops it), is rated as Technocrat
    alone, and its run.json records the seat: the same folder for the other
    seat, or both, is refused, and nothing changes."""
    out = tmp_path / "ev"
    kwargs = dict(opponents=["scripted"], games=4, step=2, ratings=reference, out=out, workers=1, progress=False)
    card = run_evaluate("random", seat="technocrat", **kwargs)
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(rows) == 4 and all(r["technocrat"] == "random" for r in rows)
    (entry,) = card["opponents"]
    assert card["seat"] == "technocrat" and entry["pairs"] is None and entry["as_ziegler"]["games"] == 0
    assert (entry["ci_low"], entry["ci_high"]) == pytest.approx(wilson_interval(entry["score"] * 4, 4))
    assert set(card["ratings"]) == {"technocrat"} and "as Technocrat only" in card["text"]
    assert json.loads((out / "run.json").read_text())["config"]["seat"] == "technocrat"
    before = (out / "games.jsonl").read_text()
    for other in ("ziegler", None):
        with pytest.raises(ArenaError, match="seat"):
            run_evaluate("random", seat=other, **kwargs)
    assert (out / "games.jsonl").read_text() == before


def test_a_one_seat_model_needs_no_other_seat():
    """A model that plays the Technocrat seat only is accepted for a
    Technocrat evaluation and refused, in one line, for both seats."""
    from hotspot.agents import Agent
    from hotspot.agents.registry import SpecError, check_agent
    from hotspot.core.rules_data import TECHNOCRAT

    class OnlyT(Agent):
        seats = (TECHNOCRAT,)

        def act(self, info_state, mask, side):
            return 0

    module = type(sys)("onlyt_bots")
    module.OnlyT = OnlyT
    sys.modules["onlyt_bots"] = module
    try:
        assert check_agent("onlyt_bots:OnlyT", seats=(TECHNOCRAT,)) == "onlyt_bots:OnlyT"
        with pytest.raises(SpecError, match="cannot play the ziegler seat") as exc:
            check_agent("onlyt_bots:OnlyT")
        assert "\n" not in str(exc.value)
    finally:
        del sys.modules["onlyt_bots"]


def test_the_command_line_refuses_bad_minutes_and_seats_before_writing(tmp_path):
    for args, words in ((["--minutes", "0"], "--minutes"), (["--seat", "both"], "--seat")):
        done = subprocess.run(
            [sys.executable, "-m", "hotspot", "evaluate", "random", "--out", "never", *args],
            cwd=tmp_path, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 2 and words in done.stderr.splitlines()[-1] and "Traceback" not in done.stderr
        assert not (tmp_path / "never").exists()
