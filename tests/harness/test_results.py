"""`Result.to_json` / `from_json`: the shape the report and pytest-xdist rely on."""

from __future__ import annotations

import dataclasses

from conformance._results import Mismatch, Result


def _sample(**fields):
    base = dict(id="toy/a", kind="case", ruleset="toy", rules=["toy/R-1", "toy/R-2"],
                status="fail", message="m", step=2,
                mismatches=[Mismatch("step 2: cards.a", {"x": [1, 2]}, {"x": [1]})],
                stderr="err", counterexample="", duration=0.5, rerun="r", location="l:1",
                expected_failure=True, basis="reading")
    return Result(**{**base, **fields})


def test_to_json_is_what_asdict_gives_and_shares_nothing_mutable():
    for result in (_sample(), _sample(rules=("toy/R-1",), mismatches=[], step=None),
                   _sample(status="pass", message="", mismatches=[])):
        data = result.to_json()
        assert data == dataclasses.asdict(result)
        assert list(data) == [f.name for f in dataclasses.fields(Result)]
        assert type(data["rules"]) is type(result.rules)
        if isinstance(result.rules, list):
            assert data["rules"] is not result.rules
        for m, d in zip(result.mismatches, data["mismatches"], strict=True):
            assert d["expected"] == m.expected and d["expected"] is not m.expected


def test_from_json_rebuilds_the_result():
    result = _sample()
    assert Result.from_json(result.to_json()) == result
