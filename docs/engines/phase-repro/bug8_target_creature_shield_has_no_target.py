"""phase.rs bug 8: "The next time a source of your choice would deal damage to target
creature this turn, prevent that damage" asks for no target: the shield it makes names
no recipient and prevents the chosen source's damage to the player too.  (The real card
Sanctum Guardian, "... to any target ...", parses the same way: checked below.)

CR 115.1c: "An activated ability is targeted if it identifies something it will affect
by using the phrase “target [something],” where the “something” is a phrase that
describes an object and/or player.  The target(s) are chosen as the ability is
activated; see rule 602.2b."  CR 615.1: prevention effects "act like “shields” around
whatever they're affecting": here the target creature, not its controller.

Run: python docs/engines/phase-repro/bug8_target_creature_shield_has_no_target.py
(needs only ``pip install phase-python==0.103.0``)
"""

from typing import Any

from _board import Board, card, verdict

AEGIS = card("Test Aegis", "{0}: The next time a source of your choice would deal damage "
             "to target creature this turn, prevent that damage.", "Enchantment", "W")
GUARD = card("Test Guard", "", "Creature", "W", "{1}{W}", (2, 4))
RAIDER = card("Test Raider", "{0}: Test Raider deals 3 damage to any target.", "Creature",
              "R", "{1}{R}", (3, 3))
SANCTUM = card("Sanctum Guardian", "Sacrifice Sanctum Guardian: The next time a source of "
               "your choice would deal damage to any target this turn, prevent that "
               "damage.", "Creature", "W", "{1}{W}{W}", (1, 4), ("Human", "Cleric"))


def shield_of(shield: dict[str, Any]) -> tuple[str, Board]:
    """p1 activates the card ``shield`` (a target prompt is answered with Test Guard) and
    chooses Test Raider as the source: the prompt p1 got on activating, and the board."""
    b = Board([(0, "battlefield", shield), (0, "battlefield", GUARD),
               (1, "battlefield", RAIDER)])
    b.activate(0, shield["name"])
    prompt = b.waiting()[0]
    if prompt == "TargetSelection":
        b.pick("ChooseTarget", target={"Object": b.id[GUARD["name"]]})
    b.resolve(source=RAIDER["name"])
    return prompt, b


prompt, b = shield_of(AEGIS)
print(f"p1: {AEGIS['name']} ({AEGIS['text']}), {GUARD['name']} (2/4); p2: "
      f"{RAIDER['name']} (red 3/3, {{0}}: 3 damage to any target)")
print(f"p1 activates {AEGIS['name']}: the prompt after activating is {prompt} (no target "
      f"asked for: {prompt != 'TargetSelection'}); it resolves, choosing {RAIDER['name']}")
shield = (b.game.state()["state"].get("pending_damage_replacements") or [{}])[0]
print(f"the shield's damage_target_filter: {shield.get('damage_target_filter')}")
b.activate(1, RAIDER["name"])
b.pick("ChooseTarget", target={"Player": 0})
events = [e["type"] for e in b.resolve() if e["type"].startswith("Damage")]
print(f"{RAIDER['name']} deals 3 damage to p1: events {events}, p1 at {b.life(0)}")
sanctum, _ = shield_of(SANCTUM)
print(f"Sanctum Guardian (real card, \"any target\"): the prompt after sacrificing it is "
      f"{sanctum}")
print("CR 115.1c: the ability targets a creature, chosen as it is activated; the shield "
      "protects that creature only, so the 3 damage to p1 is dealt (p1 at 17)")
verdict(prompt != "TargetSelection" and b.life(0) == 20,
        "a \"target creature\" shield targets nothing and protects the player too",
        f"prompt {prompt}, p1 at {b.life(0)}, the CR's TargetSelection and 17")
