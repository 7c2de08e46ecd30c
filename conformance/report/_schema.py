"""Checking a report dict against schemas/report.json before anything is rendered.

The schema ships as package data (loaded with importlib.resources) so the
same file documents report.json for other tools and guards the renderers.
"""

from __future__ import annotations

from typing import Any

import jsonschema

from conformance import _schemas
from conformance._errors import ConformanceError

#: How many schema errors one InvalidReport lists before "... and N more".
_SHOWN = 10


class InvalidReport(ConformanceError):
    """A report dict does not match schemas/report.json.

    ``errors`` lists each problem as ``"<where>: <what>"``.
    """

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors
        listing = "\n".join(f"  {e}" for e in errors[:_SHOWN])
        more = f"\n  ... and {len(errors) - _SHOWN} more" if len(errors) > _SHOWN else ""
        super().__init__(
            f"the report does not match schemas/report.json ({len(errors)} problem(s)):\n"
            f"{listing}{more}\n"
            "  fix: the runner and the schema disagree; change whichever is wrong "
            "(docs/reports.md says what each field means)"
        )


def schema() -> dict[str, Any]:
    """The report schema, parsed once."""
    return _schemas.load("schemas", "report.json")


def validate_report(report: Any) -> None:
    """Raise `InvalidReport` naming every place where ``report`` breaks the schema."""
    found = _schemas.validator("schemas", "report.json").iter_errors(report)
    errors = sorted(found, key=lambda e: list(map(str, e.path)))
    if errors:
        raise InvalidReport([f"{_where(e)}: {_what(e)}" for e in errors])


def _where(error: jsonschema.ValidationError) -> str:
    """A JSON path like ``results[3].status`` (``report`` for the top level)."""
    where = "report"
    for part in error.path:
        where += f"[{part}]" if isinstance(part, int) else f".{part}"
    return where


def _what(error: jsonschema.ValidationError) -> str:
    message = error.message
    return message if len(message) <= 300 else message[:300] + "…"
