"""The bundled reference engine, certified in-process and as a subprocess.

These are the project's end-to-end guarantees: the reference engine passes
everything, the two adapters give identical per-item results, and every
mutant (the reference engine with one rule broken) is caught by an item
tagged with that rule.
"""

from __future__ import annotations

import shlex
import sys

import pytest

from conformance._certify import RunConfig, certify, exit_status
from conformance._mutation import list_mutants, run_mutants
from conformance._settings import get_profile
from conformance.report import validate_report

SERVER = "cmd:" + shlex.join([sys.executable, "-m", "reference_engine.serve"])


@pytest.fixture(scope="module")
def in_process():
    return certify(RunConfig(engine_spec="reference", profile=get_profile("quick")))


@pytest.fixture(scope="module")
def subprocess_report():
    return certify(RunConfig(engine_spec=SERVER, profile=get_profile("quick")))


def outcomes(report):
    return {r["id"]: (r["status"], r["step"], r["mismatches"]) for r in report["results"]}


def test_reference_engine_passes_everything(in_process):
    bad = [(r["id"], r["message"]) for r in in_process["results"] if r["status"] != "pass"]
    assert not bad
    assert exit_status(in_process) == 0
    validate_report(in_process)
    assert in_process["summary"]["total"] >= len(in_process["rules"])
    assert all(row["status"] == "pass" for row in in_process["rules"])


def test_subprocess_gives_identical_per_item_results(in_process, subprocess_report):
    assert subprocess_report["engine"]["name"] == in_process["engine"]["name"]
    assert outcomes(subprocess_report) == outcomes(in_process)


def test_a_broken_rule_fails_certification_naming_case_rule_and_rerun():
    report = certify(RunConfig(engine_spec="reference:name-ref-exact",
                               profile=get_profile("quick")))
    assert exit_status(report) == 1
    failed = [r for r in report["results"] if r["status"] == "fail"]
    assert any("vision/IR-12.3.1" in r["rules"] for r in failed)
    for r in failed:
        assert r["rerun"].startswith("conformance run --engine reference:name-ref-exact --select ")
    rows = {row["id"]: row for row in report["rules"]}
    assert rows["vision/IR-12.3.1"]["status"] == "fail"


@pytest.mark.slow
def test_every_mutant_is_killed_by_an_item_tagged_with_its_rule():
    result = run_mutants(None, None, get_profile("quick"))
    survivors = [m["name"] for m in result["mutants"] if not m["killed"]]
    assert not survivors, f"mutants not caught: {survivors}"
    assert result["score"] == 1.0
    assert len(result["mutants"]) == len(list_mutants())
