"""Agent specs: an agent named with its parameters wherever an
agent is named (``ismcts(iterations=256)``), one canonical spelling that is
the agent's identity in the arena's rows and resume keys, a one-line error
naming the agent's parameters and ranges for a bad spec, the ``best`` alias,
and the time budget ``think_ms``."""

import json

import pytest

from hotspot.agents.ismcts import P_ITERATIONS, P_THINK_MS, THINK_ITERATIONS
from hotspot.agents.registry import (
    aliases,
    canonical_agent,
    is_available,
    make_agent,
    register_agent,
    register_alias,
    unregister_agent,
)
from hotspot.agents.specs import Param, SpecError, parse_spec, split_top
from hotspot.arena import ArenaError
from hotspot.arena.tournament import parse_agents, parse_pairings, run_arena
from hotspot.cli import main
from hotspot.core.game import Game
from hotspot.env import HotspotEnv


def test_parse_spec_forms():
    assert parse_spec("ismcts") == ("ismcts", {})
    assert parse_spec(" ismcts( iterations = 256 , think_ms=500 ) ") == ("ismcts", {"iterations": 256, "think_ms": 500})
    assert parse_spec("ismcts(c=0.5,rollout=random,reuse=true)") == (
        "ismcts",
        {"c": 0.5, "rollout": "random", "reuse": True},
    )
    assert parse_spec("ismcts()") == ("ismcts", {})


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "ismcts(",
        "ismcts)",
        "ismcts(iterations)",
        "ismcts(iterations=)",
        "ismcts(a=1,a=2)",
        "is mcts",
        "ismcts(x=1)(y=2)",
        "ismcts(x=inf)",
        "ismcts(x=a b)",
        3,
        None,
        "x" * 2000,
    ],
)
def test_malformed_specs_are_refused_in_one_line(bad):
    with pytest.raises(SpecError) as exc:
        parse_spec(bad)
    assert "\n" not in str(exc.value)


def test_canonical_spelling_sorts_keys_and_drops_defaults():
    assert canonical_agent("ismcts(iterations=16)") == "ismcts"
    assert canonical_agent("ismcts(think_ms=500, iterations=256)") == "ismcts(iterations=256,think_ms=500)"
    assert canonical_agent("ismcts(c=0.70)") == "ismcts"
    assert canonical_agent("ismcts(c=1)") == "ismcts(c=1)"
    assert canonical_agent("ismcts(iterations=64.0)") == "ismcts(iterations=64)"


@pytest.mark.parametrize(
    "spec, words",
    [
        ("ismcts(iteration=3)", ["has no parameter 'iteration'", "iterations=int 1..1000000 (default 16)"]),
        ("ismcts(iterations=0)", ["out of range 1..1000000", "think_ms=int"]),
        ("ismcts(iterations=2.5)", ["not an integer"]),
        ("ismcts(rollout=greedy)", ["not one of scripted|random"]),
        ("ismcts(reuse=3)", ["not true or false"]),
        ("scripted(depth=2)", ["scripted takes no parameters"]),
        ("portfolio(plans=-1)", ["out of range", "determinizations=int"]),
        ("nobody(x=1)", ["not available", "unknown agent"]),
    ],
)
def test_a_bad_spec_names_the_agents_parameters(spec, words):
    with pytest.raises(SpecError) as exc:
        canonical_agent(spec)
    msg = str(exc.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, msg
    assert not is_available(spec)


def test_make_agent_passes_the_parameters():
    agent = make_agent("ismcts(iterations=64,think_ms=250)", seed=1)
    assert agent.params[P_ITERATIONS] == 64 and agent.params[P_THINK_MS] == 250
    assert agent.spec == "ismcts(iterations=64,think_ms=250)"
    assert agent.policy_id is None  # a search agent is driven from Python
    assert make_agent("ismcts", seed=1).policy_id is None  # at its default parameters too
    timed = make_agent("ismcts(think_ms=100)", seed=1)  # a time budget alone: iterations only cap it
    assert timed.params[P_ITERATIONS] == THINK_ITERATIONS
    port = make_agent("portfolio(plans=8,determinizations=2)", seed=1)
    assert port.spec == "portfolio(determinizations=2,plans=8)"


def test_aliases_name_a_spec_and_take_no_parameters():
    assert "best" in aliases()
    assert canonical_agent("best") == canonical_agent(aliases()["best"])
    with pytest.raises(SpecError, match="alias"):
        canonical_agent("best(iterations=3)")
    register_agent(
        "spec-test-agent", "hotspot.agents.random_agent:RandomAgent", "test", params={"depth": Param("int", 1, 1, 9)}
    )
    try:
        register_alias("spec-test-alias", "spec-test-agent(depth=3)")
        assert canonical_agent("spec-test-alias") == "spec-test-agent(depth=3)"
        with pytest.raises(ValueError):
            register_alias("spec-test-alias2", "spec-test-agent(depth=30)")
    finally:
        unregister_agent("spec-test-alias")
        unregister_agent("spec-test-agent")


def test_lists_of_specs_split_outside_parentheses():
    assert split_top("a(x=1,y=2),b", ",") == ["a(x=1,y=2)", "b"]
    assert parse_agents("scripted, ismcts(iterations=4,c=1) ,random") == [
        "scripted",
        "ismcts(iterations=4,c=1)",
        "random",
    ]
    assert parse_pairings("ismcts(iterations=256,think_ms=500):scripted,random:mcts(simulations=2)") == [
        ("ismcts(iterations=256,think_ms=500)", "scripted"),
        ("random", "mcts(simulations=2)"),
    ]
    for bad in ["a(x=1:b", "a:b:c", "a(x=1,y=2)"]:
        with pytest.raises((ArenaError, SpecError)):
            parse_pairings(bad)


def test_the_spec_is_the_games_identity_in_the_arena(tmp_path):
    """Rows and the resume key hold the canonical spec: the same agent spelt
    otherwise resumes the same run; other parameters are another run."""
    out = tmp_path / "run"
    spec = "ismcts(deploy_candidates=0, iterations=2)"
    kw = dict(games=1, scenario="open", out=out, workers=1, progress=False, max_turns=2)
    summary = run_arena(pairings=[(spec, "random")], **kw)
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert {r["technocrat"] for r in rows} | {r["ziegler"] for r in rows} == {
        "ismcts(deploy_candidates=0,iterations=2)",
        "random",
    }
    assert summary["sides"][0]["games"] == 1
    again = run_arena(pairings=[("ismcts(iterations=2,deploy_candidates=0)", "random")], **kw)
    assert again["result"].played == 0  # the same games: nothing to play
    with pytest.raises(ArenaError):
        run_arena(pairings=[("ismcts(iterations=3,deploy_candidates=0)", "random")], **kw)


def test_cli_refuses_a_bad_spec_in_one_line(tmp_path, capsys):
    assert main(["arena", "--pairings", "ismcts(iteration=2):random", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip()
    assert "has no parameter 'iteration'" in err and "\n" not in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()
    assert main(["play", "--technocrat", "ismcts(iterations=-4)", "--ziegler", "random"]) == 2
    err = capsys.readouterr().err.strip()
    assert "out of range" in err and "\n" not in err


def test_env_opponent_takes_a_spec():
    env = HotspotEnv(side="ziegler", opponent="ismcts(iterations=2,deploy_candidates=0)", scenario="open")
    assert env.agent is not None and env.agent.spec == "ismcts(deploy_candidates=0,iterations=2)"
    env = HotspotEnv(side="ziegler", opponent="scripted()", scenario="open")
    assert env.agent is None  # a compiled agent plays compiled
    with pytest.raises(ValueError, match="has no parameter") as exc:
        HotspotEnv(opponent="ismcts(budget=2)")
    assert "\n" not in str(exc.value)


def test_think_ms_bounds_a_decision_by_time():
    """With a time budget and an iteration cap out of reach, a searched
    decision still ends (the clock stops it) and is legal."""
    game = Game("open", seed=3)
    scripted = make_agent("scripted", seed=0)
    agent = make_agent("ismcts(think_ms=20,iterations=1000000,deploy_candidates=0)", seed=2)
    searched = 0
    while not game.is_terminal() and searched < 5:
        side = game.current_player()
        mask = game.legal_action_mask()
        if game.s["phase"] <= 7 and mask.sum() > 1:
            a = agent.act(game.observation(side), mask, side)
            searched += 1
        else:
            a = scripted.act(game.observation(side), mask, side)
        assert mask[a]
        game.apply_action(a)
    assert searched == 5
    assert int(agent.tree[0, 5]) < 1_000_000  # the root's visits: stopped by the clock


def test_reuse_keeps_the_subtree_for_the_next_atomic_step():
    """With ``reuse``, the next decision of the same side after its own action
    goes on below that action's node (the same information set): the kept
    visits count towards the budget, and play stays the same under a seed."""

    def run():
        game = Game("open", seed=4)
        scripted = make_agent("scripted", seed=0)
        agent = make_agent("ismcts(iterations=24,reuse=true,deploy_candidates=0)", seed=7)
        reused, actions = 0, []
        while not game.is_terminal() and len(actions) < 400:
            side = game.current_player()
            mask = game.legal_action_mask()
            if side == 1 and game.s["phase"] <= 7:
                before = int(agent._reuse[0])
                a = agent.act(game.observation(side), mask, side)
                reused += before == int(game.s["n_actions"]) and mask.sum() > 1
            else:
                a = scripted.act(game.observation(side), mask, side)
            assert mask[a]
            actions.append(int(a))
            game.apply_action(a)
        return reused, actions

    reused, actions = run()
    assert reused > 0
    assert run()[1] == actions


def test_list_agents_shows_parameters_and_aliases(capsys):
    """``hotspot arena --list-agents``: each agent's parameters with their
    ranges, and the aliases with the spec they name."""
    assert main(["arena", "--list-agents"]) == 0
    out = capsys.readouterr().out
    assert "parameters: c=float" in out and "plans=int 1..100000 (default 24)" in out
    best = [line for line in out.splitlines() if line.split()[:2] == ["best", "alias"]]
    assert best and best[0].split()[-1] == aliases()["best"]
