"""Costs: what a card costs to play, and what X is (QA-269)."""

from __future__ import annotations

from typing import Any

from reference_engine.vision import negation
from reference_engine.vision.model import Card
from reference_engine.vision.state import Game


def cost_delta(game: Game, player: str) -> int:
    """The sum of active cost modifiers (``{cost: N}``) on ``player``'s field."""
    total = 0
    for holder in game.zone_cards(player, "field"):
        for clause in negation.clauses_of(game, holder):
            if (clause.kind == "continuous" and clause.modifier and "cost" in clause.modifier
                    and game.rules.cost_clause_active(game, holder, clause)):
                total += int(clause.modifier["cost"])
    return total


def cost_due(game: Game, card: Card, player: str) -> int | None:
    """Nodes ``player`` must pay for ``card``; None when its cost is X (any amount)."""
    if card.cost == "X":
        return None
    return game.rules.due_cost(int(card.cost), cost_delta(game, player))


def x_is_nodes_paid(paid: int, delta: int) -> int:
    """vision/QA-269: X is the cost actually paid from nodes, not "paid ± the modifier"."""
    return paid


def x_includes_modifier(paid: int, delta: int) -> int:
    """Mutant: X is the nodes paid adjusted by the cost modifier in force."""
    return paid + delta


def x_is_paid_minus_modifier(paid: int, delta: int) -> int:
    """Mutant: X is the declared cost the payment stands for (paid 4 under cost -1: X=5)."""
    return paid - delta


def printed_cost_plus_modifier(printed: int, delta: int) -> int:
    """QA-269 (its premise): a cost ±Y effect in force changes what a card costs."""
    return max(0, printed + delta)


def printed_cost(printed: int, delta: int) -> int:
    """Mutant: cost modifiers are shown but never change what must be paid."""
    return printed


def refund_negated_play(game: Game, effect: Any) -> None:
    """Mutant: negating the effect of a card being played gives its player back the
    nodes paid for it (the X paid, or what the card costs now)."""
    card = game.cards.get(effect.source or "")
    if card is None or card.zone != "resolving":
        return
    paid = card.x_paid if card.cost == "X" else cost_due(game, card, effect.controller)
    game.nodes[effect.controller] += paid or 0
