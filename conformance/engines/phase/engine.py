"""`PhaseEngine`: the engine protocol (conformance/_engine.py) over one phase.rs game at a
time; each request is handed to the module that maps it."""

from __future__ import annotations

import json
from typing import Any

from conformance import Unsupported
from conformance.rulesets.mtg import oracle

from . import actions, cards, observation
from .mapping import PLAYER_KEYS, PLAYERS, SETUP_KEYS
from .state import GameState, Placed, Rejected


class PhaseEngine:
    """One phase.rs game at a time, in the engine protocol (conformance/_engine.py)."""

    def __init__(self) -> None:
        self.state: GameState | None = None

    def hello(self) -> dict[str, Any]:
        from importlib.metadata import version
        return {"name": "phase.rs (phase-python)", "version": version("phase-python"),
                "rulesets": ["mtg"], "vocabulary": {"mtg": 3}, "capabilities": {}}

    def close(self) -> None:
        if self.state is not None:
            self.state.close()

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        if ruleset != "mtg":
            raise Unsupported(f"phase.rs plays Magic only, not {ruleset!r}",
                              kind="engine-gap")
        unknown = set(setup) - SETUP_KEYS
        if unknown:
            raise Unsupported(f"setup keys {sorted(unknown)} are not mapped",
                              kind="not-mapped")
        self.state = None
        setup_objects: dict[str, dict[str, Any]] = {}
        placed: list[Placed] = []
        deck_cards: dict[str, dict[str, Any]] = {}
        decks: dict[str, list[str]] = {"p1": [], "p2": []}
        for player in PLAYERS:
            side = setup.get(player) or {}
            if set(side) - PLAYER_KEYS:
                raise Unsupported(f"setup/{player} keys {sorted(set(side) - PLAYER_KEYS)}",
                                  kind="not-mapped")
            for zone in ("library", "hand", "battlefield", "graveyard", "exile", "command"):
                for obj in side.get(zone, []):
                    name, card = cards.card_for(obj)
                    deck_cards[name] = card
                    decks[player].append(name)
                    placed.append((player, zone, obj))
                    setup_objects[obj["id"]] = obj
        # a player with no cards still needs a deck to start a game; the filler card is
        # removed from the game before the first action
        filler = oracle.card({"id": "filler", "name": "Conformance Filler",
                              "types": ["artifact"]})
        deck_cards[filler["name"]] = filler
        key = json.dumps(deck_cards, sort_keys=True)
        opening = cards.opening(key, (*decks["p1"], filler["name"]),
                                (*decks["p2"], filler["name"]))
        self.state = GameState(cards.engine(key), opening, setup, placed, setup_objects)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        g = self._game()
        before = g.checkpoint()
        try:
            events = actions.act(g, action)
        except Rejected as exc:
            g.roll_back()
            return {"accepted": False, "reason": str(exc)}
        finally:
            g.settled()
        # phase.rs has no event for a new shield: it is read off the state
        for to, shield in observation.shields(g, g.view()["state"])[before:]:
            events.append({"type": "shield", "to": to, "source": shield["source"]})
        return {"accepted": True, "events": events}

    def observe(self) -> dict[str, Any]:
        return observation.observe(self._game())

    def _game(self) -> GameState:
        if self.state is None:
            raise Unsupported("no game: start one first", kind="not-mapped")
        return self.state
