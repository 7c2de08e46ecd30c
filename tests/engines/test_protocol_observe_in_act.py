"""The optional ``observe_in_act`` capability: the state rides along with ``act``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_protocol_serve import Recorder, converse

from conformance._protocol import OBSERVE_IN_ACT, handle
from conformance._subprocess import SubprocessEngine

ENGINES = Path(__file__).parents[1] / "fakes"
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


@pytest.mark.slow
def test_a_step_whose_state_is_not_wanted_asks_for_none():
    argv = [sys.executable, str(ENGINES / "python_engine.py")]
    with SubprocessEngine(argv, timeout=10, play=False) as engine:
        engine.hello()
        before = engine._seq
        outcomes = engine.play("echo", {"board": 1}, [({"n": 1}, False), ({"n": 2}, True)])
        wanted = outcomes[1][1]
        assert outcomes[0][1] is None and wanted and wanted["actions"] == [{"n": 1}, {"n": 2}]
        # start, act, act: the wanted state rode along with its act, the other was not built
        assert engine._seq == before + 3


def test_a_case_asks_for_the_state_only_on_the_steps_that_assert_it():
    from conformance._catalogue import Case, Catalogue
    from conformance._engine import Connection
    from conformance._runner import Runner, Selection
    from conformance._settings import get_profile

    class Engine(Connection):
        def __init__(self):
            self.calls = []

        def hello(self):
            return {"name": "rec", "version": "1", "rulesets": ["vision"], "capabilities": {}}

        def start(self, ruleset, setup):
            self.calls.append("start")

        def act(self, action):
            self.calls.append(f"act {action['n']}")
            return {"accepted": True, "events": [], "reason": None}

        def observe(self):
            self.calls.append("observe")
            return {"cards": {"t1": {"damage": 4}}, "players": {}}

        def close(self):
            pass

    steps = ({"do": {"n": 1}}, {"do": {"n": 2}, "expect": {"cards": {"t1": {"damage": 4}}}},
             {"do": {"n": 3}, "expect": {"outcome": "accepted"}})
    case = Case(id="vision/x", title="x", ruleset="vision", rules=(), source={}, notes="",
                flags=(), setup={}, steps=steps, path="x.yaml", line=1)
    engine = Engine()
    runner = Runner(Catalogue(Path("."), {}, [case], [], ""), engine, "test",
                    get_profile("quick"), Selection(properties=False))
    runner.handshake()
    assert runner.run_case(case).status == "pass"
    assert engine.calls == ["start", "act 1", "act 2", "observe", "act 3"]
