"""What a mutant is: the reference engine with exactly the named rules broken.

A mutant is data: its name, the ruleset it belongs to, the rule ids it breaks
and a *patch*, a mapping from switch-point names of that ruleset's rules
record to replacement values.  No engine code is copied to make one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One deliberately wrong variant of the reference engine."""

    name: str
    ruleset: str
    rules: list[str]
    description: str
    patch: Mapping[str, Any] = dataclasses.field(repr=False, compare=False)


def patched(reference: Any, patch: Mapping[str, Any] | None) -> Any:
    """``reference`` (a frozen dataclass of switch points) with the fields in ``patch``
    replaced; a field the record does not have is an error, so a typo is never a no-op."""
    if not patch:
        return reference
    unknown = sorted(set(patch) - {f.name for f in dataclasses.fields(reference)})
    if unknown:
        raise ValueError(f"mutant patches unknown switch points {unknown}")
    return dataclasses.replace(reference, **patch)
