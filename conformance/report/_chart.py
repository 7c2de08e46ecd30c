"""Pass-rate charts as inline SVG: drawn by the suite, no script, nothing fetched.

A person should see the picture before reading the tables: one bar per
ruleset and per rule family (a section of the rulebook), showing how many of
its rules an engine passes.  The single-engine report stacks the statuses of
one engine; the comparison page puts one bar per engine side by side.

Rules are counted as in the rule table: every covered entry of the index
except headings (``informative``); readings and context entries form their
own families, since an engine is certified on the seed alone.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from conformance._types import RuleRow

#: Status colours, shared with the HTML tables (colour-blind safe pairs + text labels).
COLOURS = {"pass": "#1a7f37", "fail": "#cf222e", "error": "#bc4c00", "skip": "#8c959f",
           "differs": "#8250df"}
#: One colour per engine on the comparison chart, in column order.
ENGINE_COLOURS = ("#0969da", "#bf3989", "#1a7f37", "#9a6700", "#8250df", "#bc4c00", "#57606a")

WIDTH = 760          # fits an 800 px viewport with the page's padding
#: Latin first, then a Japanese face on each platform: family labels are often
#: Japanese (ジャマー効果), and a chart saved on its own has no page CSS to inherit.
FONT_STACK = ('system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK JP", '
              '"Noto Sans JP", "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Yu Gothic", '
              'Meiryo, "Source Han Sans", sans-serif')
LABEL_WIDTH = 210
BAR_HEIGHT = 14
GAP = 6
SEPARATE_KINDS = {"reading": "readings", "context": "context"}


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def family(rule: RuleRow) -> str:
    """The rule family a rule row belongs to: its section of the rulebook.

    Q&A entries form one family, readings and context entries one each, and other
    entries are grouped by the first part of their reference ("12.3.1" -> "12", "609.7a" -> "609.7",
    a named section such as "ジャマー効果 bullet 3" -> "ジャマー効果").
    """
    kind = rule.get("kind", "rule")
    if kind in SEPARATE_KINDS:
        return SEPARATE_KINDS[kind]
    if kind == "qa":
        return "Q&A"
    ref = str(rule.get("ref", "")).strip()
    number = re.match(r"\d+(?:\.\d+)?", ref)
    if number:
        head = number.group()
        # "12.3.1" -> "12", but "609.7a" -> "609.7": three-digit rules group by sub-rule
        return "§" + (head if len(head.split(".")[0]) >= 3 else head.split(".")[0])
    word = re.match(r"[^\s,.:;(（、・]+", ref)
    return word.group() if word else rule["id"].split("/", 1)[-1].split("/")[0]


def counted(rules: Iterable[RuleRow]) -> list[RuleRow]:
    """The rule rows a pass rate counts: covered, and not a heading."""
    return [r for r in rules if r.get("kind") != "informative" and r["status"] != "uncovered"]


def groups(rules: Iterable[RuleRow]) -> list[tuple[str, str]]:
    """(ruleset, family) pairs in index order, each once."""
    seen: dict[tuple[str, str], None] = {}
    for rule in counted(rules):
        seen.setdefault((rule["ruleset"], family(rule)), None)
    return list(seen)


def tally(rules: Iterable[RuleRow]) -> dict[tuple[str, str], dict[str, int]]:
    """Status counts per (ruleset, family), plus a ``(ruleset, "all")`` total of its seed
    rules (readings and context have bars of their own, outside the total, as the
    verdict counts them: `conformance._verdict.rule_counts`)."""
    out: dict[tuple[str, str], dict[str, int]] = {}
    for rule in counted(rules):
        keys = [(rule["ruleset"], family(rule))]
        if rule.get("kind") not in SEPARATE_KINDS:
            keys.insert(0, (rule["ruleset"], "all"))
        for key in keys:
            counts = out.setdefault(key, {})
            status = display_status(rule)
            counts[status] = counts.get(status, 0) + 1
    return out


def display_status(rule: RuleRow) -> str:
    """A rule row's status as the charts and comparison show it."""
    if rule["status"] == "fail" and rule.get("kind") in SEPARATE_KINDS:
        return "differs"
    return str(rule["status"])


def _rows(rules: list[RuleRow]) -> list[tuple[str, str, bool]]:
    """(ruleset, family, is_ruleset_total) in drawing order."""
    rows: list[tuple[str, str, bool]] = []
    for ruleset, fam in groups(rules):
        if not any(r[0] == ruleset for r in rows):
            rows.append((ruleset, "all", True))
        rows.append((ruleset, fam, False))
    return rows


def _label(ruleset: str, fam: str, total: bool) -> str:
    return f"{ruleset} (seed rules)" if total else f"  {fam}"


def stacked(rules: list[RuleRow], title: str) -> str:
    """One engine: a stacked bar per ruleset and family (pass, fail, error, skip)."""
    rows = _rows(rules)
    counts = tally(rules)
    if not rows:
        return ""
    bar_space = WIDTH - LABEL_WIDTH - 60
    height = len(rows) * (BAR_HEIGHT + GAP) + 34
    parts = [_open(height, title), _legend(list(COLOURS), [COLOURS[s] for s in COLOURS], height)]
    for i, (ruleset, fam, total) in enumerate(rows):
        y = 8 + i * (BAR_HEIGHT + GAP)
        c = counts.get((ruleset, fam), {})
        n = sum(c.values())
        parts.append(_text(LABEL_WIDTH - 6, y + BAR_HEIGHT - 3, _label(ruleset, fam, total),
                           anchor="end", bold=total))
        x = float(LABEL_WIDTH)
        for status, colour in COLOURS.items():
            k = c.get(status, 0)
            if not k:
                continue
            w = bar_space * k / n
            parts.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{BAR_HEIGHT}" '
                         f'fill="{colour}"><title>{_e(ruleset)} {_e(fam)}: {k} {status}</title>'
                         "</rect>")
            x += w
        parts.append(_text(LABEL_WIDTH + bar_space + 6, y + BAR_HEIGHT - 3,
                           f"{c.get('pass', 0)}/{n}"))
    parts.append("</svg>")
    return "".join(parts)


def side_by_side(engines: list[tuple[str, list[RuleRow]]], title: str) -> str:
    """Several engines: per ruleset and family, one bar per engine with its pass rate."""
    if not engines:
        return ""
    rows = _rows([r for _, rules in engines for r in rules])
    tallies = [tally(rules) for _, rules in engines]
    bar_space = WIDTH - LABEL_WIDTH - 90
    slot = len(engines) * (BAR_HEIGHT - 4) + GAP
    height = len(rows) * slot + 34
    colours = [ENGINE_COLOURS[i % len(ENGINE_COLOURS)] for i in range(len(engines))]
    parts = [_open(height, title), _legend([name for name, _ in engines], colours, height)]
    for i, (ruleset, fam, total) in enumerate(rows):
        y0 = 8 + i * slot
        parts.append(_text(LABEL_WIDTH - 6, y0 + 11, _label(ruleset, fam, total),
                           anchor="end", bold=total))
        for j, ((name, _), counts) in enumerate(zip(engines, tallies, strict=True)):
            c = counts.get((ruleset, fam), {})
            n = sum(c.values())
            y = y0 + j * (BAR_HEIGHT - 4)
            passed = c.get("pass", 0)
            w = bar_space * passed / n if n else 0
            label = f"{passed}/{n}" + "".join(
                f", {c[k]} {word}" for k, word in (("fail", "failing"), ("error", "erroring"),
                                                    ("differs", "differing"), ("skip", "skipped"))
                if c.get(k)) if n else "—"
            parts.append(f'<rect x="{LABEL_WIDTH}" y="{y}" width="{w:.1f}" '
                         f'height="{BAR_HEIGHT - 5}" fill="{colours[j]}">'
                         f"<title>{_e(name)}: {_e(label)} ({_e(ruleset)} {_e(fam)})</title></rect>")
            parts.append(_text(LABEL_WIDTH + w + 4, y + BAR_HEIGHT - 6, label, size=9))
    parts.append("</svg>")
    return "".join(parts)


def _open(height: int, title: str) -> str:
    return (f'<svg class="chart" role="img" font-family="{html.escape(FONT_STACK)}" '
            f'viewBox="0 0 {WIDTH} {height}" width="100%" style="max-width:{WIDTH}px">'
            f"<title>{_e(title)}</title>")


def _legend(names: list[str], colours: list[str], height: int) -> str:
    parts, x = [], LABEL_WIDTH
    for name, colour in zip(names, colours, strict=True):
        parts.append(f'<rect x="{x}" y="{height - 16}" width="10" height="10" fill="{colour}"/>')
        parts.append(_text(x + 14, height - 7, name, size=10))
        x += 22 + 7 * len(name)
    return "".join(parts)


def _text(x: float, y: float, text: str, *, anchor: str = "start", bold: bool = False,
          size: int = 11) -> str:
    weight = ' font-weight="600"' if bold else ""
    return (f'<text x="{x:.1f}" y="{y}" font-size="{size}" text-anchor="{anchor}"{weight} '
            f'fill="#1f2328" xml:space="preserve">{_e(text)}</text>')
