"""The mutation phase is bounded: by the run's --run-timeout, and by the number of
mutants a hello may list (docs/protocol.md, 'Mutants')."""

from __future__ import annotations

import json

import pytest
import toy
from commands import conformance_in_process as conformance


@pytest.mark.slow
def test_the_run_timeout_cuts_the_mutation_phase_and_says_so(tmp_path):
    """A hello listing 3000 slow mutants with --run-timeout 15 ran for minutes: the
    deadline bounded the items only. Now mutants not reached are rows with an error
    (not killed), a problem says so, and the score is never a clean one."""
    cases = toy.write_catalogue(tmp_path / "cases")
    out = tmp_path / "out"
    ran = conformance("certify", "--engine", "python:toy:SlowMutants", "--cases", cases,
                      "--mutation", "--run-timeout", "1", "--out", out, "-q")
    report = json.loads((out / "report.json").read_text())
    rows = report["mutation"]["mutants"]
    assert len(rows) == toy.SlowMutants.listed
    cut = [r for r in rows if "run timeout" in r.get("error", "")]
    assert cut and all(not r["killed"] for r in cut), rows
    assert report["mutation"]["score"] < 1.0
    assert any("run timeout" in p["message"] for p in report["problems"]
               if p["kind"] == "mutant"), report["problems"]
    assert "mutation was cut" in ran.stdout, ran.stdout


def test_a_hello_listing_more_than_1000_mutants_is_a_protocol_error(tmp_path):
    cases = toy.write_catalogue(tmp_path / "cases")
    ran = conformance("certify", "--engine", "python:toy:TooManyMutants", "--cases", cases,
                      "-q")
    assert ran.returncode == 2, ran.stdout + ran.stderr
    assert "reply-hello.json at $.capabilities.mutants" in ran.stdout, ran.stdout
