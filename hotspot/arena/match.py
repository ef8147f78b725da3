"""Games between two agents: a compiled fast path and a Python path.

A game is fixed by its :class:`GameSpec`: the scenario, the rules overrides and
the *game seed*.  Everything random derives from the game seed:

* the dice: the game seed itself is the dice seed (``Game(scenario, seed)``),
  so ``GameRecord(scenario, seed, actions)`` replays the game exactly;
* each side's agent seed (:func:`agent_seeds`): the compiled generator of a
  compiled policy, and ``agent.reset(seed)`` for a Python agent;
* with ``scenario="random"``, the random setup (D12) of the game
  (:func:`setup_seed`), recorded in the row as ``"setup": "random:N"``.

Turn limit (D19 revised): the rulebook has none, so a spec carries a
harness's ``max_turns`` (default ``hotspot.core.limits.DEFAULT_MAX_TURNS``;
None: no limit).  A game stopped there is a *draw*: the row's ``winner``,
``winner_agent`` and ``loser_agent`` are null, ``truncated`` is true, and the
arena and the balance tool score it half a point to each side.

When both agents have a compiled policy (``agent.policy_id``) the whole game
runs in one compiled call (:func:`play_match`), which records the actions into
a preallocated array; otherwise the game is played through the ``Game`` facade,
each Python agent seeing only its side's information state (D20).  A compiled
agent moves the same way on both paths (same generator, same slot), so a game
between compiled agents is identical on both.

Each finished game is a *row* (a JSON object, declared in :mod:`.gamerow`:
:data:`~.gamerow.GAME_ROW_FIELDS`): the key, pairing, game index, seed,
scenario, rules, turn limit, both agents, the winner (null for a draw),
truncation, turns, the number of actions, the wall time and the action list.
``hotspot.arena.record_from_row`` checks a row and turns it back into a
``GameRecord`` (replay it, or view it with
``hotspot.env.viewer.write_replay_html``).
"""

from __future__ import annotations

import functools
import json
import multiprocessing
import re
import sys
import time
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, compress

import numpy as np

from hotspot.agents.policies import new_game_buffers, policy_action, policy_action_buf
from hotspot.agents.registry import make_agent
from hotspot.agents.scripted import make_work, scripted_decide
from hotspot.core._jit import is_cached, jit
from hotspot.core.actions import NUM_ACTIONS, action_error, apply_action, current_player
from hotspot.core.dice import mix64_int, mix64_run
from hotspot.core.errors import OK
from hotspot.core.events import EV_WIDTH, no_events
from hotspot.core.game import Game, IllegalActionError
from hotspot.core.limits import DEFAULT_MAX_TURNS, check_max_turns
from hotspot.core.observation import observe
from hotspot.core.record import GameRecord
from hotspot.core.rollout import random_action
from hotspot.core.rules_data import (
    ONGOING,
    PHASE_OVER,
    PHASE_Z_CRUSTAL,
    RESULT_NAMES,
    SIDE_NAMES,
    TECHNOCRAT,
    ZIEGLER,
    RulesOptions,
)
from hotspot.core.scenario import (
    ScenarioError,
    load_scenario,
    random_name_seed,
    random_setup,
    scenario_to_state,
    start_states,
    with_rules,
)
from hotspot.core.state import STATE_DTYPE, empty_states
from hotspot.core.victory import winner as winning_side

from .adjudication import Adjudicator, canonical_adjudication
from .errors import ArenaError
from .gamerow import ENDED_NO_PROGRESS, ENDED_RESIGN, ENDED_RULES, ENDED_TURN_LIMIT, GameRow, make_row

MASK64 = (1 << 64) - 1
_K_GAME = 0x6A09E667F3BCC909
_K_AGENT = (0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B)  # Ziegler, Technocrat
_K_SETUP = 0xA54FF53A5F1D36F1
DEFAULT_MAX_ACTIONS = 200_000

STATUS_OK, STATUS_NO_ACTION, STATUS_ILLEGAL = 0, 1, 2


# ------------------------------------------------------------ seeds


def game_seed(master_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with ``--seed master_seed`` (63 bits).

    It does not depend on the agents, the side or the scenario: game ``i`` of
    every pairing, side and cell has the same dice (common random numbers)."""
    return mix64_int((mix64_int((int(master_seed) & MASK64) ^ _K_GAME) + int(index)) & MASK64) >> 1


def game_seeds(master_seed: int, games: int) -> list[int]:
    """``[game_seed(master_seed, i) for i in range(games)]``, in one compiled call."""
    first = mix64_int((int(master_seed) & MASK64) ^ _K_GAME)
    return [int(x) >> 1 for x in mix64_run(np.uint64(first), int(games))]


def agent_seeds(seed: int) -> tuple[int, int]:
    """(Ziegler agent seed, Technocrat agent seed) of game seed ``seed`` (64-bit ints)."""
    ziegler, technocrat = (mix64_int((int(seed) & MASK64) ^ k) for k in _K_AGENT)
    return ziegler, technocrat


def setup_seed(seed: int) -> int:
    """The random-setup seed (D12) of game seed ``seed`` for ``scenario="random"``."""
    return mix64_int((int(seed) & MASK64) ^ _K_SETUP) >> 1


# ------------------------------------------------------------ game specs


def canonical_rules(rules) -> str:
    """Rules overrides (a dict, a JSON string or None) as canonical JSON (``"{}"`` for none)."""
    if rules is None:
        return "{}"
    if isinstance(rules, str):
        return _canonical_rules_text(rules)
    return json.dumps(dict(rules), sort_keys=True, separators=(",", ":"))


@functools.lru_cache(maxsize=1024)
def _canonical_rules_text(text: str) -> str:
    return json.dumps(dict(json.loads(text)), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class GameSpec:
    """One game to play: who plays which side, where, and its seed."""

    pairing: str  # the label of the match-up, e.g. "random:scripted"
    technocrat: str  # agent names (hotspot.agents.registry)
    ziegler: str
    index: int  # game index within its pairing and side
    seed: int  # game seed (dice; agent seeds and random setups derive from it)
    scenario: str = "standard"  # built-in name, "random" (a setup per game), "random:N" or a JSON path
    rules: str = "{}"  # canonical JSON of the rules overrides
    max_actions: int = DEFAULT_MAX_ACTIONS  # a safety stop: a game still going there is an error
    max_turns: int | None = DEFAULT_MAX_TURNS  # D19 revised: a draw after this turn; None: no limit
    adjudication: str = ""  # the adjudication rules (.adjudication), canonical text; "" for none

    def __post_init__(self):
        try:
            object.__setattr__(self, "max_turns", check_max_turns(self.max_turns) or None)
        except ValueError as exc:
            raise ArenaError(str(exc)) from None
        object.__setattr__(self, "adjudication", canonical_adjudication(self.adjudication))

    @functools.cached_property
    def key(self) -> str:
        """Identifies the game in games.jsonl (resume skips the keys already there); computed once."""
        return game_key(
            self.pairing,
            self.technocrat,
            self.ziegler,
            self.scenario,
            self.rules,
            self.index,
            self.seed,
            self.max_turns,
            self.adjudication,
        )

    @property
    def rules_dict(self) -> dict:
        return json.loads(self.rules)

    @classmethod
    def series(cls, pairing: str, technocrat: str, ziegler: str, seeds, **settings) -> list[GameSpec]:
        """The games ``0..len(seeds)-1`` of one pairing and side, game ``i``
        on ``seeds[i]``, the other fields (``scenario``, ``rules``, ...) in
        ``settings``: the same specs as one ``GameSpec(...)`` a game, checked
        once and their keys made in bulk (:class:`SpecSeries`, as a list)."""
        return list(SpecSeries(pairing, technocrat, ziegler, seeds, **settings))


class MadeOnRead(Sequence):
    """A sequence whose items are made when read (``_item(i)``, ``0 <= i <
    len``); a slice gives a list."""

    def _item(self, i: int):
        raise NotImplementedError

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._item(j) for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"{type(self).__name__} index out of range")
        return self._item(i)


class SpecSeries(MadeOnRead):
    """The games ``0..len(seeds)-1`` of one pairing and side (as
    :meth:`GameSpec.series` gives them), each :class:`GameSpec` made when it
    is asked for; :attr:`keys`, the games' keys, made in bulk (a million in
    about half a second).  A planned run of a million games holds its plan
    this way: the specs of the games still to play, not a million objects."""

    def __init__(self, pairing: str, technocrat: str, ziegler: str, seeds, **settings):
        first = GameSpec(pairing, technocrat, ziegler, 0, 0, **settings)  # checks and canonical forms, once
        first.key  # noqa: B018  (the template's attributes in their order: its copies share the class's keys)
        self.template = first.__dict__
        self.group = (pairing, technocrat, ziegler)
        # one array, shared by the series of a plan (game i of every side has one seed), not a list of ints each
        self.seeds = seeds if isinstance(seeds, np.ndarray) and seeds.ndim == 1 else np.array([int(x) for x in seeds])
        head = _key_head(pairing, technocrat, ziegler, first.scenario, canonical_rules(first.rules))
        limit = int(first.max_turns) if first.max_turns else "null"
        after = f",{json.dumps(str(first.adjudication))}]" if first.adjudication else "]"
        self._key_parts = (head, limit, after)
        self._keys: list[str] | None = None

    @property
    def keys(self) -> list[str]:
        """Game ``i``'s key at ``i`` (:func:`game_key`)."""
        if self._keys is None:
            head, limit, after = self._key_parts
            self._keys = [f"{head},{i},{seed},{limit}{after}" for i, seed in enumerate(self.seeds.tolist())]
        return self._keys

    @property
    def key_form(self) -> tuple:
        """What every key of the series shares (the part before the index, the
        turn limit, the adjudication): two series with one form share keys."""
        return self._key_parts

    @property
    def head(self) -> str:
        """The part of every key of the series before the game's index (:func:`game_key`)."""
        return self._key_parts[0]

    def key_at(self, i: int) -> str:
        """Game ``i``'s key, made alone (:attr:`keys` makes them all)."""
        if self._keys is not None:
            return self._keys[i]
        head, limit, after = self._key_parts
        return f"{head},{i},{int(self.seeds[i])},{limit}{after}"

    def __len__(self) -> int:
        return len(self.seeds)

    def _item(self, i: int) -> GameSpec:
        attributes = self.template.copy()
        attributes["index"], attributes["seed"], attributes["key"] = i, int(self.seeds[i]), self.key_at(i)
        spec = object.__new__(GameSpec)
        object.__setattr__(spec, "__dict__", attributes)
        return spec


class Plan(MadeOnRead):
    """The games of a run, series after series (:class:`SpecSeries`): a
    sequence of :class:`GameSpec` made when asked for, its :attr:`keys` and
    :meth:`groups` read without making them."""

    def __init__(self, parts: list[SpecSeries]):
        self.parts = list(parts)
        self._starts = list(accumulate((len(p) for p in self.parts), initial=0))

    @property
    def keys(self) -> list[str]:
        return [key for part in self.parts for key in part.keys]

    def groups(self) -> list[tuple[tuple[str, str, str], int]]:
        """((pairing, Technocrat, Ziegler), games planned) of each series, in order."""
        return [(part.group, len(part)) for part in self.parts]

    def __len__(self) -> int:
        return self._starts[-1]

    def _item(self, i: int) -> GameSpec:
        p = bisect_right(self._starts, i) - 1
        return self.parts[p][i - self._starts[p]]

    def __iter__(self):
        return chain.from_iterable(self.parts)


def spec_keys(specs) -> list[str]:
    """The keys of ``specs`` (a :class:`Plan` or any sequence of specs), in order."""
    return specs.keys if isinstance(specs, Plan) else [spec.key for spec in specs]


def spec_groups(specs) -> list[tuple[tuple[str, str, str], int]]:
    """((pairing, Technocrat, Ziegler), games) of ``specs`` by group, in the order each first appears."""
    counts: dict = {}
    pieces = specs.groups() if isinstance(specs, Plan) else (((s.pairing, s.technocrat, s.ziegler), 1) for s in specs)
    for group, n in pieces:
        counts[group] = counts.get(group, 0) + n
    return list(counts.items())


def pick(specs, flags) -> list[GameSpec]:
    """The specs of ``specs`` whose flag (one a spec) is true, in order."""
    if isinstance(specs, Plan) and not all(flags):
        return [specs[i] for i in compress(range(len(specs)), flags)]
    return list(compress(specs, flags))


def game_key(pairing, technocrat, ziegler, scenario, rules, index, seed, max_turns=None, adjudication="") -> str:
    """A game's key: its pairing, agents, scenario, rules, index, seed and
    turn limit, and its adjudication rules when it has any (a key without
    them is the key the arena has always written)."""
    # the JSON list [pairing, technocrat, ziegler, scenario, rules, index, seed, max_turns(, adjudication)]
    # (sorted keys, no spaces); its head, the same for every game of a side, is made once
    head = _key_head(pairing, technocrat, ziegler, scenario, canonical_rules(rules))
    tail = f"{int(index)},{int(seed)},{int(max_turns) if max_turns else 'null'}"
    if adjudication:
        tail += "," + json.dumps(str(adjudication))
    return f"{head},{tail}]"


@functools.lru_cache(maxsize=4096)
def _key_head(pairing, technocrat, ziegler, scenario, rules: str) -> str:
    fields = [pairing, technocrat, ziegler, scenario, json.loads(rules)]
    return json.dumps(fields, sort_keys=True, separators=(",", ":"))[:-1]


def row_key(row: dict) -> str:
    """The key of a games.jsonl row (a row without ``max_turns``, written before
    D19 was revised, never matches a planned game: it is played again)."""
    if "max_turns" not in row:
        raise KeyError("max_turns")
    return game_key(
        row["pairing"],
        row["technocrat"],
        row["ziegler"],
        row["scenario"],
        row.get("rules") or {},
        row["index"],
        row["seed"],
        row["max_turns"],
        row.get("adjudication") or "",
    )


# ------------------------------------------------------------ scenarios

_RANDOM_SEEDED = re.compile(r"random:([0-9]+)")


@functools.lru_cache(maxsize=64)
def _fixed_scenario(scenario: str, rules: str) -> dict:
    overrides = json.loads(rules)
    m = _RANDOM_SEEDED.fullmatch(scenario)
    if m:
        data = random_setup(random_name_seed(scenario), overrides or None)  # ScenarioError past 4300 digits
    elif scenario == "random":
        raise ArenaError("scenario 'random' draws a setup per game; it has no fixed scenario")
    else:
        data = load_scenario(scenario)
    return with_rules(data, overrides)


def scenario_data(scenario: str, rules: str, seed: int) -> tuple[dict, str]:
    """(the scenario dict of a game, rules overrides merged; its setup name).

    The setup name is ``scenario`` itself except for ``"random"``, where it is
    ``"random:N"`` with N the game's :func:`setup_seed`."""
    rules = canonical_rules(rules)
    if scenario == "random":
        n = setup_seed(seed)
        overrides = json.loads(rules)
        return with_rules(random_setup(n, overrides or None), overrides), f"random:{n}"
    return _fixed_scenario(scenario, rules), scenario


def check_scenario(scenario: str, rules=None) -> None:
    """Raise a clear error now (not in a worker) if the scenario or the rules are bad."""
    rules = canonical_rules(rules)
    try:
        if scenario == "random":
            scenario_data(scenario, rules, 0)
        else:
            data = _fixed_scenario(scenario, rules)
            RulesOptions.from_dict(data.get("rules") or {})
    except ScenarioError as exc:
        raise ArenaError(str(exc)) from None


@functools.lru_cache(maxsize=16)
def _template(scenario: str, rules: str) -> np.ndarray:
    return scenario_to_state(_fixed_scenario(scenario, rules), 0)


def initial_state(spec: GameSpec, data: dict | None = None) -> np.ndarray:
    """The started state (shape (1,)) of a game: what ``Game(scenario, seed)`` starts from.

    ``data``: the game's scenario dict if already at hand (``scenario_data``)."""
    if spec.scenario == "random":
        if data is None:
            data = scenario_data(spec.scenario, spec.rules, spec.seed)[0]
        template = scenario_to_state(data, spec.seed)
    else:
        template = _template(spec.scenario, canonical_rules(spec.rules))
    return start_states(template, int(spec.seed), spec.max_turns)


# ------------------------------------------------------------ the compiled game


@jit
def play_match(s, policy_z, policy_t, rng, actions, n):
    """Play compiled policies from state ``s`` until the game ends or ``actions`` is full.

    ``policy_z`` / ``policy_t`` are the compiled policy ids of the Ziegler and
    the Technocrat (``hotspot.agents.policies``); ``rng[0]`` / ``rng[1]`` their
    generators.  Each action taken is written to ``actions[n], actions[n+1],
    ...``.  Returns ``(n, status)``: the number of actions now in ``actions``
    and 0, or 1 if a policy found no action, or 2 if it chose an illegal one
    (then written at ``actions[n]`` and not applied).
    """
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    ev = np.zeros((0, EV_WIDTH), dtype=np.int32)
    ev_n = np.zeros(1, dtype=np.int32)
    obs, work = new_game_buffers(policy_z, policy_t)
    while s["phase"] != PHASE_OVER and n < actions.shape[0]:
        side = current_player(s)
        policy = policy_t if side == TECHNOCRAT else policy_z
        a = policy_action_buf(policy, s, mask, rng, side, obs, work)
        if a < 0 or a >= NUM_ACTIONS:
            return n, 1
        if action_error(s, a) != OK:
            actions[n] = a
            return n, 2
        apply_action(s, a, ev, ev_n)
        actions[n] = a
        n += 1
    return n, 0


def play_compiled(
    s, policy_z: int, policy_t: int, rng: np.ndarray, max_actions: int = DEFAULT_MAX_ACTIONS
) -> np.ndarray:
    """Play one game to its end in compiled code; returns the actions taken (int32)."""
    buf = np.empty(min(2048, max_actions), dtype=np.int32)
    n = 0
    while True:
        n, status = play_match(s, np.int64(policy_z), np.int64(policy_t), rng, buf, np.int64(n))
        if status == STATUS_NO_ACTION:
            raise ArenaError(f"a compiled policy found no action after {n} actions (policies {policy_z} / {policy_t})")
        if status == STATUS_ILLEGAL:
            raise ArenaError(
                f"a compiled policy chose the illegal action {int(buf[n])} after {n} actions "
                f"(policies {policy_z} / {policy_t})"
            )
        if int(s["phase"]) == PHASE_OVER:
            return buf[:n].copy()
        if n >= max_actions:
            raise ArenaError(f"the game did not end within {max_actions} actions")
        bigger = np.empty(min(2 * buf.shape[0], max_actions), dtype=np.int32)
        bigger[:n] = buf[:n]
        buf = bigger


# ------------------------------------------------------------ one game


def _outcome(s) -> tuple[str | None, bool, int]:
    """(winner side name, or None for a game stopped by max_turns; truncated; turns)."""
    r = int(s["result"])
    w = int(winning_side(s))
    if w >= 0:
        return SIDE_NAMES[w], bool(s["truncated"]), int(s["turn"])
    if r == ONGOING and int(s["phase"]) == PHASE_OVER and s["truncated"]:
        return None, True, int(s["turn"])  # D19 revised: a truncation, no winner: a draw
    raise ArenaError(f"the game has no winner (result {RESULT_NAMES[r] if 0 <= r < len(RESULT_NAMES) else r})")


def _make_side_agents(spec: GameSpec, cache: dict | None = None):
    """(Ziegler agent, Technocrat agent): separate instances even for self-play."""
    out = []
    for side, name in ((ZIEGLER, spec.ziegler), (TECHNOCRAT, spec.technocrat)):
        key = (side, name)
        if cache is not None and key in cache:
            out.append(cache[key])
            continue
        agent = make_agent(name)
        if cache is not None:
            cache[key] = agent
        out.append(agent)
    return tuple(out)


def play_game(spec: GameSpec, agents=None, *, force_python: bool = False) -> GameRow:
    """Play the game ``spec`` and return its row (a JSON-ready dict, actions included).

    ``agents``: (Ziegler agent, Technocrat agent), made from the names in the
    spec if None.  ``force_python`` plays compiled agents through the Python
    path too (the same game, slower: the tests compare the two).  With
    adjudication rules (``spec.adjudication``, :mod:`.adjudication`) the game
    stops where a rule ends it: the Python path asks at each new turn; a
    compiled game is played to its end and cut where the rules would have
    stopped it (the same decisions up to there)."""
    if agents is None:
        agents = _make_side_agents(spec)
    t0 = time.perf_counter()
    seeds = agent_seeds(spec.seed)
    for side, agent in enumerate(agents):
        agent.reset(seeds[side])
    rng = np.array(seeds, dtype=np.uint64)
    policies = [getattr(a, "policy_id", None) for a in agents]
    data = setup = None
    if spec.scenario == "random":
        data, setup = scenario_data(spec.scenario, spec.rules, spec.seed)
    judge = Adjudicator(spec.adjudication) if spec.adjudication else None
    verdict = None
    if not force_python and policies[0] is not None and policies[1] is not None:
        states = initial_state(spec, data)
        start = states.copy()
        actions = play_compiled(states[0], policies[0], policies[1], rng, spec.max_actions).tolist()
        s = states[0]
        path = "compiled"
        if judge is not None:
            verdict, cut = judge.replay(start, actions)
            actions = actions[:cut]
    else:
        game, verdict = _play_python(spec, agents, policies, rng, data, judge)
        actions = game.record.actions
        s = game.s
        path = "python"
    if verdict is None:
        winner, truncated, turns = _outcome(s)
        ended = ENDED_TURN_LIMIT if winner is None else ENDED_RULES
        result = RESULT_NAMES[int(s["result"])]
    else:
        winner, truncated, turns, ended = verdict.winner, verdict.winner is None, verdict.turn, verdict.ended
        result = RESULT_NAMES[ONGOING] if winner is None else f"{winner} wins"
    return make_row(
        spec,
        setup=setup or spec.scenario,
        winner=winner,
        result=result,
        truncated=truncated,
        turns=turns,
        actions=actions,
        wall_s=time.perf_counter() - t0,
        path=path,
        ended=ended,
        judge=None if judge is None else judge.judge,
    )


def _play_python(spec: GameSpec, agents, policies, rng, data=None, judge=None):
    """(the game played through the ``Game`` facade, the adjudicator's verdict or None)."""
    if data is None:
        data, _ = scenario_data(spec.scenario, spec.rules, spec.seed)
    game = Game(data, seed=int(spec.seed), max_turns=spec.max_turns)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    n = 0
    while not game.is_terminal():
        if n >= spec.max_actions:
            raise ArenaError(f"game {spec.key}: did not end within {spec.max_actions} actions")
        if judge is not None:
            verdict = judge.at_state(game.s)
            if verdict is not None:
                return game, verdict
        side = game.current_player()
        agent = agents[side]
        if policies[side] is not None:
            a = int(policy_action(policies[side], game.s, mask, rng, side))
        else:
            a = agent.act(game.observation(side), game.legal_action_mask(), side)
        try:
            game.apply_action(int(a))
        except (IllegalActionError, TypeError) as exc:
            raise ArenaError(f"agent {agent.name!r} ({SIDE_NAMES[side]}) in game {spec.key}: {exc}") from None
        n += 1
    return game, None


def run_task(specs, paths=()) -> list[GameRow]:
    """Play a chunk of games (one task of a worker) and return their rows, in
    order.  ``paths``: directories put on ``sys.path`` first, where a
    ``module:attribute`` agent is looked for (a Ray worker does not inherit
    the driver's ``sys.path``; a forked or spawned one does)."""
    for path in reversed(paths):
        if path not in sys.path:
            sys.path.insert(0, path)
    cache: dict = {}
    return [play_game(spec, _make_side_agents(spec, cache)) for spec in specs]


_helper = None  # the compile helper process that begin_compiling started


def begin_compiling(workers: int) -> None:
    """On a cold numba cache (a fresh install) and ``workers`` > 1: start
    compiling the scripted player's heuristics and the random player in a
    helper process now (:func:`_compile_in_helper`), while this process goes
    on checking the scenario and building the first state; :func:`warm_up`
    compiles the rest of the rules here, joins the helper and links the
    compiled game from the cache.  The two halves are about even, so the
    first run waits about half as long on two cores.  Does nothing when the
    cache is filled, with one worker, or when a helper is running.  The
    helper is a daemon: a run refused before its games ends it with itself."""
    global _helper
    if _helper is not None or not isinstance(workers, int) or workers <= 1 or is_cached(play_match):
        return
    context = pool_context() or multiprocessing.get_context()
    _helper = context.Process(target=_compile_in_helper, daemon=True)
    _helper.start()


def _join_helper() -> None:
    """Wait for the compile helper (what it failed to compile, this process
    compiles when the game needs it)."""
    global _helper
    if _helper is not None:
        _helper.join()
        _helper = None


def warm_up(compiled: bool = True, python: bool = False, workers: int = 1, python_agents=()) -> None:
    """Compile (or load from numba's cache) what the games will run, before
    forking workers: the compiled game, and with ``python`` a compiled policy's
    move on the Python path (on a cold cache with ``workers`` > 1, half of it
    in a helper process: :func:`begin_compiling`); each agent of
    ``python_agents`` (specs of agents driven from Python) makes one decision
    of a game in a phase of play, so that its compiled code is built once
    here rather than in every worker."""
    spec = GameSpec("warm-up", "random", "random", 0, 0)
    rng = np.array(agent_seeds(0), dtype=np.uint64)
    if compiled:
        begin_compiling(workers)
    try:
        states = initial_state(spec)
        if _helper is not None:
            _compile_rules(states[0])
    finally:
        _join_helper()
    if compiled:
        play_compiled(states[0], 0, 0, rng, 64 * 1024)
    if python:
        game = Game(scenario_data(spec.scenario, spec.rules, 0)[0], seed=0, max_turns=spec.max_turns)
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        game.observation(game.current_player())
        policy_action(0, game.s, mask, rng, game.current_player())
        for name in python_agents:
            agent = make_agent(name, seed=0)
            seats = getattr(agent, "seats", (0, 1))  # a one-seat model decides in its own seat
            while game.current_player() not in seats and not game.is_terminal():
                game.apply_action(int(policy_action(0, game.s, mask, rng, game.current_player())))
            side = game.current_player()
            agent.act(game.observation(side), game.legal_action_mask(), side)


def pool_context():
    """The multiprocessing context of worker pools: ``fork`` where there is
    one (Linux), so that the workers share the compiled code the parent
    warmed up; None (the platform's default) elsewhere."""
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return None


def _compile_rules(s) -> None:
    """This process's half of a cold warm-up: the legality check and the
    application of an action, on a copy of the started state ``s`` (its
    first legal action is applied)."""
    s = s.copy()
    ev, ev_n = no_events()
    for a in range(NUM_ACTIONS):
        if action_error(s, a) == OK:
            apply_action(s, a, ev, ev_n)
            break


def _compile_in_helper() -> None:
    """The helper process's half of a cold warm-up (:func:`begin_compiling`):
    the scripted player's heuristics, the random player (the legal set) and
    the information state.  The states are blank ones: what matters is the
    compiled code the calls leave in numba's cache, not what they return."""
    o = np.zeros(1, dtype=STATE_DTYPE)
    o["phase"] = PHASE_OVER
    scripted_decide(o[0], np.zeros(NUM_ACTIONS, dtype=np.bool_), 0, np.ones(1, dtype=np.uint64), 0, *make_work())
    s = empty_states(1)
    s["phase"] = PHASE_Z_CRUSTAL
    random_action(s[0], np.zeros(NUM_ACTIONS, dtype=np.bool_), np.ones(1, dtype=np.uint64), 0)
    observe(s[0], ZIEGLER, True, o[0])


# ------------------------------------------------------------ replay


def unchecked_record(row: dict):
    """The ``GameRecord`` of a games.jsonl row, **unchecked** (the row is trusted:
    the arena's own rows).  ``hotspot.arena.record_from_row`` (``folder``)
    checks the row first: use it for rows read from a file."""
    data, _ = scenario_data(row["scenario"], canonical_rules(row.get("rules")), int(row["seed"]))
    return GameRecord(
        scenario=data,
        seed=int(row["seed"]),
        actions=[int(a) for a in row["actions"]],
        result=row.get("result", ""),
        max_turns=row.get("max_turns"),
    )


def unchecked_replay(row: dict):
    """Replay a trusted row (:func:`unchecked_record`) and check it ends as
    recorded; returns the replayed ``Game``.  ``hotspot.arena.replay_row``
    checks the row first."""
    game = Game.from_record(unchecked_record(row))
    if row.get("ended") in (ENDED_RESIGN, ENDED_NO_PROGRESS):  # adjudicated: stopped at the start of a turn
        if game.is_terminal() or game.turn != row["turns"]:
            raise ArenaError(
                f"game {row.get('key')}: adjudicated ({row['ended']}) at turn {row['turns']}, but the recorded "
                f"actions replay to {'the end of the game' if game.is_terminal() else f'turn {game.turn}'}"
            )
        return game
    if not game.is_terminal():
        raise ArenaError(f"game {row.get('key')}: the recorded actions do not finish the game")
    winner = SIDE_NAMES[game.winner()] if game.winner() >= 0 else None
    if winner != row["winner"] or game.turn != row["turns"] or game.is_truncated() != row["truncated"]:
        raise ArenaError(
            f"game {row.get('key')}: replays to {winner} (turn {game.turn}), "
            f"recorded {row['winner']} (turn {row['turns']})"
        )
    return game
