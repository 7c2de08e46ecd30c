"""The page that lists published reports: ``conformance index REPORT... --out index.html``.

One row per report: the engine and release, its verdict, seed rules passed, how much
of what it claims ran (coverage), the top reasons it skipped items (its gaps), and
links to its report.html, the comparison page next to it (``compare/compare.html``)
and the nearest history page (``history/history.html`` in its folder or the folder
above).  Reports are read by the strict reader before they get here; every text from
them is escaped by the format's escaper (`_html.e`, `_markdown.inline`).
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from conformance._types import ReportDict
from conformance._verdict import skip_reasons
from conformance.report import _replace, _text
from conformance.report._html import e, page, status_badge, table, tr
from conformance.report._markdown import inline

#: How many skip reasons a row shows.
TOP = 3


@dataclasses.dataclass(frozen=True)
class Entry:
    """One report, as a row of the index; links are relative to the index's folder."""

    report: ReportDict
    links: list[tuple[str, str]]   # (label, relative href)

    @property
    def engine(self) -> str:
        return str(self.report["engine"].get("name") or self.report["engine"]["spec"])

    @property
    def release(self) -> str:
        return str(self.report["engine"].get("version") or "")

    @property
    def seed(self) -> str:
        seed = self.report["verdict"]["rules"]["seed"]
        return f"{seed['pass']}/{seed['total']}"

    @property
    def coverage(self) -> str:
        summary = self.report["summary"]
        ran = summary["total"] - summary["skip"]
        return (f"{ran} of {summary['total']} items played "
                f"({100 * ran / summary['total'] if summary['total'] else 0:.0f} %)")

    @property
    def counts(self) -> str:
        return _text.counts_line(self.report)

    @property
    def gaps(self) -> list[tuple[str, int]]:
        return [(reason, len(ids)) for reason, ids in skip_reasons(self.report["results"])[:TOP]]


def entries(reports: list[tuple[Path, ReportDict]], out: Path) -> list[Entry]:
    """The rows, with each report's links relative to ``out``'s folder."""
    home = out.parent
    rows = []
    for path, report in reports:
        folder = path.parent
        links = [("report", folder / "report.html")]
        links += [("compare", folder / "compare" / "compare.html")]
        links += [("history", up / "history" / "history.html") for up in (folder, folder.parent)]
        found: dict[str, str] = {}
        for label, target in links:   # one history link: the nearest
            if target.is_file() and label not in found:
                found[label] = Path(os.path.relpath(target, home)).as_posix()
        rows.append(Entry(report, list(found.items())))
    return rows


def render_html(rows: list[Entry]) -> str:
    body = ["<header><h1>Published certifications</h1>",
            f'<p class="note">{len(rows)} report(s): each row is one engine release, '
            "certified by this suite; seed rules passed counts what the verdict counts.</p>",
            "</header><main>"]
    cells = []
    for row in rows:
        gaps = "".join(f"<li>{e(_text.one_line(reason, 160), 200)} ×{n}</li>"
                       for reason, n in row.gaps) or "<li>none</li>"
        links = " · ".join(f'<a href="{e(href, 500)}">{e(label)}</a>' for label, href in row.links)
        cells.append(tr([e(row.engine, 200), e(row.release, 100),
                         status_badge(_status_class(row.report), row.report["verdict"]["status"]),
                         e(row.seed), e(row.coverage), e(row.counts, 400),
                         f"<ul>{gaps}</ul>", links]))
    body.append('<div class="scroll">' + table(
        ["engine", "release", "verdict", "seed rules passed", "coverage", "items",
         "top gaps (skip reasons)", "pages"], cells) + "</div></main>")
    return page("Published certifications", "\n".join(body))


def _status_class(report: ReportDict) -> str:
    return {"pass": "pass", "fail": "fail", "error": "error"}.get(
        report["verdict"]["status"], "skip")


def render_markdown(rows: list[Entry]) -> str:
    lines = ["# Published certifications", "",
             "| engine | release | verdict | seed rules passed | coverage | top gaps | pages |",
             "|---|---|---|---|---|---|---|"]
    for row in rows:
        gaps = "; ".join(f"{inline(reason, 120)} ×{n}" for reason, n in row.gaps) or "none"
        links = " · ".join(f"[{label}]({inline(href, 300)})" for label, href in row.links)
        lines.append(f"| {inline(row.engine)} | {inline(row.release)} | "
                     f"{inline(row.report['verdict']['status'])} | {row.seed} | {row.coverage} "
                     f"| {gaps} | {links} |")
    return "\n".join(lines) + "\n"


def write(reports: list[tuple[Path, ReportDict]], out: Path) -> list[Path]:
    """index.html at ``out`` and index.md beside it."""
    rows = entries(reports, out)
    out.parent.mkdir(parents=True, exist_ok=True)
    markdown = out.with_suffix(".md")
    _replace(out, render_html(rows))
    _replace(markdown, render_markdown(rows))
    return [out, markdown]


__all__ = ["Entry", "entries", "render_html", "render_markdown", "write"]
