"""The Vision strategies reach the vocabulary their properties' rules are about.

A property is only as strong as what it generates.  For every rule a property
is tagged with, `RULE_TRAITS` names the traits (see
`conformance.rulesets.vision.traits`) a fair test of that rule must meet;
this test draws each property's scenarios as the default profile does
(derandomized, the same number of examples) and fails when one of them is
never generated.

Print the counts:
``PYTHONPATH=tests/support python tests/rulesets/test_vision_generators.py [PROFILE]``.
The properties also record them as Hypothesis events during a run.
"""

from __future__ import annotations

import sys

import pytest
from property_runs import never_generated, print_counts

from conformance._properties import Property
from conformance.rulesets.vision import PROPERTIES
from conformance.rulesets.vision.traits import traits

V = "vision/"
RESOLUTION = {"instr:damage", "instr:return_to_hand", "instr:draw", "instr:discard"}
POWER_KINDS = {"power:change", "power:swap", "power:add", "power:always"}
DECK = {"instr:reveal", "instr:look", "reveal:count", "reveal:all", "reveal:until"}

#: rule id -> the traits a property checking that rule must generate.
RULE_TRAITS: dict[str, set[str]] = {
    V + "IR-12/p1": RESOLUTION | {"fail:none"},
    V + "IR-12/p2": RESOLUTION | {"fail:first", "fail:middle", "fail:last", "sel:card",
                                  "sel:chosen-1", "sel:chosen-many", "sel:this"},
    V + "IR-12/p3": {"sel:all-1", "sel:all-many"},
    V + "IR-12/p4": {"sel:all-0"},
    V + "reading/what-cannot-be-applied": {"sel:chosen-many", "sel:card", "zone:hand"},
    V + "reading/short-draw-discard-does-nothing": {"instr:draw", "instr:discard"},
    V + "reading/all-with-every-card-failing": {"sel:all-many"},
    V + "IR-12.3": {"filter:name_ref", "link-names"},
    V + "IR-12.3.1": {"filter:name_ref", "link-names", "renamed", "field:p1", "field:p2"},
    V + "ex-12.3.1": {"filter:name_ref"},
    V + "IR-12.3.2": {"filter:same_name_as", "link-names", "renamed"},
    V + "reading/same-name-any-name-exactly": {"filter:same_name_as", "link-names"},
    V + "QA-2014-11-27": {"link-names", "renamed"},
    V + "QA-269": {"action:play", "modifier:cost:p1", "modifier:cost:p2"},
    V + "IR-6.1.10": POWER_KINDS | {"power:x", "modifiers:continuous+instruction"},
    V + "IR-6.1.10.a": {"power:change"},
    V + "IR-6.1.10.b": {"power:swap", "power:swap-repeated"},
    V + "IR-6.1.10.c": {"power:add", "power:add-repeated", "power:negative-add"},
    V + "IR-6.1.10.d": {"power:always", "power:always-repeated"},
    V + "QA-298": {"power:change-repeated"},
    V + "QA-356": {"power:x", "modifiers:continuous+instruction"},
    V + "IR-9.2.2": {"action:battle_damage", "instr:damage", "instr:deathblow", "instr:power"},
    V + "IR-9.2.2.a": {"action:battle_damage", "instr:damage"},
    V + "IR-9.2.2.b": {"instr:power"},
    V + "IR-9.2.2.c": {"instr:deathblow"},
    V + "IR-1.10.12.f": {"action:battle_damage", "instr:damage"},
    V + "QA-363": {"action:battle_damage", "trigger:deathblow_by_battle", "instr:deathblow"},
    V + "IR-2.12.3": {"instr:negate_text", "clause:auto", "clause:continuous"},
    V + "IR-12.4": {"clause:unnegatable", "negate:including-unnegatable", "negation:repeated"},
    V + "IR-12.4/p1": {"clause:unnegatable", "instr:negate_text"},
    V + "QA-020": {"instr:negate_auto", "clause:unnegatable"},
    V + "IR-12.4/p2": {"instr:negate_effect", "clause:unnegatable", "trigger:targeted"},
    V + "IR-12.4/supplement": {"instr:negate_effect", "trigger:targeted"},
    V + "QA-102": {"instr:negate_effect", "action:play"},
    V + "IR-3.2.5": DECK | {"instr:shuffle", "deck:p1", "deck:p2", "deck-of:self",
                            "deck-of:opponent", "trigger:would_deathblow", "action:draw"},
    V + "IR-3.2.5.a": {"reveal:count", "reveal:until"},
    V + "IR-3.2.5.b": {"reveal:count", "reveal:all", "reveal:until"},
    V + "reading/shuffle-timing": {"instr:shuffle", "trigger:would_deathblow", "action:draw"},
    V + "reading/counted-reveal-reveals-what-is-there": {"reveal:count"},
    V + "reading/always-sets-the-value": {"power:always", "power:always-repeated"},
    V + "reading/variable-counted-when-power-is-computed": {"power:x"},
    V + "reading/deathblow-cause-is-direct-damage": {"action:battle_damage", "instr:power"},
    V + "reading/deathblow-checked-after-each-instruction": {"instr:return_to_hand",
                                                             "instr:deathblow"},
}

#: Not judged on rules (issue 7 makes it a bug finder): its strategy is every other one.
UNCHECKED = {V + "prop/differential"}


CHECKED = [p for p in PROPERTIES if p.id not in UNCHECKED]


def test_every_rule_of_a_property_names_its_traits() -> None:
    missing = sorted({r for p in CHECKED for r in p.rules} - set(RULE_TRAITS))
    assert not missing, f"add these rules to RULE_TRAITS: {missing}"


@pytest.mark.parametrize("prop", CHECKED, ids=[p.id for p in CHECKED])
def test_generators_reach_the_traits_of_their_rules(prop: Property) -> None:
    # The certification's default profile (`certify`, 60 examples), also when the
    # tests run under CI=true (where the default is `ci`, 30 examples).
    never = never_generated(prop, traits, RULE_TRAITS, "certify")
    assert not never, f"{prop.id} never generated, at the certify profile: {never}"


def main(argv: list[str]) -> int:
    print_counts(CHECKED, traits, argv[0] if argv else None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
