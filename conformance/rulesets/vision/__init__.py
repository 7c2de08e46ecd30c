"""The Vision ruleset pack: strategies and properties in the vocabulary of
docs/rulesets/vision.md.  The runner finds the properties through ``PROPERTIES`` and the
catalogue through ``CASES``.

- `strategies`: Hypothesis strategies of scenarios (setup + steps), vocabulary only;
- `expected`: what the seed says should happen, computed without any engine;
- `properties`: the rule invariants, each tagged with the rule ids it checks;
- `differential`: the engine under test against the reference engine.
"""

from __future__ import annotations

from typing import Any

from conformance.rulesets import bundled_cases

#: The pack's catalogue (rules.yaml and the cases): the repository's cases/vision/.
CASES = bundled_cases("vision")


def __getattr__(attr: str) -> Any:
    # PROPERTIES pulls in Hypothesis and the strategies: imported when the properties
    # are asked for, not when the catalogue only needs CASES.
    if attr == "PROPERTIES":
        from conformance.rulesets.vision.differential import differential
        from conformance.rulesets.vision.properties import RULE_PROPERTIES

        PROPERTIES = [*RULE_PROPERTIES, differential]
        globals()["PROPERTIES"] = PROPERTIES   # asked once
        return PROPERTIES
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
