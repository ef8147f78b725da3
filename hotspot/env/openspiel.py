"""Hot Spot as an OpenSpiel game (the ``openspiel`` extra: ``pip install "hotspot[openspiel]"``).

Importing this module registers ``python_hotspot`` with ``pyspiel``::

    import pyspiel
    import hotspot.env.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("python_hotspot(scenario=open,max_turns=200)")

The game
    Sequential, *sampled stochastic* (the dice come from the generator kept
    in the state, seeded when a game starts: there are no chance nodes),
    imperfect information (D20), zero-sum, terminal rewards (+1 / -1; a game
    stopped by ``max_turns`` has no winner: 0, 0), two players numbered as
    the project numbers the sides: player 0 the Ziegler, player 1 the
    Technocrat (the Ziegler sets up and moves first).  The actions are the
    core's (``NUM_ACTIONS``, 578; ``hotspot.core.actions``).
Parameters
    ``scenario`` (string, default ``open``: a built-in name, ``random:SEED``
    or a path), ``max_turns`` (int, default 200; 0: no limit, the rulebook
    game, D19 revised), ``seed`` (int, default -1: each new game draws a
    fresh dice seed; >= 0: every game starts with that seed), and every
    rules option of ``RulesOptions.describe()`` (D22) under its own name:
    integer options as ints, true/false options as bools, the choices as
    strings, the four tables (``damage_rating``, ``attack``, ``defense``,
    ``movement``) as strings ``key:value;key:value``
    (``attack=technocrat_crawler:4``).  Each option's default is the
    rulebook's value (D1-D22), and an option at that value keeps the
    scenario's own (OpenSpiel hands a game every parameter, defaults
    included, so "not given" cannot be told apart); a table is merged over
    the scenario's own key by key (``balanced`` sets ``defense``).
Information state and observation (D20)
    Both are computed from the core's information state of the side,
    ``observe(s, side, fog=True)``, never from the full state: of an enemy
    stack the side sees the number of counters and the top counter, not the
    enemy's damage, never the dice.  ``information_state_string`` is one
    line: the side, turn, phase, actions so far and a SHA-256 digest of that
    information state (exact and short: a key for tree searches);
    ``observation_string`` is the board as the side sees it
    (``hotspot.core.render.render_text`` of the information state).  The
    tensors (both the same) are the environments' ``"full"`` observation
    (``hotspot.features.encoding.encode``): ``board`` (19, 21, 15),
    ``units`` (96, 10), ``pieces`` (32, 15) and ``globals`` (33,), 7,458
    floats, not normalised.  The information state is what the side knows
    *now* (the project's information state, which its own agents act from),
    not the history of everything it has seen: a stack it saw and lost sight
    of is hidden again.  Observers of ``private_info=ALL_PLAYERS`` see the
    full state; ``private_info=NONE`` (public information only) is not
    provided.
Serialization
    ``pyspiel.serialize_game_and_state`` / ``deserialize_game_and_state``
    (and ``state.serialize()``, ``game.deserialize_state``) carry the
    state's game record (``hotspot.GameRecord``: scenario, seed, actions;
    ``state.record()``), which is replayed on deserialization.
Resampling
    ``state.resample_from_infostate(player, sampler)`` returns a playable
    state consistent with ``player``'s information state, drawn by the
    project's determinization (``hotspot.agents.beliefs.determinize``: hidden
    counters, squads and damage sampled, a fresh dice seed), the sampler
    (``pyspiel.UniformProbabilitySampler`` or any callable returning floats
    in [0, 1)) seeding the draw.  OpenSpiel's ``ISMCTSBot`` calls it.  Note
    that ``MCTSBot`` searches the state it is given: on a real game state it
    sees the hidden counters and, through the generator in the state, the
    dice to come; the arena's ``openspiel-mcts`` gives it a determinization
    of its information state instead.

The arena's agents ``openspiel-ismcts`` and ``openspiel-mcts``
(:class:`OpenSpielISMCTSAgent`, :class:`OpenSpielMCTSAgent`) run OpenSpiel's
own bots for one decision from the information state they are given
(``Agent.act``): the bot's root is a determinization of that information
state, so nothing hidden reaches it.
"""

from __future__ import annotations

import base64
import hashlib
import time

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(
        'hotspot.env.openspiel needs OpenSpiel: pip install "hotspot[openspiel]" (or pip install open_spiel)'
    ) from exc
from open_spiel.python.algorithms.mcts import Evaluator, RandomRolloutEvaluator

from hotspot.agents.base import Agent, checked_act_arguments
from hotspot.agents.beliefs import DMG_P0, PRIOR_FORCES, SQUAD_PROBS, determinize
from hotspot.core.actions import NUM_ACTIONS
from hotspot.core.game import Game
from hotspot.core.observation import observe
from hotspot.core.record import GameRecord
from hotspot.core.render import render_text
from hotspot.core.rollout import play_random_one
from hotspot.core.rules_data import PHASE_LETTERS, SIDE_NAMES, RulesOptions
from hotspot.core.scenario import with_rules
from hotspot.core.state import STATE_DTYPE
from hotspot.core.victory import side_return
from hotspot.features.encoding import encode, observation_shapes

__all__ = [
    "CompiledRandomRolloutEvaluator",
    "GAME_TYPE",
    "HotspotGame",
    "HotspotObserver",
    "HotspotState",
    "OpenSpielISMCTSAgent",
    "OpenSpielMCTSAgent",
    "SHORT_NAME",
    "deserialize_game_and_state",
    "rules_parameters",
    "serialize_game_and_state",
]

SHORT_NAME = "python_hotspot"
NUM_PLAYERS = 2
#: a bound on the atomic actions of one turn (set-up included: about 400 in the
#: open scenario; the grammar cannot loop, R4.2), for ``max_game_length``
ACTIONS_PER_TURN_BOUND = 5_000
#: a safety stop of a compiled random rollout (the grammar cannot loop, R4.2; a game with
#: no turn limit may still last long)
MAX_ROLLOUT_ACTIONS = 200_000
#: the turns a game with no limit is assumed to last at most, for ``max_game_length``
#: (the largest ``max_turns`` the core takes)
NO_LIMIT_TURNS = 10_000
_TABLE_OPTIONS = ("damage_rating", "attack", "defense", "movement")


def _rules_specification() -> dict:
    """Every rules option as a game parameter, with the rulebook's value as its default."""
    spec = {}
    for name, value in RulesOptions().to_dict().items():
        spec[name] = "" if isinstance(value, dict) else value
    return spec


PARAMETER_SPECIFICATION = {"scenario": "open", "max_turns": 200, "seed": -1, **_rules_specification()}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Hot Spot",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=NUM_PLAYERS,
    min_num_players=NUM_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETER_SPECIFICATION,
)


def _parse_table(name: str, text: str) -> dict:
    table = {}
    for item in filter(None, (part.strip() for part in text.split(";"))):
        key, sep, value = item.partition(":")
        try:
            if not sep:
                raise ValueError
            table[key.strip()] = int(value)
        except ValueError:
            raise ValueError(
                f"{SHORT_NAME}: parameter {name}={text!r} must be 'key:integer;key:integer' (e.g. technocrat_crawler:4)"
            ) from None
    return table


def rules_parameters(params: dict, scenario_rules: dict | None = None) -> dict:
    """The rules overrides that the game parameters ``params`` give: each
    option whose value is not the rulebook's (OpenSpiel hands the game every
    parameter, the defaults included, so an option at the rulebook's value
    keeps the scenario's own), and each table (``key:value;...``, empty by
    default) merged over ``scenario_rules``' own key by key."""
    rules = {}
    for name, rulebook in RulesOptions().to_dict().items():
        if name not in params:
            continue
        value = params[name]
        if name not in _TABLE_OPTIONS and value == rulebook:
            continue  # OpenSpiel passes every parameter, defaults too: the rulebook's value keeps the scenario's
        if name in _TABLE_OPTIONS:
            if not isinstance(value, str):
                raise ValueError(f"{SHORT_NAME}: parameter {name} is a string 'key:integer;...', got {value!r}")
            table = dict((scenario_rules or {}).get(name) or {})
            table.update(_parse_table(name, value))
            rules[name] = table
        else:
            rules[name] = value
    RulesOptions.from_dict(rules)  # a wrong value is refused here, naming it
    return rules


def _game_info(max_turns: int) -> pyspiel.GameInfo:
    turns = max_turns if max_turns > 0 else NO_LIMIT_TURNS
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=0,
        num_players=NUM_PLAYERS,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=ACTIONS_PER_TURN_BOUND * (turns + 1),
    )


class HotspotGame(pyspiel.Game):
    """``python_hotspot``: Hot Spot for OpenSpiel (see the module docstring)."""

    def __init__(self, params=None):
        params = dict(params or {})
        unknown = set(params) - set(PARAMETER_SPECIFICATION)
        if unknown:
            raise ValueError(f"{SHORT_NAME}: unknown parameters {sorted(unknown)}")
        scenario = params.get("scenario", PARAMETER_SPECIFICATION["scenario"])
        max_turns = int(params.get("max_turns", PARAMETER_SPECIFICATION["max_turns"]))
        seed = int(params.get("seed", PARAMETER_SPECIFICATION["seed"]))
        if max_turns < 0:
            raise ValueError(f"{SHORT_NAME}: max_turns must be >= 0 (0: no limit), got {max_turns}")
        if seed < -1:
            raise ValueError(f"{SHORT_NAME}: seed must be >= 0, or -1 (a fresh seed each game), got {seed}")
        data = with_rules(scenario)
        rules = rules_parameters(params, data.get("rules"))
        self.scenario = with_rules(data, rules) if rules else data
        self.max_turns = max_turns or None
        self.seed = seed
        self._seeds = np.random.default_rng()  # fresh dice seeds when ``seed`` is -1
        Game(self.scenario, seed=0, max_turns=self.max_turns)  # a bad scenario is refused here
        super().__init__(GAME_TYPE, _game_info(max_turns), params)

    def new_initial_state(self):
        """A new game: dice seeded with ``seed``, or a fresh seed if it is -1."""
        return HotspotState(self, self._next_seed())

    def _next_seed(self) -> int:
        return self.seed if self.seed >= 0 else int(self._seeds.integers(0, 2**62))

    def new_game(self, seed: int) -> Game:
        """The ``hotspot.Game`` that a state of this game with dice seed ``seed`` starts from."""
        return Game(self.scenario, seed=seed, max_turns=self.max_turns)

    def state_from_game(self, game: Game) -> "HotspotState":
        """A state of this game holding (a copy of) ``game``."""
        state = HotspotState(self, 0)
        state._held = _Held(game.clone())
        return state

    def state_from_information_state(self, info_state, side: int, seed: int = 0) -> "HotspotState":
        """A playable state consistent with ``info_state``, the information state
        of ``side`` (``Game.observation(side)``): a determinization of it
        (``hotspot.agents.beliefs.determinize``) with generator seed ``seed``.
        Its information state for ``side`` is ``info_state`` again, so that
        ``resample_from_infostate`` draws from ``info_state`` only."""
        o = np.asarray(info_state).reshape(-1)
        if o.dtype != STATE_DTYPE or o.shape != (1,):
            raise TypeError("info_state must be one state record (Game.observation(side))")
        return self.state_from_game(_determinized_game(o[0], side, seed))

    def make_py_observer(self, iig_obs_type=None, params=None):
        """An observer of ``iig_obs_type`` (OpenSpiel's observer API)."""
        return HotspotObserver(iig_obs_type, params)


class _Held:
    """The ``hotspot.Game`` a state wraps.  ``copy.deepcopy`` (OpenSpiel's
    ``clone``) copies the arrays and the record's actions, sharing the
    scenario; pickling (OpenSpiel's ``serialize``) keeps the game record,
    which unpickling replays (``Game.from_record``)."""

    __slots__ = ("game",)

    def __init__(self, game: Game):
        self.game = game

    def __deepcopy__(self, memo):
        return _Held(self.game.clone())

    def __reduce__(self):
        return (_held_from_record, (self.game.record.to_dict(),))


def _held_from_record(data: dict) -> _Held:
    return _Held(Game.from_record(GameRecord.from_dict(data)))


def _determinized_game(o, side: int, seed: int) -> Game:
    """A ``hotspot.Game`` holding a determinization of information state ``o`` of ``side``."""
    rng = np.array([int(seed) & ((1 << 64) - 1)], dtype=np.uint64)
    d = np.zeros(1, dtype=STATE_DTYPE)
    determinize(o, int(side), d[0], rng, PRIOR_FORCES, SQUAD_PROBS, DMG_P0)
    initial = base64.b64encode(d.tobytes()).decode("ascii")
    return Game(_state=d, _record=GameRecord(None, 0, [], initial_state=initial))


def _sampler_seed(probability_sampler) -> int:
    """A 64-bit seed from two draws of ``probability_sampler`` (floats in [0, 1))."""
    if probability_sampler is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    hi = int(float(probability_sampler()) * 2**32) & 0xFFFFFFFF
    lo = int(float(probability_sampler()) * 2**32) & 0xFFFFFFFF
    return (hi << 32) | lo


class HotspotState(pyspiel.State):
    """A state of ``python_hotspot``: wraps one ``hotspot.Game`` (``state.game``)."""

    def __init__(self, game: HotspotGame, seed: int = 0):
        super().__init__(game)
        self._seed = int(seed)
        self._held = None  # the hotspot.Game, made when first needed (a clone replaces it at once)

    # ------------------------------------------------------------ the wrapped game
    @property
    def game(self) -> Game:
        """The ``hotspot.Game`` of this state (do not apply actions to it directly)."""
        if self._held is None:
            self._held = _Held(self.get_game().new_game(self._seed))
        return self._held.game

    @property
    def s(self):
        return self.game.s

    def record(self) -> GameRecord:
        """The game record (scenario, seed, actions) this state replays from."""
        return self.game.record

    # ------------------------------------------------------------ OpenSpiel's API
    def current_player(self):
        p = self.game.current_player()
        return pyspiel.PlayerId.TERMINAL if p < 0 else p

    def _legal_actions(self, player):
        return self.game.legal_actions().tolist()

    def _apply_action(self, action):
        self.game.apply_action(int(action))

    def _action_to_string(self, player, action):
        return self.game.action_to_string(int(action))

    def is_terminal(self):
        return self.game.is_terminal()

    def returns(self):
        return [float(r) for r in self.game.returns()]

    def __str__(self):
        return self.game.render()

    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state consistent with ``player_id``'s information state (D20),
        drawn by the project's determinization (``agents.beliefs``), seeded
        from ``probability_sampler``; its history is this state's."""
        o = np.zeros(1, dtype=STATE_DTYPE)
        observe(self.s, int(player_id), True, o[0])
        state = self.clone()
        state._held = _Held(_determinized_game(o[0], int(player_id), _sampler_seed(probability_sampler)))
        return state


class HotspotObserver:
    """OpenSpiel's observer API for ``python_hotspot`` (``tensor``, ``dict``,
    ``set_from``, ``string_from``): the side's information state (D20), or
    the full state for ``private_info=ALL_PLAYERS``."""

    def __init__(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"{SHORT_NAME}: observation parameters are not supported, got {params}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.NONE:
            raise ValueError(
                f"{SHORT_NAME}: public-only observations (private_info=NONE) are not provided; "
                f"use SINGLE_PLAYER (the side's information state, D20) or ALL_PLAYERS"
            )
        self.fog = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        shapes = observation_shapes()
        self._encoded = {name: np.zeros(shape, dtype) for name, (shape, dtype) in shapes.items()}
        self._scratch = np.zeros(1, dtype=STATE_DTYPE)
        self._seen = np.zeros(1, dtype=STATE_DTYPE)
        size = sum(int(np.prod(shape)) for shape, _ in shapes.values())
        self.tensor = np.zeros(size, np.float32)
        self.dict = {}
        index = 0
        for name, (shape, _) in shapes.items():
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[index : index + n].reshape(shape)
            index += n

    def set_from(self, state, player):
        e = self._encoded
        encode(
            state.s, int(player), self.fog, True, self._scratch[0], e["board"], e["units"], e["pieces"], e["globals"]
        )
        for name, view in self.dict.items():
            view[...] = e[name]

    def string_from(self, state, player):
        observe(state.s, int(player), self.fog, self._seen[0])
        o = self._seen[0]
        if not self.perfect_recall:
            return render_text(self._seen)
        digest = hashlib.sha256(self._seen.tobytes()).hexdigest()
        return (
            f"{SIDE_NAMES[int(player)]} (player {int(player)}) turn {int(o['turn'])} phase "
            f"{PHASE_LETTERS[int(o['phase'])]} actions {int(o['n_actions'])} sees {digest}"
        )


pyspiel.register_game(GAME_TYPE, HotspotGame)


def serialize_game_and_state(game: HotspotGame, state: HotspotState) -> str:
    """``pyspiel.serialize_game_and_state`` for ``python_hotspot``: the game
    string, a line break, ``state.serialize()`` (the state's game record).
    OpenSpiel's own serializes a sampled-stochastic game's random generator
    (``Game::GetRNGState``), which a game written in Python cannot provide
    (OpenSpiel 1.5-2.0), so it raises ``SpielError`` here."""
    return f"{game}\n{state.serialize()}"


def deserialize_game_and_state(text: str) -> tuple[HotspotGame, HotspotState]:
    """The ``(game, state)`` that :func:`serialize_game_and_state` wrote."""
    game_string, sep, state_text = text.partition("\n")
    if not sep:
        raise ValueError("not a serialized python_hotspot game and state: no line break after the game string")
    game = pyspiel.load_game(game_string)
    return game, game.deserialize_state(state_text)


# ------------------------------------------------------------------ arena agents

#: the arena agents' simulations a decision by default (their parameters, with ranges, are
#: declared where they are registered: ``hotspot.agents.registry``)
DEFAULT_ITERATIONS = 16
#: the iteration cap of a search given ``think_ms`` and no ``iterations``
THINK_ITERATIONS = 1_000_000


class _OutOfTime(Exception):
    pass


class CompiledRandomRolloutEvaluator(Evaluator):
    """OpenSpiel's ``RandomRolloutEvaluator`` (the mean returns of
    ``n_rollouts`` games played on by uniformly random legal actions to their
    end; uniform priors) with the play-outs in the core's compiled code
    (``hotspot.core.rollout.play_random_one``) instead of through
    ``pyspiel``: the same evaluation, some hundred times faster.  It plays
    out the state it is given: in ISMCTS a determinization, never the true
    state."""

    def __init__(self, n_rollouts: int = 1, random_state=None):
        self.n_rollouts = int(n_rollouts)
        self._random_state = random_state or np.random.RandomState()

    def evaluate(self, state):
        total = np.zeros(NUM_PLAYERS)
        for _ in range(self.n_rollouts):
            s = state.game.state.copy()
            rng = np.array([self._random_state.randint(0, 2**62, dtype=np.int64)], dtype=np.uint64)
            play_random_one(s[0], rng, 0, MAX_ROLLOUT_ACTIONS)
            total += (side_return(s[0], 0), side_return(s[0], 1))
        return total / self.n_rollouts

    def prior(self, state):
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class _OpenSpielAgent(Agent):
    """An arena agent that runs one of OpenSpiel's bots for each decision on a
    ``python_hotspot`` state built from its information state (D20)."""

    def __init__(self, iterations: int, uct_c: float, rollouts: int, rollout: str, seed: int | None):
        if rollout not in ("compiled", "python"):
            raise ValueError(f"rollout must be 'compiled' or 'python', got {rollout!r}")
        self.iterations = int(iterations)
        self.uct_c = float(uct_c)
        self.rollouts = int(rollouts)
        self.rollout = rollout
        self._game = pyspiel.load_game(SHORT_NAME)
        self.policy_id = None
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint32)[0])
        self._random = np.random.RandomState(int(seed) & 0xFFFFFFFF)
        evaluator = CompiledRandomRolloutEvaluator if self.rollout == "compiled" else RandomRolloutEvaluator
        self._evaluator = evaluator(n_rollouts=self.rollouts, random_state=self._random)
        self._bot = self._make_bot()

    def _root(self, info_state, side):
        return self._game.state_from_information_state(info_state, side, self._random.randint(0, 2**62, dtype=np.int64))

    def act(self, info_state, mask, side) -> int:
        o, m = checked_act_arguments(info_state, mask, side)
        legal = np.flatnonzero(m)
        if legal.size == 1:
            return int(legal[0])
        state = self._root(o, int(side))
        if state.legal_actions() != legal.tolist():  # cannot happen: the mask is the information state's
            raise RuntimeError("the determinized state's legal actions differ from the mask")
        a = int(self._search(state))
        if not m[a]:
            raise RuntimeError(f"the bot chose the illegal action {a}")
        return a


class OpenSpielISMCTSAgent(_OpenSpielAgent):
    """OpenSpiel's ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``,
    unmodified; UCT, most visits, random rollouts) for one
    decision, from the side's information state: the root is a
    determinization of it and every simulation resamples from it
    (``resample_from_infostate``, the project's determinization).

    Args:
        iterations: simulations a decision (``max_simulations``).
        think_ms: a time budget a decision in milliseconds (0: none): the
            search stops after the first simulation that ends past it (at
            least two simulations, the fewest that give the root a visited
            child) or at ``iterations``, whichever comes first; given
            ``think_ms`` and no ``iterations`` the cap is
            :data:`THINK_ITERATIONS`.  The bot's loop is not changed: the
            resampler it calls stops it.
        uct_c: UCT's exploration constant.
        rollouts: random rollouts a leaf.
        rollout: ``"compiled"`` (:class:`CompiledRandomRolloutEvaluator`,
            the default) or ``"python"`` (OpenSpiel's
            ``RandomRolloutEvaluator``, through ``pyspiel``): the same
            uniformly random play-outs to the end of the game.
        seed: the agent's own randomness (equal seeds and no time budget:
            equal play).
    """

    name = "openspiel-ismcts"

    def __init__(
        self,
        iterations: int | None = None,
        think_ms: int = 0,
        uct_c: float = 2.0,
        rollouts: int = 1,
        rollout: str = "compiled",
        seed: int | None = None,
    ):
        self.think_ms = int(think_ms or 0)
        if iterations is None:
            iterations = THINK_ITERATIONS if self.think_ms else DEFAULT_ITERATIONS
        self._deadline = None
        self._samples = 0
        super().__init__(iterations, uct_c, rollouts, rollout, seed)

    def _make_bot(self):
        from open_spiel.python.algorithms.ismcts import ISMCTSBot

        bot = ISMCTSBot(self._game, self._evaluator, self.uct_c, self.iterations, random_state=self._random)
        bot.set_resampler(self._resample)
        return bot

    def _resample(self, state, player):
        if self._deadline is not None and self._samples >= 2 and time.perf_counter() >= self._deadline:
            raise _OutOfTime
        self._samples += 1
        return state.resample_from_infostate(player, self._random.random_sample)

    def _search(self, state):
        self._samples = 0
        self._deadline = time.perf_counter() + self.think_ms / 1000.0 if self.think_ms else None
        try:
            policy = self._bot.run_search(state)
        except _OutOfTime:
            policy = self._bot.get_final_policy(state, self._bot._root_node)
        finally:
            self._deadline = None
        actions, probs = zip(*policy, strict=True)
        return actions[self._random.choice(len(actions), p=np.asarray(probs) / np.sum(probs))]

    def __repr__(self) -> str:
        return (
            f"OpenSpielISMCTSAgent(iterations={self.iterations}, think_ms={self.think_ms}, "
            f"uct_c={self.uct_c}, rollouts={self.rollouts}, rollout={self.rollout!r})"
        )


class OpenSpielMCTSAgent(_OpenSpielAgent):
    """OpenSpiel's ``MCTSBot`` (``open_spiel.python.algorithms.mcts``,
    unmodified; UCT, random rollouts) for one decision, on one
    determinization of the side's information state (a perfect-information
    search of a sampled world: determinized MCTS).

    Args:
        iterations: simulations a decision (``max_simulations``).
        uct_c: UCT's exploration constant.
        rollouts: random rollouts a leaf.
        rollout: ``"compiled"`` or ``"python"``, as for :class:`OpenSpielISMCTSAgent`.
        seed: the agent's own randomness.
    """

    name = "openspiel-mcts"

    def __init__(
        self,
        iterations: int = DEFAULT_ITERATIONS,
        uct_c: float = 2.0,
        rollouts: int = 1,
        rollout: str = "compiled",
        seed: int | None = None,
    ):
        super().__init__(iterations, uct_c, rollouts, rollout, seed)

    def _make_bot(self):
        from open_spiel.python.algorithms.mcts import MCTSBot

        return MCTSBot(self._game, self.uct_c, self.iterations, self._evaluator, random_state=self._random, solve=True)

    def _search(self, state):
        return self._bot.step(state)

    def __repr__(self) -> str:
        return (
            f"OpenSpielMCTSAgent(iterations={self.iterations}, uct_c={self.uct_c}, rollouts={self.rollouts}, "
            f"rollout={self.rollout!r})"
        )
