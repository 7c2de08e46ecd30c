"""The Zatch properties: they pass on the reference engine, each has teeth, and their
generators reach the vocabulary their rules concern.

Each property runs through the real runner (quick profile) against the
reference engine, where it must pass, and against mutants, where it must
fail with a counterexample that is a valid case.  The generator-coverage test
draws each property's scenarios at the default profile and fails if a feature
its rules concern is never generated.  The exhaustive mode walks every jammer
chain up to depth 4.
"""

from __future__ import annotations

import collections
from typing import Any

import property_runs
import pytest
from hypothesis import HealthCheck, event, given, settings

from conformance._loading import load_engine
from conformance._properties import Play
from conformance._settings import get_profile
from conformance.rulesets.zatch import PROPERTIES, exhaustive
from conformance.rulesets.zatch.strategies import features

pytestmark = pytest.mark.slow

P = "zatch/prop/"
BY_ID = {p.id: p for p in PROPERTIES if p.exhaustive is None}   # sampled by Hypothesis
EXHAUSTIVE = P + "jammer-chains-exhaustive"

#: Mutants each property must kill on the quick profile, each breaking a rule the
#: property is tagged with (so the kill counts in mutation analysis).
KILLS: dict[str, list[str]] = {
    P + "negation-restores-keeps-costs": [
        "zatch-negation-refunds-costs", "zatch-negated-not-used", "zatch-negation-keeps-result",
        "zatch-lasting-unjammable", "zatch-ordinary-resolves-late",
        "zatch-jammer-one-action-late", "zatch-any-jammer-negates-non-battle",
        "zatch-non-battle-resolves-late", "zatch-non-battle-resolves-at-own-next"],
    P + "jammer-chain-revives": ["zatch-jammer-on-jammer-no-revive", "zatch-jammer-unjammable"],
    P + "fired-effects-never-jammed": ["zatch-fired-standby-jammable", "zatch-on-field-jammable",
                                       "zatch-fired-effects-jammable",
                                       "zatch-standby-never-fires"],
    P + "jammer-exactly-right-after-opponent": ["zatch-jammer-any-time", "zatch-jammer-last-card",
                                                "zatch-jammer-own-action",
                                                "zatch-jammer-without-target"],
    P + "no-interrupts": ["zatch-interrupt-accepted"],
    P + "battle-and-non-battle-timing": ["zatch-battle-icon-ignored",
                                         "zatch-battle-effects-any-step",
                                         "zatch-any-effect-in-effect-step",
                                         "zatch-non-battle-sides-swapped",
                                         "zatch-non-battle-in-battle"],
    P + "non-battle-spell-never-enters-battle": ["zatch-non-battle-starts-battle",
                                                 "zatch-non-battle-any-battle-phase"],
    P + "attack-defense-after-won-contest": ["zatch-attack-resolves-at-once",
                                             "zatch-attack-resolves-without-win",
                                             "zatch-raises-ignored",
                                             "zatch-unnegatable-only-vs-jammers",
                                             "zatch-negated-spells-count",
                                             "zatch-attack-jammable-by-battle-jammer"],
    P + "cannot-use-never-undoes": ["zatch-cannot-use-undoes-lasting",
                                    "zatch-cannot-use-negates-last", "zatch-restriction-ignored"],
    P + "unnegatable-survives": ["zatch-unnegatable-ignored", "zatch-unnegatable-only-vs-battle"],
    P + "renaming-and-swapping-players": [],   # symmetric mutants: see the asymmetric engine below
}

#: The vocabulary features each property's generator must reach (the rules it concerns).
FEATURES: dict[str, set[str]] = {
    P + "negation-restores-keeps-costs": {
        "kind:ordinary", "effect:stay", "effect:standby", "cost:mp", "cost:discard_self",
        "do:damage", "do:mp", "do:cannot_use", "effect:jammer", "effect:usable_anyway",
        "action:pass"},
    P + "jammer-chain-revives": {"effect:jammer", "cost:mp", "cost:discard_self", "effect:stay",
                                 "effect:standby"},
    P + "fired-effects-never-jammed": {"kind:on_field", "effect:standby", "on_field:end_of_turn",
                                       "on_field:end_of_battle", "on_field:battle_in",
                                       "standby:end_of_turn", "standby:battle_in",
                                       "standby:end_of_battle", "action:end_turn",
                                       "action:battle_in", "action:next_step",
                                       "action:use.target"},
    P + "jammer-exactly-right-after-opponent": {"action:pass", "effect:jammer", "do:damage",
                                                "do:mp"},
    P + "no-interrupts": {"action:use.interrupt", "effect:jammer"},
    P + "battle-and-non-battle-timing": {"kind:ordinary", "kind:battle", "kind:attack",
                                         "kind:defense", "kind:non_battle_spell", "side:attack",
                                         "side:defense", "action:battle_in", "action:next_step",
                                         "action:end_turn"},
    P + "non-battle-spell-never-enters-battle": {"kind:non_battle_spell", "side:attack",
                                                 "side:defense", "action:battle_in"},
    P + "attack-defense-after-won-contest": {"kind:attack", "kind:defense", "kind:battle",
                                             "do:power", "do:negate_in_battle",
                                             "effect:unnegatable", "action:use.target"},
    P + "cannot-use-never-undoes": {"do:cannot_use", "effect:stay", "effect:standby",
                                    "stay:end_of_turn", "stay:end_of_battle"},
    P + "unnegatable-survives": {"effect:unnegatable", "effect:jammer", "cost:mp"},
    P + "renaming-and-swapping-players": {"kind:on_field", "kind:non_battle_spell",
                                          "effect:jammer", "action:end_turn", "do:cannot_use"},
}


runner = property_runs.runner


def test_every_property_is_tagged_and_listed():
    assert sorted(KILLS) == sorted(BY_ID) == sorted(FEATURES)
    property_runs.assert_kills_break_their_rules("zatch", KILLS, BY_ID)


@pytest.mark.parametrize("prop_id", sorted(BY_ID))
def test_passes_on_the_reference_engine(prop_id):
    property_runs.assert_passes(BY_ID[prop_id])


@pytest.mark.parametrize(("prop_id", "mutant"),
                         [(p, m) for p, ms in sorted(KILLS.items()) for m in ms])
def test_fails_on_a_mutant(prop_id, mutant):
    # the shared check: the counterexample is a case tagged like the property, whose
    # expectations (when the property derived some) the reference meets and the mutant
    # does not; without them it carries the placeholder that keeps it out of the catalogue
    property_runs.assert_kills(BY_ID[prop_id], mutant)


class ForgetsTheTurn:
    """An engine that reads a setup without ``turn`` as p1's turn but also drops a given
    ``turn``: asymmetric between the players, which the metamorphic property must see."""

    def __init__(self) -> None:
        self.inner = load_engine("reference")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        self.inner.start(ruleset, {k: v for k, v in setup.items() if k != "turn"})


def test_swapping_players_catches_an_engine_that_favours_p1():
    run = runner("reference")
    run.engine = ForgetsTheTurn()
    result = run.run_property(BY_ID[P + "renaming-and-swapping-players"])
    assert result.status == "fail", result.message


# -- generator coverage at the default profile ---------------------------------------------

COUNTS: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)


@pytest.mark.parametrize("prop_id", sorted(BY_ID))
def test_generators_reach_the_features_their_rules_concern(prop_id):
    profile = get_profile(None)

    @settings(max_examples=profile.max_examples, derandomize=True, database=None,
              deadline=None, suppress_health_check=list(HealthCheck))
    @given(BY_ID[prop_id].scenarios)
    def draw(scenario: dict[str, Any]) -> None:
        for feature in features(scenario):
            event(feature)
            COUNTS[prop_id][feature] += 1

    draw()
    missing = FEATURES[prop_id] - set(COUNTS[prop_id])
    assert not missing, f"{prop_id} never generated {sorted(missing)} in " \
                        f"{profile.max_examples} examples ({profile.name} profile)"


# -- the exhaustive mode -----------------------------------------------------------------------

def test_every_jammer_chain_up_to_depth_four_passes_on_the_reference():
    count, failures = exhaustive.run(Play(load_engine("reference"), "zatch"))
    assert count == 600
    assert not failures, failures[:3]


def test_the_exhaustive_walk_is_a_certification_item_with_its_count():
    prop = next(p for p in PROPERTIES if p.id == EXHAUSTIVE)
    run = runner("reference")
    result = run.run_property(prop)
    assert result.status == "pass" and result.message == "exhaustive: all 600 scenarios checked"
    broken = runner("reference:zatch-jammer-on-jammer-no-revive").run_property(prop)
    assert broken.status == "fail" and "of the exhaustive walk" in broken.message
    assert broken.counterexample


@pytest.mark.parametrize("mutant", ["zatch-jammer-on-jammer-no-revive",
                                    "zatch-negation-refunds-costs", "zatch-jammer-unjammable"])
def test_the_exhaustive_mode_catches_chain_mutants(mutant):
    _, failures = exhaustive.run(Play(load_engine(f"reference:{mutant}"), "zatch"), 2)
    assert failures
