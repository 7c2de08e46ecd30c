"""The toy ruleset pack: a distribution of its own, found through its entry point.

Its catalogue is the ``cases/`` folder beside this module (tests/support/toy.py writes
it there when the test builds the distribution), its vocabulary is
``vocabulary.json`` beside it, and its one property checks R-1 ("足す": an add
adds exactly what it says) over generated boards.
"""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.ruleset import Play, Scenario, Violation, invariant, run_accepted


@st.composite
def _adds(draw: st.DrawFn) -> Scenario:
    amounts = draw(st.lists(st.integers(0, 5), min_size=1, max_size=3))
    return {"setup": {"start": draw(st.integers(0, 9))},
            "steps": [{"do": {"add": k}} for k in amounts]}


@invariant("toy/prop/adds-add", rules=["toy/R-1"], scenarios=_adds())
def adds_add(play: Play, scenario: Scenario) -> None:
    """After the adds, the count is the start plus every amount added."""
    trace = run_accepted(play, scenario)
    want = scenario["setup"]["start"] + sum(s["do"]["add"] for s in scenario["steps"])
    got = trace.final["players"]["p1"]["count"]
    if got != want:
        last = len(scenario["steps"]) - 1
        raise Violation(f"the count is {got}, but R-1 makes it {want}",
                        expect={last: {"players": {"p1": {"count": want}}}})


PROPERTIES = [adds_add]
