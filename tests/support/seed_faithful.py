"""Vision engines written for the verdict tests: they follow the seed and differ from
the reference engine only where the seed is silent.

They wrap the reference engine (for its rules) and change what an independent
author could legitimately do otherwise:

- the shuffle order (another random generator);
- a card with no name is observed as ``names: ['']`` rather than ``[]``;
- cards off the field show no power (``attack``/``durability`` null): the seed
  does not say what a card in the hand, deck or 冥界 "has";
- the events of a step are reversed where the rules fix no order between them
  (two events are swapped only when neither is a deck operation or a shuffle,
  whose order 3.2.5 fixes, and they concern different cards).

`ChattyEngine` also observes an attribute no ruleset defines on every card on
the field: still no seed rule broken, but now the reference comparison
differs, which must be reported apart and fail nothing.

Plugged in as ``--engine python:seed_faithful:SeedFaithfulEngine``.
"""

from __future__ import annotations

import random
from typing import Any

from reference_engine import create_engine

#: Events whose relative order a rule fixes (3.2.5: shuffle before the next deck operation).
_ORDERED = {"shuffle", "draw", "reveal", "look", "discard", "mill"}


class SeedFaithfulEngine:
    def __init__(self) -> None:
        self.inner = create_engine()
        self.rng = random.Random(20261201)

    def hello(self) -> dict[str, Any]:
        # written against the Vision seed only: claiming the reference engine's other
        # rulesets would certify them with Vision's liberties
        return {**self.inner.hello(), "name": "seed-faithful", "rulesets": ["vision"],
                "capabilities": {}}

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        self.inner.start(ruleset, setup)
        self.inner._game.state.rng = random.Random(self.rng.random())

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        reply = self.inner.act(action)
        reply["events"] = _reorder(reply.get("events", []))
        return reply

    def observe(self) -> dict[str, Any]:
        state = self.inner.observe()
        for card in state.get("cards", {}).values():
            if card.get("names") == []:
                card["names"] = [""]
            if card.get("zone") != "field":
                card["attack"] = card["durability"] = None
        return state

    def close(self) -> None:
        self.inner.close()


class ChattyEngine(SeedFaithfulEngine):
    """Also shows an attribute of its own on every card on the field."""

    def observe(self) -> dict[str, Any]:
        state = super().observe()
        for card in state.get("cards", {}).values():
            if card.get("zone") == "field":
                card["sparkle"] = True
        return state


def _reorder(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Swap neighbours whose order no rule fixes (see the module docstring)."""
    events = list(events)
    i = 0
    while i + 1 < len(events):
        a, b = events[i], events[i + 1]
        free = (a.get("type") not in _ORDERED and b.get("type") not in _ORDERED
                and a.get("card") != b.get("card") and a.get("type") != b.get("type"))
        if free:
            events[i], events[i + 1] = b, a
            i += 2
        else:
            i += 1
    return events
