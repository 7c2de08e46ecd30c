"""report.md: GitHub-flavoured Markdown, for PR comments, job summaries and terminals.

Engine-controlled text is either escaped inline (``inline``) or put in a fenced
block whose fence is longer than any backtick run inside it (``fence``), so an
engine cannot end a table row, open a code span, or close a fence early.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tabulate import tabulate

from conformance._types import ReportDict, ResultDict
from conformance._verdict import skip_kinds
from conformance.report import _text

# Backslash-escaping any ASCII punctuation is always literal in CommonMark; these
# are the characters that can start markup inline or end a table cell ($ is math).
_SPECIAL = re.compile(r"([\\`*_\[\]|~<>&$])")
_BACKTICKS = re.compile(r"`+")


def inline(text: str, limit: int = _text.CELL_LIMIT) -> str:
    """Text safe anywhere in a line, including a table cell."""
    return _SPECIAL.sub(r"\\\1", _text.one_line(text, limit))


def fence(text: str, info: str = "text") -> str:
    """A fenced block that nothing inside can close."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{info}\n{text}\n{marks}"


def _table(rows: Sequence[Sequence[object]], headers: list[str]) -> str:
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def render(report: ReportDict) -> str:
    """The whole report as one Markdown document."""
    parts = [
        f"# Conformance report: {inline(_text.engine_label(report))}",
        *_header(report),
        "## Summary",
        _summary(report),
        *_problems(report),
        "## Rulesets",
        _rulesets(report),
        "## Rules",
        *_rules(report),
        *_exercised(report),
        *_attention(report),
        *_differences(report),
        *_skipped(report),
        *_mutation(report),
    ]
    return "\n\n".join(parts) + "\n"


def _exercised(report: ReportDict) -> list[str]:
    """Per property, how many supported examples exercised each of its rules."""
    rows = [[inline(p), n, inline(shown, 2000)] for p, n, shown in _text.exercised_rows(report)]
    if not rows:
        return []
    return ["### Property examples per rule",
            "A property checks a rule only through the supported examples that exercised "
            "it; below the floor it does not check that rule (too few examples).",
            _table(rows, ["property", "supported examples", "exercised, per rule"])]


def _header(report: ReportDict) -> list[str]:
    lines = []
    if not report["complete"]:
        lines.append(f"> **⚠ {inline(_text.incomplete_notice(report), 1000)}**")
    handshake = _text.handshake_problem(report)
    if handshake:
        lines.append(f"> **⚠ ENGINE NOT CERTIFIED: {inline(handshake, _text.DETAIL_LIMIT)}** "
                     "Every item is an error: the engine never ran.")
    lines.append(f"**Verdict:** {inline(_text.verdict_line(report), 1000)}")
    facts = _text.facts(report)
    lines.append("\n".join(f"- **{name}:** {inline(text, 1000)}" for name, text in facts))
    return lines


def _summary(report: ReportDict) -> str:
    headers, rows = _text.rule_summary(report)
    return (f"Items (cases and properties): {inline(_text.counts_line(report), 1000)}\n\n"
            f"Rules of the claimed rulesets ({inline(', '.join(_text.claimed(report)) or 'none')})"
            f":\n\n{_table(rows, headers)}")


def _rulesets(report: ReportDict) -> str:
    rows = _text.ruleset_rows(report)
    if not rows:
        return "No rulesets."
    return _table([[inline(str(v)) for v in row.values()] for row in rows], list(rows[0]))


def _problems(report: ReportDict) -> list[str]:
    if not report["problems"]:
        return []
    items = "\n".join(
        f"- **{inline(p['kind'])}:** {inline(p['message'], _text.DETAIL_LIMIT)}"
        for p in report["problems"]
    )
    return ["## Problems", items]


def _rules(report: ReportDict) -> list[str]:
    parts = []
    for ruleset in _text.rulesets(report):
        for title, rules in _text.rule_groups(report):
            rules = [r for r in rules if r["ruleset"] == ruleset]
            if not rules:
                continue
            rows = [
                [inline(r["id"]), r["kind"], len(r["cases"]), len(r["properties"]),
                 _text.mutants_killed(report, r), inline(_text.rule_progress(r))]
                for r in rules
            ]
            parts += [f"### {inline(ruleset)}: {title}",
                      _table(rows, ["rule", "kind", "cases", "properties", "mutants",
                                    "status"])]
    return parts or ["No rules."]


def _differences(report: ReportDict) -> list[str]:
    found = _text.differences(report)
    if not found:
        return []
    return [f"## {_text.REFERENCE_TITLE}", _text.REFERENCE_NOTE,
            *(_result(r) for r in found)]


def _skipped(report: ReportDict) -> list[str]:
    reasons = _text.skipped(report)
    if not reasons:
        return []
    rows = [[len(ids), inline(reason, 500), inline(", ".join(ids[:5]) + (
        f" (+{len(ids) - 5} more)" if len(ids) > 5 else ""), 600)] for reason, ids in reasons]
    kinds = ", ".join(f"{n} {kind}" for kind, n in skip_kinds(report["results"]))
    return ["## Skipped, by reason",
            "What the engine does not model yet: map these next.",
            *([f"By kind: {kinds}."] if kinds else []),
            _table(rows, ["items", "reason", "for example"])]


def _attention(report: ReportDict) -> list[str]:
    parts = []
    for title, results in _text.needs_attention(report).items():
        parts.append(f"## {title}")
        if title == _text.READINGS_TITLE:
            parts.append(_text.READINGS_NOTE)
        parts += [_result(r) for r in results] or [f"No {title.lower()}."]
    return parts


def _result(result: ResultDict) -> str:
    """One failure, error or unexpected pass, with everything needed to act on it."""
    facts = [("kind", result["kind"]), ("outcome", _text.outcome(result)),
             ("rules", ", ".join(result["rules"]) or "none"), ("basis", result["basis"])]
    if result.get("location"):
        facts.append(("defined at", result["location"]))
    if result["step"] is not None:
        facts.append(("step", str(result["step"])))
    if _text.is_unexpected_pass(result):
        facts.append(("fix", "remove it from the known-failures file"))
    if result["message"]:   # a mismatch in JSON, as in the table below
        facts.append(("message", _text.headline(result)))
    parts = [
        f"### {inline(result['id'])}",
        "\n".join(f"- **{k}:** {inline(v, _text.DETAIL_LIMIT)}" for k, v in facts),
    ]
    if result["mismatches"]:
        expected = "reference engine" if result["basis"] == "reference" else "expected"
        rows = [[inline(m["path"]), inline(_text.value(m["expected"], 500), 600),
                 inline(_text.value(m["observed"], 500), 600)] for m in result["mismatches"]]
        parts.append(_table(rows, ["where", expected, "observed"]))
    if result["counterexample"]:
        yaml = _text.bound(result["counterexample"].rstrip("\n"), _text.COUNTEREXAMPLE_LIMIT)
        parts += ["Counterexample (a YAML case: review it, then add it to cases/):",
                  fence(_text.clean(yaml), "yaml")]
    if result["stderr"]:
        parts += ["stderr (last lines):", fence(_text.clean(_text.tail(result["stderr"])))]
    if result["rerun"]:
        parts += ["Rerun:", fence(_text.clean(result["rerun"]), "sh")]
    return "\n\n".join(parts)


def _mutation(report: ReportDict) -> list[str]:
    mutation = report["mutation"]
    if not mutation:
        return []
    rows = [
        [inline(m["name"]), inline(m["ruleset"]), inline(", ".join(m["rules"])),
         "yes" if m["killed"] else "**no**",
         "yes" if m.get("certified", m["killed"]) else "**no**",
         inline(", ".join(m["killed_by"]))]
        for m in mutation["mutants"]
    ]
    return [
        "## Mutation",
        f"Score: {mutation['score']:.0%} of {len(mutation['mutants'])} mutants killed; "
        f"{mutation.get('certified_score', mutation['score']):.0%} caught by the certification "
        "(killed by an item the verdict rests on, so an engine with that bug cannot pass).",
        _table(rows, ["mutant", "ruleset", "rules", "killed", "caught by the certification",
                      "killed by"]),
    ]
