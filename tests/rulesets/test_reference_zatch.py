"""The Zatch reference engine: it passes its catalogue, and every mutant is caught.

Each mutant (the engine with one rule broken, a data patch of the frozen
`Rules` record) must fail some catalogue case that the reference passes, and
for every seed rule it names, a case tagged with that rule must be among the
failures: a mutant is caught where the rule it breaks is checked.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import reference_engine
from conformance._catalogue import load_catalogue
from conformance._loading import load_engine
from conformance._runner import Runner
from conformance._settings import get_profile

ROOT = Path(__file__).parents[2]
CATALOGUE = load_catalogue(ROOT / "cases", ["zatch"])
CASES = [c for c in CATALOGUE.cases if c.ruleset == "zatch"]
MUTANTS = reference_engine.list_mutants("zatch")
SEED_KINDS = {r.id for r in CATALOGUE.rules.values() if r.kind in ("rule", "example")}


def runner(spec: str) -> Runner:
    run = Runner(CATALOGUE, load_engine(spec), spec, get_profile("quick"))
    run.handshake()
    return run


@cache
def failing_cases(spec: str) -> frozenset[str]:
    run = runner(spec)
    return frozenset(c.id for c in CASES if run.run_case(c).status != "pass")


def test_the_reference_engine_passes_every_zatch_case():
    assert not failing_cases("reference")


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_each_mutant_fails_a_case_tagged_with_each_seed_rule_it_breaks(mutant):
    failed = failing_cases(f"reference:{mutant.name}")
    assert failed, f"{mutant.name} behaves like the reference on every case"
    by_id = {c.id: c for c in CASES}
    tagged = {rule for cid in failed for rule in by_id[cid].rules}
    uncaught = [r for r in mutant.rules if r not in tagged]
    assert not uncaught, f"{mutant.name}: no failing case is tagged {uncaught}"


def test_every_seed_rule_has_three_mutants():
    counts = {rule: sum(rule in m.rules for m in MUTANTS) for rule in SEED_KINDS}
    assert {r: n for r, n in counts.items() if n < 3} == {}


def test_mutants_are_data_patches_of_known_switch_points():
    from reference_engine.zatch.rules import with_patch

    for mutant in MUTANTS:
        assert mutant.patch and with_patch(dict(mutant.patch)) is not None
    with pytest.raises(ValueError, match="unknown switch points"):
        with_patch({"no_such_rule": True})


def test_rule_modules_never_import_the_rules_record():
    """The record is injected (``game.rules``), so no rule module imports it back."""
    for path in (ROOT / "reference_engine" / "zatch").glob("*.py"):
        if path.name in ("rules.py", "mutants.py", "game.py", "__init__.py"):
            continue
        tree = ast.parse(path.read_text("utf-8"))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for a in node.names}
        assert "reference_engine.zatch.rules" not in imported, path.name
        assert "reference_engine.zatch.mutants" not in imported, path.name


def test_a_rejected_action_changes_nothing():
    engine = load_engine("reference")
    engine.start("zatch", {"p1": {"mp": 1, "field": [
        {"id": "a", "effect": {"cost": {"mp": 2}, "do": [{"damage": {"amount": 1}}]}}]}})
    before = engine.observe()
    reply = engine.act({"use": "a", "by": "p1"})
    assert reply["accepted"] is False and reply["events"] == []
    assert engine.observe() == before
