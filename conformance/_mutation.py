"""Mutation analysis: does the suite catch the engine with one rule broken?

An engine may list *mutants* in its hello (docs/protocol.md), each naming the
rule ids it breaks; each runs on the same connection (its name in the hello)
against the items tagged with those rules.  A mutant is *killed* when such an
item *fails*, *for* each of its rules the item is tagged with, and *caught by
the certification* when that item has basis seed (``certified_for``: the rules
such items are tagged with; a rule whose only kills are readings' or context
items' is killed for, not certified for).  An error is not a kill (a
crash is no verdict on the rule), nor is a difference from the reference
engine (a mutant of it differs by construction): those items are not run.
Once caught and killed for every rule the items left could add, the rest are
left out too, unless ``all_kills`` asks for the whole list of killers.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from conformance import _loading
from conformance._parallel import leave_interrupts_to_parent
from conformance._runner import Runner, Selection
from conformance._settings import Profile
from conformance._types import MutantRow, MutantSpec, Mutation

if TYPE_CHECKING:
    from conformance._catalogue import Case
    from conformance._properties import Property
    from conformance._suite import Suite


def list_mutants(rulesets: list[str] | None = None,
                 engine_spec: str = "reference") -> list[MutantSpec]:
    """The mutants the engine lists in its hello (``capabilities.mutants``), of
    ``rulesets`` (all when None): ``{"name", "ruleset", "rules", "description"}`` each.
    An engine that lists none is a usage error saying so."""
    mutants = _loading.list_mutants(_loading.connect(engine_spec), engine_spec)
    return [m for m in mutants if not rulesets or m["ruleset"] in rulesets]


def run_mutants(suite: Suite, rulesets: list[str] | None, profile: Profile,
                into: Mutation | None = None,
                on_mutant: Callable[[MutantRow], None] | None = None,
                jobs: int = 1, engine_spec: str = "reference",
                engine_options: dict[str, Any] | None = None,
                all_kills: bool = False,
                mutants: list[MutantSpec] | None = None,
                deadline: float = math.inf) -> Mutation:
    """Run each of the engine's mutants against the items tagged with the rules it breaks.

    With ``jobs`` > 1 in that many worker processes, forked with ``suite`` loaded.
    Rows are added to ``into`` (``{"mutants": [...], "score": ...}``) as they
    finish, so an interrupted run keeps the ones done.  ``mutants`` is what
    `list_mutants` gave, when the caller asked already (asking starts the engine).
    ``deadline`` (monotonic) is the run's: a mutant not started by then is a row with
    an ``error`` saying so (not killed), and a started one's items past it are not run,
    so a cut mutation never reads as a clean score.
    """
    result: Mutation = into if into is not None else {"mutants": [], "score": 1.0,
                                                      "certified_score": 1.0}
    rows = result["mutants"]
    if mutants is None:
        mutants = list_mutants(rulesets, engine_spec)
    order = {m["name"]: i for i, m in enumerate(mutants)}

    def record(row: MutantRow) -> None:
        rows.append(row)
        rows.sort(key=lambda r: order[r["name"]])
        result["score"] = sum(r["killed"] for r in rows) / len(rows)
        result["certified_score"] = sum(r.get("certified", False) for r in rows) / len(rows)
        if on_mutant is not None:
            on_mutant(row)

    job = functools.partial(_run_mutant, suite=suite, profile=profile, spec=engine_spec,
                            options=engine_options or {}, all_kills=all_kills,
                            deadline=deadline)
    if jobs <= 1 or len(mutants) <= 1:
        for mutant in mutants:
            record(job(mutant))
        return result
    global _WORKER_JOB
    _WORKER_JOB = job
    context = multiprocessing.get_context("fork")
    with context.Pool(min(jobs, len(mutants)), initializer=leave_interrupts_to_parent) as pool:
        try:
            for row in pool.imap_unordered(_run_in_worker, mutants):
                record(row)
        except KeyboardInterrupt:
            pool.terminate()
            raise
    return result


def _run_mutant(mutant: MutantSpec, *, suite: Suite, profile: Profile, spec: str,
                options: dict[str, Any], all_kills: bool,
                deadline: float = math.inf) -> MutantRow:
    """The mutant's row: the items tagged with its rules, run until nothing is left
    that could change the row (see the module docstring).  Whatever this mutant's run
    raises (an interrupt apart) is its row's ``error``, never the end of the others'."""
    def unrun(error: str) -> MutantRow:
        return {"name": mutant["name"], "ruleset": mutant["ruleset"], "rules": mutant["rules"],
                "killed": False, "killed_by": [], "killed_for": [], "certified_for": [],
                "certified": False, "error": error}

    if time.monotonic() > deadline:
        return unrun(f"not run: the run timeout ({profile.run_timeout:.0f} s) was reached "
                     "before this mutant; the mutation was cut")
    try:
        return _mutant_row(mutant, suite=suite, profile=profile, spec=spec, options=options,
                           all_kills=all_kills, deadline=deadline)
    except Exception as exc:
        return unrun(f"the mutant's run raised {type(exc).__name__}: {exc}")


def _mutant_row(mutant: MutantSpec, *, suite: Suite, profile: Profile, spec: str,
                options: dict[str, Any], all_kills: bool,
                deadline: float = math.inf) -> MutantRow:
    engine = _loading.connect(spec, mutant["name"], timeout=profile.timeout, **options)
    runner = Runner(suite.catalogue, engine, spec, profile,
                    Selection(rulesets=[mutant["ruleset"]], rules=mutant["rules"]),
                    properties=suite.properties)
    rules = set(mutant["rules"])
    killed_by: list[str] = []
    killed_for: set[str] = set()
    certified_for: set[str] = set()
    certified = False

    def pointless(item: Case | Property) -> bool:
        # a difference from the reference engine is never a kill; once caught, an item
        # that could add only a killer, not a rule certified for, is left out
        return item.compares_reference or (
            not all_kills and certified and not rules.intersection(item.rules) - certified_for)

    try:
        for result in runner.results(skip=pointless,
                                     deadline=None if deadline == math.inf else deadline):
            if result.status == "fail":
                killed_by.append(result.id)
                killed_for |= rules.intersection(result.rules)
                if result.basis == "seed":
                    certified = True
                    certified_for |= rules.intersection(result.rules)
    finally:
        engine.close()
    row: MutantRow = {"name": mutant["name"], "ruleset": mutant["ruleset"],
           "rules": mutant["rules"], "killed": bool(killed_by), "killed_by": killed_by,
           "killed_for": [rule for rule in mutant["rules"] if rule in killed_for],
           # the rules whose breaking a seed-basis item caught: what a rule's mutant
           # column counts (a kill by readings only is shown apart)
           "certified_for": [rule for rule in mutant["rules"] if rule in certified_for],
           # caught by an item the certification rests on: an engine with this
           # bug cannot certify `pass` (a reading's or context's kill cannot say so)
           "certified": certified}
    if runner.handshake_error:
        row["error"] = f"the mutant could not start: {runner.handshake_error}"
    return row


#: What forked workers inherit: every mutant's run but the mutant.
_WORKER_JOB: Callable[[MutantSpec], MutantRow] | None = None


def _run_in_worker(mutant: MutantSpec) -> MutantRow:
    assert _WORKER_JOB is not None
    return _WORKER_JOB(mutant)
