"""phase.rs bug 4: a card that left the battlefield is still the chosen permanent: a
shield on a creature chosen on the battlefield prevents damage its card deals from the
graveyard (phase.rs keeps one object id across the zone change).

CR 400.7: "An object that moves from one zone to another becomes a new object with no
memory of or relation to its previous existence."  CR 609.7a: "If the player chooses a
permanent, the effect will apply to the next damage dealt by that permanent ..."

Run: python docs/engines/phase-repro/bug4_new_object_still_chosen.py
(needs only ``pip install phase-python==0.103.0``)
"""

from _board import Board, card, verdict

COP = card("Circle of Protection: Red", "{1}: The next time a red source of your choice "
           "would deal damage to you this turn, prevent that damage.", "Enchantment", "W",
           "{1}{W}")
PLAINS = card("Plains", "({T}: Add {W}.)", "Land", subtypes=("Plains",))
EMBER = card("Test Ember", "{0}: Sacrifice Test Ember.\n{0}, Exile Test Ember from your "
             "graveyard: Test Ember deals 2 damage to each opponent.", "Creature", "R", "{R}",
             (2, 2))

b = Board([(0, "battlefield", COP), (0, "battlefield", PLAINS), (1, "battlefield", EMBER)])
print(f"p1: Circle of Protection: Red, Plains; p2: {EMBER['name']} (red 2/2: "
      f"{EMBER['text']!r})")
b.activate(0, COP["name"])
b.resolve(source=EMBER["name"])
print(f"p1 activates Circle of Protection: Red and chooses {EMBER['name']} (object "
      f"{b.id[EMBER['name']]}) on the battlefield")
b.activate(1, EMBER["name"], 0)
b.resolve()
print(f"p2 sacrifices it: the card is in the {b.obj(EMBER['name'])['zone']} as object "
      f"{b.id[EMBER['name']]}")
b.activate(1, EMBER["name"], 0)       # the one ability offered there: exile it, 2 damage
events = b.resolve()
kinds = [e["type"] for e in events if e["type"].startswith("Damage")]
print(f"p2 exiles the card from the graveyard for its 2 damage: events {kinds}, p1 at "
      f"{b.life(0)}")
print("CR 400.7: the card in the graveyard is a new object, not the permanent chosen: "
      "its 2 damage is dealt (p1 at 18) and the shield waits")
verdict(b.life(0) == 20 and "DamagePrevented" in kinds,
        "the shield follows the card to the graveyard and prevents its damage",
        f"p1 at {b.life(0)}, the CR's 18")
