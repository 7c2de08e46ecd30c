"""An engine that lacks one whole feature: the reference engine, refusing as unsupported
every game that reaches it.

`Lacking(ruleset, key)` plays ``ruleset`` only, and answers `Unsupported` (an engine
gap) to any setup or action in which ``key`` appears as a key anywhere (``"shield"``:
an effect making a damage shield; ``"deathblow"``: an instruction putting a card into
決死状態; ``"standby"``: a 【スタンバイ】 effect; ``"interrupt"``: using an effect as an
interrupt).  Everything else it plays right, so a property's examples that do not reach
the feature pass, and only the exercised counts (`Property.exercises`) tell that they
never checked the feature's rules.
"""

from __future__ import annotations

from typing import Any

from conformance import Unsupported
from reference_engine import create_engine


def mentions(value: Any, key: str) -> bool:
    """Does ``key`` appear as a mapping key anywhere in ``value``?"""
    if isinstance(value, dict):
        return key in value or any(mentions(v, key) for v in value.values())
    if isinstance(value, list):
        return any(mentions(v, key) for v in value)
    return False


class Lacking:
    """The reference engine on one ruleset, without the feature ``key`` names."""

    def __init__(self, ruleset: str, key: str) -> None:
        self.ruleset, self.key = ruleset, key
        self.inner = create_engine()

    def hello(self) -> dict[str, Any]:
        return {**self.inner.hello(), "name": f"no-{self.key}", "rulesets": [self.ruleset]}

    def _refuse(self, value: Any) -> None:
        if mentions(value, self.key):
            raise Unsupported(f"no {self.key}", kind="engine-gap")

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        self._refuse(setup)
        self.inner.start(ruleset, setup)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        self._refuse(action)
        reply: dict[str, Any] = self.inner.act(action)
        return reply

    def observe(self) -> dict[str, Any]:
        state: dict[str, Any] = self.inner.observe()
        return state

    def close(self) -> None:
        self.inner.close()
