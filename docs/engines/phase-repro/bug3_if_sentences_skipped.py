"""phase.rs bug 3: in "If X, ... If Y, ... If Z, ...", the sentences after the first
are skipped when X is false (the parse chains them as sub-abilities of the first).

CR 609.5: "If an effect could result in a tie, the text of the spell or ability that
created the effect will specify what to do in the event of a tie."  Each sentence
here is its own instruction with its own condition (CR 608.2c: the controller follows
the instructions in the order written).

Run: python docs/engines/phase-repro/bug3_if_sentences_skipped.py
(needs only ``pip install phase-python==0.103.0``)
"""

from _board import Board, card, verdict

SCALES = card("Test Scales", "{0}: If you have more life than an opponent, Test Scales "
              "deals 3 damage to each opponent. If an opponent has more life than you, "
              "Test Scales deals 3 damage to you. If you and an opponent have the same "
              "life total, Test Scales deals 1 damage to you.", "Enchantment")
#: (p1's life, p2's life) before -> after, as the CR has it (p1 controls Test Scales)
RULES = {(12, 10): (12, 7), (10, 12): (7, 12), (10, 10): (9, 10)}

print(f"p1: {SCALES['name']} ({SCALES['text']})")
seen = {}
for before, expected in RULES.items():
    b = Board([(0, "battlefield", SCALES)], life=before)
    b.activate(0, SCALES["name"])
    b.resolve()
    seen[before] = (b.life(0), b.life(1))
    print(f"life p1/p2 {before[0]}/{before[1]}: after the ability {seen[before][0]}/"
          f"{seen[before][1]}, per the text (CR 609.5) {expected[0]}/{expected[1]}")
skipped = [before for before in ((10, 12), (10, 10)) if seen[before] == before]
verdict(bool(skipped), "the sentences after a false first \"If ...\" are skipped",
        f"nothing happened at life {skipped}")
