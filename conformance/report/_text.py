"""Text helpers shared by the renderers: bounding, cleaning, and small views of the dict.

Everything an engine controls (its name, messages, stderr, observed values)
reaches a human through these, so a hostile or broken engine cannot flood a
report or smuggle terminal escapes and markup into it.
"""

from __future__ import annotations

import json
import re

from conformance import _vocabulary_gate
from conformance._types import Mutation, ReportDict, ResultDict, RuleRow
from conformance._verdict import GROUPS, counts, group, item_counts, rule_counts, skip_reasons

#: One table cell or one-line field.
CELL_LIMIT = 300
#: A message or a JSON value shown in a failure's details.
DETAIL_LIMIT = 2000
#: A failed property's counterexample (a YAML case): its beginning, where the setup is.
COUNTEREXAMPLE_LIMIT = 8000
#: The stderr excerpt: the *end* of stderr, where tracebacks finish.
STDERR_CHARS = 4000
STDERR_LINES = 60

# Characters XML 1.0 forbids, plus the C1 controls and DEL that it allows but
# that nobody means to print.  Tab, LF and CR stay.  Lone surrogates (from
# undecodable engine output) cannot be encoded at all, so they go too.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def clean(text: str) -> str:
    r"""Replace control characters with a visible ``\xNN`` / ``\uNNNN`` escape.

    Visible rather than dropped, so that "the engine wrote a NUL here" is
    still readable in the report.
    """
    return _CONTROL.sub(_escape_char, text)


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def bound(text: str, limit: int) -> str:
    """The first ``limit`` characters, saying how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit} more characters in report.json]"


def tail(text: str, chars: int = STDERR_CHARS, lines: int = STDERR_LINES) -> str:
    """The last lines of stderr, saying how much was cut."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n")
    excerpt = "\n".join(text.split("\n")[-lines:])[-chars:]
    cut = len(text) - len(excerpt)
    if cut > 0:
        return f"[{cut} earlier characters in report.json] …\n{excerpt}"
    return excerpt


def one_line(text: str, limit: int = CELL_LIMIT) -> str:
    """Cleaned, bounded and on one line: for table cells and headings."""
    return bound(" ".join(clean(text).split()), limit)


def short(text: str, limit: int) -> str:
    """One line cut to ``limit`` characters with a bare ellipsis: for terminal tables."""
    text = " ".join(clean(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def value(data: object, limit: int = DETAIL_LIMIT) -> str:
    """A JSON value as compact, bounded text (for expected / observed)."""
    try:
        text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(data)
    return bound(clean(text), limit)


def headline(result: ResultDict) -> str:
    """A result's message, its first mismatch written as JSON (as the
    expected/observed tables show it) rather than as the runner's Python repr."""
    mismatches = result.get("mismatches") or []
    if not mismatches or not result["message"].startswith(f"{mismatches[0]['path']}: expected "):
        return str(result["message"])   # a message of its own: shown as it is
    m = mismatches[0]
    more = f" (+{len(mismatches) - 1} more)" if len(mismatches) > 1 else ""
    return (f"{one_line(m['path'])}: expected {value(m['expected'], 120)}, "
            f"observed {value(m['observed'], 120)}{more}")


# --- small views of the report dict -------------------------------------------------------


def is_unexpected_pass(result: ResultDict) -> bool:
    """Listed as a known failure but passed: the list is stale."""
    stale: bool = result["status"] == "pass" and result["expected_failure"]
    return stale


def is_expected_failure(result: ResultDict) -> bool:
    return result["status"] in ("fail", "error") and result["expected_failure"]


def rule_outcome(rule: RuleRow) -> str:
    """A rule's status, in the words of its group: a reading is followed or differed from."""
    status: str = rule["status"]
    if group(rule["kind"]) == "seed":
        return status
    return {"pass": "follows", "fail": "differs"}.get(status, status)


def outcome(result: ResultDict) -> str:
    """The status as a reader should see it, known failures included."""
    if is_expected_failure(result):
        return f"{result['status']} (expected)"
    if is_unexpected_pass(result):
        return "pass (unexpected)"
    status: str = result["status"]
    return status


def rulesets(report: ReportDict) -> list[str]:
    """Every ruleset the report mentions, in first-seen order (settings first), but
    those the engine does not claim (their items were deselected, not run)."""
    seen: dict[str, None] = {}
    for name in report["settings"]["rulesets"]:
        seen[name] = None
    for item in (*report["rules"], *report["results"]):
        seen[item["ruleset"]] = None
    deselected = report.get("deselected") or {}
    return [name for name in seen if name not in deselected]


def deselected_note(report: ReportDict) -> str:
    """``120 deselected (not claimed by the engine: mtg)``, or "" when none was."""
    deselected = report.get("deselected") or {}
    if not deselected:
        return ""
    return (f"{sum(deselected.values())} deselected (not claimed by the engine: "
            f"{', '.join(sorted(deselected))})")


def claimed(report: ReportDict) -> list[str]:
    """The rulesets the verdict judged (all of the report's, for older reports)."""
    coverage = report["verdict"].get("coverage")
    return rulesets(report) if coverage is None else list(coverage["claimed"])


def rule_summary(report: ReportDict) -> tuple[list[str], list[list[str | int]]]:
    """(headers, rows): the rules of the claimed rulesets by group and status, counted
    once (`conformance._verdict.rule_counts`, as the verdict counts them)."""
    judged = set(claimed(report))
    tally = rule_counts(r for r in report["rules"] if r["ruleset"] in judged)
    statuses = ("pass", "fail", "error", "skip", "uncovered")
    titles = {"seed": "seed rules", "reading": "readings", "context": "context",
              "informative": "informative"}
    rows: list[list[str | int]] = []
    for name, title in titles.items():
        t = tally[name]
        if name == "informative":
            rows.append([title, t["total"], "nothing to follow", "", "", "", "", ""])
        else:
            rows.append([title, t["total"], t["checked"], *(t[s] for s in statuses)])
    return ["rules", "count", "fully checked", *statuses], rows


def ruleset_rows(report: ReportDict) -> list[dict[str, str | int]]:
    """Per ruleset: whether the engine claims it, its seed rules by status (as the
    verdict counts them), readings followed, and its items."""
    judged = set(claimed(report))
    rows = []
    for name in rulesets(report):
        tally = rule_counts(r for r in report["rules"] if r["ruleset"] == name)
        results = [r for r in report["results"] if r["ruleset"] == name]
        seed, reading = tally["seed"], tally["reading"]
        row: dict[str, str | int] = {"ruleset": name, "claimed": "yes" if name in judged else "no",
                                     "seed rules": seed["total"], "fully checked": seed["checked"]}
        for status in ("pass", "fail", "error", "skip", "uncovered"):
            row[status] = seed[status]
        row["readings followed"] = f"{reading['pass']}/{reading['total']}"
        row["cases"] = sum(r["kind"] == "case" for r in results)
        row["properties"] = sum(r["kind"] == "property" for r in results)
        row["counted failures"] = item_counts(
            results, report["settings"]["strict_readings"],
            engine_started=report["verdict"]["status"] != "not certified")["counted_failures"]
        rows.append(row)
    return rows


def mutants_killed(report: ReportDict, rule: RuleRow) -> str:
    """``caught/total`` for a rule's mutants, or the bare count without a mutation run.

    A mutant counts for this rule only when an item tagged with this rule that the
    certification rests on (basis seed) caught it (``certified_for``): an engine with
    that bug cannot certify ``pass``.  Mutants killed for the rule only by items that
    rely on a reading or context are shown apart, "3/4 (+1 only by readings)", as such
    an engine would still certify.  A reading's or context entry's row counts every
    kill for it (those items are the ones that speak for it).  Reports from before
    ``certified_for`` count by ``killed_for`` and the row's ``certified``.
    """
    names = rule["mutants"]
    mutation = report.get("mutation")
    if not mutation:
        return str(len(names))
    caught, apart = mutant_kills(mutation, rule["id"])
    if group(rule.get("kind", "rule")) != "seed":
        caught, apart = caught | apart, set()
    shown = f"{sum(n in caught for n in names)}/{len(names)}"
    others = sum(n in apart for n in names)
    return shown + (f" (+{others} only by readings)" if others else "")


def mutant_kills(mutation: Mutation, rule_id: str) -> tuple[set[str], set[str]]:
    """The names of the mutants caught for ``rule_id`` by seed-basis items, and of those
    killed for it only by reading or context items."""
    caught: set[str] = set()
    apart: set[str] = set()
    for m in mutation["mutants"]:
        killed_for = m.get("killed_for", m["rules"] if m["killed"] else [])
        certified_for = m.get("certified_for",
                              killed_for if m.get("certified", m["killed"]) else [])
        if rule_id in certified_for:
            caught.add(m["name"])
        elif rule_id in killed_for:
            apart.add(m["name"])
    return caught, apart


#: The heading of failures of items that rely on readings (or only on context
#: rules) when those do not count: "follows / differs from the catalogue's reading".
READINGS_TITLE = "Differs from the catalogue's readings"
#: The heading of the comparison with the reference engine: a bug finder, never a verdict.
REFERENCE_TITLE = "Differs from the reference engine"
READINGS_NOTE = ("These items rely on a reading: the catalogue's answer where the seed is "
                 "silent. The engine reads the seed another way; this is information, not a "
                 "broken rule (unless the run used --strict-readings).")
REFERENCE_NOTE = ("Where the engine answers otherwise than the reference engine on what the "
                  "rules fix. Information for finding bugs: it never fails a certification "
                  "nor marks a rule failing.")


def counted(report: ReportDict, result: ResultDict) -> bool:
    """Whether a result counts toward the verdict of this report.

    When the engine never started, every result is the same error and counts:
    nothing is "information" about an engine that did not run.
    """
    if report["verdict"]["status"] == "not certified":
        return True
    return counts(result["basis"], report["settings"]["strict_readings"])


def needs_attention(report: ReportDict) -> dict[str, list[ResultDict]]:
    """The results a reader must look at, grouped as the reports show them.

    Failures and errors are those the verdict rests on; failures of items that
    rely on readings come apart (they say the engine reads the seed another
    way); comparisons with the reference engine are `differences`.
    """
    results = report["results"]
    groups = {
        "Failures": [r for r in results if r["status"] == "fail" and counted(report, r)],
        # an engine fault is one whatever the item rests on
        "Errors": [r for r in results if r["status"] == "error"],
        "Unexpected passes": [r for r in results if is_unexpected_pass(r)],
        READINGS_TITLE: [r for r in results if r["status"] == "fail" and not counted(report, r)
                         and r["basis"] != "reference"],
    }
    for optional in ("Unexpected passes", READINGS_TITLE):
        if not groups[optional]:
            del groups[optional]  # the usual case: no section to announce
    return groups


def differences(report: ReportDict) -> list[ResultDict]:
    """Items that compare with the reference engine and found it answering otherwise."""
    return [r for r in report["results"] if r["basis"] == "reference"
            and r["status"] == "fail" and not counted(report, r)]


def handshake_problem(report: ReportDict) -> str:
    """The handshake failure message, or "" when the engine started."""
    return next((p["message"] for p in report["problems"] if p["kind"] == "handshake"), "")


def skipped(report: ReportDict) -> list[tuple[str, list[str]]]:
    """Skipped items grouped by reason, most frequent first."""
    return skip_reasons(report["results"])


def rule_groups(report: ReportDict) -> list[tuple[str, list[RuleRow]]]:
    """The rules as reports show them: seed rules, then readings, then context."""
    titles = {"seed": "Seed rules", "reading": "Readings (the catalogue's answer where the "
              "seed is silent)", "context": "Context (rules from outside the seed)"}
    return [(titles[name], [r for r in report["rules"] if group(r["kind"]) == name])
            for name in GROUPS]


def verdict_line(report: ReportDict, status: bool = True) -> str:
    """One sentence: the verdict and how rules were counted (the badge counts the same).

    Without ``status`` it starts at the exit code, for a page that shows the status
    word beside it already.
    """
    v = report["verdict"]
    seed = v["rules"]["seed"]
    informative = v["informative_rules"]
    text = (f"{v['status']} " if status else "") + f"(exit {v['exit_code']}): {v['message']}"
    line = coverage_line(report)
    text += f". {line[0].upper()}{line[1:]}" if line else (
        f". Seed rules passed: {seed['pass']}/{seed['total']}")
    if informative:
        text += f" ({informative} informative rule(s) not counted: nothing to follow)"
    reading = v["rules"]["reading"]
    if reading["total"]:
        how = "counted (--strict-readings)" if v["strict_readings"] else "information only"
        text += f"; readings followed: {reading['pass']}/{reading['total']} ({how})"
    return text + "."


def counts_line(report: ReportDict) -> str:
    """The items, counted once (`conformance._verdict.item_counts`), for every format:
    failures the verdict rests on apart from those that are information."""
    s = report["summary"]
    if "counted_failures" not in s:  # an older report: plain statuses
        return f"{s['pass']} passed, {s['fail']} failed, {s['error']} errors, {s['skip']} skipped"
    text = (f"{s['pass']} passed, {s['counted_failures']} failed, {s['engine_errors']} errors, "
            f"{s['skip']} skipped")
    info = [f"{n} {what}" for n, what in (
        (s["differs_from_readings"], "differ from the catalogue's readings"),
        (s["differs_from_reference"], "differ from the reference engine"),
        (s["expected_failures"], "known failures")) if n]
    text += f" ({'; '.join(info)}: not counted)" if info else ""
    return text + (f", {deselected_note(report)}" if deselected_note(report) else "")


def coverage_line(report: ReportDict) -> str:
    """How much of what the engine claims was checked, when that is not everything
    (every format shows this same line): "" for a run that checked it all."""
    v = report["verdict"]
    coverage = v.get("coverage")
    if coverage is None or v["status"] not in ("partial", "pass", "no verdict"):
        return ""
    seed = v["rules"]["seed"]
    parts = []
    if v["status"] != "pass":
        checked = seed.get("checked", seed["pass"])
        parts.append(f"{checked} of {seed['total']} seed rules checked "
                     f"({', '.join(coverage['claimed']) or 'no claimed ruleset'})")
        parts.append(f"{coverage['items_not_run']} of {coverage['items']} items not run")
        if coverage["top_reasons"]:
            parts[-1] += " (top reasons: " + "; ".join(
                f"{one_line(str(reason), 80)} ×{n}" for reason, n in coverage["top_reasons"]) + ")"
    if coverage["claimed_not_run"]:
        parts.append("claimed but not run: " + ", ".join(coverage["claimed_not_run"]))
    if coverage["filtered"]:
        parts.append("filtered: " + " ".join(coverage["filtered"]))
    return ", ".join(parts)


def rule_progress(rule: RuleRow) -> str:
    """A rule's status, and how much of it ran when part did: "8/18 items checked, all
    passing" says more than "skip"."""
    from conformance._verdict import items_checked

    shown = rule_outcome(rule)
    if rule["kind"] == "informative":
        return "nothing to follow"
    ran, total = items_checked(rule)
    if 0 < ran < total and rule["status"] in ("pass", "skip"):
        passing = "all passing" if rule["counts"]["fail"] == 0 else "some differ (information)"
        shown = f"{ran}/{total} items checked, {passing}"
    return shown + too_few_examples_note(rule)


def exercised_rows(report: ReportDict) -> list[list[str]]:
    """One row per property result that counted its examples per rule: its id, its
    supported examples, and each of its rules with how many of them exercised it,
    "(too few)" below the floor (docs/cli.md, "Too few examples")."""
    rows = []
    for r in report["results"]:
        examples = r.get("examples")
        reached = examples.get("exercised") if examples else None
        if examples is None or r["kind"] != "property" or reached is None:
            continue
        needed = examples.get("min_exercised", 1)
        few = r["status"] == "pass"   # a failure fails every rule, whatever the count
        shown = ", ".join(f"{rule} {n}" + (f" (too few: {needed} needed)"
                                           if few and n < needed else "")
                          for rule, n in reached.items())
        rows.append([r["id"], str(examples["supported"]), shown])
    return rows


def too_few_lines(report: ReportDict, limit: int = 5) -> list[str]:
    """The rules a passing property does not check for too few examples, one line each
    (at most ``limit``, then how many more), for the terminal."""
    found = [f"{rule['id']}: {few['property']} (exercised {few['exercised']} of the "
             f"{few['needed']} needed)"
             for rule in report["rules"] for few in rule.get("too_few_examples") or []]
    more = [f"... and {len(found) - limit} more (report.json, rules[].too_few_examples)"]
    return found[:limit] + (more if len(found) > limit else [])


def too_few_examples_note(rule: RuleRow) -> str:
    """"; too few examples: <property> (exercised 3 of the 10 needed)" for each passing
    property that does not check the rule; "" when none."""
    few = rule.get("too_few_examples") or []
    return "".join(f"; too few examples: {f['property']} (exercised {f['exercised']} of "
                   f"the {f['needed']} needed)" for f in few)


def engine_label(report: ReportDict) -> str:
    engine = report["engine"]
    return " ".join(part for part in (engine["name"], engine["version"]) if part) or engine["spec"]


def incomplete_notice(report: ReportDict) -> str:
    """Why a partial report is partial, in one sentence."""
    reasons = [p["message"] for p in report["problems"] if p["kind"] == "interrupted"]
    why = f" ({one_line(reasons[0])})" if reasons else ""
    return (
        f"INCOMPLETE: the run was interrupted{why}; this report is partial and covers "
        f"only the {report['summary']['total']} results recorded before it stopped."
    )


def facts(report: ReportDict) -> list[tuple[str, str]]:
    """The run's particulars as (name, text) pairs, for the head of every format."""
    suite, engine, settings = report["suite"], report["engine"], report["settings"]
    filters = settings["filters"]
    return [
        ("suite", f"{suite['name']} {suite['version']} (catalogue {suite['catalogue_digest']})"),
        ("engine", f"{engine_label(report)} (spec {engine['spec']})"),
        ("rulesets", ", ".join(settings["rulesets"]) or "none"),
        ("profile", f"{settings['profile']}, seed {settings['seed']}, "
                    f"max_examples {settings['max_examples']}, timeout {settings['timeout']} s"),
        ("filters", ", ".join(filters["select"] + filters["rules"]) or "none"),
        ("known failures", settings["known_failures"] or "none"),
        ("started", f"{report['started']}, took {report['duration']:.2f} s"),
        *([("vocabulary", _vocabulary_gate.report_line(report["vocabulary"]))]
          if "vocabulary" in report else []),   # older reports lack it
    ]
