"""Engines side by side: rules as rows, engines as columns, one page.

``conformance compare A/report.json B/report.json ... --out DIR`` writes
``compare.html`` (chart first, then the table) and ``compare.md`` (for a
README or a CI job summary).  Each report is validated first; shard reports of
the same engine are merged before comparing.  Reports made against different
catalogues are compared only on the rules and items they share, and the page
says so.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from conformance._results import worst
from conformance._types import ReportDict, ResultDict, RuleRow
from conformance._verdict import rule_counts
from conformance.report import _chart, _replace, _text
from conformance.report._html import anchor, e, ident, page, status_badge, table, tr
from conformance.report._markdown import inline


@dataclasses.dataclass
class Column:
    """One engine's report, as a column of the comparison."""

    label: str
    report: ReportDict
    source: str                       # the report file(s) it came from
    rules: dict[str, RuleRow]  # rule id -> rule row (restricted to shared items)

    @property
    def digest(self) -> str:
        return str(self.report["suite"]["catalogue_digest"])

    def failing_items(self, rule_id: str) -> list[ResultDict]:
        return [r for r in self.report["results"]
                if rule_id in r["rules"] and r["status"] in ("fail", "error")]


@dataclasses.dataclass
class Comparison:
    columns: list[Column]
    rules: list[RuleRow]       # the rows, in index order (from the first report)
    shared_only: bool                 # catalogues differ: only shared items compared
    notes: list[str]


def merge_shards(reports: list[tuple[str, ReportDict]]) -> list[tuple[str, ReportDict]]:
    """Shard reports (``--shard I/N``) of one engine on one catalogue become one report,
    in the place of its first shard; other reports stay as they are."""
    from conformance._certify import merge_reports

    slots: list[list[tuple[str, ReportDict]]] = []
    by_run: dict[tuple[str | None, ...], list[tuple[str, ReportDict]]] = {}
    for source, report in reports:
        if not report["settings"].get("shard"):
            slots.append([(source, report)])
            continue
        key = (report["engine"]["spec"], report["engine"].get("name"),
               report["engine"].get("version"), report["suite"]["catalogue_digest"])
        if key not in by_run:
            by_run[key] = []
            slots.append(by_run[key])
        by_run[key].append((source, report))
    return [slot[0] if len(slot) == 1 and not slot[0][1]["settings"].get("shard")
            else (" + ".join(s for s, _ in slot), merge_reports([r for _, r in slot]))
            for slot in slots]


def _one_catalogue(reports: list[ReportDict]) -> bool:
    """Whether reports whose catalogue digests differ ran one catalogue with different
    --ruleset: they agree on the own digest of every ruleset they share (if any)."""
    own = [r["suite"].get("ruleset_digests") or {} for r in reports]
    if not all(own):   # an older report: only the whole digest to go by
        return False
    shared = set.intersection(*(set(o) for o in own))
    return all(len({o[name] for o in own}) == 1 for name in shared)


def compare(reports: list[tuple[str, ReportDict]]) -> Comparison:
    """Build the comparison of already-validated reports (shards are merged first)."""
    reports = merge_shards(reports)
    digests = {r["suite"]["catalogue_digest"] for _, r in reports}
    shared_only = len(digests) > 1 and not _one_catalogue([r for _, r in reports])
    notes: list[str] = []
    rule_ids = _shared([[row["id"] for row in r["rules"]] for _, r in reports])
    item_ids = set(_shared([[res["id"] for res in r["results"]] for _, r in reports]))
    if shared_only:
        notes.append(
            f"These reports were made against {len(digests)} different catalogues; they are "
            f"compared only on the {len(rule_ids)} rules and {len(item_ids)} cases and "
            "properties they share, and each rule's status here is recomputed from those items.")
    elif len(digests) > 1:   # one catalogue, run with different --ruleset
        notes.append(
            "These reports ran different rulesets; they are compared on the "
            f"{len(rule_ids)} rules and {len(item_ids)} cases and properties they share.")
    columns = []
    labels: dict[str, int] = {}
    names = [_text.engine_label(r) for _, r in reports]
    for (source, report), name in zip(reports, names, strict=True):
        # engines that share a name (the reference engine and its mutants) go by their spec
        label = name if names.count(name) == 1 else str(report["engine"]["spec"])
        labels[label] = labels.get(label, 0) + 1
        if labels[label] > 1:
            label = f"{label} #{labels[label]}"
        rows = {row["id"]: row for row in report["rules"] if row["id"] in rule_ids}
        if shared_only:
            rows = {rid: _restricted(row, report, item_ids) for rid, row in rows.items()}
        columns.append(Column(label, report, source, rows))
    rules = [row for row in reports[0][1]["rules"] if row["id"] in set(rule_ids)] if reports else []
    return Comparison(columns, rules, shared_only, notes)


def _shared(id_lists: list[list[str]]) -> list[str]:
    """Ids present in every list, in the order of the first."""
    if not id_lists:
        return []
    common = set(id_lists[0]).intersection(*map(set, id_lists[1:]))
    return [i for i in id_lists[0] if i in common]


def _restricted(row: RuleRow, report: ReportDict, items: set[str]) -> RuleRow:
    """The rule row with its status recomputed from the shared items only."""
    ran = [r["status"] for r in report["results"] if row["id"] in r["rules"] and r["id"] in items]
    status = worst(ran) if ran else ("uncovered" if row["status"] == "uncovered" else "skip")
    return {**row, "status": status}


def _cell_status(column: Column, rule: RuleRow) -> str:
    row = column.rules.get(rule["id"])
    return _chart.display_status(row) if row else "—"


def _engines(comparison: Comparison) -> list[tuple[str, list[RuleRow]]]:
    return [(c.label, list(c.rules.values())) for c in comparison.columns]


# -- HTML ------------------------------------------------------------------------------

def render_html(comparison: Comparison) -> str:
    cols = comparison.columns
    head = [f"<header><h1>Conformance comparison: {len(cols)} engine(s)</h1>"]
    head += [f'<p class="note">{e(n, 1000)}</p>' for n in comparison.notes]
    head.append(table(["engine", "report", "catalogue digest", "suite", "rules passed"],
                      [tr([ident(c.label), f"<code>{ident(c.source, 300)}</code>",
                           f"<code>{e(c.digest, 100)}</code>",
                           e(c.report["suite"]["version"]), e(_passed(c))]) for c in cols]))
    head.append("</header>")
    chart = _chart.side_by_side(_engines(comparison), "Rules passed per ruleset and family")
    body = [*head, '<main><section id="chart"><h2>Pass rates</h2>', chart, "</section>",
            _html_table(comparison), *_html_failures(comparison), "</main>"]
    return page("Conformance comparison", "\n".join(body))


def _passed(column: Column) -> str:
    """Seed rules passed, counted as the verdict counts them (`rule_counts`)."""
    seed = rule_counts(column.rules.values())["seed"]
    return f"{seed['pass']}/{seed['total']} seed rules"


def _html_table(comparison: Comparison) -> str:
    cols = comparison.columns
    parts = ['<section id="rules"><h2>Rules</h2>']
    for ruleset in dict.fromkeys(r["ruleset"] for r in comparison.rules):
        parts.append(f"<h3>{e(ruleset)}</h3>")
        rows_by_family: dict[str, list[str]] = {}
        for rule in (r for r in comparison.rules if r["ruleset"] == ruleset):
            shown = ident(rule["id"])
            cells = [f'<span title="{e(rule["title"], 300)}">{shown}</span>',
                     e(rule["title"], 200)]
            for i, column in enumerate(cols):
                status = _cell_status(column, rule)
                badge = status_badge(status)
                if column.failing_items(rule["id"]):
                    badge = f'<a href="#{anchor(f"fail{i}", rule["id"])}">{badge}</a>'
                cells.append(badge)
            rows_by_family.setdefault(_chart.family(rule), []).append(tr(cells))
        for fam, rows in rows_by_family.items():
            parts.append(f'<h4>{e(fam)}</h4><div class="scroll">'
                         + table(["rule", "title", *(c.label for c in cols)], rows, "compare")
                         + "</div>")
    parts.append("</section>")
    return "".join(parts)


def _html_failures(comparison: Comparison) -> list[str]:
    parts = []
    for i, column in enumerate(comparison.columns):
        items = []
        for rule in comparison.rules:
            failing = column.failing_items(rule["id"])
            if not failing:
                continue
            lis = "".join(f"<li>{status_badge(r['status'])} <code>{ident(r['id'])}</code>: "
                          f"{e(_text.one_line(_text.headline(r)), 400)}</li>" for r in failing)
            items.append(f'<li id="{anchor(f"fail{i}", rule["id"])}"><strong>'
                         f'{e(rule["id"], 200)}</strong> {e(rule["title"], 200)}<ul>{lis}</ul>'
                         "</li>")
        if items:
            parts.append(f"<section><h2>Failing items: {e(column.label, 200)}</h2>"
                         f"<ul>{''.join(items)}</ul></section>")
    return parts


# -- Markdown --------------------------------------------------------------------------

_MD_MARK = {"pass": "✅ pass", "fail": "❌ fail", "error": "⚠️ error", "skip": "⏭ skip",
            "uncovered": "uncovered", "differs": "🔀 differs from the catalogue's reading"}


def render_markdown(comparison: Comparison) -> str:
    cols = comparison.columns
    lines = [f"# Conformance comparison: {len(cols)} engine(s)", ""]
    lines += [f"> {inline(n, 1000)}" for n in comparison.notes]
    lines += ["", "| engine | catalogue digest | rules passed |", "|---|---|---|"]
    lines += [f"| {inline(c.label)} | `{c.digest[:19]}` | {_passed(c)} |" for c in cols]
    for ruleset in dict.fromkeys(r["ruleset"] for r in comparison.rules):
        lines += ["", f"## {ruleset}", "",
                  "| rule | family | " + " | ".join(inline(c.label) for c in cols) + " |",
                  "|---|---|" + "---|" * len(cols)]
        for rule in (r for r in comparison.rules if r["ruleset"] == ruleset):
            marks = [_MD_MARK.get(s, s) for s in (_cell_status(c, rule) for c in cols)]
            lines.append(f"| {inline(rule['id'])} | {inline(_chart.family(rule))} | "
                         + " | ".join(marks) + " |")
    return "\n".join(lines) + "\n"


def write(comparison: Comparison, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in (("compare.html", render_html(comparison)),
                       ("compare.md", render_markdown(comparison))):
        _replace(out / name, text)
        written.append(out / name)
    return written


__all__ = ["Column", "Comparison", "compare", "render_html", "render_markdown", "write"]
