"""Mutation analysis: does the suite catch the reference engine with one rule broken?

Each mutant of the reference engine names the rule ids it breaks.  A mutant is
*killed* when at least one case or property tagged with one of those rules
*fails* against it (an engine error does not count: a crash is not a verdict
on the rule).  The mutants are listed through the reference engine's public
``list_mutants``; they are run through the same adapter as any engine.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from conformance._settings import Profile


def list_mutants(rulesets: list[str] | None = None) -> list[dict[str, Any]]:
    import reference_engine

    return [
        {"name": m.name, "ruleset": m.ruleset, "rules": list(m.rules),
         "description": m.description}
        for m in reference_engine.list_mutants()
        if not rulesets or m.ruleset in rulesets
    ]


def run_mutants(cases_root: Path | None, rulesets: list[str] | None, profile: Profile,
                verbose: bool = False) -> dict[str, Any]:
    """Run each mutant against the items tagged with the rules it breaks."""
    from conformance._certify import RunConfig, certify
    from conformance._runner import Selection

    rows = []
    for mutant in list_mutants(rulesets):
        config = RunConfig(
            engine_spec=f"reference:{mutant['name']}", profile=profile, cases_root=cases_root,
            selection=Selection(rulesets=[mutant["ruleset"]], rules=mutant["rules"]))
        report = certify(config)
        killers = [r["id"] for r in report["results"] if r["status"] == "fail"]
        rows.append({"name": mutant["name"], "ruleset": mutant["ruleset"],
                     "rules": mutant["rules"], "killed": bool(killers), "killed_by": killers})
        if verbose:
            mark = "killed" if killers else "SURVIVED"
            print(f"{mutant['name']:32} {mark:8} {', '.join(killers[:3])}", file=sys.stderr)
    killed = sum(r["killed"] for r in rows)
    return {"mutants": rows, "score": killed / len(rows) if rows else 1.0}
