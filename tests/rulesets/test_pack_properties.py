"""Every property of every installed pack passes on the reference engine.

Each property runs through the real runner (`Runner.run_property`, quick
profile) against the reference engine, where it must pass.  What is
particular to a pack stays in its own test_<ruleset>_properties.py: the
mutants each property must kill (its teeth), and the boards its oracles read
from the seed.  Zatch's exhaustive walk is no sample: it is checked there.
"""

from __future__ import annotations

import property_runs
import pytest

from conformance._discovery import properties_for, ruleset_names

pytestmark = pytest.mark.slow

SAMPLED = [p for rs in ruleset_names() for p in properties_for(rs) if p.exhaustive is None]


@pytest.mark.parametrize("prop", SAMPLED, ids=[p.id for p in SAMPLED])
def test_passes_on_the_reference_engine(prop):
    property_runs.assert_passes(prop)
