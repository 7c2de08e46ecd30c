"""badge.json: a shields.io endpoint (https://shields.io/badges/endpoint-badge).

The badge says what the verdict says (`conformance._verdict.verdict`), and its
message says what it counts: seed rules of the rulesets the engine claims,
*checked* (every item tagged with the rule ran) and passing.

=====================  =========================================  ===========
verdict                message                                    colour
=====================  =========================================  ===========
pass                   ``104/104 seed rules``                     brightgreen
partial                ``partial: 3/33 seed rules checked``       yellow (half checked) or orange
fail                   ``fail: 41/52 seed rules checked``         red
error                  ``error: 41/52 seed rules checked``        red
no verdict             ``no verdict: nothing checked``            lightgrey
not certified          ``engine could not be certified``          red
interrupted            ``... (partial)``                          lightgrey
=====================  =========================================  ===========

A pass or partial run that exits 1 under ``--fail-under`` is red, as its gate
is.  "(filtered)" says a filter left items out.  Informative rules are left
out (nothing to follow); uncovered and skipped rules count against the engine,
because a rule nobody checked is not a rule it was certified on.  Readings and
context entries are not the seed and never enter the badge.  A badge for one
ruleset of the run (``badge(report, ruleset)``) judges that ruleset's seed
rules the same way.
"""

from __future__ import annotations

import json
from typing import Any

from conformance._types import ReportDict
from conformance._verdict import rule_counts

#: A partial run with at least this fraction of its seed rules checked is yellow.
YELLOW_FROM = 0.5


def badge(report: ReportDict, ruleset: str | None = None) -> dict[str, Any]:
    """The endpoint data for the whole run, or for one ruleset in it."""
    verdict = report["verdict"]
    status = verdict["status"]
    if ruleset is None:
        seed = verdict["rules"]["seed"]   # the claimed rulesets' count, once
        passed, total = seed.get("checked", seed["pass"]), seed["total"]
        chosen = report["settings"]["rulesets"]
        label = chosen[0] if len(chosen) == 1 else "conformance"
    else:
        tally = rule_counts(r for r in report["rules"] if r["ruleset"] == ruleset)["seed"]
        passed, total = tally["checked"], tally["total"]
        label = ruleset
        if status in ("pass", "partial", "fail", "error"):   # this ruleset's own
            status = ("fail" if tally["fail"] else "error" if tally["error"]
                      else "pass" if total and passed == total else "partial")
    if status == "not certified":
        return {"schemaVersion": 1, "label": label, "message": "engine could not be certified",
                "color": "red"}
    counted = f"{passed}/{total} seed rules"
    if status == "pass":
        message, colour = counted, "brightgreen"
    elif status == "partial":
        message = f"partial: {counted} checked"
        colour = "yellow" if total and passed / total >= YELLOW_FROM else "orange"
    elif status in ("fail", "error"):
        message, colour = f"{status}: {counted} checked", "red"
    elif status == "no verdict":
        message, colour = "no verdict: nothing checked", "lightgrey"
    else:   # interrupted
        message, colour = counted, "lightgrey"
    if status in ("pass", "partial") and verdict["exit_code"] != 0 and ruleset is None:
        colour = "red"   # below --fail-under: the gate fails
    if not total:
        colour = "lightgrey"
    if not report["complete"]:
        message += " (partial)"
        colour = "lightgrey"
    if verdict.get("coverage", {}).get("filtered"):
        message += " (filtered)"
    return {"schemaVersion": 1, "label": label, "message": message, "color": colour}


def render(report: ReportDict) -> str:
    return json.dumps(badge(report), ensure_ascii=False, indent=2) + "\n"
