"""Running one ruleset property through the real runner, for the property tests.

`run_property` uses `Runner.run_property` exactly as a certification does (quick
profile); `as_case` turns a counterexample back into a `Case` after checking it
against the case schema, so a test can replay it on other engines.  `generated`
and `never_generated` are the generator-coverage check every pack's
tests/rulesets/test_<ruleset>_generators.py makes: which traits a property's
strategy draws at a profile's budget, and which traits its rules need it never drew.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, seed, settings

from conformance._catalogue import Case, Catalogue
from conformance._loading import load_engine
from conformance._properties import Property
from conformance._results import Result
from conformance._runner import Runner
from conformance._schemas import load
from conformance._settings import get_profile


def runner(spec: str, profile: str = "quick") -> Runner:
    catalogue = Catalogue(root=Path("cases"), rules={}, cases=[], errors=[], digest="")
    run = Runner(catalogue, load_engine(spec), spec, get_profile(profile),
                 reference=lambda: load_engine("reference"))
    run.handshake()
    return run


def run_property(prop: Property, spec: str, profile: str = "quick") -> Result:
    run = runner(spec, profile)
    try:
        return run.run_property(prop)
    finally:
        run.engine.close()


def as_case(text: str) -> Case:
    data = yaml.safe_load(text)
    jsonschema.validate(data, load("schemas", "case.json"))
    return Case(id=data["id"], title=data["title"], ruleset=data["ruleset"],
                rules=tuple(data["rules"]), source=data["source"], notes=data["notes"],
                flags=(), setup=data["setup"], steps=tuple(data["steps"]), path="-", line=1)


def assert_kills(prop: Property, mutant: str, profile: str = "quick") -> None:
    """``prop`` fails on the mutant with a counterexample tagged like the property whose
    expectations (if it wrote any) the reference meets and the mutant does not."""
    spec = f"reference:{mutant}"
    result = run_property(prop, spec, profile)
    assert result.status == "fail", f"{prop.id} did not kill {mutant}: {result.message}"
    if prop.compares_reference:
        # the reference engine's answer is no expectation
        assert result.mismatches and "write_from_seed" in result.counterexample
    if "write_from_seed" in result.counterexample:
        # no expectation derived: the counterexample waits for a person to write one
        # from the seed, and does not validate until then
        with pytest.raises(jsonschema.ValidationError, match="write_from_seed"):
            as_case(result.counterexample)
        return
    case = as_case(result.counterexample)
    assert case.rules == prop.rules
    if any("expect" in step for step in case.steps):
        # The expectations the property wrote are the seed's: the reference
        # meets them, the mutant does not.
        assert runner(spec).run_case(case).status == "fail", result.counterexample
        assert runner("reference").run_case(case).status == "pass", result.counterexample


def assert_kills_break_their_rules(ruleset: str, kills: dict[str, list[str]],
                                   by_id: dict[str, Property]) -> None:
    """Each mutant a property must kill breaks a rule that property is tagged with, so
    the kill counts in mutation analysis."""
    import reference_engine

    tagged = {m.name: set(m.rules) for m in reference_engine.list_mutants(ruleset)}
    for prop_id, mutants in kills.items():
        for mutant in mutants:
            assert tagged[mutant] & set(by_id[prop_id].rules), (prop_id, mutant)


def assert_passes(prop: Property) -> None:
    """``prop`` holds on the reference engine."""
    result = run_property(prop, "reference")
    assert result.status == "pass", f"{result.message}\n{result.counterexample or ''}"


# -- generator coverage ----------------------------------------------------------------------

Traits = Callable[[dict[str, Any]], set[str]]

#: The seed of every draw below: the one Hypothesis derandomized it with when the counts
#: in docs/rulesets/<ruleset>.md and the tests' ``CI_NEVER`` were taken.  Derandomizing
#: seeds from the drawing function's source, so renaming a word in it redrew them.
SEED = int("1af8fc20fbe974fda09238d2b1415b59da7aca5433ebec95c60a746dd1342ba9"
           "39ecf58d9f21d26e3f48e36c7c10dcd4", 16)


def generated(prop: Property, traits: Traits, profile: str | None = None) -> Counter[str]:
    """How many of the scenarios the profile's budget draws (from `SEED`, the same each
    time, as a run derandomizes) use each trait ``traits`` names."""
    counts: Counter[str] = Counter()

    @seed(SEED)
    @settings(max_examples=get_profile(profile).max_examples, database=None,
              deadline=None, phases=[Phase.explicit, Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(prop.scenarios)
    def draw(scenario: dict[str, Any]) -> None:
        counts.update(traits(scenario))

    draw()
    return counts


def never_generated(prop: Property, traits: Traits, rule_traits: dict[str, set[str]],
                    profile: str | None = None, extra: Sequence[str] = ()) -> dict[str, list[str]]:
    """For each rule of ``prop`` (and each key of ``extra``, e.g. the property's own id),
    the traits it needs (``rule_traits``) that the profile's draw never reached;
    keys with nothing missing are left out."""
    counts = generated(prop, traits, profile)
    never = {rule: sorted(rule_traits.get(rule, set()) - set(counts))
             for rule in [*prop.rules, *extra]}
    return {rule: feats for rule, feats in never.items() if feats}


def print_counts(props: list[Property], traits: Traits, profile: str | None) -> None:
    """The trait counts of each property at ``profile`` (the generator tests' ``main``)."""
    for prop in props:
        counts = generated(prop, traits, profile)
        print(f"{prop.id}  ({get_profile(profile).max_examples} examples)")
        for trait, n in sorted(counts.items()):
            print(f"  {n:4}  {trait}")
