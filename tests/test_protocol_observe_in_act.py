"""The optional ``observe_in_act`` capability: the state rides along with ``act``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_protocol_serve import Recorder, converse

from conformance._protocol import OBSERVE_IN_ACT, handle
from conformance._subprocess import SubprocessEngine

ENGINES = Path(__file__).parent / "engines"
HELLO = {"seq": 1, "cmd": "hello", "protocol": 1}
START = {"seq": 2, "cmd": "start", "ruleset": "vision", "setup": {}}


def test_serve_offers_the_capability_and_answers_the_state_only_when_asked():
    engine = Recorder(observe={"cards": {"t1": {"damage": 4}}})
    hello, _, plain, asked = converse(
        engine, HELLO, START,
        {"seq": 3, "cmd": "act", "action": {"x": 1}},
        {"seq": 4, "cmd": "act", "action": {"x": 2}, "observe": True})
    assert hello["ok"]["capabilities"][OBSERVE_IN_ACT] is True
    assert "state" not in plain["ok"]
    assert asked["ok"]["state"] == {"cards": {"t1": {"damage": 4}}}
    assert engine.calls.count("observe") == 1


def test_an_engine_may_turn_the_capability_off():
    engine = Recorder(hello={"name": "rec", "version": "1", "rulesets": ["vision"],
                             "capabilities": {OBSERVE_IN_ACT: False}})
    reply, _ = handle(engine, b'{"seq": 1, "cmd": "hello", "protocol": 1}')
    assert reply["ok"]["capabilities"][OBSERVE_IN_ACT] is False


def test_a_failing_observe_leaves_the_act_answered_without_state():
    for failure in (ValueError("no state"), {"not": "checked"}, ["not", "an", "object"]):
        engine = Recorder(observe=failure)
        _, _, act = converse(engine, HELLO, START,
                             {"seq": 3, "cmd": "act", "action": {}, "observe": True})
        assert act["ok"]["accepted"] is True
        assert ("state" in act["ok"]) == isinstance(failure, dict)


@pytest.mark.slow
def test_the_adapter_saves_the_observe_round_trip_and_never_reuses_a_state():
    argv = [sys.executable, str(ENGINES / "python_engine.py")]
    with SubprocessEngine(argv, timeout=10) as engine:
        assert engine.hello()["capabilities"][OBSERVE_IN_ACT] is True
        engine.start("echo", {"board": 1})
        engine.act({"n": 1})
        sent = engine._seq
        assert engine.observe()["actions"] == [{"n": 1}]
        assert engine._seq == sent, "observe right after act must not be a request"
        assert engine.observe()["actions"] == [{"n": 1}]
        assert engine._seq == sent + 1, "a second observe asks the engine again"
        engine.act({"n": 2})
        engine.start("echo", {"board": 2})
        assert engine.observe() == {"setup": {"board": 2}, "actions": []}
