"""phase.rs bug 9: an instant reading "The next time a red source would deal damage to
you this turn, prevent that damage." does nothing.  phase.rs's parser gives the spell no
ability at all, with no `Unimplemented` marker, so the card is cast and resolves, and no
shield is made.  The same sentence as an activated ability ("{0}: The next time ...")
parses to `PreventDamage`, and so does "Prevent the next 3 damage that creatures would
deal to you this turn." on an instant.

CR 609.7b (paraphrased): a spell or ability may make a prevention effect that applies
only to damage from sources with a characteristic, such as a creature or a colour; the
shield checks the source's characteristics when it would prevent damage.  Resolved,
this instant makes such a shield around its caster: the next damage a red source would
deal to them this turn is prevented.

Run: python docs/engines/phase-repro/bug9_instant_shield_does_nothing.py
(needs only ``pip install phase-python==0.103.0``)
"""

import phase
from _board import PASS, Board, card, verdict

TEXT = "The next time a red source would deal damage to you this turn, prevent that damage."
WARD = card("Test Ward", TEXT, "Instant", "W", "{W}")
CIRCLE = card("Test Circle", "{0}: " + TEXT, "Enchantment", "W", "{W}")
PLAINS = card("Plains", "({T}: Add {W}.)", "Land", subtypes=("Plains",))
PINGER = card("Test Pinger", "{0}: Test Pinger deals 2 damage to each opponent.",
              "Creature", "R", "{R}", (1, 1))

as_spell = phase.build_oracle_face(WARD, None)["abilities"]
as_ability = phase.build_oracle_face(CIRCLE, None)["abilities"]
print(f"the instant's parsed abilities: {as_spell}")
print(f"the same text as an activated ability: {[a['effect']['type'] for a in as_ability]}")

b = Board([(0, "battlefield", PINGER), (1, "hand", WARD), (1, "battlefield", PLAINS)])
print("p1: Test Pinger (red 1/1, {0}: deals 2 damage to each opponent); "
      f"p2: Test Ward ({TEXT}) in hand, a Plains; both at 20 life")
b.apply(0, PASS)                             # p2 gets priority and casts Test Ward
b.pick("CastSpell", object_id=b.id[WARD["name"]])
b.resolve()
shields = b.game.state()["state"].get("pending_damage_replacements") or []
print(f"Test Ward resolves ({b.obj(WARD['name'])['zone']}); shields made: {len(shields)}")
b.activate(0, PINGER["name"])
events = [e["type"] for e in b.resolve() if e["type"].startswith("Damage")]
print(f"Test Pinger's ability resolves: events {events}, p2 at {b.life(1)}")
print("CR 609.7b: the instant makes a shield; the red source's 2 damage is "
      "prevented: p2 at 20")
verdict(not as_spell and b.life(1) == 18,
        "an instant's \"the next time a red source would deal damage\" shield does nothing",
        f"{len(as_spell)} parsed abilities, p2 at {b.life(1)}, the CR's 20")
