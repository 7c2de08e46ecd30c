"""One certification run: catalogue + engine + runner -> the report dict.

Shared by ``conformance certify``/``run`` and the pytest plugin's session
summary.  The report dict is what ``report.json`` holds; every other format is
rendered from it.
"""

from __future__ import annotations

import dataclasses
import datetime
import fnmatch
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import conformance
from conformance._catalogue import Catalogue, load_catalogue
from conformance._errors import InvalidCatalogue
from conformance._knownfail import KnownFailures
from conformance._loading import load_engine
from conformance._results import Result, worst
from conformance._runner import Runner, Selection
from conformance._settings import Profile

REPORT_FORMAT = "card-conformance-report/1"


@dataclasses.dataclass
class RunConfig:
    engine_spec: str
    profile: Profile
    selection: Selection = dataclasses.field(default_factory=Selection)
    cases_root: Path | None = None
    known_failures: Path | None = None
    timeout: float | None = None          # per reply; default: the profile's
    engine_options: dict[str, Any] = dataclasses.field(default_factory=dict)


def load_valid_catalogue(root: Path | None, rulesets: list[str] | None) -> Catalogue:
    """The catalogue, or `InvalidCatalogue`: never run on a half-loaded catalogue."""
    catalogue = load_catalogue(root, rulesets)
    if catalogue.errors:
        raise InvalidCatalogue(catalogue.errors)
    return catalogue


def certify(config: RunConfig, on_result: Callable[[Result], None] | None = None,
            mutation: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run everything selected; return the report dict (partial if interrupted).

    ``on_result`` sees each result as it arrives (progress output).  A
    KeyboardInterrupt (SIGINT, or SIGTERM turned into one by the CLI) stops the
    run; the report then says ``complete: false`` and keeps every result.
    """
    catalogue = load_valid_catalogue(config.cases_root, config.selection.rulesets)
    _check_filters(catalogue, config.selection)
    known = KnownFailures.read(config.known_failures) if config.known_failures else None
    timeout = config.timeout or config.profile.timeout
    engine = load_engine(config.engine_spec, timeout=timeout, **config.engine_options)
    runner = Runner(catalogue, engine, config.engine_spec, config.profile, config.selection,
                    reference=lambda: load_engine("reference"))
    started = datetime.datetime.now(datetime.UTC)
    began = time.perf_counter()
    results: list[Result] = []
    problems: list[dict[str, str]] = []
    complete = True
    try:
        runner.handshake()
        for result in runner.results():
            results.append(result)
            if on_result is not None:
                on_result(result)
    except KeyboardInterrupt:
        complete = False
        problems.append({"kind": "interrupted",
                         "message": f"run interrupted after {len(results)} result(s); "
                                    "this report is partial"})
    finally:
        engine.close()
    problems[:0] = runner.problems
    if known is not None:
        ids = [c.id for c in catalogue.cases] + [p.id for p in runner.properties()]
        problems += known.review(results, ids)
    return build_report(
        catalogue=catalogue, config=config, engine_info=runner.engine_info, results=results,
        problems=problems, complete=complete, started=started,
        duration=time.perf_counter() - began, mutation=mutation,
        property_rules={p.id: list(p.rules) for p in runner.properties()})


def _check_filters(catalogue: Catalogue, selection: Selection) -> None:
    """A --select or --rule that matches nothing is a typo, not a green run."""
    from conformance._errors import UsageError
    from conformance._properties import properties_for

    ids = [c.id for c in catalogue.cases]
    ids += [p.id for rs in catalogue.rulesets for p in properties_for(rs)]
    for option, patterns, known in (("--select", selection.select, ids),
                                    ("--rule", selection.rules, list(catalogue.rules))):
        for pattern in patterns:
            if not any(fnmatch.fnmatchcase(i, pattern) for i in known):
                what = "case or property id" if option == "--select" else "rule id"
                raise UsageError(
                    f"{option} {pattern!r} matches no {what}; `conformance rules` lists the "
                    "rule ids, and ids are globs (e.g. 'vision/qa-269/*')")


def build_report(*, catalogue: Catalogue, config: RunConfig, engine_info: dict[str, Any],
                 results: list[Result], problems: list[dict[str, str]], complete: bool,
                 started: datetime.datetime, duration: float,
                 mutation: dict[str, Any] | None,
                 property_rules: dict[str, list[str]]) -> dict[str, Any]:
    summary = {"total": len(results), "pass": 0, "fail": 0, "error": 0, "skip": 0,
               "expected_failures": 0, "unexpected_passes": 0}
    for r in results:
        summary[r.status] += 1
        if r.expected_failure:
            key = "unexpected_passes" if r.status == "pass" else "expected_failures"
            summary[key] += 1
    return {
        "format": REPORT_FORMAT,
        "complete": complete,
        "suite": {"name": "card-conformance", "version": conformance.__version__,
                  "catalogue_digest": catalogue.digest},
        "engine": {"spec": config.engine_spec, **engine_info},
        "settings": {
            "profile": config.profile.name,
            "rulesets": config.selection.rulesets or catalogue.rulesets,
            "timeout": config.timeout or config.profile.timeout,
            "max_examples": config.profile.max_examples,
            "seed": config.profile.seed,
            "filters": config.selection.to_json(),
            "known_failures": str(config.known_failures) if config.known_failures else None,
        },
        "started": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "duration": round(duration, 3),
        "summary": summary,
        "results": [r.to_json() for r in results],
        "rules": rule_rows(catalogue, results, config.selection, mutation, property_rules),
        "problems": problems,
        "mutation": mutation,
    }


def rule_rows(catalogue: Catalogue, results: list[Result], selection: Selection,
              mutation: dict[str, Any] | None,
              property_rules: dict[str, list[str]]) -> list[dict[str, Any]]:
    """One row per rule in the index: its cases, properties, mutants and status."""
    by_rule: dict[str, list[Result]] = {}
    for r in results:
        for rule in r.rules:
            by_rule.setdefault(rule, []).append(r)
    mutants: dict[str, list[str]] = {}
    for m in (mutation or {}).get("mutants", []):
        for rule in m["rules"]:
            mutants.setdefault(rule, []).append(m["name"])
    covering: dict[str, list[str]] = {}
    for case in catalogue.cases:
        for rule in case.rules:
            covering.setdefault(rule, []).append(case.id)
    rows = []
    for rule in catalogue.rules.values():
        if selection.rulesets and rule.ruleset not in selection.rulesets:
            continue
        ran = by_rule.get(rule.id, [])
        counts = {s: sum(r.status == s for r in ran) for s in ("pass", "fail", "error", "skip")}
        status = worst([r.status for r in ran])  # a known failure is still a failure
        if not covering.get(rule.id):
            status = "uncovered"
        elif not ran:
            status = "skip"
        rows.append({
            "id": rule.id, "ruleset": rule.ruleset, "ref": rule.ref, "kind": rule.kind,
            "title": rule.title,
            "cases": covering.get(rule.id, []),
            "properties": sorted(p for p, rules in property_rules.items() if rule.id in rules),
            "mutants": mutants.get(rule.id, []),
            "status": status,
            "counts": counts,
        })
    return rows


def exit_status(report: dict[str, Any]) -> int:
    """The documented exit code for a finished (or interrupted) run."""
    from conformance._errors import ExitCode

    if not report["complete"]:
        return ExitCode.INTERRUPTED
    failed = any(r["status"] == "fail" and not r["expected_failure"] for r in report["results"])
    if failed or report["summary"]["unexpected_passes"]:
        return ExitCode.FAILURES
    if any(r["status"] == "error" and not r["expected_failure"] for r in report["results"]):
        return ExitCode.ENGINE_ERRORS
    return ExitCode.OK
