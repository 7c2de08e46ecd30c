"""What a verdict rests on: which results count, each rule's status, the run's outcome.

A certification claims "this engine follows the seed's rules", so it may only
rest on expectations a person read from the seed:

- ``seed``: the item names seed rules and relies on no reading. It counts.
- ``reading``: the item relies on a reading, the catalogue's answer where the
  seed is silent. It says whether the engine follows that reading; it counts
  only with ``strict`` (``--strict-readings``).
- ``context``: the item names only rules from outside the seed. Like readings.
- ``reference``: the item compares the engine with the reference engine. A
  bug finder: never counts, never marks a rule failing.

Every view (exit code, terminal, report.json and its renderings, badge,
``diff``) reads the outcome computed here, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from conformance._catalogue import CONTEXT, READING, SEED_KINDS, Rule
from conformance._errors import ExitCode
from conformance._results import Basis, worst

#: Rule-index kinds grouped as reports show them.
GROUPS = ("seed", READING, CONTEXT)


def basis(rules: Iterable[str], index: Mapping[str, Rule], compares_reference: bool = False,
          ) -> Basis:
    """What an item's expectation rests on (module docstring); unknown ids count as seed."""
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


def group(kind: str) -> str:
    """``seed``, ``reading`` or ``context`` for a rule-index kind."""
    return kind if kind in (READING, CONTEXT) else "seed"


def rule_status(kind: str, results: list[dict[str, Any]], strict: bool) -> str | None:
    """A rule's status from the results tagged with it; None when none says anything.

    Items that compare with the reference engine never speak for a rule.  For a
    seed rule, an item that does not count (it relies on a reading) may show
    that the engine follows the rule when it passes, but its failure is the
    reading's, not the rule's.
    """
    statuses = []
    for r in results:
        if r["basis"] == "reference":
            continue
        if group(kind) != "seed" or counts(r["basis"], strict) or r["status"] in ("pass", "skip"):
            statuses.append(r["status"])
    return worst(statuses) if statuses else None


def verdict(results: list[dict[str, Any]], rules: list[dict[str, Any]], *, complete: bool,
            handshake: str, strict: bool, allow_no_verdict: bool) -> dict[str, Any]:
    """The run's outcome: a status, the exit code, one sentence, and rule counts."""
    counted = [r for r in results if counts(r["basis"], strict)]
    real = [r for r in counted if not r["expected_failure"]]
    stale = [r for r in results if r["status"] == "pass" and r["expected_failure"]]
    if not complete:
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
        message = "no rule broken, but the engine errored on some items"
    elif not any(r["status"] in ("pass", "fail") for r in counted):
        status = "no verdict"
        code = ExitCode.OK if allow_no_verdict else ExitCode.NO_VERDICT
        message = ("nothing was checked: no item that counts passed or failed "
                   "(see the skip reasons)")
    else:
        status, code, message = "pass", ExitCode.OK, "the engine follows every rule checked"
    tally: dict[str, dict[str, int]] = {}
    for name in GROUPS:
        rows = [r for r in rules if group(r["kind"]) == name and r["kind"] != "informative"]
        tally[name] = {"pass": sum(r["status"] == "pass" for r in rows), "total": len(rows)}
    return {"status": status, "exit_code": int(code), "message": message,
            "strict_readings": strict, "rules": tally,
            "informative_rules": sum(r["kind"] == "informative" for r in rules)}


def skip_reasons(results: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """Skipped items grouped by reason, most frequent first: what to map next."""
    groups: dict[str, list[str]] = {}
    for r in results:
        if r["status"] == "skip":
            groups.setdefault(r["message"] or "(no reason given)", []).append(r["id"])
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
