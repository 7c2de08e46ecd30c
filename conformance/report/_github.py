"""GitHub Actions annotations: one ``::error`` line per failing item, at its case file and line.

GitHub turns these workflow commands, printed to the log, into annotations on
the run and, when the file is in the repository, on the pull request's diff
(docs: "Workflow commands for GitHub Actions").  The job-summary Markdown
(``conformance diff --markdown``) says what changed; these say where.  Items
the verdict does not rest on (a differing reading) are warnings; known
failures are left out, as they do not fail the run.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Any

from conformance import _shown
from conformance.report import _text


def render(report: dict[str, Any]) -> str:
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
    """``cases/vision/x.yaml:12`` -> (that path, relative to here when inside, "12");
    a property's location is a Python name, not a file: ("", "")."""
    match = re.fullmatch(r"(.+\.ya?ml):(\d+)", location or "")
    if not match:
        return "", ""
    path = Path(match[1])
    if path.is_absolute():   # outside the checkout (an installed suite) it stays absolute
        with contextlib.suppress(ValueError):
            path = path.resolve().relative_to(Path.cwd().resolve())
    return path.as_posix(), match[2]


def _data(text: str) -> str:
    """The message part of a workflow command: bounded, and %, CR and LF escaped (GitHub's
    rules), so that the engine's words stay inside this one line."""
    return (_shown.escaped(_text.bound(text, _text.DETAIL_LIMIT), keep="\r\n")
            .replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _property(text: str) -> str:
    """A parameter value: as the message, and ``:`` and ``,`` too."""
    return _data(_text.one_line(text, 200)).replace(":", "%3A").replace(",", "%2C")
