"""`conformance compare`: engines side by side, chart first, from report.json files."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from conformance._cli import main
from conformance._selfcheck import recomputed
from conformance._types import ReportDict
from conformance.report import _chart, _compare

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "example-report" / "report.json"


@pytest.fixture
def reference() -> ReportDict:
    return json.loads(REFERENCE.read_text("utf-8"))


def broken(report: ReportDict, name: str, rule_index: int, message: str = "wrong") -> ReportDict:
    """The same report, as an engine that fails every item of one rule."""
    other = copy.deepcopy(report)
    other["engine"]["name"] = name
    rule = other["rules"][rule_index]
    rule["status"] = "fail"
    for result in other["results"]:
        if rule["id"] in result["rules"]:
            result["status"] = "fail"
            result["message"] = message
    return other


def test_failing_rule_shows_in_table_chart_and_failure_list(reference):
    bad = broken(reference, "mutant-engine", 0, message="<script>alert(1)</script>")
    page = _compare.render_html(_compare.compare([("a.json", reference), ("b.json", bad)]))
    rule = reference["rules"][0]["id"]
    # the table row of that rule has a pass cell and a linked fail cell
    row = next(r for r in re.findall(r"<tr><td>.*?</tr>", page)
               if re.sub(r"<[^>]+>", "", r).startswith(rule))
    assert "status-pass" in row and "status-fail" in row and 'href="#fail1-' in row
    # the link target exists and lists the failing items with their (escaped) message
    link = re.search(r'href="#(fail1-[^"]+)"', row)
    assert link
    target = link.group(1)
    assert f'id="{target}"' in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>" not in page
    # the chart: one bar per engine, and the broken engine's bar says what does not pass
    chart = re.search(r"<svg.*?</svg>", page, re.S)
    assert chart
    svg = chart.group()
    assert "mutant-engine" in svg and "reference" in svg
    assert "failing" in svg


def test_markdown_marks_each_engine(reference):
    bad = broken(reference, "other", 1)
    text = _compare.render_markdown(_compare.compare([("a", reference), ("b", bad)]))
    rule = reference["rules"][1]["id"]
    line = next(x for x in text.splitlines() if x.startswith(f"| {rule} "))
    assert "✅ pass" in line and "❌ fail" in line


def test_different_catalogues_are_compared_on_shared_items_only(reference):
    other = copy.deepcopy(reference)
    other["suite"]["catalogue_digest"] = "sha256:" + "0" * 64
    other["suite"]["ruleset_digests"]["vision"] = "sha256:" + "0" * 64   # its files differ
    dropped = other["results"].pop(0)
    comparison = _compare.compare([("a", reference), ("b", other)])
    assert comparison.shared_only
    assert "different catalogues" in comparison.notes[0]
    page = _compare.render_html(comparison)
    assert "different catalogues" in page
    # the dropped item is not counted for either engine
    assert all(dropped["id"] not in [r["id"] for r in c.failing_items(rule)]
               for c in comparison.columns for rule in dropped["rules"])


def test_a_reading_that_fails_differs_rather_than_fails():
    row: Any = {"id": "x/reading/r", "ruleset": "x", "ref": "reading", "kind": "reading",
                "title": "t", "status": "fail"}   # what the chart reads
    assert _chart.display_status(row) == "differs"
    assert _chart.family(row) == "readings"


@pytest.mark.parametrize(("ref", "kind", "family"), [
    ("12.3.1", "rule", "§12"), ("12 (unnumbered paragraph 1)", "rule", "§12"),
    ("609.7a", "rule", "§609.7"), ("QA-269", "qa", "Q&A"),
    ("ジャマー効果 bullet 3", "rule", "ジャマー効果")])
def test_rule_families(ref, kind, family):
    row: Any = {"id": "x/y", "ref": ref, "kind": kind}   # what family reads
    assert _chart.family(row) == family


def test_cli_writes_both_pages_and_refuses_a_non_report(tmp_path, reference, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    # a report read from a file must agree with itself: statuses as its results give them
    for folder, report in ((a, reference), (b, recomputed(broken(reference, "other", 2)))):
        folder.mkdir()
        (folder / "report.json").write_text(json.dumps(report), "utf-8")
    out = tmp_path / "out"
    assert main(["compare", str(a), str(b / "report.json"), "--out", str(out)]) == 0
    assert (out / "compare.html").is_file() and (out / "compare.md").is_file()
    junk = tmp_path / "junk.json"
    junk.write_text('{"not": "a report"}', "utf-8")
    assert main(["compare", str(junk), "--out", str(out)]) == 4
    assert "junk.json is not a report.json" in capsys.readouterr().err


def test_shard_reports_of_one_engine_are_merged_before_comparing(tmp_path):
    def shard(n: int) -> str:
        out = tmp_path / f"s{n}"
        assert main(["certify", "--engine", "reference", "--ruleset", "mtg", "--no-properties",
                     "--shard", f"{n}/2", "-q", "--out", str(out)]) == 0
        return str(out)

    reports = [(p, json.loads((Path(p) / "report.json").read_text("utf-8")))
               for p in (shard(1), shard(2))]
    comparison = _compare.compare(reports)
    assert len(comparison.columns) == 1
    column = comparison.columns[0]
    assert " + " in column.source
    assert column.report["settings"]["merged_shards"] == ["1/2", "2/2"]
    assert all(row["status"] == "pass" for row in column.rules.values()
               if row["kind"] != "informative")


def test_failing_items_show_values_as_json_like_every_other_view(reference):
    bad = broken(reference, "mutant-engine", 0)
    item = next(r for r in bad["results"] if r["status"] == "fail")
    item["mismatches"] = [{"path": "step 1: cards.c1.tapped", "expected": True,
                           "observed": {"zone": "hand"}}]
    item["message"] = "step 1: cards.c1.tapped: expected True, observed {'zone': 'hand'}"
    page = _compare.render_html(_compare.compare([("a.json", reference), ("b.json", bad)]))
    assert "expected true, observed {&quot;zone&quot;: &quot;hand&quot;}" in page
    assert "True" not in page and "{&#x27;zone" not in page


def test_rule_ids_break_only_between_their_parts(reference):
    page = _compare.render_html(_compare.compare([("a.json", reference)]))
    assert '<span class="seg">vision</span>/<wbr><span class="seg">IR-12.3.1</span>' in page


def test_one_catalogue_run_with_different_rulesets_is_not_two_catalogues(tmp_path):
    """`--ruleset mtg` and `--ruleset mtg --ruleset zatch` on one catalogue have
    different catalogue digests, but each ruleset's own digest agrees: the page says
    they ran different rulesets, not that they ran "2 different catalogues"."""
    def run(*rulesets: str) -> tuple[str, ReportDict]:
        out = tmp_path / "-".join(rulesets)
        argv = ["certify", "--engine", "reference", "--no-properties", "-q", "--out", str(out)]
        assert main([*argv, *(f"--ruleset={r}" for r in rulesets)]) == 0
        return str(out), json.loads((out / "report.json").read_text("utf-8"))

    one, two = run("mtg"), run("mtg", "zatch")
    assert one[1]["suite"]["catalogue_digest"] != two[1]["suite"]["catalogue_digest"]
    comparison = _compare.compare([one, two])
    assert not comparison.shared_only
    assert comparison.notes and "ran different rulesets" in comparison.notes[0]
    for page in (_compare.render_html(comparison), _compare.render_markdown(comparison)):
        assert "different catalogues" not in page
    # a ruleset whose own files differ is another catalogue
    two[1]["suite"]["ruleset_digests"]["mtg"] = "sha256:" + "0" * 64
    assert _compare.compare([one, two]).shared_only
