"""The state of one Vision game: zones, nodes, modifiers, the event log.

`Game` holds data and the bookkeeping every rule module shares (moving cards,
timestamps, events).  It decides no rule itself: the switch-point record
(``rules``, the reference or a mutant's) is injected by ``game`` as
``game.rules`` and consulted by the rule modules, which never import it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from reference_engine._bookkeeping import Bookkeeping
from reference_engine.vision.model import PLAYERS, ZONES, Card, Effect, Modifier


class Game(Bookkeeping):
    """Two players, their cards, and what happened so far in the current action."""

    def __init__(self, rules: Any, seed: int, nodes: dict[str, int], cards: list[Card]):
        self.rules = rules
        self.rng = random.Random(seed)  # noqa: S311 - a game shuffle, reproducible on purpose
        self.nodes = dict(nodes)
        self.cards: dict[str, Card] = {c.id: c for c in cards}
        self.zones: dict[str, dict[str, list[str]]] = {
            p: {z: [c.id for c in cards if c.owner == p and c.zone == z] for z in ZONES}
            for p in PLAYERS
        }
        self.modifiers: list[Modifier] = []          # from `power` instructions
        self.events: list[dict[str, Any]] = []
        self.resolving: list[Effect] = []             # the resolution stack
        self.pending_shuffles: dict[str, Effect] = {}  # player -> effect that saw the whole deck
        self.dying: set[str] = set()                   # cards between "would" and "has" deathblow
        self.computing_power: set[str] = set()
        self._clock = 0
        # Injected by `game.VisionGame`: two rules that lower layers call but that
        # are stated above them.  Resolving one effect (chapter 12, `resolution`):
        # `deathblow` resolves the auto effects its steps set off, and resolution
        # checks deathblow after each part.  A card's combat power (6.1.10,
        # `power`): a FILTER can ask for it (`selectors`), and power reads the
        # selectors of the continuous modifiers on the field.
        self.resolve: Callable[[Effect], bool] = _not_wired("resolve", "resolution")
        self.power_of: Callable[[Card], tuple[int, int]] = _not_wired("power_of", "power")
        for card in self.field_cards():
            card.entered_at = self.tick()

    def zone_cards(self, player: str, zone: str) -> list[Card]:
        return [self.cards[i] for i in self.zones[player][zone]]

    def field_cards(self) -> list[Card]:
        """Every card on the field: p1's (the active player) first, in field order."""
        return [c for p in PLAYERS for c in self.zone_cards(p, "field")]

    def all_cards(self) -> list[Card]:
        """Every card in a zone, p1 before p2, zones in vocabulary order."""
        return [c for p in PLAYERS for z in ZONES for c in self.zone_cards(p, z)]

    def move(self, card: Card, zone: str, *, front: bool = False) -> None:
        """Move ``card`` to its owner's ``zone`` (``resolving`` is off every zone list)."""
        if card.zone in ZONES:
            self.zones[card.owner][card.zone].remove(card.id)
        card.zone = zone
        if zone in ZONES:
            pile = self.zones[card.owner][zone]
            if front:
                pile.insert(0, card.id)
            else:
                pile.append(card.id)


def _not_wired(name: str, module: str) -> Callable[..., Any]:
    def fail(*args: Any) -> Any:
        raise RuntimeError(f"Game.{name} was not wired to the {module} module")
    return fail
