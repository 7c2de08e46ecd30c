"""An engine the suite did not grow up with certifies, and its own bugs are caught.

tests/fakes/independent/zatch.py is a Zatch engine written from the docs and
the seed only (never from reference_engine/), with mutants of its own, each
one plausible bug breaking one seed rule.  The catalogue is only as good as
the bugs it catches in engines it was not written against: at least 97% of
these mutants must be killed by counting items (seed-basis, the items a
certification rests on), not by readings alone.
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


def seed_rules() -> set[str]:
    """The seed's rules and printed examples: not headings, not readings."""
    index = yaml.safe_load((CASES / "zatch" / "rules.yaml").read_text("utf-8"))
    return {r["id"] for r in index["rules"] if r["kind"] in ("rule", "example")}


def test_every_mutant_breaks_one_seed_rule_and_they_are_spread():
    rules = seed_rules()
    assert len(MUTANTS) >= 25
    assert len({m["name"] for m in MUTANTS}) == len(MUTANTS)
    for mutant in MUTANTS:
        assert mutant["ruleset"] == "zatch"
        assert len(mutant["rules"]) == 1 and mutant["rules"][0] in rules, mutant["name"]
    assert len({m["rules"][0] for m in MUTANTS}) >= 25


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
    caught = [m for m in rows if m["certified"]]
    missed = sorted(m["name"] for m in rows if not m["certified"])
    assert len(caught) / len(rows) >= 0.97, f"not caught by a seed-basis item: {missed}"
    assert report["mutation"]["certified_score"] >= 0.97
