"""Every decision id cited is explained in docs/rules.md.

The project's gap decisions have ids D1, D2, ... (the decisions sheet beside
the rulebook); code, tests and documents cite them as they cite rule numbers.
A clone does not carry that sheet, so docs/rules.md has an entry in its own
words for each id (section "The decisions D1..D22", an anchor ``dNN`` each).
These tests fail when a document, docstring or comment cites an id that has
no entry there, or links to a decision anchor that does not exist.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"

CITATION = re.compile(r"(?<![\w.])D(\d{1,2})\b")
ENTRY = re.compile(r'<a id="d(\d+)"></a>\*\*D(\d+) ([^*]+)\*\*(.*?)(?=<a id="|^#)', re.S | re.M)
DECISION_LINK = re.compile(r"\]\(((?:[\w./-]*rules\.md)?)#(d\d+|decisions)\)")


def cited_files():
    """The documents and the sources whose text cites decisions."""
    files = [ROOT / "README.md", ROOT / "BENCHMARKS.md", *sorted((ROOT / "docs").glob("*.md"))]
    for folder in ("hotspot", "tests", "benchmarks", "fuzz", "soak", "training"):
        files += sorted((ROOT / folder).rglob("*.py"))
    return [f for f in files if f.exists()]


def citations():
    """{decision number: [files citing it]}."""
    cited = {}
    for path in cited_files():
        for number in set(CITATION.findall(path.read_text(encoding="utf-8"))):
            cited.setdefault(int(number), []).append(str(path.relative_to(ROOT)))
    return cited


def entries():
    """{decision number: its explanation} from docs/rules.md."""
    found = {}
    for anchor, number, title, body in ENTRY.findall(RULES.read_text(encoding="utf-8")):
        assert anchor == number, f"docs/rules.md: the entry titled D{number} has the anchor d{anchor}"
        assert int(number) not in found, f"docs/rules.md: two entries for D{number}"
        found[int(number)] = f"{title} {body}"
    return found


def test_the_scan_sees_the_citations():
    """The scan finds the decisions the code is built on (a broken pattern would find none and pass)."""
    cited = citations()
    assert {13, 19, 20, 21, 22} <= set(cited)
    assert any(f.startswith("hotspot/core/") for f in cited[20])


def test_every_cited_decision_is_explained_in_rules_md():
    """Each decision id cited anywhere has an entry in docs/rules.md that says what it decides."""
    explained = entries()
    missing = {f"D{n}": files[:3] for n, files in sorted(citations().items()) if n not in explained}
    assert not missing, (
        f"decisions cited without an entry in docs/rules.md (add one to 'The decisions D1..D22', anchor dNN): {missing}"
    )
    for number, text in explained.items():
        words = len(re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).split())
        assert words >= 15, f"docs/rules.md: the entry of D{number} is {words} words long; say what it decides"


def test_decision_links_point_at_entries():
    """Every link to a decision (rules.md#d13, #d13 inside rules.md, #decisions) has its anchor."""
    anchors = {f"d{n}" for n in entries()} | {"decisions"}
    assert '<a id="decisions"></a>' in RULES.read_text(encoding="utf-8")
    broken = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target, anchor in DECISION_LINK.findall(path.read_text(encoding="utf-8")):
            points_at_rules = target.endswith("rules.md") or (target == "" and path == RULES)
            if points_at_rules and anchor not in anchors:
                broken.append(f"{path.relative_to(ROOT)}: {target}#{anchor}")
    assert not broken, f"links to decision anchors that docs/rules.md does not have: {broken}"
