"""The reference engine object: one `Engine` for every ruleset it models.

Rulesets are sibling packages (``reference_engine.vision``; ``mtg`` and
``zatch`` join `RULESETS` the same way).  Each package exposes ``RULESET``,
``MUTANTS`` and ``new_game(setup, mutant)`` returning an object with
``act(action)`` and ``observe()``; this module only dispatches.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from conformance import Unsupported
from reference_engine._mutant import Mutant

NAME = "reference"
VERSION = "0.1.0"

#: ruleset name -> the package that models it.
RULESETS: dict[str, str] = {
    "vision": "reference_engine.vision",
    "mtg": "reference_engine.mtg",
    "zatch": "reference_engine.zatch",
}


def ruleset_module(ruleset: str) -> ModuleType:
    """The package modelling ``ruleset``; `Unsupported` if there is none."""
    if ruleset not in RULESETS:
        raise Unsupported(
            f"the reference engine does not model ruleset {ruleset!r}; "
            f"it models {sorted(RULESETS)}"
        )
    return importlib.import_module(RULESETS[ruleset])


class ReferenceEngine:
    """The executable model of the seed rules, optionally with one mutant applied."""

    def __init__(self, mutant: Mutant | None = None, all_mutants: list[str] | None = None):
        self.mutant = mutant
        self._mutant_names = list(all_mutants or [])
        self._game: Any = None

    def hello(self) -> dict[str, Any]:
        capabilities: dict[str, Any] = {"mutants": list(self._mutant_names)}
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
