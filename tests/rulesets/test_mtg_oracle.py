"""The mtg card language: each vocabulary construct has its sentence, and the real cards
the catalogue names are in the shipped card data and agree with the case objects."""

from __future__ import annotations

import pytest

from conformance._catalogue import load_catalogue
from conformance.rulesets.mtg import oracle

SENTENCES = [
    ({"damage": {"to": "opponent", "amount": 3}}, "X deals 3 damage to each opponent."),
    ({"damage": {"to": "self", "amount": 1}}, "X deals 1 damage to you."),
    ({"discard": {"player": "opponent", "count": 2}}, "Each opponent discards two cards."),
    ({"discard": {"player": "self", "count": 2}}, "Discard two cards."),
    ({"move_top": {"player": "self", "count": 1, "to": "graveyard"}}, "Mill a card."),
    ({"move_top": {"player": "self", "count": 2, "to": "exile"}},
     "Exile the top two cards of your library."),
    ({"become": {"filter": {"type": "land"}, "types": ["creature"], "power": 3,
                 "toughness": 3}},
     "Until end of turn, all lands become 3/3 creatures that are still lands."),
    ({"become": {"filter": {"type": "land", "zone": ["graveyard", "battlefield"]},
                 "types": ["creature"], "power": 2, "toughness": 2}},
     "Until end of turn, each land card in graveyards and each land on the battlefield "
     "becomes a 2/2 creature in addition to its other types."),
    ({"become": {"filter": {"card": "r1"}, "colors": ["green"]}},
     "Target permanent becomes green until end of turn."),
    ({"shield": {"to": "self", "choose": "r1", "from": {"color": "red"}}},
     "The next time a red source of your choice would deal damage to you this turn, "
     "prevent that damage."),
    ({"shield": {"to": "self", "from": {"type": "creature"}, "amount": 3}},
     "Prevent the next 3 damage that creatures would deal to you this turn."),
    ({"grant": "flash"}, "You may cast spells this turn as though they had flash."),
    ({"shield": {"to": "self", "your_choice": True}},
     "The next time a source of your choice would deal damage to you this turn, prevent that "
     "damage."),
]


@pytest.mark.parametrize(("instr", "sentence"), SENTENCES)
def test_each_instruction_has_its_sentence(instr, sentence):
    assert oracle.instruction(instr, "X") == sentence


def test_statics_read_as_real_cards_do():
    # Sphere of Resistance and Vedalken Orrery, word for word
    assert oracle.static_text({"cost_change": {"amount": 1}}) == \
        oracle.real_cards()["Sphere of Resistance"]["text"]
    assert oracle.static_text({"grant": "flash"}) == \
        oracle.real_cards()["Vedalken Orrery"]["text"]


def test_an_activated_ability_is_written_with_its_cost():
    text = [{"shield": {"to": "self", "your_choice": True, "from": {"color": "red"}}}]
    assert oracle.ability_text({"activated": {"cost": {"generic": 1}, "effect": text}}) == \
        oracle.real_cards()["Circle of Protection: Red"]["text"]
    assert oracle.ability_text({"activated": text}).startswith("{0}: The next time")


def test_mana_symbols_drop_zero_entries():
    assert oracle.mana_symbols({"generic": 0, "W": 1}) == "{W}"
    assert oracle.mana_symbols({"generic": 2, "R": 1}) == "{2}{R}"


def test_every_real_card_of_the_catalogue_is_shipped_and_agrees():
    """Each oracle_name names shipped card data with the case object's types, colours and
    mana cost, and its text holds what the object's abilities say."""
    catalogue = load_catalogue(rulesets=["mtg"])
    seen = 0
    for case in catalogue.cases:
        for side in ("p1", "p2"):
            for objs in (case.setup.get(side) or {}).values():
                for obj in objs if isinstance(objs, list) else []:
                    if not obj.get("oracle_name"):
                        continue
                    seen += 1
                    real = oracle.real_cards()[obj["oracle_name"]]
                    assert [t.lower() for t in real["types"]] == obj["types"]
                    assert real["manaCost"] == oracle.mana_symbols(obj["mana_cost"])
                    plain = dict(obj, oracle_name=None)
                    for line in oracle.rules_text(plain).splitlines():
                        static = line.replace(" this turn", "")
                        assert line in real["text"] or static in real["text"].replace(
                            " this turn", ""), (obj["id"], line)
    assert seen >= 14


def test_keyword_abilities_are_lines_and_mtgjson_keywords():
    """Oracle writes Flash and Haste first and Flashback last; MTGJSON also lists them in
    ``keywords`` (phase.rs parses a lone keyword line only through that list)."""
    obj = {"id": "c1", "name": "quick one", "types": ["creature"], "power": 3, "toughness": 3,
           "abilities": [{"keyword": "flashback", "cost": {"R": 1}}, {"keyword": "haste"},
                         {"keyword": "flash"}]}
    face = oracle.card(obj)
    assert face["text"].splitlines() == ["Haste", "Flash", "Flashback {R}"]
    assert face["keywords"] == ["Flash", "Flashback", "Haste"]
    assert "keywords" not in oracle.card({"id": "c2", "types": ["creature"]})
