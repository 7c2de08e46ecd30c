"""Reports: report.json is the source of truth; Markdown, HTML, JUnit and the badge are views.

Each format is a thin function over the report dict (one private module per
format), so a format can be added or fixed without touching the runner.
`write_reports` replaces each file atomically: a CI job or a browser never
sees half a report, even if the run is killed while writing.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tabulate import tabulate

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


def _json(report: dict[str, Any]) -> str:
    try:
        text = json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from undecodable engine output
        text = json.dumps(report, indent=2, ensure_ascii=True, allow_nan=False)
    return text + "\n"


_RENDERERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "json": _json,
    "md": _markdown.render,
    "junit": _junit.render,
    "html": _html.render,
    "badge": _badge.render,
    "github": _github.render,   # printed, never written by write_reports
}


def render(report: dict[str, Any], fmt: str) -> str:
    """The report in one format: ``json``, ``md``, ``html``, ``junit`` or ``badge``."""
    try:
        renderer = _RENDERERS[fmt]
    except KeyError:
        raise ValueError(
            f"unknown report format {fmt!r}; choose from {', '.join(_RENDERERS)}"
        ) from None
    return renderer(report)


def write_reports(
    report: dict[str, Any],
    out_dir: Path,
    formats: Iterable[str] = ("json", "md", "junit", "html", "badge"),
    *,
    validate: bool = True,
) -> dict[str, Path]:
    """Validate, render every format, then replace each file atomically.

    Everything is rendered before anything is written, so a renderer bug
    leaves the previous reports in place rather than a mix of old and new.
    Returns ``{format: path written}``.
    """
    if validate:
        validate_report(report)
    texts = {fmt: render(report, fmt) for fmt in formats}
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = {}
    for fmt, text in texts.items():
        path = out_dir / FILENAMES[fmt]
        _replace(path, text)
        written[fmt] = path
    return written


def safe_filename(item_id: str, suffix: str = ".yaml") -> str:
    """A file name made from an id that cannot name a folder or leave one.

    ``vision/prop/x`` -> ``vision__prop__x.yaml``; anything but letters,
    digits, ``.``, ``_`` and ``-`` becomes ``-``, and no name starts with a dot.
    """
    name = re.sub(r"[^A-Za-z0-9._-]", "-", item_id.replace("/", "__")).lstrip(".")[:150]
    return (name or "item") + suffix


def write_counterexamples(report: dict[str, Any], out_dir: Path) -> list[Path]:
    """Write each failed property's shrunk scenario to ``out_dir/counterexamples/``.

    The folder belongs to the run: files an earlier run left in it are removed
    first, so a reused ``--out`` never shows a counterexample this run did not
    find.  Returns the paths written.  The names come from property ids via
    `safe_filename`, and each path is checked to stay inside the folder.
    """
    folder = Path(out_dir) / "counterexamples"
    if folder.is_dir():
        for old in folder.iterdir():
            if old.is_file() or old.is_symlink():
                old.unlink()
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
    if folder.is_dir() and not any(folder.iterdir()):
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
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; reports are meant to be shared
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def rule_table(report_or_rules: dict[str, Any] | list[dict[str, Any]],
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
