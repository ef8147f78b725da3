"""Target ``play_load``: ``hotspot play --load FILE`` in-process
(``hotspot.cli.main``) on the files of ``saved_game``, with no input (the
terminal stops at the end of its input): exit 0, or exit 2 with one line
``hotspot: error: ...`` naming the file; never a traceback."""

from __future__ import annotations

import contextlib
import io
import sys

from .cli_args import recording_errors
from .contract import check, refused, short
from .harness import target
from .saved_game import save_files, setup_saves


@contextlib.contextmanager
def _no_input():
    """Standard input at its end: the terminal front end stops at once."""
    before = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        yield
    finally:
        sys.stdin = before


@target(
    "play_load",
    "hotspot play --load FILE (cli.main, in-process, no input) on saved games as bytes: exit 0, "
    "or exit 2 with a one-line error naming the file; never a traceback",
    setup_saves,
    save_files,
    deadline_s=30.0,
)
def check_play_load(ctx, data):
    from hotspot import cli

    path = ctx["path"]
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    ctx["error"] = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _no_input(), recording_errors(cli, ctx):
        try:
            code = cli.main(["play", "--load", str(path)])
        except SystemExit as exc:
            code = exc.code
    code = 0 if code is None else code
    text = out.getvalue() + err.getvalue()
    check("Traceback" not in text, f"a traceback was printed: {text[-1500:]}")
    check(code in (0, 2), f"exit status {short(code)} (expected 0 or 2); stderr: {err.getvalue()[-500:]!r}")
    if code == 0:
        check(err.getvalue() == "", f"exit 0 with errors: {err.getvalue()[-500:]!r}")
        check("Hot Spot:" in out.getvalue(), "exit 0 without the terminal's greeting")
        return "accepted"
    lines = err.getvalue().strip().splitlines()
    check(len(lines) == 1, f"exit 2 with {len(lines)} lines on stderr (one expected): {err.getvalue()[-800:]!r}")
    check(lines[0].startswith(f"hotspot: error: {path}: "), f"the error does not name the file: {lines[0][:300]!r}")
    exc = ctx["error"]
    check(exc is not None, "exit 2 without an exception from the subcommand")
    refused(exc, ValueError)  # the message comes from a deliberate refusal (SessionError)
    return "refused:exit 2"
