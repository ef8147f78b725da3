"""Recorded games as a Minari dataset (``hotspot dataset``,
``hotspot.arena.dataset``): one seat's side of each game, the environment's
own observations, rewards and ends, loadable by ``minari.load_dataset``."""

from __future__ import annotations

import numpy as np
import pytest

minari = pytest.importorskip("minari")
pytest.importorskip("pyarrow")

from hotspot.agents.base import Agent  # noqa: E402
from hotspot.arena import make_agent  # noqa: E402
from hotspot.arena.dataset import seat_episode  # noqa: E402
from hotspot.arena.runner import run_games  # noqa: E402
from hotspot.arena.tournament import plan_arena  # noqa: E402
from hotspot.cli import main  # noqa: E402
from hotspot.core import no_events  # noqa: E402
from hotspot.core.state import STATE_DTYPE  # noqa: E402
from hotspot.env.episodes import begin_episode  # noqa: E402
from hotspot.env.hotspot_env import HotspotEnv  # noqa: E402


@pytest.fixture(autouse=True)
def _datasets_here(tmp_path, monkeypatch):
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path / "datasets"))


class _Logged(Agent):
    """The scripted player, writing each action it plays into ``log``."""

    def __init__(self, log):
        self.inner, self.log = make_agent("scripted"), log

    def reset(self, seed=None):
        self.inner.reset(seed)

    def act(self, info_state, mask, side):
        a = self.inner.act(info_state, mask, side)
        self.log.append(int(a))
        return a


def _random_episode(env, seed: int, rng_seed: int, record=None):
    """A game of ``env`` from ``reset(seed)`` with uniformly random legal
    actions (each passed to ``record`` before it is played): its start state,
    every observation and mask it gave, the actions taken, the last reward and
    whether it terminated."""
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    start = np.zeros(1, STATE_DTYPE)
    begin_episode(start, 0, env.templates, env._episode_seed, np.zeros(1, np.uint64), *no_events())
    seen, masks, acts, done, reward, terminated = [obs], [info["action_mask"]], [], False, 0.0, False
    while not done:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        acts.append(a)
        if record is not None:
            record(a)
        obs, reward, terminated, truncated, info = env.step(a)
        seen.append(obs)
        masks.append(info["action_mask"])
        done = terminated or truncated
    return start, seen, masks, acts, reward, terminated


@pytest.mark.parametrize("form", ["compact", "flat"])
def test_an_episode_is_the_environments_for_the_same_game(form):
    """Rule: the dataset's observations, masks, reward and ends are those
    HotspotEnv gave a learner in the same game (its observation function,
    fog D20, the reward at a victory 5.0 or 0 at the turn limit)."""
    log: list[int] = []
    env = HotspotEnv(side="technocrat", opponent=_Logged(log), scenario="open", observation=form, max_turns=30)
    start, seen, masks, acts, reward, terminated = _random_episode(env, seed=11, rng_seed=5, record=log.append)
    episode = seat_episode(start, log, 1, env)
    n = len(seen) - 1
    assert len(episode["actions"]) == n
    for i, o in enumerate(seen):
        if form == "flat":
            np.testing.assert_array_equal(episode["observations"][i], o)
        else:
            for k in o:
                np.testing.assert_array_equal(episode["observations"][k][i], o[k], err_msg=f"{k} at step {i}")
    np.testing.assert_array_equal(episode["infos"]["action_mask"][:n], np.array(masks[:n]))
    assert episode["rewards"][-1] == reward and episode["terminations"][-1] == terminated
    assert episode["truncations"][-1] == (not terminated)


@pytest.mark.parametrize("seat", ["technocrat", "ziegler"])
def test_a_learner_episode_is_learner_envs_for_the_same_game(seat, monkeypatch):
    """Rule: with --observation learner an episode is what LearnerEnv
    (shaping off) showed a learner in the same game: its steps only in the
    phases of play (4.0; the set-up is the scripted plan's, D21), its slots'
    observation and pruned mask, the action in slot terms, the reward at a
    victory (5.0) or 0 at the turn limit (D19)."""
    from hotspot.arena.dataset import learner_episode
    from hotspot.env.learner_env import LearnerEnv

    log: list[int] = []
    original = HotspotEnv.step

    def logged_step(self, action):  # every action the game applies for the learner's side, in order
        log.append(int(action))
        return original(self, action)

    monkeypatch.setattr(HotspotEnv, "step", logged_step)
    env = LearnerEnv(side=seat, opponent=_Logged(log), scenario="open", max_turns=30, shaping={})
    start, seen, masks, acts, reward, terminated = _random_episode(env, seed=13, rng_seed=7)
    episode = learner_episode(start, log, 1 if seat == "technocrat" else 0, env)
    n = len(acts)
    assert episode["actions"].tolist() == acts
    np.testing.assert_array_equal(episode["observations"], np.array(seen))
    np.testing.assert_array_equal(episode["infos"]["action_mask"][:n], np.array(masks[:n]))
    assert episode["rewards"][-1] == reward and episode["terminations"][-1] == terminated


def test_hotspot_dataset_writes_one_seat_and_minari_loads_it(tmp_path, capsys):
    """hotspot dataset FOLDER --seat S --out ID: a Minari dataset of the seat's
    side of every game, its env recoverable, its actions legal where taken."""
    out = tmp_path / "run"
    run_games(plan_arena([("random", "scripted")], 2, scenario="open", seed=1), out, workers=1, progress=False)
    assert main(["dataset", str(out), "--seat", "technocrat", "--out", "hotspot/t-technocrat-v0"]) == 0
    assert "4 episode(s)" in capsys.readouterr().out
    data = minari.load_dataset("hotspot/t-technocrat-v0")
    assert data.total_episodes == 4
    for ep in data.iterate_episodes():
        masks = ep.infos["action_mask"]
        assert masks[np.arange(len(ep.actions)), ep.actions].all()
        assert ep.terminations[-1] != ep.truncations[-1] and ep.rewards[-1] in (-1.0, 0.0, 1.0)
    env = data.recover_environment()
    assert env.unwrapped.side == 1


def test_hotspot_dataset_learner_writes_learner_envs_observations(tmp_path, capsys):
    """hotspot dataset --observation learner: the episodes' observations have
    LearnerEnv's shape (its slots' features), its env is LearnerEnv, and every
    step is a decision of play (no set-up step: LearnerEnv plays the set-up)."""
    from hotspot.features.learner import LEARNER_SIZE

    out = tmp_path / "run"
    run_games(plan_arena([("random", "scripted")], 2, scenario="open", seed=1), out, workers=1, progress=False)
    args = ["dataset", str(out), "--seat", "ziegler", "--out", "hotspot/t-learner-v0", "--observation", "learner"]
    assert main(args) == 0
    data = minari.load_dataset("hotspot/t-learner-v0")
    assert data.total_episodes == 4
    for ep in data.iterate_episodes():
        assert ep.observations.shape == (len(ep.actions) + 1, LEARNER_SIZE[0])
        assert ((ep.actions >= 0) & (ep.actions < 578)).all()
    env = data.recover_environment()
    assert type(env.unwrapped).__name__ == "LearnerEnv" and env.unwrapped.shaping == {}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "both", "--out", "hotspot/x-v0"], "--seat must be technocrat or ziegler"),
        (["--seat", "ziegler", "--out", "hotspot/x-v0", "--observation", "image"], "--observation must be one of"),
        (["--seat", "ziegler", "--out", "no good"], "Malformed dataset ID"),
        (["--seat", "ziegler", "--out", "hotspot/x-v0", "--max-games", "0"], "--max-games must be a positive"),
    ],
)
def test_dataset_refuses_bad_arguments_in_one_line(tmp_path, capsys, args, message):
    """A bad seat, form, id or count: one line naming it, no dataset written."""
    out = tmp_path / "run"
    run_games(plan_arena([("random", "scripted")], 1, scenario="open", seed=1), out, workers=1, progress=False)
    assert main(["dataset", str(out), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert minari.list_local_datasets() == {}
