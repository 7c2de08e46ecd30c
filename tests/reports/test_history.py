"""`conformance history`: one engine's releases side by side, and per item the release
that fixed or broke it; every engine text escaped; reports read by the strict reader."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from conformance._cli import main
from conformance._selfcheck import recomputed
from conformance.report import _history

ROOT = Path(__file__).resolve().parents[2]
PHASE = ROOT / "reports" / "phase" / "report.json"


@pytest.fixture
def newest() -> dict:
    return json.loads(PHASE.read_text("utf-8"))


def release(report: Any, version: str, statuses: dict[str, str]) -> Any:
    """The same report as another release whose items ``statuses`` ended otherwise."""
    other = copy.deepcopy(report)
    other["engine"]["version"] = version
    for result in other["results"]:
        if result["id"] in statuses:
            result["status"] = statuses[result["id"]]
            result["message"] = "" if result["status"] == "pass" else "wrong"
            result["mismatches"] = []
    return recomputed(other)


@pytest.mark.parametrize(("before", "after", "word"), [
    ("fail", "pass", "fixed"), ("skip", "pass", "fixed"), ("error", "pass", "fixed"),
    ("pass", "fail", "broke"), ("pass", "error", "broke"),
    ("fail", "skip", "changed"), ("pass", "skip", "changed"), ("—", "fail", "changed"),
    ("fail", "fail", "")])
def test_each_status_change_has_its_word(before, after, word):
    assert _history.change(before, after) == word


def test_an_item_says_the_release_that_fixed_it_and_the_one_that_broke_it(newest):
    passing = next(r["id"] for r in newest["results"] if r["status"] == "pass")
    failing = next(r["id"] for r in newest["results"] if r["status"] == "fail")
    old = release(newest, "1.0", {passing: "fail", failing: "pass"})
    mid = release(newest, "1.1", {failing: "pass"})
    h = _history.history([("old", old), ("mid", mid), ("new", newest)])
    assert _history.changes(_history.item_statuses(h, passing), ["1.0", "1.1", "new"]) == [
        "fixed in 1.1"]
    version = newest["engine"]["version"]
    assert _history.totals(h) == [("1.1", 1, 0), (version, 0, 1)]
    markdown = _history.render_markdown(h)
    assert "fixed in 1.1" in markdown and f"broke in {version}" in markdown
    page = _history.render_html(h)
    assert f"broke in {version}" in page
    assert sorted((i, found) for i, _, found in _history.changed(h)) == sorted(
        [(passing, ["fixed in 1.1"]), (failing, [f"broke in {version}"])])
    assert "Items whose status changed (2)" in page and "Items whose status changed (2)" in markdown



def test_engine_text_is_escaped_in_both_formats(newest):
    hostile = copy.deepcopy(newest)
    hostile["engine"]["name"] = "<script>alert(1)</script>"
    hostile["engine"]["version"] = "1.0 | <img src=x onerror=alert(1)>"
    h = _history.history([("a", hostile), ("b", newest)])
    page = _history.render_html(h)
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;" in page
    markdown = _history.render_markdown(h)
    assert "<script>" not in markdown and "\\| \\<img" in markdown


def test_different_engines_or_catalogues_are_said(newest):
    other = copy.deepcopy(newest)
    other["engine"]["name"] = "another engine"
    other["suite"]["catalogue_digest"] = "sha256:" + "0" * 64
    notes = _history.history([("a", other), ("b", newest)]).notes
    assert len(notes) == 2 and "2 engines" in notes[0] and "2 catalogues" in notes[1]


def test_cli_writes_both_pages_and_refuses_a_non_report(tmp_path, newest, capsys):
    old = tmp_path / "old"
    old.mkdir()
    first = next(r["id"] for r in newest["results"] if r["status"] == "pass")
    (old / "report.json").write_text(json.dumps(release(newest, "0.1", {first: "fail"})),
                                     "utf-8")
    out = tmp_path / "out"
    assert main(["history", str(old), str(PHASE), "--out", str(out)]) == 0
    assert "fixed in " in (out / "history.md").read_text("utf-8")
    assert (out / "history.html").is_file()
    junk = tmp_path / "junk.json"
    junk.write_text('{"not": "a report"}', "utf-8")
    assert main(["history", str(junk), "--out", str(out)]) == 4
    assert "junk.json is not a report.json" in capsys.readouterr().err
