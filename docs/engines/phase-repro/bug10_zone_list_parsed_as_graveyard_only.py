"""phase.rs bug 10: "each land card in graveyards and each land on the battlefield
becomes a 2/2 creature" is parsed as an effect on the graveyard lands only: the second
subject, "each land on the battlefield", is dropped from the parsed `affected` filter.
The battlefield alone ("each land on the battlefield becomes ...") parses to an
`InZone: Battlefield` filter, so it is the list of two zones that loses one.

CR 609.2: "Effects apply only to permanents unless the instruction's text states
otherwise or they clearly can apply only to objects in one or more other zones."
Here the text names both zones, so the effect reaches the land cards in graveyards and
the lands on the battlefield.

Run: python docs/engines/phase-repro/bug10_zone_list_parsed_as_graveyard_only.py
(needs only ``pip install phase-python==0.103.0``)
"""

import phase
from _board import card, verdict

BOTH = ("{0}: Until end of turn, each land card in graveyards and each land on the "
        "battlefield becomes a 2/2 creature in addition to its other types.")
FIELD = ("{0}: Until end of turn, each land on the battlefield becomes a 2/2 creature "
         "in addition to its other types.")


def zones(text: str) -> list[str]:
    """The zones named by the `InZone` properties of the parsed effect's `affected`
    filter (one entry per static ability the activated ability makes)."""
    ability = phase.build_oracle_face(card("Test Altar", text, "Enchantment"), None)
    found = []
    for static in ability["abilities"][0]["effect"].get("static_abilities") or []:
        print(f"  affected: {static['affected']}")
        found += [p["zone"] for p in static["affected"].get("properties") or []
                  if p.get("type") == "InZone"]
    return found


print(f"p1's enchantment Test Altar: {BOTH}")
both = zones(BOTH)
print(f"the control, {FIELD}")
field = zones(FIELD)
print(f"zones reached: {both} (the two-zone text), {field} (the battlefield alone)")
print("CR 609.2: the text names graveyards and the battlefield, so the effect reaches "
      "both: Graveyard and Battlefield")
verdict(field == ["Battlefield"] and "Battlefield" not in both,
        "\"each land card in graveyards and each land on the battlefield\" is parsed as "
        "the graveyard lands only",
        f"the parsed filter's zones {both}, the CR's ['Graveyard', 'Battlefield']")
