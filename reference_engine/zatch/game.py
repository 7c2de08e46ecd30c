"""One Zatch game behind the engine protocol: ``act`` and ``observe``."""

from __future__ import annotations

from typing import Any

from reference_engine._mutant import Mutant
from reference_engine.zatch import actions, rules
from reference_engine.zatch.model import PLAYERS, read_setup
from reference_engine.zatch.state import Game


class ZatchGame:
    """A game built from a canonical setup, under the reference rules or a mutant's."""

    def __init__(self, setup: Any, mutant: Mutant | None = None):
        settings, cards = read_setup(setup)
        self.state = Game(rules.with_patch(dict(mutant.patch) if mutant else None),
                          settings, cards)

    def act(self, action: Any) -> dict[str, Any]:
        return actions.act(self.state, action)

    def observe(self) -> dict[str, Any]:
        game, board = self.state, self.state.board
        latest = {i.card: i.n for i in game.instances}
        cards = {
            cid: {"zone": game.zone_of(cid), "owner": card.owner,
                  "used": game.used.get(cid, 0),
                  "negated": latest.get(cid) in board.negated,
                  "staying": cid in board.staying,
                  "standing_by": cid in board.standby}
            for cid, card in game.cards.items()
        }
        battle = board.battle
        players = {
            p: {"mp": board.mp[p], "damage": board.damage[p],
                "hand": list(board.zones[p]["hand"]), "field": list(board.zones[p]["field"]),
                "discard": list(board.zones[p]["discard"]),
                "turn": board.turn == p, "phase": board.phase,
                "battle_step": battle.step if battle else None}
            for p in PLAYERS
        }
        return {"cards": cards, "players": players}


def new_game(setup: Any, mutant: Mutant | None = None) -> ZatchGame:
    return ZatchGame(setup, mutant)
