"""What a verdict rests on: which results count, each rule's status, the run's outcome.

A certification claims "this engine follows the seed's rules", so it may only
rest on expectations a person read from the seed: an item's `basis` says what
its expectation rests on, and `counts` whether it counts (the table: docs/cli.md,
"What a verdict rests on").  Every view (exit code, terminal, report.json and its
renderings, badge, ``diff``) reads the outcome computed here, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal, cast

from conformance._catalogue import CONTEXT, READING, SEED_KINDS, Rule
from conformance._errors import ExitCode
from conformance._results import worst
from conformance._types import (
    Basis,
    Filters,
    ResultDict,
    RuleRow,
    Status,
    Summary,
    Tally,
    TooFewExamples,
    Verdict,
)

INFORMATIVE = "informative"

#: Rule-index kinds grouped as reports show them.
GROUPS = ("seed", READING, CONTEXT)


def basis(rules: Iterable[str], index: Mapping[str, Rule], compares_reference: bool = False,
          ) -> Basis:
    """What an item's expectation rests on (docs/cli.md); unknown ids count as seed."""
    if compares_reference:
        return "reference"
    kinds = {index[r].kind if r in index else "rule" for r in rules}
    if READING in kinds:
        return "reading"
    if kinds & SEED_KINDS:
        return "seed"
    return "context"


def counts(item_basis: str, strict: bool) -> bool:
    """Whether a result of this basis counts toward status, exit code and badge."""
    return item_basis == "seed" or (strict and item_basis in (READING, CONTEXT))


def uncounted(status: str, item_basis: str, strict: bool, expected_failure: bool = False,
              ) -> str:
    """Why a failure or error does not count toward the verdict, in a few words
    (``known failure``, ``reading``, ``context``, ``reference``); ``""`` when it
    counts or is no failure.  `item_counts` counts by the same rule: an error
    counts whatever the item rests on, a failure only when its basis counts, and
    neither when the known-failures file lists the item."""
    if status not in ("fail", "error"):
        return ""
    if expected_failure:
        return "known failure"
    return item_basis if status == "fail" and not counts(item_basis, strict) else ""


def group(kind: str) -> str:
    """``seed``, ``reading`` or ``context`` for a rule-index kind."""
    return kind if kind in (READING, CONTEXT) else "seed"


def status_for(result: ResultDict, rule_id: str) -> Status:
    """A result's status as it speaks for one rule it is tagged with.

    A property checks a rule only through the supported examples that exercised it
    (``examples.exercised``): a passing property whose examples exercised the rule
    fewer than ``examples.min_exercised`` times is a *skip* for that rule ("too few
    examples"), never a pass.  A failure stays a failure of every rule it is tagged
    with, whichever example it was found on.  Results from before ``exercised`` speak
    as their status, and so does a comparison with the reference engine: it never speaks
    for a rule (`rule_status`), so what its examples exercised is only shown.
    """
    if (result["status"] == "pass" and result.get("kind") == "property"
            and result.get("basis") != "reference"):
        examples = result.get("examples")
        reached = examples.get("exercised") if examples else None
        if (examples and reached is not None
                and reached.get(rule_id, 0) < examples.get("min_exercised", 1)):
            return "skip"
    return result["status"]


def too_few_examples(results: Iterable[ResultDict], rule_id: str) -> list[TooFewExamples]:
    """The passing properties that do not check ``rule_id`` for too few examples
    exercising it (`status_for`): ``{property, exercised, needed}`` each."""
    return [{"property": r["id"], "exercised": examples.get("exercised", {}).get(rule_id, 0),
             "needed": examples.get("min_exercised", 1)}
            for r in results
            if r["status"] == "pass" and status_for(r, rule_id) == "skip"
            and (examples := r.get("examples")) is not None]


def rule_status(kind: str, results: list[ResultDict], strict: bool) -> str | None:
    """A rule's status from the results tagged with it; None when none says anything.

    Items that compare with the reference engine never speak for a rule.  For a
    seed rule, an item that does not count (it relies on a reading) may show
    that the engine follows the rule when it passes, but its failure is the
    reading's, not the rule's.
    """
    statuses = [r["status"] for r in results if r["basis"] != "reference" and (
        group(kind) != "seed" or counts(r["basis"], strict) or r["status"] in ("pass", "skip"))]
    return worst(statuses) if statuses else None


def items_checked(rule: RuleRow) -> tuple[int, int]:
    """(items that ran to a pass or fail, items the catalogue tags with the rule): the
    catalogue's total, not the run's, as an item left out by a filter was not checked."""
    total = len(rule["cases"]) + len(rule["properties"])
    return rule["counts"]["pass"] + rule["counts"]["fail"], total


def fully_checked(rule: RuleRow) -> bool:
    """Every item tagged with the rule ran, and the rule passes."""
    ran, total = items_checked(rule)
    return rule["status"] == "pass" and total > 0 and ran >= total


def rule_counts(rules: Iterable[RuleRow]) -> dict[str, dict[str, int]]:
    """The one count of rules every view shows, per group (seed, reading, context, and
    informative, kept apart as it states nothing to follow): ``total``, one count per
    status, and ``checked`` (`fully_checked`)."""
    tally = {name: {"total": 0, "pass": 0, "fail": 0, "error": 0, "skip": 0, "uncovered": 0,
                    "checked": 0} for name in (*GROUPS, INFORMATIVE)}
    for rule in rules:
        row = tally[INFORMATIVE if rule["kind"] == INFORMATIVE else group(rule["kind"])]
        row["total"] += 1
        row[rule["status"]] += 1
        row["checked"] += fully_checked(rule)
    return tally


def item_counts(results: Iterable[ResultDict], strict: bool,
                engine_started: bool = True) -> Summary:
    """The report's ``summary``, the one count of items every view shows (its fields:
    docs/reports.md); before the engine started, every failure counts."""
    out = {"total": 0, "pass": 0, "fail": 0, "error": 0, "skip": 0,
           "counted_failures": 0, "engine_errors": 0,
           "differs_from_readings": 0, "differs_from_reference": 0,
           "expected_failures": 0, "unexpected_passes": 0}
    for r in results:
        out["total"] += 1
        out[r["status"]] += 1
        if r["expected_failure"]:
            out["unexpected_passes" if r["status"] == "pass" else "expected_failures"] += 1
            continue
        if r["status"] == "error":
            out["engine_errors"] += 1
        elif r["status"] != "fail":
            continue
        elif not engine_started or counts(r["basis"], strict):
            out["counted_failures"] += 1
        elif r["basis"] == "reference":
            out["differs_from_reference"] += 1
        else:
            out["differs_from_readings"] += 1
    return cast(Summary, out)   # Summary's keys, counted by status name


def filters_applied(settings_filters: Filters, shard: str | None = None) -> list[str]:
    """What a run's filters (and ``--shard``) left out, in the options' own words
    (empty: nothing)."""
    said = [f"--select {p}" for p in settings_filters.get("select", [])]
    said += [f"--rule {p}" for p in settings_filters.get("rules", [])]
    if settings_filters.get("rulesets"):
        said.append("--ruleset " + ",".join(settings_filters.get("rulesets", [])))
    if settings_filters.get("cases") is False:
        said.append("--no-cases")
    if settings_filters.get("properties") is False:
        said.append("--no-properties")
    if shard:
        said.append(f"--shard {shard}")
    return said


def verdict(results: list[ResultDict], rules: list[RuleRow], *, complete: bool,
            handshake: str, strict: bool, allow_no_verdict: bool,
            claimed: list[str] | None = None, filters: list[str] | None = None,
            fail_under: float | None = None, selected: bool = False,
            exitfirst: bool = False, unstarted_mutants: str = "") -> Verdict:
    """The run's outcome: a status, the exit code, one sentence, and rule counts.

    Rules are counted over the rulesets the engine ``claimed`` (all when None):
    a Vision-only engine is judged on Vision's rules.  ``pass`` means every seed
    rule of those was checked in full and passes; a run where nothing counted
    failed but less was checked is ``partial`` (exit 0, so a gate still works
    for an engine on its way), or exit 1 below ``fail_under`` percent.

    A run ``-x`` (``exitfirst``) stopped at a failure or error is incomplete but
    judged by what it found (fail, exit 1; error, exit 2), never ``pass``: it
    was not interrupted by anyone, it stopped where it was told to.

    A mutation run in which no mutant could start (``unstarted_mutants`` says so)
    is an ``error``, never ``pass``: its score measured nothing.
    """
    present = list(dict.fromkeys(r["ruleset"] for r in rules))
    claimed_here = present if claimed is None else [r for r in present if r in claimed]
    not_run = [] if claimed is None else [r for r in claimed if r not in present]
    tally = rule_counts(r for r in rules if r["ruleset"] in claimed_here)
    counted = [r for r in results if counts(r["basis"], strict)]
    note = ""
    if selected and not any(r["status"] in ("pass", "fail") for r in counted):
        counted = list(results)
        if results:
            note = ("; the selected item(s) do not count toward the certification (they rely "
                    "on a reading, context or the reference engine)")
    real = [r for r in counted if not r["expected_failure"]]
    known = sum(r["status"] in ("fail", "error") and r["expected_failure"] for r in counted)
    # the known failures still break their rules: never "no rule broken" above them
    unbroken = (f"no rule is broken but by the {known} known failure(s) the known-failures "
                "file lists" if known else "")
    stale = [r for r in results if r["status"] == "pass" and r["expected_failure"]]
    seed = tally["seed"]
    percent = 100.0 * seed["checked"] / seed["total"] if seed["total"] else 0.0
    complete_coverage = seed["checked"] == seed["total"] and seed["total"] > 0 and not not_run
    stopped = exitfirst and any(r["status"] in ("fail", "error") for r in real)
    if not complete and not stopped:
        status, code, message = "interrupted", ExitCode.INTERRUPTED, "the run was interrupted"
    elif handshake:
        status, code, message = "not certified", ExitCode.ENGINE_ERRORS, handshake
    elif any(r["status"] == "fail" for r in real) or stale:
        status, code = "fail", ExitCode.FAILURES
        message = "the engine breaks rules of the seed" + (
            " or the catalogue's readings" if strict else "")
        if stale and not any(r["status"] == "fail" for r in real):
            message = "known failures passed: the known-failures file is stale"
    elif any(r["status"] == "error" for r in real):
        status, code = "error", ExitCode.ENGINE_ERRORS
        message = f"{unbroken or 'no rule broken'}, but the engine errored on some items"
    elif unstarted_mutants:
        status, code = "error", ExitCode.ENGINE_ERRORS
        message = f"{unbroken or 'no rule broken'}, but {unstarted_mutants}"
    elif not any(r["status"] in ("pass", "fail") for r in counted):
        status = "no verdict"
        code = ExitCode.OK if allow_no_verdict else ExitCode.NO_VERDICT
        message = ("nothing was checked: no item that counts passed or failed "
                   "(see the skip reasons)")
    elif not complete_coverage:
        status, code = "partial", ExitCode.OK
        message = (f"{unbroken or 'no rule checked is broken'}, but not every seed rule was "
                   "checked")
    else:
        status, code, message = "pass", ExitCode.OK, "the engine follows every seed rule"
    if note and status == "fail":
        message = "the selected item(s) fail"
    if not complete and stopped:
        message += "; stopped there by -x/--exitfirst: the items after it did not run"
    message += note if status not in ("interrupted", "not certified") else ""
    if fail_under is not None and status in ("pass", "partial") and percent < fail_under:
        code = ExitCode.FAILURES
        message += f"; below --fail-under {fail_under:g}: {percent:.0f}% of the seed rules checked"
    def rules_of(name: str) -> Tally:
        return {"pass": tally[name]["pass"], "total": tally[name]["total"],
                "checked": tally[name]["checked"]}

    return {"status": status, "exit_code": int(code), "message": message,
            "strict_readings": strict,
            "rules": {"seed": rules_of("seed"), "reading": rules_of(READING),
                      "context": rules_of(CONTEXT)},
            "informative_rules": tally[INFORMATIVE]["total"],
            "coverage": {
                "claimed": claimed_here, "claimed_not_run": not_run,
                "percent": round(percent, 1), "fail_under": fail_under,
                "items": len(results),
                "items_not_run": sum(r["status"] == "skip" for r in results),
                "top_reasons": [[reason, len(ids)] for reason, ids in skip_reasons(results)[:3]],
                "filtered": list(filters or []),
            }}


def skip_kinds(results: list[ResultDict]) -> list[tuple[str, int]]:
    """Skipped items counted by the kind the engine gave (`Unsupported.kind`); none when
    no skip has a kind (a line saying only "N no kind given" tells nothing)."""
    kinds = [(kind, len(ids)) for kind, ids in skip_reasons(results, "skip_kind", NO_KIND)]
    return [] if [kind for kind, _ in kinds] == [NO_KIND] else kinds


NO_KIND = "no kind given"


def skip_reasons(results: list[ResultDict], by: Literal["message", "skip_kind"] = "message",
                 unsaid: str = "(no reason given)") -> list[tuple[str, list[str]]]:
    """Skipped items grouped by reason (or another key ``by``), most frequent first:
    what to map next."""
    groups: dict[str, list[str]] = {}
    for r in results:
        if r["status"] == "skip":
            groups.setdefault(r.get(by) or unsaid, []).append(r["id"])
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
