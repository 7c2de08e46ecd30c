"""schemas/report.json: it accepts what the runner writes and rejects drift, clearly."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from test_report_samples import partial_report, result, sample_report

from conformance import ConformanceError
from conformance import _types as T
from conformance._results import Mismatch, Result, Status
from conformance.report import InvalidReport, validate_report, write_reports
from conformance.report._schema import schema

SCHEMA_FILE = Path(__file__).parents[2] / "conformance" / "schemas" / "report.json"


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema())


def test_schema_is_loaded_from_package_data() -> None:
    assert schema() == json.loads(SCHEMA_FILE.read_text("utf-8"))


#: Result fields newer than the report format: optional in the schema.
ADDED_LATER = {"examples", "features", "needs_vocabulary", "skip_kind", "carried"}


@pytest.mark.parametrize(("model", "definition"), [(Result, "result"), (Mismatch, None)])
def test_schema_and_result_types_agree(model: type, definition: str | None) -> None:
    """One source of truth: the dataclasses and the schema name the same fields."""
    spec = schema()["$defs"]["result"]
    if definition is None:
        spec = spec["properties"]["mismatches"]["items"]
    fields = {f.name for f in dataclasses.fields(model)}
    assert set(spec["properties"]) == fields
    # fields added after report format 2 shipped are optional, so older reports
    # (a CI baseline) still read; every other field is required
    assert set(spec["required"]) == fields - ADDED_LATER
    assert spec["additionalProperties"] is False


def _part(path: str) -> dict[str, Any]:
    """The schema of one part of report.json: ``verdict.coverage``, ``results[]``..."""
    node: dict[str, Any] = schema()
    for step in path.split(".") if path else []:
        many = step.endswith("[]")
        node = node["properties"][step.removesuffix("[]")]
        node = node.get("oneOf", [node])[-1]   # null or the object: the object
        if "$ref" in node:
            node = schema()["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        if many:
            node = node["items"]
            if "$ref" in node:
                node = schema()["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


@pytest.mark.parametrize(("typed", "path"), [
    (T.ReportDict, ""), (T.SuiteInfo, "suite"), (T.EngineInfo, "engine"),
    (T.Settings, "settings"), (T.Filters, "settings.filters"), (T.Verdict, "verdict"),
    (T.VerdictRules, "verdict.rules"), (T.Tally, "verdict.rules.seed"),
    (T.Coverage, "verdict.coverage"), (T.Summary, "summary"), (T.ResultDict, "results[]"),
    (T.MismatchDict, "results[].mismatches[]"), (T.Examples, "results[].examples"),
    (T.RuleRow, "rules[]"), (T.RuleCounts, "rules[].counts"),
    (T.TooFewExamples, "rules[].too_few_examples[]"), (T.Mutation, "mutation"),
    (T.MutantRow, "mutation.mutants[]")])
def test_the_report_types_name_the_schemas_fields(typed: Any, path: str) -> None:
    """conformance/_types.py is the schema as Python types: the same fields, and a
    field the schema requires is required in the type (what older reports lack is not)."""
    spec = _part(path)
    assert set(typed.__annotations__) == set(spec["properties"]), path
    assert set(typed.__required_keys__) == set(spec.get("required", [])), path


@pytest.mark.parametrize("status", ["pass", "fail", "error", "skip"])
def test_every_result_the_runner_can_build_validates(status: Status) -> None:
    report = sample_report()
    report["results"] = [result("vision/x/y", status, step=None, kind="property")]
    validate_report(report)


def test_sample_partial_and_mutation_free_reports_validate() -> None:
    validate_report(sample_report())
    validate_report(partial_report())
    report = sample_report()
    report["mutation"] = None
    report["settings"]["known_failures"] = None
    validate_report(report)


def _set(path: str, value: Any):
    """A mutator setting ``a.b.0.c`` to value (``...`` deletes the key)."""
    def mutate(report: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = report
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        if value is ...:
            del target[last]
        else:
            target[last] = value
    return mutate


BROKEN = [
    (_set("results.0.status", "failed"), "report.results[0].status: 'failed' is not one of"),
    (_set("rules.0.status", "passed"), "report.rules[0].status: 'passed' is not one of"),
    (_set("rules.0.kind", "law"), "report.rules[0].kind"),
    (_set("problems.0.kind", "warning"), "report.problems[0].kind"),
    (_set("summary.total", ...), "report.summary: 'total' is a required property"),
    (_set("summary.pass", -1), "report.summary.pass: -1 is less than the minimum of 0"),
    (_set("extra", 1), "report: Additional properties are not allowed ('extra' was unexpected)"),
    (_set("results.0.verdict", "ok"), "report.results[0]: Additional properties"),
    (_set("format", "card-conformance-report/1"), "report.format: 'card-conformance-report/2'"),
    (_set("suite.catalogue_digest", "md5:00"), "report.suite.catalogue_digest"),
    (_set("started", "yesterday"), "report.started"),
    (_set("complete", "yes"), "report.complete: 'yes' is not of type 'boolean'"),
    (_set("results.0.step", 0), "report.results[0].step: 0 is less than the minimum of 1"),
    (_set("mutation.score", 50), "report.mutation"),
    (_set("engine.capabilities", []), "report.engine.capabilities"),
    (_set("settings.filters.tags", []), "report.settings.filters: Additional properties"),
]


@pytest.mark.parametrize(("mutate", "says"), BROKEN)
def test_broken_reports_are_rejected_with_where_and_what(mutate, says: str) -> None:
    report = sample_report()
    mutate(report)
    with pytest.raises(InvalidReport) as caught:
        validate_report(report)
    assert says in str(caught.value)
    assert "fix:" in str(caught.value)
    assert isinstance(caught.value, ConformanceError)


def test_every_problem_is_collected_and_long_lists_are_cut() -> None:
    report: Any = sample_report()   # made invalid
    for item in report["results"]:
        item["status"] = "bogus"
        item["kind"] = "bogus"
    with pytest.raises(InvalidReport) as caught:
        validate_report(report)
    assert len(caught.value.errors) == 14
    assert "... and 4 more" in str(caught.value)
    assert "(14 problem(s))" in str(caught.value)


def test_not_a_dict_is_rejected() -> None:
    with pytest.raises(InvalidReport, match=r"report: .* is not of type 'object'"):
        validate_report([])


def test_invalid_report_is_not_written(tmp_path: Path) -> None:
    report: Any = sample_report()   # made invalid
    report["summary"]["total"] = "seven"
    with pytest.raises(InvalidReport, match=r"report\.summary\.total"):
        write_reports(report, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_run_interrupted_during_the_hello_still_writes_a_valid_report(tmp_path):
    """An interrupt before the engine said hello left the report without the engine's
    name and version: it failed its schema and the partial report was lost (exit 4)."""
    import datetime

    import toy

    from conformance._certify import RunConfig, build_report
    from conformance._settings import get_profile
    from conformance._suite import Suite

    cases = toy.write_catalogue(tmp_path / "cases")
    config = RunConfig(engine_spec="python:toy:ToyEngine", profile=get_profile("quick"),
                       cases_root=cases)
    report = build_report(Suite.load(cases, None), config, {}, [],
                          [{"kind": "interrupted", "message": "SIGTERM"}], complete=False,
                          started=datetime.datetime.now(datetime.UTC), duration=0.1,
                          mutation=None)
    validate_report(report)
    write_reports(report, tmp_path / "out")
    assert (tmp_path / "out" / "report.json").is_file()
