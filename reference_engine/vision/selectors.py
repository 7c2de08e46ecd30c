"""SELECTORs and FILTERs: which cards an instruction, trigger or modifier means.

Filters are read from a controller's point of view (``self``/``opponent``)
and iterate cards in a fixed order (p1 before p2, zone order), so nothing
depends on hash order.
"""

from __future__ import annotations

from typing import Any

from reference_engine.vision.model import Card
from reference_engine.vision.state import Game


def select(game: Game, selector: Any, *, controller: str, source: str | None,
           chosen: list[str]) -> tuple[list[Card], bool]:
    """The cards ``selector`` designates, and whether it was an ``all`` selector."""
    if selector == "chosen":
        return [game.cards[i] for i in chosen if i in game.cards], False
    if selector == "this":
        return ([game.cards[source]] if source in game.cards else []), False
    if isinstance(selector, dict) and "card" in selector:
        card = game.cards.get(str(selector["card"]))
        return ([card] if card else []), False
    flt = selector["all"] or {}
    return game.rules.all_matching(game, flt, controller), True


def matching(game: Game, flt: dict[str, Any], controller: str) -> list[Card]:
    """vision/IR-12/p3, p4: "all" is every card its 〔 〕 description (FILTER) names."""
    return [c for c in game.all_cards() if matches(game, c, flt, controller)]


def matching_active_player_only(game: Game, flt: dict[str, Any],
                                controller: str) -> list[Card]:
    """Mutant: "all" looks only at the active player's (p1's) cards."""
    return [c for c in matching(game, flt, controller) if c.owner == "p1"]



def matches(game: Game, card: Card, flt: dict[str, Any] | None, controller: str,
            *, default_zone: str = "field") -> bool:
    """Whether ``card`` satisfies every key of ``flt`` as seen by ``controller``."""
    flt = flt or {}
    if card.zone != flt.get("zone", default_zone):
        return False
    side = flt.get("controller", "any")
    if side != "any" and card.owner != game.who(side, controller):
        return False
    if "type" in flt and card.type != flt["type"]:
        return False
    if "not" in flt and card.id == str(flt["not"]):
        return False
    if "name_ref" in flt and not game.rules.name_refers(
            game.rules.reference_names(card), str(flt["name_ref"])):
        return False
    if "same_name_as" in flt:
        other = game.cards.get(str(flt["same_name_as"]))
        if other is None or not game.rules.same_name(
                game.rules.same_name_names(card), game.rules.same_name_names(other)):
            return False
    return not ("durability_max" in flt
                and game.power_of(card)[1] > int(flt["durability_max"]))
