"""Code, tests, benchmarks and docs name a feature or a rule, never an internal
issue's number, which means nothing to a reader of the repository (only
CHANGELOG.md keeps the history)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("hotspot", "tests", "benchmarks", "training", "fuzz", "soak", "docs")
TOP_FILES = ("README.md", "BENCHMARKS.md", "pyproject.toml")
#: folders whose every file is read, whatever its name (the CI script has no suffix)
WHOLE = (".ci",)
#: the word, singular or plural, any case, then a number (a "#" allowed, a line break too)
CITATION = re.compile(r"\bissues?\s+#?\d", re.IGNORECASE)


def _files():
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".md") and "__pycache__" not in path.parts:
                yield path
    for folder in WHOLE:
        yield from (p for p in sorted((ROOT / folder).rglob("*")) if p.is_file())
    for name in TOP_FILES:
        yield ROOT / name


def test_no_file_cites_an_internal_issue_number():
    found = []
    for path in _files():
        text = path.read_text(encoding="utf-8")
        for match in CITATION.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)!r}")
    assert not found, "name the feature or the rule instead:\n" + "\n".join(found)
