"""The reference engine object: one `Engine` for every ruleset it models.

Each ruleset is a reference-engine pack registered in the entry-point group
``card_conformance.reference_engines`` (the bundled ``reference_engine.vision``,
``mtg`` and ``zatch`` in pyproject.toml, any other in its own distribution).
A pack exposes ``RULESET``, ``MUTANTS`` and ``new_game(setup, mutant)``
returning an object with ``act(action)`` and ``observe()``; this module only
dispatches.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from conformance import Unsupported, _discovery
from reference_engine._mutant import Mutant

NAME = "reference"
VERSION = "0.1.0"

#: The rulesets modelled: every installed reference-engine pack, by name.
RULESETS: list[str] = _discovery.reference_engine_names()


def ruleset_module(ruleset: str) -> ModuleType:
    """The pack modelling ``ruleset``; `Unsupported` if there is none."""
    if ruleset not in RULESETS:
        raise Unsupported(
            f"the reference engine does not model ruleset {ruleset!r}; "
            f"it models {sorted(RULESETS)}"
        )
    return _discovery.reference_engine_pack(ruleset)


class ReferenceEngine:
    """The executable model of the seed rules, optionally with one mutant applied."""

    def __init__(self, mutant: Mutant | None = None, all_mutants: list[Mutant] | None = None):
        self.mutant = mutant
        self._mutants = list(all_mutants or [])
        self._game: Any = None

    def hello(self, mutant: str | None = None) -> dict[str, Any]:
        # The `mutants` capability (docs/protocol.md): what mutation analysis runs.
        # Asked with a mutant's name, the engine becomes that mutant and says so.
        if mutant is not None:
            by_name = {m.name: m for m in self._mutants}
            if mutant not in by_name:
                raise ValueError(f"unknown mutant {mutant!r}")
            self.mutant = by_name[mutant]
        capabilities: dict[str, Any] = {"mutants": [
            {"name": m.name, "ruleset": m.ruleset, "rules": list(m.rules),
             "description": m.description} for m in self._mutants]}
        if self.mutant is not None:
            capabilities["mutant"] = self.mutant.name
        return {
            "name": NAME,
            "version": VERSION,
            "rulesets": list(RULESETS),
            "capabilities": capabilities,
        }

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        module = ruleset_module(ruleset)
        mutant = self.mutant if self.mutant and self.mutant.ruleset == ruleset else None
        self._game = None
        self._game = module.new_game(setup, mutant)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        return self._current().act(action)

    def observe(self) -> dict[str, Any]:
        return self._current().observe()

    def close(self) -> None:
        self._game = None

    def _current(self) -> Any:
        if self._game is None:
            raise RuntimeError("no game in progress: call start(ruleset, setup) first")
        return self._game
