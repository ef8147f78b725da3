"""What the subcommands share: the argument types (counts, precisions, turn
limits), the options of every folder-writing command (:func:`add_run_options`) and
the rules options of ``--option NAME=VALUE``."""

from __future__ import annotations

import argparse
import math


def count_arg(low: int):
    """An argparse ``type``: an integer >= ``low`` (a count: games, workers, ...);
    argparse names the argument in its one-line error."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low:
            what = "a positive integer" if low == 1 else f"an integer >= {low}"
            raise argparse.ArgumentTypeError(f"must be {what}, got {value}")
        return value

    parse.__name__ = "count"
    return parse


positive = count_arg(1)


def number_arg(what: str = "a number", positive: bool = False):
    """An argparse ``type``: a finite number (``positive``: above 0); the
    one-line errors name ``what`` ("a number of minutes")."""

    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if not math.isfinite(value) or (positive and value <= 0):
            kind = "positive" if positive else "finite"
            raise argparse.ArgumentTypeError(f"must be a {kind} {what.removeprefix('a ')}, got {text!r}")
        return value

    parse.__name__ = "number"
    return parse


def add_run_options(p, default_out: str, games_help: str | None = None) -> None:
    """``--games`` and the run options of every folder-writing command, one
    flag a field of :class:`hotspot.arena.options.RunOptions` (its default
    and help declared there, once); ``default_out``: the command's folder."""
    import dataclasses

    from ..arena.options import BACKENDS, RunOptions

    p.add_argument(
        "--games",
        type=positive,
        default=100,
        help=games_help or "games per side of a pairing / per cell (default 100); a rerun may raise it",
    )
    for f in dataclasses.fields(RunOptions):
        kind, text = f.metadata["cli"], f.metadata["help"]
        flag = "--" + f.name.replace("_", "-")
        if kind == "int":
            p.add_argument(flag, type=int, default=f.default, help=f"{text} (default {f.default})")
        elif kind == "count":
            p.add_argument(flag, type=positive, default=f.default, help=text)
        elif kind == "folder":
            p.add_argument(flag, default=default_out, help=f"{text} (default {default_out})")
        elif kind == "choice":
            p.add_argument(flag, choices=BACKENDS, default=f.default, help=f"{text} (default: {f.default})")
        elif kind == "text":
            p.add_argument(flag, default=f.default, help=text)
        elif kind == "switch":
            p.add_argument(flag, action="store_true", help=text)
        elif kind == "off-switch":
            p.add_argument(f"--no-{f.name.replace('_', '-')}", action="store_true", help=text)
        elif kind == "turns":
            add_max_turns(p, text)
        # "adjudicate": add_adjudicate_option, with the command's own default


def max_turns_arg(text):
    from ..core.limits import parse_max_turns

    try:
        return parse_max_turns(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_max_turns(p, what: str) -> None:
    from ..core.limits import DEFAULT_MAX_TURNS

    p.add_argument(
        "--max-turns",
        type=max_turns_arg,
        default=DEFAULT_MAX_TURNS,
        metavar="N|none",
        help=f"stop a game after turn N's Crustal Control phase with no winner (D19 revised: the "
        f"rulebook has no turn limit; {what}); 'none': no limit (default {DEFAULT_MAX_TURNS})",
    )


def precision_arg(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 0.5), got {text!r}") from None
    if not 0 < value < 0.5:
        raise argparse.ArgumentTypeError(f"expected a half-width in (0, 0.5), e.g. 0.03, got {text!r}")
    return value


def run_options(args):
    """The options every folder-writing command shares (:func:`add_run_options`),
    as the runners' :class:`hotspot.arena.options.RunOptions` (checked there)."""
    import dataclasses

    from ..arena.options import RunOptions

    values = {}
    for f in dataclasses.fields(RunOptions):
        if f.metadata["cli"] == "off-switch":
            values[f.name] = not getattr(args, f"no_{f.name}")
        elif f.metadata["cli"] == "adjudicate":
            values[f.name] = getattr(args, f.name, None) or ""
        else:
            values[f.name] = getattr(args, f.name)
    return RunOptions(**values)


def add_adjudicate_option(p, default: str = "") -> None:
    """``--adjudicate RULES``: the adjudication rules (hotspot.arena.adjudication)."""
    p.add_argument(
        "--adjudicate",
        default=default,
        metavar="RULES",
        help="end a game whose end is no longer in doubt: 'resign' (the learned judge gives one side "
        ">= 0.99 for 6 turns in a row: that side wins), 'draw' (no unit lost and no crustal changed "
        "for 60 turns: a draw), both ('resign,draw'), with parameters ('resign(score=0.995,turns=8)'), "
        f"or 'none' (default {default or 'none'}); docs/arena.md#adjudication",
    )


def parse_rules_options(items, why: str = "the arena takes one value an option (a grid is `hotspot balance`)") -> dict:
    """``--option NAME=VALUE`` items as rules overrides, one value each
    (``why``: the refusal of a list of values)."""
    from ..design.balance import parse_option

    rules = {}
    for item in items or []:
        key, values = parse_option(item)
        if len(values) != 1:
            raise ValueError(f"--option {item!r}: {why}")
        rules[key] = values[0]
    return rules


def given(**values) -> dict:
    """The keywords given (None: the library's default, declared once there)."""
    return {k: v for k, v in values.items() if v is not None}
