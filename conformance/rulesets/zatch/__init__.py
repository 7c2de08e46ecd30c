"""The Zatch Bell 真ルール ruleset pack: strategies and properties in the vocabulary of
docs/rulesets/zatch.md.  The runner finds the properties through ``PROPERTIES`` and the
catalogue through ``CASES``.

- `strategies`: Hypothesis strategies of scenarios (setup + steps), vocabulary only;
- `expected`: what the seed says should happen, computed without any engine;
- `properties`: the rule invariants, each tagged with the rule ids it checks;
- `exhaustive`: every jammer chain up to depth 4 over a few effect kinds.
"""

from __future__ import annotations

from typing import Any

from conformance.rulesets import bundled_cases

#: The pack's catalogue (rules.yaml and the cases): the repository's cases/zatch/.
CASES = bundled_cases("zatch")


def __getattr__(attr: str) -> Any:
    # PROPERTIES pulls in Hypothesis and the strategies: imported when the properties
    # are asked for, not when the catalogue only needs CASES.
    if attr == "PROPERTIES":
        from conformance.rulesets.zatch.exhaustive import jammer_chains_exhaustive
        from conformance.rulesets.zatch.properties import RULE_PROPERTIES

        PROPERTIES = [*RULE_PROPERTIES, jammer_chains_exhaustive]
        globals()["PROPERTIES"] = PROPERTIES   # asked once
        return PROPERTIES
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
