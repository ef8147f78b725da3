"""Deployment search (3.2, 3.3, D21): improve one side's set-up against a fixed
opponent by batch simulation.  ``hotspot balance --search-deployment SIDE`` is
:func:`search_deployment`.

Method: *successive halving* over sampled candidates.

1. Candidates.  ``candidates`` deployments of ``side`` are drawn by playing that
   side's set-up phase with set-up policies (by default the scripted plan with
   different seeds, plus uniformly random legal set-ups): each candidate is a
   scenario in which ``side``'s deployment is preset and the opponent's part is
   still left to the opponent's policy (the Ziegler searches over ``open``: the
   Technocrat then deploys in every game, seeing the candidate; the Technocrat
   searches against a fixed Ziegler deployment, by default the one of
   ``standard``).
2. Rounds.  Every surviving candidate plays ``games`` games against the
   opponent (the same game seeds for every candidate: common random numbers);
   its score is ``side``'s points per game (a win 1, a game truncated by
   ``max_turns`` one half, D19); the better half survives and the games per
   candidate double, until ``finalists`` remain.
3. Final.  The finalists play ``final_games`` fresh games each (seeds no
   round used, so that the selection does not bias the estimate); their
   scores get 95% Wilson intervals (draws count half).  The best is written as a scenario
   file whose description states its measured score, with ``search.json``
   holding every round.

Every game goes through the arena's runner (``games.jsonl`` per round, seeds
kept, resumable).  The search's settings are recorded in ``run.json``
(:func:`search_run_config`) before a candidate is written: a rerun in the same
folder with other settings is refused, naming them; a damaged games.jsonl
line of a round is refused unless ``drop_damaged`` (``hotspot.arena.folder``).
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from hotspot.arena import folder
from hotspot.arena.gamerow import total_points
from hotspot.arena.match import ArenaError, GameSpec, canonical_rules, game_seed
from hotspot.arena.options import RunOptions
from hotspot.arena.runner import check_count, run_games, spec_max_turns
from hotspot.arena.stats import wilson_interval
from hotspot.core.rules_data import RulesOptions

SIDES = ("ziegler", "technocrat")
FINAL_SEED_OFFSET = 1_000_000  # game indices of the final round (the rounds use 0, 1, ...)


def _side_part(side: str) -> tuple[str, ...]:
    return ("ziegler_crustals", "ziegler_units") if side == "ziegler" else ("technocrat_platforms", "technocrat_units")


def base_scenario(side: str, base=None) -> dict:
    """The scenario candidates start from: ``side``'s whole deployment left to
    the players, the opponent's as ``base`` has it (Ziegler: ``open``, where the
    Technocrat deploys after him; Technocrat: ``standard``'s Ziegler set-up)."""
    from hotspot.core.scenario import load_scenario, validate_scenario

    if base is None:
        base = "open" if side == "ziegler" else "standard"
    data = dict(load_scenario(base) if not isinstance(base, dict) else validate_scenario(base))
    if side == "technocrat":
        data["pieces"] = [p for p in data.get("pieces", []) if p["kind"] != "platform"]
        data["units"] = [u for u in data.get("units", []) if u["side"] != "technocrat"]
        deploy = [p for p in data.get("deploy", []) if p.startswith("ziegler")]
        data["deploy"] = deploy + list(_side_part("technocrat"))
        if any(p.startswith("ziegler") for p in deploy):
            raise ArenaError(
                "the Technocrat's deployment is searched against a fixed Ziegler deployment; "
                "the base scenario leaves the Ziegler set-up open"
            )
    else:
        data["pieces"] = [p for p in data.get("pieces", []) if p["kind"] == "platform"]
        data["units"] = [u for u in data.get("units", []) if u["side"] == "technocrat"]
        data["deploy"] = sorted(set(data.get("deploy", [])) | set(_side_part("ziegler")))
    data["version"] = 2
    return validate_scenario(data)


def sample_deployment(base: dict, side: str, agent_name: str, seed: int) -> dict:
    """Play ``side``'s set-up in ``base`` with agent ``agent_name`` (seeded) and
    return the scenario with that deployment preset (the opponent's part still
    left to the players where ``base`` leaves it)."""
    from hotspot.agents.registry import make_agent
    from hotspot.core import Game
    from hotspot.core.rules_data import PHASE_T_SETUP, PHASE_Z_SETUP, SIDE_NAMES
    from hotspot.core.scenario import state_to_scenario

    phase = PHASE_Z_SETUP if side == "ziegler" else PHASE_T_SETUP
    game = Game(base, seed=seed)
    agent = make_agent(agent_name, seed=seed)
    side_i = SIDE_NAMES.index(side)
    while game.phase == phase:
        info = game.observation(side_i)
        action = int(agent.act(info, game.legal_action_mask(), side_i))
        game.apply_action(action)
    data = state_to_scenario(game.state, name=f"{side}-deployment", description="")
    data["description"] = (
        f"{side} deployment drawn by the {agent_name} set-up policy, seed {seed} (hotspot deployment search)"
    )
    return data


def _score(rows, side: str) -> tuple[int, int, int]:
    wins = sum(1 for r in rows if r.get("winner") == side)
    draws = sum(1 for r in rows if r.get("winner") not in SIDES)
    return wins, draws, len(rows)


def _points(wins: int, draws: int, n: int) -> float:
    return total_points(wins, draws) / n if n else float("nan")


def search_run_config(side, opponent, agent, base, base_data, counts: dict, seed, rules_json, max_turns) -> dict:
    """What decides a search's candidates and games, recorded in its folder's
    run.json (a rerun with any other value is refused): the side, both agents,
    the base scenario (its name and the digest of its content), every count,
    the master seed, the rules options and ``max_turns``."""
    return {
        "kind": "deployment-search",
        "side": side,
        "opponent": opponent,
        "agent": agent,
        "base": base if base is None or isinstance(base, str) else "(a scenario dict)",
        "base_sha256": folder.content_digest(base_data),
        **counts,
        "seed": int(seed),
        "rules": json.loads(rules_json),
        "max_turns": max_turns,
    }


def _sample_pool(base_data, side, agent, candidates, random_candidates, seed, out) -> list[dict[str, Any]]:
    """The ``candidates`` deployments of ``side`` (the first ``random_candidates``
    uniformly random, the rest from ``agent``'s set-up), each saved to
    ``out/candidates/cNNN.json``, with their scores at zero."""
    from hotspot.core.scenario import save_scenario

    pool: list[dict[str, Any]] = []
    for i in range(candidates):
        name = "random" if i < random_candidates else agent
        cand_seed = int(game_seed(seed, 10_000 + i))
        data = sample_deployment(base_data, side, name, cand_seed)
        path = out / "candidates" / f"c{i:03d}.json"
        save_scenario(data, path)
        pool.append({"id": i, "policy": name, "seed": cand_seed, "path": str(path), "wins": 0, "draws": 0, "games": 0})
    return pool


def _play_round(alive, r: int, n_games: int, final: bool, setting: tuple, out, opts) -> dict:
    """Round ``r``: ``n_games`` games of every candidate of ``alive`` (the
    final's on fresh seeds), their scores into the candidates, ``alive``
    sorted best first; the round's record."""
    technocrat, ziegler, seed, rules_json, max_turns, side = setting
    offset = FINAL_SEED_OFFSET if final else 0  # the final's games are fresh: no selection bias
    specs = [
        GameSpec(
            pairing=f"c{c['id']:03d}",
            technocrat=technocrat,
            ziegler=ziegler,
            index=j,
            seed=game_seed(seed, offset + j),
            scenario=c["path"],
            rules=rules_json,
            max_turns=max_turns,
        )
        for c in alive
        for j in range(n_games)
    ]
    result = run_games(
        specs,
        out / f"round{r}",
        options=dataclasses.replace(opts, out=str(out / f"round{r}")),
        desc=f"round {r}: {len(alive)} candidates x {n_games}",
    )
    by_pairing: dict = {}
    for row in result.rows:
        by_pairing.setdefault(row["pairing"], []).append(row)
    for c in alive:
        wins, draws, n = _score(by_pairing.get(f"c{c['id']:03d}", []), side)
        c.update(wins=wins, draws=draws, games=n, score=_points(wins, draws, n))
    alive.sort(key=lambda c: (-c["score"], c["id"]))
    fields = ("id", "policy", "seed", "score", "wins", "draws", "games")
    return {"round": r, "games_per_candidate": n_games, "candidates": [{k: c[k] for k in fields} for c in alive]}


def _finalist(c: dict) -> dict:
    """A finalist's entry: its score and 95% Wilson interval."""
    low, high = wilson_interval(total_points(c["wins"], c["draws"]), c["games"])
    return {
        **{k: c[k] for k in ("id", "policy", "seed", "path", "score", "wins", "draws", "games")},
        "ci_low": low,
        "ci_high": high,
    }


def _write_best(best: dict, side: str, candidates: int, opponent: str, seed: int, out) -> None:
    """``out/best.json``: the best finalist's scenario, its measure in its description."""
    from hotspot.core.scenario import save_scenario

    best_data = json.loads(Path(best["path"]).read_text(encoding="utf-8"))
    best_data["name"] = f"best-{side}-deployment"
    best_data["description"] = (
        f"Best {side} deployment found by hotspot's deployment search (successive halving over "
        f"{candidates} sampled candidates) against {opponent} play: {side} score {best['score']:.3f} "
        f"[{best['ci_low']:.3f}, {best['ci_high']:.3f}] (95% Wilson; wins {best['wins']}, truncated "
        f"{best['draws']} counted half) over {best['games']} games, seed {seed}."
    )
    save_scenario(best_data, out / "best.json")


def search_deployment(
    side: str,
    *,
    opponent: str = "scripted",
    agent: str = "scripted",
    base=None,
    candidates: int = 16,
    random_candidates: int = 4,
    games: int = 50,
    finalists: int = 2,
    final_games: int = 1000,
    rules=None,
    options: RunOptions | None = None,
    **run_options,
) -> dict:
    """Search ``side``'s deployment (see the module docstring); returns the summary
    (also written to ``out/search.json``) and writes ``out/best.json``.  The
    run options (:class:`hotspot.arena.options.RunOptions`: ``options``, or
    its fields as keywords: ``seed``, ``out`` (default
    ``"deployment-search"``), ``workers``, ``backend``, ``max_turns``,
    ``progress``, ``drop_damaged``, ...) are checked before anything else."""
    opts = RunOptions.merge(options, run_options, out="deployment-search", where="search_deployment")
    seed = opts.seed
    if side not in SIDES:
        raise ArenaError(f"side must be one of {list(SIDES)}, got {side!r}")
    counts = {
        name: check_count(name, value, low)
        for name, value, low in (
            ("candidates", candidates, 2),
            ("games", games, 1),
            ("finalists", finalists, 1),
            ("final_games", final_games, 1),
            ("random_candidates", random_candidates, 0),
        )
    }
    if finalists > candidates:
        raise ArenaError(f"finalists ({finalists}) must not exceed candidates ({candidates})")
    max_turns = spec_max_turns(opts.max_turns)
    out = opts.folder
    base_data = base_scenario(side, base)
    rules_json = canonical_rules(rules or {})
    try:
        RulesOptions.from_dict(dict(rules or {}))
    except ValueError as exc:
        raise ArenaError(str(exc)) from None
    if rules:
        base_data = dict(base_data, rules=dict(base_data.get("rules") or {}, **dict(rules)))
    from hotspot.arena.tournament import canonical_agents

    opponent, agent = canonical_agents([opponent, agent])  # a typo must not become the folder's configuration
    config = search_run_config(side, opponent, agent, base, base_data, counts, seed, rules_json, max_turns)
    with folder.writer_lock(out):  # one writer a folder, for the whole run
        folder.check_run(out, config, [], {})  # before a candidate file is (re)written
        (out / "candidates").mkdir(parents=True, exist_ok=True)
        folder.write_run_config(out, config)
        pool = _sample_pool(base_data, side, agent, candidates, random_candidates, seed, out)
        technocrat, ziegler = (agent, opponent) if side == "technocrat" else (opponent, agent)
        rounds = []
        alive = list(pool)
        per = games
        r = 0
        while True:
            final = len(alive) <= finalists
            n_games = final_games if final else per
            setting = (technocrat, ziegler, seed, rules_json, max_turns, side)
            rounds.append(_play_round(alive, r, n_games, final, setting, out, opts))
            if final:
                break
            alive = alive[: max(finalists, math.ceil(len(alive) / 2))]
            per *= 2
            r += 1
        finals = [_finalist(c) for c in alive]
        _write_best(finals[0], side, candidates, opponent, seed, out)
        summary = {
            "format": "hotspot-deployment-search",
            "version": 1,
            "config": {
                "side": side,
                "opponent": opponent,
                "agent": agent,
                "candidates": candidates,
                "random_candidates": random_candidates,
                "games": games,
                "finalists": finalists,
                "final_games": final_games,
                "seed": seed,
                "max_turns": max_turns,
                "rules": dict(rules or {}),
            },
            "rounds": rounds,
            "finalists": finals,
            "best": str(out / "best.json"),
        }
        (out / "search.json").write_text(json.dumps(summary, indent=1, default=_json_default) + "\n", encoding="utf-8")
        summary["text"] = report_text(summary)
        return summary


def _json_default(value):
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    raise TypeError(type(value).__name__)


def report_text(summary: dict) -> str:
    cfg = summary["config"]
    lines = [
        f"Deployment search: {cfg['side']} ({cfg['agent']} / random set-ups) against {cfg['opponent']}",
        f"{'round':>5}  {'cands':>5}  {'games':>5}  best score",
    ]
    for r in summary["rounds"]:
        c = r["candidates"][0]
        lines.append(
            f"{r['round']:>5}  {len(r['candidates']):>5}  {r['games_per_candidate']:>5}  "
            f"{c['score']:.3f} (candidate {c['id']}, {c['policy']})"
        )
    lines.append("finalists (95% Wilson intervals, truncated games count half):")
    for f in summary["finalists"]:
        lines.append(
            f"  candidate {f['id']:>3} ({f['policy']}, seed {f['seed']}): {f['score']:.3f} "
            f"[{f['ci_low']:.3f}, {f['ci_high']:.3f}] over {f['games']} games"
        )
    lines.append(f"best deployment written to {summary['best']}")
    return "\n".join(lines)


__all__ = ["base_scenario", "sample_deployment", "search_deployment"]
