"""phase.rs bug 2: an effect whose text names graveyards ("each land card in graveyards
becomes a 2/2 creature card") changes nothing there.

CR 609.2: "Effects apply only to permanents unless the instruction's text states
otherwise or they clearly can apply only to objects in one or more other zones."

Run: python docs/engines/phase-repro/bug2_graveyard_effect_does_nothing.py
(needs only ``pip install phase-python==0.103.0``)
"""

from _board import Board, card, verdict

ALTAR = card("Test Altar", "{0}: Until end of turn, each land card in graveyards becomes "
             "a 2/2 creature card in addition to its other types.", "Enchantment")
FOREST = card("Forest", "({T}: Add {G}.)", "Land", subtypes=("Forest",))
ISLAND = card("Island", "({T}: Add {U}.)", "Land", subtypes=("Island",))

b = Board([(0, "battlefield", ALTAR), (0, "graveyard", FOREST), (1, "graveyard", ISLAND)])
print(f"p1: {ALTAR['name']} ({ALTAR['text']}), a Forest in p1's graveyard; "
      "p2: an Island in p2's graveyard")
b.activate(0, ALTAR["name"])
b.resolve()
print("p1 activates the ability; it resolves")
seen = {}
for name in (FOREST["name"], ISLAND["name"]):
    o = b.obj(name)
    seen[name] = (o["card_types"]["core_types"], o["power"], o["toughness"])
    print(f"{name} in {o['zone']}: types {seen[name][0]}, power/toughness "
          f"{seen[name][1]}/{seen[name][2]}")
effects = b.game.state()["state"].get("transient_continuous_effects") or []
print(f"continuous effects in transient_continuous_effects: {len(effects)}")
print("CR 609.2: the text names graveyards, so both land cards there are 2/2 land "
      "creature cards until end of turn")
verdict(all(types == ["Land"] for types, _, _ in seen.values()),
        "an effect on land cards in graveyards changes nothing there",
        f"the graveyard cards' types {[t for t, _, _ in seen.values()]}, "
        "the CR's [Land, Creature] 2/2 each")
