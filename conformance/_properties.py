"""Properties: rule invariants checked on any engine over generated scenarios.

A property is data plus one function: a Hypothesis strategy that generates
scenarios (a setup and steps in the ruleset's vocabulary) and a ``check`` that
plays them on the engine through `Play` and raises `Violation` when the
invariant does not hold.  The runner drives Hypothesis (seeded per property, with the
profile's budget) and turns the shrunk scenario into a YAML case.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from hypothesis.strategies import SearchStrategy

from conformance._engine import Connection, Unsupported
from conformance._matching import event_matches
from conformance._results import Mismatch

Scenario = dict[str, Any]  # {"setup": {...}, "steps": [{"do": {...}}, ...]}


class Violation(AssertionError):
    """The invariant does not hold on this scenario.

    ``expect`` maps a 0-based step index to the ``expect`` block the invariant
    demanded, for the counterexample case; ``mismatches`` lists every difference
    found, so the report shows all of them, not the first one cut into the message.
    """

    def __init__(self, message: str, *, expect: dict[int, dict[str, Any]] | None = None,
                 mismatches: list[Mismatch] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.expect = expect or {}
        self.mismatches = list(mismatches or [])


@dataclasses.dataclass
class Trace:
    """What the engine did with one scenario: a reply and a state per step."""

    replies: list[dict[str, Any]]
    states: list[dict[str, Any]]

    @property
    def final(self) -> dict[str, Any]:
        return self.states[-1]

    def events(self, step: int | None = None) -> list[dict[str, Any]]:
        """Events of one step, or of all steps in order."""
        replies = self.replies if step is None else [self.replies[step]]
        return [e for r in replies for e in r.get("events", [])]

    def find(self, step: int | None = None, **pattern: Any) -> list[dict[str, Any]]:
        return [e for e in self.events(step) if event_matches(pattern, e)]

    def card(self, card_id: str, step: int = -1) -> dict[str, Any]:
        cards = self.states[step].get("cards", {})
        if card_id not in cards:
            raise Violation(f"observe() has no card {card_id!r} after step {step}")
        card: dict[str, Any] = cards[card_id]
        return card


#: A property gives up on an engine once this many scenarios in a row, from
#: the first, were unsupported: an engine that maps none of a property's
#: vocabulary yet gets its skip (and the reason) at once, rather than after
#: Hypothesis has drawn hundreds more scenarios only to give up too.
GIVE_UP_AFTER = 20


class NothingSupported(BaseException):
    """The first `GIVE_UP_AFTER` scenarios were all unsupported: a BaseException, like
    KeyboardInterrupt, so that it leaves the Hypothesis run at once instead of being
    shrunk as a failure; the runner reports the property skipped as the ``first`` was."""

    def __init__(self, first: Unsupported) -> None:
        super().__init__(first.reason)
        self.first = first


class Play:
    """How a property's check drives engines: run a scenario, get a `Trace`."""

    def __init__(self, engine: Connection, ruleset: str,
                 reference: Callable[[], Connection] | None = None) -> None:
        self.engine = engine
        self.ruleset = ruleset
        self._reference_factory = reference
        self._reference: Play | None = None
        self._supported = 0
        self._unsupported: list[Unsupported] = []
        self.actions = 0   # steps the engine applied, over every supported play
        #: the traces of the current example (the runner empties it before each),
        #: for `exercised`
        self.traces: list[Trace] = []

    def run(self, scenario: Scenario) -> Trace:
        if not self._supported and len(self._unsupported) >= GIVE_UP_AFTER:
            raise NothingSupported(self._unsupported[0])
        try:
            # one round trip where the engine offers play (docs/protocol.md)
            outcomes = self.engine.play(self.ruleset, scenario["setup"],
                                        [(step["do"], True) for step in scenario["steps"]])
        except Unsupported as exc:
            self._unsupported.append(exc)
            raise
        self._supported += 1
        self.actions += len(outcomes)
        trace = Trace([reply for reply, _ in outcomes],
                      [state for _, state in outcomes])  # type: ignore[misc]
        self.traces.append(trace)
        return trace

    @property
    def reference(self) -> Play:
        """The reference engine, for differential properties."""
        if self._reference is None:
            if self._reference_factory is None:
                raise RuntimeError("this Play has no reference engine")
            self._reference = Play(self._reference_factory(), self.ruleset)
        return self._reference

    def begin_example(self) -> None:
        """Forget the last example's traces (the reference engine's too): `traces` holds
        one example's, for `exercised`."""
        self.traces.clear()
        if self._reference is not None:
            self._reference.traces.clear()

    def close(self) -> None:
        if self._reference is not None:
            self._reference.engine.close()


def record_traits(traits: Iterable[str]) -> None:
    """Count the traits an example reached (a pack's labels of what a generated scenario
    exercises, ``instr:destroy``; not the vocabulary's features), as Hypothesis events (the
    generator-coverage counts, ``--hypothesis-show-statistics``).  A no-op outside a
    Hypothesis test: the runner plays a failing scenario once more, alone, for its
    transcript, and that play must judge the engine exactly as the sampled one did."""
    if currently_in_test_context():
        for trait in sorted(traits):
            event(trait)


def short(action: dict[str, Any]) -> str:
    """An action as one short line, for violation messages."""
    return json.dumps(action, ensure_ascii=False)[:160]


def run_accepted(play: Play, scenario: Scenario) -> Trace:
    """Run a scenario whose every step is legal; a rejected step is a violation."""
    trace = play.run(scenario)
    for i, reply in enumerate(trace.replies):
        if not reply["accepted"]:
            raise Violation(
                f"step {i + 1} {short(scenario['steps'][i]['do'])} was rejected "
                f"({reply.get('reason')!r}), but it is a legal action on this board",
                expect={i: {"outcome": "accepted"}})
    return trace


#: What a property says one supported example exercised: the rule ids (of those it is
#: tagged with) whose condition the scenario and what the engine did with it (the
#: first `Trace`, the scenario as generated) brought about.
Exercises = Callable[[Scenario, Trace], Iterable[str]]


@dataclasses.dataclass(frozen=True)
class Property:
    id: str
    ruleset: str
    rules: tuple[str, ...]
    title: str
    scenarios: SearchStrategy[Scenario]
    check: Callable[[Play, Scenario], None]
    #: Judged against the reference engine rather than the seed: a bug finder
    #: whose failures are reported apart and never fail a certification.
    compares_reference: bool = False
    #: A small-scope exhaustive mode: every (label, scenario) this yields is checked,
    #: in order, instead of a Hypothesis sample (sampling can miss the one ordering
    #: that matters); the result says how many were checked.
    exhaustive: Callable[[], Iterable[tuple[str, Scenario]]] | None = None
    #: Which of its rules one supported example exercised (`Exercises`); None says
    #: every example necessarily exercises every rule it is tagged with.  A property
    #: checks a rule only through the examples that exercised it (docs/cli.md, "Too
    #: few examples").
    exercises: Exercises | None = None


def exercised(prop: Property, scenario: Scenario, traces: list[Trace]) -> list[str]:
    """The rules of ``prop`` (in its order) one example that held exercised: all of them
    when the property declares no `Property.exercises`; none when it played nothing."""
    if prop.exercises is None:
        return list(prop.rules)
    if not traces:
        return []
    said = set(prop.exercises(scenario, traces[0]))
    return [rule for rule in prop.rules if rule in said]


def invariant(id: str, *, rules: list[str], scenarios: SearchStrategy[Scenario] | None = None,
              title: str = "", compares_reference: bool = False,
              exhaustive: Callable[[], Iterable[tuple[str, Scenario]]] | None = None,
              exercises: Exercises | None = None,
              ) -> Callable[[Callable[[Play, Scenario], None]], Property]:
    """Declare a property: ``@invariant("vision/prop/...", rules=[...], scenarios=...)``;
    ``compares_reference``, ``exhaustive`` (instead of ``scenarios``) and ``exercises``
    as `Property` has them.  A reference comparison's rules say what it explores, not
    what it judges."""
    if (scenarios is None) == (exhaustive is None):
        raise TypeError(f"{id}: give either scenarios (a strategy) or exhaustive, not both")

    def decorate(check: Callable[[Play, Scenario], None]) -> Property:
        first_paragraph = (check.__doc__ or "").strip().split("\n\n")[0]
        summary = " ".join(first_paragraph.split())
        return Property(id=id, ruleset=id.split("/", 1)[0], rules=tuple(rules),
                        title=title or summary or id,
                        scenarios=scenarios if scenarios is not None else st.nothing(),
                        check=check, compares_reference=compares_reference,
                        exhaustive=exhaustive, exercises=exercises)

    return decorate
