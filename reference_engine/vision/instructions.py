"""The effect language: one handler per INSTRUCTION.

A handler applies its part of an effect and returns whether it could be
applied as instructed (False makes chapter 12 stop the rest of the text).
An ``all`` selector never fails on its own: `Rules.all_succeeds` decides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reference_engine.vision import deathblow, deck, field, power, selectors
from reference_engine.vision.model import Card, Effect, Modifier
from reference_engine.vision.state import Game

Handler = Callable[[Game, Effect, dict[str, Any]], bool]


def apply(game: Game, effect: Effect, op: str, args: dict[str, Any]) -> bool:
    return HANDLERS[op](game, effect, args)


def value(raw: int | str, effect: Effect) -> int:
    """An integer argument; "X" is the X fixed when the source was played."""
    return (effect.x or 0) if raw == "X" else int(raw)


def each(game: Game, effect: Effect, selector: Any, one: Callable[[Card], bool]) -> bool:
    """Apply ``one`` to every selected card; the verdict of the whole part."""
    cards, is_all = selectors.select(game, selector, controller=effect.controller,
                                     source=effect.source, chosen=effect.chosen)
    if not game.rules.off_field_part_fails:
        one = _nothing_off_field(one)
    if is_all:
        return game.rules.all_succeeds(game.rules.apply_to_all(cards, one))
    return game.rules.chosen_succeeds(game.rules.apply_to_chosen(cards, one))


def _nothing_off_field(one: Callable[[Card], bool]) -> Callable[[Card], bool]:
    """Mutant: a card off the field is passed over, the part counting as applied to it."""
    return lambda card: card.zone != "field" or one(card)


def on_field(card: Card, immunity: str | None = None, *, character: bool = False) -> bool:
    return (card.zone == "field" and (immunity is None or immunity not in card.immune)
            and (not character or card.type == "character"))


def _damage(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
    amount = value(args["amount"], effect)

    def one(card: Card) -> bool:
        if not on_field(card, "damage", character=game.rules.damage_needs_character):
            return False
        deathblow.deal_damage(game, card, amount, effect.source, battle=False)
        return True
    return each(game, effect, args["target"], one)


def _destroy(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
    def one(card: Card) -> bool:
        if not on_field(card, "destroy"):
            return False
        field.destroy(game, card)
        return True
    return each(game, effect, args["target"], one)


def _deathblow(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
    immunity = None if game.rules.rule_beats_effects(deathblow.INSTRUCTION) else "deathblow"

    def one(card: Card) -> bool:
        if not on_field(card, immunity, character=True) or "deathblow_state" in card.immune:
            return False
        game.rules.instruction_deathblows(game, card, effect.source)
        return True
    return each(game, effect, args["target"], one)


def _return_to_hand(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
    def one(card: Card) -> bool:
        if not on_field(card, "return"):
            return False
        field.return_to_hand(game, card)
        return True
    return each(game, effect, args["target"], one)


def _draw(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
    player = game.who(args["player"], effect.controller)
    return deck.draw(game, player, value(args["count"], effect), effect)


def _discard(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
    player = game.who(args["player"], effect.controller)
    count = value(args["count"], effect)
    hand = game.zone_cards(player, "hand")
    taken, applied = game.rules.short_pile(len(hand), count)
    for card in hand[:taken]:
        game.move(card, "graveyard")
    return applied


def _reveal(verb: str) -> Handler:
    def handler(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
        player = game.who(args["player"], effect.controller)
        return deck.reveal(game, effect, verb, player, args)
    return handler


def _shuffle(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
    return deck.shuffle_instruction(game, effect, game.who(args["player"], effect.controller))


def _power(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
    def fixed(raw: int | str | None) -> int | str | None:
        # "X" with an `x` stays a variable (fixed at every recomputation);
        # a bare "X" is the source's X, fixed now.
        return value(raw, effect) if raw == "X" and args.get("x") is None else raw

    def one(card: Card) -> bool:
        if not on_field(card):
            return False
        game.modifiers.append(Modifier(
            kind=args["kind"], attack=fixed(args.get("attack")),
            durability=fixed(args.get("durability")), x=args.get("x"),
            source=effect.source, ts=(game.tick(), 0), target=card.id))
        power.refresh(game, card)
        return True
    return each(game, effect, args["target"], one)


def _change_name(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
    def one(card: Card) -> bool:
        if not on_field(card):
            return False
        game.rules.disguise(card, args["name"])
        return True
    return each(game, effect, args["target"], one)


def _negation(what: str) -> Handler:
    """negate_text / negate_auto (2.12.3, 12.4, QA-020): mark the card's ``what`` as
    negated, and whether the negation says it includes 【】 text."""

    def handler(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
        def one(card: Card) -> bool:
            if not on_field(card):
                return False
            setattr(card, f"{what}_negated", True)
            total = f"{what}_negation_total"
            setattr(card, total, game.rules.combine_negations(
                getattr(card, total), bool(args.get("include_unnegatable"))))
            game.emit("negated", card=card.id, what=what)
            return True
        return each(game, effect, args["target"], one)

    return handler


def _negate_effect(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
    """Negate the effect whose targeting set off this auto clause (No.445)."""
    target = effect.answers
    if target is None or target.negated or not game.rules.effect_negatable(target):
        return False
    target.negated = True
    game.rules.on_effect_negated(game, target)
    game.emit("negated", card=target.source, what="effect")
    return True


def _gain(game: Game, effect: Effect, args: dict[str, Any]) -> bool:
    """Internal part of a play clause with ``gain``: the cards gain clauses (No.345)."""
    def one(card: Card) -> bool:
        if not on_field(card):
            return False
        card.gained.extend(args["clauses"])
        return True
    return each(game, effect, args["target"], one)


HANDLERS: dict[str, Handler] = {
    "damage": _damage,
    "destroy": _destroy,
    "deathblow": _deathblow,
    "return_to_hand": _return_to_hand,
    "draw": _draw,
    "discard": _discard,
    "reveal": _reveal("reveal"),
    "look": _reveal("look"),
    "shuffle": _shuffle,
    "power": _power,
    "change_name": _change_name,
    "negate_text": _negation("text"),
    "negate_auto": _negation("auto"),
    "negate_effect": _negate_effect,
    "gain": _gain,
}
