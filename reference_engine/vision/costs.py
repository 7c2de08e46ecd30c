"""Costs: what a card costs to play, and what X is (QA-269)."""

from __future__ import annotations

from reference_engine.vision import negation
from reference_engine.vision.model import Card
from reference_engine.vision.state import Game


def cost_delta(game: Game, player: str) -> int:
    """The sum of active cost modifiers (``{cost: N}``) on ``player``'s field."""
    total = 0
    for holder in game.zone_cards(player, "field"):
        for clause in negation.clauses_of(game, holder):
            if (clause.kind == "continuous" and clause.modifier and "cost" in clause.modifier
                    and negation.clause_active(game, holder, clause)):
                total += int(clause.modifier["cost"])
    return total


def cost_due(game: Game, card: Card, player: str) -> int | None:
    """Nodes ``player`` must pay for ``card``; None when its cost is X (any amount)."""
    if card.cost == "X":
        return None
    return max(0, int(card.cost) + cost_delta(game, player))


def x_is_nodes_paid(paid: int, delta: int) -> int:
    """vision/QA-269: X is the cost actually paid from nodes, not "paid ± the modifier"."""
    return paid


def x_includes_modifier(paid: int, delta: int) -> int:
    """Mutant: X is the nodes paid adjusted by the cost modifier in force."""
    return paid + delta
