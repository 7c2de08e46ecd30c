"""badge.json: a shields.io endpoint counting rules the engine follows."""

from __future__ import annotations

import json
from typing import cast

import pytest
from test_report_samples import partial_report, result, rule, sample_report, with_verdict

from conformance._results import Status
from conformance._types import ReportDict
from conformance.report import render
from conformance.report._badge import badge


def test_the_endpoint_format_is_exactly_what_shields_io_reads() -> None:
    data = json.loads(render(sample_report(), "badge"))
    assert data == {"schemaVersion": 1, "label": "conformance",
                    "message": "fail: 1/7 seed rules checked", "color": "red"}


def test_one_ruleset_is_its_own_label() -> None:
    report = sample_report()
    report["settings"]["rulesets"] = ["vision"]
    report["rules"] = [r for r in report["rules"] if r["ruleset"] == "vision"]
    assert badge(report)["label"] == "vision"


def test_a_badge_for_one_ruleset_of_many() -> None:
    assert badge(sample_report(), "mtg") == {"schemaVersion": 1, "label": "mtg",
                                             "message": "fail: 1/2 seed rules checked",
                                             "color": "red"}


def _with_statuses(statuses: list[str]) -> ReportDict:
    report = sample_report()
    # each rule has an item of its status, so a passing rule is fully checked
    report["rules"] = [rule(f"vision/IR-{n}", s, cases=(f"vision/c/{n}",) if s != "uncovered"
                            else ()) for n, s in enumerate(statuses)]
    report["results"] = [result(f"vision/c/{n}", cast(Status, s), rules=[f"vision/IR-{n}"])
                         for n, s in enumerate(statuses) if s != "uncovered"]
    report["engine"]["rulesets"] = ["vision"]
    return with_verdict(report)


@pytest.mark.parametrize(("statuses", "message", "colour"), [
    (["pass"] * 10, "10/10 seed rules", "brightgreen"),
    (["pass"] * 9 + ["fail"], "fail: 9/10 seed rules checked", "red"),
    (["pass"] * 9 + ["error"], "error: 9/10 seed rules checked", "red"),
    (["pass"] * 9 + ["skip"], "partial: 9/10 seed rules checked", "yellow"),
    (["pass"] * 5 + ["uncovered"] * 5, "partial: 5/10 seed rules checked", "yellow"),
    (["pass"] * 4 + ["skip"] * 6, "partial: 4/10 seed rules checked", "orange"),
])
def test_colour_says_what_the_verdict_says(statuses: list[str], message: str,
                                           colour: str) -> None:
    """Green is a pass only, red a broken rule (or an error) however many pass, and a
    partial run that broke nothing is yellow or orange by its coverage; the message
    names what it counts (seed rules), not a bare fraction."""
    report = _with_statuses(statuses)
    assert badge(report) == {"schemaVersion": 1, "label": "conformance", "message": message,
                             "color": colour}


def test_a_partial_run_below_fail_under_is_red() -> None:
    report = _with_statuses(["pass"] * 9 + ["skip"])
    report["verdict"]["exit_code"] = 1   # as --fail-under 95 sets it
    assert badge(report)["color"] == "red"


def test_informative_rules_do_not_count_but_uncovered_and_skipped_do() -> None:
    report = _with_statuses(["pass", "uncovered", "skip"])
    report["rules"].append(rule("vision/IR-9", "uncovered", kind="informative"))
    assert badge(with_verdict(report))["message"] == "partial: 1/3 seed rules checked"


def test_a_partial_or_empty_run_is_grey() -> None:
    assert badge(partial_report())["color"] == "lightgrey"
    assert badge(partial_report())["message"] == "1/7 seed rules (partial)"
    assert badge(_with_statuses([]))["message"] == "no verdict: nothing checked"
    assert badge(_with_statuses([]))["color"] == "lightgrey"
