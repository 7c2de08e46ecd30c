"""Every reading has at least one item that fails an engine breaking it.

A reading (a rule-index entry of kind ``reading``) is an answer the catalogue
gives where the seed is silent; a report shows an engine's standing on it
apart.  That standing means something only if some item tagged with the
reading fails an engine that reads the seed the other way: so each reading
has a reference mutant tagged with it (reference_engine/<ruleset>/mutants.py,
a plausible choice the other way), and the mutation run (`run_mutants`, which
runs each mutant against the items tagged with the rules it breaks) reports
the reading in the ``killed_for`` of at least one of them.
"""

from __future__ import annotations

import pytest

from conformance._mutation import list_mutants, run_mutants
from conformance._settings import get_profile
from conformance._suite import Suite


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["mtg", "vision", "zatch"])
def test_every_reading_has_an_item_killing_a_mutant_that_breaks_it(ruleset: str) -> None:
    suite = Suite.load(None, [ruleset])
    readings = {rule_id for rule_id, rule in suite.catalogue.rules.items()
                if rule.kind == "reading"}
    assert readings
    mutants = [m for m in list_mutants([ruleset], "reference") if readings & set(m["rules"])]
    without_mutant = readings - {rule for m in mutants for rule in m["rules"]}
    assert not without_mutant, f"readings no reference mutant breaks: {sorted(without_mutant)}"
    result = run_mutants(suite, [ruleset], get_profile("quick"), mutants=mutants)
    killed = {rule for row in result["mutants"] for rule in row.get("killed_for", [])}
    assert not readings - killed, (
        f"readings whose mutants no item tagged with them kills: {sorted(readings - killed)}")
