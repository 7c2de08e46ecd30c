"""Items of rulesets the engine does not claim are deselected, not skipped (issue 42
item 5): counted apart, as pytest's "deselected", and in no skip reason, rule table,
chart or denominator."""

from __future__ import annotations

from pathlib import Path

import toy

from conformance._certify import RunConfig, certify
from conformance._settings import get_profile
from conformance.report import render, validate_report
from conformance.report._text import counts_line, coverage_line, ruleset_rows


def _two_rulesets(tmp_path: Path) -> Path:
    """The toy ruleset, and a copy of it named toy2 that the toy engine does not claim."""
    root = toy.write_catalogue(tmp_path / "cases")
    other = toy.write_ruleset(root / "toy2")
    for path in other.iterdir():
        path.write_text(path.read_text("utf-8").replace("toy", "toy2"), "utf-8")
    return root


def test_an_unclaimed_ruleset_is_deselected_not_skipped(tmp_path):
    report = certify(RunConfig(engine_spec="python:toy:ToyEngine",
                               profile=get_profile("quick"), cases_root=_two_rulesets(tmp_path)))
    validate_report(report)
    # before: toy2's 2 cases were results, skipped "engine does not claim ruleset 'toy2'"
    assert {r["ruleset"] for r in report["results"]} == {"toy"}
    assert report["summary"]["skip"] == 0 and report["summary"]["total"] == 2
    assert report["deselected"] == {"toy2": 2} and report["summary"]["deselected"] == 2
    assert report["verdict"]["coverage"]["items"] == 2
    assert report["verdict"]["coverage"]["top_reasons"] == []
    assert {r["ruleset"] for r in report["rules"]} == {"toy"}
    assert [row["ruleset"] for row in ruleset_rows(report)] == ["toy"]
    line = counts_line(report)
    assert line.endswith("2 deselected (not claimed by the engine: toy2)"), line
    assert "toy2" not in coverage_line(report)
    for fmt in ("md", "html", "junit"):
        text = render(report, fmt)
        assert "does not claim" not in text, fmt
        assert "2 deselected (not claimed by the engine: toy2)" in text, fmt
        assert "toy2/" not in text, fmt   # no rule row, no item
