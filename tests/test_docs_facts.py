"""The documents' facts that a test can check: every repository file they
name exists, and a range of decisions (``D1..D22``) is never the whole story
where a later decision (D23, the scenario ``balanced``) exists."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "BENCHMARKS.md", *sorted((ROOT / "docs").glob("*.md"))]
#: the repository's own folders: a path in backquotes that begins with one names a file of the repository
TRACKED = ("hotspot/", "benchmarks/", "docs/", "tests/", "training/", "fuzz/", "soak/", "examples/", ".ci/")
PATH = re.compile(r"`([A-Za-z0-9_./-]+\.(?:py|md|json|npz|png|csv|txt|html|toml|jsonl|zip|ya?ml|svg))`")
RANGE = re.compile(r"\bD1 ?(?:\.\.|-|to) ?D(\d+)\b")


def named_paths(doc: Path):
    for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        for match in PATH.finditer(line):
            if match.group(1).startswith(TRACKED) and "NAME" not in match.group(1):  # NAME: a placeholder
                yield number, match.group(1)


def test_the_scan_finds_the_paths():
    """The scan sees the files the docs name (a scan that found none would pass every document)."""
    found = {p for doc in DOCS for _, p in named_paths(doc)}
    assert "hotspot/arena/reference_ratings.json" in found and len(found) > 20


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_repository_file_named_in_the_docs_exists(doc):
    """A file name in a document (hotspot/..., benchmarks/..., docs/...) is a file of the repository."""
    missing = [f"{doc.name}:{n}: {p}" for n, p in named_paths(doc) if not (ROOT / p).exists()]
    assert not missing, "\n".join(missing)


def last_decision() -> int:
    """The highest decision id explained in docs/rules.md (an anchor ``<a id="dN">``)."""
    ids = [int(m) for m in re.findall(r'<a id="d(\d+)"></a>', (ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))]
    assert ids, "docs/rules.md explains no decision"
    return max(ids)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_a_range_of_decisions_does_not_hide_the_later_ones(doc):
    """A document that gives the range D1..Dn of the decisions sheet also names
    every decision after Dn that the rules reference explains (D23: the
    scenario ``balanced``)."""
    text = doc.read_text(encoding="utf-8")
    last = last_decision()
    for match in RANGE.finditer(text):
        for later in range(int(match.group(1)) + 1, last + 1):
            assert re.search(rf"\bD{later}\b", text), f"{doc.name} gives {match.group(0)} but never names D{later}"


def test_the_quick_start_names_the_default_round_robin_and_its_size():
    """The README's quick start says which agents the default round robin
    plays (``default_agents()``) and how many games a side and pairing
    (``hotspot arena``'s --games default); docs/arena.md's table marks the
    same agents as the default."""
    from hotspot.agents.registry import default_agents
    from hotspot.cli import build_parser

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    said = readme[readme.index("plays the default round robin") :][:200]
    agents = default_agents()
    named = re.findall(r"`([a-z-]+)`", said[: said.index(")")])
    assert named == agents, f"the README's quick start names {named}, the default round robin is {agents}"
    games = build_parser().parse_args(["arena"]).games
    assert f"{games} games a side and pairing" in said
    table = (ROOT / "docs" / "arena.md").read_text(encoding="utf-8")
    marked = re.findall(r"^\| `([a-z-]+)` \|.*\| yes \|$", table, flags=re.M)
    assert marked == agents, f"docs/arena.md marks {marked} as the default, the default round robin is {agents}"
