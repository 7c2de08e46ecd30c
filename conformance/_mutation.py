"""Mutation analysis: does the suite catch the reference engine with one rule broken?

Each mutant of the reference engine names the rule ids it breaks.  A mutant is
*killed* when at least one case or property tagged with one of those rules
*fails* against it, and that item is one a verdict may rest on (not a
comparison with the reference engine, which a mutant of the reference engine
fails by construction).  An engine error does not count: a crash is not a
verdict on the rule.  The mutants are listed through the reference engine's
public ``list_mutants``; they are run through the same adapter as any engine.
"""

from __future__ import annotations

from collections.abc import Callable
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
                into: dict[str, Any] | None = None,
                on_mutant: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Run each mutant against the items tagged with the rules it breaks.

    Rows are added to ``into`` (``{"mutants": [...], "score": ...}``) as they
    finish, so an interrupted run keeps the ones done; an interrupt inside a
    mutant's run is raised again as KeyboardInterrupt rather than moving on.
    """
    from conformance._certify import RunConfig, certify
    from conformance._runner import Selection

    result = into if into is not None else {"mutants": [], "score": 1.0}
    rows = result["mutants"]
    for mutant in list_mutants(rulesets):
        config = RunConfig(
            engine_spec=f"reference:{mutant['name']}", profile=profile, cases_root=cases_root,
            selection=Selection(rulesets=[mutant["ruleset"]], rules=mutant["rules"]))
        report = certify(config)
        if not report["complete"]:
            raise KeyboardInterrupt
        killers = [r["id"] for r in report["results"]
                   if r["status"] == "fail" and r["basis"] != "reference"]
        row = {"name": mutant["name"], "ruleset": mutant["ruleset"],
               "rules": mutant["rules"], "killed": bool(killers), "killed_by": killers}
        rows.append(row)
        result["score"] = sum(r["killed"] for r in rows) / len(rows)
        if on_mutant is not None:
            on_mutant(row)
    return result
