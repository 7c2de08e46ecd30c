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

from conformance.rulesets import bundled_cases, lazy_properties

#: The pack's catalogue (rules.yaml and the cases): the repository's cases/zatch/.
CASES = bundled_cases("zatch")


def _properties() -> list[Any]:
    from conformance.rulesets.zatch.exhaustive import jammer_chains_exhaustive
    from conformance.rulesets.zatch.properties import RULE_PROPERTIES

    return [*RULE_PROPERTIES, jammer_chains_exhaustive]


# PROPERTIES is built when first asked for (Hypothesis is not needed for CASES)
__getattr__ = lazy_properties(__name__, _properties)
