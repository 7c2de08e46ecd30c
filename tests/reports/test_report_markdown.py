"""report.md: everything a reader needs, and no way for an engine to break the layout."""

from __future__ import annotations

import re

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
    sample_report,
)

from conformance.report import render
from conformance.report._markdown import fence, inline

# --- a tiny CommonMark reader: just fences, tables and escapes ------------------------------

_OPEN = re.compile(r"^(`{3,})([^`]*)$")


def split_fences(md: str) -> tuple[list[tuple[str, str]], str]:
    """(info, content) of every fenced block, and the text outside them."""
    blocks, outside, lines = [], [], iter(md.split("\n"))
    for line in lines:
        opened = _OPEN.match(line)
        if not opened:
            outside.append(line)
            continue
        marks, body = opened.group(1), []
        for inner in lines:
            if re.fullmatch(rf"`{{{len(marks)},}}\s*", inner):
                break
            body.append(inner)
        else:
            raise AssertionError(f"fence {marks!r} is never closed")
        blocks.append((opened.group(2), "\n".join(body)))
    return blocks, "\n".join(outside)


def unescaped(text: str, chars: str) -> list[str]:
    """The characters from ``chars`` in ``text`` that no backslash escapes."""
    found, escaped = [], False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in chars:
            found.append(char)
    return found


def tables(md: str) -> list[list[str]]:
    """Runs of consecutive table lines."""
    runs: list[list[str]] = []
    previous = False
    for line in md.split("\n"):
        is_row = line.startswith("|")
        if is_row and previous:
            runs[-1].append(line)
        elif is_row:
            runs.append([line])
        previous = is_row
    return runs


def assert_layout_holds(md: str) -> None:
    """Every table row has as many cells as its header; no markup escapes outside fences."""
    _, outside = split_fences(md)
    for table in tables(outside):
        widths = {len(unescaped(row, "|")) for row in table}
        assert len(widths) == 1, table
    for line in outside.split("\n"):
        assert unescaped(line, "`<>") == [], line


# --- contents ---------------------------------------------------------------------------------


def test_summary_rulesets_and_rules_are_tabled() -> None:
    md = render(sample_report(), "md")
    assert md.startswith("# Conformance report: reference-engine 0.1.0\n")
    assert ("Items (cases and properties): 2 passed, 2 failed, 1 errors, 1 skipped "
            "(1 known failures: not counted)") in md
    # ruleset, claimed, seed rules, fully checked, pass, fail, error, skip, uncovered,
    # readings followed, cases, properties, counted failures
    assert re.search(r"^\| vision +\| yes +\| 5 +\| 0 +\| 0 +\| 2 +\| 1 +\| 1 +\| 1 +\| 0/0 +"
                     r"\| 4 +\| 1 +\| 2 ", md, re.M)
    assert re.search(r"^\| seed rules +\| 7 +\| 1 +\| 1 +\| 3 +\| 1 +\| 1 +\| 1 +\|", md, re.M)
    assert re.search(r"^\| informative +\| 1 +\| nothing to follow", md, re.M)
    assert "### vision" in md and "### mtg" in md
    for rule in sample_report()["rules"]:
        row = re.search(rf"^\| {re.escape(rule['id'])} .*$", md, re.M)
        assert row, rule["id"]
        shown = "nothing to follow" if rule["kind"] == "informative" else rule["status"]
        assert f"| {shown} " in row.group() + " "
    assert re.search(r"^\| vision/IR-3\.2\.5\.b +\| rule +\| 1 +\| 1 +\| 1/1 +\| fail", md, re.M)
    assert_layout_holds(md)


def test_a_failure_shows_expected_observed_message_and_rerun() -> None:
    report = sample_report()
    md = render(report, "md")
    section = md.split("### vision/qa-269/x-equals-nodes-paid")[1].split("\n### ")[0]
    assert "- **step:** 1" in section
    assert "- **message:** 1 observation differs" in section
    assert re.search(r"^\| step 1: cards\.t1\.damage +\| 4 +\| 3 +\|$", section, re.M)
    blocks, _ = split_fences(section)
    assert ("sh", rerun("vision/qa-269/x-equals-nodes-paid")) in blocks


def test_errors_show_stderr_and_properties_their_counterexample_case() -> None:
    md = render(sample_report(), "md")
    errors = md.split("## Errors")[1].split("\n## ")[0]
    blocks, _ = split_fences(errors)
    assert ("text", "Traceback (most recent call last):\n  File engine.py\nKeyError: 'x'") in blocks
    assert ("sh", rerun("vision/negate/keeps-brackets")) in blocks
    properties = md.split("### vision/prop/shuffle-iff-whole-deck")[1].split("\n### ")[0]
    blocks, _ = split_fences(properties)
    assert ("yaml", COUNTEREXAMPLE.rstrip("\n")) in blocks


def test_known_failures_are_marked_and_stale_ones_called_out() -> None:
    md = render(sample_report(), "md")
    assert "- **outcome:** fail (expected)" in md
    unexpected = md.split("## Unexpected passes")[1]
    assert "mtg/609-4/stale-known-failure" in unexpected
    assert "remove it from the known-failures file" in unexpected


def test_no_failures_says_so() -> None:
    report = sample_report()
    report["results"] = [r for r in report["results"] if r["status"] == "pass"
                         and not r["expected_failure"]]
    md = render(report, "md")
    assert "No failures." in md and "No errors." in md
    assert "## Unexpected passes" not in md


def test_problems_and_mutation_are_listed() -> None:
    md = render(sample_report(), "md")
    assert "- **known-failures:** mtg/609-4/stale-known-failure passed; remove it" in md
    assert "Score: 50% of 2 mutants killed; 50% caught by the certification" in md
    assert re.search(r"^\| x-from-cost +\| vision +\| vision/QA-269 +\| \*\*no\*\*", md, re.M)


def test_a_partial_report_says_so_at_the_top() -> None:
    md = render(partial_report(), "md")
    head = md.split("## Summary")[0]
    assert "INCOMPLETE: the run was interrupted (SIGINT after 7 results)" in head
    assert "INCOMPLETE" not in render(sample_report(), "md")


# --- hostile engines ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", [SCRIPT, MARKDOWN_BREAKER, XML_BREAKER])
def test_engine_text_cannot_break_tables_spans_or_fences(text: str) -> None:
    md = render(hostile_report(text), "md")
    assert_layout_holds(md)
    blocks, outside = split_fences(md)
    assert "<" not in outside.replace("\\<", "")
    stderr_blocks = [body for _, body in blocks if body.startswith("stderr ")]
    assert len(stderr_blocks) == 5  # one per result that needs attention


def test_script_tags_come_out_as_text() -> None:
    md = render(hostile_report(SCRIPT), "md")
    assert "# Conformance report: \\<script\\>alert(1)\\</script\\>" in md


def test_control_characters_come_out_visible() -> None:
    md = render(hostile_report(XML_BREAKER), "md")
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]", md)
    blocks, _ = split_fences(md)
    assert any("nul\\x00 bell\\x07 esc\\x1b[31m" in body for _, body in blocks)
    md.encode("utf-8")


def test_a_fence_is_longer_than_any_backtick_run_inside() -> None:
    report = sample_report()
    failing(report, "error")["stderr"] = "```\n`````` not the end\n```"
    blocks, _ = split_fences(render(report, "md"))
    assert ("text", "```\n`````` not the end\n```") in blocks


def test_long_stderr_is_cut_to_its_last_lines() -> None:
    report = sample_report()
    lines = [f"line {n}" for n in range(100_000)]
    failing(report, "error")["stderr"] = "\n".join(lines)
    md = render(report, "md")
    assert len(md) < 20_000
    assert "line 99999" in md and "line 0\n" not in md
    assert "earlier characters in report.json" in md


def test_long_messages_are_cut() -> None:
    report = sample_report()
    failing(report)["message"] = "x" * 50_000
    md = render(report, "md")
    assert len(md) < 15_000
    assert "more characters in report.json" in md


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.text())
def test_inline_text_is_one_line_with_every_special_escaped(text: str) -> None:
    out = inline(text)
    assert "\n" not in out and "\r" not in out
    assert unescaped(out, "|`<>[]*_~&$") == []


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("`~ \nab|")))
def test_a_fence_gives_back_exactly_its_content(text: str) -> None:
    blocks, outside = split_fences(fence(text))
    assert blocks == [("text", text)]
    assert outside == ""
