"""The terminal report: what `certify` and `merge` print once a run ends.

In the order docs/cli.md gives ("What a verdict rests on"); every text from an
engine or a report goes through `shown` (one escaped, bounded line).
"""

from __future__ import annotations

import json

from conformance import _vocabulary_gate
from conformance._progress import slowest_lines, status_label
from conformance._shown import shown, shown_lines
from conformance._types import EngineInfo, ReportDict, ResultDict
from conformance._verdict import skip_kinds, skip_reasons, uncounted
from conformance.report._text import (
    counts_line,
    coverage_line,
    differences,
    needs_attention,
    too_few_lines,
)

#: Skip reasons listed in the terminal; the reports list them all.
TOP_SKIP_REASONS = 5


def print_outcome(report: ReportDict, durations: int | None = None) -> None:
    """The terminal summary, in the order docs/cli.md gives ("What a verdict rests on")."""
    verdict = report["verdict"]
    handshake = [p for p in report["problems"] if p["kind"] == "handshake"]
    for problem in handshake:
        print(f"\nENGINE NOT CERTIFIED: {shown(problem['message'], 2000)}")
    # an engine that never started: one cause, not one error per item
    attention = {} if handshake else needs_attention(report)
    attention.pop("Unexpected passes", None)  # listed among the problems, with the fix
    for title, results in attention.items():
        results = [r for r in results if not r["expected_failure"]]
        if results and title not in ("Failures", "Errors"):
            print(f"\n{title.upper()} (information, not a verdict):")
        if title == "Errors":
            _print_errors(results, report["engine"])
            continue
        strict = report["settings"]["strict_readings"]
        for r in results:
            _print_result(r, report["engine"], "" if title == "Failures" else
                          uncounted(r["status"], r["basis"], strict))
    if handshake and report["results"]:
        print(f"\nevery item ({len(report['results'])}) is an error: the engine never ran")
    found = differences(report)
    if found:
        print(f"\ndiffers from the reference engine ({len(found)} item(s); "
              "information, not a verdict):")
        for r in found:
            print(f"  {shown(r['id'], 300)}: {shown(r['message'], 200)}")
            for m in r["mismatches"][:10]:
                print(f"    {shown(m['path'], 200)}: reference {_json(m['expected'])}, "
                      f"engine {_json(m['observed'])}")
    reasons = skip_reasons(report["results"])
    if reasons:
        print(f"\nskipped, by reason (top {min(len(reasons), TOP_SKIP_REASONS)} "
              f"of {len(reasons)}):")
        for reason, ids in reasons[:TOP_SKIP_REASONS]:
            print(f"  {len(ids):4}  {shown(reason, 160)}")
        kinds = skip_kinds(report["results"])
        if kinds:
            print("skipped, by kind: " + ", ".join(f"{n} {kind}" for kind, n in kinds))
    few = too_few_lines(report)
    if few:
        print("\nnot checked by a passing property, too few of its examples exercised the "
              "rule (docs/cli.md, 'Too few examples'):")
        for line in few:
            print(f"  {shown(line, 300)}")
    for problem in report["problems"]:
        if problem["kind"] != "handshake":
            print(f"\n{shown(problem['kind'], 50)}: {shown(problem['message'], 2000)}")
    if durations is not None:
        print("", *(shown(line, 400) for line in slowest_lines(report["results"], durations)),
              sep="\n")
    mutation = report["mutation"]
    score = (f", mutation score {mutation['score']:.0%} of {len(mutation['mutants'])} mutants"
             f" ({mutation.get('certified_score', mutation['score']):.0%} caught by the "
             "certification)" if mutation else "")
    print(f"\n{counts_line(report)}{score} in {report['duration']:.2f}s"
          f" [profile {shown(report['settings']['profile'], 50)}]")
    tally = verdict["rules"]
    print(f"seed rules passed: {tally['seed']['pass']}/{tally['seed']['total']}; "
          f"readings followed: {tally['reading']['pass']}/{tally['reading']['total']}"
          f"{' (strict)' if verdict['strict_readings'] else ' (information)'}; "
          f"context rules: {tally['context']['pass']}/{tally['context']['total']}")
    drift = _vocabulary_gate.drift_line(report["results"], report["engine"])
    if drift:
        print(shown(drift, 1000))
    print(f"verdict: {verdict['status']} (exit {verdict['exit_code']}): "
          f"{shown(verdict['message'], 2000)}")
    line = coverage_line(report)
    if line:
        print(f"coverage: {shown(line, 2000)}")


def _print_errors(results: list[ResultDict], engine: EngineInfo) -> None:
    """Errors, one block per distinct message: 136 items failing on one NameError in
    the adapter is one thing to fix, not 136."""
    by_message: dict[str, list[ResultDict]] = {}
    for r in results:
        by_message.setdefault(r["message"], []).append(r)
    for message, same in sorted(by_message.items(), key=lambda kv: -len(kv[1])):
        if len(same) == 1:
            _print_result(same[0], engine)
            continue
        first = same[0]
        print(f"\nERROR: {len(same)} items: {shown(message, 300)}")
        print(f"  first: {shown(first['id'], 300)}"
              + (f" (defined at {shown(first['location'], 300)})" if first["location"] else ""))
        others = shown(", ".join(r["id"] for r in same[1:6]), 1000)
        print(f"  also: {others}{', ...' if len(same) > 6 else ''}")
        _print_stderr(first["stderr"], "engine stderr (last lines, first item)")
        hint = _vocabulary_gate.drift_hint(first, engine)
        if hint:
            print(f"  {hint}")
        print(f"  rerun the first: {shown(first['rerun'], 1000)}")


def _print_result(r: ResultDict, engine: EngineInfo, why: str = "") -> None:
    """One failure or error; ``why`` says why it does not count (`uncounted`)."""
    print(f"\n{status_label(r['status'], why)}: {shown(r['id'], 300)}  "
          f"[rules: {shown(', '.join(r['rules']), 300)}]")
    if not r["mismatches"]:  # otherwise the message is the first mismatch, listed below
        print(f"  {shown(r['message'], 2000)}")
    if r["location"]:
        print(f"  defined at {shown(r['location'], 300)}")
    expected = "reference" if r["basis"] == "reference" else "expected"
    for m in r["mismatches"][:10]:
        path = shown(m["path"], 200)
        print(f"  {path}: {expected} {_json(m['expected'])}"
              f"\n  {' ' * len(path)}  observed {_json(m['observed'])}")
    if len(r["mismatches"]) > 10:
        print(f"  ... and {len(r['mismatches']) - 10} more in report.json")
    _print_stderr(r["stderr"], "engine stderr (last lines)")
    if r["counterexample"]:
        print("  counterexample (YAML case):")
        for line in r["counterexample"].splitlines()[:80]:
            print(f"    {shown(line, 500)}")
    hint = _vocabulary_gate.drift_hint(r, engine)   # failing on words newer than the engine?
    if hint:
        print(f"  {hint}")
    print(f"  rerun: {shown(r['rerun'], 1000)}")


def _print_stderr(stderr: str, title: str) -> None:
    """The last lines of an item's engine stderr, if it wrote any."""
    if stderr:
        print(f"  {title}:")
        for line in shown_lines(stderr, 5, 200):
            print(f"    | {line}")


def _json(value: object) -> str:
    """An engine's value as JSON, on one line and safe to print."""
    return shown(json.dumps(value, ensure_ascii=False), 200)
