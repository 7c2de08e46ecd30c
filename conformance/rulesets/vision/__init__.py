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

from conformance.rulesets import bundled_cases, lazy_properties

#: The pack's catalogue (rules.yaml and the cases): the repository's cases/vision/.
CASES = bundled_cases("vision")


def _properties() -> list[Any]:
    from conformance.rulesets.vision.differential import differential
    from conformance.rulesets.vision.properties import RULE_PROPERTIES

    return [*RULE_PROPERTIES, differential]


# PROPERTIES is built when first asked for (Hypothesis is not needed for CASES)
__getattr__ = lazy_properties(__name__, _properties)
