"""An engine on its way: the reference engine, claiming Vision only, that maps
just the ``battle_damage`` and ``draw`` actions and answers `Unsupported` to the rest.

It plays what it maps correctly, so every item it runs passes and most are
skipped: the shape of an engine author's first week (issue "honest verdicts").
``python:partial:create`` with tests/fakes on the path.
"""

from __future__ import annotations

from typing import Any

from conformance import Unsupported
from reference_engine import create_engine

MAPPED = {"battle_damage", "draw"}


class Partial:
    def __init__(self, mapped: set[str]) -> None:
        self.inner = create_engine()
        self.mapped = mapped

    def hello(self) -> dict[str, Any]:
        return {"name": "partial", "version": "0.1", "rulesets": ["vision"], "capabilities": {}}

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        self.inner.start(ruleset, setup)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        unmapped = sorted(set(action) - self.mapped)
        if unmapped:
            raise Unsupported(f"action {unmapped[0]!r} not mapped yet")
        return self.inner.act(action)

    def observe(self) -> dict[str, Any]:
        return self.inner.observe()

    def close(self) -> None:
        self.inner.close()


def create() -> Partial:
    return Partial(MAPPED)


def create_one() -> Partial:
    """Maps ``battle_damage`` alone: fewer items checked than `create`."""
    return Partial({"battle_damage"})
