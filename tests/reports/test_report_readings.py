"""Readings, the reference comparison, skip reasons and a failed handshake in every format.

A reading is the catalogue's answer where the seed is silent: it is shown apart
("follows / differs"), and so is the comparison with the reference engine;
neither is counted among the failures unless the run was strict.
"""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET

import pytest
from test_report_samples import (
    MARKDOWN_BREAKER,
    SCRIPT,
    XML_BREAKER,
    readings_report,
    sample_report,
    with_verdict,
)

from conformance.report import render


def test_markdown_shows_readings_differences_and_skips_apart():
    md = render(readings_report(), "md")
    assert "### vision: Readings (the catalogue's answer" in md
    assert "| vision/reading/draw-short-deck | reading" in md and "| differs" in md
    readings = md.index("## Differs from the catalogue's readings")
    reference = md.index("## Differs from the reference engine")
    skipped = md.index("## Skipped, by reason")
    assert md.index("## Failures") < readings < reference < skipped
    failures = md[md.index("## Failures"):md.index("## Errors")]
    assert "vision/draw/short-deck" not in failures and "differential" not in failures
    assert "| reference engine " in md  # the expected column says whose answer it is


def test_html_and_junit_show_them_apart():
    page = render(readings_report(), "html")
    assert 'id="differs-from-the-reference-engine"' in page and 'id="skipped"' in page
    root = ET.fromstring(render(readings_report(), "junit"))
    kinds = {c.get("name"): s.get("type") for c in root.iter("testcase")
             if (s := c.find("skipped")) is not None}
    assert kinds["vision/draw/short-deck"] == "differs-from-reading"
    assert kinds["vision/prop/differential"] == "differs-from-reference"


def test_strict_readings_count_them_as_failures():
    report = readings_report()
    report["settings"]["strict_readings"] = True
    report = with_verdict(report)
    md = render(report, "md")
    assert "## Differs from the catalogue's readings" not in md
    failures = md[md.index("## Failures"):md.index("## Errors")]
    assert "vision/draw/short-deck" in failures


def test_a_failed_handshake_comes_first_everywhere():
    report = copy.deepcopy(sample_report())
    report["problems"].insert(0, {"kind": "handshake",
                                  "message": f"the engine could not start: {SCRIPT}"})
    report = with_verdict(report)
    md = render(report, "md")
    assert md.index("ENGINE NOT CERTIFIED") < md.index("**Verdict:**") < md.index("## Summary")
    page = render(report, "html")
    assert page.index("ENGINE NOT CERTIFIED") < page.index('id="summary"')
    assert SCRIPT not in page
    root = ET.fromstring(render(report, "junit"))
    assert root[0].get("name") == "run" and root[0][0].get("name") == "engine started"
    assert json.loads(render(report, "badge"))["message"] == "engine could not be certified"


@pytest.mark.parametrize("text", [SCRIPT, MARKDOWN_BREAKER, XML_BREAKER])
def test_engine_text_in_the_new_sections_stays_text(text):
    report = readings_report(text)
    assert "<script>" not in render(report, "html")
    md = render(report, "md")
    assert "<script>" not in md.replace("\\<script\\>", "")
    ET.fromstring(render(report, "junit"))  # parses
