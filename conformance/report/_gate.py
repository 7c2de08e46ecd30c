"""The job summary ``conformance gate`` writes: the verdict, coverage, the failures,
then the diff against the baseline, or how to commit the first baseline.

docs/ci.md shows it; ``$GITHUB_STEP_SUMMARY`` is Markdown, so every text from a
report goes through `_markdown.inline`.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from conformance._types import ReportDict
from conformance.report import _text
from conformance.report._markdown import inline

#: How many failing items the summary lists (the rest are in report.md / report.html).
FIRST_FAILURES = 20


def summary(report: ReportDict, report_path: Path) -> list[str]:
    """The run itself: verdict, items, seed rules, coverage, the first failures."""
    verdict = report["verdict"]
    seed = verdict["rules"]["seed"]
    coverage = verdict.get("coverage")
    out = [f"## Conformance: {inline(_text.engine_label(report))}", ""]
    if not report["complete"]:
        out += [f"> **Warning:** {inline(_text.incomplete_notice(report), 1000)}", ""]
    out += [f"**Verdict:** {inline(_text.verdict_line(report), 1000)}", "",
            f"- **Items:** {inline(_text.counts_line(report), 1000)}",
            f"- **Seed rules passed:** {seed['pass']}/{seed['total']}"
            + (f" ({coverage['percent']:g}% of the claimed seed rules fully checked and "
               "passing)" if coverage else "")]
    line = _text.coverage_line(report)
    if line:
        out.append(f"- **Coverage:** {inline(line, 1000)}")
    out.append(f"- **Report:** `{inline(str(report_path))}` (report.md and report.html "
               "beside it list every item)")
    out.append("")
    failing = [r for r in report["results"] if r["status"] in ("fail", "error")
               and not r["expected_failure"] and _text.counted(report, r)]
    if failing:
        shown = failing[:FIRST_FAILURES]
        more = f", the first {len(shown)}" if len(shown) < len(failing) else ""
        out += [f"### Failures ({len(failing)}{more})", "",
                "| item | rule | status | message |", "|---|---|---|---|"]
        out += [f"| `{inline(r['id'])}` | {inline(', '.join(r['rules']), 120)} | "
                f"{r['status']} | {inline(_text.headline(r), 200)} |" for r in shown]
        out.append("")
    return out


def verdict_line(report: ReportDict) -> str:
    """The verdict sentence, for the log."""
    return _text.clean(_text.verdict_line(report))


def bootstrap(baseline: Path, report_path: Path) -> list[str]:
    """No baseline yet: the gate passes, and says how to commit this run's report as one."""
    folder = report_path.parent
    run = os.environ.get("GITHUB_RUN_ID")
    download = [f"gh run download {run} --name {shlex.quote(folder.name or 'certification')}"
                f" --dir {shlex.quote(str(folder))}"] if run and folder.name else []
    commands = [*download,
                f"mkdir -p {shlex.quote(str(baseline.parent))}",
                f"cp {shlex.quote(str(report_path))} {shlex.quote(str(baseline))}",
                f"git add {shlex.quote(str(baseline))}",
                "git commit -m 'conformance: baseline'"]
    return ["### No baseline yet", "",
            f"There is no baseline at `{inline(str(baseline))}`, so there is nothing to "
            "regress against and the gate passes. Commit this run's report as the baseline "
            "(from your repository's root"
            + (", with the GitHub CLI" if download else "") + "); from then on a rule that "
            "passes in it and fails in a later push turns the gate red:", "",
            "```sh", *commands, "```", ""]


def bootstrap_text(baseline: Path, report_path: Path) -> str:
    """The same instructions for the log."""
    lines = bootstrap(baseline, report_path)
    commands = lines[lines.index("```sh") + 1:lines.index("```", lines.index("```sh") + 1)]
    return (f"no baseline at {baseline}: nothing to regress against, the gate passes.\n"
            "commit this run's report as the baseline:\n"
            + "".join(f"  {c}\n" for c in commands))
