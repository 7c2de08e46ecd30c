"""Cards entering and leaving the field.

A card entering the field is a fresh object: damage, modifiers, negation,
name changes, gained clauses and its deathblow record are reset.  A card that
leaves keeps what it had, so an observation after it died still shows why.
"""

from __future__ import annotations

from reference_engine.vision import power, triggers
from reference_engine.vision.model import Card, Effect
from reference_engine.vision.state import Game


def enter(game: Game, card: Card) -> list[Effect]:
    """Put ``card`` onto its owner's field; return the enters_field effects it set off.

    The caller checks deathblow (9.2.2) and then resolves the returned effects.
    """
    game.move(card, "field")
    if game.rules.damage_cleared_on_entry:
        card.damage = 0
    card.name = card.printed_name
    card.link_names = list(card.printed_links)
    card.gained = []
    card.text_negated = card.text_negation_total = False
    card.auto_negated = card.auto_negation_total = False
    card.deathblow = card.deathblow_by_battle = False
    card.deathblow_cause = card.last_damage_source = None
    card.last_damage_battle = card.battle_damaged = False
    card.last_hit, card.first_damage_source = 0, None
    card.entered_at = game.tick()
    game.modifiers = [m for m in game.modifiers if m.target != card.id]
    power.refresh(game, card)
    return triggers.collect(game, "enters_field", card)


def destroy(game: Game, card: Card) -> None:
    """Put ``card`` into its owner's 冥界."""
    game.move(card, "graveyard")
    game.emit("destroyed", card=card.id)


def return_to_hand(game: Game, card: Card) -> None:
    game.move(card, "hand")
    game.emit("returned", card=card.id)
