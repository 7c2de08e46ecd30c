"""The shape of report.json, as types: read this module to learn what a report holds.

Each `TypedDict` here is one part of the report dict exactly as report.json holds
it (a TypedDict is a plain dict at run time, so the file does not change); the
schema is ``conformance/schemas/report.json`` and every field's meaning is in
docs/reports.md ("report.json, field by field", "A result", "A rule"): the
comments here only name them.  ``NotRequired`` marks a field a report may lack
(mostly: older reports do).  A mismatch's expected and observed are `object` (any
JSON); what the engine's hello declares beyond its name and rulesets stays `Any`.
"""

# no `from __future__ import annotations`: NotRequired must be seen at run time for
# each TypedDict's __required_keys__ (the schema test compares them)
from typing import Any, Literal, NotRequired, TypedDict

Status = Literal["pass", "fail", "error", "skip"]
#: What an item's expectation rests on (see `conformance._verdict.basis`).
Basis = Literal["seed", "reading", "context", "reference"]


class MismatchDict(TypedDict):
    """One observation that differed: where, what the case expected, what the engine did."""

    path: str
    expected: object   # JSON, as the case and the engine gave it
    observed: object


class Examples(TypedDict):
    """A property's scenarios: drawn, supported by the engine, actions applied."""

    generated: int
    supported: int
    actions: int
    exercised: NotRequired[dict[str, int]]   # per rule: supported examples exercising it
    min_exercised: NotRequired[int]          # fewer and the property does not check the rule


class ResultDict(TypedDict):
    """One case or property's result (`conformance._results.Result.to_json`)."""

    id: str
    kind: Literal["case", "property"]
    ruleset: str
    rules: list[str]
    status: Status
    message: str
    step: int | None
    mismatches: list[MismatchDict]
    stderr: str
    counterexample: str
    duration: float
    rerun: str
    location: str
    expected_failure: bool
    basis: Basis
    examples: NotRequired[Examples | None]
    features: NotRequired[list[str]]
    needs_vocabulary: NotRequired[int]
    skip_kind: NotRequired[str | None]
    carried: NotRequired[bool]


#: A rule's results by status, each as it speaks for the rule ("pass" is a keyword:
#: these take the functional form).
RuleCounts = TypedDict("RuleCounts", {"pass": int, "fail": int, "error": int, "skip": int})


class TooFewExamples(TypedDict):
    """A passing property that does not check a rule: too few examples exercised it."""

    property: str
    exercised: int
    needed: int


class RuleRow(TypedDict):
    """One rule of the rule index with what covers it and its status (``rules[]``)."""

    id: str
    ruleset: str
    ref: str
    kind: str            # rule, qa, example, informative, reading or context
    title: str
    cases: list[str]
    properties: list[str]
    mutants: list[str]
    status: str          # pass, fail, error, skip or uncovered
    counts: RuleCounts
    too_few_examples: NotRequired[list[TooFewExamples]]


#: One group's rules in the verdict: passing, all, fully checked and passing.
Tally = TypedDict("Tally", {"pass": int, "total": int, "checked": NotRequired[int]})


class VerdictRules(TypedDict):
    """The verdict's rule tallies per group (informative rules apart)."""

    seed: Tally
    reading: Tally
    context: Tally


class Coverage(TypedDict):
    """How much of the claimed rulesets the run checked."""

    claimed: list[str]
    claimed_not_run: list[str]
    percent: float
    fail_under: float | None
    items: int
    items_not_run: int
    top_reasons: list[list[str | int]]   # [reason, count], most frequent first
    filtered: list[str]


class Verdict(TypedDict):
    """The run's outcome (`conformance._verdict.verdict`)."""

    status: str        # pass, partial, fail, error, no verdict, not certified, interrupted
    exit_code: int
    message: str
    strict_readings: bool
    rules: VerdictRules
    informative_rules: int
    coverage: NotRequired[Coverage]


#: The items counted once (`conformance._verdict.item_counts`).
Summary = TypedDict("Summary", {
    "total": int, "pass": int, "fail": int, "error": int, "skip": int,
    "expected_failures": int, "unexpected_passes": int,
    "counted_failures": NotRequired[int], "engine_errors": NotRequired[int],
    "differs_from_readings": NotRequired[int], "differs_from_reference": NotRequired[int],
    "deselected": NotRequired[int]})


class MutantSpec(TypedDict):
    """A mutant as the engine's hello lists it (``capabilities.mutants``, docs/protocol.md)."""

    name: str
    ruleset: str
    rules: list[str]     # the rule ids it breaks
    description: str


class MutantRow(TypedDict):
    """One of the engine's mutants and the items that killed it."""

    name: str
    ruleset: str
    rules: list[str]
    killed: bool
    killed_by: list[str]
    killed_for: NotRequired[list[str]]
    certified_for: NotRequired[list[str]]
    certified: NotRequired[bool]
    error: NotRequired[str]        # why it could not run; absent when it ran


class Mutation(TypedDict):
    """The mutation run: every mutant, the fraction killed, the fraction certified."""

    mutants: list[MutantRow]
    score: float
    certified_score: NotRequired[float]


class EngineInfo(TypedDict):
    """The engine's hello, plus the spec that started it."""

    spec: str            # the --engine argument that started it (the report adds it)
    name: str
    version: str
    rulesets: list[str]
    capabilities: dict[str, Any]   # engine-controlled
    vocabulary: NotRequired[dict[str, int]]


class Filters(TypedDict):
    """What the run was narrowed to (empty: everything)."""

    select: list[str]
    rules: list[str]
    rulesets: NotRequired[list[str]]
    cases: NotRequired[bool]
    properties: NotRequired[bool]


class Settings(TypedDict):
    """How the run was set up."""

    profile: str
    rulesets: list[str]
    timeout: float
    max_examples: int
    seed: int
    filters: Filters
    known_failures: str | None
    strict_readings: bool
    allow_no_verdict: NotRequired[bool]
    shard: NotRequired[str | None]
    fail_under: NotRequired[float | None]
    merged_shards: NotRequired[list[str]]


class SuiteInfo(TypedDict):
    """The suite and catalogue that produced the report."""

    name: str
    version: str
    catalogue_digest: str
    ruleset_digests: NotRequired[dict[str, str]]


class ReportDict(TypedDict):
    """report.json, whole."""

    format: str
    complete: bool
    suite: SuiteInfo
    engine: EngineInfo
    settings: Settings
    started: str
    duration: float
    verdict: Verdict
    summary: Summary
    results: list[ResultDict]
    rules: list[RuleRow]
    deselected: NotRequired[dict[str, int]]
    problems: list[dict[str, str]]   # {kind, message}: handshake, engine, interrupted, ...
    mutation: Mutation | None
    vocabulary: NotRequired[dict[str, Any]]   # conformance/vocabulary.py's section
