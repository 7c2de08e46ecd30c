"""junit.xml: for CI systems that show test results (GitLab, Jenkins, GitHub actions).

One ``testsuite`` per ruleset, one ``testcase`` per result.  Known failures
map to ``skipped`` (as pytest maps xfail) and an unexpected pass to a
``failure`` (as pytest's strict xfail does), so CI turns red exactly when the
known-failures list no longer matches the engine.  Items that do not count
toward the verdict (a differing reading without --strict-readings, a
difference from the reference engine) are ``skipped`` with a type saying so.
A failed handshake or an interruption comes first, as a ``run`` suite.  Every string is cleaned of
characters XML 1.0 forbids, so the file always parses.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from conformance._types import ReportDict, ResultDict
from conformance.report import _text

#: system-err keeps more than the human-facing reports: CI logs are for digging.
_SYSTEM_ERR_CHARS = 16_000
_SYSTEM_ERR_LINES = 400


def _x(text: object) -> str:
    return _text.clean(str(text))


def render(report: ReportDict) -> str:
    """The whole report as a JUnit XML document."""
    root = ET.Element("testsuites", name=_x(report["suite"]["name"]),
                      time=f"{report['duration']:.3f}")
    _run_suite(root, report)
    for ruleset in _text.rulesets(report):
        results = [r for r in report["results"] if r["ruleset"] == ruleset]
        _suite(root, report, ruleset, results)
    _count(root, **{key: sum(int(s.get(key, "0")) for s in root)
                    for key in ("tests", "failures", "errors", "skipped")})
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def _run_suite(root: ET.Element, report: ReportDict) -> None:
    """What went wrong with the run itself (no handshake, interrupted), first."""
    handshake = _text.handshake_problem(report)
    problems = []
    if handshake:
        problems.append(("engine started", "handshake", f"ENGINE NOT CERTIFIED: {handshake}"))
    if not report["complete"]:
        problems.append(("complete", "interrupted", _text.incomplete_notice(report)))
    coverage = _text.coverage_line(report)
    if not problems and not coverage:
        return
    suite = ET.SubElement(root, "testsuite", name="run", timestamp=_x(report["started"]))
    for name, kind, message in problems:
        case = ET.SubElement(suite, "testcase", classname="run", name=name, time="0")
        ET.SubElement(case, "error", type=kind, message=_text.one_line(message, 2000))
    if coverage:  # partial or filtered: shown as a skipped check, never as a pass
        case = ET.SubElement(suite, "testcase", classname="run", name="coverage", time="0")
        ET.SubElement(case, "skipped", type=report["verdict"]["status"],
                      message=_text.one_line(f"{report['verdict']['status']}: {coverage}", 2000))
    _count(suite, tests=len(problems) + bool(coverage), failures=0, errors=len(problems),
           skipped=int(bool(coverage)))


def _count(element: ET.Element, **counts: int) -> None:
    for key, count in counts.items():
        element.set(key, str(count))


def _suite(root: ET.Element, report: ReportDict, ruleset: str,
           results: list[ResultDict]) -> None:
    suite = ET.SubElement(root, "testsuite", name=_x(ruleset), timestamp=_x(report["started"]),
                          time=f"{sum(r['duration'] for r in results):.3f}")
    properties = ET.SubElement(suite, "properties")
    engine, settings = report["engine"], report["settings"]
    for name, value in (
        ("engine", _text.engine_label(report)), ("engine.spec", engine["spec"]),
        ("suite.version", report["suite"]["version"]),
        ("catalogue_digest", report["suite"]["catalogue_digest"]),
        ("profile", settings["profile"]), ("seed", settings["seed"]),
        ("complete", str(report["complete"]).lower()),
        ("verdict", report["verdict"]["status"]),
        ("verdict.line", _text.verdict_line(report)),
        ("items", _text.counts_line(report)),
        ("coverage", _text.coverage_line(report) or "every seed rule of the claimed rulesets"),
    ):
        ET.SubElement(properties, "property", name=name, value=_text.one_line(str(value), 1000))
    tally = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for result in results:
        tally["tests"] += 1
        outcome = _testcase(suite, result, _text.counted(report, result))
        if outcome:
            tally[outcome] += 1
    _count(suite, **tally)


def _classname(result: ResultDict) -> str:
    """``<ruleset>.<rule>`` from the first rule the result checks (its ruleset when none)."""
    ruleset: str = result["ruleset"]
    if not result["rules"]:
        return ruleset
    rule = result["rules"][0].removeprefix(f"{ruleset}/")
    return f"{ruleset}.{rule}"


def _testcase(suite: ET.Element, result: ResultDict, counted: bool = True) -> str:
    """Add one testcase; return which suite counter it bumps ("" for a pass)."""
    case = ET.SubElement(suite, "testcase", classname=_x(_classname(result)),
                         name=_x(result["id"]), time=f"{result['duration']:.3f}")
    properties = ET.SubElement(case, "properties")
    for rule in result["rules"]:
        ET.SubElement(properties, "property", name="rule", value=_x(rule))
    examples = result.get("examples")
    for rule, n in (examples.get("exercised", {}) if examples else {}).items():   # docs/cli.md
        ET.SubElement(properties, "property", name="exercised",   # examples: not None here
                      value=_x(f"{rule}: {n} of {examples and examples['supported']} supported "
                               f"examples (needs {examples and examples.get('min_exercised', 1)})"))
    ET.SubElement(properties, "property", name="kind", value=_x(result["kind"]))
    status = result["status"]
    message = _text.one_line(result["message"], _text.DETAIL_LIMIT)
    if _text.is_expected_failure(result):
        tag, kind, counter = "skipped", "expected-failure", "skipped"
        message = f"expected {status} (listed in the known-failures file): {message}"
    elif _text.is_unexpected_pass(result):
        tag, kind, counter = "failure", "unexpected-pass", "failures"
        message = "listed in the known-failures file but passed: remove it from that file"
    elif status == "fail" and not counted:
        tag, counter = "skipped", "skipped"
        if result["basis"] == "reference":
            kind, what = "differs-from-reference", "differs from the reference engine"
        else:
            kind, what = "differs-from-reading", "differs from the catalogue's reading"
        message = f"{what} (information, not a verdict): {message}"
    elif status == "fail":
        tag, kind, counter = "failure", "mismatch" if result["mismatches"] else "fail", "failures"
    elif status == "error":
        tag, kind, counter = "error", "engine-error", "errors"
    elif status == "skip":
        tag, kind, counter = "skipped", "unsupported", "skipped"
    else:
        tag = kind = counter = ""
    if tag:
        element = ET.SubElement(case, tag, type=kind, message=message)
        element.text = _details(result)
    if result["stderr"]:
        excerpt = _text.tail(result["stderr"], _SYSTEM_ERR_CHARS, _SYSTEM_ERR_LINES)
        ET.SubElement(case, "system-err").text = _x(excerpt)
    return counter


def _details(result: ResultDict) -> str:
    """The body of a failure/error/skipped element: enough to act without the other reports."""
    lines = [f"rules: {', '.join(result['rules']) or 'none'}"]
    if result["step"] is not None:
        lines.append(f"stopped at step {result['step']}")
    if result["message"]:
        lines.append(f"message: {_text.bound(result['message'], _text.DETAIL_LIMIT)}")
    for mismatch in result["mismatches"]:
        lines.append(f"{mismatch['path']}: expected {_text.value(mismatch['expected'])}, "
                     f"observed {_text.value(mismatch['observed'])}")
    if result["counterexample"]:
        yaml = _text.bound(result["counterexample"].rstrip("\n"), _text.COUNTEREXAMPLE_LIMIT)
        lines.append(f"counterexample (YAML case):\n{yaml}")
    if result["stderr"]:
        lines.append("stderr: see system-err")
    if result["rerun"]:
        lines.append(f"rerun: {result['rerun']}")
    return _x("\n".join(lines))
