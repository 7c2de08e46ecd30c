"""What the seed says should happen, computed from a scenario without any engine.

Each function is a transcription of one rule of rule 609 (cited in its
docstring) applied to the small boards the strategies generate.  Where the seed
is silent the catalogue's readings are used and named.
"""

from __future__ import annotations

from typing import Any

Scenario = dict[str, Any]
MANA_TYPES = ("W", "U", "B", "R", "G", "C")


def objects(setup: dict[str, Any]) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """id -> (owner, zone, object) for every object of a setup."""
    found = {}
    for player in ("p1", "p2"):
        for zone, cards in (setup.get(player) or {}).items():
            if isinstance(cards, list):
                for card in cards:
                    found[card["id"]] = (player, zone, card)
    return found


# -- 609.7 / 609.7b / 615 (context) / reading zero-damage-prevents-nothing ------------------

class Shields:
    """The shields of a shield scenario and what each damage step does to them."""

    def __init__(self, setup: dict[str, Any]):
        self.colors = {cid: list(card.get("colors", []))
                       for cid, (_, _, card) in objects(setup).items()}
        self.types = {cid: list(card.get("types", []))
                      for cid, (_, _, card) in objects(setup).items()}
        self.shields: list[dict[str, Any]] = []     # on p1 ("to: self" by p1)
        self.life = {"p1": 20, "p2": 20}

    def has(self, source: str, limit: dict[str, Any] | None) -> bool:
        """609.7b: the characteristic, checked now."""
        if not limit:
            return True
        if "color" in limit:
            return limit["color"] in self.colors[source]
        return limit["type"] in self.types[source]

    def add(self, shield: dict[str, Any]) -> bool:
        """Create a shield; False when the choice is illegal (reading
        chosen-source-has-characteristic)."""
        chosen = shield.get("choose")
        if chosen and not self.has(chosen, shield.get("from")):
            return False
        self.shields.append({"source": chosen, "from": shield.get("from"),
                             "remaining": shield.get("amount", "all")})
        return True

    def recolor(self, card: str, colors: list[str]) -> None:
        self.colors[card] = list(colors)

    def damage(self, source: str, to: str, amount: int) -> int:
        """Deal the damage; return how much the shields prevented."""
        prevented = 0
        if to == "p1" and amount > 0:       # 0 damage: nothing to prevent (reading)
            for shield in self.shields:
                if amount == 0:
                    break
                if shield["source"] not in (None, source):
                    continue                 # 609.7: only the chosen source
                if not self.has(source, shield["from"]):
                    continue                 # 609.7b: prevents nothing, not used up
                cut = amount if shield["remaining"] == "all" else min(amount,
                                                                        shield["remaining"])
                amount -= cut
                prevented += cut
                shield["remaining"] = 0 if shield["remaining"] == "all" else \
                    shield["remaining"] - cut
            self.shields = [s for s in self.shields if s["remaining"] != 0]
        self.life[to] -= amount
        return prevented

    def in_force(self) -> list[dict[str, Any]]:
        return [{"source": s["source"], "from": s["from"], "remaining": s["remaining"]}
                for s in self.shields]


# -- 609.3 -----------------------------------------------------------------------------------

def partial_instructions(scenario: Scenario) -> dict[str, dict[str, list[str]]]:
    """609.3: every part does as much as possible; the zones each player ends with."""
    setup = scenario["setup"]
    zones = {p: {z: [c["id"] for c in (setup.get(p) or {}).get(z, [])]
                 for z in ("hand", "library", "graveyard", "exile")} for p in ("p1", "p2")}
    for part in scenario["steps"][0]["do"]["apply"]["effect"]:
        (op, args), = part.items()
        if op not in ("discard", "move_top"):
            continue
        player = "p1" if args.get("player", "self") == "self" else "p2"
        origin, to = ("hand", "graveyard") if op == "discard" else ("library", args["to"])
        moved = zones[player][origin][:args["count"]]
        zones[player][origin] = zones[player][origin][args["count"]:]
        zones[player][to] += moved
    return zones


# -- 609.2 -----------------------------------------------------------------------------------

def become_touches(zone: str, card: dict[str, Any], flt: dict[str, Any]) -> bool:
    """609.2: permanents only, unless the text names the zone."""
    named = flt.get("zone")
    zones = ["battlefield"] if named is None else ([named] if isinstance(named, str) else named)
    return zone in zones and flt["type"] in card.get("types", [])


# -- 609.4 / 609.4a (with context CR-702.34 flashback, CR-601.3 casting, CR-307.1 timing) ------

def cast_is_legal(scenario: Scenario) -> bool:
    """May p1 cast s1 as the scenario's cast step says?"""
    setup = scenario["setup"]
    owner, zone, card = objects(setup)["s1"]
    trance = any("apply" in s["do"] for s in scenario["steps"])
    orrery = any(c["id"] == "orrery" for c in (setup.get("p1") or {}).get("battlefield", []))
    cast = scenario["steps"][-1]["do"]
    has_flashback = any(a.get("keyword") == "flashback" for a in card.get("abilities", []))
    if cast.get("flashback"):
        # 609.4a: the Trance makes another graveyard count as yours for flashback
        zone_ok = zone == "graveyard" and has_flashback and (owner == "p1" or trance)
    else:
        # CR 601.3 (context): without flashback nothing lets a card be cast from any
        # graveyard, the Trance's included (it is not a permission to cast by itself)
        zone_ok = zone == "hand" and owner == "p1"
    # 609.4 / 609.4a: "as though it had flash" applies too, whatever else was used
    timing_ok = "instant" in card["types"] or orrery or setup.get("phase", "main") == "main"
    return zone_ok and timing_ok


# -- 609.4b ------------------------------------------------------------------------------------

def payment_is_legal(cost: dict[str, int], pay: dict[str, int], any_type: bool) -> bool:
    """The payment adds up to the cost; each coloured symbol needs its own type unless a
    permission lets mana be spent as though it were any type (609.4b)."""
    if sum(pay.values()) != sum(cost.values()):
        return False
    return any_type or all(pay.get(t, 0) >= cost.get(t, 0) for t in MANA_TYPES)
