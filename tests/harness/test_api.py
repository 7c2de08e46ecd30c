"""The public API: `conformance.certify` returns a typed `Report`, as the CLI's run.

What a Python caller (a CI script, a notebook, an engine's own test suite)
uses instead of parsing report.json: the verdict, the results as `Result`s,
the rule rows, the mutation score, writing every format, and merging shards.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import toy

import conformance
from conformance import Report, Result


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    return toy.write_catalogue(tmp_path / "cases")


def test_certify_an_engine_object_and_read_its_verdict(cases: Path) -> None:
    report = conformance.certify(toy.WrongEngine(), cases=cases, profile="quick")
    assert isinstance(report, Report)
    assert (report.status, report.passed, report.exit_code, report.complete) == \
        ("fail", False, conformance.ExitCode.FAILURES, True)
    assert [r.id for r in report.failures] == ["toy/add/two-plus-three"]
    failed = report.result("toy/add/two-plus-three")
    assert isinstance(failed, Result) and failed.mismatches[0].path.startswith("step 1")
    assert report.result("toy/negative/rejected").status == "pass"
    assert report.mutation_score is None
    with pytest.raises(KeyError):
        report.result("toy/no-such-item")


def test_certify_a_spec_writes_what_the_cli_writes(cases: Path, tmp_path: Path) -> None:
    report = conformance.certify("python:toy:ToyEngine", cases=cases, profile="quick",
                                 out=tmp_path / "out")
    # toy/R-3 has no case: every rule checked is followed, but not every rule was checked
    assert (report.status, report.passed, report.exit_code) == ("partial", False, 0)
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == ["badge.json", "junit.xml", "report.html", "report.json", "report.md"]
    again = Report.read(tmp_path / "out" / "report.json")
    assert again.to_json() == report.to_json()
    assert [r.id for r in again.results] == [r.id for r in report.results]


def test_merged_shards_are_the_unsharded_report(cases: Path) -> None:
    from conformance._certify import RunConfig
    from conformance._certify import certify as run
    from conformance._runner import Selection
    from conformance._settings import get_profile

    def shard(i: int | None) -> Report:
        selection = Selection(shard=(i, 2) if i else None)
        return Report(run(RunConfig(engine_spec="python:toy:WrongEngine", cases_root=cases,
                                    profile=get_profile("quick"), selection=selection)))

    merged, whole = Report.merge([shard(1), shard(2)]), shard(None)
    assert [(r.id, r.status) for r in merged.results] == \
        [(r.id, r.status) for r in whole.results]
    assert merged.status == whole.status and merged.rules == whole.rules


def test_mutation_needs_a_spec_not_an_object(cases: Path) -> None:
    with pytest.raises(conformance.UsageError, match="once per mutant"):
        conformance.certify(toy.ToyEngine(), cases=cases, mutation=True)


def test_the_report_is_what_report_json_holds(cases: Path, tmp_path: Path) -> None:
    report = conformance.certify("python:toy:ToyEngine", cases=cases, profile="quick",
                                 out=tmp_path)
    on_disk = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert on_disk == report.to_json()
    assert report.engine["spec"] == "python:toy:ToyEngine"
    assert {row["id"] for row in report.rules} >= {"toy/R-1", "toy/R-2"}


def test_certify_takes_every_option_of_the_certify_command() -> None:
    """The docs say the keywords are certify's options of the same names: each one
    the command takes (but those about printing, the output folder and reruns) is a
    keyword of `conformance.certify`."""
    import argparse
    import inspect

    from conformance._cli import _parser

    parser = _parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    options = {a.dest for a in sub.choices["certify"]._actions if a.option_strings}
    about_printing = {"help", "quiet", "verbose", "durations", "format", "list", "last_failed",
                      "transcript", "engine"}
    keywords = set(inspect.signature(conformance.certify).parameters)
    # `--cases` is `cases`; `--ruleset`/`--rule` are the plural lists; `--no-properties`
    # is `properties=False`
    renamed = {"ruleset": "rulesets", "rule": "rules", "no_properties": "properties"}
    missing = {renamed.get(o, o) for o in options - about_printing} - keywords
    assert not missing, f"certify() lacks {sorted(missing)}"


def test_certify_fail_under_and_allow_no_verdict_decide_the_exit(cases: Path) -> None:
    report = conformance.certify("python:toy:ToyEngine", cases=cases, profile="quick",
                                 select=["toy/add/*"], fail_under=100)
    assert report.exit_code == conformance.ExitCode.FAILURES, report.to_json()["verdict"]
    skipping = conformance.certify("python:toy:SkippingEngine", cases=cases, profile="quick")
    assert skipping.exit_code != 0
    allowed = conformance.certify("python:toy:SkippingEngine", cases=cases, profile="quick",
                                  allow_no_verdict=True)
    assert allowed.exit_code == 0


def test_failures_are_what_the_verdict_counts_the_rest_is_information(cases: Path) -> None:
    """`report.failures` is what to fix; a failure of an item relying on a reading
    or differing from the reference engine does not count: `report.information`."""
    data = conformance.certify(toy.WrongEngine(), cases=cases, profile="quick").to_json()
    (failed,) = [r for r in data["results"] if r["status"] == "fail"]
    assert [r.id for r in Report(data).failures] == [failed["id"]]
    for basis in ("reading", "reference"):
        failed["basis"] = basis
        report = Report(data)
        assert report.failures == [] and [r.id for r in report.information] == [failed["id"]]
    failed["basis"], failed["expected_failure"] = "seed", True
    assert Report(data).failures == [] and [r.id for r in Report(data).known_failures] == \
        [failed["id"]]
