"""Any agent by name (docs/evaluate.md): a factory in the user's own module
(``module:attribute``), installed plugins (the ``hotspot.agents`` entry
points), a function ``(observation, mask) -> action`` through
``PolicyAgent``, and a Stable-Baselines3 model file (``sb3(path=...)``);
each named wherever an agent is named, loaded in every worker process, with
a one-line error for a bad name, and never named by a web request or a
saved game (a module or a model file runs code)."""

import json
import multiprocessing
import subprocess
import sys
import textwrap
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from hotspot.agents import PolicyAgent, registry
from hotspot.agents.registry import (
    CodeNotAllowedError,
    UnknownAgentError,
    available_agents,
    canonical_agent,
    is_available,
    make_agent,
)
from hotspot.agents.specs import SpecError, parse_spec
from hotspot.arena import ArenaError
from hotspot.arena.tournament import parse_pairings, run_arena
from hotspot.core.actions import legal_action_mask
from hotspot.core.game import Game
from hotspot.core.observation import observe
from hotspot.core.state import STATE_DTYPE
from hotspot.env import HotspotEnv
from hotspot.features.observations import OBSERVATION_MODES
from hotspot.human.session import Session, SessionError
from hotspot.human.web import WebApp

BOTS = '''
import numpy as np
from hotspot.agents import Agent, PolicyAgent
from hotspot.agents.specs import Param


class FirstLegal(Agent):
    """The legal action at position ``offset`` of the legal list."""

    name = "first"

    def __init__(self, seed=None, offset: int = 0, greedy: bool = False, label: str = "x"):
        self.offset = offset

    def act(self, info_state, mask, side):
        legal = np.flatnonzero(mask)
        return int(legal[self.offset % len(legal)])


def last_legal(seed=None):
    return PolicyAgent(lambda obs, mask: int(np.flatnonzero(mask)[-1]), observation="flat")


def declared(seed=None, depth=1):
    return FirstLegal(seed, offset=depth)


declared.SPEC_PARAMS = {"depth": Param("int", 1, 0, 5)}


def not_an_agent(seed=None):
    return 42


def broken(seed=None):
    raise RuntimeError("the model file is missing")


NOT_CALLABLE = 3
'''


@pytest.fixture()
def bots(tmp_path, monkeypatch):
    """A module of the user's own, ``bots_<n>``, in a fresh current directory (as ``python -m`` finds it)."""
    name = f"bots_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(BOTS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".")])
    return name


def test_module_attribute_specs_parse_and_keep_one_spelling(bots):
    """``module:attribute`` (the entry points' form) names a factory; its
    parameters are its keyword arguments typed by their defaults, or its
    ``SPEC_PARAMS``; the canonical spelling drops defaults and sorts keys."""
    assert parse_spec("a.b:C(x=1)") == ("a.b:C", {"x": 1})
    assert canonical_agent(f"{bots}:FirstLegal") == f"{bots}:FirstLegal"
    assert canonical_agent(f"{bots}:FirstLegal(offset=0)") == f"{bots}:FirstLegal"
    assert canonical_agent(f"{bots}:FirstLegal(label=y, offset=2)") == f"{bots}:FirstLegal(label=y,offset=2)"
    agent = make_agent(f"{bots}:FirstLegal(offset=3)", seed=1)
    assert agent.offset == 3 and agent.spec == f"{bots}:FirstLegal(offset=3)"
    assert make_agent(f"{bots}:declared(depth=2)").offset == 2
    assert isinstance(make_agent(f"{bots}:last_legal"), PolicyAgent)


@pytest.mark.parametrize(
    "spec, words",
    [
        ("nosuchmodule_xyz:Agent", ["no module named 'nosuchmodule_xyz'"]),
        ("{bots}:Nope", ["has no attribute 'Nope'"]),
        ("{bots}:NOT_CALLABLE", ["not a class or factory"]),
        ("{bots}:FirstLegal(offset=1.5)", ["not an integer"]),
        ("{bots}:FirstLegal(colour=red)", ["has no parameter 'colour'", "offset=int"]),
        ("{bots}:declared(depth=9)", ["out of range 0..5"]),
        ("{bots}:not_an_agent", ["returned a int, not a hotspot.agents.Agent", "PolicyAgent"]),
        ("{bots}:broken", ["RuntimeError: the model file is missing"]),
        ("{bots}:FirstLegal:x", ["not an agent name"]),
        ("sb3", ["needs path=", "path=PATH (required)"]),
        ("sb3(path=no/such/model.zip)", ["no such model file"]),
    ],
)
def test_a_bad_name_is_one_line_naming_what_is_wrong(bots, spec, words):
    with pytest.raises(SpecError) as exc:
        make_agent(spec.format(bots=bots))
    text = str(exc.value)
    assert "\n" not in text
    for word in words:
        assert word in text, text


def test_a_file_that_is_not_a_model_is_refused_in_one_line(tmp_path):
    (tmp_path / "notes.zip").write_text("not a zip")
    with pytest.raises(SpecError, match="not a Stable-Baselines3 model"):
        make_agent(f"sb3(path={tmp_path / 'notes.zip'})")


def test_pairings_take_a_colon_or_vs(bots):
    """``A:B`` stays the pairing of registered agents; a ``module:attribute``
    agent has a colon of its own, so its pairing is written ``A vs B``; more
    than one colon without ``vs`` is refused with that advice."""
    assert parse_pairings("random:scripted,'ismcts(iterations=4)':random".replace("'", "")) == [
        ("random", "scripted"),
        ("ismcts(iterations=4)", "random"),
    ]
    assert parse_pairings(f"{bots}:FirstLegal vs scripted,random vs {bots}:last_legal") == [
        (f"{bots}:FirstLegal", "scripted"),
        ("random", f"{bots}:last_legal"),
    ]
    assert parse_pairings(f"{bots}:FirstLegal(offset=1) vs {bots}:declared") == [
        (f"{bots}:FirstLegal(offset=1)", f"{bots}:declared")
    ]
    with pytest.raises(ArenaError, match="write it TECHNOCRAT vs ZIEGLER"):
        parse_pairings(f"{bots}:FirstLegal:scripted")
    with pytest.raises(ArenaError, match="expected TECHNOCRAT:ZIEGLER"):
        parse_pairings("random vs ")


def _make_in_child(spec):
    agent = make_agent(spec, seed=0)
    return type(agent).__name__, agent.spec


def test_a_module_agent_loads_in_spawned_workers(bots):
    """A spawned worker (macOS, Windows) imports the user's module by its
    spec: the current directory is on the path the worker inherits."""
    canonical_agent(f"{bots}:FirstLegal")  # the parent resolves it first, as every command does
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        assert pool.submit(_make_in_child, f"{bots}:FirstLegal(offset=2)").result(timeout=120) == (
            "FirstLegal",
            f"{bots}:FirstLegal(offset=2)",
        )


def test_the_arena_plays_a_module_agent_with_two_workers(bots, tmp_path):
    """``hotspot arena --pairings "bots:X vs scripted" --workers 2``: the
    forked workers play it, its rows keep its canonical spec."""
    summary = run_arena(
        pairings=[(f"{bots}:FirstLegal(offset=1)", "random"), ("random", f"{bots}:last_legal")],
        games=2,
        scenario="standard",
        max_turns=2,
        out=tmp_path / "arena",
        workers=2,
        progress=False,
    )
    rows = summary["result"].rows
    assert len(rows) == 8
    assert {r["technocrat"] for r in rows} >= {f"{bots}:FirstLegal(offset=1)", f"{bots}:last_legal"}


@pytest.mark.slow
def test_ray_workers_find_the_module(bots, tmp_path):
    """A Ray worker does not inherit the driver's ``sys.path``: the task
    carries it, so a module agent plays there too."""
    pytest.importorskip("ray")
    summary = run_arena(
        pairings=[(f"{bots}:FirstLegal", "random")],
        games=1,
        scenario="standard",
        max_turns=1,
        out=tmp_path / "ray",
        backend="ray",
        workers=1,
        progress=False,
    )
    assert len(summary["result"].rows) == 2


def test_an_installed_plugin_is_an_agent_name(tmp_path, monkeypatch):
    """A package that declares ``[project.entry-points."hotspot.agents"]``
    ``greedy = "module:attr"`` makes ``greedy`` an agent like ``scripted``."""
    pkg = tmp_path / "site"
    pkg.mkdir()
    (pkg / "plugbots.py").write_text(BOTS, encoding="utf-8")
    dist = pkg / "plugbots-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: plugbots\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[hotspot.agents]\nplug-first = plugbots:FirstLegal\n")
    monkeypatch.syspath_prepend(str(pkg))
    monkeypatch.setattr(registry, "_plugins_loaded", False)
    try:
        assert "plug-first" in available_agents()
        assert "plugbots" in registry.registered_agents()["plug-first"]
        assert make_agent("plug-first(offset=2)").offset == 2
        # a registered name: a request may name it (it is installed code, not a module path)
        assert is_available("plug-first", allow_code=False)
    finally:
        registry.unregister_agent("plug-first")


def _info_state(env):
    o = np.zeros(1, dtype=STATE_DTYPE)
    observe(env.unwrapped.state, env.unwrapped.side, True, o[0])
    return o


@pytest.mark.parametrize("mode", OBSERVATION_MODES)
def test_policy_agent_sees_what_the_env_returns(mode):
    """``PolicyAgent`` builds its observation with the envs' own function:
    at every decision of an episode it equals the env's observation."""
    env = HotspotEnv(side="technocrat", opponent="scripted", scenario="open", observation=mode, max_turns=2)
    seen = []
    agent = PolicyAgent(lambda obs, mask: seen.append(obs) or int(np.flatnonzero(mask)[0]), observation=mode)
    obs, info = env.reset(seed=5)
    for _ in range(60):
        a = agent.act(_info_state(env), info["action_mask"], env.unwrapped.side)
        if isinstance(obs, dict):
            assert set(obs) == set(seen[-1]) and all(np.array_equal(obs[k], seen[-1][k]) for k in obs)
        else:
            assert np.array_equal(obs, seen[-1])
        obs, _, terminated, truncated, info = env.step(a)
        if terminated or truncated:
            break
    assert len(seen) > 10


def test_policy_agent_refuses_an_illegal_choice_by_name():
    game = Game("standard", seed=1)
    side = game.current_player()
    mask = game.legal_action_mask()
    bad = int(np.flatnonzero(~mask)[0])
    agent = PolicyAgent(lambda obs, m: bad, observation="compact", name="mine")
    with pytest.raises(ValueError, match=f"mine: the policy chose action {bad}, which is not legal"):
        agent.act(game.observation(side), mask, side)
    with pytest.raises(ValueError, match="not one action index"):
        PolicyAgent(lambda obs, m: 1.5).act(game.observation(side), mask, side)
    with pytest.raises(ValueError, match="observation must be one of"):
        PolicyAgent(lambda obs, m: 0, observation="pixels")


def test_policy_agent_plays_its_set_up_by_the_scripted_plan_when_asked():
    game = Game("open", seed=2)
    calls = []
    agent = PolicyAgent(lambda obs, m: calls.append(1) or int(np.flatnonzero(m)[0]), setup="scripted")
    side = game.current_player()
    agent.act(game.observation(side), game.legal_action_mask(), side)  # a set-up decision (3.2)
    assert calls == []


# ------------------------------------------------------------ code only from the command line


def test_allow_code_false_refuses_modules_and_files_before_importing(bots):
    """Where only registered agents may be named (a web request, a saved
    game), a module or a model file is refused before anything is imported
    or read; registered names and their specs pass."""
    with pytest.raises(CodeNotAllowedError, match="runs the module's code"):
        make_agent(f"{bots}:FirstLegal", allow_code=False)
    assert bots not in sys.modules
    with pytest.raises(CodeNotAllowedError, match="names a file"):
        make_agent("sb3(path=model.zip)", allow_code=False)
    assert make_agent("ismcts(iterations=2)", allow_code=False).spec == "ismcts(iterations=2)"
    assert not is_available(f"{bots}:FirstLegal", allow_code=False)


def test_the_web_app_never_takes_a_module_or_a_file(bots):
    """``/api/new`` and ``/api/load`` accept registered names, aliases and
    their specs only: a module path or a model file is a 400, nothing
    imported, the game in progress kept."""
    app = WebApp()
    body = {"technocrat": "human", "ziegler": "random", "scenario": "standard", "seed": 1}
    status, data, _ = _call(app, "/api/new", body)
    assert status == 200
    session = app.session
    for name in (f"{bots}:FirstLegal", "sb3(path=model.zip)", "os:system"):
        status, data, text = _call(app, "/api/new", {**body, "ziegler": name})
        assert status == 400 and "not 'human' or an available agent" in text
        assert app.session is session
    assert bots not in sys.modules
    saved = Session.new(technocrat="human", ziegler=f"{bots}:FirstLegal", scenario="standard", seed=1).to_json()
    sys.modules.pop(bots, None)
    status, data, text = _call(app, "/api/load", saved)
    assert status >= 400 and "runs the module's code" in text
    assert app.session is session and bots not in sys.modules


def _call(app, path, body):
    status, _, raw = app.handle("POST", path, json.dumps(body).encode())
    return status, json.loads(raw), raw.decode()


def test_a_saved_game_runs_its_module_agent_only_when_named_again(bots, tmp_path):
    session = Session.new(technocrat="human", ziegler=f"{bots}:FirstLegal", scenario="standard", seed=1)
    path = session.save(tmp_path / "save.json")
    with pytest.raises(SessionError, match=f"hotspot play --ziegler {bots}:FirstLegal"):
        Session.load(path)
    assert Session.load(path, allow_code={f"{bots}:FirstLegal"}).controllers[0] == f"{bots}:FirstLegal"


def test_serve_offers_a_module_agent_under_a_plain_name(bots):
    """``hotspot serve --agent mine=bots:X``: the person who starts the
    server names the module; the page's requests name ``mine``."""
    from hotspot.cli.serve import offer_agent

    offer_agent(f"mine_{bots}={bots}:FirstLegal(offset=1)")
    try:
        app = WebApp()
        status, _, info = app.handle("GET", "/api/info", None)
        assert f"mine_{bots}" in json.loads(info)["agents"]
        status, data, _ = _call(
            app, "/api/new", {"technocrat": "human", "ziegler": f"mine_{bots}", "scenario": "standard", "seed": 1}
        )
        assert status == 200
        with pytest.raises(ValueError, match="choose another NAME"):
            offer_agent(f"scripted={bots}:FirstLegal")
        with pytest.raises(ValueError, match="expected NAME=SPEC"):
            offer_agent("mine")
    finally:
        registry.unregister_agent(f"mine_{bots}")


def test_the_command_line_names_a_module_agent_everywhere(bots, tmp_path):
    """``hotspot play``, ``hotspot arena`` and ``hotspot balance`` take a
    module agent from the current directory; a missing one is one line,
    exit status 2, no traceback and no folder written."""

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "hotspot", *args], cwd=tmp_path, capture_output=True, text=True, timeout=600
        )

    done = run("play", "--technocrat", f"{bots}:FirstLegal", "--scenario", "standard", "--max-turns", "1", "--quiet")
    assert done.returncode == 0 and "Result:" in done.stdout, done.stderr
    done = run(
        "balance", "--pair", f"{bots}:FirstLegal vs random", "--scenarios", "standard", "--games", "2",
        "--max-turns", "1", "--out", "bal", "--workers", "1", "--no-progress", "--no-plot",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    done = run("arena", "--pairings", "nosuchmodule_q:X vs random", "--out", "never", "--no-progress")
    assert done.returncode == 2 and "no module named 'nosuchmodule_q'" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "never").exists()
    # an agent that fails to build (a factory raising, a file that is not a model) is refused before the folder
    (tmp_path / "notes.zip").write_text("not a model")
    for pairing, words in ((f"{bots}:broken vs random", "RuntimeError"), ("sb3(path=notes.zip):random", "not a .zip")):
        done = run("evaluate" if pairing.startswith("sb3") else "arena", *(
            ["sb3(path=notes.zip)", "--opponents", "random"] if pairing.startswith("sb3") else ["--pairings", pairing]
        ), "--out", "never", "--no-progress")  # fmt: skip
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert not (tmp_path / "never").exists()


def test_a_module_agent_is_the_envs_opponent(bots):
    env = HotspotEnv(opponent=f"{bots}:FirstLegal(offset=1)", scenario="standard", max_turns=1)
    env.reset(seed=0)
    assert env.unwrapped.agent.spec == f"{bots}:FirstLegal(offset=1)"


def test_a_factory_error_is_wrapped_not_raised_raw(bots):
    with pytest.raises(UnknownAgentError) as exc:
        make_agent(f"{bots}:broken")
    assert str(exc.value).startswith(f"agent '{bots}:broken': RuntimeError")


def test_python_m_finds_a_module_in_a_subprocess(tmp_path):
    """The console script is not ``python -m``: its ``sys.path[0]`` is the
    scripts' folder, yet the module beside the user is found."""
    (tmp_path / "herebots.py").write_text(BOTS, encoding="utf-8")
    script = textwrap.dedent(
        """
        import sys
        sys.path = [p for p in sys.path if p not in ("", ".")]
        from hotspot.agents.registry import make_agent
        print(make_agent("herebots:FirstLegal(offset=1)").spec)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "herebots:FirstLegal(offset=1)", done.stderr


# ------------------------------------------------------------ Stable-Baselines3 model files


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """A MaskablePPO model trained a few steps on the flat observation, saved as a .zip."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = HotspotEnv(side="technocrat", opponent="random", scenario="open", observation="flat", max_turns=2)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=0, policy_kwargs={"net_arch": [8]})
    model.learn(64)
    path = tmp_path_factory.mktemp("models") / "tiny.zip"
    model.save(path)
    return path


def test_a_model_file_plays_by_its_masked_prediction(tiny_model):
    """``sb3(path=...)`` reads the model's observation space (flat here),
    builds that observation as the env does and plays its best legal action:
    the same action as the model's own masked prediction on the env's
    observation."""
    from sb3_contrib import MaskablePPO

    agent = make_agent(f"sb3(path={tiny_model})", seed=0)
    assert agent.observation == "flat" and agent.algo == "maskable_ppo"
    model = MaskablePPO.load(tiny_model, device="cpu")
    env = HotspotEnv(side="technocrat", opponent="random", scenario="open", observation="flat", max_turns=2)
    obs, info = env.reset(seed=3)
    for _ in range(40):
        mine = agent.act(_info_state(env), info["action_mask"], env.unwrapped.side)
        theirs, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
        assert mine == int(theirs)
        obs, _, terminated, truncated, info = env.step(mine)
        if terminated or truncated:
            break


def test_a_model_with_another_observation_space_is_refused(tmp_path):
    pytest.importorskip("stable_baselines3")
    import gymnasium as gym
    from stable_baselines3 import PPO

    class Other(gym.Env):
        observation_space = gym.spaces.Box(0.0, 1.0, (10,), dtype=np.float32)
        action_space = gym.spaces.Discrete(578)

        def reset(self, *, seed=None, options=None):
            return np.zeros(10, np.float32), {}

        def step(self, action):
            return np.zeros(10, np.float32), 0.0, True, False, {}

    PPO("MlpPolicy", Other(), n_steps=8, batch_size=8).save(tmp_path / "other.zip")
    with pytest.raises(SpecError) as exc:
        make_agent(f"sb3(path={tmp_path / 'other.zip'})")
    assert "none of hotspot's observation forms" in str(exc.value) and "\n" not in str(exc.value)


def test_a_model_enters_the_arena_and_play_by_one_argument(tiny_model, tmp_path):
    """The model by one CLI argument: ``hotspot arena --pairings
    "sb3(path=...):scripted" --workers 2`` and ``hotspot play``."""

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "hotspot", *args], cwd=tmp_path, capture_output=True, text=True, timeout=600
        )

    spec = f"sb3(path={tiny_model},setup=scripted)"
    done = run("arena", "--pairings", f"{spec}:random", "--games", "2", "--max-turns", "2", "--workers", "2",
               "--scenario", "open", "--out", "arena", "--no-progress")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "sb3(path=" in done.stdout
    done = run("play", "--technocrat", spec, "--ziegler", "random", "--max-turns", "2", "--quiet")
    assert done.returncode == 0 and "Result:" in done.stdout, done.stderr


@pytest.fixture(scope="module")
def learner_models(tmp_path_factory):
    """A MaskablePPO model of LearnerEnv for each side (a few steps), saved as .zip files."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from hotspot.env import LearnerEnv

    torch.set_num_threads(1)
    folder = tmp_path_factory.mktemp("learner_models")
    paths = {}
    for side in ("technocrat", "ziegler"):
        env = LearnerEnv(side=side, opponent="random", max_turns=3)
        model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=0, policy_kwargs={"net_arch": [8]})
        model.learn(32)
        paths[side] = folder / f"{side}.zip"
        model.save(paths[side])
    return paths


def test_a_learner_env_model_plays_through_the_envs_slots(learner_models):
    """A LearnerEnv model: the adapter rebuilds that env's observation and
    pruned, slot-mapped mask, and plays the model's own masked prediction,
    mapped back to the game's action."""
    from sb3_contrib import MaskablePPO

    from hotspot.env import LearnerEnv

    agent = make_agent(f"sb3(path={learner_models['technocrat']})", seed=0)
    assert agent.observation == "learner" and agent.setup == "scripted" and agent.seats == (1,)
    model = MaskablePPO.load(learner_models["technocrat"], device="cpu")
    env = LearnerEnv(side="technocrat", opponent="random")
    obs, info = env.reset(seed=4)
    core = np.zeros(578, np.bool_)
    for _ in range(60):
        theirs, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        legal_action_mask(env.state, core)
        mine = agent.act(env._info_now().reshape(1).copy(), core.copy(), env.side)
        assert mine == env.slots.to_core(int(theirs))
        obs, _, terminated, truncated, info = env.step(int(theirs))
        if terminated or truncated:
            break


def test_a_one_seat_model_is_refused_where_it_cannot_play(learner_models):
    """A LearnerEnv model plays the side it learned: a command that plays
    both seats, an env that needs the other side, a game that seats it
    wrongly and a seat given a model of the other side are one-line errors;
    one model a seat plays both."""
    from hotspot.agents.registry import check_agent
    from hotspot.human.session import Session, SessionError

    t, z = learner_models["technocrat"], learner_models["ziegler"]
    with pytest.raises(SpecError) as exc:
        check_agent(f"sb3(path={t})")
    assert "cannot play the ziegler seat" in str(exc.value) and "\n" not in str(exc.value)
    with pytest.raises(ValueError, match="cannot play the other side"):
        HotspotEnv(side="technocrat", opponent=f"sb3(path={t})")
    with pytest.raises(SessionError, match="cannot play the ziegler"):
        Session.new(technocrat="random", ziegler=f"sb3(path={t})", scenario="open", seed=0)
    with pytest.raises(SpecError, match="is a ziegler model"):
        make_agent(f"sb3(path={t},technocrat={z})")
    both = make_agent(f"sb3(path={t},ziegler={z})", seed=0)
    assert both.seats == (0, 1)
    assert check_agent(f"sb3(path={t},ziegler={z})").startswith("sb3(")
    env = HotspotEnv(side="technocrat", opponent=both, scenario="open", max_turns=3)
    obs, info = env.reset(seed=1)
    while True:
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            break
