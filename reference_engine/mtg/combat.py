"""Combat as a real game plays it (vocabulary 3): the active player declares attackers,
then the combat damage step deals their damage.  Only what the catalogue's damage cases
need: no blockers (the defending player declares none), no first strike, no tapping
observed, no summoning sickness (docs/rulesets/mtg.md, "Actions")."""

from __future__ import annotations

from typing import Any

from reference_engine.mtg import characteristics, prevention
from reference_engine.mtg.model import Obj
from reference_engine.mtg.state import Game, Rejected


def declare_attackers(game: Game, by: str, attackers: Any) -> None:
    """CR 508.1: the active player declares attackers, with an empty stack, once a turn;
    each is a creature they control.  The game is then in combat (CR 506)."""
    if by != game.active:
        raise Rejected(f"only the active player ({game.active}) declares attackers")
    if game.stack:
        raise Rejected("attackers are declared with an empty stack")
    if game.attackers is not None:
        raise Rejected("attackers were already declared this turn")
    chosen = [game.obj(a, "attack") for a in attackers]
    for obj in chosen:
        if obj.zone != "battlefield" or obj.controller != by or \
                "creature" not in characteristics.types_of(game, obj):
            raise Rejected(f"{obj.id} is not a creature {by} controls on the battlefield")
    if len({o.id for o in chosen}) != len(chosen):
        raise Rejected("a creature attacks once")
    game.phase = "combat"
    game.attackers = [(o.id, o.incarnation) for o in chosen]


def same_object(obj: Obj, incarnation: int) -> bool:
    """CR 400.7 (context): an attacker that left the battlefield is a new object, even
    back on the battlefield: it is no longer attacking."""
    return obj.incarnation == incarnation


def same_card_on_battlefield(obj: Obj, incarnation: int) -> bool:
    """Mutant: attackers are remembered by card, so one that left and came back still
    attacks."""
    return obj.zone == "battlefield"


def combat_damage(game: Game) -> None:
    """CR 510.1-2: each attacking creature still on the battlefield deals combat damage
    equal to its power to the player it attacks, all at once (in declaration order)."""
    if not game.attackers:
        raise Rejected("no declared attackers are waiting to deal combat damage")
    if game.stack:
        raise Rejected("the combat damage step starts with an empty stack")
    defender = game.opponent(game.active)
    dealing = []
    for oid, incarnation in game.attackers:
        obj = game.objects[oid]
        if game.rules.still_attacking(obj, incarnation) \
                and "creature" in characteristics.types_of(game, obj):
            dealing.append((obj, characteristics.power_toughness(game, obj)[0] or 0))
    game.attackers = []
    for attacker, power in dealing:
        if power > 0:
            prevention.deal(game, attacker, defender, power, combat=True)
