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

from conformance._discovery import properties_for, ruleset_names
from conformance._errors import ExitCode

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


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_certify_as_a_process_exits_1_with_every_property_failing_in_its_report(tmp_path,
                                                                                ruleset):
    report = certify_properties(conformance_child, ruleset, "reject", tmp_path)
    assert statuses(report) == {p.id: "fail" for p in properties_for(ruleset)}
    assert report["summary"]["fail"] == len(properties_for(ruleset))
    assert (tmp_path / "report.md").is_file()
