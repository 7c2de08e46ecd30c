"""The public API of a ruleset pack: what a pack imports to declare its properties.

A pack (``conformance.rulesets.<name>`` or a package of its own, see
docs/rulesets/README.md) declares ``PROPERTIES``, a list of `Property` made
with `invariant`.  Each property's check drives the engine under test through
`Play`, reads the `Trace`, and raises `Violation` when the rule is broken;
`run_accepted` runs a scenario whose every step must be accepted; `record_traits`
counts the traits an example reached, the pack's own labels of what a generated
scenario exercises (the one way a pack records Hypothesis events: property code
also runs outside a Hypothesis test).
"""

from conformance._properties import (
    Play,
    Property,
    Scenario,
    Trace,
    Violation,
    invariant,
    record_traits,
    run_accepted,
    short,
)

__all__ = ["Play", "Property", "Scenario", "Trace", "Violation", "invariant", "record_traits",
           "run_accepted", "short"]
