"""Exit codes when the engine, or its mutants, cannot start (docs/cli.md, "Exit codes").

An engine that cannot start is exit 2 (`ENGINE_ERRORS`) whatever was asked of it:
a certification with or without ``--mutation``, and ``conformance mutants``.  A
mutation run in which no mutant could start is never ``pass``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import toy
from commands import conformance_in_process as conformance

from conformance import ExitCode

NO_SUCH = "cmd:/nonexistent/engine --fast"


@pytest.mark.parametrize("mutation", [[], ["--mutation"]], ids=["plain", "mutation"])
def test_an_engine_that_cannot_start_is_exit_2_with_a_report(tmp_path, mutation):
    cases = toy.write_catalogue(tmp_path / "cases")
    run = conformance("certify", "--engine", NO_SUCH, "--cases", cases, *mutation,
                      "--out", tmp_path / "r", "-q")
    assert run.returncode == ExitCode.ENGINE_ERRORS, run.stdout + run.stderr
    report = json.loads((tmp_path / "r" / "report.json").read_text("utf-8"))
    assert report["verdict"]["status"] == "not certified"
    assert "could not start '/nonexistent/engine --fast'" in report["verdict"]["message"]


@pytest.mark.parametrize("run_them", [[], ["--run"]], ids=["list", "run"])
def test_mutants_of_an_engine_that_cannot_start_is_exit_2(tmp_path, run_them):
    cases = toy.write_catalogue(tmp_path / "cases")
    run = conformance("mutants", "--engine", NO_SUCH, "--cases", cases, *run_them)
    assert run.returncode == ExitCode.ENGINE_ERRORS, run.stdout + run.stderr
    assert "could not start '/nonexistent/engine --fast'" in run.stderr


def test_a_mutation_run_where_no_mutant_could_start_is_never_pass(tmp_path):
    cases = toy.write_catalogue(tmp_path / "cases")
    run = conformance("certify", "--engine", "python:toy:UnstartableMutants", "--cases",
                      cases, "--mutation", "--out", tmp_path / "r", "-q")
    report = json.loads((tmp_path / "r" / "report.json").read_text("utf-8"))
    assert report["mutation"]["mutants"][0]["error"].startswith("the mutant could not start")
    assert report["verdict"]["status"] == "error", report["verdict"]
    assert "none of the 1 mutants could start" in report["verdict"]["message"]
    assert run.returncode == ExitCode.ENGINE_ERRORS, run.stdout + run.stderr


def test_the_plain_run_of_that_engine_passes(tmp_path):
    # the same engine without --mutation: what made the mutation run an error is its mutants
    cases = toy.write_catalogue(tmp_path / "cases")
    run = conformance("certify", "--engine", "python:toy:UnstartableMutants", "--cases",
                      cases, "--out", Path(tmp_path / "r"), "-q")
    assert run.returncode == ExitCode.OK, run.stdout + run.stderr


def test_mutants_run_where_no_mutant_could_start_is_exit_2(tmp_path):
    cases = toy.write_catalogue(tmp_path / "cases")
    run = conformance("mutants", "--engine", "python:toy:UnstartableMutants", "--cases", cases,
                      "--run")
    assert run.returncode == ExitCode.ENGINE_ERRORS, run.stdout + run.stderr
    assert "none of the 1 mutants could start" in run.stderr
