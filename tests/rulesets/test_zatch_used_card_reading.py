"""Where a card used from the hand goes is a reading, not the seed.

The seed never says where an event card, a jammer or a spell used from the hand
goes afterwards; `zatch/reading/used-card-to-discard` answers "its owner's 捨て札".
An engine that leaves such a card in the hand (the reference engine's mutant
``zatch-used-card-stays-in-hand``, behind the `perturbed` wrapper so the suite
cannot tell it from any other engine) follows every seed rule: no property fails it
(none is tagged with the reading; the seed-basis comparisons skip only where such a
card went), and only catalogue items tagged with the reading do.
"""

from __future__ import annotations

import perturbed
import pytest

from conformance._loading import InProcessEngine, load_engine
from conformance._runner import Runner
from conformance._settings import get_profile
from conformance._suite import Suite
from conformance.ruleset import Violation
from conformance.rulesets.zatch import expected as ex
from conformance.rulesets.zatch._checks import same

pytestmark = pytest.mark.slow

READING = "zatch/reading/used-card-to-discard"
MUTANT = "zatch-used-card-stays-in-hand"
SUITE = Suite.load(None, ["zatch"])


def stays_in_hand() -> Runner:
    engine = perturbed.Perturbed(None, MUTANT)
    run = Runner(SUITE.catalogue, InProcessEngine(lambda: engine, "python:perturbed:x"),
                 "python:perturbed:x", get_profile("quick"),
                 reference=lambda: load_engine("reference"))
    run.handshake()
    return run


@pytest.mark.parametrize("prop", SUITE.properties, ids=lambda p: p.id)
def test_no_property_fails_an_engine_keeping_used_cards_in_hand(prop):
    assert READING not in prop.rules
    result = stays_in_hand().run_property(prop)
    assert result.status == "pass", f"{result.message}\n{result.counterexample or ''}"


def test_only_items_tagged_with_the_reading_fail_it():
    run = stays_in_hand()
    failed = {case.id: case.rules for case in SUITE.catalogue.cases
              if run.run_case(case).status == "fail"}
    assert "zatch/reading-discard/used-hand-cards-go-to-discard" in failed
    assert all(READING in rules for rules in failed.values()), failed


# -- what the seed-basis comparison still holds to ---------------------------------------------

SETUP = {"p1": {"mp": 2, "hand": [{"id": "ev", "effect": {"do": []}},
                                  {"id": "ds", "effect": {"cost": {"discard_self": True}}}],
                "field": [{"id": "f", "effect": {"cost": {"mp": 1}}}]}}
STEPS = [{"do": {"use": c, "by": "p1"}} for c in ("ev", "ds", "f")]


def test_only_cards_used_from_the_hand_without_a_discard_cost_are_left_to_the_reading():
    assert ex.placed_by_reading(SETUP, STEPS) == {"ev"}


def paid() -> dict:
    state = ex.start(SETUP)
    for step in STEPS:
        cid = step["do"]["use"]
        state = ex.pay(state, cid, "p1", ex.card_of(SETUP, cid)[2]["effect"])
    return state


def test_the_comparison_skips_where_that_card_went_and_nothing_else():
    want = paid()
    kept = ex.move(want, "ev", "hand")        # the card stayed in the hand
    same(kept, want, 2, "x", seed=True, unplaced={"ev"})
    poorer = ex.copied(kept)
    poorer["players"]["p1"]["mp"] = 2         # the field card's MP not paid
    with pytest.raises(Violation, match="mp"):
        same(poorer, want, 2, "x", seed=True, unplaced={"ev"})
    undiscarded = ex.move(kept, "ds", "hand")  # its own cost discards it: the seed's
    with pytest.raises(Violation, match=r"ds\.zone") as caught:
        same(undiscarded, want, 2, "x", seed=True, unplaced={"ev"})
    # no pile is stated (its content is partly the reading's); the card's zone is
    assert caught.value.expect == {2: {"cards": {"ds": {"zone": "discard"}}}}
