"""The lines of the suite's card language the phase.rs adapter gives as phase.rs's own typed
data (its parser fails on them, its engine has the effect) are built as phase.rs's parser
builds the same effect on real cards, and phase.rs's engine does what they say.  Runs only
where the extra is installed (pip install '.[phase]')."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("phase")

import phase

from conformance.engines import phase as adapter
from conformance.engines.phase import cards
from conformance.rulesets.mtg import oracle

ROOT = Path(__file__).resolve().parents[2]


def parsed(text: str, types: tuple[str, ...] = ("artifact",)) -> Any:
    """phase.rs's own parse of one line on a card of the adapter's naming."""
    card = oracle.card({"id": "t", "name": "Conformance Test", "types": list(types)}, (text,))
    return phase.build_oracle_face(card, None)


def face(text: str) -> Any:
    """The adapter's face for the same card (its parse with the typed lines given)."""
    card = oracle.card({"id": "t", "name": "Conformance Test", "types": ["artifact"]},
                       (text,))
    return cards.face(json.dumps(card, sort_keys=True))


@pytest.mark.parametrize("grant", ["spend_as_any_type", "any_type_can_be_spent"])
def test_any_type_static_is_vizier_of_the_menagerie_for_all_spells(grant):
    line = oracle.GRANTS[grant]["static"]
    assert cards.parse_problems(parsed(line))          # the parser fails on it
    vizier = parsed("You can spend mana of any type to cast creature spells.")
    (want,) = vizier["static_abilities"]
    (orrery,) = parsed("You may cast spells as though they had flash.")["static_abilities"]
    # "spells": Vedalken Orrery's, with no controller (Vizier's filter names none)
    want["mode"]["SpendManaAsAnyColor"]["spell_filter"] = dict(orrery["affected"],
                                                               controller=None)
    want["description"] = line
    got = face(line)
    assert not cards.parse_problems(got)
    assert got["abilities"] == []
    assert got["static_abilities"] == [want]


def test_one_turn_cost_change_is_yawgmoths_will_granting_the_static():
    text = "{0}: " + oracle.instruction(
        {"cost_change": {"amount": 1, "filter": {"controller": "opponent"}}})
    assert text == "{0}: This turn, spells your opponents cast cost {1} more to cast."
    assert cards.parse_problems(parsed(text))
    (static,) = parsed("Spells your opponents cast cost {1} more to cast.",
                       ("enchantment",))["static_abilities"]
    will = parsed("{0}: Until end of turn, you may play lands and cast spells from your "
                  "graveyard.")["abilities"][0]["effect"]
    want = copy.deepcopy(will)
    want["static_abilities"][0]["modifications"][0]["definition"] = static
    got = face(text)
    assert not cards.parse_problems(got)
    (ability,) = got["abilities"]
    assert ability["effect"] == want
    assert ability["duration"] == "UntilEndOfTurn"


def test_a_one_turn_mana_concession_stays_a_gap():
    """phase.rs does not consult a player-granted any-type static in a payment."""
    text = "{0}: " + oracle.instruction({"grant": "any_type_can_be_spent"})
    problems = cards.parse_problems(face(text))
    assert problems and "no one-turn mana-spend permission" in problems[0]


def play(path: str, drop: tuple[str, str] | None = None) -> list[dict[str, Any]]:
    """The replies of a case's steps, played by the adapter; ``drop``: (player, zone) whose
    objects are left out of the setup (the control without the permission)."""
    case = yaml.safe_load((ROOT / "cases/mtg" / path).read_text("utf-8"))
    setup = copy.deepcopy(case["setup"])
    if drop:
        setup[drop[0]][drop[1]] = []
    engine = adapter.create()
    engine.start("mtg", setup)
    return [engine.act(step["do"]) for step in case["steps"]]


def test_the_any_type_static_is_what_lets_green_pay_for_red():
    path = "cr-609-4b-as-though-any-type-keeps-cost-and-spent-types.yaml"
    assert play(path)[0]["accepted"] is True
    assert play(path, drop=("p1", "battlefield"))[0]["accepted"] is False


def test_the_one_turn_cost_increase_raises_only_the_opponents_cost():
    replies = play("ex-609-2-2-resolved-cost-increase-for-opponents.yaml")
    assert [r["accepted"] for r in replies] == [True, False, True, True]
    assert "took {'R': 2}" in replies[1]["reason"]


def test_an_exiled_cards_ability_is_activated_by_phase_rs_rules():
    """phase.rs's list of legal actions omits exile; its own activation check decides."""
    path = "cr-609-7c-static-replacement-reaches-exiled-source.yaml"
    assert play(path)[1]["events"] == [
        {"type": "damage", "source": "x1", "to": "p1", "amount": 4, "combat": False}]
    assert play(path, drop=("p1", "battlefield"))[1]["events"] == [
        {"type": "damage", "source": "x1", "to": "p1", "amount": 2, "combat": False}]
