"""The reference engine: an executable model of exactly the seed rules.

It knows nothing of the suite beyond the engine protocol.  What callers use:

- `create_engine` returns an `Engine` (optionally a named mutant of it),
- `list_mutants` / `MUTANTS` list the deliberately broken variants the suite
  must kill, each naming the rule ids it breaks.
"""

from __future__ import annotations

from reference_engine._engine import RULESETS, ReferenceEngine, ruleset_module
from reference_engine._mutant import Mutant


def _collect() -> dict[str, Mutant]:
    found: dict[str, Mutant] = {}
    for ruleset in RULESETS:
        for mutant in ruleset_module(ruleset).MUTANTS:
            if mutant.name in found:
                raise RuntimeError(f"mutant name {mutant.name!r} is defined twice")
            found[mutant.name] = mutant
    return found


#: Every mutant of every ruleset, by name.
MUTANTS: dict[str, Mutant] = _collect()


def list_mutants(ruleset: str | None = None) -> list[Mutant]:
    """The mutants of ``ruleset`` (all rulesets when None), in registry order."""
    return [m for m in MUTANTS.values() if ruleset is None or m.ruleset == ruleset]


def create_engine(mutant: str | None = None) -> ReferenceEngine:
    """The reference engine, or the mutant called ``mutant``.

    Raises ValueError naming the valid mutants when ``mutant`` is unknown.
    """
    if mutant is None:
        return ReferenceEngine(None, list(MUTANTS.values()))
    if mutant not in MUTANTS:
        raise ValueError(
            f"unknown mutant {mutant!r}; valid mutants: {', '.join(MUTANTS)}"
        )
    return ReferenceEngine(MUTANTS[mutant], list(MUTANTS.values()))


__all__ = ["MUTANTS", "RULESETS", "Mutant", "ReferenceEngine", "create_engine", "list_mutants"]
