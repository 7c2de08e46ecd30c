"""Harness-only actions (docs/rulesets/mtg.md, "Harness-only actions"): an item using
one carries the derived feature ``synthetic``; an engine declaring
``capabilities.synthetic: false`` is never sent one, and every report says how many
items need them in one line.  Also: a property skipped through Hypothesis keeps the
kind the engine gave."""

from __future__ import annotations

from typing import Any

import conformance
from conformance import Unsupported, _vocabulary_gate, vocabulary
from conformance._catalogue import load_catalogue
from conformance._loading import InProcessEngine
from conformance._runner import Runner, Selection
from conformance._settings import get_profile
from conformance._types import ReportDict
from conformance.report._markdown import render as markdown
from conformance.report._text import facts
from reference_engine import create_engine


class _NoHarness:
    """The reference engine, refusing harness-only actions as a real-game adapter would,
    after declaring that it takes none (so a refusal reaching it fails the test)."""

    def __init__(self, declare: bool = True) -> None:
        self.inner, self.declare = create_engine(), declare

    def hello(self) -> dict[str, Any]:
        info = {**self.inner.hello(), "name": "no-harness", "rulesets": ["mtg"]}
        info["capabilities"] = {"synthetic": False} if self.declare else {}
        return info

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        self.inner.start(ruleset, setup)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if {"apply", "damage", "move"} & action.keys():
            raise Unsupported(f"harness action {sorted(action)} reached the engine")
        return self.inner.act(action)

    def observe(self) -> dict[str, Any]:
        return self.inner.observe()

    def close(self) -> None:
        self.inner.close()


def _report(engine: _NoHarness) -> ReportDict:
    return conformance.certify(engine, rulesets=["mtg"], profile="quick").to_json()


def test_the_feature_is_derived_from_the_actions_used() -> None:
    catalogue = load_catalogue(rulesets=["mtg"])
    by_id = {c.id: c for c in catalogue.cases}
    shield = by_id["mtg/cr-609-7/red-source-of-your-choice"]           # apply, damage
    plain = by_id["mtg/cr-609-1/spell-effect-at-resolution"]           # cast, resolve
    assert _vocabulary_gate.SYNTHETIC in _vocabulary_gate.describe(shield)[0]
    assert _vocabulary_gate.SYNTHETIC not in _vocabulary_gate.describe(plain)[0]
    assert {"action.apply", "action.damage", "action.move"} == \
        set(vocabulary.history("mtg").synthetic)
    assert vocabulary.history("vision").synthetic == {}   # game language only


def test_an_engine_taking_no_harness_actions_is_never_sent_one() -> None:
    report = _report(_NoHarness())
    needing = [r for r in report["results"] if r["message"] == _vocabulary_gate.NEEDS_HARNESS]
    assert needing and all(r["status"] == "skip" and r["skip_kind"] == "synthetic"
                           for r in needing)
    for r in report["results"]:
        assert "reached the engine" not in r["message"], r   # nothing was sent
        assert _vocabulary_gate.SYNTHETIC not in r["features"] or r in needing
    section = report["vocabulary"]["synthetic"]
    assert section == {"items": len(needing), "taken": False}
    line = f"{len(needing)} items need harness actions (capabilities.synthetic false)"
    assert line in dict(facts(report))["vocabulary"]
    assert line in markdown(report)
    # properties generate without them: one that still ran used none
    ran = [r for r in report["results"] if r["kind"] == "property" and r["status"] != "skip"]
    assert all(_vocabulary_gate.SYNTHETIC not in r["features"] for r in ran)


def test_by_default_harness_actions_are_taken_and_counted() -> None:
    report = _report(_NoHarness(declare=False))
    assert not any(r["message"] == _vocabulary_gate.NEEDS_HARNESS for r in report["results"])
    section = report["vocabulary"]["synthetic"]
    using = sum(_vocabulary_gate.SYNTHETIC in r["features"] for r in report["results"])
    assert section == {"items": using, "taken": True} and using > 0
    assert "need harness actions" not in dict(facts(report))["vocabulary"]


class _GapEveryScenario:
    def hello(self) -> dict[str, Any]:
        return {"name": "gap", "version": "1", "rulesets": ["mtg"]}

    def start(self, ruleset: str, setup: dict[str, Any]) -> None:
        raise Unsupported("no boards at all", kind="engine-gap")

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        raise AssertionError("never started")

    def observe(self) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        pass


def test_a_property_skipped_through_hypothesis_keeps_the_engines_kind() -> None:
    runner = Runner(load_catalogue(rulesets=["mtg"]),
                    InProcessEngine(_GapEveryScenario, "gap"), "gap", get_profile("quick"),
                    selection=Selection(cases=False))
    results = [r.to_json() for r in runner.results()]
    assert results
    for r in results:
        assert r["status"] == "skip" and r["skip_kind"] == "engine-gap", r
        assert "no boards at all" in r["message"]
