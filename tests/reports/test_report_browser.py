"""The HTML pages as a person sees them: headless Chromium, 800 px wide.

Skipped, saying why, when no Chromium is installed (Debian: `apt-get install
chromium fonts-noto-cjk`).  Each test saves a screenshot next to the page so
a failure can be looked at.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _browser import Browser, find_chromium

from conformance.report import _compare, render

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(find_chromium() is None,
                       reason="no Chromium on PATH: `apt-get install chromium fonts-noto-cjk` "
                              "to look at the HTML reports in a real browser"),
]

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "example-report"
JAPANESE_TITLE = "博麗神社"   # in the title of vision/ex-12.3.1


@pytest.fixture(scope="module")
def browser():
    chromium = find_chromium()
    assert chromium is not None
    with Browser(chromium, width=800) as b:
        yield b


def test_comparison_page_shows_chart_table_and_japanese_titles(browser, tmp_path):
    report = json.loads((REFERENCE / "report.json").read_text("utf-8"))
    other = json.loads(json.dumps(report))
    other["engine"]["name"] = "other"
    other["rules"][0]["status"] = "fail"
    _compare.write(_compare.compare([("a", report), ("b", other)]), tmp_path)
    browser.open(tmp_path / "compare.html")
    browser.screenshot(tmp_path / "compare.png")
    assert browser.console_errors() == []
    assert browser.visible("svg.chart")
    assert browser.visible("table.compare")
    assert browser.text_visible(JAPANESE_TITLE)
    assert browser.horizontal_overflow() == 0


def test_single_engine_report_fits_800px(browser, tmp_path):
    page = tmp_path / "report.html"
    report = json.loads((REFERENCE / "report.json").read_text("utf-8"))
    page.write_text(render(report, "html"), "utf-8")
    browser.open(page)
    browser.screenshot(tmp_path / "report.png")
    assert browser.console_errors() == []
    assert browser.visible("#sticky") and browser.visible("#summary")
    assert browser.visible("svg.chart")
    assert browser.text_visible(JAPANESE_TITLE)
    assert browser.horizontal_overflow() == 0
    # the summary stays in view when the page is scrolled to its end
    browser.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    top = browser.evaluate("document.getElementById('sticky').getBoundingClientRect().top")
    assert 0 <= top <= 1


@pytest.mark.parametrize("page", ["reports/index.html", "reports/phase/history/history.html"])
def test_published_index_and_history_pages_fit_and_link(browser, page):
    """The committed index and phase.rs history pages, as published (tox -e publish)."""
    root = REFERENCE.parents[1]
    browser.open(root / page)
    assert browser.console_errors() == []
    assert browser.horizontal_overflow() == 0
    assert browser.text_visible("phase.rs")
    assert browser.visible("table")
    links = browser.evaluate("[...document.querySelectorAll('a')].map(a => a.href)")
    assert all((root / page).parent.joinpath(Path(link.removeprefix("file://")))
               .resolve().is_file() for link in links), links
