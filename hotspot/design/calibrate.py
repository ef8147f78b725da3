"""Calibration: the values of named knobs that bring the Technocrat's score to
a target.  ``hotspot calibrate NAME=LOW..HIGH ...`` is
:func:`run_calibration`.

A *knob* is an integer of the game that the surviving rulebook leaves open or
that a designer may change (docs/rules.md):

* a numeric rules option: ``platform_turns=3..6`` (14.5, the break-up turn),
  ``hover_second_move``, ``control_roll_max``, ... (``RulesOptions``);
* a counter factor of D4/D5 (the counter sheet is lost):
  ``attack.technocrat_crawler=1..4``, ``defense.ziegler_infantry``,
  ``movement.ziegler_hovercraft``, ``damage_rating.two_hex`` (D7);
* a force of 3.2/3.3 (D21 pools): ``forces.ziegler.hovercraft=3..9``,
  ``forces.technocrat.engineers=1..4``.

The search is optuna's TPE sampler (seeded: the same command proposes the
same trials), which copes with noisy objectives; the first trial is the
scenario's own values when they lie in the ranges.  Each trial plays
``games`` games at each of the cheap ``pairs`` on the mirrored seeds of
``hotspot balance`` (game ``i`` of every trial has the same seed: trials
differ by their settings, not their dice) and scores the mean squared
distance of the pairs' Technocrat scores from ``target``.  The ``finalists``
best distinct settings are played again with ``confirm_games`` games at the
cheap pairs (a trial's few games flatter the luckiest setting), the nearest
to the target is chosen, and it is confirmed with ``confirm_games`` games at
each of ``confirm_pairs`` (the strongest agents), each with its 95% Wilson
interval.

Written to ``out``: ``trials/<digest>.json`` (each trial's scenario) and
``trials/<digest>/`` (its games, resumable), ``trials.csv`` (every trial:
its values, each pair's score and interval, the objective),
``calibrated.json`` (the chosen setting as a scenario file), ``finals/`` and
``confirm/`` (the finalists' and the confirming games) and ``calibration.json`` (the summary).  A rerun resumes:
every trial's games are found in its folder, so the seeded search proposes
the same trials again and only what is missing is played.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import math
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hotspot.arena.folder import read_run_config, writer_lock
from hotspot.arena.gamerow import points
from hotspot.arena.match import ArenaError, GameSpec, game_seed
from hotspot.arena.options import RunOptions
from hotspot.arena.runner import check_count, run_games
from hotspot.arena.stats import wilson_interval
from hotspot.arena.tournament import canonical_agents
from hotspot.core.rules_data import POOL_KEYS, POOL_SIDE, SIDE_NAMES, RulesOptions
from hotspot.core.scenario import ScenarioError, load_scenario

from .balance import default_pair

_KNOB = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(-?[0-9]+)\s*\.\.\s*(-?[0-9]+)\s*")
_DICT_OPTIONS = ("attack", "defense", "movement", "damage_rating")


@dataclass(frozen=True)
class Knob:
    """One integer knob and its range (both ends included)."""

    name: str
    low: int
    high: int


def knob_names() -> list[str]:
    """Every knob name :func:`parse_knob` takes."""
    defaults = RulesOptions()
    names = sorted(RulesOptions._RANGES)
    for option in _DICT_OPTIONS:
        names += [f"{option}.{key}" for key in getattr(defaults, option)]
    names += [f"forces.{SIDE_NAMES[int(POOL_SIDE[i])]}.{key}" for i, key in enumerate(POOL_KEYS)]
    return names


def _knob_bounds(name: str) -> tuple[int, int]:
    if name in RulesOptions._RANGES:
        return RulesOptions._RANGES[name]
    return (0, 99)


def parse_knob(text: str) -> Knob:
    """``"platform_turns=3..6"`` -> Knob("platform_turns", 3, 6); a bad name
    or range is refused with one line naming the valid ones."""
    m = _KNOB.fullmatch(text)
    if not m:
        raise ArenaError(f"--calibrate {text!r}: expected NAME=LOW..HIGH with integers, e.g. platform_turns=3..6")
    name, low, high = m.group(1), int(m.group(2)), int(m.group(3))
    valid = knob_names()
    if name not in valid:
        raise ArenaError(f"--calibrate: unknown knob {name!r}; valid knobs: {', '.join(valid)}")
    lo, hi = _knob_bounds(name)
    if not lo <= low <= high <= hi:
        raise ArenaError(f"--calibrate {name}: range {low}..{high} is not within {lo}..{hi} (LOW <= HIGH)")
    return Knob(name, low, high)


def base_value(data: dict, name: str) -> int:
    """The value of knob ``name`` in the (normalized) scenario ``data``."""
    if name.startswith("forces."):
        _, side, key = name.split(".")
        return int(data["forces"][side][key])
    rules = RulesOptions.from_dict(data.get("rules") or {})
    if "." in name:
        option, key = name.split(".", 1)
        return int(getattr(rules, option)[key])
    return int(getattr(rules, name))


def apply_values(data: dict, values: dict) -> dict:
    """The scenario ``data`` with the knobs set to ``values`` (checked)."""
    out = json.loads(json.dumps(data))
    rules = dict(out.get("rules") or {})
    forces = out.setdefault("forces", {})
    for name, value in values.items():
        if name.startswith("forces."):
            _, side, key = name.split(".")
            forces.setdefault(side, {})[key] = int(value)
        elif "." in name:
            option, key = name.split(".", 1)
            rules[option] = {**dict(rules.get(option) or {}), key: int(value)}
        else:
            rules[name] = int(value)
    out["rules"] = rules
    try:
        return load_scenario(out)
    except ScenarioError as exc:
        raise ArenaError(f"the setting {values} is not a valid scenario: {exc}") from None


def _digest(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def _score(rows) -> tuple[float, float, float, int]:
    n = len(rows)
    s = sum(points(r, "technocrat", by="side") for r in rows)
    lo, hi = wilson_interval(s, n)
    return (s / n if n else math.nan), lo, hi, n


def play_setting(
    path: Path,
    folder: Path,
    pairs,
    games: int,
    opts: RunOptions,
    *,
    desc: str,
    first: int | None = None,
) -> list[dict]:
    """Play ``games`` mirrored games of the scenario file ``path`` at each pair
    into ``folder`` with the run options ``opts`` (seed, turn limit, workers,
    backend, ...); one entry a pair: score, interval, games (of the first
    ``first`` games only, when given: a folder that grew in a later round,
    read again)."""
    seed, max_turns = opts.seed, opts.max_turns
    specs = [
        GameSpec(f"{t}:{z}", t, z, i, game_seed(seed, i), str(path), "{}", max_turns=max_turns)
        for t, z in pairs
        for i in range(games)
    ]
    config = {
        "kind": "calibration-trial",
        "scenario": _digest(json.loads(path.read_text(encoding="utf-8"))),
        "pairs": sorted(f"{t}:{z}" for t, z in pairs),
        "seed": int(seed),
        "games": int(games),
        "max_turns": specs[0].max_turns,
    }
    result = run_games(specs, folder, options=dataclasses.replace(opts, out=str(folder)), desc=desc, config=config)
    out = []
    for t, z in pairs:
        rows = [
            r
            for r in result.rows
            if r["technocrat"] == t and r["ziegler"] == z and (first is None or int(r["index"]) < first)
        ]
        score, lo, hi, n = _score(rows)
        out.append({"pair": f"{t}:{z}", "score": score, "ci_low": lo, "ci_high": hi, "games": n})
    return out


def _optuna():
    try:
        import optuna
    except ImportError:
        raise ImportError("--calibrate needs optuna: python -m pip install 'hotspot[balance]'") from None
    return optuna


def _check_knobs(knobs, target) -> None:
    if not knobs:
        raise ArenaError("no knob to calibrate")
    if len({k.name for k in knobs}) != len(knobs):
        raise ArenaError("a knob is given twice")
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not 0 < target < 1:
        raise ArenaError(f"target must be a Technocrat score in (0, 1), got {target!r}")


def _base_scenario(scenario: str, rules) -> dict:
    """The scenario to calibrate, with the rules overrides ``rules`` (checked)."""
    try:
        base = load_scenario(scenario)
        if rules:
            RulesOptions.from_dict(rules)
            base = load_scenario({**base, "rules": {**(base.get("rules") or {}), **rules}})
    except (ScenarioError, ValueError) as exc:
        raise ArenaError(str(exc)) from None
    return base


def within_band(result: dict, target: float) -> bool:
    """Whether a confirmed score and its whole 95% interval lie within 0.05 of ``target``."""
    return (
        abs(result["score"] - target) <= 0.05
        and target - 0.05 <= result["ci_low"]
        and result["ci_high"] <= target + 0.05
    )


def _objective(results: list[dict], target: float) -> float:
    """A setting's distance from ``target``: the mean squared error of its pairs' scores."""
    return sum((r["score"] - target) ** 2 for r in results) / len(results)


def _tpe_trials(optuna, base, knobs, start, pairs, games, trials, target, opts, trial_dir) -> list[dict]:
    """optuna's TPE over ``trials`` settings of the knobs (the base setting first
    where it lies in the ranges), ``games`` games a pair each; every trial's record."""
    records: list[dict] = []

    def evaluate(values: dict) -> float:
        digest, path = _write_setting(base, values, trial_dir, "trial")
        desc = f"trial {len(records) + 1}/{trials}"
        results = play_setting(path, trial_dir / digest, pairs, games, opts, desc=desc)
        objective = _objective(results, target)
        records.append(
            {"trial": len(records), "values": dict(values), "digest": digest, "pairs": results, "objective": objective}
        )
        return objective

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=int(opts.seed)))
    if all(k.low <= start[k.name] <= k.high for k in knobs):
        study.enqueue_trial(start)
    study.optimize(
        lambda trial: evaluate({k.name: trial.suggest_int(k.name, k.low, k.high) for k in knobs}), n_trials=trials
    )
    return records


def _replay_finalists(records, finalists, trial_dir, out, pairs, confirm_games, target, opts) -> list[dict]:
    """The ``finalists`` best distinct settings of the trials, played again with
    ``confirm_games`` games at the trials' (cheap) pairs."""
    finals: list[dict] = []
    for r in sorted(records, key=lambda r: (r["objective"], r["trial"])):
        if len(finals) < finalists and r["digest"] not in {f["digest"] for f in finals}:
            desc = f"finalist {len(finals) + 1}/{finalists}"
            results = play_setting(
                trial_dir / f"{r['digest']}.json", out / "finals" / r["digest"], pairs, confirm_games, opts, desc=desc
            )
            finals.append(
                {
                    "values": r["values"],
                    "digest": r["digest"],
                    "pairs": results,
                    "trial": r["trial"],
                    "objective": _objective(results, target),
                }
            )
    return finals


def run_calibration(
    scenario: str,
    knobs: list[Knob],
    *,
    rules=None,
    pairs=None,
    target: float = 0.5,
    trials: int = 20,
    games: int = 100,
    confirm_pairs=None,
    confirm_games: int = 1000,
    options: RunOptions | None = None,
    report: bool = False,
    name: str = "calibrated",
    finalists: int = 3,
    **run_options,
) -> dict:
    """Search the knobs' values (see the module docstring); returns the summary (with ``"text"``)."""
    optuna = _optuna()
    _check_knobs(knobs, target)
    trials = check_count("trials", trials)
    games = check_count("games", games)
    confirm_games = check_count("confirm_games", confirm_games)
    finalists = check_count("finalists", finalists)
    pairs = [tuple(canonical_agents(p)) for p in (pairs or [default_pair()])]
    confirm_pairs = [tuple(canonical_agents(p)) for p in (confirm_pairs or pairs)]
    base = _base_scenario(scenario, rules)
    opts = RunOptions.merge(options, run_options, out="calibration", where="run_calibration")
    out, seed = opts.folder, opts.seed
    with writer_lock(out):  # one writer a folder, for the whole run
        trial_dir = out / "trials"
        trial_dir.mkdir(parents=True, exist_ok=True)
        start = {k.name: base_value(base, k.name) for k in knobs}
        records = _tpe_trials(optuna, base, knobs, start, pairs, games, trials, target, opts, trial_dir)
        finals = _replay_finalists(records, finalists, trial_dir, out, pairs, confirm_games, target, opts)
        best = min(finals, key=lambda r: (r["objective"], r["trial"]))
        calibrated = apply_values(base, best["values"])
        calibrated["name"] = name
        setting = ", ".join(f"{k}={v}" for k, v in best["values"].items())
        path = _write_calibrated(out / "calibrated.json", calibrated, base, setting, target)
        confirm: list[dict] = []
        for pair in confirm_pairs:
            label = f"{pair[0]}:{pair[1]}"
            known = [x for x in best["pairs"] if x["pair"] == label]
            confirm += known or play_setting(
                path, out / "confirm", [pair], confirm_games, opts, desc=f"confirm {label}"
            )
        within = [within_band(c, target) for c in confirm]
        _write_trials_csv(out / "trials.csv", records, knobs, pairs)
        summary = {
            "format": "hotspot-calibration",
            "version": 1,
            "scenario": scenario,
            "rules": rules or {},
            "knobs": [{"name": k.name, "low": k.low, "high": k.high, "base": start[k.name]} for k in knobs],
            "pairs": [f"{t}:{z}" for t, z in pairs],
            "games": games,
            "target": target,
            "seed": seed,
            "trials": records,
            "finals": finals,
            "best": best,
            "calibrated": str(out / "calibrated.json"),
            "confirm_pairs": [f"{t}:{z}" for t, z in confirm_pairs],
            "confirm_games": confirm_games,
            "confirm": confirm,
            "confirm_within_band": within,
        }
        (out / "calibration.json").write_text(json.dumps(_finite(summary), indent=1) + "\n", encoding="utf-8")
        if report:
            from .report import write_calibration_report

            summary["report"] = str(write_calibration_report(out, summary))
        summary["text"] = calibration_text(summary)
        return summary


def _write_calibrated(path: Path, data: dict, base: dict, setting: str, target: float) -> Path:
    data = dict(data)
    data["description"] = (
        f"{base.get('description', '')} Calibrated (hotspot calibrate) towards a "
        f"Technocrat score of {target}: {setting}."
    ).strip()
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def _write_trials_csv(path: Path, records, knobs, pairs) -> None:
    fields = ["trial"] + [k.name for k in knobs]
    for t, z in pairs:
        fields += [f"{t}:{z} score", f"{t}:{z} ci_low", f"{t}:{z} ci_high", f"{t}:{z} games"]
    fields.append("objective")
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(fields)
        for r in records:
            line = [r["trial"]] + [r["values"][k.name] for k in knobs]
            for p in r["pairs"]:
                line += [f"{p['score']:.4f}", f"{p['ci_low']:.4f}", f"{p['ci_high']:.4f}", p["games"]]
            writer.writerow(line + [f"{r['objective']:.6f}"])


def _finite(obj):
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def calibration_text(summary: dict) -> str:
    lines = [
        f"Calibration of {summary['scenario']} towards a Technocrat score of {summary['target']} "
        f"({len(summary['trials'])} trials of {summary['games']} games at {', '.join(summary['pairs'])}):"
    ]
    for r in sorted(summary["trials"], key=lambda r: r["objective"])[:5]:
        scores = ", ".join(f"{p['pair']} {p['score']:.3f}" for p in r["pairs"])
        lines.append(f"  trial {r['trial']:>3}: {r['values']} -> {scores} (objective {r['objective']:.4f})")
    for f in summary.get("finals") or []:
        scores = ", ".join(f"{p['pair']} {p['score']:.3f}" for p in f["pairs"])
        lines.append(
            f"  finalist (trial {f['trial']}): {f['values']} -> {scores} over {summary['confirm_games']} "
            f"games (objective {f['objective']:.4f})"
        )
    best = summary["best"]
    lines.append(f"Chosen setting: {best['values']} -> {summary['calibrated']}")
    for c, ok in zip(summary["confirm"], summary["confirm_within_band"]):
        lines.append(
            f"Confirmed at {c['pair']} over {c['games']} games: {c['score']:.3f} "
            f"[{c['ci_low']:.3f}, {c['ci_high']:.3f}]; "
            f"{'inside' if ok else 'not inside'} [{summary['target'] - 0.05:.2f}, "
            f"{summary['target'] + 0.05:.2f}]"
        )
    lines.append(f"Every trial: {Path(summary['calibrated']).parent / 'trials.csv'}")
    if summary.get("report"):
        lines.append(f"Report: {summary['report']}")
    return "\n".join(lines)


def run_halving(
    scenario: str,
    knobs: list[Knob],
    *,
    pair,
    rules=None,
    target: float = 0.5,
    candidates: int = 8,
    games: int = 16,
    confirm_games: int = 1000,
    options: RunOptions | None = None,
    name: str = "calibrated",
    **run_options,
) -> dict:
    """Calibration at a strong (costly) pair by successive halving (Jamieson
    and Talwalkar 2016): ``candidates`` settings of the knobs (the
    scenario's own values first when they lie in the ranges, the rest drawn
    by optuna's quasi-random Sobol sampler, seeded, over the ranges) each
    play ``games`` mirrored games at ``pair``; the half nearest ``target``
    go on with twice the games (the same seeds extended: a candidate's
    folder grows), until one is left, which plays on to ``confirm_games``.
    The strong games go to the finalists; no cheap pair's judgement is
    trusted to transfer (a set-up even between the scripted players need
    not be even between strong ones).  Written to ``out`` as
    :func:`run_calibration` writes (``candidates/``, ``calibrated.json``,
    ``calibration.json``); a rerun resumes."""
    optuna = _optuna()
    _check_knobs(knobs, target)
    candidates = check_count("candidates", candidates)
    games = check_count("games", games)
    confirm_games = check_count("confirm_games", confirm_games)
    pair = tuple(canonical_agents(pair))
    base = _base_scenario(scenario, rules)
    opts = RunOptions.merge(options, run_options, out="calibration", where="run_halving")
    out, seed = opts.folder, opts.seed
    with writer_lock(out):
        cdir = out / "candidates"
        cdir.mkdir(parents=True, exist_ok=True)
        start, entries = _halving_candidates(optuna, base, knobs, candidates, seed, cdir)
        rounds: list[dict[str, Any]] = []
        alive = list(entries)
        n = games
        while True:
            final = len(alive) == 1
            n_now = max(n, confirm_games) if final else n
            results = []
            for e in alive:
                known = read_run_config(cdir / e["digest"]) or {}
                (r,) = play_setting(
                    e["path"],
                    cdir / e["digest"],
                    [pair],
                    max(n_now, int(known.get("games") or 0)),  # a rerun reads a folder that grew further
                    opts,
                    first=n_now,
                    desc=f"round {len(rounds) + 1}, candidate {e['candidate'] + 1}/{len(entries)}",
                )
                results.append({"candidate": e["candidate"], "values": e["values"], "digest": e["digest"], **r})
            results.sort(key=lambda r: (abs(r["score"] - target), r["candidate"]))
            keep = 1 if final else max(1, math.ceil(len(alive) / 2))
            rounds.append({"games": n_now, "results": results, "kept": [r["candidate"] for r in results[:keep]]})
            if final:
                break
            alive = [e for e in entries if e["candidate"] in rounds[-1]["kept"]]
            n *= 2
        best = rounds[-1]["results"][0]
        calibrated = apply_values(base, best["values"])
        calibrated["name"] = name
        setting = ", ".join(f"{k}={v}" for k, v in best["values"].items())
        _write_calibrated(out / "calibrated.json", calibrated, base, setting, target)
        within = within_band(best, target)
        summary = {
            "format": "hotspot-calibration",
            "version": 1,
            "method": "successive halving",
            "scenario": scenario,
            "rules": rules or {},
            "knobs": [{"name": k.name, "low": k.low, "high": k.high, "base": start[k.name]} for k in knobs],
            "pair": f"{pair[0]}:{pair[1]}",
            "target": target,
            "seed": seed,
            "rounds": rounds,
            "best": best,
            "calibrated": str(out / "calibrated.json"),
            "confirm_games": confirm_games,
            "within_band": within,
        }
        (out / "calibration.json").write_text(json.dumps(_finite(summary), indent=1) + "\n", encoding="utf-8")
        summary["text"] = halving_text(summary)
        return summary


def _write_setting(base: dict, values: dict, folder: Path, what: str) -> tuple[str, Path]:
    """(the digest, the file) of the scenario ``base`` with the knobs at
    ``values``, written as ``folder/<digest>.json`` unless it is there."""
    data = apply_values(base, values)
    data["name"] = f"{base.get('name', 'scenario')} calibration {what}"
    digest = _digest(data)
    path = folder / f"{digest}.json"
    if not path.exists():
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return digest, path


def _halving_candidates(optuna, base: dict, knobs: list[Knob], candidates: int, seed: int, cdir: Path):
    """(the scenario's own knob values; the candidates of a successive
    halving, each ``{"candidate", "values", "digest", "path"}``, its scenario
    file written under ``cdir``): the scenario's own values first when they
    lie in the ranges, then distinct Sobol points of optuna's sampler, seeded."""
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():  # optuna marks its QMC sampler experimental
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        sampler = optuna.samplers.QMCSampler(qmc_type="sobol", seed=int(seed), scramble=True)
    study = optuna.create_study(sampler=sampler)
    start = {k.name: base_value(base, k.name) for k in knobs}
    settings = [start] if all(k.low <= start[k.name] <= k.high for k in knobs) else []
    for _ in range(64 * candidates):
        if len(settings) >= candidates:
            break
        trial = study.ask()
        values = {k.name: trial.suggest_int(k.name, k.low, k.high) for k in knobs}
        study.tell(trial, 0.0)
        if values not in settings:
            settings.append(values)
    entries = []
    for i, values in enumerate(settings):
        digest, path = _write_setting(base, values, cdir, "candidate")
        entries.append({"candidate": i, "values": values, "digest": digest, "path": path})
    return start, entries


def halving_text(summary: dict) -> str:
    """The printed account of a successive-halving calibration."""
    lines = [
        f"Calibration of {summary['scenario']} by successive halving at {summary['pair']} towards a Technocrat "
        f"score of {summary['target']} (mirrored seeds; 95% Wilson intervals, a draw half a point):"
    ]
    for i, r in enumerate(summary["rounds"]):
        lines.append(f"round {i + 1}: {r['games']} games a candidate")
        for x in r["results"]:
            mark = " (kept)" if x["candidate"] in r["kept"] and i + 1 < len(summary["rounds"]) else ""
            lines.append(f"  {json.dumps(x['values'])}: {x['score']:.3f} [{x['ci_low']:.3f}, {x['ci_high']:.3f}]{mark}")
    b = summary["best"]
    t = summary["target"]
    lines.append(
        f"Chosen: {json.dumps(b['values'])}, {b['score']:.3f} [{b['ci_low']:.3f}, {b['ci_high']:.3f}] over "
        f"{b['games']} games; interval inside [{t - 0.05:.2f}, {t + 0.05:.2f}]: "
        f"{'yes' if summary['within_band'] else 'no'}. Scenario: {summary['calibrated']}"
    )
    return "\n".join(lines)


__all__ = ["Knob", "halving_text", "knob_names", "parse_knob", "run_calibration", "run_halving"]
