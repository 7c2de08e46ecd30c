"""The Vision ruleset pack: strategies and properties in the vocabulary of
docs/rulesets/vision.md.  The runner finds the properties through ``PROPERTIES``.

- `strategies`: Hypothesis strategies of scenarios (setup + steps), vocabulary only;
- `expected`: what the seed says should happen, computed without any engine;
- `properties`: the rule invariants, each tagged with the rule ids it checks;
- `differential`: the engine under test against the reference engine.
"""

from conformance.rulesets.vision.differential import differential
from conformance.rulesets.vision.properties import RULE_PROPERTIES

PROPERTIES = [*RULE_PROPERTIES, differential]

__all__ = ["PROPERTIES"]
