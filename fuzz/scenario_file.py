"""Target ``scenario_file``: ``load_scenario`` on scenario files as bytes,
``Game`` / ``validate_scenario`` on mutated dicts, scenario names, drawn seeds."""

from __future__ import annotations

import copy
import json

from benchmarks import _common as C

from .contract import ContractError, check, refused, short
from .games import exercise, game_pool
from .harness import target
from .inputs import INTERESTING_INTS, file_bytes, huge_ints, junk_values, mutate_json, picks_strategy, st


def _setup_scenarios(workdir):
    from hotspot import Game
    from hotspot.core.scenario import ScenarioError, random_setup, state_to_scenario

    folder = C.REPO_ROOT / "hotspot" / "scenarios"
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]
    docs += [random_setup(k) for k in range(3)]
    for game in game_pool()[::5]:
        try:
            docs.append(state_to_scenario(game.state))
        except ScenarioError:
            pass
    Game(docs[0])  # compile / load what a scenario game needs
    return {"docs": docs, "path": workdir / "scenario.json"}


def scenario_strategy(ctx):
    s = st()

    @s.composite
    def as_dict(draw):
        return mutate_json(draw, draw(s.sampled_from(ctx["docs"])), json_safe=False)

    seeds = s.one_of(
        s.integers(0, 2**64), s.sampled_from(INTERESTING_INTS), huge_ints(), s.integers(), junk_values(False)
    )
    names = s.one_of(
        s.sampled_from(
            (
                "standard",
                "open",
                "random",
                "random:0",
                "random:",
                "random:-1",
                "random:x",
                "random: 1",
                "random:1.5",
                "nope",
                "",
                "-",
                "hotspot",
                "random:random:1",
                "a\x00b",
                "standard\x00",
                "\x00",
            )
        ),
        s.builds(lambda d: "random:" + d, s.text("0123456789", min_size=1, max_size=30)),
        s.sampled_from((4290, 4301, 5000)).map(lambda n: "random:" + "9" * n),
        s.text("abcdefxyzABZ019_-:", max_size=12),
    )
    return s.tuples(
        s.one_of(
            s.tuples(s.just("file"), file_bytes(ctx["docs"], "hotspot-scenario")),
            s.tuples(s.just("dict"), as_dict()),
            s.tuples(s.just("name"), names),
        ),
        seeds,
        picks_strategy(),
    )


@target(
    "scenario_file",
    "load_scenario on scenario files as bytes (the built-ins, random set-ups and "
    "positions, mutated), Game / validate_scenario on mutated dicts, with drawn seeds: ScenarioError, "
    "or a game that works",
    _setup_scenarios,
    scenario_strategy,
)
def check_scenario(ctx, x):
    from hotspot import Game
    from hotspot.core.scenario import ScenarioError, load_scenario, scenario_to_state, validate_scenario

    (kind, payload), seed, picks = x
    if kind == "file":
        path = ctx["path"]
        path.write_bytes(payload)
        try:
            data = load_scenario(str(path))
        except Exception as exc:  # noqa: BLE001
            label = refused(exc, ScenarioError)
            check(str(path) in str(exc), f"the ScenarioError does not name the file: {exc}")
            return label
    elif kind == "name":
        try:
            data = load_scenario(payload)
        except Exception as exc:  # noqa: BLE001
            return refused(exc, ScenarioError) + " (name)"
    else:
        original = copy.deepcopy(payload) if _deepcopyable(payload) else None
        try:
            data = validate_scenario(payload)
        except Exception as exc:  # noqa: BLE001
            label = refused(exc, ScenarioError)
            if isinstance(payload, dict):  # Game also takes a name or a path (a str): not comparable
                try:
                    Game(payload, seed=0)
                except Exception as exc2:  # noqa: BLE001
                    refused(exc2, ScenarioError)
                else:
                    raise ContractError("Game accepted a scenario dict that validate_scenario refused")
            if original is not None:
                check(_same_json(original, payload), "validate_scenario changed the dict it was given")
            return label + " (dict)"
    check(validate_scenario(data) == data, "a normalized scenario does not normalize to itself")
    try:
        scenario_to_state(data, seed)
    except Exception as exc:  # noqa: BLE001
        label = refused(exc, ScenarioError)
        try:
            Game(data, seed=seed)
        except Exception as exc2:  # noqa: BLE001
            refused(exc2, ScenarioError)
        else:
            raise ContractError(f"Game accepted the seed {short(seed)} that scenario_to_state refused")
        return label + " (seed)"
    game = Game(data, seed=seed)
    exercise(game, picks)
    return "accepted"


def _deepcopyable(x) -> bool:
    try:
        copy.deepcopy(x)
        return True
    except Exception:  # noqa: BLE001
        return False


def _same_json(a, b) -> bool:
    try:
        return repr(a) == repr(b)
    except Exception:  # noqa: BLE001 - e.g. a 5000-digit int: cannot tell, assume the same
        return True
