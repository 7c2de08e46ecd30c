"""The in-process adapter hands the engine, and takes back, exactly what JSON would.

`_protocol.json_copy` is the JSON round trip; these tests hold it to that on
generated values of every JSON-ish shape (tuples, non-str keys, floats,
subclasses, sets) and on what engines answer.
"""

from __future__ import annotations

import enum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine import ProtocolViolation
from conformance._loading import InProcessEngine
from conformance._protocol import _UTF8, _decode
from conformance._protocol import json_copy as _json_copy

_encode = _UTF8.encode


class Colour(enum.IntEnum):
    RED = 1


class Name(str):
    pass


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5),
                    st.floats(allow_nan=False, allow_infinity=False), st.just(Colour.RED),
                    st.just(Name("x")))
keys = st.one_of(st.text(max_size=4), st.integers(-3, 3), st.booleans(), st.just(Name("k")))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.lists(inner, max_size=4).map(tuple),
                            st.dictionaries(keys, inner, max_size=4)),
    max_leaves=20)


@given(values)
def test_the_copy_is_the_json_round_trip(value):
    copied = _json_copy(value)
    assert copied == _decode(_encode(value))
    assert _encode(copied) == _encode(value)  # same types too: no tuple, no int key left
    assert type(copied) is type(_decode(_encode(value)))


@given(st.recursive(st.text(max_size=3), lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3))))
def test_the_copy_shares_no_container_with_the_original(value):
    copied = _json_copy(value)

    def containers(v):
        if isinstance(v, dict):
            yield id(v)
            for x in v.values():
                yield from containers(x)
        elif isinstance(v, list):
            yield id(v)
            for x in v:
                yield from containers(x)
    assert not set(containers(copied)) & set(containers(value))


def test_what_json_cannot_carry_still_fails():
    with pytest.raises(TypeError):
        _json_copy({"cards": {1, 2}})
    loop: list = []
    loop.append(loop)
    with pytest.raises(RecursionError):
        _json_copy(loop)
    with pytest.raises(ValueError):   # NaN is not JSON: a subprocess engine's reply with
        _json_copy([float("nan")])     # one is refused on the wire, so in process too


class Aliasing:
    """An engine that hands out its own mutable state and mutates its arguments."""

    def __init__(self):
        self.state = {"cards": {"c1": {"names": ("Blade",)}}, "players": {}}

    def hello(self):
        return {"name": "aliasing", "version": "0", "rulesets": ["vision"]}

    def start(self, ruleset, setup):
        setup.clear()

    def act(self, action):
        action["mutated"] = True
        return {"accepted": True, "events": ({"type": "x"},)}

    def observe(self):
        return self.state

    def close(self):
        pass


def test_an_engine_can_neither_alias_nor_mutate_through_the_adapter():
    engine = InProcessEngine(Aliasing, "python:x:Aliasing")
    setup: dict[str, dict[str, str]] = {"p1": {}}
    action = {"play": "c1"}
    engine.start("vision", setup)
    reply = engine.act(action)
    assert setup == {"p1": {}} and action == {"play": "c1"}
    assert reply["events"] == [{"type": "x"}]       # a tuple arrives as the list JSON makes
    state = engine.observe()
    assert state["cards"]["c1"]["names"] == ["Blade"]
    state["cards"]["c1"]["names"].append("changed")
    assert engine.observe()["cards"]["c1"]["names"] == ["Blade"]


def test_garbage_from_an_in_process_engine_is_a_protocol_violation():
    class Garbage(Aliasing):
        def observe(self):
            return {"cards": {"c1": {"names": {"a set"}}}}

    engine = InProcessEngine(Garbage, "python:x:Garbage")
    engine.start("vision", {})
    with pytest.raises(ProtocolViolation, match="not JSON data"):
        engine.observe()

    class NotANumber(Aliasing):
        def observe(self):
            return {"players": {"p1": {"life": float("nan")}}}

    engine = InProcessEngine(NotANumber, "python:x:NotANumber")
    engine.start("vision", {})
    with pytest.raises(ProtocolViolation, match="not JSON data"):
        engine.observe()


def test_an_answer_nested_past_the_limit_is_a_protocol_violation():
    # 600 levels copy fine, then recursed out of the report writer: the whole run lost
    class Deep(Aliasing):
        def observe(self):
            nested: list = []
            for _ in range(600):
                nested = [nested]
            return {"cards": {}, "players": {"p1": {"deep": nested}}}

    engine = InProcessEngine(Deep, "python:x:Deep")
    engine.start("vision", {})
    with pytest.raises(ProtocolViolation, match="nested deeper than 100 levels"):
        engine.observe()


class ReusingWrongEngine:
    """Keeps one list as player p1's state and appends to it on every act: what a
    failing case records as observed must not change when the engine goes on."""

    def __init__(self):
        self.log = []

    def hello(self):
        return {"name": "reusing", "version": "0", "rulesets": ["toy"]}

    def start(self, ruleset, setup):
        pass

    def act(self, action):
        self.log.append(action["add"])
        return {"accepted": True, "events": [{"type": "added", "amount": action["add"]}]}

    def observe(self):
        return {"cards": {}, "players": {"p1": self.log}}

    def close(self):
        pass


def test_a_failure_keeps_what_was_observed_then(tmp_path):
    from toy import write_catalogue

    from conformance._catalogue import load_catalogue
    from conformance._runner import Runner, Selection
    from conformance._settings import get_profile

    catalogue = load_catalogue(write_catalogue(tmp_path / "cases"))
    engine = InProcessEngine(ReusingWrongEngine, "python:x:ReusingWrongEngine")
    runner = Runner(catalogue, engine, "python:x:ReusingWrongEngine", get_profile("quick"),
                    Selection(properties=False))
    first, second = list(runner.results())   # add 3, then add -1, on one engine

    def players(result):
        return [m.observed for m in result.mismatches if "players" in m.path]
    assert players(first) == [[3]]   # not [3, -1]: the engine went on with the same list
    assert players(second) == [[3, -1]]
