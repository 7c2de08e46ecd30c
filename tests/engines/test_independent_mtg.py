"""An MTG engine written apart from the reference certifies, and its own mutants are caught.

tests/fakes/independent/mtg.py was written from the docs, the vocabulary and the
seed only, so the catalogue is judged on bugs the reference engine's author did
not think of: each of its mutants breaks one seed rule in one plausible way, and
an item resting on the seed (basis `seed`, not a reading) must catch it
("caught by the certification", `certified` in report.json's mutation rows).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from commands import conformance_in_process as conformance
from commands import fake_engine

RULES = Path(__file__).parents[2] / "cases" / "mtg" / "rules.yaml"



@pytest.mark.slow
def test_the_independent_engine_certifies_and_its_mutants_are_caught(tmp_path):
    run = conformance("certify", "--engine", fake_engine("independent/mtg.py"),
                      "--ruleset", "mtg", "--mutation", "--out", tmp_path, "-q")
    report = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert report["verdict"]["status"] == "pass"
    assert {r["status"] for r in report["results"]} == {"pass"}

    seed_rules = {r["id"] for r in yaml.safe_load(RULES.read_text("utf-8"))["rules"]
                  if r["kind"] in ("rule", "example")}
    mutants = report["mutation"]["mutants"]
    assert len(mutants) >= 25
    for m in mutants:
        assert len(m["rules"]) == 1 and m["rules"][0] in seed_rules, m["name"]
    assert len({m["rules"][0] for m in mutants}) >= 15   # spread over the seed

    counted = mutants
    caught = [m["name"] for m in counted if m["certified"]]
    survivors = sorted({m["name"] for m in counted} - set(caught))
    assert len(caught) / len(counted) >= 0.97, f"{len(caught)}/{len(counted)}: {survivors}"
