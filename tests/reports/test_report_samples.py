"""Hand-built report dicts shared by the tests/reports/test_report_*.py files.

Results are built through `Result.to_json()` so the samples have exactly the
shape the runner produces.  (Kept in a test module rather than a conftest so
that this layer stays inside tests/reports/.)
"""

from __future__ import annotations

import copy
from typing import Any, cast

from conformance._results import Mismatch, Result, Status
from conformance._types import ReportDict, ResultDict, RuleCounts, RuleRow, Verdict
from conformance._verdict import item_counts, verdict
from conformance.report import validate_report

DIGEST = "sha256:" + "ab" * 32
SCRIPT = "<script>alert(1)</script>"
#: Every way an engine could try to break out of Markdown: pipes, a code span,
#: a fence, HTML, a newline that ends a table row, and a heading.
MARKDOWN_BREAKER = "a | b `code` ```` fence\n| x | y |\n# heading <b>bold</b> [l](http://e)"
#: Characters XML 1.0 forbids, and a lone surrogate from undecodable stderr.
XML_BREAKER = "nul\x00 bell\x07 esc\x1b[31m vt\x0b ff\x0c fffe\ufffe surrogate\udcff end"

#: A failed property's shrunk scenario, as the runner writes it: a YAML case.
COUNTEREXAMPLE = (
    "id: vision/counterexample/shuffle-iff-whole-deck\n"
    "rules:\n- vision/IR-3.2.5.b\n"
    "steps:\n- do: {look: {player: p1, zone: deck}}\n  expect: {events: {include: [shuffle]}}\n"
)


def rerun(item: str) -> str:
    return f"conformance run --engine reference --select {item}"


def result(id: str, status: Status, **fields: Any) -> ResultDict:
    ruleset = id.split("/")[0]
    fields.setdefault("rules", [f"{ruleset}/IR-1"])
    fields.setdefault("kind", "case")
    return Result(id=id, ruleset=ruleset, status=status, rerun=rerun(id), duration=0.01,
                  **fields).to_json()


def rule(id: str, status: str, kind: str = "rule", cases: tuple[str, ...] = (),
         properties: tuple[str, ...] = (), mutants: tuple[str, ...] = (),
         title: str = "") -> RuleRow:
    ruleset, ref = id.split("/", 1)
    n = len(cases) + len(properties)
    counts: RuleCounts = {"pass": n if status == "pass" else 0,
                          "fail": n if status == "fail" else 0,
                          "error": n if status == "error" else 0,
                          "skip": n if status == "skip" else 0}
    return {"id": id, "ruleset": ruleset, "ref": ref.split("-", 1)[-1], "kind": kind,
            "title": title or f"title of {id}", "cases": list(cases),
            "properties": list(properties), "mutants": list(mutants), "status": status,
            "counts": counts}


def row(**fields: Any) -> RuleRow:
    """A rule row holding only ``fields`` (what the function under test reads)."""
    return cast(RuleRow, fields)


def sample_report() -> ReportDict:
    """Two rulesets; one result of every kind a reader must handle."""
    results = [
        result("vision/shuffle/whole-deck", "pass", rules=["vision/IR-3.2.5.b"]),
        result("vision/qa-269/x-equals-nodes-paid", "fail", rules=["vision/QA-269"], step=1,
               message="1 observation differs",
               mismatches=[Mismatch("step 1: cards.t1.damage", 4, 3)]),
        result("vision/negate/keeps-brackets", "error", rules=["vision/IR-9.1"],
               message="engine crashed: exit status 1",
               stderr="Traceback (most recent call last):\n  File engine.py\nKeyError: 'x'\n"),
        result("vision/zone/hidden", "skip", rules=["vision/IR-4.1"],
               message="unsupported: reveal action"),
        result("vision/prop/shuffle-iff-whole-deck", "fail", kind="property",
               rules=["vision/IR-3.2.5.b"], message="property falsified after 12 examples",
               counterexample=COUNTEREXAMPLE),
        result("mtg/609-3/do-as-much-as-possible", "fail", rules=["mtg/CR-609.3"],
               message="known: partial resolution", expected_failure=True,
               mismatches=[Mismatch("step 2: events.include[0]", {"type": "draw"}, None)]),
        result("mtg/609-4/stale-known-failure", "pass", rules=["mtg/CR-609.4"],
               expected_failure=True),
    ]
    rules = [
        rule("vision/IR-3.2.5.b", "fail", cases=("vision/shuffle/whole-deck",),
             properties=("vision/prop/shuffle-iff-whole-deck",), mutants=("no-shuffle",),
             title="Revealing the whole deck shuffles it"),
        rule("vision/QA-269", "fail", kind="qa", cases=("vision/qa-269/x-equals-nodes-paid",),
             mutants=("x-from-cost",)),
        rule("vision/IR-9.1", "error", cases=("vision/negate/keeps-brackets",)),
        rule("vision/IR-4.1", "skip", cases=("vision/zone/hidden",)),
        rule("vision/IR-1", "uncovered"),
        rule("vision/IR-0.1", "uncovered", kind="informative"),
        rule("mtg/CR-609.3", "fail", cases=("mtg/609-3/do-as-much-as-possible",)),
        rule("mtg/CR-609.4", "pass", kind="example",
             cases=("mtg/609-4/stale-known-failure",)),
    ]
    return with_verdict({
        "format": "card-conformance-report/2",
        "complete": True,
        "suite": {"name": "card-conformance", "version": "0.1.0", "catalogue_digest": DIGEST},
        "engine": {"spec": "reference", "name": "reference-engine", "version": "0.1.0",
                   "rulesets": ["vision", "mtg"], "capabilities": {"strict_choices": True}},
        "settings": {"profile": "certify", "rulesets": ["vision", "mtg"], "timeout": 10.0,
                     "max_examples": 50, "seed": 0,
                     "filters": {"select": [], "rules": []}, "known_failures": "known.txt",
                     "strict_readings": False},
        "started": "2026-11-29T13:00:00Z",
        "duration": 1.23,
        "verdict": cast(Verdict, {}),   # with_verdict's
        "summary": {"total": 7, "pass": 2, "fail": 3, "error": 1, "skip": 1,
                    "expected_failures": 1, "unexpected_passes": 1},
        "results": results,
        "rules": rules,
        "problems": [{"kind": "known-failures",
                      "message": "mtg/609-4/stale-known-failure passed; remove it"}],
        "mutation": {
            "mutants": [
                {"name": "no-shuffle", "ruleset": "vision", "rules": ["vision/IR-3.2.5.b"],
                 "killed": True, "killed_by": ["vision/shuffle/whole-deck"]},
                {"name": "x-from-cost", "ruleset": "vision", "rules": ["vision/QA-269"],
                 "killed": False, "killed_by": []},
            ],
            "score": 0.5,
        },
    })


def with_verdict(report: ReportDict) -> ReportDict:
    """Recompute ``verdict`` and ``summary`` after a test changed results, rules or problems."""
    handshake = next((p["message"] for p in report["problems"] if p["kind"] == "handshake"), "")
    strict = report["settings"]["strict_readings"]
    report["verdict"] = verdict(report["results"], report["rules"],
                                complete=report["complete"], handshake=handshake,
                                strict=strict, allow_no_verdict=False,
                                claimed=report["engine"]["rulesets"])
    report["summary"] = item_counts(report["results"], strict, engine_started=not handshake)
    return report


def readings_report(text: str = "") -> ReportDict:
    """The sample plus a differing reading and a difference from the reference engine
    (``text`` in their engine-controlled fields)."""
    report = sample_report()
    report["results"] += [
        result("vision/draw/short-deck", "fail", basis="reading", step=1,
               rules=["vision/IR-1", "vision/reading/draw-short-deck"],
               message=f"the engine draws nothing {text}",
               mismatches=[Mismatch("step 1: events.include[0]", {"type": "draw"}, text)]),
        result("vision/prop/differential", "fail", kind="property", basis="reference",
               rules=["vision/IR-1"], message=f"1 difference(s) {text}",
               mismatches=[Mismatch("step 1 {draw}: cards.c1.sparkle", "(absent)", text)]),
        result("vision/draw/unmapped", "skip", rules=["vision/IR-1"],
               message=f"unsupported: draw {text}"),
    ]
    report["rules"].append(rule("vision/reading/draw-short-deck", "fail", kind="reading",
                                cases=("vision/draw/short-deck",)))
    report["summary"].update({"total": 10, "fail": 5, "skip": 2})
    return with_verdict(report)


def partial_report() -> ReportDict:
    """An interrupted run."""
    report = sample_report()
    report["complete"] = False
    report["problems"].append({"kind": "interrupted", "message": "SIGINT after 7 results"})
    return with_verdict(report)


def hostile_report(text: str = SCRIPT) -> ReportDict:
    """Every engine-controlled field of the sample carries ``text``."""
    report = copy.deepcopy(sample_report())
    report["engine"]["name"] = text
    report["engine"]["version"] = text
    report["problems"].append({"kind": "engine", "message": text})
    for item in report["results"]:
        item["message"] = f"message {text}"
        item["stderr"] = f"stderr {text}\n"
        if item["counterexample"]:
            item["counterexample"] += f"notes: {text}\n"
        for mismatch in item["mismatches"]:
            mismatch["observed"] = {"text": text}
    return report


def failing(report: ReportDict, status: str = "fail") -> ResultDict:
    """The first result with ``status`` (that is not a known failure)."""
    return next(r for r in report["results"]
                if r["status"] == status and not r["expected_failure"])


def test_samples_are_valid_reports() -> None:
    for report in (sample_report(), partial_report(), hostile_report(), readings_report(SCRIPT),
                   hostile_report(MARKDOWN_BREAKER), hostile_report(XML_BREAKER)):
        validate_report(report)


def test_a_rule_counts_a_mutant_only_when_an_item_tagged_with_it_caught_it():
    from conformance.report._text import mutants_killed

    report: Any = {"mutation": {"mutants": [   # only what mutants_killed reads
        {"name": "m", "ruleset": "toy", "rules": ["toy/A", "toy/B"], "killed": True,
         "killed_by": ["toy/a-case"], "killed_for": ["toy/A"]},
        {"name": "old", "ruleset": "toy", "rules": ["toy/B"], "killed": True,
         "killed_by": ["toy/b-case"]}]}}   # a report from before killed_for
    assert mutants_killed(report, row(id="toy/A", mutants=["m"])) == "1/1"
    assert mutants_killed(report, row(id="toy/B", mutants=["m", "old"])) == "1/2"


def test_a_rule_counts_a_mutant_as_caught_only_by_seed_basis_items():
    """A kill by an item relying on a reading is listed apart, never counted: an engine
    with that bug still certifies pass."""
    from conformance.report._text import mutants_killed

    report: Any = {"mutation": {"mutants": [   # only what mutants_killed reads
        {"name": "seed", "ruleset": "toy", "rules": ["toy/A"], "killed": True,
         "killed_by": ["toy/a"], "killed_for": ["toy/A"], "certified_for": ["toy/A"],
         "certified": True},
        {"name": "read", "ruleset": "toy", "rules": ["toy/A", "toy/reading/r"], "killed": True,
         "killed_by": ["toy/r"], "killed_for": ["toy/A", "toy/reading/r"],
         "certified_for": [], "certified": False},
        {"name": "survivor", "ruleset": "toy", "rules": ["toy/A"], "killed": False,
         "killed_by": [], "killed_for": [], "certified_for": [], "certified": False}]}}
    assert mutants_killed(report, row(id="toy/A", mutants=["seed", "read", "survivor"])) \
        == "1/3 (+1 only by readings)"
    # a reading's own row counts the kills of the items relying on it
    assert mutants_killed(report, row(id="toy/reading/r", kind="reading",
                                      mutants=["read"])) == "1/1"
