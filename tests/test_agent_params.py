"""An agent's parameters are declared once (``hotspot.agents.params``): the
table gives the compiled vector's constants and defaults, the spec
parameters, the constructor's checks and the docstring."""

import numpy as np
import pytest

from hotspot.agents import ismcts, portfolio
from hotspot.agents.params import ParamTable
from hotspot.agents.registry import make_agent
from hotspot.agents.specs import Param

AGENTS = [(ismcts, ismcts.ISMCTSAgent), (portfolio, portfolio.PortfolioAgent)]


@pytest.mark.parametrize("module, agent", AGENTS, ids=["ismcts", "portfolio"])
def test_the_table_gives_the_constants_the_defaults_the_specs_and_the_docs(module, agent):
    table = module.PARAMS
    slots = {value: name for name, value in vars(module).items() if name.startswith("P_")}
    assert sorted(slots) == list(range(table.size)), "one P_* constant a slot, no two alike"
    assert module.NUM_PARAMS == table.size
    assert np.array_equal(module.DEFAULT_PARAMS, table.defaults())
    assert module.SPEC_PARAMS == table.spec_params()
    assert np.array_equal(agent().params, module.DEFAULT_PARAMS)
    for name, p in table.by_name.items():
        assert f"{name}: {p.range_text()}" in agent.__doc__, name


@pytest.mark.parametrize("module, agent", AGENTS, ids=["ismcts", "portfolio"])
def test_the_constructor_refuses_a_value_out_of_range_in_one_line(module, agent):
    for name, p in module.PARAMS.by_name.items():
        if p.kind not in ("int", "float") or not p.spec or p.high is None:
            continue
        with pytest.raises(ValueError) as exc:
            agent(**{name: p.high + 1})
        message = str(exc.value)
        assert name in message and p.range_text() in message and "\n" not in message


def test_a_spec_and_the_constructor_set_the_same_slot():
    assert make_agent("ismcts(margin=0.5,rollout=random)").params[ismcts.P_MARGIN] == 0.5
    assert make_agent("portfolio(horizon=2)").params[portfolio.P_HORIZON] == 2
    assert make_agent("ismcts(reply=true)").params[ismcts.P_REPLY] == 1.0


def test_a_table_refuses_a_malformed_declaration():
    """A table's parameter must fit the compiled vector: a known kind, a code
    for each choice with a slot, no slot for a path or any value."""
    with pytest.raises(ValueError, match="kind 'text'"):
        ParamTable("x", {"a": Param("text", "")})
    with pytest.raises(ValueError, match="code each"):
        ParamTable("x", {"a": Param("choice", "p", choices=("p", "q"))})
    with pytest.raises(ValueError, match="no slot"):
        ParamTable("x", {"a": Param("path", "")})
    assert ParamTable("x", {"a": Param("path", "", vector=False), "b": Param("int", 1)}).slots == ("b",)


def test_one_param_type_for_every_agent():
    """The compiled agents' tables and every other agent's parameters are the
    same type (``specs.Param``): a spec parameter is the table's own object."""
    from hotspot.agents.specs import params_of

    for module, name in ((ismcts, "ismcts"), (portfolio, "portfolio")):
        declared = params_of(name)
        for key, p in module.PARAMS.spec_params().items():
            assert declared[key] is p
    assert all(type(p) is Param for name in ("mcts", "search", "sb3") for p in params_of(name).values())


@pytest.mark.parametrize("module, agent", AGENTS, ids=["ismcts", "portfolio"])
def test_the_repr_is_read_from_the_table(module, agent):
    """``repr`` shows every vector parameter as the table declares it, read
    back from the agent's vector (a choice by its name, not its code)."""
    made = make_agent(f"{module.PARAMS.agent}(horizon=1)")
    text = repr(made)
    for name in module.PARAMS.slots:
        value = module.PARAMS.decode(name, made.params[module.PARAMS.index(name)])
        assert f"{name}={value!r}" in text, name
    assert "horizon=1," in text
