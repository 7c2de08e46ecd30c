"""The upstream-ready phase.rs bug reports (docs/engines/phase/bugs/): one per
reproduction script, each quoting its rule, saying expected and observed, embedding the
script and its helper exactly as they are, and linked from docs/engines/phase.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REPRO = ROOT / "docs" / "engines" / "phase-repro"
BUGS = ROOT / "docs" / "engines" / "phase" / "bugs"
SCRIPTS = sorted(REPRO.glob("bug*.py"))


def report_of(script: Path) -> Path:
    """The report whose script link names ``script``."""
    found = [p for p in BUGS.glob("*.md") if f"phase-repro/{script.name})" in p.read_text("utf-8")]
    assert len(found) == 1, f"{script.name}: {len(found)} reports name it"
    return found[0]


def test_every_script_has_one_report_and_every_report_one_script():
    assert len(SCRIPTS) == 10
    assert sorted(report_of(s) for s in SCRIPTS) == sorted(BUGS.glob("*.md"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_a_report_quotes_the_rule_and_embeds_its_script_as_it_is(script):
    text = report_of(script).read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)\n```", text, re.S)
    assert blocks == [script.read_text("utf-8").rstrip(), (REPRO / "_board.py").read_text(
        "utf-8").rstrip()]
    for heading in ("## The rule", "## Reproduction", "## Expected", "## Observed"):
        assert heading in text, f"{report_of(script).name}: no {heading!r}"
    rule = text.split("## The rule", 1)[1].split("## Reproduction", 1)[0]
    assert re.search(r"^> \d{3}\.\d+[a-z]? \S", rule, re.M), "the rule is quoted with its number"
    assert "**Affected**: phase-python" in text


def test_docs_link_every_report():
    doc = (ROOT / "docs" / "engines" / "phase.md").read_text("utf-8")
    for report in BUGS.glob("*.md"):
        assert f"(phase/bugs/{report.name})" in doc
