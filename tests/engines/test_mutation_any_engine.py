"""Mutation analysis runs the certified engine's own mutants, whatever its kind.

The mutants are what the engine's hello lists; each runs through the engine's
own connection with its name in the hello request (docs/protocol.md,
"Mutants").  An engine that lists none gets a usage error, never another
engine's mutants; one that does not echo the mutant it was asked for is not
scored as that mutant.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import toy
from commands import conformance_in_process as conformance

NODE = shutil.which("node")
ENGINE = Path(__file__).parents[1] / "fakes" / "toy-mutants.js"
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")


def mutation_of(tmp_path: Path, *engine: str):
    cases = toy.write_catalogue(tmp_path / "cases")
    run = conformance("certify", *engine, "--cases", cases, "--mutation",
                      "--out", tmp_path / "r", "-q")
    report = tmp_path / "r" / "report.json"
    return run, json.loads(report.read_text("utf-8"))["mutation"] if report.exists() else None


@pytest.mark.slow
@needs_node
def test_a_subprocess_engine_in_another_language_gets_its_own_mutants_scored(tmp_path):
    run, mutation = mutation_of(tmp_path, "--engine", f"cmd:{NODE} {ENGINE}")
    assert run.returncode == 0, run.stdout + run.stderr
    rows = {m["name"]: m for m in mutation["mutants"]}
    assert set(rows) == {"adds-one-more", "accepts-negatives"}
    assert rows["adds-one-more"]["killed_by"] == ["toy/add/two-plus-three"]
    assert rows["accepts-negatives"]["killed_by"] == ["toy/negative/rejected"]
    assert mutation["score"] == 1.0 and mutation["certified_score"] == 1.0


@pytest.mark.slow
@needs_node
def test_a_mutant_that_does_not_say_it_is_one_is_not_scored_as_killed(tmp_path):
    _, mutation = mutation_of(tmp_path, "--engine", f"cmd:{NODE} {ENGINE} --no-echo")
    rows = {m["name"]: m for m in mutation["mutants"]}
    assert not any(m["killed"] for m in rows.values())
    assert "capabilities.mutant = None" in rows["adds-one-more"]["error"]
    report = json.loads((tmp_path / "r" / "report.json").read_text("utf-8"))
    assert any("2 of 2 mutants could not run" in p["message"] for p in report["problems"])


def test_an_engine_without_mutants_is_a_usage_error_before_the_run(tmp_path):
    run, mutation = mutation_of(tmp_path, "--engine", "python:toy:ToyEngine")
    assert run.returncode == 4 and mutation is None
    assert "lists no mutants" in run.stderr and "nothing for --mutation to run" in run.stderr


@needs_node
def test_one_mutant_of_any_engine_can_be_certified_by_name(tmp_path):
    cases = toy.write_catalogue(tmp_path / "cases")
    run = conformance("certify", "--engine", f"cmd:{NODE} {ENGINE}", "--mutant",
                      "adds-one-more", "--cases", cases, "-q")
    assert run.returncode == 1, run.stdout + run.stderr   # its rule is broken
    typo = conformance("certify", "--engine", f"cmd:{NODE} {ENGINE}", "--mutant",
                       "adds-one-mor", "--cases", cases, "-q")
    assert typo.returncode == 4 and "did you mean 'adds-one-more'" in typo.stderr


def test_a_rule_counts_only_the_mutants_seed_items_caught():
    """statics-work-from-stack breaks mtg/CR-609.1, but only a case relying on a reading
    kills it: an engine with that bug certifies pass, so 609.1's mutant column must not
    count it as caught (it once showed 1/1), and shows it apart."""
    from conformance._mutation import list_mutants, run_mutants
    from conformance._settings import get_profile
    from conformance._suite import Suite
    from conformance.report._text import mutants_killed

    mutants = [m for m in list_mutants(["mtg"], "reference")
               if m["name"] == "statics-work-from-stack"]
    mutation = run_mutants(Suite.load(None, ["mtg"]), ["mtg"], get_profile("quick"),
                           mutants=mutants, engine_spec="reference")
    row, = mutation["mutants"]
    assert row["killed"] and not row["certified"]
    assert "mtg/CR-609.1" in row["killed_for"]
    assert row["certified_for"] == []
    partial: Any = ({"mutation": mutation}, {"id": "mtg/CR-609.1", "mutants": [row["name"]]})
    assert mutants_killed(*partial) == (
        "0/1 (+1 only by readings)")
