"""The Zatch strategies reach the vocabulary their properties' rules are about.

The same check as tests/rulesets/test_vision_generators.py, with the shared helpers of
tests/support/property_runs.py: for every rule a Zatch property is tagged with,
`RULE_TRAITS` names the traits (see
`conformance.rulesets.zatch.strategies.traits`) a fair test of that rule must
meet, and every property tagged with the rule must generate each of them at
least once at the `certify` profile (60 examples, derandomized as a run draws).

At the `ci` profile (30 examples) the same holds except where `CI_NEVER` says
(docs/rulesets/zatch.md lists both).  The properties record the traits as
Hypothesis events during a run.  Print the counts:
``PYTHONPATH=tests/support python tests/rulesets/test_zatch_generators.py [PROFILE]``.
"""

from __future__ import annotations

import sys

import pytest
from property_runs import never_generated, print_counts

from conformance._properties import Property
from conformance.rulesets.zatch import PROPERTIES
from conformance.rulesets.zatch.strategies import traits

Z = "zatch/"
NEGATION = {"effect:jammer", "cost:mp", "cost:discard_self", "do:damage", "do:mp",
            "do:discard", "do:remove"}
FIRED_AT = {"standby:end_of_turn", "standby:battle_in", "standby:end_of_battle"}
ON_FIELD_AT = {"on_field:end_of_turn", "on_field:end_of_battle", "on_field:battle_in"}
BATTLE = {"action:battle_in", "action:next_step"}
KINDS = {"kind:ordinary", "kind:battle", "kind:attack", "kind:defense", "kind:non_battle_spell"}

#: rule id -> the traits every property checking that rule must generate.
RULE_TRAITS: dict[str, set[str]] = {
    # jammer •2: a negation puts back what the effect did (damage, MP, a discarded card, a
    # removed stay or standby) and keeps both kinds of cost paid
    Z + "jammer.2": NEGATION,
    Z + "jammer.5": {"effect:jammer", "cost:mp", "do:discard", "do:remove"},
    Z + "use-most.1": {"kind:ordinary", "do:damage", "do:mp", "do:discard", "do:remove"},
    Z + "use-most.2": {"effect:stay", "effect:standby", "action:pass"},
    Z + "stay.2": {"effect:stay", "stay:end_of_turn", "stay:end_of_battle"},
    Z + "standby.2": {"effect:standby"},
    Z + "usable-anyway.2": {"effect:usable_anyway"},
    Z + "nonbattle.4": {"kind:non_battle_spell"},
    # nonbattle •6: the right jammer negates a spell; the plain one cannot, and a spell
    # jammer negates nothing else
    Z + "nonbattle.6": {"negation:non_battle_spells-vs-non_battle_spell",
                        "negation:effects-vs-non_battle_spell",
                        "negation:non_battle_spells-vs-ordinary"},
    Z + "reading/jammer-right-after": {"effect:jammer", "action:pass"},
    Z + "jammer.def": {"effect:jammer", "action:pass"},
    Z + "jammer.1": {"effect:jammer", "action:pass"},
    Z + "negate.1": {"effect:jammer"},
    Z + "negate.2": {"effect:jammer", "action:pass"},
    Z + "jammer.3": {"kind:on_field", "effect:standby", "action:use.target"},
    Z + "standby.3": FIRED_AT | {"action:use.target"},
    Z + "on-field.2": ON_FIELD_AT | {"action:use.target"},
    # on-field •1: effects of cards on the field fire; one in a hand or discard pile never does
    Z + "on-field.1": {"kind:on_field", "action:end_turn", "on_field:off-field"} | BATTLE,
    Z + "standby.1": {"effect:standby", "standby:end_of_turn", "action:end_turn"},
    Z + "interrupt.1": {"action:use.interrupt", "effect:jammer"},
    Z + "interrupt.ex1": {"action:use.interrupt"},
    Z + "battle.2": KINDS | BATTLE,
    Z + "battle.3": {"kind:battle"} | BATTLE,
    Z + "battle.note": KINDS | BATTLE,
    Z + "nonbattle.2": {"kind:non_battle_spell", "side:attack", "side:defense"},
    Z + "nonbattle.3": {"kind:non_battle_spell"} | BATTLE,
    Z + "nonbattle.5": {"kind:non_battle_spell", "action:battle_in"},
    Z + "reading/battle-steps": {"kind:attack", "kind:defense", "kind:battle"} | BATTLE,
    Z + "reading/plain-effects-outside-battle": {"kind:ordinary", "action:battle_in"},
    Z + "reading/either-player-advances": {"action:next_step"} | KINDS,
    Z + "reading/end-of-battle-stay-outside-battle": {"stay:end_of_battle"},
    Z + "use-attack.1": {"kind:attack", "kind:defense", "do:damage"},
    Z + "use-attack.2": {"do:power"},
    Z + "use-attack.3": {"action:use.target", "effect:jammer"},
    Z + "use-attack.4": {"do:negate_in_battle"},
    Z + "unnegatable.1": {"effect:unnegatable", "effect:jammer"},
    Z + "reading/contest-winner": {"effect:power", "do:power"},
    # cannot •1: a restriction naming its player and one leaving it to the default (the
    # opponent); the 使えない property also names jammers (PROPERTY_TRAITS)
    Z + "cannot.1": {"do:cannot_use", "cannot_use:default-player"},
    Z + "cannot.2": {"do:cannot_use", "effect:stay", "effect:standby"},
    Z + "reading/lasting-in-force": {"effect:stay", "effect:standby", "stay:end_of_turn"},
    # stay •3, standby •4: a removal of each kind, and one naming the kind the card lacks
    Z + "stay.3": {"do:remove", "remove:stay", "remove:other-kind"},
    Z + "standby.4": {"do:remove", "remove:standby", "remove:other-kind"},
    Z + "stay.1": {"effect:stay", "stay:end_of_turn", "action:end_turn"},
}

#: Traits one property must reach besides its rules': the 使えない property tries a jammer
#: under a restriction naming jammers; the metamorphic property mixes the other strategies,
#: fair only if it draws from each family (on-field effects, spells, jammers, turn ends,
#: restrictions) whatever its rules.
PROPERTY_TRAITS: dict[str, set[str]] = {
    "zatch/prop/cannot-use-never-undoes": {"cannot_use:jammers", "effect:jammer"},
    "zatch/prop/renaming-and-swapping-players": {
        "kind:on_field", "kind:non_battle_spell", "effect:jammer", "action:end_turn",
        "do:cannot_use", "action:use.target"}}

#: Sampled by Hypothesis (the exhaustive walk draws nothing).
CHECKED = [p for p in PROPERTIES if p.exhaustive is None]

#: (property id, trait) never generated at the `ci` profile (30 examples): a plain
#: jammer answering a non-battle spell (refused, nonbattle •6) is drawn once in about 12.
CI_NEVER: set[tuple[str, str]] = {
    ("zatch/prop/negation-restores-keeps-costs", "negation:effects-vs-non_battle_spell")}


def test_every_rule_of_a_property_names_its_traits() -> None:
    missing = sorted({r for p in CHECKED for r in p.rules} - set(RULE_TRAITS))
    assert not missing, f"add these rules to RULE_TRAITS: {missing}"


@pytest.mark.parametrize("prop", CHECKED, ids=[p.id for p in CHECKED])
def test_generators_reach_the_traits_of_their_rules(prop: Property) -> None:
    # The certification's default profile (`certify`, 60 examples), also under CI=true.
    wanted = {**RULE_TRAITS, prop.id: PROPERTY_TRAITS.get(prop.id, set())}
    never = never_generated(prop, traits, wanted, "certify", extra=[prop.id])
    assert not never, f"{prop.id} never generated, at the certify profile: {never}"


@pytest.mark.parametrize("prop", CHECKED, ids=[p.id for p in CHECKED])
def test_what_the_ci_profile_misses_is_written_down(prop: Property) -> None:
    wanted = {**RULE_TRAITS, prop.id: PROPERTY_TRAITS.get(prop.id, set())}
    never = never_generated(prop, traits, wanted, "ci", extra=[prop.id])
    missed = {(prop.id, f) for feats in never.values() for f in feats}
    assert missed == {m for m in CI_NEVER if m[0] == prop.id}


def main(argv: list[str]) -> int:
    print_counts(CHECKED, traits, argv[0] if argv else None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
