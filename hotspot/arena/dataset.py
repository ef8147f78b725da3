"""Recorded games as an offline-RL dataset (Minari, Farama's format).

``hotspot dataset FOLDER --seat technocrat --out NAME`` replays every game of
a run folder (or a games.jsonl, or Parquet: ``table.read_table``) through
the core and writes one seat's side of each as a Minari episode, with the
observation of ``hotspot/Hotspot-v0`` (``HotspotEnv``) for that seat:

* a step is one decision of the seat (every one, as ``HotspotEnv.step``
  takes them: set-up, forced and free), ``observations`` the env's
  observation at each (its ``observation`` form: ``"compact"`` by default,
  ``"flat"``, ``"full"``), then the last one, after the game's end;
* ``actions``: the recorded action (the core's index, ``Discrete(578)``);
* ``rewards``: the env's, +1 at the seat's last step when it won, -1 when
  it lost, 0 otherwise (no shaping); ``terminations``: at a victory (5.0);
  ``truncations``: at the turn limit (D19 revised), reward 0;
* ``infos``: ``action_mask``, the legal actions at each step.

``--observation learner`` writes the game as ``hotspot/HotspotLearner-v0``
(``LearnerEnv``, shaping off) shows it (:func:`learner_episode`): the
seat's decisions in the phases of play only, the slots' observation, the
action and the pruned mask in slot terms (a recorded action the pruning
leaves out, a split, is kept as played: the env plays such an action too).

Games ended by an adjudication (``--adjudicate``: their end is a judgement,
not the rules) are left out and counted.  One dataset holds one
configuration (scenario, rules, turn limit: its observation space); a
source that mixes them is refused in one line.  The observation function
is the env's own (``features.encoding.encode``, ``observation_form``), so an
episode's observations are the env's for the same game (tested against a
live episode).  Minari is the ``minari`` extra; datasets go where Minari
keeps them (``MINARI_DATASETS_PATH``, default ``~/.minari/datasets``).
"""

from __future__ import annotations

import json

import numpy as np

from hotspot.core import no_events
from hotspot.core.actions import NUM_ACTIONS, apply_action, current_player, legal_action_mask
from hotspot.core.game import Game
from hotspot.core.observation import observe
from hotspot.core.rules_data import PHASE_CONTROL, PHASE_OVER
from hotspot.core.state import STATE_DTYPE
from hotspot.core.victory import side_return
from hotspot.features.encoding import encode, new_observation, scratch_state
from hotspot.features.learner import SlotMap, learner_observation, prune_mask
from hotspot.features.observations import observation_form

from .errors import ArenaError

SEATS = {"ziegler": 0, "technocrat": 1}
FORMS = ("compact", "flat", "full", "learner")


class DatasetError(ArenaError):
    """A bad seat, form, source or dataset name (one line)."""


def seat_episode(start, actions, seat: int, env) -> dict:
    """The Minari episode buffer of ``seat``'s side of the game that starts
    at state ``start`` (a one-element state array) and plays ``actions``,
    observed as ``env`` (a ``HotspotEnv``: its bounds, form and fog)."""
    env = env.unwrapped
    s = start.copy()
    ev, ev_n = no_events()
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    scratch, o = scratch_state(), new_observation()
    obs, acts, masks = [], [], []

    def observe_now():
        encode(s[0], seat, env.fog, True, scratch[0], o["board"], o["units"], o["pieces"], o["globals"])
        return _copy(observation_form(env.bounds, env.observation, o))

    for a in actions:
        if current_player(s[0]) == seat:
            legal_action_mask(s[0], mask)
            obs.append(observe_now())
            acts.append(int(a))
            masks.append(mask.copy())
        apply_action(s[0], int(a), ev, ev_n)
    obs.append(observe_now())
    return _episode(s, seat, obs, acts, masks)


def learner_episode(start, actions, seat: int, env) -> dict:
    """:func:`seat_episode` as ``LearnerEnv`` (``hotspot/HotspotLearner-v0``)
    shows the game to a learner: a step is one of ``seat``'s decisions in a
    phase of play (4.0 A-H; its set-up is not the learner's, as with
    ``setup="scripted"``), the observation ``learner_observation`` over the
    learner's slots, the action and the mask in slot terms (``SlotMap``;
    the mask pruned as ``env.prune`` says); the rewards without shaping
    (``LearnerEnv(shaping={})``'s).  A decision naming a unit that has no
    slot (more units than slots) is left out."""
    env = env.unwrapped
    s = start.copy()
    ev, ev_n = no_events()
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    o = np.zeros(1, STATE_DTYPE)
    slots = SlotMap(seat)
    obs, acts, masks = [], [], []
    for a in actions:
        if current_player(s[0]) == seat and int(s[0]["phase"]) <= PHASE_CONTROL:
            legal_action_mask(s[0], mask)
            observe(s[0], seat, env.fog, o[0])
            slots.update(o[0])
            mine = slots.to_learner(int(a))
            if mine >= 0:
                obs.append(learner_observation(o[0], seat, slots))
                acts.append(mine)
                masks.append(slots.mask(prune_mask(o[0], mask) if env.prune else mask))
        apply_action(s[0], int(a), ev, ev_n)
    observe(s[0], seat, env.fog, o[0])
    if int(o[0]["phase"]) <= PHASE_CONTROL:  # stopped at the turn limit: the env's last look updates the slots
        slots.update(o[0])
    obs.append(learner_observation(o[0], seat, slots))
    return _episode(s, seat, obs, acts, masks)


def _episode(s, seat, obs, acts, masks) -> dict:
    """The Minari episode buffer of the steps ``obs`` (one more than the
    actions), ``acts`` and ``masks`` of a game that ended in state ``s``."""
    n = len(acts)
    rewards = np.zeros(n, np.float64)
    reward = float(side_return(s[0], seat))
    over = int(s[0]["phase"]) == PHASE_OVER and reward != 0.0  # a victory (5.0); else the turn limit
    if n:
        rewards[-1] = reward
    terminations = np.zeros(n, np.bool_)
    truncations = np.zeros(n, np.bool_)
    if n:
        terminations[-1], truncations[-1] = over, not over
    return {
        "observations": _stack(obs),
        "actions": np.array(acts, np.int64),
        "rewards": rewards,
        "terminations": terminations,
        "truncations": truncations,
        "infos": {"action_mask": np.array(masks + [np.zeros(NUM_ACTIONS, np.bool_)])},
    }


def _copy(x):
    return {k: np.array(v) for k, v in x.items()} if isinstance(x, dict) else np.array(x)


def _stack(items):
    if isinstance(items[0], dict):
        return {k: np.stack([it[k] for it in items]) for k in items[0]}
    return np.stack(items)


def make_dataset(source, seat: str, dataset_id: str, observation: str = "compact", max_games: int | None = None):
    """Write the Minari dataset ``dataset_id`` of ``seat``'s side of the
    games at ``source`` (:func:`.table.read_table`'s sources) and return it
    (a ``minari.MinariDataset``); :class:`DatasetError` (one line) for a bad
    argument or a source mixing configurations."""
    import gymnasium as gym

    if seat not in SEATS:
        raise DatasetError(f"--seat must be technocrat or ziegler, got {seat!r}")
    if observation not in FORMS:
        raise DatasetError(f"--observation must be one of {', '.join(FORMS)}, got {observation!r}")
    if not isinstance(dataset_id, str) or not dataset_id.strip():
        raise DatasetError("--out must name a dataset, e.g. hotspot/open-scripted-technocrat-v0")
    try:
        import minari
    except ImportError:
        raise DatasetError("hotspot dataset needs Minari: pip install 'hotspot[minari]'") from None
    from minari.dataset.minari_dataset import parse_dataset_id

    from .folder import record_from_row
    from .table import read_table

    try:
        parse_dataset_id(dataset_id)  # before anything is written (Minari leaves a folder for a bad id)
    except ValueError as exc:
        raise DatasetError(f"--out {dataset_id}: {exc}") from None
    if dataset_id in minari.list_local_datasets():
        raise DatasetError(f"--out {dataset_id}: a local Minari dataset has this id; name another (or a new -vN)")

    rows = read_table(source).to_pylist()
    if max_games is not None:
        rows = rows[:max_games]
    played = [r for r in rows if not r.get("adjudication")]
    if not played:
        raise DatasetError(f"{source}: no game played to its end")
    configs = {(r["setup"], r["rules"], r["max_turns"]) for r in played}
    if len(configs) > 1 or played[0]["scenario"].startswith("random"):
        raise DatasetError(
            f"{source}: its games mix {len(configs)} set-ups, rules or turn limits (or random set-ups); "
            f"a dataset holds one (one observation space): make it from a run of one scenario"
        )
    setup, rules, max_turns = configs.pop()
    opponents = {r["ziegler" if seat == "technocrat" else "technocrat"] for r in played}
    kwargs = {"side": seat, "scenario": setup, "rules": json.loads(rules), "max_turns": max_turns}
    if observation == "learner":  # LearnerEnv: its slots' observation, the rewards without shaping
        env_id, kwargs["shaping"], episode_of = "hotspot/HotspotLearner-v0", {}, learner_episode
    else:
        env_id, kwargs["observation"], episode_of = "hotspot/Hotspot-v0", observation, seat_episode
    if len(opponents) == 1:
        kwargs["opponent"] = opponents.pop()
    env = gym.make(env_id, **kwargs)
    episodes = []
    for row in played:
        row = dict(row, rules=json.loads(row["rules"]))
        record = record_from_row(row)
        actions = list(record.actions)
        record.actions = []
        start = Game.from_record(record).state.copy()
        episodes.append(episode_of(start, actions, SEATS[seat], env))
    from minari.data_collector import EpisodeBuffer

    buffers = [EpisodeBuffer(id=i, seed=int(row["seed"]), **ep) for i, (row, ep) in enumerate(zip(played, episodes))]
    try:
        return minari.create_dataset_from_buffers(
            dataset_id=dataset_id,
            buffer=buffers,
            env=env,
            eval_env=env.spec,
            algorithm_name=", ".join(sorted({r[seat] for r in played})),
            author="hotspot",
            author_email="-",
            code_permalink="https://github.com/",
            description=(
                f"Hot Spot: the {seat}'s side of {len(played)} recorded games ({setup}), "
                f"observations of {env_id} ({observation})"
            ),
            data_format="arrow",
        )
    except ValueError as exc:
        raise DatasetError(f"--out {dataset_id}: {exc}") from None
