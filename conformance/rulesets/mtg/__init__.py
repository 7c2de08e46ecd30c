"""The MTG ruleset pack (rule 609, Effects): strategies and properties in the vocabulary of
docs/rulesets/mtg.md.  The runner finds the properties through ``PROPERTIES`` and the
catalogue through ``CASES``.

- `strategies`: Hypothesis strategies of scenarios (setup + steps), vocabulary only;
- `expected`: what the seed says should happen, computed without any engine;
- `properties`: the rule invariants, each tagged with the rule ids it checks;
- `metamorphic`: the engine against itself on renamed, swapped or padded scenarios.
"""

from __future__ import annotations

from typing import Any

from conformance.rulesets import bundled_cases, lazy_properties

#: The pack's catalogue (rules.yaml and the cases): the repository's cases/mtg/.
CASES = bundled_cases("mtg")


def _properties() -> list[Any]:
    from conformance.rulesets.mtg.metamorphic import metamorphic
    from conformance.rulesets.mtg.properties import (
        any_type_payment_keeps_cost_and_types,
        as_though_permissions_combine,
        characteristic_checked_at_damage,
        do_as_much_as_possible,
        no_zone_means_permanents_only,
        shield_prevents_at_most_the_damage,
    )

    return [
        shield_prevents_at_most_the_damage,
        characteristic_checked_at_damage,
        do_as_much_as_possible,
        no_zone_means_permanents_only,
        as_though_permissions_combine,
        any_type_payment_keeps_cost_and_types,
        metamorphic,
    ]


# PROPERTIES is built when first asked for (Hypothesis is not needed for CASES)
__getattr__ = lazy_properties(__name__, _properties)
