"""The Zatch Bell 真ルール ruleset pack: strategies and properties in the vocabulary of
docs/rulesets/zatch.md.  The runner finds the properties through ``PROPERTIES``.

- `strategies`: Hypothesis strategies of scenarios (setup + steps), vocabulary only;
- `expected`: what the seed says should happen, computed without any engine;
- `properties`: the rule invariants, each tagged with the rule ids it checks;
- `exhaustive`: every jammer chain up to depth 4 over a few effect kinds.
"""

from conformance.rulesets.zatch.exhaustive import jammer_chains_exhaustive
from conformance.rulesets.zatch.properties import RULE_PROPERTIES

PROPERTIES = [*RULE_PROPERTIES, jammer_chains_exhaustive]

__all__ = ["PROPERTIES"]
