"""Mutation analysis: does the suite catch the reference engine with one rule broken?

Each mutant of the reference engine names the rule ids it breaks.  A mutant is
*killed* when at least one case or property tagged with one of those rules
*fails* against it (and killed *for* each of its rules that a failing item is
tagged with: a rule's row counts only those), and that item is one a verdict may rest on (not a
comparison with the reference engine, which a mutant of the reference engine
fails by construction).  An engine error does not count: a crash is not a
verdict on the rule.  The mutants are what the engine lists in its ``hello``
reply (the ``mutants`` capability, docs/protocol.md); each is run through the
same adapter as any engine, selected as ``<spec>:<name>`` (``reference:NAME``).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from conformance._parallel import leave_interrupts_to_parent
from conformance._runner import Selection
from conformance._settings import Profile

if TYPE_CHECKING:
    from conformance._suite import Suite


def list_mutants(rulesets: list[str] | None = None,
                 engine_spec: str = "reference") -> list[dict[str, Any]]:
    """The mutants the engine lists in its hello (``capabilities.mutants``), of
    ``rulesets`` (all when None): ``{"name", "ruleset", "rules", "description"}`` each."""
    from conformance._loading import load_engine, mutants_of

    engine = load_engine(engine_spec)
    try:
        mutants = mutants_of(engine.hello(), engine_spec)
    finally:
        engine.close()
    return [m for m in mutants if not rulesets or m["ruleset"] in rulesets]


def run_mutants(suite: Suite, rulesets: list[str] | None, profile: Profile,
                into: dict[str, Any] | None = None,
                on_mutant: Callable[[dict[str, Any]], None] | None = None,
                jobs: int = 1) -> dict[str, Any]:
    """Run each mutant against the items tagged with the rules it breaks.

    The catalogue is the one in ``suite``, loaded once.  With ``jobs`` > 1 the
    mutants run in that many worker processes (forked, so each starts with the
    suite already loaded).  Rows are added to ``into`` (``{"mutants": [...],
    "score": ...}``) as they finish, so an interrupted run keeps the ones done;
    an interrupt inside a mutant's run is raised again as KeyboardInterrupt
    rather than moving on.
    """
    result: dict[str, Any] = into if into is not None else {"mutants": [], "score": 1.0,
                                                             "certified_score": 1.0}
    rows: list[dict[str, Any]] = result["mutants"]
    mutants = list_mutants(rulesets)
    order = {m["name"]: i for i, m in enumerate(mutants)}

    def record(row: dict[str, Any]) -> None:
        rows.append(row)
        rows.sort(key=lambda r: order[r["name"]])
        result["score"] = sum(r["killed"] for r in rows) / len(rows)
        result["certified_score"] = sum(r["certified"] for r in rows) / len(rows)
        if on_mutant is not None:
            on_mutant(row)

    if jobs <= 1 or len(mutants) <= 1:
        for mutant in mutants:
            record(_run_one(suite, profile, mutant))
        return result
    global _WORKER_STATE
    _WORKER_STATE = (suite, profile)
    context = multiprocessing.get_context("fork")
    with context.Pool(min(jobs, len(mutants)), initializer=leave_interrupts_to_parent) as pool:
        try:
            for row in pool.imap_unordered(_run_in_worker, mutants):
                record(row)
        except KeyboardInterrupt:
            pool.terminate()
            raise
    return result


def _run_one(suite: Suite, profile: Profile, mutant: dict[str, Any]) -> dict[str, Any]:
    """Run the items tagged with the mutant's rules against it: results, not a report."""
    from conformance._loading import load_engine
    from conformance._runner import Runner

    spec = f"reference:{mutant['name']}"
    engine = load_engine(spec, timeout=profile.timeout)
    runner = Runner(suite.catalogue, engine, spec, profile,
                    Selection(rulesets=[mutant["ruleset"]], rules=mutant["rules"]),
                    reference=lambda: load_engine("reference"), properties=suite.properties)
    try:
        runner.handshake()
        results = list(runner.results())
    finally:
        engine.close()
    killers = [r for r in results if r.status == "fail" and r.basis != "reference"]
    tagged = {rule for r in killers for rule in r.rules}
    return {"name": mutant["name"], "ruleset": mutant["ruleset"],
            "rules": mutant["rules"], "killed": bool(killers),
            "killed_by": [r.id for r in killers],
            "killed_for": [rule for rule in mutant["rules"] if rule in tagged],
            # caught by an item the certification rests on: an engine with this
            # bug cannot certify `pass` (a reading's or context's kill cannot say so)
            "certified": any(r.basis == "seed" for r in killers)}


#: What forked workers inherit: the loaded suite and the profile.
_WORKER_STATE: tuple[Suite, Profile] | None = None


def _run_in_worker(mutant: dict[str, Any]) -> dict[str, Any]:
    assert _WORKER_STATE is not None
    return _run_one(*_WORKER_STATE, mutant)
