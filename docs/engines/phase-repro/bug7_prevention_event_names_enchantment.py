"""phase.rs bug 7 (an event bug): "Prevent all damage that red sources would deal to you"
reports the prevention of a red creature's combat damage with the enchantment as both
the source and the recipient of the damage.

CR 120.1: "An object that deals damage is the source of that damage."  The damage
prevented was the attacking red creature's, to the player (CR 609.7c: "Some effects from
static abilities prevent or replace damage from sources with certain properties.").
The same damage dealt by the creature's ability is reported right (the contrast below).

Run: python docs/engines/phase-repro/bug7_prevention_event_names_enchantment.py
(needs only ``pip install phase-python==0.103.0``)
"""

from _board import PASS, Board, card, verdict

WARD = card("Test Ward", "Prevent all damage that red sources would deal to you.",
            "Enchantment", "W")
RAIDER = card("Test Raider", "{0}: Test Raider deals 2 damage to each opponent.",
              "Creature", "R", "{1}{R}", (2, 2))

b = Board([(0, "battlefield", WARD), (1, "battlefield", RAIDER)], active=1)
ward, raider = b.id[WARD["name"]], b.id[RAIDER["name"]]
print(f"p1: {WARD['name']} (object {ward}: {WARD['text']}); p2 (active): {RAIDER['name']} "
      f"(object {raider}, red 2/2)")
b.activate(1, RAIDER["name"])
ability = [e["data"] for e in b.resolve() if e["type"] == "DamagePrevented"]
print(f"its ability's 2 damage to p1: DamagePrevented {ability} (right)")
b.events = []
for _ in range(20):                        # p2 attacks p1, to the end of combat
    kind, _ = b.waiting()
    if b.game.phase in ("EndCombat", "PostCombatMain"):
        break
    if kind == "DeclareAttackers":
        b.apply(1, {"type": "DeclareAttackers", "data": {
            "attacks": [[raider, {"type": "Player", "data": 0}]], "bands": []}})
    elif kind == "DeclareBlockers":
        b.apply(0, {"type": "DeclareBlockers", "data": {"assignments": []}})
    else:
        b.apply(b.game.priority_player(), PASS)
combat = [e["data"] for e in b.events if e["type"] == "DamagePrevented"]
print(f"it attacks p1, unblocked: combat damage DamagePrevented {combat}, p1 at {b.life(0)}")
print(f"CR 120.1: the prevented damage's source is {RAIDER['name']} ({raider}) and its "
      "recipient p1 ({'Player': 0})")
verdict(any(e["source_id"] == ward or e["target"] == {"Object": ward} for e in combat),
        "the combat DamagePrevented event names the enchantment as source and recipient",
        f"events {combat}")
