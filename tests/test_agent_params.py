"""An agent's parameters are declared once (``hotspot.agents.params``): the
table gives the compiled vector's constants and defaults, the spec
parameters, the constructor's checks and the docstring."""

import numpy as np
import pytest

from hotspot.agents import ismcts, portfolio
from hotspot.agents.params import AgentParam, ParamTable
from hotspot.agents.registry import make_agent

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
    for p in table.params:
        assert f"{p.name}: {p.range_text()}" in agent.__doc__, p.name


@pytest.mark.parametrize("module, agent", AGENTS, ids=["ismcts", "portfolio"])
def test_the_constructor_refuses_a_value_out_of_range_in_one_line(module, agent):
    for p in module.PARAMS.params:
        if p.kind not in ("int", "float") or not p.spec or p.high is None:
            continue
        with pytest.raises(ValueError) as exc:
            agent(**{p.name: p.high + 1})
        message = str(exc.value)
        assert p.name in message and p.range_text() in message and "\n" not in message


def test_a_spec_and_the_constructor_set_the_same_slot():
    assert make_agent("ismcts(margin=0.5,rollout=random)").params[ismcts.P_MARGIN] == 0.5
    assert make_agent("portfolio(horizon=2)").params[portfolio.P_HORIZON] == 2
    assert make_agent("ismcts(reply=true)").params[ismcts.P_REPLY] == 1.0


def test_a_table_refuses_a_malformed_declaration():
    with pytest.raises(ValueError, match="declared twice"):
        ParamTable("x", (AgentParam("a", "int", 1), AgentParam("a", "int", 2)))
    with pytest.raises(ValueError, match="kind"):
        AgentParam("a", "text", "")
    with pytest.raises(ValueError, match="code each"):
        AgentParam("a", "choice", "p", choices=("p", "q"))
