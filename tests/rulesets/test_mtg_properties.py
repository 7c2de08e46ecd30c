"""The MTG properties: they pass on the reference engine, each has teeth, and their
generators reach every trait their rules concern.

Each property runs through the real runner (`Runner.run_property`, quick profile)
against the reference engine, where it must pass (test_pack_properties.py, for every
pack), and against mutants (the
reference with one rule broken), where it must fail with a counterexample that
is a valid case whose expectations the reference meets and the mutant does not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import property_runs
import pytest
from hypothesis import HealthCheck, event, given, settings

from conformance._catalogue import Catalogue
from conformance._loading import InProcessEngine, load_engine
from conformance._runner import Runner
from conformance._settings import get_profile
from conformance.rulesets.mtg import PROPERTIES
from conformance.rulesets.mtg import strategies as S
from conformance.rulesets.mtg.expected import Shields, cast_is_legal, payment_is_legal

pytestmark = pytest.mark.slow

P = "mtg/prop/"
BY_ID = {p.id: p for p in PROPERTIES}

#: Mutants each property must kill on the quick profile, each breaking a rule the
#: property is tagged with (so the kill counts in mutation analysis).
KILLS: dict[str, list[str]] = {
    P + "shield-prevents-at-most-the-damage": ["zero-damage-uses-shield",
                                               "shield-used-without-preventing",
                                               "shield-stops-any-source"],
    P + "characteristic-checked-at-damage": ["characteristic-checked-at-creation",
                                             "next-time-shield-never-used-up"],
    P + "do-as-much-as-possible": ["discard-all-or-nothing", "library-move-impossible-rejected",
                                   "impossible-part-stops-rest"],
    P + "no-zone-means-permanents-only": ["become-reaches-every-zone",
                                          "land-animation-reaches-graveyard"],
    P + "as-though-permissions-combine": ["zone-permission-drops-flash", "latest-as-though-only",
                                          "flashback-needs-own-graveyard"],
    P + "any-type-payment-keeps-cost-and-types": ["any-type-recorded-as-replaced",
                                                  "any-type-rewrites-cost",
                                                  "any-type-can-be-spent-ignored"],
    P + "metamorphic-renaming-swapping-adding": [],   # see test_metamorphic_has_teeth
}

#: The traits each property's generator must reach at the default profile.
TRAITS: dict[str, set[str]] = {
    P + "shield-prevents-at-most-the-damage": {
        "shield:chosen", "shield:unchosen", "shield:limited", "shield:unlimited",
        "shield:numeric", "shield:next-time", "damage:zero", "damage:positive",
        "damage:combat", "damage:noncombat", "damage:to-p1", "damage:to-p2"},
    P + "characteristic-checked-at-damage": {
        "become:recolor", "shield:limited", "shield:chosen", "shield:unchosen",
        "damage:positive"},
    P + "do-as-much-as-possible": {"instruction:discard", "instruction:move_top",
                                   "zone:hand", "zone:library"},
    P + "no-zone-means-permanents-only": {
        "become:no-zone", "become:zone-named", "zone:battlefield", "zone:graveyard",
        "zone:hand", "zone:library", "zone:exile"},
    P + "as-though-permissions-combine": {
        "phase:main", "phase:combat", "grant:other_graveyards", "static:flash:p1",
        "static:flash:p2", "cast:flashback", "cast:normal", "zone:hand", "zone:graveyard"},
    P + "any-type-payment-keeps-cost-and-types": {
        "grant:spend_as_any_type", "grant:any_type_can_be_spent",
        "static:spend_as_any_type:p1", "static:any_type_can_be_spent:p1", "cast:normal"},
    P + "metamorphic-renaming-swapping-adding": {
        "relation:rename", "relation:swap_players", "relation:add_bystander",
        "shield:chosen", "instruction:discard", "become:no-zone"},
}


def test_every_property_is_tagged_and_its_mutants_break_its_rules():
    assert all(p.id.startswith(P) and p.ruleset == "mtg" and p.rules for p in PROPERTIES)
    assert sorted(KILLS) == sorted(BY_ID) == sorted(TRAITS)
    property_runs.assert_kills_break_their_rules("mtg", KILLS, BY_ID)


@pytest.mark.parametrize(("prop_id", "mutant"),
                         [(p, m) for p, ms in sorted(KILLS.items()) for m in ms])
def test_fails_on_a_mutant(prop_id, mutant):
    property_runs.assert_kills(BY_ID[prop_id], mutant)


class SeatBiased:
    """A plausible engine bug no oracle property looks for: life is read from the first
    seat's record, so p1 always shows 20.  Swapping the players exposes it."""

    def __init__(self) -> None:
        self.inner = load_engine("reference")

    def hello(self) -> dict[str, Any]:
        return self.inner.hello()

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        self.inner.start(ruleset, setup)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        return self.inner.act(action)

    def observe(self) -> dict[str, Any]:
        state = self.inner.observe()
        state["players"]["p1"]["life"] = 20
        return state

    def close(self) -> None:
        self.inner.close()


class ZeroDropping(SeatBiased):
    """An engine within the vocabulary: it writes mana costs without zero entries."""

    def observe(self) -> dict[str, Any]:
        state = self.inner.observe()
        for card in state["cards"].values():
            card["mana_cost"] = {t: n for t, n in card["mana_cost"].items() if n}
        return state


def test_payment_property_compares_costs_without_zero_entries():
    catalogue = Catalogue(root=Path("cases"), rules={}, cases=[], errors=[], digest="")
    run = Runner(catalogue, InProcessEngine(ZeroDropping, "zero-dropping"), "zero-dropping",
                 get_profile("certify"))
    run.handshake()
    result = run.run_property(BY_ID[P + "any-type-payment-keeps-cost-and-types"])
    assert result.status == "pass", result.message


@settings(max_examples=200, deadline=None)
@given(S.payment_scenarios())
def test_payment_scenarios_send_mana_in_canonical_form(scenario):
    """docs/rulesets/mtg.md: mana is sent with zero entries dropped (no ``{generic: 0}``),
    so an adapter parsing the documented form reads what the property sends (issue 41)."""
    card = scenario["setup"]["p1"]["hand"][0]
    cast = scenario["steps"][-1]["do"]
    for mana in (card["mana_cost"], cast["pay"], scenario["setup"]["p1"]["mana"]):
        assert all(n > 0 for n in mana.values()), mana


def test_metamorphic_has_teeth():
    catalogue = Catalogue(root=Path("cases"), rules={}, cases=[], errors=[], digest="")
    run = Runner(catalogue, InProcessEngine(SeatBiased, "seat-biased"), "seat-biased",
                 get_profile("certify"))
    run.handshake()
    result = run.run_property(BY_ID[P + "metamorphic-renaming-swapping-adding"])
    assert result.status == "fail", result.message
    assert "swap_players" in result.message


# -- generator coverage ----------------------------------------------------------------------

@pytest.mark.parametrize("prop", PROPERTIES, ids=[p.id for p in PROPERTIES])
def test_generators_reach_every_trait_their_rules_concern(prop):
    reached: set[str] = set()

    @settings(max_examples=get_profile("certify").max_examples, derandomize=True,
              database=None, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(prop.scenarios)
    def collect(scenario: dict[str, Any]) -> None:
        for trait in sorted(S.traits(scenario)):
            event(trait)
            reached.add(trait)

    collect()
    missing = TRAITS[prop.id] - reached
    assert not missing, f"{prop.id} never generates {sorted(missing)}"


# -- the oracle reads the seed -----------------------------------------------------------------

def test_shield_oracle_reads_609_7b():
    shields = Shields({"p2": {"battlefield": [
        {"id": "r1", "types": ["creature"], "colors": ["red"]}]}})
    assert shields.add({"to": "self", "choose": "r1", "from": {"color": "red"}})
    shields.recolor("r1", ["green"])
    assert shields.damage("r1", "p1", 3) == 0 and shields.in_force()  # not used up
    assert shields.damage("r1", "p1", 0) == 0 and shields.in_force()  # 0: nothing prevented
    shields.recolor("r1", ["red"])
    assert shields.damage("r1", "p1", 3) == 3 and not shields.in_force()


def test_permission_and_payment_oracles_read_609_4a_and_609_4b():
    fb = {"id": "s1", "types": ["sorcery"], "mana_cost": {"generic": 1, "R": 1},
          "abilities": [{"keyword": "flashback", "cost": {"generic": 2, "R": 1}}]}
    example: dict[str, Any] = {"setup": {"phase": "combat", "p1": {"battlefield": [S.ORRERY]},
                         "p2": {"graveyard": [fb]}},
               "steps": [S.apply([{"grant": "other_graveyards"}]),
                         {"do": {"cast": "s1", "by": "p1", "pay": {"R": 3},
                                 "flashback": True}}]}
    assert cast_is_legal(example)
    assert not cast_is_legal({**example, "steps": example["steps"][1:]})
    assert payment_is_legal({"generic": 1, "R": 1}, {"G": 2}, any_type=True)
    assert not payment_is_legal({"generic": 1, "R": 1}, {"G": 2}, any_type=False)
