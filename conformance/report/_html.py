"""report.html: one self-contained page (inline CSS, no script, nothing fetched).

Every piece of text goes through ``_e`` (cleaned, then ``html.escape``), and
the page forbids scripts with a Content-Security-Policy as a second line of
defence.  Filtering to failures works without JavaScript: a checkbox hides
passing rows through a CSS sibling selector, and failures have their own
section that the navigation links to.
"""

from __future__ import annotations

import html
import re

from conformance._types import ReportDict, ResultDict
from conformance.report import _chart, _text

_CSS = """
body{font:14px/1.45 FONTS;margin:0 auto;max-width:1200px;padding:0 1rem;
color:#1f2328}
.scroll{overflow-x:auto;max-width:100%}td{overflow-wrap:anywhere}
.id{overflow-wrap:normal;word-break:normal}.seg{white-space:nowrap}
.note{background:#ddf4ff;border:1px solid #54aeff;padding:.5rem}
.sticky{position:sticky;top:0;z-index:1;background:#fff;border-bottom:1px solid #d0d7de;
padding:.3rem 0;margin:0}.sticky p{margin:.2rem 0}
svg.chart{display:block;margin:.5rem 0}
.status-differs .status,.status.status-differs{color:#8250df;background:#fbefff}
h1{font-size:1.6rem}h2{border-bottom:1px solid #d0d7de;padding-bottom:.2rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #d0d7de;padding:.2rem .5rem;
text-align:left;vertical-align:top}th{background:#f6f8fa}
pre{background:#f6f8fa;border:1px solid #d0d7de;padding:.5rem;overflow-x:auto;white-space:pre-wrap;
word-break:break-all}
code,pre{font-family:ui-monospace,monospace;font-size:12.5px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem}dt{font-weight:600}
dd{margin:0;word-break:break-word}nav a{margin-right:1rem}
.banner{background:#fff8c5;border:2px solid #9a6700;padding:.6rem;font-weight:600}
.status{font-weight:600;white-space:nowrap}
table.rules .status{white-space:normal;overflow-wrap:normal}
table.rules td:nth-child(3){min-width:8em}
.status-pass .status,.status.status-pass{color:#1a7f37;background:#dafbe1}
.status-fail .status,.status.status-fail{color:#cf222e;background:#ffebe9}
.status-error .status,.status.status-error{color:#bc4c00;background:#fff1e5}
.status-skip .status,.status.status-skip{color:#57606a;background:#f6f8fa}
.status-uncovered .status,.status.status-uncovered{color:#9a6700;background:#fff8c5}
.status-informative .status{color:#57606a;font-weight:400}
article{border-left:4px solid #cf222e;padding-left:.8rem;margin:1.2rem 0}
article.status-error{border-color:#bc4c00}article.status-pass{border-color:#9a6700}
#only-failing:checked~.scroll tr.status-pass,#only-failing:checked~.scroll tr.status-skip,
#only-failing:checked~.scroll tr.status-uncovered,
#only-failing:checked~.scroll tr.status-informative{display:none}
""".replace("FONTS", _chart.FONT_STACK)

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _e(text: object, limit: int = _text.DETAIL_LIMIT) -> str:
    """Cleaned, bounded, escaped: the only way text enters the page."""
    return html.escape(_text.bound(_text.clean(str(text)), limit), quote=True)


def anchor(prefix: str, ident: str) -> str:
    """A fragment id that survives any id: unsafe characters become ``_hex``."""
    return prefix + "-" + re.sub(r"[^A-Za-z0-9.-]", lambda m: f"_{ord(m.group()):x}", ident)


def _table(headers: list[str], rows: list[str], cls: str = "") -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    attr = f' class="{cls}"' if cls else ""
    return f"<table{attr}><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _row(cells: list[str], cls: str = "", ident: str = "") -> str:
    """A row of already-escaped cells."""
    attrs = (f' class="{cls}"' if cls else "") + (f' id="{ident}"' if ident else "")
    return f"<tr{attrs}>{''.join(f'<td>{c}</td>' for c in cells)}</tr>"


def _ident(text: str, limit: int = 200) -> str:
    """An id, escaped, that a narrow column breaks only after a slash, never inside a
    part (``vision/qa-2013-11-13/durability-four-survives-entry`` not at its hyphens:
    half an id reads as another id)."""
    parts = [f'<span class="seg">{p}</span>' for p in _e(text, limit).split("/")]
    return f'<span class="id">{"/<wbr>".join(parts)}</span>'


def _status(status: str, shown: str | None = None) -> str:
    return f'<span class="status status-{_e(status)}">{_e(shown or status)}</span>'


def render(report: ReportDict) -> str:
    """The whole report as one HTML page."""
    attention = _text.needs_attention(report)
    title = f"Conformance report: {_text.engine_label(report)}"
    nav = ['<a href="#summary">Summary</a>', '<a href="#rules">Rules</a>']
    nav += [f'<a href="#{_section_id(title)}">{_e(title)} ({len(items)})</a>'
            for title, items in attention.items()]
    found = _text.differences(report)
    if found:
        nav.append(f'<a href="#{_section_id(_text.REFERENCE_TITLE)}">'
                   f'{_e(_text.REFERENCE_TITLE)} ({len(found)})</a>')
    if _text.skipped(report):
        nav.append('<a href="#skipped">Skipped</a>')
    if report["mutation"]:
        nav.append('<a href="#mutation">Mutation</a>')
    body = [
        f"<header><h1>{_e(title, 500)}</h1>",
        *_banner(report),
        _facts(report),
        "</header>",
        _sticky(report, nav),
        "<main>",
        _summary(report),
        *_problems(report),
        _rules(report, attention),
        *_exercised(report),
        *_attention(attention),
        *_differences(found),
        *_skipped(report),
        *_mutation(report),
        "</main>",
    ]
    return page(title, "\n".join(body))


def _exercised(report: ReportDict) -> list[str]:
    """Per property, how many supported examples exercised each of its rules."""
    rows = [_row([_ident(p), _e(n), _e(shown, 2000)])
            for p, n, shown in _text.exercised_rows(report)]
    if not rows:
        return []
    return ['<section id="exercised"><h2>Property examples per rule</h2>'
            "<p>A property checks a rule only through the supported examples that exercised "
            "it; below the floor it does not check that rule (too few examples).</p>"
            + _table(["property", "supported examples", "exercised, per rule"], rows)
            + "</section>"]


def _sticky(report: ReportDict, nav: list[str]) -> str:
    """The verdict and the rule counts, kept in view while the page scrolls."""
    verdict = report["verdict"]
    groups = verdict["rules"]
    parts = [_status(_verdict_class(verdict["status"]), f"verdict: {verdict['status']}"),
             f"seed rules {groups['seed']['pass']}/{groups['seed']['total']}"]
    if groups["reading"]["total"]:
        parts.append(f"readings followed {groups['reading']['pass']}/"
                     f"{groups['reading']['total']}")
    parts.append(_text.counts_line(report))
    return (f'<div class="sticky" id="sticky"><p>{" · ".join(parts)}</p>'
            f"<nav>{''.join(nav)}</nav></div>")


def _verdict_class(status: str) -> str:
    return {"pass": "pass", "fail": "fail", "no verdict": "skip", "partial": "skip"}.get(
        status, "error")


def _banner(report: ReportDict) -> list[str]:
    banners = []
    if not report["complete"]:
        banners.append(f'<p class="banner" role="alert">⚠ '
                       f'{_e(_text.incomplete_notice(report))}</p>')
    handshake = _text.handshake_problem(report)
    if handshake:
        banners.append(f'<p class="banner" role="alert">⚠ ENGINE NOT CERTIFIED: {_e(handshake)} '
                       "Every item is an error: the engine never ran.</p>")
    status = report["verdict"]["status"]
    css = {"pass": "pass", "fail": "fail", "error": "error"}.get(status, "skip")
    banners.append(f'<p><strong>Verdict:</strong> '
                   f'<span class="status status-{css}">{_e(status)}</span> '
                   f'{_e(_text.verdict_line(report, status=False), 1000)}</p>')
    return banners


def _facts(report: ReportDict) -> str:
    facts = _text.facts(report)
    items = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v, 1000)}</dd>" for k, v in facts)
    return f'<dl class="facts">{items}</dl>'


def _summary(report: ReportDict) -> str:
    rules = report["rules"]
    headers, rule_rows = _text.rule_summary(report)
    by_rule = _table(headers, [_row([_e(v) for v in row]) for row in rule_rows])
    counts = _text.ruleset_rows(report)
    rows = [_row([_e(v) for v in row.values()]) for row in counts]
    per_ruleset = _table(list(counts[0]), rows) if counts else "<p>No rulesets.</p>"
    chart = _chart.stacked(rules, "Rules by status, per ruleset and rule family")
    claimed = ", ".join(_text.claimed(report)) or "none"
    return (f'<section id="summary"><h2>Summary</h2>{chart}'
            f"<h3>Items (cases and properties)</h3><p>{_e(_text.counts_line(report))}</p>"
            f'<h3>Rules of the claimed rulesets ({_e(claimed)})</h3>'
            f'<div class="scroll">{by_rule}</div><h3>Rulesets</h3>'
            f'<div class="scroll">{per_ruleset}</div></section>')


def _problems(report: ReportDict) -> list[str]:
    if not report["problems"]:
        return []
    items = "".join(f"<li><strong>{_e(p['kind'])}:</strong> {_e(p['message'])}</li>"
                    for p in report["problems"])
    return [f'<section id="problems"><h2>Problems</h2><ul>{items}</ul></section>']


def _rules(report: ReportDict, attention: dict[str, list[ResultDict]]) -> str:
    failing: dict[str, list[str]] = {}
    for results in attention.values():
        for result in results:
            for rule_id in result["rules"]:
                failing.setdefault(rule_id, []).append(result["id"])
    tables = []
    for title, rules in _text.rule_groups(report):
        if not rules:
            continue
        rows = []
        for rule in rules:
            links = " ".join(f'<a href="#{anchor("result", i)}">{_ident(i)}</a>'
                             for i in failing.get(rule["id"], []))
            cells = [_ident(rule["id"]), _ident(rule["kind"]), _e(rule["title"], 300),
                     _e(len(rule["cases"])), _e(len(rule["properties"])),
                     _e(_text.mutants_killed(report, rule)),
                     f'<span class="status">{_e(_text.rule_progress(rule))}</span>', links]
            # an informative rule has nothing to follow: not a gap in coverage
            shown = "informative" if rule["kind"] == "informative" else rule["status"]
            rows.append(_row(cells, f"status-{_e(shown)}", anchor("rule", rule["id"])))
        # ids never break inside a part: a narrow window scrolls the table, not the page
        tables.append(f"<h3>{_e(title)}</h3>" + '<div class="scroll">' + _table(
            ["rule", "kind", "title", "cases", "properties", "mutants", "status", "failing"],
            rows, "rules") + "</div>")
    return ('<section id="rules"><h2>Rules</h2>'
            '<input type="checkbox" id="only-failing">'
            '<label for="only-failing"> show only failing and erroring rules</label>'
            f"{''.join(tables) or '<p>No rules.</p>'}</section>")


def _attention(attention: dict[str, list[ResultDict]]) -> list[str]:
    parts = []
    for title, results in attention.items():
        items = "".join(_result(r) for r in results) or f"<p>No {_e(title.lower())}.</p>"
        note = f"<p>{_e(_text.READINGS_NOTE)}</p>" if title == _text.READINGS_TITLE else ""
        parts.append(f'<section id="{_section_id(title)}"><h2>{_e(title)}</h2>{note}{items}'
                     "</section>")
    return parts


def _differences(found: list[ResultDict]) -> list[str]:
    if not found:
        return []
    title = _text.REFERENCE_TITLE
    return [f'<section id="{_section_id(title)}"><h2>{_e(title)}</h2>'
            f'<p>{_e(_text.REFERENCE_NOTE)}</p>{"".join(_result(r) for r in found)}</section>']


def _skipped(report: ReportDict) -> list[str]:
    reasons = _text.skipped(report)
    if not reasons:
        return []
    rows = [_row([_e(len(ids)), _e(reason, 500), _e(", ".join(ids[:5]) + (
        f" (+{len(ids) - 5} more)" if len(ids) > 5 else ""), 600)]) for reason, ids in reasons]
    return ['<section id="skipped"><h2>Skipped, by reason</h2>'
            "<p>What the engine does not model yet: map these next.</p>"
            f'{_table(["items", "reason", "for example"], rows)}</section>']


def _section_id(title: str) -> str:
    return re.sub(r"[^a-z0-9-]", "", title.lower().replace(" ", "-"))


def _result(result: ResultDict) -> str:
    """One failure, error or unexpected pass, with everything needed to act on it."""
    rules = " ".join(f'<a href="#{anchor("rule", r)}">{_e(r, 200)}</a>' for r in result["rules"])
    facts = [("kind", _e(result["kind"])),
             ("outcome", _status(result["status"], _text.outcome(result))),
             ("rules", rules or "none"), ("basis", _e(result["basis"]))]
    if result.get("location"):
        facts.append(("defined at", f"<code>{_e(result['location'])}</code>"))
    if result["step"] is not None:
        facts.append(("step", _e(result["step"])))
    if _text.is_unexpected_pass(result):
        facts.append(("fix", "remove it from the known-failures file"))
    if result["message"]:   # a mismatch in JSON, as in the table below
        facts.append(("message", _e(_text.headline(result))))
    parts = [f'<article id="{anchor("result", result["id"])}" '
             f'class="status-{_e(result["status"])}"><h3>{_e(result["id"], 300)}</h3>',
             '<dl class="facts">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
             + "</dl>"]
    if result["mismatches"]:
        rows = [_row([f"<code>{_e(m['path'], 300)}</code>",
                      f"<pre>{_e(_text.value(m['expected']))}</pre>",
                      f"<pre>{_e(_text.value(m['observed']))}</pre>"])
                for m in result["mismatches"]]
        expected = "reference engine" if result["basis"] == "reference" else "expected"
        parts.append(_table(["where", expected, "observed"], rows))
    if result["counterexample"]:
        parts.append("<details open><summary>counterexample, as a case to review and add to "
                     "<code>cases/</code></summary>"
                     f"<pre>{_e(result['counterexample'], _text.COUNTEREXAMPLE_LIMIT)}</pre>"
                     "</details>")
    if result["stderr"]:
        parts.append("<details open><summary>stderr (last lines)</summary>"
                     f"<pre>{_e(_text.tail(result['stderr']), _text.STDERR_CHARS * 2)}</pre>"
                     "</details>")
    if result["rerun"]:
        parts.append(f"<p>Rerun:</p><pre><code>{_e(result['rerun'])}</code></pre>")
    return "".join(parts) + "</article>"


def _mutation(report: ReportDict) -> list[str]:
    mutation = report["mutation"]
    if not mutation:
        return []
    rows = [_row([_e(m["name"], 200), _e(m["ruleset"]), _e(", ".join(m["rules"])),
                  _yes_no(m["killed"]),
                  _yes_no(m.get("certified", m["killed"])),
                  _e(", ".join(m["killed_by"]))])
            for m in mutation["mutants"]]
    certified = mutation.get("certified_score", mutation["score"])
    return [f'<section id="mutation"><h2>Mutation</h2><p>Score: {mutation["score"]:.0%} of '
            f'{len(mutation["mutants"])} mutants killed; {certified:.0%} caught by the '
            'certification (killed by an item the verdict rests on).</p>'
            + _table(["mutant", "ruleset", "rules", "killed", "caught by the certification",
                      "killed by"], rows) +
            '</section>']


def _yes_no(flag: bool) -> str:
    return _status("pass" if flag else "fail", "yes" if flag else "no")


# -- shared with the comparison page (report/_compare.py) --------------------------------
e, ident, table, tr, status_badge = _e, _ident, _table, _row, _status


def page(title: str, body: str) -> str:
    """A whole self-contained page: the report's CSS and policy around ``body``."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{_e(title, 200)}</title><style>{_CSS}</style></head><body>\n"
        + body
        + "\n</body></html>\n"
    )
