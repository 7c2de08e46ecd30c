"""Every seed rule of the Vision index is pinned down by at least three mutants, and
each mutant is caught, for every rule it breaks, by a case or rule property tagged
with that rule: never only by the differential property (issue 9).

The per-rule table: ``python tests/support/vision_kills.py`` (killed/total per rule)
or ``python tests/support/vision_kills.py certify --mutants`` (which item caught which
mutant).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from vision_kills import killers, seed_rules, unexplained_reading_kills

import reference_engine
from conformance._mutation import run_mutants
from conformance._settings import get_profile
from conformance._suite import Suite

MUTANTS = reference_engine.list_mutants("vision")
READING_MUTANTS = [m.name for m in MUTANTS if any("/reading/" in r for r in m.rules)]


def test_every_seed_rule_has_three_mutants() -> None:
    per_rule = Counter(rule for m in MUTANTS for rule in m.rules)
    thin = {rule: per_rule[rule] for rule in seed_rules() if per_rule[rule] < 3}
    assert not thin, f"seed rules with fewer than three mutants: {thin}"


@pytest.mark.slow
@pytest.mark.parametrize("mutant", [m.name for m in MUTANTS])
def test_mutant_is_caught_by_an_item_of_each_rule_it_breaks(mutant: str) -> None:
    missed = [rule for rule, items in killers(mutant).items() if not items]
    assert not missed, f"{mutant} is caught by no item tagged {missed}"


def documented_reading_only_mutants() -> set[str]:
    """The mutants docs/rulesets/vision.md lists under "Mutants only a reading can catch"."""
    doc = (Path(__file__).parents[2] / "docs" / "rulesets" / "vision.md").read_text("utf-8")
    section = doc.split("### Mutants only a reading can catch", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([\w-]+)` \|", section, flags=re.M))


@pytest.mark.slow
def test_mutants_not_caught_by_the_certification_are_the_documented_ones() -> None:
    """Issue 30: a mutant only reading- or context-basis items kill leaves an engine
    with that bug certified; each such Vision mutant says why in the ruleset's doc."""
    result = run_mutants(Suite.load(None, ["vision"]), ["vision"], get_profile("quick"))
    uncaught = {m["name"] for m in result["mutants"] if not m["certified"]}
    assert uncaught == documented_reading_only_mutants()


@pytest.mark.slow
@pytest.mark.parametrize("mutant", READING_MUTANTS)
def test_a_seed_case_that_catches_a_reading_mutant_disowns_the_reading(mutant: str) -> None:
    """Issue 41: a seed-basis case catching a mutant of a reading relies on it unless
    it lists it under `not_relied_on` (qa-2013-11-13/durability-deathblow-not-by-the-card
    caught durability-modifier-is-cause while tagged with seed rules only)."""
    caught = {item for items in killers(mutant).values() for item in items}
    unexplained = unexplained_reading_kills(reference_engine.MUTANTS[mutant].rules, caught)
    assert not unexplained, (
        f"{mutant} breaks a reading, and these seed-basis cases catch it: {unexplained}; "
        "tag the reading if the case relies on it, else list it under not_relied_on")


def test_unexplained_reading_kills_names_the_seed_case_and_the_reading() -> None:
    """The check above can fail: a seed-basis case catching a reading's mutant is named
    with the reading it does not disown; a reading-basis case, one that disowns the
    reading, and a property are not."""
    cause = "vision/reading/deathblow-cause-is-direct-damage"
    caught = ["vision/qa-2013-11-13/zero-durability-cannot-be-returned",   # seed basis
              "vision/qa-2013-11-13/durability-deathblow-not-by-the-card",  # tags it
              "vision/prop/deathblow"]
    assert unexplained_reading_kills(["vision/QA-2013-11-13", cause], caught) == {
        "vision/qa-2013-11-13/zero-durability-cannot-be-returned": [cause]}
    assert unexplained_reading_kills(
        ["vision/IR-12/p2", "vision/reading/short-draw-discard-does-nothing"],
        ["vision/ir-12-p2/failed-discard-stops-draw"]) == {}   # listed under not_relied_on
    assert unexplained_reading_kills(
        ["vision/IR-12/p2"], ["vision/ir-12-p2/chosen-list-one-immune"]) == {}  # no reading
