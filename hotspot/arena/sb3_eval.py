"""A Stable-Baselines3 callback that rates the model in training by the arena's games.

    from hotspot.arena.sb3_eval import ArenaEvalCallback

    model.learn(600_000, callback=ArenaEvalCallback("technocrat", eval_freq=50_000, games=40, log="curve.csv"))

Every ``eval_freq`` steps of the environment (counted as SB3 counts them:
all the vectorised envs' steps) the callback saves the model to a
temporary file and plays ``games`` games of it, entered by name as
``sb3(path=...)`` in ``seat``, against each of ``opponents`` (default
``random`` and ``scripted``) on ``scenario`` (stopped as a draw after
turn ``max_turns``, D19 revised), through
:func:`hotspot.arena.runner.run_games` in this process: game ``i`` has the
seed ``game_seed(seed, i)`` at every evaluation, so the points of the curve
are played on the same dice (common random numbers).  Each point is logged
to SB3's logger (``eval/<opponent>_score``, ``_win``, ``_draw``: TensorBoard
when the model was made with ``tensorboard_log=``, stdout at ``verbose=1``)
and appended to ``log`` (CSV: ``env_steps``, ``wall_s``, then per opponent
its score, win and draw rates and the score's 95% Wilson interval), and
kept in ``points``.  A draw (D19) is half a point.  The ``train`` extra
(torch, Stable-Baselines3) runs it.
"""

from __future__ import annotations

import csv
import tempfile
import time
from pathlib import Path

from hotspot.core.limits import DEFAULT_MAX_TURNS

from .gamerow import is_draw, points
from .match import GameSpec, game_seed
from .runner import run_games
from .stats import wilson_interval

EVAL_SEED = 10_000_000


def _base():
    try:
        from stable_baselines3.common.callbacks import BaseCallback
    except ImportError:
        raise ImportError("ArenaEvalCallback needs Stable-Baselines3: pip install 'hotspot[train]'") from None
    return BaseCallback


class ArenaEvalCallback(_base()):  # type: ignore[misc]  # Stable-Baselines3's BaseCallback, imported when first used
    """Rate the model every ``eval_freq`` env steps by ``games`` arena games a
    opponent in ``seat`` (see the module's docstring); ``points``: every
    point so far (dicts, as the CSV's rows)."""

    def __init__(
        self,
        seat: str,
        opponents=("random", "scripted"),
        eval_freq: int = 50_000,
        games: int = 40,
        scenario: str = "open",
        seed: int = EVAL_SEED,
        max_turns: int | None = DEFAULT_MAX_TURNS,
        log=None,
        verbose: int = 0,
    ):
        super().__init__(verbose)
        if seat not in ("technocrat", "ziegler"):
            raise ValueError(f"seat must be technocrat or ziegler, got {seat!r}")
        for name, value in (("eval_freq", eval_freq), ("games", games)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        self.seat, self.opponents, self.eval_freq, self.games = seat, tuple(opponents), eval_freq, games
        self.scenario, self.seed, self.log = scenario, int(seed), None if log is None else Path(log)
        self.max_turns = max_turns
        self.points: list[dict] = []
        self._next = 0
        self._t0: float | None = None
        self._work = Path(tempfile.mkdtemp(prefix="hotspot-eval-"))

    def _on_training_start(self) -> None:
        self._t0 = time.perf_counter()
        if self.model.num_timesteps >= self._next:
            self.evaluate()

    def _on_step(self) -> bool:
        if self.model.num_timesteps >= self._next:
            self.evaluate()
        return True

    def _on_training_end(self) -> None:
        if not self.points or self.points[-1]["env_steps"] != self.model.num_timesteps:
            self.evaluate()

    def evaluate(self) -> dict:
        """Play the evaluation games now; the point (also logged and kept)."""
        steps = int(self.model.num_timesteps)
        self._next = steps + self.eval_freq
        model_path = self._work / f"model-{steps}.zip"
        self.model.save(model_path)
        me = f"sb3(path={model_path})"
        point = {"env_steps": steps, "wall_s": round(time.perf_counter() - (self._t0 or time.perf_counter()), 1)}
        for opponent in self.opponents:
            tech, zieg = (me, opponent) if self.seat == "technocrat" else (opponent, me)
            specs = [
                GameSpec(
                    f"{tech}:{zieg}", tech, zieg, i, game_seed(self.seed, i), self.scenario, max_turns=self.max_turns
                )
                for i in range(self.games)
            ]
            rows = run_games(specs, self._work / f"games-{steps}", workers=1, progress=False).rows
            wins = sum(r["winner"] == self.seat for r in rows)
            draws = sum(is_draw(r) for r in rows)
            total = sum(points(r, self.seat, by="side") for r in rows)
            score = total / len(rows)
            low, high = wilson_interval(total, len(rows))
            point.update(
                {
                    f"{opponent}_score": round(score, 4),
                    f"{opponent}_win": round(wins / len(rows), 4),
                    f"{opponent}_draw": round(draws / len(rows), 4),
                    f"{opponent}_low": round(low, 4),
                    f"{opponent}_high": round(high, 4),
                }
            )
            for key in ("score", "win", "draw"):
                self.logger.record(f"eval/{opponent}_{key}", point[f"{opponent}_{key}"])
        self.logger.dump(steps)
        self.points.append(point)
        if self.log is not None:
            new = not self.log.exists()
            with open(self.log, "a", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=list(point))
                if new:
                    writer.writeheader()
                writer.writerow(point)
        model_path.unlink(missing_ok=True)
        return point
