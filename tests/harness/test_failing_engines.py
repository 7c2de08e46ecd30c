"""A failing engine never crashes the run: for every property of every installed pack,
an engine that breaks it (tests/support/perturbed.py: not the reference, none of its
mutants) is certified, with transcripts on as ``certify --out`` has them, and the run
ends with that property ``fail`` in a written report.json.

Every property is played on its own path: Hypothesis' sample, or the exhaustive walk
for a property that has one; the failing item's transcript re-plays its
counterexample outside any Hypothesis test, which is where a pack's property code
once called Hypothesis-only APIs.
"""

from __future__ import annotations

import json

import perturbed
import pytest
from commands import conformance_child, conformance_in_process
from toy import ToyEngine, WrongEngine, write_catalogue

import reference_engine
from conformance._discovery import properties_for, ruleset_names
from conformance._errors import ExitCode
from conformance._types import MutantSpec

RULESETS = ruleset_names()


def certify_properties(run, ruleset: str, effect: str, out) -> dict:
    """``conformance certify`` on ``ruleset``'s properties with the ``effect`` engine
    (``run``: in-process or a child); checks the run ended as a run does and wrote its
    report, and returns that report."""
    ran = run("certify", "--engine", f"python:perturbed:{effect}", "--ruleset", ruleset,
              "--select", f"{ruleset}/prop/*", "--profile", "quick", "--out", out)
    assert "Traceback" not in ran.stderr, ran.stderr
    assert ran.returncode in (ExitCode.OK, ExitCode.FAILURES), (ran.returncode, ran.stderr)
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["complete"] is True
    return report


def statuses(report: dict) -> dict[str, str]:
    return {r["id"]: r["status"] for r in report["results"]}


def test_an_engine_that_accepts_interrupts_fails_no_interrupts_in_its_report(tmp_path):
    """The issue's engine: zatch/prop/no-interrupts fails on it, and its counterexample's
    transcript is written, rather than the run dying in the transcript's re-play."""
    ran = conformance_in_process(
        "certify", "--engine", "python:perturbed:accept", "--ruleset", "zatch",
        "--select", "zatch/prop/no-interrupts", "--profile", "quick", "--out", tmp_path)
    assert "Traceback" not in ran.stderr, ran.stderr
    assert ran.returncode == ExitCode.FAILURES
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    [result] = report["results"]
    assert (result["id"], result["status"]) == ("zatch/prop/no-interrupts", "fail")
    assert "refused" in result["message"] or "accepted" in result["message"]
    written = {p.name for p in (tmp_path / "counterexamples").iterdir()}
    assert any(name.endswith(".yaml") for name in written)
    assert any("requests" in name for name in written), written   # the re-played transcript


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_property_fails_on_an_engine_that_breaks_it(tmp_path, ruleset):
    """Each perturbation's run ends (no item an error: a broken rule is a failure, not a
    crash of the check), and every property of the pack fails under at least one."""
    failed: dict[str, list[str]] = {}
    for effect in perturbed.EFFECTS:
        report = certify_properties(conformance_in_process, ruleset, effect, tmp_path / effect)
        found = statuses(report)
        assert "error" not in found.values(), {i: s for i, s in found.items() if s == "error"}
        for item, status in found.items():
            if status == "fail":
                failed.setdefault(item, []).append(effect)
    props = properties_for(ruleset)
    assert props, f"{ruleset} has no properties"
    unbroken = [p.id for p in props if p.id not in failed]
    assert not unbroken, f"no perturbation broke {unbroken}; add one to tests/support/perturbed.py"
    exhaustive = [p.id for p in props if p.exhaustive is not None]
    assert all(failed[i] for i in exhaustive)   # the exhaustive walk's path fails too


def test_jobs_workers_report_the_same_failures(tmp_path):
    """--jobs 2: the re-plays happen in forked workers; the report is the same."""
    one = certify_properties(conformance_in_process, "zatch", "accept", tmp_path / "one")
    ran = conformance_in_process(
        "certify", "--engine", "python:perturbed:accept", "--ruleset", "zatch", "--select",
        "zatch/prop/*", "--profile", "quick", "--jobs", "2", "--out", tmp_path / "two")
    assert ran.returncode == ExitCode.FAILURES, ran.stderr
    two = json.loads((tmp_path / "two" / "report.json").read_text(encoding="utf-8"))
    assert statuses(two) == statuses(one)
    assert "fail" in statuses(two).values()


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_certify_as_a_process_exits_1_with_every_property_failing_in_its_report(tmp_path,
                                                                                ruleset):
    report = certify_properties(conformance_child, ruleset, "reject", tmp_path)
    assert statuses(report) == {p.id: "fail" for p in properties_for(ruleset)}
    assert report["summary"]["fail"] == len(properties_for(ruleset))
    assert (tmp_path / "report.md").is_file()


# -- the runner's own guard: whatever raises after a violation, the violation stays ---------

def _toy_runner(tmp_path, engine, prop):
    from conformance._catalogue import load_catalogue
    from conformance._loading import InProcessEngine
    from conformance._runner import Runner
    from conformance._settings import get_profile
    from conformance._transcript import TranscriptSink

    catalogue = load_catalogue(write_catalogue(tmp_path / "cases"))
    (tmp_path / "staged").mkdir()
    runner = Runner(catalogue, InProcessEngine(lambda: engine, "python:x:y"), "python:x:y",
                    get_profile("quick"), properties=[prop],
                    transcripts=TranscriptSink(tmp_path / "staged"))
    runner.handshake()
    return runner


def _adds(*, note=None):
    """toy's adding property, calling ``note`` (a pack's Hypothesis-only call) first."""
    from hypothesis import strategies as st

    from conformance.ruleset import Violation, invariant, run_accepted

    @invariant("toy/prop/add", rules=["toy/R-1"],
               scenarios=st.builds(lambda n, k: {"setup": {"start": n},
                                                 "steps": [{"do": {"add": k}}]},
                                   st.integers(0, 50), st.integers(1, 9)))
    def adds(play, scenario):
        """Adding K to N gives N + K."""
        if note is not None:
            note()
        trace = run_accepted(play, scenario)
        want = scenario["setup"]["start"] + scenario["steps"][0]["do"]["add"]
        if trace.final["players"]["p1"]["count"] != want:
            raise Violation(f"count is {trace.final['players']['p1']['count']}, not {want}",
                            expect={0: {"players": {"p1": {"count": want}}}})
    return adds


def test_a_pack_calling_hypothesis_outside_a_test_keeps_its_failure(tmp_path):
    """A pack of another distribution that calls hypothesis.event() unguarded: the
    transcript's re-play raises, the item still fails with its violation."""
    import hypothesis

    runner = _toy_runner(tmp_path, WrongEngine(), _adds(note=lambda: hypothesis.event("x")))
    result = runner.run_item(runner.properties()[0])
    assert result.status == "fail"
    assert result.message.startswith("count is ")
    assert "re-playing the scenario raised InvalidArgument" in result.message
    assert "toy/counterexample/prop-add" in result.counterexample


def test_a_counterexample_that_cannot_be_built_keeps_the_failure(tmp_path, monkeypatch):
    from conformance import _runner

    def broken(*args, **kwargs):
        raise KeyError("setup")
    monkeypatch.setattr(_runner, "counterexample_yaml", broken)
    runner = _toy_runner(tmp_path, WrongEngine(), _adds())
    result = runner.run_item(runner.properties()[0])
    assert result.status == "fail"
    assert result.message.startswith("count is ")
    assert "no counterexample case: building it raised KeyError" in result.message


class _WrongOnce(ToyEngine):
    """Wrong in its first game only: what a non-deterministic engine looks like."""

    games = 0

    def amount(self, k):
        _WrongOnce.games += 1
        return k + 1 if _WrongOnce.games == 1 else k


def test_a_failure_the_engine_does_not_repeat_is_still_a_failure(tmp_path):
    runner = _toy_runner(tmp_path, _WrongOnce(), _adds())
    result = runner.run_item(runner.properties()[0])
    assert result.status == "fail"
    assert "not deterministic" in result.message
    assert result.counterexample


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_item_the_suite_cannot_run_is_that_items_error_in_a_written_report(
        tmp_path, monkeypatch, jobs):
    """A bug that raises out of one item (here: running one case) is that item's error,
    with its traceback; the others run, the report is written (also from --jobs workers)."""
    from conformance import Report
    from conformance._certify import RunConfig, certify
    from conformance._runner import Runner
    from conformance._settings import get_profile
    from conformance._transcript import TranscriptSink

    real = Runner.run_case

    def run_case(self, case):
        if case.id == "toy/add/two-plus-three":
            raise RuntimeError("a bug of the suite")
        return real(self, case)
    monkeypatch.setattr(Runner, "run_case", run_case)
    (tmp_path / "staged").mkdir()
    config = RunConfig(engine_spec="python:toy:ToyEngine", profile=get_profile("quick"),
                       cases_root=write_catalogue(tmp_path / "cases"), jobs=jobs,
                       transcripts=TranscriptSink(tmp_path / "staged"))
    Report(certify(config)).write(tmp_path / "out")
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    found = {r["id"]: r for r in report["results"]}
    assert report["complete"] is True
    assert found["toy/add/two-plus-three"]["status"] == "error"
    assert found["toy/add/two-plus-three"]["message"] == (
        "the suite could not run this item: RuntimeError: a bug of the suite")
    assert "RuntimeError: a bug of the suite" in found["toy/add/two-plus-three"]["stderr"]
    assert found["toy/negative/rejected"]["status"] == "pass"


def test_a_mutant_whose_run_raises_is_its_rows_error(tmp_path, monkeypatch):
    from conformance import _loading, _mutation
    from conformance._settings import get_profile
    from conformance._suite import Suite

    def connect(spec, mutant=None, **kwargs):
        raise RuntimeError(f"cannot start {mutant}")
    monkeypatch.setattr(_loading, "connect", connect)
    suite = Suite.load(write_catalogue(tmp_path / "cases"), None)
    mutants: list[MutantSpec] = [
        {"name": n, "ruleset": "toy", "rules": ["toy/R-1"], "description": "-"}
        for n in ("m1", "m2")]
    rows = _mutation.run_mutants(suite, None, get_profile("quick"), mutants=mutants,
                                 engine_spec="python:toy:ToyEngine")["mutants"]
    assert [(r["name"], r["killed"], r["error"]) for r in rows] == [
        ("m1", False, "the mutant's run raised RuntimeError: cannot start m1"),
        ("m2", False, "the mutant's run raised RuntimeError: cannot start m2")]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_reference_mutant_behind_another_engine_ends_its_property_runs(tmp_path,
                                                                            ruleset):
    """Each of the reference engine's mutants, as an engine that is not the reference,
    plays the properties of the rules it breaks with transcripts on (mutation analysis
    plays them without): no item is an error, every failure keeps its counterexample.
    Those runs once died on 11 of zatch's 13 properties."""
    from conformance._catalogue import Catalogue
    from conformance._loading import InProcessEngine, load_engine
    from conformance._runner import Runner, Selection
    from conformance._settings import get_profile
    from conformance._transcript import TranscriptSink

    catalogue = Catalogue(root=tmp_path, rules={}, cases=[], errors=[], digest="")
    (tmp_path / "staged").mkdir()
    props = properties_for(ruleset)
    failed = 0
    for mutant in reference_engine.list_mutants(ruleset):
        engine = perturbed.Perturbed(None, mutant.name)
        runner = Runner(catalogue, InProcessEngine(lambda e=engine: e, "python:x:y"),
                        "python:x:y", get_profile("quick"),
                        Selection(rulesets=[ruleset], rules=list(mutant.rules), cases=False),
                        reference=lambda: load_engine("reference"), properties=props,
                        transcripts=TranscriptSink(tmp_path / "staged"))
        for result in runner.results():
            assert result.status != "error", (mutant.name, result.id, result.message)
            if result.status == "fail":
                failed += 1
                assert result.counterexample, (mutant.name, result.id)
    assert failed   # some mutant is caught by a property, through the re-play path
