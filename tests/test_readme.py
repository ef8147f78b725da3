"""The documentation's promises: every Python block and every ```shell block
of README.md and of the pages under docs/ runs to its end, every command of
the ``hotspot`` command line is named in the README, and every relative link
of those pages points at a file (and a heading) that exists.

The blocks run in a child process (a fresh interpreter, a temporary folder as
the working directory, this checkout first on the path), one after the other,
each Python block in its own namespace, the blocks of one page in that page's
own sub-folder (so a later block finds the file an earlier one wrote, as a
reader's would): one process for all of them, because loading the compiled
game costs seconds and the blocks themselves well under that. A ```shell
block is a list of commands, one a line (``#`` lines are comments), each run
in the page's folder (``hotspot`` and ``python`` as this interpreter's) and
failing the block unless it exits 0; ```bash blocks (installs, long runs)
are shown, not run.

Sizes: a line that ends with ``# tests: X`` runs with X instead: in Python,
``NAME = VALUE  # tests: X`` runs as ``NAME = X`` (an hour's training runs a
few hundred steps); in a shell block, X is appended to the command
(``--games 2``). The page shows both, so a reader sees what the tests run.

A block whose first line is ``# needs: MODULE[, MODULE]`` uses an extra
(``sb3_contrib`` of the ``train`` extra): it runs where those modules are
installed (CI installs them) and is skipped, saying so, where they are not.

A block that raises fails its own test, named by its file and the heading it
stands under; a block that does not finish within ``BLOCK_TIMEOUT`` seconds
is stopped (``faulthandler`` ends the child and prints where it was) and
fails the same way, and the blocks after it run in a new child. Run as a
script (``python tests/test_readme.py SPEC RESULTS``) this file is that
child.
"""

import argparse
import faulthandler
import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import time
import traceback
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# The pages whose Python blocks run: the README first, then every page of docs/.
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]
# Generous: with a cold numba cache a block first compiles the rules it uses
# (minutes on two cores); with a warm one each block takes a few seconds.
BLOCK_TIMEOUT = 600


RUN_KINDS = ("python", "shell")  # the fences whose blocks run
_NEEDS = re.compile(r"^#\s*needs:\s*(?P<modules>[\w., ]+?)\s*$")


def missing_modules(code: str) -> list[str]:
    """The modules a block's ``# needs:`` first line names that are not installed here."""
    first = code.lstrip("\n").splitlines()[0] if code.strip() else ""
    m = _NEEDS.match(first)
    if not m:
        return []
    names = [n.strip() for n in m["modules"].split(",") if n.strip()]
    return [n for n in names if importlib.util.find_spec(n) is None]


def code_blocks(text: str, name: str = "README.md") -> list[tuple[str, str, str]]:
    """(kind, heading, code) of every ```python and ```shell block, with the heading it stands under."""
    blocks, heading, fence, code = [], "(before any heading)", None, []
    for line in text.splitlines():
        if fence is None:
            if line.startswith("```"):
                fence, code = line[3:].strip(), []
            elif line.startswith("#"):
                heading = line.lstrip("#").strip()
        elif line.startswith("```"):
            if fence in RUN_KINDS:
                blocks.append((fence, heading, "\n".join(code) + "\n"))
            fence = None
        else:
            code.append(line)
    assert fence is None, f"{name}: a code block is not closed"
    return blocks


_TESTS_SIZE = re.compile(r"^(?P<head>.*?)\s*#\s*tests:\s*(?P<size>.+?)\s*$")


def for_tests(kind: str, code: str) -> str:
    """``code`` with each ``# tests: X`` line's size for the tests (see the module's docstring)."""
    out = []
    for line in code.splitlines():
        m = _TESTS_SIZE.match(line)
        if m and kind == "python":
            target = re.match(r"^(\s*[A-Za-z_][A-Za-z0-9_]*\s*=\s*)", m["head"])
            assert target, f"'# tests:' stands after an assignment in a Python block: {line!r}"
            line = target.group(1) + m["size"]
        elif m:
            line = f"{m['head']} {m['size']}"
        out.append(line)
    return "\n".join(out) + "\n"


def run_shell(code: str, timeout: float) -> None:
    """Each command of a ```shell block, in the current folder; an error names the one that failed."""
    for line in code.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        argv = shlex.split(line, comments=True)
        if argv[0] == "hotspot":
            argv = [sys.executable, "-m", "hotspot", *argv[1:]]
        elif argv[0] == "python":
            argv = [sys.executable, *argv[1:]]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(
                f"`{line.strip()}` exited {done.returncode}:\n{done.stderr[-3000:]}\n{done.stdout[-1500:]}"
            )


def document_name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# (document, heading, code, number of the block in its document, kind), in document order.
BLOCKS = [
    (document_name(path), heading, code, n + 1, kind)
    for path in DOCUMENTS
    for n, (kind, heading, code) in enumerate(code_blocks(path.read_text(encoding="utf-8"), path.name))
]


def _slug(text: str) -> str:
    return re.sub(r"\W+", "-", text).strip("-").lower()


def block_id(index: int) -> str:
    document, heading, _, number, _ = BLOCKS[index]
    return f"{_slug(document.removesuffix('.md'))}-{number}-{_slug(heading)}"


# --- the child: runs the blocks it is given, writing one JSON line per event --


def run_blocks(spec_path: str, results_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    home = Path.cwd()
    with open(results_path, "a", encoding="utf-8") as out:

        def report(**row):
            out.write(json.dumps(row) + "\n")
            out.flush()

        for item in spec["blocks"]:
            index = item["index"]
            folder = home / _slug(item["document"])
            folder.mkdir(exist_ok=True)
            os.chdir(folder)
            if missing_modules(item["code"]):
                report(index=index, status="skipped")
                os.chdir(home)
                continue
            report(index=index, status="started")
            faulthandler.dump_traceback_later(spec["timeout"], exit=True)
            start = time.perf_counter()
            try:
                text = for_tests(item["kind"], item["code"])
                if item["kind"] == "shell":
                    run_shell(text, spec["timeout"])
                else:
                    code = compile(text, f"{item['document']} block {item['number']} ({item['heading']})", "exec")
                    exec(code, {"__name__": "__main__"})
            except BaseException:  # a block's SystemExit or KeyboardInterrupt is its failure too
                report(index=index, status="raised", error=traceback.format_exc())
            else:
                report(index=index, status="finished", seconds=round(time.perf_counter() - start, 2))
            finally:
                faulthandler.cancel_dump_traceback_later()
            os.chdir(home)


# --- the tests --------------------------------------------------------------------


@pytest.fixture(scope="module")
def block_results(tmp_path_factory):
    """{block index: its result row}, from as many children as it takes."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("the documentation's blocks play whole batches of games: compiled code only")
    work = tmp_path_factory.mktemp("readme")
    results_path = work / "results.jsonl"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    env["MINARI_DATASETS_PATH"] = str(work / "minari")  # the pages' Minari datasets stay in the test's folder
    rows, tails, left = {}, {}, list(range(len(BLOCKS)))
    while left:
        spec = {
            "timeout": BLOCK_TIMEOUT,
            "blocks": [
                {
                    "index": i,
                    "document": BLOCKS[i][0],
                    "heading": BLOCKS[i][1],
                    "code": BLOCKS[i][2],
                    "number": BLOCKS[i][3],
                    "kind": BLOCKS[i][4],
                }
                for i in left
            ],
        }
        spec_path = work / "spec.json"
        spec_path.write_text(json.dumps(spec), encoding="utf-8")
        try:
            child = subprocess.run(
                [sys.executable, __file__, str(spec_path), str(results_path)],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
                timeout=BLOCK_TIMEOUT * len(left) + 120,
            )
            tail = f"stderr:\n{child.stderr[-3000:]}\nstdout:\n{child.stdout[-1000:]}"
        except subprocess.TimeoutExpired as exc:  # only if faulthandler could not stop it
            tail = f"the child was killed after {exc.timeout} s"
        for line in results_path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            rows[row["index"]] = row
        stopped = [i for i in left if rows.get(i, {}).get("status") == "started"]
        unstarted = [i for i in left if i not in rows]
        for i in stopped + unstarted:
            tails[i] = tail
        if not stopped:  # every block ran, or the child died before one started: do not loop
            break
        left = unstarted
    return {i: dict(rows.get(i, {"status": "not run"}), tail=tails.get(i, "")) for i in range(len(BLOCKS))}


@pytest.mark.parametrize("index", range(len(BLOCKS)), ids=block_id)
def test_documented_python_block_runs_to_its_end(block_results, index):
    """The block under this heading runs in a fresh interpreter without an error and finishes."""
    document, heading, code, number, kind = BLOCKS[index]
    missing = missing_modules(code)
    if missing:
        pytest.skip(f"{document} {kind} block {number} needs {', '.join(missing)} (an extra not installed here)")
    row = block_results[index]
    where = f"{document} {kind} block {number} under '{heading}'"
    if row["status"] == "raised":
        pytest.fail(f"{where} raised:\n{row['error']}")
    if row["status"] == "started":
        pytest.fail(
            f"{where} did not finish: stopped after {BLOCK_TIMEOUT} s (a game that never ends?) "
            f"or its interpreter died; the child's last output:\n{row['tail']}"
        )
    assert row["status"] == "finished", f"{where} was not run; the child's last output:\n{row['tail']}"


def test_every_python_block_is_found():
    """Each ```python and ```shell fence of every page is one block the tests run (none is lost to the parser)."""
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        found = [b for b in BLOCKS if b[0] == document_name(path)]
        assert len(found) == len(re.findall(r"^```(?:python|shell)\s*$", text, re.M)), document_name(path)
    readme = [heading for document, heading, _, _, _ in BLOCKS if document == "README.md"]
    assert len(readme) >= 3
    assert {"Using the core", "Environments"} <= set(readme)
    assert any(document.startswith("docs/") for document, *_ in BLOCKS)


def test_sizes_for_the_tests_replace_an_assignment_or_extend_a_command_and_needs_names_an_extra():
    assert for_tests("python", "steps = 300_000  # tests: 256\nx = 1\n") == "steps = 256\nx = 1\n"
    assert for_tests("shell", "hotspot evaluate x  # tests: --games 2\n") == "hotspot evaluate x --games 2\n"
    assert missing_modules("# needs: json, no_such_module_here\nimport json\n") == ["no_such_module_here"]
    assert missing_modules("import json  # needs: nothing\n") == []


def cli_commands() -> list[str]:
    """The subcommands of ``hotspot`` as its parser knows them (new ones included)."""
    from hotspot.cli import build_parser

    parser = build_parser()
    subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(subparsers) == 1, "hotspot's parser should have one set of subcommands"
    return sorted(subparsers[0].choices)


def test_every_cli_command_is_in_the_readme():
    """Each `hotspot <command>` of the command line is mentioned in the README."""
    commands = cli_commands()
    assert {"arena", "play", "scenario"} <= set(commands)
    text = README.read_text(encoding="utf-8")
    missing = [c for c in commands if not re.search(rf"\bhotspot\s+{re.escape(c)}\b", text)]
    assert not missing, f"README.md never mentions these commands as `hotspot <command>`: {missing}"


# --- links and pictures --------------------------------------------------------------

LINKED_DOCUMENTS = [README, ROOT / "BENCHMARKS.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|<img\s[^>]*src=\"([^\"]+)\"")


def prose_lines(text: str, code_spans: bool = False):
    """The lines outside code fences, inline code spans removed unless ``code_spans``."""
    fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence:
            yield line if code_spans else re.sub(r"`[^`]*`", "", line)


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives a page: one per heading (lowercase, punctuation
    dropped, spaces as hyphens, -1, -2 for repeats) and every <a id>."""
    found, seen = set(), {}
    for line in prose_lines(path.read_text(encoding="utf-8"), code_spans=True):
        found |= set(re.findall(r'<a (?:id|name)="([^"]+)"', line))
        if re.match(r"#{1,6} ", line):
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line.lstrip("#").strip())
            slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def test_every_relative_link_points_at_a_file_and_heading():
    """Every relative link (and picture) of the README, BENCHMARKS.md and docs/ names a file
    of this checkout, and every #anchor one of that page's headings."""
    broken = []
    for page in LINKED_DOCUMENTS:
        for line in prose_lines(page.read_text(encoding="utf-8")):
            for groups in LINK.findall(line):
                target = groups[0] or groups[1]
                if re.match(r"[a-z]+:", target):  # https:, mailto:
                    continue
                path_part, _, anchor = target.partition("#")
                linked = (page.parent / path_part).resolve() if path_part else page
                where = f"{document_name(page)}: {target}"
                if not linked.exists():
                    broken.append(f"{where} (no such file)")
                elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                    broken.append(f"{where} (no such heading)")
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_the_board_picture_is_the_projects_own_png():
    """The README's board picture is a PNG in docs/, with the script that draws it beside it."""
    text = README.read_text(encoding="utf-8")
    assert 'src="docs/board.png"' in text and "python docs/make_board.py" in text
    assert (ROOT / "docs" / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (ROOT / "docs" / "make_board.py").is_file()


def test_make_board_still_draws_the_picture(tmp_path):
    """docs/make_board.py still runs and writes a PNG of the size of the README's board.png (the
    position may differ when the scripted player changes: rerun the script to refresh it)."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("plays a game between the compiled scripted players")
    out = tmp_path / "board.png"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    subprocess.run(
        [sys.executable, str(ROOT / "docs" / "make_board.py"), str(out)],
        check=True,
        env=env,
        capture_output=True,
        timeout=BLOCK_TIMEOUT,
    )
    drawn, shown = out.read_bytes(), (ROOT / "docs" / "board.png").read_bytes()
    assert drawn[:8] == b"\x89PNG\r\n\x1a\n"
    assert drawn[16:24] == shown[16:24], "width and height differ from docs/board.png"


if __name__ == "__main__":
    run_blocks(sys.argv[1], sys.argv[2])


def test_the_readme_stays_a_front_door():
    """The README is for users, short: within 200 lines (results and their
    history live in docs/ and BENCHMARKS.md)."""
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 200, f"README.md has {lines} lines; move details to docs/"
