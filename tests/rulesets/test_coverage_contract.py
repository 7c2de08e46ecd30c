"""The catalogue, the properties and the mutants cover the rule index between them.

Every rule: at least one case; every rule marked ``invariant: true``: at
least one property; every seed rule that states behaviour (kinds rule, qa,
example): at least one mutant.  Informative entries (headings, wording notes)
state no behaviour to break, and readings and context entries are not the
seed; mutants may still name them.  And nothing names a rule the index does
not have.  Every installed ruleset (found as the suite finds them, through
its entry points) is held to this, and each pack has the parts the core reads.
"""

from __future__ import annotations

import json

import pytest

from conformance._catalogue import load_catalogue
from conformance._discovery import (
    find_ruleset,
    properties_for,
    reference_engine_names,
    ruleset_names,
)
from conformance._mutation import list_mutants

CATALOGUE = load_catalogue()
RULESETS = ruleset_names()
#: What docs/rulesets/README.md says every pack's vocabulary defines.
VOCABULARY_ENTRIES = {"scenario", "setup", "action", "card_state", "player_state", "event"}


def test_every_installed_ruleset_is_in_the_catalogue_with_a_reference_engine():
    assert CATALOGUE.rulesets == RULESETS
    assert reference_engine_names() == RULESETS


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_pack_has_properties_and_a_vocabulary_with_the_entries_the_loader_reads(ruleset):
    pack = find_ruleset(ruleset)
    assert pack is not None
    assert properties_for(ruleset)
    defs = json.loads(pack.vocabulary.read_text("utf-8"))["$defs"]
    assert set(defs) >= VOCABULARY_ENTRIES


def test_catalogue_is_valid():
    assert not CATALOGUE.errors, "\n".join(map(str, CATALOGUE.errors))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_rule_has_a_case(ruleset):
    uncovered = [r.id for r in CATALOGUE.uncovered() if r.ruleset == ruleset]
    assert not uncovered


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_invariant_rule_has_a_property(ruleset):
    # a comparison with the reference engine judges nothing: it cannot stand for a rule
    tagged = {rule for p in properties_for(ruleset) if not p.compares_reference
              for rule in p.rules}
    missing = [r.id for r in CATALOGUE.rules.values()
               if r.ruleset == ruleset and r.invariant and r.id not in tagged]
    assert not missing


BEHAVIOUR_KINDS = ("rule", "qa", "example")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_seed_rule_has_a_mutant(ruleset):
    broken = {rule for m in list_mutants([ruleset]) for rule in m["rules"]}
    missing = [r.id for r in CATALOGUE.rules.values()
               if r.ruleset == ruleset and r.kind in BEHAVIOUR_KINDS and r.id not in broken]
    assert not missing


@pytest.mark.parametrize("ruleset", RULESETS)
def test_properties_and_mutants_name_only_indexed_rules(ruleset):
    named = {rule for p in properties_for(ruleset) for rule in p.rules}
    named |= {rule for m in list_mutants([ruleset]) for rule in m["rules"]}
    assert not named - set(CATALOGUE.rules)


def test_property_ids_are_unique_and_prefixed():
    ids = [p.id for rs in RULESETS for p in properties_for(rs)]
    assert len(ids) == len(set(ids))
    assert all(i.split("/", 1)[0] in RULESETS for i in ids)
