"""A property checks a rule only through the examples that exercised it.

Each supported example records which of the property's rules it exercised
(`Property.exercises`); below the profile's `min_exercised` the rule is "too few
examples" for that property, never checked by it (docs/cli.md, "Too few examples").
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

import conformance
from conformance import Unsupported
from conformance._properties import Play, Trace, exercised, invariant
from conformance._verdict import fully_checked
from conformance.report._text import rule_progress
from reference_engine import create_engine

METAMORPHIC = "mtg/prop/metamorphic-renaming-swapping-adding"


class NoShields:
    """The reference engine on mtg with no damage prevention at all: any effect making a
    shield is unsupported, everything else it plays right."""

    def __init__(self) -> None:
        self.inner = create_engine()

    def hello(self) -> dict[str, Any]:
        return {**self.inner.hello(), "name": "no-shields", "rulesets": ["mtg"]}

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        self.inner.start(ruleset, setup)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        effect = (action.get("apply") or {}).get("effect", [])
        if any("shield" in part for part in effect):
            raise Unsupported("no damage prevention", kind="engine-gap")
        return self.inner.act(action)

    def observe(self) -> dict[str, Any]:
        return self.inner.observe()

    def close(self) -> None:
        self.inner.close()


def test_a_property_whose_supported_examples_never_held_a_shield_does_not_check_609_7():
    """The metamorphic property passes on the engine's supported scenarios (renaming a
    become or discard scenario), but none held a shield: before, CR 609.7 read "1/11
    items checked, all passing" on the strength of it."""
    report = conformance.certify(NoShields(), rulesets=["mtg"], profile="certify",
                                 rules=["mtg/CR-609.7", "mtg/CR-609.2"]).to_json()
    result = next(r for r in report["results"] if r["id"] == METAMORPHIC)
    assert result["status"] == "pass"
    assert result["examples"]["exercised"]["mtg/CR-609.7"] == 0
    assert result["examples"]["exercised"]["mtg/CR-609.2"] >= 3   # what it did check
    rule = next(r for r in report["rules"] if r["id"] == "mtg/CR-609.7")
    assert rule["too_few_examples"] == [{"property": METAMORPHIC, "exercised": 0, "needed": 3}]
    cases_passed = sum(r["kind"] == "case" and r["status"] == "pass" and rule["id"] in r["rules"]
                       for r in report["results"])
    assert rule["counts"]["pass"] == cases_passed   # the property's pass is not one of them
    assert not fully_checked(rule)
    assert "too few examples: " + METAMORPHIC in rule_progress(rule)
    checked = next(r for r in report["rules"] if r["id"] == "mtg/CR-609.2")
    assert METAMORPHIC not in [f["property"] for f in checked["too_few_examples"]]
    assert report["verdict"]["status"] == "partial"


def test_every_example_exercises_every_rule_of_a_property_that_declares_nothing():
    def check(play: Play, scenario: dict[str, Any]) -> None:
        pass

    plain = invariant("toy/prop/plain", rules=["toy/A", "toy/B"], scenarios=st.just({}))(check)
    some = invariant("toy/prop/some", rules=["toy/A", "toy/B"], scenarios=st.just({}),
                     exercises=lambda scenario, trace: {"toy/B", "toy/other"})(check)
    trace = Trace([], [])
    assert exercised(plain, {}, []) == ["toy/A", "toy/B"]
    assert exercised(some, {}, [trace]) == ["toy/B"]   # only its own rules
    assert exercised(some, {}, []) == []                # nothing played, nothing exercised


def test_an_exhaustive_walk_counts_its_scenarios_per_rule():
    report = conformance.certify(create_engine(), rulesets=["zatch"], profile="quick",
                                 select=["zatch/prop/jammer-chains-exhaustive"]).to_json()
    result, = report["results"]
    assert result["status"] == "pass"
    examples = result["examples"]
    assert examples["min_exercised"] == 1
    assert examples["exercised"] == dict.fromkeys(["zatch/jammer.5", "zatch/jammer.2"],
                                                  examples["supported"])


def test_every_format_shows_what_a_property_exercised(capsys):
    from conformance.report import render
    from conformance.report._terminal import print_outcome

    report = conformance.certify(NoShields(), rulesets=["mtg"], profile="certify",
                                 rules=["mtg/CR-609.7"]).to_json()
    said = "too few examples: " + METAMORPHIC + " (exercised 0 of the 3 needed)"
    assert said in render(report, "md").replace("\\", "")
    assert said in render(report, "html")
    assert "mtg/CR-609.7 0 (too few: 3 needed)" in render(report, "md")
    assert 'name="exercised" value="mtg/CR-609.7: 0 of ' in render(report, "junit")
    print_outcome(report)
    assert f"mtg/CR-609.7: {METAMORPHIC} (exercised 0 of the 3 needed)" in capsys.readouterr().out


def test_a_failure_fails_every_rule_whatever_its_examples_exercised():
    from conformance._verdict import status_for

    examples = {"generated": 60, "supported": 60, "actions": 60,
                "exercised": {"toy/A": 60, "toy/B": 0}, "min_exercised": 3}
    passed = {"kind": "property", "status": "pass", "examples": examples}
    assert (status_for(passed, "toy/A"), status_for(passed, "toy/B")) == ("pass", "skip")
    failed = {**passed, "status": "fail"}
    assert (status_for(failed, "toy/A"), status_for(failed, "toy/B")) == ("fail", "fail")
    older = {"kind": "property", "status": "pass",
             "examples": {"generated": 1, "supported": 1, "actions": 1}}
    assert status_for(older, "toy/B") == "pass"   # a report from before exercised
