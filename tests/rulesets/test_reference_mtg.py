"""The reference MTG engine (rule 609), driven through the Engine protocol only.

Expected values come from the catalogue's cases, which quote the seed; this file
shows that the reference meets them, that every mutant breaks at least one case
tagged with *each* seed rule it claims to break (no mutant is equivalent, no
tag is decoration), and that the engine keeps its protocol promises.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from conformance import Unsupported
from conformance._catalogue import load_catalogue
from conformance._loading import load_engine
from conformance._runner import Runner
from conformance._settings import get_profile
from reference_engine import create_engine, list_mutants

CATALOGUE = load_catalogue(Path(__file__).parents[2] / "cases", ["mtg"])
MUTANTS = list_mutants("mtg")
SEED_KINDS = ("rule", "qa", "example")


@cache
def failing_cases(spec: str) -> frozenset[str]:
    """Ids of the mtg cases that fail on the engine ``spec``."""
    run = Runner(CATALOGUE, load_engine(spec), spec, get_profile("quick"))
    run.handshake()
    try:
        return frozenset(c.id for c in CATALOGUE.cases if run.run_case(c).status == "fail")
    finally:
        run.engine.close()


def test_the_reference_meets_every_case():
    assert not failing_cases("reference")


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_each_mutant_fails_a_case_tagged_with_each_seed_rule_it_breaks(mutant):
    failed = failing_cases(f"reference:{mutant.name}")
    for rule in mutant.rules:
        if CATALOGUE.rules[rule].kind not in SEED_KINDS:
            continue
        tagged = {c.id for c in CATALOGUE.cases if rule in c.rules}
        assert failed & tagged, f"{mutant.name} breaks {rule} but no case tagged with it fails"


def test_every_seed_rule_is_broken_by_at_least_three_mutants():
    for rule in CATALOGUE.rules.values():
        if rule.kind in SEED_KINDS:
            breakers = [m.name for m in MUTANTS if rule.id in m.rules]
            assert len(breakers) >= 3, (rule.id, breakers)


# -- protocol promises --------------------------------------------------------------------

RED = {"id": "r1", "types": ["creature"], "colors": ["red"], "power": 2, "toughness": 2}


def test_a_rejected_action_changes_nothing():
    engine = create_engine()
    engine.start("mtg", {"p1": {"mana": {"R": 1}, "hand": [
        {"id": "s1", "types": ["sorcery"], "mana_cost": {"R": 1}}]},
        "p2": {"graveyard": [dict(RED, id="g1")]}})
    before = engine.observe()
    reply = engine.act({"apply": {"by": "p1", "effect": [
        {"move_top": {"player": "self", "count": 1, "to": "graveyard"}},
        {"shield": {"to": "self", "choose": "g1"}}]}})
    assert reply == {"accepted": False, "reason": reply["reason"], "events": []}
    assert "609.7a" in reply["reason"]
    assert engine.observe() == before


@pytest.mark.parametrize("setup", [
    {"p3": {}}, {"p1": {"feild": []}}, {"phase": "upkeep"},
    {"p1": {"hand": [{"id": "a", "colour": "red"}]}},
    {"p1": {"hand": [{"id": "a"}], "library": [{"id": "a"}]}},
])
def test_a_board_outside_the_vocabulary_is_unsupported(setup):
    with pytest.raises(Unsupported):
        create_engine().start("mtg", setup)


def test_an_unknown_action_is_unsupported():
    engine = create_engine()
    engine.start("mtg", {})
    with pytest.raises(Unsupported):
        engine.act({"draw": {"player": "p1", "count": 1}})
    with pytest.raises(Unsupported):
        engine.act({"resolve": "bottom"})


def test_a_permanent_spell_keeps_its_id_and_its_caster_controls_it():
    engine = create_engine()
    engine.start("mtg", {"p1": {"mana": {"R": 1}, "hand": [
        dict(RED, mana_cost={"R": 1})]}})
    assert engine.act({"cast": "r1", "by": "p1", "pay": {"R": 1}})["accepted"]
    engine.act({"resolve": "top"})
    seen = engine.observe()["cards"]["r1"]
    assert (seen["zone"], seen["controller"], seen["power"]) == ("battlefield", "p1", 2)


def test_every_mutant_patches_only_known_switch_points():
    from reference_engine.mtg import rules

    for mutant in MUTANTS:
        assert rules.with_patch(dict(mutant.patch)) != rules.REFERENCE, mutant.name
