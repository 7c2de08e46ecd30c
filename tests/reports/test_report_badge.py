"""badge.json: a shields.io endpoint counting rules the engine follows."""

from __future__ import annotations

import json

import pytest
from test_report_samples import partial_report, rule, sample_report, with_verdict

from conformance.report import render
from conformance.report._badge import badge


def test_the_endpoint_format_is_exactly_what_shields_io_reads() -> None:
    data = json.loads(render(sample_report(), "badge"))
    assert data == {"schemaVersion": 1, "label": "conformance", "message": "1/7 rules",
                    "color": "red"}


def test_one_ruleset_is_its_own_label() -> None:
    report = sample_report()
    report["settings"]["rulesets"] = ["vision"]
    report["rules"] = [r for r in report["rules"] if r["ruleset"] == "vision"]
    assert badge(report)["label"] == "vision"


def test_a_badge_for_one_ruleset_of_many() -> None:
    assert badge(sample_report(), "mtg") == {"schemaVersion": 1, "label": "mtg",
                                             "message": "1/2 rules", "color": "orange"}


def _with_statuses(statuses: list[str]) -> dict:
    report = sample_report()
    # each rule has an item, so a passing rule is fully checked
    report["rules"] = [rule(f"vision/IR-{n}", s, cases=(f"vision/c/{n}",))
                       for n, s in enumerate(statuses)]
    return with_verdict(report)


@pytest.mark.parametrize(("passing", "colour"), [
    (10, "brightgreen"), (9, "green"), (8, "yellowgreen"), (5, "orange"), (4, "red"), (0, "red"),
])
def test_colour_follows_the_passing_fraction(passing: int, colour: str) -> None:
    report = _with_statuses(["pass"] * passing + ["fail"] * (10 - passing))
    assert badge(report)["color"] == colour
    assert badge(report)["message"] == f"{passing}/10 rules"


def test_informative_rules_do_not_count_but_uncovered_and_skipped_do() -> None:
    report = _with_statuses(["pass", "uncovered", "skip"])
    report["rules"].append(rule("vision/IR-9", "uncovered", kind="informative"))
    assert badge(with_verdict(report))["message"] == "1/3 rules"


def test_a_partial_or_empty_run_is_grey() -> None:
    assert badge(partial_report())["color"] == "lightgrey"
    assert badge(partial_report())["message"] == "1/7 rules (partial)"
    assert badge(_with_statuses([]))["message"] == "0/0 rules"
    assert badge(_with_statuses([]))["color"] == "lightgrey"
