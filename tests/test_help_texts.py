"""The command line's help names the choices a reader needs: the built-in
scenarios (standard, open, balanced: D23) where a scenario is named, what
an option writes, and the defaults."""

import io
from contextlib import redirect_stdout

import pytest

from hotspot.cli import build_parser


def help_of(command: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit):
        build_parser().parse_args([command, "--help"])
    return " ".join(out.getvalue().split())


def test_scenario_help_names_the_scenarios_and_explains_out():
    text = help_of("scenario")
    assert all(name in text for name in ("standard", "open", "balanced", "random:N"))
    assert "--out OUT write the scenario to this JSON file" in text


def test_balance_help_names_open_and_the_default_scenario():
    text = help_of("balance")
    assert "standard, open, balanced" in text and "(default: standard)" in text


def test_no_help_text_prints_a_doubled_percent_sign():
    for command in ("evaluate", "balance", "arena"):
        assert "%%" not in help_of(command), command
