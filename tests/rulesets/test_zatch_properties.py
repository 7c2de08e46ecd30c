"""The Zatch properties: they pass on the reference engine, each has teeth, and their
generators reach the vocabulary their rules concern.

Each property runs through the real runner (quick profile) against the
reference engine, where it must pass (test_pack_properties.py, for every
pack), and against mutants, where it must fail with a counterexample that is
a valid case.  Generator coverage is tests/rulesets/test_zatch_generators.py.
The exhaustive mode walks every jammer chain up to depth 4.
"""

from __future__ import annotations

from typing import Any

import property_runs
import pytest

from conformance._engine import Connection
from conformance._loading import load_engine
from conformance._properties import Play
from conformance.rulesets.zatch import PROPERTIES, exhaustive

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
    P + "removal-removes-what-it-names": ["zatch-removal-does-nothing",
                                          "zatch-removal-either-kind", "zatch-removal-removes-all",
                                          "zatch-stay-not-kept", "zatch-stay-never-ends",
                                          "zatch-standby-never-fires",
                                          "zatch-standby-resolves-at-once"],
    P + "unnegatable-survives": ["zatch-unnegatable-ignored", "zatch-unnegatable-only-vs-battle"],
    P + "renaming-and-swapping-players": [],   # symmetric mutants: see the asymmetric engine below
}

runner = property_runs.runner


def test_every_property_is_tagged_and_listed():
    assert sorted(KILLS) == sorted(BY_ID)
    property_runs.assert_kills_break_their_rules("zatch", KILLS, BY_ID)


@pytest.mark.parametrize(("prop_id", "mutant"),
                         [(p, m) for p, ms in sorted(KILLS.items()) for m in ms])
def test_fails_on_a_mutant(prop_id, mutant):
    # the shared check: the counterexample is a case tagged like the property, whose
    # expectations (when the property derived some) the reference meets and the mutant
    # does not; without them it carries the placeholder that keeps it out of the catalogue
    property_runs.assert_kills(BY_ID[prop_id], mutant)


class ForgetsTheTurn(Connection):
    """An engine that reads a setup without ``turn`` as p1's turn but also drops a given
    ``turn``: asymmetric between the players, which the metamorphic property must see."""

    def __init__(self) -> None:
        self.inner = load_engine("reference")
        # the reference engine's bound methods stand in for all but start
        self.hello, self.act = self.inner.hello, self.inner.act  # type: ignore[method-assign]
        self.observe, self.close = self.inner.observe, self.inner.close  # type: ignore[method-assign]

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        self.inner.start(ruleset, {k: v for k, v in setup.items() if k != "turn"})


def test_swapping_players_catches_an_engine_that_favours_p1():
    run = runner("reference")
    run.engine = ForgetsTheTurn()
    result = run.run_property(BY_ID[P + "renaming-and-swapping-players"])
    assert result.status == "fail", result.message


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
