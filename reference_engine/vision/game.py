"""One Vision game behind the engine protocol: ``act`` and ``observe``."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from reference_engine._mutant import Mutant
from reference_engine.vision import actions, names, power, resolution, rules, vocabulary
from reference_engine.vision.model import PLAYERS
from reference_engine.vision.state import Game


def seed_of(setup: Any) -> int:
    """A shuffle seed derived from the setup itself, so equal setups shuffle alike."""
    text = json.dumps(setup, sort_keys=True, ensure_ascii=False, default=str)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class VisionGame:
    """A game built from a canonical setup, under the reference rules or a mutant's."""

    def __init__(self, setup: Any, mutant: Mutant | None = None):
        nodes, cards = vocabulary.read_setup(setup)
        self.state = Game(rules.with_patch(dict(mutant.patch) if mutant else None),
                          seed_of(setup), nodes, cards)
        self.state.resolve = functools.partial(resolution.resolve, self.state)
        self.state.power_of = functools.partial(power.power_of, self.state)
        for card in cards:
            power.refresh(self.state, card)

    def act(self, action: Any) -> dict[str, Any]:
        return actions.act(self.state, action)

    def observe(self) -> dict[str, Any]:
        game = self.state
        cards = {}
        for card in game.cards.values():
            attack, durability = power.power_of(game, card)
            cards[card.id] = {
                "zone": card.zone,
                "owner": card.owner,
                "names": names.names_of(card),
                "attack": attack,
                "durability": durability,
                "damage": card.damage,
                "deathblow": card.deathblow,
                "deathblow_cause": card.deathblow_cause,
                "deathblow_by_battle": card.deathblow_by_battle,
                "negated": card.text_negated,
            }
        players = {
            p: {
                "nodes": game.nodes[p],
                "hand": list(game.zones[p]["hand"]),
                "field": list(game.zones[p]["field"]),
                "graveyard": list(game.zones[p]["graveyard"]),
                "deck_size": len(game.zones[p]["deck"]),
            }
            for p in PLAYERS
        }
        return {"cards": cards, "players": players}


def new_game(setup: Any, mutant: Mutant | None = None) -> VisionGame:
    return VisionGame(setup, mutant)
