"""report.html: one self-contained page; engine text is always text, never markup."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_report_samples import (
    COUNTEREXAMPLE,
    MARKDOWN_BREAKER,
    SCRIPT,
    XML_BREAKER,
    failing,
    hostile_report,
    partial_report,
    rerun,
    rule,
    sample_report,
)

from conformance.report import render


class Page(HTMLParser):
    """What a browser would build: tags with attributes, and the text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.chunks: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)

    @property
    def text(self) -> str:
        return "".join(self.chunks)

    def ids(self) -> set[str]:
        return {i for _, a in self.tags if (i := a.get("id"))}


def assert_inert(page: Page) -> None:
    """No script, no event handlers, nothing fetched from elsewhere."""
    allowed = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3",
               "p", "dl", "dt", "dd", "nav", "a", "main", "section", "table", "thead", "tbody",
               "tr", "th", "td", "span", "ul", "li", "strong", "input", "label", "article",
               "pre", "code", "details", "summary", "div", "wbr",
               "svg", "rect", "text"}  # the chart: inline SVG drawn by the suite
    for tag, attrs in page.tags:
        assert tag in allowed, tag
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name)
            assert name not in ("src", "srcdoc", "action"), (tag, name)
            if name == "href":
                assert value and value.startswith("#"), value


def test_the_page_is_self_contained_and_forbids_scripts() -> None:
    text = render(sample_report(), "html")
    page = Page(text)
    assert_inert(page)
    csp = [a for t, a in page.tags if t == "meta" and a.get("http-equiv")]
    assert csp and "default-src 'none'" in (csp[0]["content"] or "")
    assert "<style>" in text and "<link" not in text and "http://" not in text


def test_summary_rules_and_status_colours() -> None:
    page = Page(render(sample_report(), "html"))
    rows = {a["id"]: a["class"] for t, a in page.tags if t == "tr" and a.get("id")}
    assert rows["rule-vision_2fQA-269"] == "status-fail"
    assert rows["rule-mtg_2fCR-609.4"] == "status-pass"
    assert rows["rule-vision_2fIR-1"] == "status-uncovered"
    assert "Revealing the whole deck shuffles it" in page.text
    assert "reference-engine 0.1.0" in page.text
    text = render(sample_report(), "html")
    for status in ("pass", "fail", "error", "skip", "uncovered"):
        assert re.search(rf"\.status-{status} \.status[^{{]*\{{color:#", text), status


def test_failures_show_expected_observed_and_rerun() -> None:
    text = render(sample_report(), "html")
    article = text.split('<article id="result-vision_2fqa-269_2fx-equals-nodes-paid"')[1]
    article = article.split("</article>")[0]
    assert "<code>step 1: cards.t1.damage</code>" in article
    assert "<pre>4</pre>" in article and "<pre>3</pre>" in article
    assert f"<pre><code>{rerun('vision/qa-269/x-equals-nodes-paid')}</code></pre>" in article
    prop = text.split('<article id="result-vision_2fprop_2fshuffle-iff-whole-deck"')[1]
    assert f"<pre>{html.escape(COUNTEREXAMPLE)}</pre>" in prop.split("</article>")[0]
    errors = Page(text.split('id="errors"')[1].split("</section>")[0]).text
    assert "KeyError: 'x'" in errors and "engine crashed: exit status 1" in errors


def test_failures_can_be_reached_and_filtered_without_javascript() -> None:
    text = render(sample_report(), "html")
    page = Page(text)
    assert "<script" not in text
    hrefs = {(a["href"] or "")[1:] for t, a in page.tags if t == "a"}
    assert {"failures", "errors", "unexpected-passes"} <= hrefs
    assert hrefs <= page.ids(), hrefs - page.ids()  # every link lands somewhere
    assert ("input", {"type": "checkbox", "id": "only-failing"}) in page.tags
    assert "#only-failing:checked~.scroll tr.status-pass" in text


def test_a_partial_report_carries_a_banner() -> None:
    page = Page(render(partial_report(), "html"))
    assert ("p", {"class": "banner", "role": "alert"}) in page.tags
    assert "INCOMPLETE: the run was interrupted" in page.text
    assert "INCOMPLETE" not in render(sample_report(), "html")


@pytest.mark.parametrize("text", [SCRIPT, MARKDOWN_BREAKER, XML_BREAKER])
def test_engine_text_stays_text(text: str) -> None:
    page = Page(render(hostile_report(text), "html"))
    assert_inert(page)
    if text != XML_BREAKER:
        # The hostile string survives as *text*: engine name, messages, stderr, observed.
        assert page.text.count(text) >= 1 + 1 + 5 + 5
    assert page.text.count('"text": ') >= 1


def test_script_is_escaped_in_every_field() -> None:
    text = render(hostile_report(SCRIPT), "html")
    assert "<script>" not in text
    assert "<title>Conformance report: &lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<pre>stderr &lt;script&gt;alert(1)&lt;/script&gt;</pre>" in text
    assert "&quot;text&quot;: &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;" in text


def test_long_stderr_is_bounded() -> None:
    report = sample_report()
    failing(report, "error")["stderr"] = "y" * 1_000_000 + "\nlast line"
    text = render(report, "html")
    assert len(text) < 40_000
    assert "last line" in text and "earlier characters in report.json" in text


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.text())
def test_any_engine_text_is_inert(text: str) -> None:
    report = hostile_report(text)
    page = Page(render(report, "html"))
    assert_inert(page)


def test_the_verdict_word_is_shown_once() -> None:
    page = Page(render(sample_report(), "html"))
    status = sample_report()["verdict"]["status"]
    found = re.search(r"Verdict: (.*)", page.text)
    assert found
    verdict = found.group(1)
    assert verdict.startswith(f"{status} ") and not verdict.startswith(f"{status} {status}")


def test_rule_ids_wrap_between_parts_and_labels_have_a_cjk_font() -> None:
    text = render(sample_report(), "html")
    rule = sample_report()["rules"][0]["id"]
    first, rest = rule.split("/", 1)
    # an id breaks after a slash, never inside a part (the cells break anywhere else)
    assert (f'<span class="id"><span class="seg">{first}</span>/<wbr>'
            f'<span class="seg">{rest}</span></span>') in text
    assert ".id{overflow-wrap:normal;word-break:normal}.seg{white-space:nowrap}" in text
    # the body and the chart (which may be saved on its own) name Japanese faces
    fonts = re.search(r"body\{font:([^;]*);", text), \
        re.search(r'<svg[^>]*font-family="([^"]*)"', text)
    assert fonts[0] and fonts[1]
    body, svg = fonts[0].group(1), fonts[1].group(1)
    for stack in (body, html.unescape(svg)):
        assert "Noto Sans CJK JP" in stack and "Hiragino Sans" in stack
        assert stack.rstrip().endswith("sans-serif")


def test_item_ids_break_only_between_parts_and_informative_rules_are_not_gaps() -> None:
    """Every part of an id, rule or item, is kept whole (a break inside
    ``durability-four-survives-entry`` reads as two ids); an informative rule, which
    has nothing to follow, is not styled as an uncovered one."""
    report = sample_report()
    item = "vision/qa-2013-11-13/durability-four-survives-entry"
    report["results"][1]["id"] = item
    report["rules"].append(rule("vision/IR-0", "uncovered", kind="informative"))
    text = render(report, "html")
    assert ('<span class="seg">vision</span>/<wbr><span class="seg">qa-2013-11-13</span>/<wbr>'
            '<span class="seg">durability-four-survives-entry</span>') in text
    page = Page(text)
    rows = {a["id"]: a["class"] for t, a in page.tags if t == "tr" and a.get("id")}
    assert rows["rule-vision_2fIR-0"] == "status-informative"
    assert rows["rule-vision_2fIR-1"] == "status-uncovered"
    assert "~.scroll tr.status-informative{display:none}" in text
