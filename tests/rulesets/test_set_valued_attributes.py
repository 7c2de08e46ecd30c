"""Attributes a vocabulary documents as sets are compared as sets everywhere (issue 41).

Each vocabulary marks them ``"x-compare": "set"`` (`conformance.vocabulary.set_valued`):
Vision's ``names``, Zatch's piles.  Case matching (``{unordered: [...]}``) and the Vision
differential property must then ignore their order and repeats, and still see a
different element.  Everything here is enumerated from the marks, so an attribute
marked tomorrow is checked the same way.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance import vocabulary
from conformance._discovery import ruleset_names
from conformance._matching import UNORDERED, match_step
from conformance._properties import Trace
from conformance.rulesets.vision.differential import differences, normalised

#: observation entry -> the key of observe() holding its objects
WHERE = {"card_state": "cards", "player_state": "players"}
#: the other observed values of one object, so the set-valued one is all that varies
CARD = {"zone": "field", "owner": "p1"}


def marked() -> list[tuple[str, str, str]]:
    return [(ruleset, entry, key) for ruleset in ruleset_names()
            for entry, keys in sorted(vocabulary.set_valued(ruleset).items())
            for key in sorted(keys)]


def test_the_documented_sets_are_marked():
    """What the docs call sets (Vision's names, Zatch's hand, field and discard)."""
    found = {(r, e, k) for r, e, k in marked()}
    assert {("vision", "card_state", "names"), ("zatch", "player_state", "hand"),
            ("zatch", "player_state", "field"), ("zatch", "player_state", "discard")} <= found


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_a_mark_and_the_unordered_form_go_together(ruleset):
    """An expectation states a set-valued attribute as ``{unordered: [...]}`` and nothing
    else does: the mark is what the form means."""
    defs = vocabulary._document(ruleset)["$defs"]
    for entry, keys in vocabulary.set_valued(ruleset).items():
        for key, sub in defs[entry].get("properties", {}).items():
            if "$ref" in sub:
                sub = defs[sub["$ref"].rsplit("/", 1)[-1]]
            unordered = sub.get("required") == [UNORDERED]
            assert unordered == (key in keys), f"{ruleset} {entry}.{key}"


def observe(entry: str, key: str, value: list[str]) -> dict[str, Any]:
    obj = {**CARD, key: value} if entry == "card_state" else {key: value}
    return {WHERE[entry]: {"x1" if entry == "card_state" else "p1": obj}}


#: (expected, observed, same set?)
SETS = [(["a", "b"], ["b", "a"], True),
        (["a", "b"], ["a", "b", "a"], True),
        (["a", "a", "b"], ["b", "a"], True),
        (["a", "b"], ["a"], False),
        (["a"], ["a", "b"], False),
        (["a", "b"], ["a", "c"], False)]


@pytest.mark.parametrize(("ruleset", "entry", "key"), marked())
@pytest.mark.parametrize(("expected", "observed", "same"), SETS)
def test_case_matching_compares_them_as_sets(ruleset, entry, key, expected, observed, same):
    want = observe(entry, key, {UNORDERED: expected})   # type: ignore[arg-type]
    found = match_step(want, {"accepted": True, "events": []},
                       observe(entry, key, observed), "s")
    assert (found == []) == same, found


def trace(entry: str, key: str, value: list[str]) -> Trace:
    return Trace(replies=[{"accepted": True, "events": []}],
                 states=[observe(entry, key, value)])


@pytest.mark.parametrize(("entry", "key"),
                         [(e, k) for r, e, k in marked() if r == "vision"])
@pytest.mark.parametrize(("expected", "observed", "same"), SETS)
def test_the_differential_compares_them_as_sets(entry, key, expected, observed, same):
    """The reference's answer against the engine's: a set-valued attribute in another
    order or with repeats is no difference; another element is."""
    scenario: dict[str, Any] = {"setup": {}, "steps": [{"do": {}}]}
    theirs = normalised(trace(entry, key, expected), scenario)
    mine = normalised(trace(entry, key, observed), scenario)
    found = [m for a, b in zip(mine, theirs, strict=True) for m in differences(a, b)]
    assert (found == []) == same, found
