"""badge.json: a shields.io endpoint (https://shields.io/badges/endpoint-badge).

The message counts seed rules of the rulesets the engine claims, exactly as
the report's verdict does (`conformance._verdict.verdict`): "41/52 rules" says
how much of the rulebook an engine was checked on in full and follows;
"partial: 3/33 rules checked" that no rule checked is broken but most were not
checked, and "(filtered)" that a filter left items out.  Informative rules are
left out (nothing to follow); uncovered and skipped rules count against the
engine, because a rule nobody checked is not a rule it was certified on.
Readings and context entries are not the seed and never enter the badge.  An
engine that never started says so instead of showing a count.
"""

from __future__ import annotations

import json
from typing import Any

from conformance._verdict import rule_counts

#: (minimum passing fraction, colour), best first.
_COLOURS = ((1.0, "brightgreen"), (0.9, "green"), (0.75, "yellowgreen"), (0.5, "orange"))


def badge(report: dict[str, Any], ruleset: str | None = None) -> dict[str, Any]:
    """The endpoint data for the whole run, or for one ruleset in it."""
    if ruleset is None:
        seed = report["verdict"]["rules"]["seed"]   # the claimed rulesets' count, once
        passed, total = seed.get("checked", seed["pass"]), seed["total"]
        chosen = report["settings"]["rulesets"]
        label = chosen[0] if len(chosen) == 1 else "conformance"
    else:
        tally = rule_counts(r for r in report["rules"] if r["ruleset"] == ruleset)["seed"]
        passed, total = tally["checked"], tally["total"]
        label = ruleset
    status = report["verdict"]["status"]
    if status == "not certified":
        return {"schemaVersion": 1, "label": label, "message": "engine could not be certified",
                "color": "red"}
    message = f"{passed}/{total} rules"
    if status == "partial":
        message = f"partial: {message} checked"
    if status == "no verdict":
        message = "no verdict: nothing checked"
    if not total or not report["complete"] or status == "no verdict":
        colour = "lightgrey"
    else:
        colour = next((c for least, c in _COLOURS if passed / total >= least), "red")
    if not report["complete"]:
        message += " (partial)"
    if report["verdict"].get("coverage", {}).get("filtered"):
        message += " (filtered)"
    return {"schemaVersion": 1, "label": label, "message": message, "color": colour}


def render(report: dict[str, Any]) -> str:
    return json.dumps(badge(report), ensure_ascii=False, indent=2) + "\n"
