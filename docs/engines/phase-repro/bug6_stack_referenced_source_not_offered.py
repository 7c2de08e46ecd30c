"""phase.rs bug 6: a source referred to by an ability on the stack is not offered as "a
source of your choice" (Mogg Fanatic sacrificed, its ability on the stack, against
Circle of Protection: Red).

CR 609.7a: "If an effect requires a player to choose a source of damage, they may choose
a permanent; a spell on the stack (including a permanent spell); any object referred to
by an object on the stack, by a replacement or prevention effect that's waiting to
apply, or by a delayed triggered ability that's waiting to trigger (even if that object
is no longer in the zone it used to be in); or a face-up object in the command zone."

Run: python docs/engines/phase-repro/bug6_stack_referenced_source_not_offered.py
(needs only ``pip install phase-python==0.103.0``)
"""

from _board import PASS, Board, card, verdict

COP = card("Circle of Protection: Red", "{1}: The next time a red source of your choice "
           "would deal damage to you this turn, prevent that damage.", "Enchantment", "W",
           "{1}{W}")
PLAINS = card("Plains", "({T}: Add {W}.)", "Land", subtypes=("Plains",))
FANATIC = card("Mogg Fanatic", "Sacrifice Mogg Fanatic: It deals 1 damage to any target.",
               "Creature", "R", "{R}", (1, 1), ("Goblin",))

b = Board([(0, "battlefield", FANATIC), (1, "battlefield", COP), (1, "battlefield", PLAINS)])
print("p1: Mogg Fanatic; p2: Circle of Protection: Red, Plains; both at 20 life")
b.activate(0, FANATIC["name"])
b.pick("ChooseTarget", target={"Player": 1})
print(f"p1 sacrifices Mogg Fanatic (now in the {b.obj(FANATIC['name'])['zone']}): its "
      "ability, 1 damage to p2, is on the stack")
b.apply(0, PASS)
b.activate(1, COP["name"])
print("p2 responds with Circle of Protection: Red")
offered: list[int] = []
b.apply(1, PASS)
b.apply(0, PASS)                       # Circle of Protection: Red's ability resolves
if b.waiting()[0] == "DamageSourceChoice":
    offered = b.waiting()[1]["options"]
    b.pick("ChooseDamageSource", source=offered[0])
print(f"as it resolves, the sources offered: {offered} (Mogg Fanatic is object "
      f"{b.id[FANATIC['name']]})")
b.resolve()
print(f"Mogg Fanatic's ability resolves: p2 at {b.life(1)}")
print("CR 609.7a: Mogg Fanatic, referred to by its ability on the stack, can be chosen; "
      "its 1 damage is then prevented (p2 at 20)")
verdict(b.id[FANATIC["name"]] not in offered,
        "a source referred to by an ability on the stack is not offered",
        f"sources offered {offered}, p2 at {b.life(1)}")
