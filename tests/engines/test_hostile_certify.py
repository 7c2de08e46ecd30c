"""A whole certification against each hostile engine: the run goes on, every problem
is an error result with a reason and bounded stderr, and the report is complete and valid.

The adapter-level behaviour of each fixture is tested in test_hostile_engines.py;
this file checks what a user sees: the report.
"""

from __future__ import annotations

import time

import pytest
from commands import fake_engine

from conformance._certify import RunConfig, certify, exit_status
from conformance._runner import STDERR_KEEP, Selection
from conformance._settings import get_profile
from conformance.report import render, validate_report, write_reports

# real (misbehaving) processes: the slow layer
pytestmark = pytest.mark.slow

TIMEOUT = 0.5
# four Vision cases, named so the catalogue growing does not change the count,
# so a fault mid-run shows the run going on after it
SELECTION = Selection(rulesets=["vision"], properties=False,
                      select=["vision/qa-269/x-equals-nodes-paid",
                              "vision/qa-269/x-with-cost-increase",
                              "vision/ir-12-3-2/same-name-exact-only",
                              "vision/ir-12-3-2/same-name-shorter-source"])


def spec(script: str, *args: str) -> str:
    return fake_engine(script, *args)


@pytest.mark.parametrize(("script", "args", "says"), [
    ("crash.py", [], "EngineCrashed"),
    ("crash.py", ["--at", "start"], "EngineCrashed"),
    ("crash.py", ["--after", "1"], None),   # mid-case on multi-step cases only
    ("hang.py", [], "EngineTimeout"),
    ("half_line.py", [], "EngineTimeout"),
    ("garbage.py", [], "ProtocolViolation"),
    ("non_utf8.py", [], "ProtocolViolation"),
    ("huge_line.py", [], "ProtocolViolation"),
    ("wrong_seq.py", [], "ProtocolViolation"),
    ("answer_twice.py", [], None),
    ("exit_early.py", [], "EngineCrashed"),
    ("bad_reply.py", [], "ProtocolViolation"),
    ("stderr_flood.py", ["--then", "crash"], "EngineCrashed"),
    ("error_reply.py", [], "EngineReportedError"),
    # replies Python's json module reads, but not as meant: never a crash of the report
    *[("bad_json.py", ["--kind", kind], "ProtocolViolation")
      for kind in ("deep", "nested", "huge-number", "nan", "stale-float-seq", "duplicate-key",
                   "bom")],
])
def test_report_survives_hostile_engine(tmp_path, script, args, says):
    config = RunConfig(engine_spec=spec(script, *args), profile=get_profile("quick"),
                       selection=SELECTION, timeout=TIMEOUT)
    began = time.monotonic()
    report = certify(config)
    elapsed = time.monotonic() - began
    validate_report(report)
    assert report["complete"] is True
    results = report["results"]
    assert len(results) == 4  # every selected case has a result: none lost
    # bounded: at most one reply timeout plus kill/restart overhead per case
    assert elapsed < 4 * (TIMEOUT + 3.0) + 5, elapsed
    errors = [r for r in results if r["status"] == "error"]
    if says is not None:
        assert errors and all(says in r["message"] for r in errors), results
    for r in results:
        assert len(r["stderr"]) <= STDERR_KEEP
    assert exit_status(report) in (1, 2)
    written = write_reports(report, tmp_path / "out")
    assert set(written) == {"json", "md", "junit", "html", "badge"}
    for fmt in ("md", "html", "junit"):
        assert render(report, fmt)


def test_engine_claiming_a_ruleset_it_cannot_play_is_skipped_not_passed():
    config = RunConfig(engine_spec=spec("skip_all.py"), profile=get_profile("quick"),
                       selection=SELECTION, timeout=TIMEOUT)
    report = certify(config)
    assert report["summary"]["skip"] == 4 and report["summary"]["pass"] == 0
    assert report["verdict"]["status"] == "no verdict" and exit_status(report) == 5


def test_engine_that_fails_its_handshake_gives_a_complete_report():
    config = RunConfig(engine_spec=spec("wrong_protocol.py"), profile=get_profile("quick"),
                       selection=SELECTION, timeout=TIMEOUT)
    report = certify(config)
    validate_report(report)
    assert any(p["kind"] == "handshake" and "protocol 2" in p["message"]
               for p in report["problems"])
    # an engine that never ran is not one that skipped everything: every item errors
    assert report["summary"]["error"] == 4 and report["summary"]["skip"] == 0
    assert all("could not start" in r["message"] for r in report["results"])
    assert exit_status(report) == 2 and report["verdict"]["status"] == "not certified"


def test_run_timeout_records_what_was_not_reached():
    import dataclasses

    profile = dataclasses.replace(get_profile("quick"), run_timeout=1.0)
    config = RunConfig(engine_spec=spec("hang.py"), profile=profile,
                       selection=Selection(rulesets=["vision"], properties=False),
                       timeout=TIMEOUT)
    began = time.monotonic()
    report = certify(config)
    validate_report(report)
    assert time.monotonic() - began < 15  # not 72 cases x the reply timeout
    results = report["results"]
    assert len(results) > 10  # every case has a result, reached or not
    timed_out = [r for r in results if "EngineTimeout" in r["message"]]
    not_run = [r for r in results if "not run: the run timeout (1 s)" in r["message"]]
    assert timed_out and not_run
    assert len(timed_out) + len(not_run) == len(results)


def test_an_unasked_for_mutant_in_the_hello_is_a_problem_of_the_report():
    config = RunConfig(engine_spec=spec("claims_mutant.py"), profile=get_profile("quick"),
                       selection=SELECTION, timeout=TIMEOUT)
    report = certify(config)
    validate_report(report)
    said = [p["message"] for p in report["problems"] if "capabilities.mutant" in p["message"]]
    assert said and "'tail-first' though no mutant was asked for" in said[0], report["problems"]
