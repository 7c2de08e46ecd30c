"""GitHub Actions annotations: one ``::error`` line per failing item, at its case file and line.

GitHub turns these workflow commands, printed to the log, into annotations on
the run and, when the file is in the repository, on the pull request's diff
(docs: "Workflow commands for GitHub Actions").  A file is named only when it
is in the user's repository; never a path of the installed suite.  The job
summary (``conformance gate``) says what changed; these say where.  Items
the verdict does not rest on (a differing reading) are warnings; known
failures are left out, as they do not fail the run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from conformance import _shown
from conformance._types import ReportDict
from conformance.report import _text


def render(report: ReportDict) -> str:
    """Every annotation, one per line (empty when nothing needs attention)."""
    lines = [_command("error", "the engine could not start", p["message"])
             for p in report["problems"] if p["kind"] == "handshake"]
    for title, results in _text.needs_attention(report).items():
        level = "warning" if title == _text.READINGS_TITLE else "error"
        for r in results:
            if r["expected_failure"] and not _text.is_unexpected_pass(r):
                continue   # a known failure: listed, expected, not a failure of the run
            what = "passed but is listed as a known failure" if _text.is_unexpected_pass(r) \
                else f"{r['status']} ({_text.one_line(', '.join(r['rules'][:3]), 120)}" \
                f"{', ...' if len(r['rules']) > 3 else ''})"
            message = f"{_text.headline(r)}\nrerun: {r['rerun']}"
            lines.append(_command(level, f"{r['id']}: {what}", message, r.get("location", "")))
    return "".join(f"{line}\n" for line in lines)


def wanted(fmt: str | None) -> bool:
    """``--format github``, or no --format under GitHub Actions (GITHUB_ACTIONS=true)."""
    return fmt == "github" or (fmt is None and os.environ.get("GITHUB_ACTIONS") == "true")


def _command(level: str, title: str, message: str, location: str = "") -> str:
    params = {"title": title}
    path, line = _file_and_line(location)
    if path:
        params = {"file": path, **({"line": line} if line else {}), **params}
    joined = ",".join(f"{k}={_property(v)}" for k, v in params.items())
    return f"::{level} {joined}::{_data(message)}"


def _file_and_line(location: str) -> tuple[str, str]:
    """``cases/vision/x.yaml:12`` -> (that path relative to the repository, "12").

    The repository is ``$GITHUB_WORKSPACE`` under GitHub Actions, else the working
    directory; a relative location is read from the working directory.  A case file
    outside it (the installed suite's, in site-packages) names no file of the user's
    repository: ("", ""), and the annotation is one of the run, carrying the item id,
    its rules and the rerun command.  A property's location is a Python name: ("", "").
    """
    match = re.fullmatch(r"(.+\.ya?ml):(\d+)", location or "")
    if not match:
        return "", ""
    here = Path.cwd()
    root = Path(os.environ.get("GITHUB_WORKSPACE") or here)
    try:
        path = (here / match[1]).resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return "", ""
    return path.as_posix(), match[2]


def _data(text: str) -> str:
    """The message part of a workflow command: bounded, and %, CR and LF escaped (GitHub's
    rules), so that the engine's words stay inside this one line."""
    return (_shown.escaped(_text.bound(text, _text.DETAIL_LIMIT), keep="\r\n")
            .replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _property(text: str) -> str:
    """A parameter value: as the message, and ``:`` and ``,`` too."""
    return _data(_text.one_line(text, 200)).replace(":", "%3A").replace(",", "%2C")
