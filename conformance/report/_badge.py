"""badge.json: a shields.io endpoint (https://shields.io/badges/endpoint-badge).

The message counts seed rules, exactly as the report's verdict does
(`conformance._verdict.verdict`): "41/52 rules" says how much of the rulebook
an engine follows.  Informative rules are left out (nothing to follow);
uncovered and skipped rules count against the engine, because a rule nobody
checked is not a rule it was certified on.  Readings and context entries are
not the seed and never enter the badge.  An engine that never started says
so instead of showing a count.
"""

from __future__ import annotations

import json
from typing import Any

from conformance._verdict import group

#: (minimum passing fraction, colour), best first.
_COLOURS = ((1.0, "brightgreen"), (0.9, "green"), (0.75, "yellowgreen"), (0.5, "orange"))


def badge(report: dict[str, Any], ruleset: str | None = None) -> dict[str, Any]:
    """The endpoint data for the whole run, or for one ruleset in it."""
    rules = [r for r in report["rules"] if r["kind"] != "informative"
             and group(r["kind"]) == "seed" and (ruleset is None or r["ruleset"] == ruleset)]
    passed = sum(r["status"] == "pass" for r in rules)
    if ruleset is None:
        chosen = report["settings"]["rulesets"]
        label = chosen[0] if len(chosen) == 1 else "conformance"
    else:
        label = ruleset
    status = report["verdict"]["status"]
    if status == "not certified":
        return {"schemaVersion": 1, "label": label, "message": "engine could not be certified",
                "color": "red"}
    message = f"{passed}/{len(rules)} rules"
    if status == "no verdict":
        message = "no verdict: nothing checked"
    if not rules or not report["complete"] or status == "no verdict":
        colour = "lightgrey"
    else:
        colour = next((c for least, c in _COLOURS if passed / len(rules) >= least), "red")
    if not report["complete"]:
        message += " (partial)"
    return {"schemaVersion": 1, "label": label, "message": message, "color": colour}


def render(report: dict[str, Any]) -> str:
    return json.dumps(badge(report), ensure_ascii=False, indent=2) + "\n"
