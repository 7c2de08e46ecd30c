"""The Vision properties: each has teeth.

Each property runs through the real runner (`Runner.run_property`) against
the reference engine (quick profile), where it must pass (test_pack_properties.py,
for every pack), and against mutants of the reference engine (ci profile) (the
engine with one rule broken, loaded with ``reference:<mutant>`` like any
engine), where it must fail with a counterexample that is a valid case whose
expectations the reference meets and the mutant does not.
"""

from __future__ import annotations

from typing import Any

import property_runs
import pytest

from conformance._loading import InProcessEngine, load_engine
from conformance._properties import Play
from conformance.rulesets.vision import PROPERTIES
from conformance.rulesets.vision.expected import power_after, refers_to

pytestmark = pytest.mark.slow

P = "vision/prop/"
BY_ID = {p.id: p for p in PROPERTIES}

#: Mutants each property must kill on the ci profile, all of them breaking a
#: rule the property is tagged with (so the kill counts in mutation analysis).
KILLS: dict[str, list[str]] = {
    P + "unnegatable-text-survives-negation": ["brackets-negated-with-text",
                                               "brackets-negated-by-negate-auto",
                                               "include-unnegatable-ignored"],
    P + "unnegatable-effect-can-be-negated": ["produced-effects-unnegatable"],
    P + "shuffle-iff-whole-deck-without-count": ["no-auto-shuffle", "shuffle-after-counted-reveal",
                                                 "shuffle-immediately",
                                                 "no-shuffle-before-other-effect"],
    P + "power-modifier-order": ["modifiers-in-arrival-order", "change-first-wins",
                                 "always-first"],
    P + "deathblow-conditions": ["deathblow-needs-excess-damage", "battle-flag-on-effect-damage",
                                 "deathblow-cause-is-controller"],
    P + "name-reference": ["name-ref-exact", "disguise-replaces-link-names"],
    P + "resolution-stops-at-failure": ["failed-part-continues", "all-zero-targets-fails",
                                        "all-fails-on-partial"],
    P + "x-is-nodes-paid": ["x-includes-modifier"],
    P + "metamorphic-players": ["all-sees-active-player-only"],
    P + "metamorphic-modifier-arrival": ["modifiers-in-arrival-order", "sets-share-last-layer"],
    P + "metamorphic-split-text": ["parts-applied-tail-first", "moves-applied-last"],
    P + "differential": ["x-includes-modifier"],
}

#: Properties no mutant of the reference breaks (no rule depends on what they vary);
#: each is shown failing on a plausibly broken engine below instead.
WITHOUT_MUTANT = {P + "metamorphic-card-ids", P + "metamorphic-unreferenced-cards"}

runner, as_case = property_runs.runner, property_runs.as_case


def test_every_property_is_tagged_and_has_mutants_to_kill():
    assert all(p.id.startswith(P) and p.ruleset == "vision" and p.rules for p in PROPERTIES)
    assert sorted([*KILLS, *WITHOUT_MUTANT]) == sorted(BY_ID)
    property_runs.assert_kills_break_their_rules("vision", KILLS, BY_ID)


@pytest.mark.parametrize(("prop_id", "mutant"),
                         [(p, m) for p, ms in sorted(KILLS.items()) for m in ms])
def test_fails_on_a_mutant(prop_id, mutant):
    property_runs.assert_kills(BY_ID[prop_id], mutant, profile="ci")


# -- a disagreement the deep profile found, fixed in the engine -------------------------
# (the same board is the catalogue case vision/qa-363/durability-cut-after-battle-damage)

SHRINK_AFTER_BATTLE = {
    "setup": {
        "p1": {"field": [{"id": "s1", "power": "3/3"}, {"id": "s2", "power": "2/2"},
                         {"id": "w1", "power": "0/9", "texts": [{
                             "kind": "auto",
                             "when": {"event": "deathblow_by_battle",
                                      "filter": {"controller": "opponent"}},
                             "effect": [{"draw": {"player": "self", "count": 1}}]}]}],
               "deck": [{"id": "k1", "power": "1/1"}, {"id": "k2", "power": "1/1"}]},
        "p2": {"field": [{"id": "t1", "power": "1/3", "name": "victim"}]},
    },
    "steps": [
        {"do": {"battle_damage": {"target": "t1", "amount": 1, "source": "s1"}}},
        {"do": {"resolve": {"by": "p1", "source": "s1", "effect": [
            {"power": {"target": {"card": "t1"}, "kind": "add", "durability": -2}}]}}},
    ],
}


def test_deathblow_from_a_durability_cut_is_not_by_battle():
    """QA-363 counts only a deathblow caused by battle damage; here an effect caused it."""
    play = Play(load_engine("reference"), "vision")
    BY_ID[P + "deathblow-conditions"].check(play, SHRINK_AFTER_BATTLE)


# -- the seed readings the properties compare against ------------------------------------

def test_name_reference_reads_12_3_1_example():
    assert refers_to(["符ノ壱“博麗 霊夢”"], "博麗 霊夢")
    assert not refers_to(["博麗神社"], "博麗 霊夢")
    assert refers_to(["B", "X", "Y"], "X")  # QA-2014-11-27: link names stay


def test_power_pipeline_order_and_last_change_wins():
    mods: list[dict[str, Any]] = [{"kind": "add", "attack": 1}, {"kind": "change", "attack": 5},
            {"kind": "change", "attack": 2, "durability": 4}, {"kind": "swap"}]
    assert power_after((1, 3), mods) == (5, 2)  # change 2/4, swap 4/2, add 5/2
    assert power_after((1, 3), [{"kind": "always", "durability": 7}, *mods]) == (5, 7)


# -- metamorphic properties with no mutant to kill: engines they catch ---------------------

class Adapted:
    """The reference engine behind an adapter that misreports one thing in observe()."""

    def __init__(self) -> None:
        self.inner = load_engine("reference")

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def observe(self):
        state = self.inner.observe()
        for side in state["players"].values():
            self.adjust(side)
        return state


class ListsSortedById(Adapted):
    """Lists each hand and field sorted by card id."""

    def adjust(self, side):
        side["hand"], side["field"] = sorted(side["hand"]), sorted(side["field"])


class DeckCountsGraveyard(Adapted):
    """Counts the 冥界 in deck_size."""

    def adjust(self, side):
        side["deck_size"] += len(side["graveyard"])


@pytest.mark.parametrize(("prop_id", "engine"),
                         [(P + "metamorphic-card-ids", ListsSortedById),
                          (P + "metamorphic-unreferenced-cards", DeckCountsGraveyard)])
def test_metamorphic_property_catches_a_broken_engine(prop_id, engine):
    from pathlib import Path

    from conformance._catalogue import Catalogue
    from conformance._runner import Runner
    from conformance._settings import get_profile

    catalogue = Catalogue(root=Path("cases"), rules={}, cases=[], errors=[], digest="")
    run = Runner(catalogue, InProcessEngine(engine, "python:broken"), "python:broken",
                 get_profile("quick"))
    run.handshake()
    assert run.run_property(BY_ID[prop_id]).status == "fail"
