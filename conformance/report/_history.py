"""One engine's releases side by side: rules and items as rows, releases as columns.

``conformance history OLDEST/report.json ... NEWEST/report.json --out DIR`` writes
``history.html`` and ``history.md``.  Each item's row ends with when its status
changed, release by release: "fixed in X" (it passes from X on, after failing or
being skipped), "broke in X" (it fails from X on, after passing), "changed in X"
(any other change), as test262.fyi shows an engine's history.  The reports are
given oldest first and read by the strict reader (`Report.read`); every text from
them (names, versions, ids, titles) is escaped by the format's own escaper.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from conformance._types import ReportDict, RuleRow
from conformance.report import _replace, _text
from conformance.report._html import e, ident, page, status_badge, table, tr
from conformance.report._markdown import inline

#: A status that means the item did what the rules say.
_GOOD = {"pass"}
#: Statuses that mean it did not (a skip is neither: it was not played).
_BAD = {"fail", "error"}


@dataclasses.dataclass(frozen=True)
class Release:
    """One report, as a column: its label (the engine's version) and its statuses."""

    label: str
    source: str
    report: ReportDict

    def item(self, item_id: str) -> str:
        return self._items.get(item_id, "—")

    def rule(self, rule_id: str) -> str:
        return self._rules.get(rule_id, "—")

    @property
    def _items(self) -> dict[str, str]:
        return {r["id"]: r["status"] for r in self.report["results"]}

    @property
    def _rules(self) -> dict[str, str]:
        return {r["id"]: r["status"] for r in self.report["rules"]}


@dataclasses.dataclass(frozen=True)
class History:
    engine: str
    releases: list[Release]
    rules: list[RuleRow]                 # rule rows of the newest report, in index order
    items: dict[str, list[str]]          # rule id -> its item ids, as the newest report runs them
    notes: list[str]


def change(before: str, after: str) -> str:
    """The word for one status change: "fixed", "broke" or "changed" ("" for none)."""
    if before == after:
        return ""
    if after in _GOOD:
        return "fixed"
    if before in _GOOD and after in _BAD:
        return "broke"
    return "changed"


def changes(statuses: list[str], labels: list[str]) -> list[str]:
    """Each change of an item's statuses, oldest first: "fixed in 0.103.0"."""
    return [f"{word} in {label}" for before, after, label
            in zip(statuses, statuses[1:], labels[1:], strict=False)
            if (word := change(before, after))]


def history(reports: list[tuple[str, ReportDict]]) -> History:
    """The history of already-read reports, oldest first."""
    releases = [Release(str(r["engine"].get("version") or _text.engine_label(r)), source, r)
                for source, r in reports]
    notes = []
    names = list(dict.fromkeys(str(r["engine"].get("name") or r["engine"]["spec"])
                               for _, r in reports))
    if len(names) > 1:
        notes.append(f"These reports are of {len(names)} engines ({', '.join(names)}); a "
                     "history compares releases of one.")
    digests = list(dict.fromkeys(r["suite"]["catalogue_digest"] for _, r in reports))
    if len(digests) > 1:
        notes.append(f"These reports were made against {len(digests)} catalogues: an item "
                     "missing from one is shown as —, and a status change may be the "
                     "catalogue's, not the engine's.")
    newest = reports[-1][1] if reports else None
    items: dict[str, list[str]] = {}
    for result in newest["results"] if newest else []:
        for rule_id in result["rules"]:
            items.setdefault(rule_id, []).append(result["id"])
    rules = list(newest["rules"]) if newest else []
    return History(names[0] if names else "", releases, rules, items, notes)


def item_statuses(h: History, item_id: str) -> list[str]:
    return [release.item(item_id) for release in h.releases]


def changed(h: History) -> list[tuple[str, list[str], list[str]]]:
    """The items whose status changed between releases: (id, statuses, changes)."""
    ids = dict.fromkeys(i for ids in h.items.values() for i in ids)
    rows = [(i, item_statuses(h, i)) for i in ids]
    return [(i, statuses, found) for i, statuses in rows
            if (found := changes(statuses, _labels(h)))]


def totals(h: History) -> list[tuple[str, int, int]]:
    """Per release after the first: (label, items fixed in it, items broken in it)."""
    ids = list(dict.fromkeys(i for ids in h.items.values() for i in ids))
    rows = []
    for n, release in enumerate(h.releases[1:], 1):
        words = [change(h.releases[n - 1].item(i), release.item(i)) for i in ids]
        rows.append((release.label, words.count("fixed"), words.count("broke")))
    return rows


def _labels(h: History) -> list[str]:
    return [r.label for r in h.releases]


# -- HTML ------------------------------------------------------------------------------

def render_html(h: History) -> str:
    labels = _labels(h)
    body = [f"<header><h1>History: {e(h.engine, 200)}</h1>"]
    body += [f'<p class="note">{e(n, 1000)}</p>' for n in h.notes]
    body.append(table(["release", "report", "items", "seed rules passed", "verdict"],
                      [tr([e(r.label, 100), f"<code>{ident(r.source, 300)}</code>",
                           e(_items(r.report)), e(_seed(r.report)),
                           e(r.report["verdict"]["status"])]) for r in h.releases]))
    if len(h.releases) > 1:
        body.append(table(["release", "items fixed in it", "items broken in it"],
                          [tr([e(label, 100), e(fixed), e(broke)])
                           for label, fixed, broke in totals(h)]))
    body.append("</header><main>")
    moved = [tr([f"<code>{ident(i)}</code>", *(status_badge(x) for x in statuses),
                 e("; ".join(found))]) for i, statuses, found in changed(h)]
    body.append(f"<h2>Items whose status changed ({len(moved)})</h2>" + (
        '<div class="scroll">' + table(["item", *labels, "history"], moved, "compare")
        + "</div>" if moved else "<p>none</p>"))
    for ruleset in dict.fromkeys(r["ruleset"] for r in h.rules):
        rows = []
        for rule in (r for r in h.rules if r["ruleset"] == ruleset):
            rows.append(tr([f"<strong>{ident(rule['id'])}</strong>", e(rule["title"], 200),
                            *(status_badge(r.rule(rule["id"])) for r in h.releases), ""],
                           "rule"))
            for item_id in h.items.get(rule["id"], []):
                statuses = item_statuses(h, item_id)
                rows.append(tr(["", f"<code>{ident(item_id)}</code>",
                                *(status_badge(s) for s in statuses),
                                e("; ".join(changes(statuses, labels)) or "—")]))
        body.append(f'<h2>{e(ruleset)}</h2><div class="scroll">'
                    + table(["rule", "title / item", *labels, "history"], rows, "compare")
                    + "</div>")
    body.append("</main>")
    return page(f"History: {h.engine}", "\n".join(body))


def _items(report: ReportDict) -> str:
    summary = report["summary"]
    return (f"{summary['pass']} passed, {summary['fail'] + summary['error']} failed, "
            f"{summary['skip']} skipped of {summary['total']}")


def _seed(report: ReportDict) -> str:
    seed = report["verdict"]["rules"]["seed"]
    return f"{seed['pass']}/{seed['total']}"


# -- Markdown --------------------------------------------------------------------------

def render_markdown(h: History) -> str:
    labels = _labels(h)
    lines = [f"# History: {inline(h.engine)}", ""]
    lines += [f"> {inline(n, 1000)}" for n in h.notes]
    lines += ["", "| release | items | seed rules passed | verdict |", "|---|---|---|---|"]
    lines += [f"| {inline(r.label)} | {_items(r.report)} | {_seed(r.report)} | "
              f"{inline(r.report['verdict']['status'])} |" for r in h.releases]
    if len(h.releases) > 1:
        lines += ["", "| release | items fixed in it | items broken in it |", "|---|---|---|"]
        lines += [f"| {inline(label)} | {fixed} | {broke} |" for label, fixed, broke in totals(h)]
    moved = changed(h)
    lines += ["", f"## Items whose status changed ({len(moved)})", ""]
    lines += ["| item | " + " | ".join(inline(x) for x in labels) + " | history |",
              "|---|" + "---|" * len(labels) + "---|"] if moved else ["none"]
    lines += [f"| {inline(i)} | " + " | ".join(inline(x) for x in statuses)
              + f" | {inline('; '.join(found))} |" for i, statuses, found in moved]
    for ruleset in dict.fromkeys(r["ruleset"] for r in h.rules):
        lines += ["", f"## {inline(ruleset)}", "",
                  "| rule / item | " + " | ".join(inline(x) for x in labels) + " | history |",
                  "|---|" + "---|" * len(labels) + "---|"]
        for rule in (r for r in h.rules if r["ruleset"] == ruleset):
            lines.append(f"| **{inline(rule['id'])}** | "
                         + " | ".join(inline(r.rule(rule["id"])) for r in h.releases) + " | |")
            for item_id in h.items.get(rule["id"], []):
                statuses = item_statuses(h, item_id)
                lines.append(f"| {inline(item_id)} | "
                             + " | ".join(inline(s) for s in statuses)
                             + f" | {inline('; '.join(changes(statuses, labels)) or '—')} |")
    return "\n".join(lines) + "\n"


def write(h: History, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in (("history.html", render_html(h)), ("history.md", render_markdown(h))):
        _replace(out / name, text)
        written.append(out / name)
    return written


__all__ = ["History", "change", "changed", "changes", "history", "render_html", "render_markdown",
           "totals", "write"]
