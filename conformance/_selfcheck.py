"""A report read back checks itself: what it derives from its results must follow from them.

``report``, ``failures``, ``diff``, ``compare``, ``merge`` and ``rules --report``
read a report.json that anyone with write access may have changed since the run.
`load_json` reads it as strict JSON (no NaN or Infinity, no key twice, no nesting
deeper than `MAX_DEPTH`), and `check` computes again, with the code a run uses
(`conformance._certify`, `conformance._verdict`), everything that follows from
the per-item results: the summary, each rule's status and counts, the verdict
(status, exit code, message, rule tallies, coverage) and the mutation scores.
A report that says anything else is refused (`InconsistentReport`, exit 4),
naming the field, what the file says and what its results give.

What this cannot catch: a forgery that changes the results themselves and then
everything derived from them consistently (every failing item rewritten as a
pass) is a report that agrees with itself.  The defence there is the
``sha256 <hex>  <path>`` line ``certify`` prints for each file it writes: kept in
the CI log, it tells whether a report.json is still the one the run wrote.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NoReturn

from conformance._errors import UsageError
from conformance._files import read_report_text
from conformance._protocol import deeper_than
from conformance._types import Mutation, ReportDict

#: Deeper than any report a run writes (report, results, a result, its mismatches, a
#: mismatch: 5 levels, then an engine's observed value) and far below what makes
#: Python's JSON reader or a renderer give up.
MAX_DEPTH = 200

#: How many disagreements one refusal lists.
_SHOWN = 5


class InconsistentReport(UsageError):
    """A report.json whose summary, rule statuses or verdict are not what its own
    results give.  ``disagreements`` lists ``(field, what the file says, what its
    results give)``."""

    def __init__(self, path: str, disagreements: list[tuple[str, object, object]]) -> None:
        self.path, self.disagreements = path, disagreements
        shown = "; ".join(f"{field} says {_show(said)}, its results give {_show(found)}"
                          for field, said, found in disagreements[:_SHOWN])
        more = (f"; and {len(disagreements) - _SHOWN} more" if len(disagreements) > _SHOWN
                else "")
        super().__init__(
            f"{path} contradicts itself: {shown}{more}. It was changed after the run, or "
            "is damaged: do not trust it; rerun certify, or take the copy whose sha256 "
            "matches the one certify printed (docs/reports.md, 'A report checks itself')")


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 120 else text[:120] + "..."


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"the key {key!r} appears twice in one object")
        found[key] = value
    return found


def load_json(path: str | Path) -> Any:
    """The JSON in ``path``, read strictly; anything else is a `UsageError` naming the file."""
    text = read_report_text(path)
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except RecursionError:
        raise UsageError(f"cannot read report {path}: its JSON nests too deeply to read "
                         f"(a report nests at most {MAX_DEPTH} levels); it is not a "
                         "report.json certify wrote") from None
    except ValueError as exc:
        raise UsageError(f"cannot read report {path}: {exc}") from None
    if deeper_than(data, MAX_DEPTH):
        raise UsageError(f"cannot read report {path}: its JSON nests more than {MAX_DEPTH} "
                         "levels deep; it is not a report.json certify wrote")
    where = out_of_range(data)
    if where:
        raise UsageError(f"cannot read report {path}: {where} is a number beyond what a "
                         f"report holds (integers within +-2**63, finite numbers); it is "
                         "not a report.json certify wrote")
    return data


#: The largest magnitude of an integer in a report (a 64-bit integer's).
MAX_INT = 2**63


def out_of_range(value: object) -> str:
    """Where in ``value`` (a report's JSON) a number lies beyond `MAX_INT`, or is a
    float that is not finite (``1e400`` reads as infinity): ``results[0].duration``;
    "" when none does.  Such a number is valid JSON and fits the schema, but no
    renderer or sum of durations is made for it."""
    stack: list[tuple[object, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(item))
        elif isinstance(item, bool):
            continue
        elif ((isinstance(item, int) and not -MAX_INT <= item <= MAX_INT)
              or (isinstance(item, float) and not math.isfinite(item))):
            return where or "the report"
    return ""


def check(report: ReportDict, path: str | Path) -> None:
    """Raise `InconsistentReport` when ``report`` (valid against the report schema)
    says anything its results do not give."""
    try:
        found = list(disagreements(report))
    except RecursionError:   # a schema-valid report holds nothing this deep; belt and braces
        raise UsageError(f"cannot read report {path}: nested too deeply to check") from None
    if found:
        raise InconsistentReport(str(path), found)


def recomputed(report: ReportDict) -> ReportDict:
    """``report`` with its rule statuses and counts, summary and verdict computed again
    from its results, exactly as a run (or `merge`) computes them; ``report`` is left
    as it was."""
    from conformance._certify import _judge, _with_status

    strict = bool(report["settings"]["strict_readings"])
    # `_with_status` sets each row's status, counts and too_few_examples anew
    again: ReportDict = {**report, "rules": _with_status(report["rules"], report["results"],
                                                         strict)}
    coverage = report["verdict"].get("coverage")
    claimed = None if coverage is None else coverage["claimed"] + coverage["claimed_not_run"]
    return _judge(again, claimed, exitfirst=stopped_by_exitfirst(report))


def stopped_by_exitfirst(report: ReportDict) -> bool:
    """Whether the run was ended by ``-x`` (it says so among its problems)."""
    return any(p["kind"] == "interrupted" and "-x/--exitfirst" in p["message"]
               for p in report["problems"])


def disagreements(report: ReportDict) -> Iterator[tuple[str, object, object]]:
    """Each ``(field, what the report says, what its results give)`` that differ."""
    seen: set[str] = set()
    for r in report["results"]:   # one result per item: a second one would hide the first
        if r["id"] in seen:
            yield f"results[{r['id']}]", "two results", "one result per item"
            break
        seen.add(r["id"])
    again = recomputed(report)
    yield from _differ("verdict", report["verdict"], again["verdict"])
    yield from _differ("summary", report["summary"], again["summary"])
    for said_row, found_row in zip(report["rules"], again["rules"], strict=True):
        said: Mapping[str, object] = said_row   # compared key by key
        found: Mapping[str, object] = found_row
        for key in ("status", "counts", "too_few_examples"):
            if key in said and said[key] != found[key]:   # older reports lack the last
                yield f"rules[{said['id']}].{key}", said[key], found[key]
    coverage = report["verdict"].get("coverage")
    if coverage is not None:   # the rulesets judged are the ones the engine claimed
        claims = report["engine"]["rulesets"]
        judged = coverage["claimed"] + coverage["claimed_not_run"]
        present = {row["ruleset"] for row in report["rules"]}
        should = [r for r in claims if r in present or r in judged]
        if sorted(set(judged)) != sorted(set(should)):
            yield "verdict.coverage.claimed", judged, should
    if report["settings"]["known_failures"] is None:
        listed = [r["id"] for r in report["results"] if r["expected_failure"]]
        if listed:
            yield (f"results[{listed[0]}].expected_failure", True,
                   "false (no known-failures file was given)")
    yield from _mutation(report["mutation"])
    synthetic = report.get("vocabulary", {}).get("synthetic")
    if synthetic is not None:
        from conformance import _vocabulary_gate

        items = _vocabulary_gate.harness_items(report["results"])
        if synthetic["items"] != items:
            yield "vocabulary.synthetic.items", synthetic["items"], items


def _mutation(mutation: Mutation | None) -> Iterator[tuple[str, object, object]]:
    """The mutation scores follow from the mutant rows."""
    if not mutation:
        return
    rows = mutation["mutants"]
    for row in rows:
        if row["killed"] != bool(row["killed_by"]):
            yield f"mutation.mutants[{row['name']}].killed", row["killed"], bool(row["killed_by"])
        if "certified_for" in row:   # older reports lack it
            caught = [r for r in row["certified_for"] if r in row.get("killed_for", row["rules"])]
            if row["certified_for"] != caught:
                yield f"mutation.mutants[{row['name']}].certified_for", row["certified_for"], caught
            if row["certified"] != bool(caught):
                yield f"mutation.mutants[{row['name']}].certified", row["certified"], bool(caught)
    if not rows:
        return
    scores = {"score": sum(r["killed"] for r in rows) / len(rows),
              "certified_score": sum(r.get("certified", r["killed"]) for r in rows) / len(rows)}
    given: Mapping[str, object] = mutation   # compared key by key
    for key, value in scores.items():
        if key in given and given[key] != value:
            yield f"mutation.{key}", given[key], value


def _differ(where: str, said: object, found: object) -> Iterator[tuple[str, object, object]]:
    """Where ``said`` and ``found`` differ, field by field; a key an older report lacks
    is not a difference (the schema says which keys it must have)."""
    if isinstance(said, dict) and isinstance(found, dict):
        for key, value in said.items():
            if key in found:
                yield from _differ(f"{where}.{key}", value, found[key])
            else:
                yield f"{where}.{key}", value, "(nothing: no such field)"
    elif said != found or isinstance(said, bool) != isinstance(found, bool):
        yield where, said, found
