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


def subcommand_options():
    """(subcommand, option action) for every option of every subcommand."""
    import argparse

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sp in sub.choices.items():
        for action in sp._actions:
            if action.option_strings and not isinstance(action, argparse._HelpAction):
                yield name, action


def test_every_option_with_a_default_says_it():
    """Each subcommand's --help states the default of every option that takes a
    value and has one (a flag's default, off, goes without saying)."""
    import argparse

    flags = (argparse._StoreTrueAction, argparse._StoreFalseAction, argparse._CountAction, argparse._AppendAction)
    silent = [
        f"{name} {'/'.join(a.option_strings)} (default {a.default!r})"
        for name, a in subcommand_options()
        if not isinstance(a, flags) and a.default not in (None, argparse.SUPPRESS) and "default" not in (a.help or "")
    ]
    assert not silent, "options whose help does not state the default:\n" + "\n".join(silent)


def test_every_option_with_choices_lists_them():
    """An option with fixed choices lists them, in its help or in the usage argparse writes."""
    for name, action in subcommand_options():
        if action.choices:
            shown = (action.help or "") + (str(action.metavar) if action.metavar else "{" + ",".join(action.choices))
            missing = [c for c in action.choices if str(c) not in shown]
            assert not missing, f"{name} {action.option_strings}: {missing} not in its help"
