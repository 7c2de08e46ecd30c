"""History between two runs: `conformance diff`, and the gate's regression check.

An item the verdict rests on that passed and now fails (or errs) is a regression,
as is one that passed and no longer ran ("lost coverage") unless allowed; items
that do not count in the new report are listed as information only (docs/cli.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conformance._errors import ExitCode, UsageError
from conformance._shown import shown
from conformance._types import ReportDict
from conformance._verdict import counts, filters_applied, group


def diff(old: ReportDict, new: ReportDict, *, names: tuple[str, str],
         allow_lost_coverage: bool = False, fail_under: float | None = None,
         markdown: Path | None = None) -> int:
    """Print what changed from ``old`` to ``new`` (``names``: how to call them) and
    return the exit code: `ExitCode.FAILURES` on a regression or under ``fail_under``.
    ``markdown``: also write it there, for a CI job summary."""
    warnings = _warnings(old, new)
    for warning in warnings:
        print(f"warning: {shown(warning, 1000)}")
    strict = new["settings"]["strict_readings"]
    before = {r["id"]: r["status"] for r in old["results"]}
    after = {r["id"]: r["status"] for r in new["results"]}
    counted = {r["id"] for r in new["results"] if counts(r["basis"], strict)}
    bad = ("fail", "error")
    changed = {
        "regressed": [i for i in after if after[i] in bad and i in before
                      and before[i] not in bad],
        "lost coverage": [i for i in before if before[i] == "pass"
                          and after.get(i, "gone") in ("skip", "gone")],
        "fixed": [i for i in after if before.get(i) in bad and after[i] not in bad],
        "new and failing": [i for i in after if i not in before and after[i] in bad],
        "new": [i for i in after if i not in before and after[i] not in bad],
        "gone": [i for i in before if i not in after and before[i] != "pass"],
    }
    groups: dict[str, list[str]] = {}
    for title, ids in changed.items():
        groups[title] = [i for i in ids if i in counted or i not in after]
        info = [i for i in ids if i in after and i not in counted]
        if info:
            groups[f"{title} (information: not counted)"] = info
    lines = [(title, item, before.get(item, "-"), after.get(item, "-"))
             for title, ids in groups.items() for item in sorted(ids)]
    old_rules = {r["id"]: r["status"] for r in old["rules"]}
    rule_changes = [(_rule_kind(r["kind"]), r["id"], old_rules[r["id"]], r["status"])
                    for r in new["rules"]   # a rule new in NEW is no change
                    if old_rules.get(r["id"], r["status"]) != r["status"]]
    for title, item, was, now in lines:
        print(f"{title}: {shown(item, 300)} ({shown(was, 20)} -> {shown(now, 20)})")
    for kind, rule_id, was, now in rule_changes:
        print(f"{shown(kind, 20)} {shown(rule_id, 300)}: {shown(was, 20)} -> {shown(now, 20)}")
    tally = ", ".join(f"{len(ids)} {title}" for title, ids in groups.items())
    print(tally)
    lost = [] if allow_lost_coverage else groups["lost coverage"]
    regressions = len(groups["regressed"] + groups["new and failing"] + lost)
    worse = regressions > 0
    if lost:
        print(f"{len(lost)} item(s) that passed no longer ran (skipped or gone): lost coverage "
              "is a regression; pass --allow-lost-coverage if it was meant")
    floor = below_floor(new, fail_under)
    if floor:
        warnings.append(floor)
        worse = True
    if markdown is not None:
        _write_markdown(markdown, names, allow_lost_coverage, regressions,
                        groups["lost coverage"], warnings, tally,
                        [("change | item", lines), ("kind | rule", rule_changes)])
    return ExitCode.FAILURES if worse else ExitCode.OK


def below_floor(report: ReportDict, fail_under: float | None) -> str:
    """Under ``--fail-under``: why (printed, and returned for the Markdown); else ""."""
    percent = report["verdict"].get("coverage", {}).get("percent", 0.0)
    if fail_under is None or percent >= fail_under:
        return ""
    print(f"coverage {percent:g}% of the claimed seed rules checked, below --fail-under "
          f"{fail_under:g}")
    return f"coverage {percent:g}% is below --fail-under {fail_under:g}"


def _rule_kind(kind: str) -> str:
    """How diff names a rule of this kind: ``rule`` (a seed rule), ``reading`` or ``context``."""
    return "rule" if group(kind) == "seed" else group(kind)


def _warnings(old: ReportDict, new: ReportDict) -> list[str]:
    """What makes two reports not like for like: another engine, catalogue or filters."""
    warnings = []
    for what, get in (("engines", lambda r: r["engine"].get("name") or r["engine"]["spec"]),
                      ("catalogue digests", lambda r: r["suite"]["catalogue_digest"]),
                      ("filters", lambda r: filters_applied(r["settings"]["filters"]))):
        if get(old) != get(new):
            warnings.append(f"the reports differ in {what} ({get(old)!r} vs {get(new)!r}): "
                            "items may differ for that reason, not for the engine's")
    return warnings


def _write_markdown(path: Path, names: tuple[str, str], allow_lost_coverage: bool,
                    regressions: int, lost: list[str], warnings: list[str], tally: str,
                    tables: Sequence[tuple[str, Sequence[tuple[Any, ...]]]]) -> None:
    """The diff for a CI job summary: the outcome first, then what changed."""
    from conformance.report._markdown import inline

    head = f"**{regressions} regression(s)**" if regressions else "**No regressions**"
    out = ["## Conformance diff", ""]
    out += [f"> **Warning:** {inline(w, 1000)}" for w in warnings]
    out += ["", f"{head} against `{inline(names[0])}` "
            f"(new: `{inline(names[1])}`): {tally}.", ""]
    if lost:
        how = "allowed by --allow-lost-coverage" if allow_lost_coverage else "a regression"
        out += [f"### Lost coverage ({len(lost)} item(s), {how})", "",
                "Items that passed before and no longer ran (skipped, or gone from the new "
                "report):", ""]
        out += [f"- `{inline(i)}`" for i in sorted(lost)]
        out.append("")
    for columns, rows in tables:
        if rows:
            out += [f"| {columns} | before | after |", "|---|---|---|---|"]
            out += [f"| {inline(a)} | `{inline(b)}` | {w} | {n} |" for a, b, w, n in rows]
            out.append("")
    try:
        path.write_text("\n".join(out), "utf-8")
    except OSError as exc:
        raise UsageError(f"--markdown {path}: cannot write there ({exc})") from None
