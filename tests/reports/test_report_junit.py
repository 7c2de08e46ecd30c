"""junit.xml: parses, one suite per ruleset, and CI sees failures, errors and skips right."""

from __future__ import annotations

import xml.etree.ElementTree as ET

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


def parse(report) -> ET.Element:
    return ET.fromstring(render(report, "junit").encode("utf-8"))


def case(root: ET.Element, name: str) -> ET.Element:
    found = root.findall(f".//testcase[@name='{name}']")
    assert len(found) == 1, name
    return found[0]


def test_one_suite_per_ruleset_with_counts() -> None:
    root = parse(sample_report())
    assert root.tag == "testsuites"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert list(suites) == ["vision", "mtg"]
    assert {k: suites["vision"].get(k) for k in ("tests", "failures", "errors", "skipped")} == \
        {"tests": "5", "failures": "2", "errors": "1", "skipped": "1"}
    assert {k: suites["mtg"].get(k) for k in ("tests", "failures", "errors", "skipped")} == \
        {"tests": "2", "failures": "1", "errors": "0", "skipped": "1"}
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) \
        == ("7", "3", "1", "2")
    for suite in suites.values():
        assert len(suite.findall("testcase")) == int(suite.get("tests", ""))


def test_testcase_names_are_ids_and_classnames_ruleset_and_rule() -> None:
    root = parse(sample_report())
    element = case(root, "vision/qa-269/x-equals-nodes-paid")
    assert element.get("classname") == "vision.QA-269"
    assert case(root, "vision/shuffle/whole-deck").get("classname") == "vision.IR-3.2.5.b"
    rules = [p.get("value") for p in element.findall("properties/property[@name='rule']")]
    assert rules == ["vision/QA-269"]


def test_a_failure_carries_message_expected_observed_and_rerun() -> None:
    failure = case(parse(sample_report()), "vision/qa-269/x-equals-nodes-paid").find("failure")
    assert failure is not None and failure.text is not None
    assert failure.get("type") == "mismatch"
    assert failure.get("message") == "1 observation differs"
    assert "step 1: cards.t1.damage: expected 4, observed 3" in failure.text
    assert f"rerun: {rerun('vision/qa-269/x-equals-nodes-paid')}" in failure.text


def test_an_error_carries_stderr_in_system_err() -> None:
    element = case(parse(sample_report()), "vision/negate/keeps-brackets")
    error = element.find("error")
    assert error is not None and error.get("message") == "engine crashed: exit status 1"
    assert "rerun: " in (error.text or "")
    assert element.findtext("system-err", "").endswith("KeyError: 'x'")


def test_skips_known_failures_and_unexpected_passes() -> None:
    root = parse(sample_report())
    skipped = case(root, "vision/zone/hidden").find("skipped")
    assert skipped is not None
    assert skipped.get("message") == "unsupported: reveal action"
    known = case(root, "mtg/609-3/do-as-much-as-possible")
    assert known.find("failure") is None
    assert known.findall("skipped")[0].get("type") == "expected-failure"
    stale = case(root, "mtg/609-4/stale-known-failure").find("failure")
    assert stale is not None
    assert stale.get("type") == "unexpected-pass"
    assert "remove it" in stale.get("message", "")
    passed = case(root, "vision/shuffle/whole-deck")
    assert [child.tag for child in passed] == ["properties"]


def test_a_property_failure_names_its_counterexample() -> None:
    failure = case(parse(sample_report()), "vision/prop/shuffle-iff-whole-deck").find("failure")
    assert failure is not None and failure.text is not None
    assert f"counterexample (YAML case):\n{COUNTEREXAMPLE}" in failure.text + "\n"


def test_a_partial_report_errors_and_says_so() -> None:
    root = parse(partial_report())
    run = root.find("testsuite[@name='run']")
    assert run is not None and run.get("errors") == "1"
    error = run.find("testcase/error")
    assert error is not None
    assert error.get("type") == "interrupted"
    assert "INCOMPLETE" in error.get("message", "")
    assert root.get("errors") == "2"
    assert root.findall("testsuite/properties/property[@name='complete']")[0].get("value") \
        == "false"
    assert parse(sample_report()).find("testsuite[@name='run']") is None


@pytest.mark.parametrize("text", [SCRIPT, MARKDOWN_BREAKER, XML_BREAKER])
def test_hostile_text_always_parses(text: str) -> None:
    root = parse(hostile_report(text))
    error = case(root, "vision/negate/keeps-brackets")
    if text != XML_BREAKER:
        assert error.findtext("system-err") == f"stderr {text}"
        assert error.findall("error")[0].get("message") == " ".join(f"message {text}".split())


def test_forbidden_characters_are_shown_not_dropped() -> None:
    root = parse(hostile_report(XML_BREAKER))
    stderr = case(root, "vision/negate/keeps-brackets").findtext("system-err")
    assert stderr == ("stderr nul\\x00 bell\\x07 esc\\x1b[31m vt\\x0b ff\\x0c fffe\\ufffe "
                      "surrogate\\udcff end")


def test_long_stderr_is_bounded() -> None:
    report = sample_report()
    failing(report, "error")["stderr"] = "z" * 1_000_000 + "\nthe end"
    stderr = case(parse(report), "vision/negate/keeps-brackets").findtext("system-err", "")
    assert len(stderr) < 17_000 and stderr.endswith("the end")


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.text())
def test_any_engine_text_gives_parseable_xml(text: str) -> None:
    report = hostile_report(text)
    failing(report)["mismatches"][0]["path"] = text
    parse(report)
