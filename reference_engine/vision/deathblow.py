"""Damage and 決死状態 (deathblow): 9.2.2, 1.10.12.f, QA-363, QA 2013-11-13.

A card is put into deathblow when (a) accumulated damage reaches its
durability, (b) its durability is 0 or less (this beats card effects), or
(c) an effect says so.  Then, as 9.2.3 describes (outside the seed), the
would/has steps run and the card is destroyed.
"""

from __future__ import annotations

from reference_engine.vision import field, power, triggers
from reference_engine.vision.model import Card
from reference_engine.vision.state import Game

DAMAGE, DURABILITY, INSTRUCTION = "damage", "durability", "instruction"


def deal_damage(game: Game, card: Card, amount: int, source: str | None, battle: bool) -> None:
    """Accumulate damage and remember its source (1.10.12.f) and kind (QA-363)."""
    card.damage += amount
    card.last_damage_source = source
    card.last_damage_battle = battle
    card.last_hit = amount
    card.first_damage_source = card.first_damage_source or source
    card.battle_damaged = card.battle_damaged or battle
    game.emit("damage", card=card.id, amount=amount, battle=battle, source=source)


def due(game: Game, card: Card) -> tuple[str, str | None, bool] | None:
    """Why ``card`` must be put into deathblow now, if it must: (reason, cause, battle)."""
    if card.deathblow or not card.has_durability or card.id in game.dying:
        return None
    rules = game.rules
    durability = rules.lethal_durability(game, card)
    if rules.durability_is_lethal(durability, card.damage):
        return DURABILITY, rules.durability_cause(game, card), False
    if rules.damage_is_lethal(rules.accumulated_damage(card), durability):
        return DAMAGE, rules.lethal_damage_source(card), card.last_damage_battle
    return None


def check_state(game: Game) -> None:
    """Put every card that meets 9.2.2.a/.b into deathblow, until none does.

    Damage dealt since the last check is what "directly" causes a 9.2.2.a
    deathblow (1.10.12.f); once checked it is spent, so a later durability cut
    that makes old damage lethal has no damage source and is not "by battle"
    (QA-363).
    """
    progress, passes = True, 0
    while progress and passes <= 4 * len(game.cards):
        progress, passes = False, passes + 1
        for card in game.field_cards():
            reason = due(game, card)
            if reason is not None and card.zone == "field":
                before = card.zone
                done = put_into_deathblow(game, card, *reason)
                progress = progress or done or card.zone != before
    if game.rules.damage_cause_spent:
        for card in game.field_cards():
            card.last_damage_source, card.last_damage_battle = None, False


def put_into_deathblow(game: Game, card: Card, reason: str, cause: str | None,
                       battle: bool) -> bool:
    """Run the deathblow process for ``card``; False when something stopped it."""
    rules = game.rules
    if card.zone != "field" or card.deathblow or card.id in game.dying:
        return False
    if not rules.rule_beats_effects(reason):
        if card.immune & {"deathblow", "deathblow_state"}:
            return False
        game.dying.add(card.id)
        try:
            for effect in triggers.collect(game, "would_deathblow", card):
                game.resolve(effect)
        finally:
            game.dying.discard(card.id)
        if card.zone != "field" or card.deathblow:
            return False
    owner = game.cards[cause].owner if cause in game.cards else None
    card.deathblow = True
    card.deathblow_cause = rules.deathblow_cause(cause, owner, battle)
    card.deathblow_by_battle = rules.deathblow_by_battle(reason, battle, card.battle_damaged)
    game.emit("deathblow", card=card.id, cause=card.deathblow_cause,
              battle=card.deathblow_by_battle)
    if not rules.destroyed_after_has_put:
        field.destroy(game, card)
    if card.deathblow_by_battle:
        for effect in triggers.collect(game, "deathblow_by_battle", card):
            game.resolve(effect)
    actor = rules.deathblow_by_effect_of(game, card, reason, cause, battle)
    if actor is not None:
        for effect in triggers.collect_by_opponent(game, "deathblow_by_opponent_effect", card,
                                                   actor):
            game.resolve(effect)
    if card.zone == "field":
        field.destroy(game, card)
    return True


# -- switch points ---------------------------------------------------------------------

def damage_reaches_durability(damage: int, durability: int) -> bool:
    """vision/IR-9.2.2.a, 1.10.12.f: accumulated damage at or above durability."""
    return damage > 0 and damage >= durability


def damage_exceeds_durability(damage: int, durability: int) -> bool:
    """Mutant: damage must go beyond durability."""
    return damage > durability


def accumulated(card: Card) -> int:
    """vision/IR-9.2.2.a: the damage accumulated on the card (蓄積)."""
    return card.damage


def last_hit_only(card: Card) -> int:
    """Mutant: only the latest hit is compared with durability; damage does not add up."""
    return card.last_hit


def modified_durability(game: Game, card: Card) -> int:
    """vision/IR-6.1.10, IR-9.2.2: "durability" is the value after every modifier."""
    return power.power_of(game, card)[1]


def printed_durability(game: Game, card: Card) -> int:
    """Mutant: deathblow compares with the printed durability, ignoring modifiers."""
    return power.fixed_base(game, card)[1]


def durability_zero_or_less(durability: int, damage: int) -> bool:
    """vision/IR-9.2.2.b: durability 0 or less."""
    return durability <= 0


def durability_below_zero(durability: int, damage: int) -> bool:
    """Mutant: only a negative durability counts."""
    return durability < 0


def durability_one_or_less(durability: int, damage: int) -> bool:
    """Mutant: off by one, durability 1 already counts as none left."""
    return durability <= 1


def durability_checked_with_damage(durability: int, damage: int) -> bool:
    """Mutant: durability is only looked at by the damage check, so a card with no
    damage survives durability 0."""
    return durability <= 0 and damage > 0


def no_cause_for_durability(game: Game, card: Card) -> str | None:
    """vision/reading/deathblow-cause-is-direct-damage: a 9.2.2.b deathblow has no damage
    source (and, QA-2013-11-13, is not "by the effect of a card")."""
    return None


def durability_modifier_is_cause(game: Game, card: Card) -> str | None:
    """Mutant: the card whose modifier lowered the durability is recorded as the cause."""
    lowering = [m.source for m in power.modifiers_on(game, card)
                if m.source and m.kind == "add" and isinstance(m.durability, int)
                and m.durability < 0]
    return lowering[-1] if lowering else None


def finishing_damage_source(card: Card) -> str | None:
    """vision/IR-1.10.12.f: the source of the damage that directly caused it."""
    return card.last_damage_source


def first_damage_source(card: Card) -> str | None:
    """Mutant: the source of the first damage the card took is recorded as the cause."""
    return card.first_damage_source


def durability_rule_beats_effects(reason: str) -> bool:
    """vision/IR-9.2.2.b このルールはカードの効果に優先する (and, read so, only .b: reading
    only-durability-rule-beats-effects): neither "cannot be" / "is not put into 決死状態"
    texts nor would-replacements stop it."""
    return reason == DURABILITY


def nothing_beats_effects(reason: str) -> bool:
    """Mutant: card effects can stop even a durability-0 deathblow."""
    return False


def durability_and_damage_beat_effects(reason: str) -> bool:
    """Mutant: lethal damage (9.2.2.a), like durability 0 or less, takes precedence over
    card effects, so a "not put into 決死状態" text stops only an instruction."""
    return reason in (DURABILITY, DAMAGE)


def instruction_puts_into_deathblow(game: Game, card: Card, source: str | None) -> None:
    """vision/IR-9.2.2.c: an effect that says "put into 決死状態" does so."""
    put_into_deathblow(game, card, INSTRUCTION, source, battle=False)


def instruction_does_nothing(game: Game, card: Card, source: str | None) -> None:
    """Mutant: the deathblow instruction is accepted but changes nothing."""


def instruction_destroys(game: Game, card: Card, source: str | None) -> None:
    """Mutant: "put into 決死状態" is read as "destroy": the card goes to the 冥界 without
    ever being in 決死状態."""
    field.destroy(game, card)


def durability_and_instruction_beat_effects(reason: str) -> bool:
    """Mutant: a deathblow instruction, like the durability rule, ignores "cannot be put
    into 決死状態" texts."""
    return reason in (DURABILITY, INSTRUCTION)


def cause_is_damage_source(source: str | None, source_owner: str | None,
                           battle: bool) -> str | None:
    """vision/IR-1.10.12.f: the one who put it into deathblow is the source of the damage."""
    return source


def cause_is_controller(source: str | None, source_owner: str | None,
                        battle: bool) -> str | None:
    """Mutant: the cause is recorded as the player controlling the source."""
    return source_owner


def by_card_effect(game: Game, card: Card, reason: str, cause: str | None,
                   battle: bool) -> str | None:
    """vision/QA-2013-11-13 (reading deathblow-by-card-effect): whose card's effect put
    ``card`` into deathblow, if an effect did: a 9.2.2.c instruction, or effect damage
    that directly caused a 9.2.2.a deathblow.  A 9.2.2.b deathblow is by the rule, and
    battle damage is not an effect."""
    if reason == DURABILITY or (reason == DAMAGE and battle) or cause not in game.cards:
        return None
    return game.cards[cause].owner


def durability_cut_by_modifier_card(game: Game, card: Card, reason: str, cause: str | None,
                                    battle: bool) -> str | None:
    """Mutant: a 9.2.2.b deathblow counts as by the effect of the card whose modifier
    arrived last (No.1280's -0/-3 would let No.1211 return the character)."""
    if reason == DURABILITY:
        sources = [m.source for m in power.modifiers_on(game, card) if m.source in game.cards]
        return game.cards[sources[-1]].owner if sources else None
    return by_card_effect(game, card, reason, cause, battle)


def battle_damage_by_effect(game: Game, card: Card, reason: str, cause: str | None,
                            battle: bool) -> str | None:
    """Mutant: battle damage counts as an effect of the attacking card."""
    if reason == DAMAGE and battle and cause in game.cards:
        return game.cards[cause].owner
    return by_card_effect(game, card, reason, cause, battle)


def cause_only_in_battle(source: str | None, source_owner: str | None,
                         battle: bool) -> str | None:
    """Mutant: only an attacker is remembered; effect damage leaves no cause."""
    return source if battle else None


def only_battle_damage(reason: str, battle: bool, ever_battle: bool) -> bool:
    """vision/QA-363: "by battle" holds only for deathblow caused by battle damage."""
    return reason == DAMAGE and battle


def any_damage_is_battle(reason: str, battle: bool, ever_battle: bool) -> bool:
    """Mutant: any damage-caused deathblow counts as "by battle"."""
    return reason == DAMAGE


def battle_damaged_card(reason: str, battle: bool, ever_battle: bool) -> bool:
    """Mutant: a card that took battle damage counts as put into 決死状態 by battle,
    whatever finished it (effect damage, 即死)."""
    return reason != DURABILITY and ever_battle


def never_by_battle(reason: str, battle: bool, ever_battle: bool) -> bool:
    """Mutant: the engine does not tell battle from other deathblows: never by battle."""
    return False
