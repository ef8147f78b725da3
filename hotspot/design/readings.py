"""The game report's readings (``hotspot report``, :mod:`.game_report`):
what the games of a set-up say, computed from their rows and cells, no game
played here.

* the forces' variants (3.2, 3.3; an infantry force by three squads, a full
  counter, 10.0), the seat score, skill depth, upsets, the turn a game is
  decided (the shipped learned value, :mod:`hotspot.agents.plan_value`), the
  dice's share of the outcome's variance;
* the paired difference of each set-up against the first (game by game over
  the same seeds);
* the verdicts: the sentences printed on the terminal and on the page.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np

from hotspot.arena.errors import ArenaError
from hotspot.arena.match import game_seed
from hotspot.arena.pairs import pair_summary
from hotspot.arena.stats import interval_text, wilson_interval
from hotspot.arena.tournament import points
from hotspot.core.limits import DEFAULT_MAX_TURNS
from hotspot.core.scenario import load_scenario

from .calibrate import apply_values, base_value
from .skill import Z95

#: the fog probes (R9.5b: each side in turn sees through the fog)
FOG_PROBES = ("fog-technocrat", "fog-ziegler")

#: a force changed by one counter: infantry forces are counted in squads, three to a full counter (10.0)
SQUADS_A_COUNTER = 3
DECIDED = 0.9  # the value above which a side counts as winning (the turn the game is decided)

# ------------------------------------------------------------------ the readings


def force_variants(scenario: str) -> list[dict]:
    """The set-up's forces one counter smaller and one larger: ``[{"force",
    "step", "label", "data"}]`` (a change the scenario loader
    refuses, or a force at 0 made smaller, is left out)."""
    data = load_scenario(scenario)
    out = []
    for side, forces in sorted((data.get("forces") or {}).items()):
        for key in sorted(forces):
            name = f"forces.{side}.{key}"
            base = base_value(data, name)
            step = SQUADS_A_COUNTER if key.endswith("squads") else 1
            for delta in (-step, step):
                if base + delta < 0:
                    continue
                try:
                    variant = apply_values(data, {name: base + delta})
                except ArenaError:
                    continue
                out.append({"force": name, "step": delta, "label": f"{side} {key} {delta:+d}", "data": variant})
    return out


def scores_by_cell(rows) -> dict:
    out: dict = {}
    for r in rows:
        out.setdefault((r["scenario"], r["technocrat"], r["ziegler"]), {})[int(r["index"])] = points(
            r, "technocrat", by="side"
        )
    return out


def seat_score(t_cell: dict, z_cell: dict) -> dict:
    """An agent's score over both seats from the cell where it is Technocrat
    (``t_cell``) and the one where it is Ziegler (``z_cell``): the mean of its
    two seat scores, with a 95% normal interval (each seat's binomial
    variance; conservative on mirrored seeds)."""
    a, b = t_cell["technocrat_win_rate"], 1.0 - z_cell["technocrat_win_rate"]
    va = a * (1 - a) / max(t_cell["games"], 1)
    vb = b * (1 - b) / max(z_cell["games"], 1)
    m, se = (a + b) / 2, math.sqrt(va + vb) / 2
    return {"score": m, "ci_low": m - Z95 * se, "ci_high": m + Z95 * se, "as_technocrat": a, "as_ziegler": b}


def skill_depth(cells: list[dict], agents: list[str], rows=None) -> dict:
    """The rungs of the ladder ``agents``, ordered by measured strength (each
    agent's mean score over both seats against every agent), and for each
    rung whether the stronger agent beats the weaker clearly (its score over
    both seats against it has an interval above 0.5).  With the grid's
    ``rows`` (mirrored seeds) a rung's interval is its game pairs'
    (:mod:`.pairs`; ``"interval": "pairs"``), else the two seats' binomial
    intervals combined (``"seats"``)."""
    by = {(c["technocrat"], c["ziegler"]): c for c in cells}
    strength = {}
    for a in agents:
        vals = [by[(a, b)]["technocrat_win_rate"] for b in agents if by.get((a, b), {}).get("games")]
        vals += [1 - by[(b, a)]["technocrat_win_rate"] for b in agents if by.get((b, a), {}).get("games")]
        strength[a] = sum(vals) / len(vals) if vals else math.nan
    order = sorted(agents, key=lambda a: (strength[a], a))
    rungs = []
    for weak, strong in zip(order, order[1:]):
        t, z = by.get((strong, weak)), by.get((weak, strong))
        if not t or not z or not t["games"] or not z["games"]:
            continue
        s = dict(seat_score(t, z), interval="seats")
        paired = pair_summary(rows, strong, weak) if rows is not None else {"pairs": 0}
        if paired["pairs"]:
            s.update(ci_low=paired["ci_low"], ci_high=paired["ci_high"], pairs=paired["pairs"], interval="pairs")
        rungs.append({"weaker": weak, "stronger": strong, **s, "clear": s["ci_low"] > 0.5})
    return {
        "order": order,
        "strength": strength,
        "rungs": rungs,
        "depth": sum(r["clear"] for r in rungs),
        "of": len(rungs),
    }


def upsets(cells: list[dict], order: list[str], rows) -> list[dict]:
    """Chance against skill: for each pair of different agents, how often the
    weaker one (by ``order``, weakest first) won outright, in each seat."""
    rank = {a: i for i, a in enumerate(order)}
    wins: dict = {}
    for r in rows:
        wins.setdefault((r["technocrat"], r["ziegler"]), [0, 0, 0])
        w = wins[(r["technocrat"], r["ziegler"])]
        w[0] += 1
        w[1] += r["winner"] == "technocrat"
        w[2] += r["winner"] == "ziegler"
    out = []
    for (t, z), (n, tw, zw) in sorted(wins.items()):
        if t == z or t not in rank or z not in rank:
            continue
        weaker_is_t = rank[t] < rank[z]
        k = tw if weaker_is_t else zw
        lo, hi = wilson_interval(k, n)
        out.append(
            {
                "technocrat": t,
                "ziegler": z,
                "weaker": t if weaker_is_t else z,
                "weaker_seat": "technocrat" if weaker_is_t else "ziegler",
                "games": n,
                "weaker_wins": k,
                "rate": k / n,
                "ci_low": lo,
                "ci_high": hi,
            }
        )
    return out


def decided_turns(rows, nets=None) -> list[dict]:
    """For each game with a winner: the turn from which the learned value
    (``plan_value``, the shipped networks unless ``nets``) puts the winner
    above :data:`DECIDED` at the start of every half-turn to the end, and
    the game's last turn.  Rows whose actions do not replay are left out."""
    from hotspot.agents.plan_value import game_positions, predict_plan_value, shipped_plan_value
    from hotspot.arena.folder import RowError, record_from_row
    from hotspot.core.game import Game

    if nets is None:
        nets = shipped_plan_value()
    out = []
    for row in rows:
        if row["winner"] not in ("technocrat", "ziegler"):
            continue
        try:
            rec = record_from_row(row)
        except (RowError, ValueError):
            continue
        actions = np.array(rec.actions, dtype=np.int64)
        rec.actions = []
        try:
            data = game_positions([(row["key"], Game.from_record(rec).state, actions, 0.0)])
        except ValueError:
            continue
        if not len(data["half"]):
            continue
        p = (predict_plan_value(nets, data["X"], data["half"]) + 1.0) / 2.0  # the Technocrat's expected score
        if row["winner"] == "ziegler":
            p = 1.0 - p
        turns = np.rint(data["X"][:, 13] * 50).astype(int)  # position feature 13: turn / 50
        below = np.nonzero(p < DECIDED)[0]
        first = int(below[-1]) + 1 if len(below) else 0
        decided = int(turns[first]) if first < len(turns) else int(row["turns"])
        out.append(
            {
                "key": row["key"],
                "technocrat": row["technocrat"],
                "ziegler": row["ziegler"],
                "winner": row["winner"],
                "decided_turn": decided,
                "turns": int(row["turns"]),
            }
        )
    return out


def median(xs):
    return float(np.median(xs)) if len(xs) else None


def dice_spread(
    scenario: str, deployments: int, dice_seeds: int, *, seed: int = 0, max_turns=DEFAULT_MAX_TURNS
) -> dict:
    """The same deployments under other dice: ``deployments`` set-ups played
    by the scripted players (3.2, 3.3, D21; game ``i``'s set-up on the seed
    ``game_seed(seed, i)``), each played out ``dice_seeds`` times with the
    dice reseeded after the set-up (``dice.seed_state``; the players' own
    generators unchanged).  Returns the scores (a draw half a point) and the
    share of their variance within a deployment."""
    from hotspot.agents.base import POLICY_SCRIPTED
    from hotspot.agents.policies import play_games, policy_action
    from hotspot.core import init
    from hotspot.core.actions import NUM_ACTIONS, apply_action, current_player
    from hotspot.core.dice import seed_state
    from hotspot.core.events import EV_WIDTH
    from hotspot.core.setup import is_setup_phase

    seeds = [game_seed(seed, i) for i in range(deployments)]
    states = init(load_scenario(scenario), seeds=seeds, max_turns=max_turns)
    rng = np.array([[(s * 2 + 1) % 2**64, (s * 2 + 2) % 2**64] for s in seeds], dtype=np.uint64)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev, ev_n = np.zeros((0, EV_WIDTH), dtype=np.int32), np.zeros(1, dtype=np.int32)
    for i in range(deployments):
        s = states[i]
        while is_setup_phase(int(s["phase"])):
            a = int(policy_action(POLICY_SCRIPTED, s, mask, rng[i], current_player(s)))
            if a < 0:
                break
            apply_action(s, a, ev, ev_n)
    batch = np.repeat(states, dice_seeds)
    prng = np.repeat(rng, dice_seeds, axis=0)
    for j in range(len(batch)):
        seed_state(batch[j : j + 1], game_seed(seed + 1, j))
    counts = np.zeros(len(batch), dtype=np.int64)
    play_games(batch, POLICY_SCRIPTED, POLICY_SCRIPTED, prng, 10**7, counts)
    result = batch["result"].astype(int)
    scores = np.where(result == 1, 1.0, np.where(result == 2, 0.0, 0.5)).reshape(deployments, dice_seeds)
    total = float(scores.var())
    within = float(scores.var(axis=1).mean())
    means = scores.mean(axis=1)
    return {
        "deployments": deployments,
        "dice_seeds": dice_seeds,
        "seed": seed,
        "score": float(scores.mean()),
        "deployment_scores": [float(x) for x in means],
        "variance": total,
        "within_deployment_variance": within,
        "dice_share": within / total if total > 0 else None,
        "scores": scores.tolist(),
    }


# ------------------------------------------------------------------ the paired difference between set-ups

#: from this many per-seed differences on, the paired interval is normal; below it, Student's t
NORMAL_FROM = 30


def mean_interval(diffs, confidence: float = 0.95) -> dict:
    """The mean of ``diffs`` (per-seed differences) with its interval from their
    sample variance: ``n``, ``delta``, ``sd``, ``ci_low``, ``ci_high`` and
    ``interval`` (``"normal"`` from :data:`NORMAL_FROM` values on, ``"t"``,
    Student's t with n - 1 degrees of freedom, below; ``None`` with fewer than
    two values, which have no interval)."""
    diffs = [float(x) for x in diffs]
    n = len(diffs)
    out: dict[str, Any] = {
        "n": n,
        "delta": math.fsum(diffs) / n if n else None,
        "sd": None,
        "ci_low": None,
        "ci_high": None,
    }
    out["interval"] = None
    if n < 2:
        return out
    m = out["delta"]
    sd = math.sqrt(math.fsum((x - m) ** 2 for x in diffs) / (n - 1))
    if n >= NORMAL_FROM:
        q, kind = NormalDist().inv_cdf(0.5 + confidence / 2), "normal"
    else:
        from scipy.stats import t as student_t

        q, kind = float(student_t.ppf(0.5 + confidence / 2, n - 1)), "t"
    half = q * sd / math.sqrt(n)
    out.update(sd=sd, ci_low=m - half, ci_high=m + half, interval=kind)
    return out


def _by_game(rows) -> dict:
    return {(r["technocrat"], r["ziegler"], int(r["index"])): r for r in rows}


def paired_difference(base_rows, rows, base: str = "the first set-up") -> dict:
    """The Technocrat's score on ``rows``' set-up minus on ``base_rows``' (the
    grids' games), paired game by game: game ``i`` of a cell (an agent pair)
    in both is played on the same seed, so each such game gives one per-seed
    difference.  ``cells``: each cell in both, its games' base and score and
    :func:`mean_interval` of its differences; ``overall``: the same pooled
    over every cell's differences, with ``seeds`` and ``cells``.  Games that
    cannot be paired (no agent pair in common, game ``i`` on another seed, no
    game index in common): ``paired`` is False and ``why`` says so."""
    a, b = _by_game(base_rows), _by_game(rows)
    out = {"against": base, "paired": False, "why": None, "cells": [], "overall": mean_interval([])}
    pairs = sorted({k[:2] for k in a} & {k[:2] for k in b})
    if not pairs:
        out["why"] = f"no agent pair played on both it and {base} (other agents): its games cannot be paired"
        return out
    cells, pooled, base_pooled = [], [], []
    seeds: set[int] = set()
    for t, z in pairs:
        keys = sorted(k for k in b if k[:2] == (t, z) and k in a)
        for k in keys:
            if int(a[k]["seed"]) != int(b[k]["seed"]):
                out["why"] = (
                    f"game {k[2]} of {t}:{z} has seed {b[k]['seed']} here but {a[k]['seed']} in {base} "
                    "(another --seed?): its games cannot be paired"
                )
                return out
        if not keys:
            continue
        base_pts = [points(a[k], "technocrat", by="side") for k in keys]
        pts = [points(b[k], "technocrat", by="side") for k in keys]
        diffs = [p - q for p, q in zip(pts, base_pts)]
        cells.append({"technocrat": t, "ziegler": z, "base": float(np.mean(base_pts)), "score": float(np.mean(pts))})
        cells[-1].update(mean_interval(diffs))
        pooled += diffs
        base_pooled += base_pts
        seeds.update(int(b[k]["seed"]) for k in keys)
    if not cells:
        out["why"] = f"no game index played on both it and {base}: its games cannot be paired"
        return out
    overall = {"base": float(np.mean(base_pooled)), "score": float(np.mean(base_pooled) + np.mean(pooled))}
    overall.update(mean_interval(pooled))
    out.update(paired=True, cells=cells, overall={**overall, "seeds": len(seeds), "cells": len(cells)})
    return out


def pair_with_first(setups: list[dict], grid_rows: list) -> None:
    """Set each set-up's ``paired_difference``: against the first set-up's
    grid games (``grid_rows[0]``) for every later one, ``None`` for the first."""
    for i, (s, rows) in enumerate(zip(setups, grid_rows, strict=True)):
        s["paired_difference"] = paired_difference(grid_rows[0], rows, setups[0]["scenario"]) if i else None


def paired_text(s: dict) -> str | None:
    """The set-up's paired difference against the first in one sentence
    (``None`` for the first set-up)."""
    pd = s.get("paired_difference")
    if not pd:
        return None
    head = f"{s['scenario']} - {pd['against']}:"
    if not pd["paired"]:
        return f"{head} not paired: {pd['why']}."
    o = pd["overall"]
    over = f"paired over {o['n']} games: {o['seeds']} seeds x {o['cells']} cells"
    if o["interval"] is None:
        return f"{head} Technocrat score {o['delta']:+.3f} ({over}; one game, no interval)"
    return (
        f"{head} Technocrat score {o['delta']:+.3f} {interval_text(o['ci_low'], o['ci_high'], '+.3f')} "
        f"({over}; {o['interval']} interval)"
    )


# ------------------------------------------------------------------ the verdicts


def upset_rate(s: dict):
    games = sum(u["games"] for u in s["upsets"])
    return sum(u["weaker_wins"] for u in s["upsets"]) / games if games else None


def draw_rate(s: dict):
    games = sum(c["games"] for c in s["cells"])
    return sum(c["draws"] for c in s["cells"]) / games if games else None


def resolved_forces(s: dict) -> list[dict]:
    """The force changes whose paired interval lies off 0."""
    return [
        f
        for f in s.get("forces") or []
        if f["games"] and f["ci_low"] is not None and (f["ci_low"] > 0 or f["ci_high"] < 0)
    ]


def _seat_verdict(s: dict) -> str | None:
    strongest = s["depth"]["order"][-1]
    d = next((x for x in s["diagonal"] if x["agent"] == strongest), None)
    if d is None or not d["games"]:
        return None
    if d["ci_low"] > 0.5:
        verdict = "the Technocrat's seat is favoured"
    elif d["ci_high"] < 0.5:
        verdict = "the Ziegler's seat is favoured"
    else:
        verdict = "no seat advantage resolved"
    return (
        f"{s['scenario']}: the Technocrat scores {d['technocrat_win_rate']:.2f} {interval_text(d['ci_low'], d['ci_high'], '.2f')}"
        f" at the strong pair ({strongest} in both seats, {d['games']} games): {verdict}."
    )


def setup_verdicts(s: dict, cfg: dict) -> list[str]:
    """The set-up's findings in a few plain sentences: the seat balance at the
    strong pair (the strongest agent against itself), skill depth and chance,
    the dice and decisiveness, the fog and the forces that matter."""
    name, out = s["scenario"], []
    seat = _seat_verdict(s)
    if seat:
        out.append(seat)
    d, upset = s["depth"], upset_rate(s)
    skill = f"{name}: skill depth {d['depth']} of {d['of']} rungs clear ({' < '.join(d['order'])})"
    if s.get("elo_span") is not None:
        skill += f", Elo span {s['elo_span']:.0f}"
    out.append(skill + (f"; the weaker agent still wins {upset:.0%} of its games." if upset is not None else "."))
    facts = []
    share = (s.get("dice") or {}).get("dice_share")
    if share is not None:
        facts.append(f"the dice make {share:.0%} of the outcome's variance")
    if draw_rate(s) is not None:
        facts.append(f"{draw_rate(s):.0%} of the grid's games are draws at the turn limit")
    dec = next((x for x in s["decided"] if x["agent"] == d["order"][-1]), None)
    if dec and dec["median_decided_turn"] is not None:
        facts.append(
            f"the strong pair's games are decided at turn {dec['median_decided_turn']:.0f} of "
            f"{dec['median_turns']:.0f} (medians)"
        )
    if facts:
        out.append(f"{name}: " + "; ".join(facts) + ".")
    fog = [
        f"{x['delta']:+.2f} {interval_text(x['ci_low'], x['ci_high'], '+.2f')} when the {x['probe'][4:].capitalize()} sees"
        for x in s.get("fog") or []
        if x.get("delta") is not None and x["probe"] in FOG_PROBES
    ]
    forces = ", ".join(f"{f['label']} ({f['delta']:+.2f})" for f in resolved_forces(s))
    at = f"{name}: at {cfg['probe_pair']} ({cfg['probe_games']} games a change)"
    parts = [f"lifting the fog changes the Technocrat's score by {' and '.join(fog)}"] if fog else []
    if s.get("forces"):
        parts.append(f"forces that matter: {forces}" if forces else "no force change is resolved")
    if parts:
        out.append(f"{at}, " + "; ".join(parts) + ".")
    return out


def verdicts(report: dict) -> list[str]:
    """Every set-up's :func:`setup_verdicts`, then each later set-up's
    :func:`paired_text` against the first: the sentences the page and the
    terminal share."""
    out = [v for s in report["setups"] for v in setup_verdicts(s, report["config"])]
    return out + [t for t in (paired_text(s) for s in report["setups"]) if t]


def terminal_text(report: dict, width: int = 100) -> str:
    """What ``hotspot report`` prints: the trust sentence and the verdicts,
    plain text, each line at most ``width`` columns (a sentence goes on
    indented)."""
    import textwrap

    lines = [report["trust"], *verdicts(report)]
    return "\n".join(
        textwrap.fill(x, width, subsequent_indent="  ", break_on_hyphens=False, break_long_words=True) for x in lines
    )


__all__ = [
    "FOG_PROBES",
    "decided_turns",
    "dice_spread",
    "force_variants",
    "mean_interval",
    "pair_with_first",
    "paired_difference",
    "paired_text",
    "seat_score",
    "setup_verdicts",
    "skill_depth",
    "terminal_text",
    "upsets",
    "verdicts",
]
