"""phase.rs bug 5: a face-down object in the command zone is offered as "a source of
your choice".

CR 609.7a: "If an effect requires a player to choose a source of damage, they may choose
a permanent; a spell on the stack (including a permanent spell); any object referred to
by an object on the stack, by a replacement or prevention effect that's waiting to
apply, or by a delayed triggered ability that's waiting to trigger (even if that object
is no longer in the zone it used to be in); or a face-up object in the command zone."

The face-down object is a conspiracy as a Conspiracy draft has one (hidden agenda: it
starts the game face down in the command zone); phase.rs's own ``face_down`` flag is set
on it.  The shield is Circle of Protection: Red's without the colour (a face-down object
has no colour).

Run: python docs/engines/phase-repro/bug5_face_down_source_offered.py
(needs only ``pip install phase-python==0.103.0``)
"""

from _board import PASS, Board, card, verdict

CIRCLE = card("Test Circle", "{0}: The next time a source of your choice would deal "
              "damage to you this turn, prevent that damage.", "Enchantment", "W")
COMMANDER = card("Test Commander", "", "Creature", "R", "{2}{R}{R}", (4, 4))
AGENDA = card("Test Agenda", "", "Conspiracy")

b = Board([(0, "battlefield", CIRCLE), (1, "command", COMMANDER), (1, "command", AGENDA)])
state = b.game.state()
state["state"]["objects"][str(b.id[AGENDA["name"]])]["face_down"] = True
b.game = b.engine.load_game(state)
print(f"p1: {CIRCLE['name']} ({CIRCLE['text']}); p2's command zone: {COMMANDER['name']} "
      f"(face up, object {b.id[COMMANDER['name']]}) and {AGENDA['name']} (face down, "
      f"object {b.id[AGENDA['name']]})")
b.activate(0, CIRCLE["name"])
while b.waiting()[0] != "DamageSourceChoice":
    b.apply(b.game.priority_player(), PASS)
options = b.waiting()[1]["options"]
names = {oid: name for name, oid in b.id.items()}
print(f"the ability resolves; DamageSourceChoice offers {[names[o] for o in options]}")
print("CR 609.7a: a permanent or a face-up object in the command zone: Test Circle and "
      "Test Commander, not the face-down Test Agenda")
verdict(b.id[AGENDA["name"]] in options,
        "a face-down command-zone object is offered as a source of damage",
        f"options {options}, the face-down object is {b.id[AGENDA['name']]}")
