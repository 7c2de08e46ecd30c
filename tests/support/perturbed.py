"""Engines that are not the reference and break rules: the reference engine's game
behind a wrapper that misreports what happened in half of the games.

`Perturbed(effect)` is an in-process `conformance.Engine` named ``perturbed-<effect>``
(not the reference: it lists no mutants, and the suite cannot tell it from any
other engine).  Which games it misreports depends only on the setup (a hash of
it), so it is deterministic, as Hypothesis needs, and a metamorphic property's
two related scenarios (renamed cards, swapped players) are told apart too.
``python:perturbed:<factory>`` names each effect for a child process.

The effects, each a bug a real engine could have:

- ``reject``: every action is refused ("accepted": false), changing nothing;
- ``accept``: every refused action is reported accepted;
- ``events``: no step reports any event;
- ``state``: every number ``observe()`` reports is one more than it is.

`EFFECTS` lists them (tests/harness/test_failing_engines.py checks that every
property of the installed packs fails under one).  ``Perturbed(None, mutant)`` is
one of the reference engine's mutants behind the same wrapper, misreporting nothing:
a bug of the rules themselves, in an engine the suite cannot tell from any other.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import reference_engine

EFFECTS = ("reject", "accept", "events", "state")


def _misreports(setup: dict[str, Any]) -> bool:
    """The games this engine gets wrong: half of them, by the setup alone."""
    return zlib.crc32(json.dumps(setup, sort_keys=True).encode()) % 2 == 1


def _plus_one(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, dict):
        return {k: _plus_one(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plus_one(v) for v in value]
    return value


class Perturbed:
    """The reference engine's rules, misreported as ``effect`` says in half the games."""

    def __init__(self, effect: str | None, mutant: str | None = None) -> None:
        if effect is not None and effect not in EFFECTS:
            raise ValueError(f"unknown effect {effect!r}; one of {EFFECTS}")
        self.effect = effect
        self._base = reference_engine.create_engine(mutant)
        self._wrong = False

    def hello(self) -> dict[str, Any]:
        info = self._base.hello()
        return {"name": f"perturbed-{self.effect or 'none'}", "version": "1.0",
                "rulesets": info["rulesets"], "capabilities": {}}

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        self._base.start(ruleset, setup)
        self._wrong = self.effect is not None and _misreports(setup)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if self._wrong and self.effect == "reject":
            return {"accepted": False, "reason": "perturbed: refused", "events": []}
        reply: dict[str, Any] = self._base.act(action)
        if not self._wrong:
            return reply
        if self.effect == "accept" and not reply.get("accepted"):
            return {"accepted": True, "events": []}
        if self.effect == "events":
            return {**reply, "events": []}
        return reply

    def observe(self) -> dict[str, Any]:
        state: dict[str, Any] = self._base.observe()
        if self._wrong and self.effect == "state":
            return dict(_plus_one(state))
        return state

    def close(self) -> None:
        self._base.close()


def reject() -> Perturbed:
    return Perturbed("reject")


def accept() -> Perturbed:
    return Perturbed("accept")


def events() -> Perturbed:
    return Perturbed("events")


def state() -> Perturbed:
    return Perturbed("state")
