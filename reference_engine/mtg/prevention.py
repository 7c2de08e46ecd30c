"""Damage and its prevention: 609.7 (shields for a chosen source), 609.7a (which
sources may be chosen, and when), 609.7b (characteristic-limited shields recheck
at prevention time and are not used up when they prevent nothing) and 609.7c
(static prevention or replacement by characteristic reaches sources in every zone).
"""

from __future__ import annotations

from typing import Any

from reference_engine.mtg import characteristics
from reference_engine.mtg.model import PERMANENT_TYPES, PLAYERS, Obj, Shield
from reference_engine.mtg.state import Game, Rejected

# -- 609.7a: legal choices -------------------------------------------------------------


def references(game: Game, obj: Obj) -> list[tuple[str, int]]:
    """The objects ``(id, incarnation)`` of this card that an ability on the stack or a
    shield waiting to apply refers to."""
    on_stack = [(obj.id, game.objects[i].source_incarnation) for i in game.stack
                if game.objects[i].ability_of == obj.id]
    waiting = [s.source for s in game.shields
               if s.source and s.source[0] == obj.id and not s.used_up]
    return on_stack + waiting


def referenced(game: Game, obj: Obj) -> bool:
    """Referred to by an ability on the stack or by a shield waiting to apply."""
    return bool(references(game, obj))


def referred_object(game: Game, obj: Obj) -> tuple[str, int]:
    """609.7a: the chosen source is the object chosen: a permanent, a spell, an object in
    the command zone as it is; a card that left its zone, as the object the ability or
    shield referring to it means (its last known information, CR 113.7a)."""
    if obj.zone in ("battlefield", "stack", "command"):
        return obj.id, obj.incarnation
    found = references(game, obj)
    return found[0] if found else (obj.id, obj.incarnation)


def card_as_it_is_now(game: Game, obj: Obj) -> tuple[str, int]:
    """Mutant: the chosen source is the card as it is now, wherever it is."""
    return obj.id, obj.incarnation


def legal_source(game: Game, obj: Obj) -> bool:
    """609.7a: a permanent, a spell or other object on the stack, an object referred to
    by one (or by a waiting shield), or a face-up object in the command zone; whether
    it can deal damage does not matter."""
    if obj.zone in ("battlefield", "stack"):
        return True
    if obj.zone == "command":
        return not obj.face_down
    return referenced(game, obj)


def any_zone_source(game: Game, obj: Obj) -> bool:
    """Mutant: any object anywhere may be chosen."""
    return True


def unreferenced_source(game: Game, obj: Obj) -> bool:
    """Mutant: only what is on the battlefield, the stack or the command zone."""
    return obj.zone in ("battlefield", "stack") or (obj.zone == "command" and not obj.face_down)


def no_command_zone_source(game: Game, obj: Obj) -> bool:
    """Mutant: objects in the command zone cannot be chosen."""
    return obj.zone != "command" and legal_source(game, obj)


def damage_dealer_source(game: Game, obj: Obj) -> bool:
    """Mutant: only an object that could deal damage (a creature, or one whose text
    deals damage) may be chosen."""
    text = repr(obj.abilities)
    can = "creature" in characteristics.types_of(game, obj) or "'damage'" in text
    return can and legal_source(game, obj)


# -- creating a shield ---------------------------------------------------------------------

def create_shield(game: Game, controller: str, args: dict[str, Any]) -> None:
    to = args["to"]
    to = game.who(to, controller) if to in ("self", "opponent") else game.obj(to, "shield").id
    require = args.get("from")
    amount = args.get("amount", "all")
    shield = Shield(id=f"shield{len(game.shields) + 1}", to=to, controller=controller,
                    timestamp=game.tick(), source=None, require=require,
                    remaining=None if amount == "all" else int(amount))
    if "choose" in args:
        chosen = game.obj(args["choose"], "shield choose")
        if not game.rules.legal_source(game, chosen):
            raise Rejected(f"{chosen.id} (in {chosen.owner}'s {chosen.zone}) is not a source "
                           f"that may be chosen (609.7a)")
        if (require and game.rules.choice_needs_characteristic
                and not characteristics.matches(game, chosen, require, controller)):
            raise Rejected(f"{chosen.id} does not have {require} (it must, to be chosen)")
        if game.rules.choose_at_creation:
            shield.source = game.rules.chosen_object(game, chosen)
            shield.follows_spell = chosen.zone == "stack" and bool(
                PERMANENT_TYPES & set(chosen.types))
        elif not require:
            shield.require = {}
    if require:
        shield.matched_at_creation = frozenset(
            o.id for o in game.everywhere() if characteristics.matches(game, o, require,
                                                                       controller))
    if not game.rules.combine_shields:
        game.shields = [s for s in game.shields if s.to != to]
    game.shields.append(shield)
    game.emit("shield", to=to, source=shield.source[0] if shield.source else None)


def spell_became_permanent(game: Game, obj: Obj, old_incarnation: int) -> None:
    """609.7a: a shield for a permanent spell also covers the permanent it becomes."""
    for shield in game.shields:
        if shield.follows_spell and shield.source == (obj.id, old_incarnation) \
                and game.rules.shield_follows_spell:
            shield.source = (obj.id, obj.incarnation)


# -- switch points on applying a shield -------------------------------------------------------

def recheck_now(game: Game, shield: Shield, source: Obj) -> bool:
    """609.7b: the characteristic is checked again when the damage would be dealt."""
    return characteristics.matches(game, source, shield.require, shield.controller)


def recheck_exact_colour(game: Game, shield: Shield, source: Obj) -> bool:
    """Mutant: a colour limit rechecked as 'exactly that colour', so a red and green source
    is not a red source."""
    colour = (shield.require or {}).get("color")
    if colour is not None and characteristics.colors_of(game, source) != [colour]:
        return False
    return recheck_now(game, shield, source)


def checked_at_creation(game: Game, shield: Shield, source: Obj) -> bool:
    """Mutant: what had the characteristic when the shield was made keeps qualifying."""
    return source.id in shield.matched_at_creation


def used_when_prevented(shield: Shield, prevented: int, met: bool, fits: bool) -> bool:
    """609.7b: used up only by preventing something."""
    return prevented > 0 and (shield.remaining is None or shield.remaining == 0)


def used_when_met(shield: Shield, prevented: int, met: bool, fits: bool) -> bool:
    """Mutant: used up by any damage from its source, whatever the source is like now."""
    return met or used_when_prevented(shield, prevented, met, fits)


def used_when_fits(shield: Shield, prevented: int, met: bool, fits: bool) -> bool:
    """Mutant: used up by damage it applies to even when that damage is 0 (nothing to
    prevent); otherwise as the reference."""
    return (fits and prevented == 0) or used_when_prevented(shield, prevented, met, fits)


def never_used_up(shield: Shield, prevented: int, met: bool, fits: bool) -> bool:
    """Mutant: a 'next time' shield keeps preventing for the rest of the turn."""
    return shield.remaining is not None and shield.remaining == 0


def protects_its_player(game: Game, shield: Shield, to: str) -> bool:
    """609.7: the shield protects the player or object it names, nothing else."""
    return shield.to == to


def protects_its_controller(game: Game, shield: Shield, to: str) -> bool:
    """Mutant: a shield protects the player who made it, whatever it names."""
    return to == shield.controller


def protects_both_players(game: Game, shield: Shield, to: str) -> bool:
    """Mutant: a shield on a player also protects the other player."""
    return shield.to == to or (shield.to in PLAYERS and to in PLAYERS)


def protects_player_and_permanents(game: Game, shield: Shield, to: str) -> bool:
    """Mutant: a shield on a player ("damage to you") also protects the permanents that
    player controls."""
    return shield.to == to or (to not in PLAYERS and game.objects[to].controller == shield.to)


def source_is_chosen(game: Game, shield: Shield, source: Obj, combat: bool) -> bool:
    """609.7 / 609.7a: the chosen object, whether its damage is combat damage or not."""
    if shield.source is None:
        return True
    return shield.source == (source.id, source.incarnation)


def chosen_ignores_combat(game: Game, shield: Shield, source: Obj, combat: bool) -> bool:
    """Mutant: a shield for a chosen permanent stops only its non-combat damage."""
    return source_is_chosen(game, shield, source, combat) and not combat


def same_card_id(game: Game, shield: Shield, source: Obj, combat: bool) -> bool:
    """Mutant: the shield follows the card, not the object: a chosen permanent's card in the
    graveyard still counts as the chosen source."""
    return shield.source is None or shield.source[0] == source.id


def any_source(game: Game, shield: Shield, source: Obj, combat: bool) -> bool:
    """Mutant: the chosen source is not remembered; any source is stopped."""
    return True


def bind_first_source(game: Game, shield: Shield, source: Obj) -> None:
    """With the choice made late (a mutant), the first source that meets the limit binds."""
    if shield.source is None and shield.require is not None and not game.rules.choose_at_creation:
        shield.source = (source.id, source.incarnation)


# -- dealing damage ---------------------------------------------------------------------------

def static_prevention(game: Game, source: Obj, to: str, amount: int) -> tuple[int, int]:
    """609.7c: statics that prevent or replace damage from sources with a characteristic.

    Returns (amount after replacement, amount prevented)."""
    prevented = 0
    for holder, static in characteristics.statics_in_force(game):
        rule = static.get("damage_from")
        if not rule:
            continue
        protects = (game.rules.replacement_protects if rule["then"] == "double"
                    else game.rules.static_protects)
        if not protects(game, holder, to):
            continue
        zones = (game.rules.static_replace_zones if rule["then"] == "double"
                 else game.rules.static_prevent_zones)
        if source.zone not in zones:
            continue
        if not characteristics.matches(game, source, rule.get("filter"), holder.controller):
            continue
        if rule["then"] == "double":
            amount *= 2
        else:
            prevented += amount
            amount = 0
    return amount, prevented


def protects_controller_only(game: Game, holder: Obj, to: str) -> bool:
    """'... would deal to you': the static protects its controller, nothing else."""
    return to == holder.controller


def protects_every_recipient(game: Game, holder: Obj, to: str) -> bool:
    """Mutant: a replacement of damage "to you" (CR 614, context) replaces the source's
    damage to any player or permanent."""
    return True


def protects_controller_and_permanents(game: Game, holder: Obj, to: str) -> bool:
    """Mutant: 'to you' also covers the permanents you control."""
    return to == holder.controller or (
        to not in PLAYERS and game.objects[to].controller == holder.controller)


def deal(game: Game, source: Obj, to: str, amount: int, combat: bool) -> None:
    """``source`` deals ``amount`` damage to ``to`` (a player or an object id)."""
    rules = game.rules
    if amount <= 0 and not rules.zero_damage_meets_shields:
        if rules.zero_damage_reported:
            game.emit("damage", source=source.id, to=to, amount=0, combat=combat)
        return
    amount, prevented = static_prevention(game, source, to, amount)
    for shield in game.shields:
        if shield.used_up or not rules.shield_protects(game, shield, to):
            continue
        bind_first_source(game, shield, source)
        met = rules.shield_source_matches(game, shield, source, combat)
        fits = met and (not shield.require or rules.characteristic_holds(game, shield, source))
        cut = 0
        if fits:
            cut = amount if shield.remaining is None else min(amount, shield.remaining)
            if shield.remaining is not None:
                shield.remaining -= cut
        amount -= cut
        prevented += cut
        if rules.shield_used_up(shield, cut, met, fits):
            shield.used_up = True
    if prevented:
        game.emit("prevented", source=source.id, to=to, amount=prevented)
    if amount <= 0:
        return
    if to in PLAYERS:
        game.life[to] -= amount
    else:
        game.objects[to].damage += amount
    game.emit("damage", source=source.id, to=to, amount=amount, combat=combat)


def shields_of(game: Game, to: str) -> list[dict[str, Any]]:
    """The shields in force protecting ``to``, oldest first."""
    return [{"source": s.source[0] if s.source else None, "from": s.require or None,
             "remaining": "all" if s.remaining is None else s.remaining}
            for s in game.shields if s.to == to and not s.used_up]
