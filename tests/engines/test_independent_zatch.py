"""An engine the suite did not grow up with certifies, and its own bugs are caught.

tests/fakes/independent/zatch.py is a Zatch engine written from the docs and
the seed only (never from reference_engine/), with mutants of its own, each
one plausible bug breaking one seed rule, or one reading where the seed leaves
the point open (docs/audit/zatch.md says which points those are).  The catalogue
is only as good as the bugs it catches in engines it was not written against: at
least 97% of the seed-rule mutants must be killed by counting items (seed-basis,
the items a certification rests on), not by readings alone; a reading's mutant
must be killed by the reading's items.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from commands import conformance_in_process as conformance
from commands import fake_engine
from fakes.independent.zatch import MUTANTS

CASES = Path(__file__).parents[2] / "cases"


def rules_of(*kinds: str) -> set[str]:
    index = yaml.safe_load((CASES / "zatch" / "rules.yaml").read_text("utf-8"))
    return {r["id"] for r in index["rules"] if r["kind"] in kinds}


def seed_rules() -> set[str]:
    """The seed's rules and printed examples: not headings, not readings."""
    return rules_of("rule", "example")


def test_every_mutant_breaks_one_rule_and_they_are_spread():
    rules = seed_rules() | rules_of("reading")
    assert len(MUTANTS) >= 25
    assert len({m["name"] for m in MUTANTS}) == len(MUTANTS)
    for mutant in MUTANTS:
        assert mutant["ruleset"] == "zatch"
        assert len(mutant["rules"]) == 1 and mutant["rules"][0] in rules, mutant["name"]
    assert len({m["rules"][0] for m in MUTANTS if m["rules"][0] in seed_rules()}) >= 25


@pytest.fixture(scope="module")
def certification(tmp_path_factory):
    out = tmp_path_factory.mktemp("independent-zatch")
    run = conformance("certify", "--engine", fake_engine("independent/zatch.py"),
                      "--ruleset", "zatch", "--cases", CASES, "--mutation",
                      "--out", out, "-q")
    return run, json.loads((out / "report.json").read_text("utf-8"))


@pytest.mark.slow
def test_the_independent_engine_certifies_pass(certification):
    run, report = certification
    assert run.returncode == 0, run.stdout + run.stderr
    assert report["verdict"]["status"] == "pass" and report["complete"]
    results = report["results"]
    assert results and all(r["status"] == "pass" for r in results)


@pytest.mark.slow
def test_its_mutants_are_caught_by_counting_items(certification):
    _, report = certification
    rows = report["mutation"]["mutants"]
    assert {m["name"] for m in rows} == {m["name"] for m in MUTANTS}
    assert not [m["name"] for m in rows if m.get("error")]
    seed = seed_rules()
    breaks_seed = [m for m in rows if m["rules"][0] in seed]
    caught = [m for m in breaks_seed if m["certified"]]
    missed = sorted(m["name"] for m in breaks_seed if not m["certified"])
    assert len(caught) / len(breaks_seed) >= 0.97, f"not caught by a seed-basis item: {missed}"
    assert all(m["killed"] for m in rows if m not in breaks_seed)
