"""A property checks a rule only through the examples that exercised it.

Each supported example records which of the property's rules it exercised
(`Property.exercises`); below the profile's `min_exercised` the rule is "too few
examples" for that property, never checked by it (docs/cli.md, "Too few examples").
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import strategies as st
from lacking import Lacking

import conformance
from conformance._properties import Play, Trace, exercised, invariant
from conformance._verdict import fully_checked
from conformance.report._text import rule_progress
from conformance.rulesets.zatch.exhaustive import chains
from reference_engine import create_engine

METAMORPHIC = "mtg/prop/metamorphic-renaming-swapping-adding"


def test_a_property_whose_supported_examples_never_held_a_shield_does_not_check_609_7():
    """The metamorphic property passes on the engine's supported scenarios (renaming a
    become or discard scenario), but none held a shield: before, CR 609.7 read "1/11
    items checked, all passing" on the strength of it."""
    report = conformance.certify(Lacking("mtg", "shield"), rulesets=["mtg"], profile="certify",
                                 rules=["mtg/CR-609.7", "mtg/CR-609.2"]).to_json()
    result = next(r for r in report["results"] if r["id"] == METAMORPHIC)
    assert result["status"] == "pass"
    examples = result.get("examples")
    assert examples is not None and "exercised" in examples
    assert examples["exercised"]["mtg/CR-609.7"] == 0
    assert examples["exercised"]["mtg/CR-609.2"] >= 3   # what it did check
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


#: (engine lacking a feature, a property reaching it, the rules only that feature carries,
#: rules of the same property that examples without the feature still check)
GAPS = [
    pytest.param(("mtg", "shield"), METAMORPHIC, ["mtg/CR-609.7"], ["mtg/CR-609.2"],
                 id="mtg-shields"),
    pytest.param(("vision", "deathblow"), "vision/prop/deathblow-conditions",
                 ["vision/IR-9.2.2.c"],
                 ["vision/IR-9.2.2", "vision/IR-9.2.2.a", "vision/IR-9.2.2.b"],
                 id="vision-deathblow-instruction"),
    pytest.param(("zatch", "standby"), "zatch/prop/fired-effects-never-jammed",
                 ["zatch/standby.1", "zatch/standby.3"],
                 ["zatch/on-field.1", "zatch/on-field.2", "zatch/jammer.3"],
                 id="zatch-standby"),
    pytest.param(("zatch", "interrupt"), "zatch/prop/no-interrupts",
                 ["zatch/interrupt.1", "zatch/interrupt.ex1"], [], id="zatch-interrupts"),
]


@pytest.mark.parametrize(("gap", "prop", "lacking", "kept"), GAPS)
def test_an_engine_lacking_a_feature_gets_too_few_examples_for_its_rules(gap, prop, lacking,
                                                                          kept):
    """The property passes on the examples the engine supports, and checks only the rules
    those examples exercised: the missing feature's rules are a skip for too few examples
    (the property's pass is not one of their checks), the others stay checked."""
    report = conformance.certify(Lacking(*gap), rulesets=[gap[0]], profile="certify",
                                 select=[prop]).to_json()
    result, = report["results"]
    assert result["status"] == "pass"
    examples = result.get("examples")
    assert examples is not None and "exercised" in examples
    assert examples["supported"] >= 10
    rows = {r["id"]: r for r in report["rules"]}
    needed = examples.get("min_exercised")
    for rule in lacking:
        assert examples["exercised"][rule] == 0, rule
        assert rows[rule]["too_few_examples"] == [
            {"property": prop, "exercised": 0, "needed": needed}], rule
        assert rows[rule]["counts"]["pass"] == 0 and rows[rule]["status"] == "skip", rule
    for rule in kept:
        assert needed is not None and examples["exercised"][rule] >= needed, rule
        assert rows[rule]["too_few_examples"] == [] and rows[rule]["status"] == "pass", rule


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
    examples = result.get("examples")
    assert examples is not None and "exercised" in examples
    assert examples.get("min_exercised") == 1
    # every chain negates (jammer •2); a jammer is jammed only in chains of depth 2 or more
    depth_one = sum(len(s["steps"]) == 3 for _, s in chains())
    assert examples["exercised"] == {"zatch/jammer.2": examples["supported"],
                                     "zatch/jammer.5": examples["supported"] - depth_one}


def test_every_format_shows_what_a_property_exercised(capsys):
    from conformance.report import render
    from conformance.report._terminal import print_outcome

    report = conformance.certify(Lacking("mtg", "shield"), rulesets=["mtg"], profile="certify",
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
    passed: Any = {"kind": "property", "status": "pass", "examples": examples}   # partial
    assert (status_for(passed, "toy/A"), status_for(passed, "toy/B")) == ("pass", "skip")
    failed: Any = {**passed, "status": "fail"}
    assert (status_for(failed, "toy/A"), status_for(failed, "toy/B")) == ("fail", "fail")
    older: Any = {"kind": "property", "status": "pass",
             "examples": {"generated": 1, "supported": 1, "actions": 1}}
    assert status_for(older, "toy/B") == "pass"   # a report from before exercised


def test_a_vision_scenario_of_any_kind_is_counted_as_its_own_property_counts_it():
    """The differential and the metamorphic properties draw every kind of scenario and
    count what each exercised by the property of its kind (`exercised.kind_of`)."""
    from hypothesis import HealthCheck, given, settings

    from conformance.rulesets.vision import exercised as X
    from conformance.rulesets.vision import strategies as S

    kinds = {"unnegatable_text": S.unnegatable_text_scenarios(),
             "unnegatable_effect": S.unnegatable_effect_scenarios(),
             "shuffle": S.shuffle_scenarios(), "power": S.power_scenarios(),
             "deathblow": S.deathblow_scenarios(), "names": S.name_scenarios(),
             "resolution": S.resolution_scenarios(), "x_cost": S.x_cost_scenarios()}
    assert set(kinds) == set(X.BY_KIND)

    @settings(max_examples=50, database=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(sorted(kinds)).flatmap(lambda k: st.tuples(st.just(k), kinds[k])))
    def classified(drawn: tuple[str, dict[str, Any]]) -> None:
        kind, scenario = drawn
        assert X.kind_of(scenario) == kind

    classified()


@pytest.mark.parametrize("ruleset", ["mtg", "vision", "zatch"])
def test_the_ruleset_page_says_what_exercises_each_rule_of_each_property(ruleset):
    """docs/rulesets/<ruleset>.md, "What each property's examples exercise", has one row per
    property and rule it is tagged with, and no other."""
    import re
    from pathlib import Path

    from conformance._discovery import properties_for

    page = (Path(__file__).parents[2] / "docs" / "rulesets" / f"{ruleset}.md").read_text("utf-8")
    section = page.split("## What each property's examples exercise", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| `([^`]+)` \| \S", section, re.M)
    tagged = [(p.id.split("/prop/", 1)[1], rule) for p in properties_for(ruleset)
              for rule in p.rules]
    assert sorted(rows) == sorted(tagged)
