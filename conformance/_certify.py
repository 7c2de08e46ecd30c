"""One certification run: catalogue + engine + runner -> the report dict.

Shared by ``conformance certify``/``run`` and the pytest plugin's session
summary.  The report dict is what ``report.json`` holds; every other format is
rendered from it.
"""

from __future__ import annotations

import dataclasses
import datetime
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from conformance import vocabulary
from conformance._catalogue import Case, Catalogue
from conformance._engine import Connection
from conformance._knownfail import KnownFailures, Pin, entry_digest
from conformance._loading import InProcessEngine, load_engine
from conformance._properties import Property
from conformance._results import Result
from conformance._runner import Runner, Selection
from conformance._select import stops_run
from conformance._settings import Profile
from conformance._suite import Suite
from conformance._transcript import TranscriptSink
from conformance._verdict import filters_applied, item_counts, rule_status, verdict
from conformance._version import __version__

REPORT_FORMAT = "card-conformance-report/2"


@dataclasses.dataclass
class RunConfig:
    engine_spec: str
    profile: Profile
    selection: Selection = dataclasses.field(default_factory=Selection)
    cases_root: Path | None = None
    known_failures: str | Path | None = None
    timeout: float | None = None          # per reply; default: the profile's
    engine_options: dict[str, Any] = dataclasses.field(default_factory=dict)
    strict_readings: bool = False         # readings and context entries count too
    allow_no_verdict: bool = False        # a run where nothing passed or failed exits 0
    mutation: bool = False                # also run the engine's own mutants
    all_kills: bool = False               # run every item against every mutant (full killed_by)
    mutant: str | None = None             # certify the engine behaving as this mutant
    jobs: int = 1                         # processes for the main run and for mutation
    update_known_failures: bool = False   # re-pin the known-failures file to this catalogue
    fail_under: float | None = None       # exit 1 below this percent of seed rules checked
    exitfirst: bool = False               # -x: stop at the first counted failure or error
    transcripts: TranscriptSink | None = None   # where each item's protocol exchange goes
    engine: Any = None                    # an in-process engine object, instead of the spec's


def certify(config: RunConfig, on_result: Callable[[Result], None] | None = None,
            on_start: Callable[[Catalogue], None] | None = None,
            on_mutant: Callable[[dict[str, Any]], None] | None = None,
            suite: Suite | None = None,
            on_plan: Callable[[dict[str, int]], None] | None = None) -> dict[str, Any]:
    """Run everything selected; return the report dict (partial if interrupted).

    ``on_plan`` gets the number of cases, properties and mutants to run.
    ``on_start`` sees the catalogue before anything runs (to say which one is
    used), ``on_result`` each result as it arrives and ``on_mutant`` each
    mutant's row (progress output).  A KeyboardInterrupt (SIGINT, or SIGTERM
    turned into one by the CLI) stops the run in any phase, mutation included;
    the report then says ``complete: false`` and keeps everything recorded.
    A ``suite`` already loaded is used as it is (mutation analysis runs many
    engines on one).
    """
    suite = suite or Suite.load(config.cases_root, config.selection.rulesets)
    catalogue = suite.catalogue
    suite.check_filters(config.selection)
    if on_start is not None:
        on_start(catalogue)
    known = KnownFailures.read(config.known_failures) if config.known_failures else None
    timeout = config.timeout or config.profile.timeout
    engine = _connect(config, timeout)
    runner = Runner(catalogue, engine, config.engine_spec, config.profile, config.selection,
                    reference=lambda: load_engine("reference"), properties=suite.properties,
                    transcripts=config.transcripts)
    mutants: list[dict[str, Any]] = []
    if config.mutation and config.engine is not None:
        from conformance._errors import UsageError

        raise UsageError("mutation analysis starts the engine once per mutant: name it by "
                         "its spec (e.g. 'python:pkg.mod:factory'), not as an object")
    if config.mutation:   # an engine that lists no mutants is a usage error, before the run
        from conformance._mutation import list_mutants

        mutants = list_mutants(config.selection.rulesets, config.engine_spec)
    if on_plan is not None:  # how many items each phase has, for progress bars
        on_plan({"cases": len(runner.cases()), "properties": len(runner.properties()),
                 "mutants": len(mutants)})
    started = datetime.datetime.now(datetime.UTC)
    began = time.perf_counter()
    results: list[Result] = []
    problems: list[dict[str, str]] = []
    mutation: dict[str, Any] | None = None
    complete = True
    try:
        runner.handshake()
        for result in _main_run(runner, config, timeout):
            results.append(result)
            if on_result is not None:
                on_result(result)
            if config.exitfirst and stops_run(result, known, config.strict_readings):
                complete = False
                problems.append({"kind": "interrupted", "message":
                                 f"stopped at the first failure ({result.id}) by -x/--exitfirst "
                                 f"after {len(results)} of {len(runner.items())} item(s); "
                                 "this report is partial"})
                break
        if config.mutation and complete:
            from conformance._mutation import run_mutants

            mutation = {"mutants": [], "score": 1.0, "certified_score": 1.0}
            run_mutants(suite, config.selection.rulesets, config.profile,
                        into=mutation, on_mutant=on_mutant, jobs=config.jobs,
                        engine_spec=config.engine_spec, engine_options=config.engine_options,
                        all_kills=config.all_kills, mutants=mutants)
            broken = [m for m in mutation["mutants"] if "error" in m]
            if broken:
                problems.append({"kind": "mutant", "message":
                                 f"{len(broken)} of {len(mutation['mutants'])} mutants could not "
                                 f"run, so none of them counts as killed; the first: "
                                 f"{broken[0]['name']}: {broken[0]['error']}"})
    except KeyboardInterrupt:
        complete = False
        problems.append({"kind": "interrupted",
                         "message": f"run interrupted after {len(results)} result(s); "
                                    "this report is partial"})
    finally:
        engine.close()
        position = {item.id: i for i, item in enumerate(runner.items())}
        results.sort(key=lambda r: position[r.id])   # whatever order the jobs finished in
    problems[:0] = runner.problems + unknown_claims(runner.engine_info, catalogue)
    if known is not None:
        problems += review_known(known, config, suite, runner.items(), results)
    if not results and complete:
        problems.append({"kind": "no-verdict", "message": "no case or property was selected"})
    return build_report(
        catalogue=catalogue, config=config, engine_info=runner.engine_info, results=results,
        problems=problems, complete=complete, started=started,
        duration=time.perf_counter() - began, mutation=mutation,
        property_rules=suite.property_rules(config.selection))


def unknown_claims(engine_info: dict[str, Any], catalogue: Catalogue) -> list[dict[str, str]]:
    """One problem per ruleset the hello claims that no installed pack nor the
    catalogue has ('poker'): otherwise the claim is silently ignored."""
    from conformance._discovery import ruleset_names
    from conformance._errors import did_you_mean

    known = set(ruleset_names()) | set(catalogue.folders)
    return [{"kind": "engine",
             "message": f"the engine's hello claims ruleset {name!r}, which is not installed "
                        f"(installed: {', '.join(sorted(known)) or 'none'}"
                        f"{'; ' + did_you_mean(name, known) if did_you_mean(name, known) else ''}"
                        "); that claim is ignored"}
            for name in engine_info.get("rulesets", []) if name not in known]


def _main_run(runner: Runner, config: RunConfig, timeout: float) -> Iterator[Result]:
    """The results of the selected items, in ``config.jobs`` processes when more than one."""
    if config.jobs <= 1 or len(runner.items()) <= 1 or runner.handshake_error:
        yield from runner.results()
        return
    from conformance._parallel import parallel_results

    yield from parallel_results(runner, lambda: _connect(config, timeout), config.jobs)


def _connect(config: RunConfig, timeout: float) -> Connection:
    """The engine under test: the object given (in-process), else the spec's."""
    if config.engine is not None:
        engine = config.engine
        return InProcessEngine(lambda: engine, config.engine_spec, config.mutant)
    return load_engine(config.engine_spec, timeout=timeout, mutant=config.mutant,
                       **config.engine_options)


def build_report(*, catalogue: Catalogue, config: RunConfig, engine_info: dict[str, Any],
                 results: list[Result], problems: list[dict[str, str]], complete: bool,
                 started: datetime.datetime, duration: float,
                 mutation: dict[str, Any] | None,
                 property_rules: dict[str, list[str]]) -> dict[str, Any]:
    as_json = [r.to_json() for r in results]
    rows = rule_rows(catalogue, as_json, config.selection, mutation, property_rules,
                     config.strict_readings)
    handshake = next((p["message"] for p in problems if p["kind"] == "handshake"), "")
    summary = item_counts(as_json, config.strict_readings, engine_started=not handshake)
    filters = config.selection.to_json()
    shard = "{}/{}".format(*config.selection.shard) if config.selection.shard else None
    return {
        "format": REPORT_FORMAT,
        "complete": complete,
        "suite": {"name": "card-conformance", "version": __version__,
                  "catalogue_digest": catalogue.digest},
        "engine": {"spec": config.engine_spec, **engine_info},
        "settings": {
            "profile": config.profile.name,
            "rulesets": config.selection.rulesets or catalogue.rulesets,
            "timeout": config.timeout or config.profile.timeout,
            "max_examples": config.profile.max_examples,
            "seed": config.profile.seed,
            "filters": filters,
            "known_failures": str(config.known_failures) if config.known_failures else None,
            "strict_readings": config.strict_readings,
            "allow_no_verdict": config.allow_no_verdict,
            "shard": shard,
            "fail_under": config.fail_under,
        },
        "started": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "duration": round(duration, 3),
        "verdict": verdict(as_json, rows, complete=complete, handshake=handshake,
                           strict=config.strict_readings,
                           # a shard may hold nothing; `merge` judges the whole run
                           allow_no_verdict=(config.allow_no_verdict
                                             or config.selection.shard is not None),
                           claimed=claimed_rulesets(engine_info, catalogue),
                           filters=filters_applied({**filters, "shard": shard}),
                           fail_under=config.fail_under,
                           selected=bool(config.selection.select),
                           exitfirst=config.exitfirst),
        "summary": summary,
        "results": as_json,
        "rules": rows,
        "problems": problems,
        "mutation": mutation,
        "vocabulary": vocabulary.report_section(engine_info,
                                                claimed_rulesets(engine_info, catalogue),
                                                as_json),
    }


def claimed_rulesets(engine_info: dict[str, Any], catalogue: Catalogue) -> list[str]:
    """The rulesets the engine claims that the catalogue has (a claim of a ruleset
    nobody wrote cases for cannot be checked, and is said so at the handshake)."""
    from conformance._catalogue import catalogue_folders

    known = set(catalogue.rulesets) | set(catalogue_folders(catalogue.root))
    return [r for r in engine_info.get("rulesets", []) if r in known]


def review_known(known: KnownFailures, config: RunConfig, suite: Suite,
                 selected: list[Case | Property], results: list[Result]) -> list[dict[str, str]]:
    """Mark the results the known-failures file lists; warn about what it lists
    wrongly and when it was pinned to another catalogue; re-pin it when asked
    (--update-known-failures, after a person reviewed the change).  The pin is
    compared over every item, not only the ``selected`` ones: a filter hides no
    change."""
    return _review_pin(known, config, suite) + known.review(results, suite.ids())


def _review_pin(known: KnownFailures, config: RunConfig,
                suite: Suite) -> list[dict[str, str]]:
    everything: list[Case | Property] = [*suite.catalogue.cases, *suite.properties]
    now = Pin(suite.catalogue.digest, __version__,
              {item.id: entry_digest(item.id, item.rules) for item in everything})
    if not config.update_known_failures:
        return [{"kind": "known-failures", "message": m} for m in known.pin_warnings(now)]
    dropped = known.rewrite(now, suite.ids())
    message = f"{known.path} re-pinned to catalogue {now.catalogue[:19]}… (suite {now.suite})"
    if dropped:
        message += f"; dropped lines that match no item any more: {', '.join(dropped)}"
    return [{"kind": "known-failures", "message": message}]


def _rule_state(kind: str, cases: list[str], ran: list[dict[str, Any]],
                strict: bool) -> tuple[str, dict[str, int]]:
    """A rule row's status and counts from the results tagged with it."""
    counts = {s: sum(r["status"] == s for r in ran) for s in ("pass", "fail", "error", "skip")}
    # a known failure is still a failure of its rule
    status = "uncovered" if not cases else (rule_status(kind, ran, strict) or "skip")
    return status, counts


def _by_rule(results: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    by_rule: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        for rule in r["rules"]:
            by_rule.setdefault(rule, []).append(r)
    return by_rule


def merge_reports(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """One report from the reports of ``--shard`` runs of one engine on one catalogue.

    Results are the union (an item in two shards is an error); the summary, each
    rule's status and the verdict are computed again from them exactly as a
    single run computes them, so merged shards equal the unsharded run item for
    item.  The duration is the longest shard's (they ran side by side).
    """
    from conformance._errors import UsageError

    if not reports:
        raise UsageError("merge needs at least one report")
    first = reports[0]
    for other in reports[1:]:
        for what, get in (("catalogue", lambda r: r["suite"]["catalogue_digest"]),
                          ("suite version", lambda r: r["suite"]["version"]),
                          ("engine", lambda r: (r["engine"]["spec"], r["engine"].get("name"),
                                                r["engine"].get("version"))),
                          ("profile", lambda r: r["settings"]["profile"]),
                          ("filters", lambda r: r["settings"]["filters"])):
            if get(other) != get(first):
                raise UsageError(
                    f"cannot merge: the reports differ in {what} ({get(first)!r} vs "
                    f"{get(other)!r}); merge only the shards of one run")
    results: list[dict[str, Any]] = []
    seen: set[str] = set()
    for report in reports:
        for r in report["results"]:
            if r["id"] in seen:
                raise UsageError(f"cannot merge: {r['id']!r} is in more than one report; "
                                 "merge the shards of one run (--shard I/N), each once")
            seen.add(r["id"])
            results.append(r)
    strict = bool(first["settings"]["strict_readings"])
    by_rule = _by_rule(results)
    rows = []
    for row in first["rules"]:
        status, counts = _rule_state(row["kind"], row["cases"], by_rule.get(row["id"], []),
                                     strict)
        rows.append({**row, "status": status, "counts": counts})
    problems: list[dict[str, str]] = []
    for report in reports:
        problems += [p for p in report["problems"] if p not in problems]
    complete = all(r["complete"] for r in reports)
    handshake = next((p["message"] for p in problems if p["kind"] == "handshake"), "")
    settings = {**first["settings"], "shard": None,
                "merged_shards": [r["settings"].get("shard") or "?" for r in reports]}
    mutation = next((r["mutation"] for r in reports if r["mutation"]), None)
    return {
        **first,
        "complete": complete,
        "settings": settings,
        "started": min(r["started"] for r in reports),
        "duration": max(r["duration"] for r in reports),
        "verdict": verdict(results, rows, complete=complete, handshake=handshake,
                           strict=strict,
                           allow_no_verdict=bool(first["settings"].get("allow_no_verdict")),
                           claimed=_claimed_of(first),
                           filters=filters_applied(first["settings"]["filters"]),
                           fail_under=first["settings"].get("fail_under"),
                           selected=bool(first["settings"]["filters"]["select"])),
        "summary": item_counts(results, strict, engine_started=not handshake),
        "results": results,
        "rules": rows,
        "problems": problems,
        "mutation": mutation,
        **({"vocabulary": _merged_vocabulary(first["vocabulary"], results)}
           if "vocabulary" in first else {}),   # older reports lack it
    }


def _merged_vocabulary(section: dict[str, Any], results: list[dict[str, Any]]) -> dict[str, Any]:
    if "synthetic" not in section:
        return section
    return {**section, "synthetic": {**section["synthetic"],
                                     "items": vocabulary.harness_items(results)}}


def _claimed_of(report: dict[str, Any]) -> list[str] | None:
    coverage = report["verdict"].get("coverage")
    return None if coverage is None else coverage["claimed"] + coverage["claimed_not_run"]


def rule_rows(catalogue: Catalogue, results: list[dict[str, Any]], selection: Selection,
              mutation: dict[str, Any] | None, property_rules: dict[str, list[str]],
              strict: bool = False) -> list[dict[str, Any]]:
    """One row per rule in the index: its cases, properties, mutants and status.

    The status is `conformance._verdict.rule_status`: only items that count for
    the rule decide it (never a comparison with the reference engine).
    """
    by_rule = _by_rule(results)
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
        status, counts = _rule_state(rule.kind, covering.get(rule.id, []),
                                     by_rule.get(rule.id, []), strict)
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
    """The documented exit code for a finished (or interrupted) run (`ExitCode`)."""
    return int(report["verdict"]["exit_code"])
