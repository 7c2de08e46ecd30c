"""The runner against toy engines plugged in through --engine specs, like real ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from toy import write_catalogue

from conformance._certify import RunConfig, certify, exit_status
from conformance._errors import ExitCode, UsageError
from conformance._loading import InProcessEngine, load_engine
from conformance._settings import get_profile


def run(tmp_path, spec, **kw):
    root = write_catalogue(tmp_path / "cases")
    config = RunConfig(engine_spec=spec, profile=get_profile("quick"), cases_root=root, **kw)
    return certify(config)


def by_id(report):
    return {r["id"]: r for r in report["results"]}


def test_correct_engine_passes(tmp_path):
    report = run(tmp_path, "python:toy:ToyEngine")
    assert report["summary"] == {"total": 2, "pass": 2, "fail": 0, "error": 0, "skip": 0,
                                 "expected_failures": 0, "unexpected_passes": 0,
                                 "counted_failures": 0, "engine_errors": 0,
                                 "differs_from_readings": 0, "differs_from_reference": 0,
                                 "deselected": 0}
    assert exit_status(report) == ExitCode.OK
    assert report["verdict"]["status"] == "partial"   # R-3 is uncovered: not all was checked
    rules = {r["id"]: r for r in report["rules"]}
    assert rules["toy/R-1"]["status"] == "pass"
    assert rules["toy/R-3"]["status"] == "uncovered"


def test_wrong_engine_fails_with_difference_and_rerun(tmp_path):
    report = run(tmp_path, "python:toy:WrongEngine")
    result = by_id(report)["toy/add/two-plus-three"]
    assert result["status"] == "fail"
    assert result["step"] == 1
    assert result["mismatches"] == [{"path": "step 1: players.p1.count",
                                     "expected": 5, "observed": 6}]
    assert result["rerun"].startswith("conformance run --engine python:toy:WrongEngine "
                                      "--select toy/add/two-plus-three")
    # with the run's profile: the default one depends on CI being set
    assert result["rerun"].endswith(" --profile quick"), result["rerun"]
    assert exit_status(report) == ExitCode.FAILURES
    assert {r["id"]: r for r in report["rules"]}["toy/R-1"]["status"] == "fail"


def test_raising_engine_is_an_error_with_traceback_and_run_goes_on(tmp_path):
    report = run(tmp_path, "python:toy:RaisingEngine")
    results = by_id(report)
    assert len(results) == 2
    assert all(r["status"] == "error" for r in results.values())
    assert "ZeroDivisionError: engine bug" in results["toy/add/two-plus-three"]["message"]
    assert "ZeroDivisionError" in results["toy/add/two-plus-three"]["stderr"]
    assert exit_status(report) == ExitCode.ENGINE_ERRORS


def test_garbage_reply_is_a_protocol_violation(tmp_path):
    result = by_id(run(tmp_path, "python:toy:GarbageEngine"))["toy/add/two-plus-three"]
    assert result["status"] == "error" and "ProtocolViolation" in result["message"]


def test_unsupported_is_a_skip(tmp_path):
    report = run(tmp_path, "python:toy:SkippingEngine")
    assert report["summary"]["skip"] == 2
    assert "not modelled" in report["results"][0]["message"]
    assert exit_status(report) == ExitCode.NO_VERDICT  # skipped everything: nothing checked


def test_engine_cannot_mutate_the_catalogue(tmp_path):
    report = run(tmp_path, "python:toy:MutatingEngine")
    assert report["summary"]["pass"] == 2


def test_select_and_rule_filters(tmp_path):
    from conformance._runner import Selection

    report = run(tmp_path, "python:toy:ToyEngine", selection=Selection(select=["toy/neg*"]))
    assert [r["id"] for r in report["results"]] == ["toy/negative/rejected"]
    report = run(tmp_path, "python:toy:ToyEngine", selection=Selection(rules=["toy/R-1"]))
    assert [r["id"] for r in report["results"]] == ["toy/add/two-plus-three"]


def test_known_failures_pass_the_run_and_stale_entries_are_reported(tmp_path):
    known = tmp_path / "known.txt"
    known.write_text("toy/add/two-plus-three  # off by one\ntoy/nothing/*\n")
    report = run(tmp_path, "python:toy:WrongEngine", known_failures=known)
    assert by_id(report)["toy/add/two-plus-three"]["expected_failure"] is True
    assert report["summary"]["expected_failures"] == 1
    assert exit_status(report) == ExitCode.OK
    assert any("matches no case" in p["message"] for p in report["problems"])
    # the same list against a correct engine: the known failure passed -> reported, run fails
    report = run(tmp_path, "python:toy:ToyEngine", known_failures=known)
    assert report["summary"]["unexpected_passes"] == 1
    assert exit_status(report) == ExitCode.FAILURES


def test_interrupted_run_keeps_results_and_is_marked(tmp_path):
    seen = []

    def stop_after_first(result):
        seen.append(result)
        raise KeyboardInterrupt

    root = write_catalogue(tmp_path / "cases")
    config = RunConfig(engine_spec="python:toy:ToyEngine", profile=get_profile("quick"),
                       cases_root=root)
    report = certify(config, on_result=stop_after_first)
    assert report["complete"] is False
    assert len(report["results"]) == 1
    assert exit_status(report) == ExitCode.INTERRUPTED


@pytest.mark.parametrize("spec", ["nope", "python:", "python:toy", "python:no_such_mod:x",
                                  "python:toy:Missing", "cmd:"])
def test_bad_engine_specs_are_usage_errors(spec):
    with pytest.raises(UsageError):
        load_engine(spec)


class _Starts:
    """A toy engine that counts its games and maps only boards with an even start."""

    def __init__(self, supports):
        from toy import ToyEngine

        self.toy, self.supports, self.starts = ToyEngine(), supports, 0

    def hello(self):
        return self.toy.hello()

    def start(self, ruleset, setup):
        from conformance import Unsupported

        self.starts += 1
        if not self.supports(setup["start"]):
            raise Unsupported("boards with an odd start are not mapped")
        self.toy.start(ruleset, setup)

    def __getattr__(self, name):
        return getattr(self.toy, name)


def _add_property():
    from hypothesis import strategies as st

    from conformance.ruleset import invariant, run_accepted

    @invariant("toy/prop/add", rules=["toy/R-1"],
               scenarios=st.builds(lambda n, k: {"setup": {"start": n},
                                                 "steps": [{"do": {"add": k}}]},
                                   st.integers(0, 50), st.integers(0, 9)))
    def adds(play, scenario):
        """Adding K to N gives N + K."""
        trace = run_accepted(play, scenario)
        assert trace.final["players"]["p1"]["count"] == (
            scenario["setup"]["start"] + scenario["steps"][0]["do"]["add"])
    return adds


@pytest.mark.parametrize("supports, status", [(lambda n: False, "skip"),
                                              (lambda n: n % 2 == 0, "pass")])
def test_a_property_gives_up_early_only_when_nothing_is_supported(tmp_path, supports, status):
    from conformance._catalogue import load_catalogue
    from conformance._properties import GIVE_UP_AFTER
    from conformance._runner import Runner

    catalogue = load_catalogue(write_catalogue(tmp_path / "cases"))
    engine = _Starts(supports)
    runner = Runner(catalogue, InProcessEngine(lambda: engine, "python:x:y"), "python:x:y",
                    get_profile("certify"),
                    properties=[_add_property()])
    runner.handshake()
    result = runner.run_property(runner.properties()[0])
    assert result.status == status
    if status == "skip":
        assert result.message == "unsupported: boards with an odd start are not mapped"
        assert engine.starts == GIVE_UP_AFTER   # not the hundreds Hypothesis would draw
    else:
        assert engine.starts > GIVE_UP_AFTER    # some boards are mapped: it keeps drawing


def test_rerun_lines_carry_cases_exactly_when_the_run_had_it(tmp_path, monkeypatch):
    """A run with --cases cases from a folder holding ./cases once printed rerun lines
    without it, which now rerun against the installed catalogue instead."""
    from conformance._runner import rerun_command

    (tmp_path / "cases").mkdir()
    monkeypatch.chdir(tmp_path)
    with_cases = rerun_command("reference", "vision/a/b", Path("cases"), str(tmp_path), 0)
    assert with_cases.endswith(" --select vision/a/b --cases cases"), with_cases
    without = rerun_command("reference", "vision/a/b", None, str(tmp_path), 0)
    assert without == "conformance run --engine reference --select vision/a/b"
