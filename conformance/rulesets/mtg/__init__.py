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

from conformance.rulesets import bundled_cases

#: The pack's catalogue (rules.yaml and the cases): the repository's cases/mtg/.
CASES = bundled_cases("mtg")


def __getattr__(attr: str) -> Any:
    # PROPERTIES pulls in Hypothesis and the strategies: imported when the properties
    # are asked for, not when the catalogue only needs CASES.
    if attr == "PROPERTIES":
        from conformance.rulesets.mtg.metamorphic import metamorphic
        from conformance.rulesets.mtg.properties import (
            any_type_payment_keeps_cost_and_types,
            as_though_permissions_combine,
            characteristic_checked_at_damage,
            do_as_much_as_possible,
            no_zone_means_permanents_only,
            shield_prevents_at_most_the_damage,
        )

        PROPERTIES = [
            shield_prevents_at_most_the_damage,
            characteristic_checked_at_damage,
            do_as_much_as_possible,
            no_zone_means_permanents_only,
            as_though_permissions_combine,
            any_type_payment_keeps_cost_and_types,
            metamorphic,
        ]
        globals()["PROPERTIES"] = PROPERTIES   # asked once
        return PROPERTIES
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
