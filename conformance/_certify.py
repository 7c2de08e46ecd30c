"""One certification run: catalogue + engine + runner -> the report dict.

Shared by ``conformance certify``/``run``, `conformance.certify` and the pytest
plugin's session summary.  The report dict is what ``report.json`` holds;
every other format is rendered from it.
"""

from __future__ import annotations

import dataclasses
import datetime
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from conformance import _vocabulary_gate
from conformance._catalogue import Case, Catalogue, catalogue_folders
from conformance._discovery import ruleset_names
from conformance._engine import Connection, EngineFault, stray_mutant_problem
from conformance._errors import UsageError, did_you_mean
from conformance._knownfail import KnownFailures, Pin, entry_digest
from conformance._loading import InProcessEngine, load_engine
from conformance._properties import Property
from conformance._results import Result
from conformance._runner import NO_HELLO, Runner, Selection
from conformance._select import stops_run
from conformance._settings import Profile, get_profile
from conformance._shards import check_complete
from conformance._shown import shown
from conformance._suite import Suite
from conformance._transcript import TranscriptSink
from conformance._types import (
    EngineInfo,
    MutantRow,
    MutantSpec,
    Mutation,
    ReportDict,
    ResultDict,
    RuleCounts,
    RuleRow,
    Settings,
    Summary,
    Verdict,
)
from conformance._verdict import (
    filters_applied,
    item_counts,
    rule_status,
    status_for,
    too_few_examples,
    verdict,
)
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

    @classmethod
    def of(cls, engine: Any, *, profile: str | None = None, seed: int | None = None,
           rulesets: Sequence[str] | None = None, select: Sequence[str] = (),
           rules: Sequence[str] = (), properties: bool = True,
           cases: str | Path | None = None, **fields: Any) -> RunConfig:
        """The run that options in the CLI's words name: ``engine`` a spec or an engine
        object, ``profile`` a name (default as the CLI's); ``fields`` the other fields,
        as they are."""
        chosen = get_profile(profile)
        if seed is not None:
            chosen = dataclasses.replace(chosen, seed=seed)
        spec = engine if isinstance(engine, str) else f"python:{type(engine).__qualname__}"
        return cls(engine_spec=spec, engine=None if isinstance(engine, str) else engine,
                   profile=chosen, cases_root=Path(cases) if cases is not None else None,
                   selection=Selection(rulesets=list(rulesets) if rulesets else None,
                                       select=list(select), rules=list(rules),
                                       properties=properties), **fields)


def certify(config: RunConfig, on_result: Callable[[Result], None] | None = None,
            on_start: Callable[[Catalogue], None] | None = None,
            on_mutant: Callable[[MutantRow], None] | None = None,
            suite: Suite | None = None,
            on_plan: Callable[[dict[str, int]], None] | None = None) -> ReportDict:
    """Run everything selected on ``suite`` (loaded when not given); return the report.

    Progress goes to ``on_plan`` (how many cases, properties and mutants),
    ``on_start`` (the catalogue), ``on_result`` and ``on_mutant`` (each row).  A
    KeyboardInterrupt (SIGINT, or SIGTERM turned into one by the CLI) stops any
    phase; the report then says ``complete: false`` and keeps everything recorded.
    """
    from conformance._mutation import list_mutants, run_mutants
    from conformance._parallel import parallel_results

    suite = suite or Suite.load(config.cases_root, config.selection.rulesets)
    suite.check_filters(config.selection)
    if on_start is not None:
        on_start(suite.catalogue)
    known = KnownFailures.read(config.known_failures) if config.known_failures else None
    engine = _connect(config)
    runner = Runner(suite.catalogue, engine, config.engine_spec, config.profile,
                    config.selection, reference=lambda: load_engine("reference"),
                    properties=suite.properties, transcripts=config.transcripts)
    if config.mutation and config.engine is not None:
        raise UsageError("mutation analysis starts the engine once per mutant: name it by "
                         "its spec (e.g. 'python:pkg.mod:factory'), not as an object")
    # an engine that lists no mutants is a usage error, before the run; one that cannot
    # start to say is a failed handshake, reported as without --mutation
    mutants: list[MutantSpec] = []
    unlisted: EngineFault | None = None
    if config.mutation:
        try:
            mutants = list_mutants(config.selection.rulesets, config.engine_spec)
        except EngineFault as fault:
            unlisted = fault
    started = datetime.datetime.now(datetime.UTC)
    began = time.perf_counter()
    results: list[Result] = []
    problems: list[dict[str, str]] = []
    mutation: Mutation | None = None
    complete = True
    try:
        runner.handshake()   # before the plan: items of rulesets it does not claim are deselected
        if on_plan is not None:  # how many items each phase has, for progress bars
            on_plan({"cases": len(runner.cases()), "properties": len(runner.properties()),
                     "mutants": len(mutants)})
        if unlisted is not None and not runner.handshake_error:
            problems.append({"kind": "handshake", "message": "the engine could not start to "
                             f"list its mutants: {type(unlisted).__name__}: {unlisted.message}"})
        # one clock for the whole run: the items, then the mutation phase
        deadline = time.monotonic() + config.profile.run_timeout
        stream: Iterator[Result] = runner.results(deadline=deadline)
        if config.jobs > 1 and len(runner.items()) > 1 and not runner.handshake_error:
            engine.close()   # each worker starts its own: none inherits this one's pipes
            stream = parallel_results(runner, lambda: _connect(config), config.jobs)
        for result in stream:
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
        if config.mutation and complete and unlisted is None:
            engine.close()   # done with it; forked mutant workers must not hold its pipes
            mutation = {"mutants": [], "score": 1.0, "certified_score": 1.0}
            run_mutants(suite, config.selection.rulesets, config.profile,
                        into=mutation, on_mutant=on_mutant, jobs=config.jobs,
                        engine_spec=config.engine_spec, engine_options=config.engine_options,
                        all_kills=config.all_kills, mutants=mutants, deadline=deadline)
            broken = [m for m in mutation["mutants"] if "error" in m]
            if broken:
                problems.append({"kind": "mutant", "message":
                                 f"{len(broken)} of {len(mutation['mutants'])} mutants could not "
                                 f"run, so none of them counts as killed; the first: "
                                 f"{broken[0]['name']}: {broken[0]['error']}"})
    except KeyboardInterrupt:
        complete = False
        problems.append({"kind": "interrupted", "message":
                         f"run interrupted after {len(results)} result(s); this report is partial"})
    finally:
        engine.close()   # idempotent: it may be closed already
    results = suite.in_order(results)   # whatever order the jobs finished in
    problems[:0] = runner.problems + unknown_claims(runner.engine_info, suite.catalogue)
    stray = stray_mutant_problem(runner.engine_info, engine.mutant)
    if stray is not None:
        problems.insert(len(runner.problems), {"kind": "engine", "message": stray})
    if known is not None:
        problems += review_known(known, config, suite, results)
    if not results and complete:
        problems.append({"kind": "no-verdict", "message": "no case or property was selected"})
    return build_report(suite, config, runner.engine_info, results, problems, complete=complete,
                        started=started, duration=time.perf_counter() - began,
                        mutation=mutation, deselected=runner.deselected())


def unknown_claims(engine_info: dict[str, Any], catalogue: Catalogue) -> list[dict[str, str]]:
    """One problem per ruleset the hello claims that no installed pack nor the
    catalogue has ('poker'): otherwise the claim is silently ignored."""
    known = set(ruleset_names()) | set(catalogue.folders)
    return [{"kind": "engine",
             "message": f"the engine's hello claims ruleset {name!r}, which is not installed "
                        f"(installed: {', '.join(sorted(known)) or 'none'}"
                        f"{'; ' + did_you_mean(name, known) if did_you_mean(name, known) else ''}"
                        "); that claim is ignored"}
            for name in engine_info.get("rulesets", []) if name not in known]


def _connect(config: RunConfig) -> Connection:
    """The engine under test: the object given (in-process), else the spec's."""
    if config.engine is not None:
        return InProcessEngine(lambda: config.engine, config.engine_spec, config.mutant)
    return load_engine(config.engine_spec, timeout=config.timeout or config.profile.timeout,
                       mutant=config.mutant, **config.engine_options)


def build_report(suite: Suite, config: RunConfig, engine_info: dict[str, Any],
                 results: list[Result], problems: list[dict[str, str]], *, complete: bool,
                 started: datetime.datetime, duration: float,
                 mutation: Mutation | None,
                 deselected: dict[str, int] | None = None) -> ReportDict:
    """The report dict of a run's results (in catalogue order) and problems;
    ``deselected``: the items not run as the engine does not claim their ruleset, per
    ruleset (their rules are left out of ``rules`` too)."""
    catalogue, selection = suite.catalogue, config.selection
    as_json = [r.to_json() for r in results]
    claimed = claimed_rulesets(engine_info, catalogue)
    deselected = deselected or {}
    # the hello, checked against the protocol's schema at the handshake
    engine = cast(EngineInfo, {"spec": config.engine_spec, **(engine_info or NO_HELLO)})
    settings: Settings = {
        "profile": config.profile.name,
        "rulesets": selection.rulesets or catalogue.rulesets,
        "timeout": config.timeout or config.profile.timeout,
        "max_examples": config.profile.max_examples,
        "seed": config.profile.seed,
        "filters": selection.to_json(),
        "known_failures": str(config.known_failures) if config.known_failures else None,
        "strict_readings": config.strict_readings,
        "allow_no_verdict": config.allow_no_verdict,
        "shard": "{}/{}".format(*selection.shard) if selection.shard else None,
        "fail_under": config.fail_under,
    }
    rules = [row for row in rule_rows(catalogue, as_json, selection, mutation,
                                      suite.property_rules(selection), config.strict_readings)
             if row["ruleset"] not in deselected]
    judged, summary = judgement(settings, as_json, rules, problems, mutation, deselected,
                                complete=complete, claimed=claimed, exitfirst=config.exitfirst)
    return {
        "format": REPORT_FORMAT,
        "complete": complete,
        "suite": {"name": "card-conformance", "version": __version__,
                  "catalogue_digest": catalogue.digest,
                  "ruleset_digests": catalogue.ruleset_digests},
        "engine": engine,
        "settings": settings,
        "started": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "duration": round(duration, 3),
        "verdict": judged,
        "summary": summary,
        "results": as_json,
        "rules": rules,
        "deselected": deselected,
        "problems": problems,
        "mutation": mutation,
        "vocabulary": _vocabulary_gate.report_section(engine_info, claimed, as_json),
    }


def judgement(settings: Settings, results: list[ResultDict], rules: list[RuleRow],
              problems: list[dict[str, str]], mutation: Mutation | None,
              deselected: dict[str, int] | None, *, complete: bool,
              claimed: list[str] | None, exitfirst: bool = False) -> tuple[Verdict, Summary]:
    """A report's verdict and summary from its results, rules, problems and settings
    (one run's or merged shards')."""
    handshake = next((p["message"] for p in problems if p["kind"] == "handshake"), "")
    rows = mutation["mutants"] if mutation else []
    unstarted = ""   # a mutation score of mutants that never ran says nothing
    if rows and all("error" in row for row in rows):
        unstarted = (f"none of the {len(rows)} mutants could start (the first: "
                     f"{rows[0]['name']}: {rows[0].get('error', ''):.300})")
    strict = bool(settings["strict_readings"])
    shard = settings.get("shard")
    judged = verdict(
        results, rules, complete=complete, handshake=handshake,
        strict=strict, claimed=claimed, fail_under=settings.get("fail_under"),
        # a shard may hold nothing; `merge` judges the whole run
        allow_no_verdict=bool(settings.get("allow_no_verdict")) or shard is not None,
        filters=filters_applied(settings["filters"], shard),
        selected=bool(settings["filters"]["select"]), exitfirst=exitfirst,
        unstarted_mutants=unstarted)
    summary = item_counts(results, strict, engine_started=not handshake)
    summary["deselected"] = sum((deselected or {}).values())
    return judged, summary


def _judge(report: ReportDict, claimed: list[str] | None,
           exitfirst: bool = False) -> ReportDict:
    """Fill in the report's verdict and summary (`judgement`); the report."""
    report["verdict"], report["summary"] = judgement(
        report["settings"], report["results"], report["rules"], report["problems"],
        report["mutation"], report.get("deselected"), complete=report["complete"],
        claimed=claimed, exitfirst=exitfirst)
    return report


def claimed_rulesets(engine_info: Mapping[str, Any], catalogue: Catalogue) -> list[str]:
    """The rulesets the engine claims that the catalogue has (a claim of a ruleset
    nobody wrote cases for cannot be checked, and is said so at the handshake)."""
    known = set(catalogue.rulesets) | set(catalogue_folders(catalogue.root))
    return [r for r in engine_info.get("rulesets", []) if r in known]


def review_known(known: KnownFailures, config: RunConfig, suite: Suite,
                 results: list[Result]) -> list[dict[str, str]]:
    """Mark the results the known-failures file lists; warn about what it lists
    wrongly and when it was pinned to another catalogue; re-pin it when asked
    (--update-known-failures, after a person reviewed the change).  The pin is
    compared over every item, not only the selected ones: a filter hides no
    change."""
    everything: list[Case | Property] = [*suite.catalogue.cases, *suite.properties]
    now = Pin(suite.catalogue.digest, __version__,
              {item.id: entry_digest(item.id, item.rules) for item in everything})
    if not config.update_known_failures:
        pinned = [{"kind": "known-failures", "message": m} for m in known.pin_warnings(now)]
    else:
        dropped = known.rewrite(now, suite.ids())
        message = f"{known.path} re-pinned to catalogue {now.catalogue[:19]}… (suite {now.suite})"
        if dropped:
            message += f"; dropped lines that match no item any more: {', '.join(dropped)}"
        pinned = [{"kind": "known-failures", "message": message}]
    return pinned + known.review(results, suite.ids())


def merge_reports(reports: list[ReportDict]) -> ReportDict:
    """One report from the reports of ``--shard`` runs of one engine on one catalogue.

    Results are the union (an item in two shards is an error); the summary, each
    rule's status and the verdict are computed again from them exactly as a
    single run computes them, so merged shards equal the unsharded run item for
    item.  The duration is the longest shard's (they ran side by side).
    """
    if not reports:
        raise UsageError("merge needs at least one report")
    check_complete(reports)   # every shard, each whole: never a clean pass of part of a run
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
    results = [r for report in reports for r in report["results"]]
    seen: set[str] = set()
    for r in results:
        if r["id"] in seen:
            raise UsageError(f"cannot merge: {r['id']!r} is in more than one report; "
                             "merge the shards of one run (--shard I/N), each once")
        seen.add(r["id"])
    problems: list[dict[str, str]] = []
    for report in reports:
        problems += [p for p in report["problems"] if p not in problems]
    coverage = first["verdict"].get("coverage")
    merged: ReportDict = {
        **first,
        "complete": all(r["complete"] for r in reports),
        "settings": {**first["settings"], "shard": None,
                     "merged_shards": [r["settings"].get("shard") or "?" for r in reports]},
        "started": min(r["started"] for r in reports),
        "duration": max(r["duration"] for r in reports),
        "results": results,
        "rules": _with_status(first["rules"], results, bool(first["settings"]["strict_readings"])),
        "problems": problems,
        "mutation": next((r["mutation"] for r in reports if r["mutation"]), None),
        "deselected": _summed(r.get("deselected") or {} for r in reports),
    }
    synthetic = merged.get("vocabulary", {}).get("synthetic")
    if synthetic is not None:   # older reports lack it
        items = _vocabulary_gate.harness_items(results)
        merged["vocabulary"] = {**merged["vocabulary"], "synthetic": {**synthetic, "items": items}}
    return _judge(merged, None if coverage is None
                  else coverage["claimed"] + coverage["claimed_not_run"])


def carry_key(report: ReportDict) -> dict[str, object]:
    """What must be the same in a report and the run that carries items from it with
    ``--last-failed`` (as `merge_reports` asks of shards): the engine (spec, name,
    version, mutant), the catalogue, the suite's version, the profile and seed, and the
    filters (``--select`` apart: it only narrows which failures are rerun)."""
    engine, settings = report["engine"], report["settings"]
    filters = {k: v for k, v in dict(settings["filters"]).items() if k != "select"}
    return {"engine spec": engine.get("spec"), "engine name": engine.get("name"),
            "engine version": engine.get("version"),
            "mutant": dict(engine.get("capabilities") or {}).get("mutant"),
            "catalogue": report["suite"]["catalogue_digest"],
            "suite version": report["suite"]["version"],
            "profile": settings["profile"], "seed": settings.get("seed"),
            "filters": filters, "shard": settings.get("shard")}


def run_key(config: RunConfig, digest: str) -> dict[str, object]:
    """The part of `carry_key` a run knows before the engine's hello."""
    selection = config.selection
    return {"engine spec": config.engine_spec, "mutant": config.mutant, "catalogue": digest,
            "suite version": __version__, "profile": config.profile.name,
            "seed": config.profile.seed,
            "filters": {k: v for k, v in selection.to_json().items() if k != "select"},
            "shard": "{}/{}".format(*selection.shard) if selection.shard else None}


def carry_refused(previous: ReportDict, current: dict[str, object]) -> str | None:
    """Why ``--last-failed`` may not carry items from ``previous`` into a run whose
    `carry_key` (or `run_key`) is ``current``, or None when it may: items of another
    engine, mutant, catalogue or profile would count as this run's (a broken mutant
    certified green on a reference report's passes)."""
    try:
        before = carry_key(previous)
    except (KeyError, TypeError, ValueError, AttributeError):
        return "its form (it is not a report of this suite)"
    for what, now in current.items():
        if before.get(what) != now:
            then = shown(repr(before.get(what)), 100)
            return f"{what} ({then} then, {shown(repr(now), 100)} now)"
    return None


def carry_forward(rerun: ReportDict, previous: ReportDict,
                  ids: Collection[str]) -> ReportDict:
    """report.json after ``--last-failed``: every item of the ``previous`` report still
    in the catalogue (``ids``), those ``rerun`` ran as it found them, the others as the
    previous report had them, marked ``carried``; rules, summary and verdict judged
    again over all of them, under the previous run's filters, so the counts and the
    verdict describe the whole run, not the subset rerun."""
    fresh = {r["id"]: r for r in rerun["results"]}
    results: list[ResultDict] = []
    for r in previous["results"]:
        if r["id"] in fresh:
            results.append(fresh.pop(r["id"]))
        elif r["id"] in ids:
            results.append({**r, "carried": True})
    results += fresh.values()   # not in the previous report (none, as it chose them)
    settings = rerun["settings"]
    strict = bool(settings["strict_readings"])
    merged: ReportDict = {
        **rerun,
        "settings": {**settings, "filters": previous["settings"]["filters"],
                     "shard": previous["settings"].get("shard")},
        "results": results,
        "rules": _with_status([row for row in rerun["rules"]
                               if row["ruleset"] not in (previous.get("deselected") or {})],
                              results, strict),
        "deselected": previous.get("deselected") or {},
    }
    synthetic = merged.get("vocabulary", {}).get("synthetic")
    if synthetic is not None:
        items = _vocabulary_gate.harness_items(results)
        merged["vocabulary"] = {**merged["vocabulary"], "synthetic": {**synthetic, "items": items}}
    coverage = rerun["verdict"].get("coverage")
    return _judge(merged, None if coverage is None
                  else coverage["claimed"] + coverage["claimed_not_run"])


def _summed(counts: Iterable[dict[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for one in counts:
        for key, n in one.items():
            out[key] = out.get(key, 0) + n
    return out


def rule_rows(catalogue: Catalogue, results: list[ResultDict], selection: Selection,
              mutation: Mutation | None, property_rules: dict[str, list[str]],
              strict: bool = False) -> list[RuleRow]:
    """One row per rule in the index: its cases, properties, mutants and status
    (`_with_status`)."""
    mutants: dict[str, list[str]] = {}
    for m in mutation["mutants"] if mutation else []:
        for rule in m["rules"]:
            mutants.setdefault(rule, []).append(m["name"])
    covering: dict[str, list[str]] = {}
    for case in catalogue.cases:
        for rule in case.rules:
            covering.setdefault(rule, []).append(case.id)
    # status and counts hold their place in the row; `_with_status` sets them
    rows: list[RuleRow] = [
        {"id": rule.id, "ruleset": rule.ruleset, "ref": rule.ref, "kind": rule.kind,
         "title": rule.title, "cases": covering.get(rule.id, []),
         "properties": sorted(p for p, rules in property_rules.items() if rule.id in rules),
         "mutants": mutants.get(rule.id, []),
         "status": "uncovered", "counts": {"pass": 0, "fail": 0, "error": 0, "skip": 0}}
        for rule in catalogue.rules.values()
        if not selection.rulesets or rule.ruleset in selection.rulesets]
    return _with_status(rows, results, strict)


def _with_status(rows: list[RuleRow], results: list[ResultDict],
                 strict: bool) -> list[RuleRow]:
    """The rule rows, each with its status and counts from the results tagged with it,
    each as it speaks for that rule (`status_for`: a property with too few examples
    exercising the rule is a skip for it, listed in ``too_few_examples``)."""
    by_rule: dict[str, list[ResultDict]] = {}
    for r in results:
        for rule in r["rules"]:
            by_rule.setdefault(rule, []).append(r)
    out: list[RuleRow] = []
    for row in rows:
        tagged = by_rule.get(row["id"], [])
        ran: list[ResultDict] = [{**r, "status": status_for(r, row["id"])} for r in tagged]
        statuses = [r["status"] for r in ran]
        counts: RuleCounts = {"pass": statuses.count("pass"), "fail": statuses.count("fail"),
                              "error": statuses.count("error"), "skip": statuses.count("skip")}
        # a known failure is still a failure of its rule
        status = ("uncovered" if not row["cases"]
                  else rule_status(row["kind"], ran, strict) or "skip")
        out.append({**row, "status": status, "counts": counts,
                    "too_few_examples": too_few_examples(tagged, row["id"])})
    return out


def exit_status(report: ReportDict) -> int:
    """The documented exit code for a finished (or interrupted) run (`ExitCode`)."""
    return int(report["verdict"]["exit_code"])
