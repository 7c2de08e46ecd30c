"""Reports: report.json is the source of truth; Markdown, HTML, JUnit and the badge are views.

Each format is a thin function over the report dict (one private module per
format), so a format can be added or fixed without touching the runner.
`write_reports` replaces each file atomically: a CI job or a browser never
sees half a report, even if the run is killed while writing.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tabulate import tabulate

from conformance import _files
from conformance._types import ReportDict
from conformance.report import _badge, _github, _html, _junit, _markdown, _text
from conformance.report._schema import InvalidReport, validate_report

__all__ = ["FILENAMES", "InvalidReport", "left_behind", "render", "rule_table",
           "safe_filename", "validate_report", "write_counterexamples", "write_reports"]

#: The file each format is written to inside the output directory.
FILENAMES: dict[str, str] = {
    "json": "report.json",
    "md": "report.md",
    "junit": "junit.xml",
    "html": "report.html",
    "badge": "badge.json",
}


def _json(report: ReportDict) -> str:
    try:
        text = json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from undecodable engine output
        text = json.dumps(report, indent=2, ensure_ascii=True, allow_nan=False)
    return text + "\n"


_RENDERERS: dict[str, Callable[[ReportDict], str]] = {
    "json": _json,
    "md": _markdown.render,
    "junit": _junit.render,
    "html": _html.render,
    "badge": _badge.render,
    "github": _github.render,   # printed, never written by write_reports
}


def render(report: ReportDict, fmt: str) -> str:
    """The report in one format: ``json``, ``md``, ``html``, ``junit`` or ``badge``."""
    try:
        renderer = _RENDERERS[fmt]
    except KeyError:
        raise ValueError(
            f"unknown report format {fmt!r}; choose from {', '.join(_RENDERERS)}"
        ) from None
    return renderer(report)


def write_reports(
    report: ReportDict,
    out_dir: Path,
    formats: Iterable[str] = ("json", "md", "junit", "html", "badge"),
    *,
    validate: bool = True,
    then: Callable[[], object] | None = None,
) -> dict[str, Path]:
    """Validate, render every format, then replace each file atomically, report.json last.

    Everything is rendered before anything is written, so a renderer bug
    leaves the previous reports in place rather than a mix of old and new.
    When report.json is among the formats, the old one is removed first and the
    new one written last, after the other formats and ``then`` (the CLI writes
    the counterexamples and transcripts there): a report.json is only ever next to
    the files of its own run.  A write that fails (a full disk, a signal) removes
    the report files already replaced too, so no set is left looking current, and
    re-raises.  Returns ``{format: path written}``.
    """
    if validate:
        validate_report(report)
    texts = {fmt: render(report, fmt) for fmt in formats}
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {fmt: out_dir / FILENAMES[fmt] for fmt in texts}
    for path in paths.values():
        _files.refuse_link(path)
    last = paths.get("json")
    if last is not None and last.exists():
        last.unlink()   # from here until the new one is written, no set looks current
    try:
        for fmt, path in paths.items():
            if path != last:
                _replace(path, texts[fmt])
        if then is not None:
            then()
        if last is not None:
            _replace(last, texts["json"])
    except BaseException:
        if last is not None:   # a set: none of it may stay to look current
            for path in paths.values():
                if path.is_file() and not path.is_symlink():
                    with contextlib.suppress(OSError):
                        path.unlink()
        raise
    return paths


def safe_filename(item_id: str, suffix: str = ".yaml") -> str:
    """An item's file name: one-to-one with ids, and unable to name a folder or leave
    one (`conformance._files.item_filename`).

    ``vision/prop/x`` -> ``vision__prop__x.yaml``; anything but letters, digits,
    ``.``, ``_`` and ``-`` becomes ``-``, and no name starts with a dot.  When the
    id cannot be read back from the name that way, the name also carries ``~`` and
    16 hex digits of the id's sha256, so two ids never share a file.
    """
    return _files.item_filename(item_id, suffix)


def write_counterexamples(report: ReportDict, out_dir: Path) -> list[Path]:
    """Write each failed property's shrunk scenario to ``out_dir/counterexamples/``.

    The folder belongs to the run: the files an earlier run left in it (names
    `safe_filename` makes) are removed first, so a reused ``--out`` never shows a
    counterexample this run did not find; anything else there is left as it was
    (`conformance._files.others` names it).  A symlinked folder, or a symlink
    with such a name in it, is refused (`conformance._files.UnsafePath`) rather
    than followed.  Returns the paths written.
    """
    folder = Path(out_dir) / "counterexamples"
    _files.clean(folder)
    written = []
    for result in report["results"]:
        if not result.get("counterexample"):
            continue
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / safe_filename(result["id"])
        if path.resolve().parent != folder.resolve():
            raise ValueError(f"refusing to write {path}: outside {folder}")
        _replace(path, result["counterexample"])
        written.append(path)
    if folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir()):
        folder.rmdir()
    return written


def left_behind(out_dir: Path) -> list[Path]:
    """What is in ``out_dir`` that no run writes (a user's file, an earlier run's
    ``diff.md``): kept, and named by the CLI so nobody mistakes it for this run's."""
    ours = {*FILENAMES.values(), "counterexamples"}
    return sorted(p for p in Path(out_dir).iterdir()
                  if p.name not in ours and not p.name.startswith("."))


def _replace(path: Path, text: str) -> None:
    """Write a sibling temp file, fsync it, then os.replace it over ``path``."""
    _files.replace(path, text)


def rule_table(report_or_rules: ReportDict | Sequence[Mapping[str, Any]],
               tablefmt: str = "simple") -> str:
    """The rule-coverage table behind ``conformance rules``.

    Takes a report or just its ``rules`` list; rules from the catalogue alone
    (before any run) have no ``status`` and show ``-``.
    """
    rules = report_or_rules["rules"] if isinstance(report_or_rules, dict) else report_or_rules
    rows = [
        [_text.one_line(rule["id"], 80), rule.get("kind", ""),
         _text.short(rule.get("title", ""), 50), len(rule.get("cases", [])),
         len(rule.get("properties", [])), len(rule.get("mutants", [])),
         rule.get("status", "-")]
        for rule in rules
    ]
    return tabulate(rows, headers=["rule", "kind", "title", "cases", "properties", "mutants",
                                   "status"], tablefmt=tablefmt, disable_numparse=True)
