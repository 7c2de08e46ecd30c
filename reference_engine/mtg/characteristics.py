"""609.1 / 609.2 / the page's overlap statement: what continuous effects do to objects.

Static abilities generate effects only from where `rules.statics_zones` says
(the battlefield: reading ``statics-on-battlefield``); a resolved ``become``
effect touches the objects it locked in when it was created, and those are
permanents unless its text names another zone (609.2).
"""

from __future__ import annotations

from typing import Any

from reference_engine.mtg.model import Continuous, Obj
from reference_engine.mtg.state import Game

# -- switch-point values ------------------------------------------------------------

BATTLEFIELD_ONLY = ("battlefield",)
BATTLEFIELD_AND_STACK = ("battlefield", "stack")
EVERY_ZONE = ("library", "hand", "battlefield", "graveyard", "stack", "exile", "command")


def scope_named_or_battlefield(data: dict[str, Any]) -> tuple[str, ...]:
    """609.2: permanents only, unless the text names the zones it touches."""
    zone = (data.get("filter") or {}).get("zone")
    if zone is None:
        return BATTLEFIELD_ONLY
    return (zone,) if isinstance(zone, str) else tuple(zone)


def scope_adds_graveyard(data: dict[str, Any]) -> tuple[str, ...]:
    """Mutant: 'all lands' also reaches land cards in graveyards."""
    return (*scope_named_or_battlefield(data), "graveyard")


def scope_every_zone(data: dict[str, Any]) -> tuple[str, ...]:
    """Mutant: an effect with no zone reaches every zone."""
    return EVERY_ZONE


def scope_named_means_off_battlefield(data: dict[str, Any]) -> tuple[str, ...]:
    """Mutant: a text that names a zone reaches every zone but the battlefield."""
    if (data.get("filter") or {}).get("zone") is None:
        return BATTLEFIELD_ONLY
    return tuple(z for z in EVERY_ZONE if z != "battlefield")


def scope_first_named_zone(data: dict[str, Any]) -> tuple[str, ...]:
    """Mutant: a text naming several zones ("in graveyards and on the battlefield")
    touches only the first one it names."""
    return scope_named_or_battlefield(data)[:1]


def scope_battlefield_always(data: dict[str, Any]) -> tuple[str, ...]:
    """Mutant: an effect that names another zone still touches permanents only."""
    return BATTLEFIELD_ONLY


def same_object(effect: Continuous, obj: Obj) -> bool:
    """A locked-in object stops being affected when it changes zones (a new object)."""
    return (obj.id, obj.incarnation) in effect.affected


def same_id(effect: Continuous, obj: Obj) -> bool:
    """Mutant: the effect follows the card id into its next zone."""
    return any(oid == obj.id for oid, _ in effect.affected)


def every_become(effects: list[Continuous]) -> list[Continuous]:
    """The page: all effects overlap; apply every one in timestamp order."""
    return effects


def latest_become_only(effects: list[Continuous]) -> list[Continuous]:
    """Mutant: a newer become effect on an object replaces the older ones."""
    return effects[-1:]


# -- queries the other modules use --------------------------------------------------

def statics_in_force(game: Game) -> list[tuple[Obj, dict[str, Any]]]:
    """(object, static ability) for every static ability generating an effect now."""
    zones = game.rules.statics_zones
    return [(o, s) for z in zones for o in game.in_zone(z) if not o.face_down
            for s in o.statics()]


def _becomes(game: Game, obj: Obj) -> list[Continuous]:
    found = [e for e in game.effects
             if e.kind == "become" and game.rules.become_reaches(e, obj)]
    return game.rules.combine_becomes(found) if found else []


def types_of(game: Game, obj: Obj) -> list[str]:
    types = list(obj.types)
    for effect in _becomes(game, obj):
        types += [t for t in effect.data.get("types", []) if t not in types]
    return types


def colors_of(game: Game, obj: Obj) -> list[str]:
    colors = list(obj.colors)
    for effect in _becomes(game, obj):
        if "colors" in effect.data:
            colors = list(effect.data["colors"])
    return colors


def power_toughness(game: Game, obj: Obj) -> tuple[int | None, int | None]:
    power, toughness = obj.power, obj.toughness
    for effect in _becomes(game, obj):
        power = effect.data.get("power", power)
        toughness = effect.data.get("toughness", toughness)
    return power, toughness


def matches(game: Game, obj: Obj, flt: dict[str, Any] | None, controller: str,
            obj_controller: str | None = None) -> bool:
    """Whether ``obj`` has the characteristics FILTER names (its zone is not checked).

    ``controller`` is the effect's controller (for ``self``/``opponent``); ``obj_controller``
    is who controls ``obj`` when that is not yet recorded (a spell being cast: its caster)."""
    if not flt:
        return True
    if "card" in flt and obj.id != flt["card"]:
        return False
    if "type" in flt and flt["type"] not in types_of(game, obj):
        return False
    if "color" in flt and flt["color"] not in colors_of(game, obj):
        return False
    if "name" in flt and obj.name != flt["name"]:
        return False
    who = flt.get("controller", "any")
    return who == "any" or (obj_controller or obj.controller) == game.who(who, controller)


def create_become(game: Game, controller: str, source: str | None,
                  data: dict[str, Any]) -> None:
    """Lock in the objects the effect touches now (permanents unless it names a zone)."""
    zones = game.rules.become_scope(data)
    flt = data.get("filter") or {}
    touched = frozenset((o.id, o.incarnation) for z in zones for o in game.in_zone(z)
                        if matches(game, o, flt, controller))
    game.effects.append(Continuous("become", controller, source, game.tick(), data, touched))
