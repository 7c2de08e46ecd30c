"""The optional ``play`` capability: a fresh game and all its actions in one round trip.

A case or a property scenario becomes one request to an engine that offers
it.  What the runner concludes must not change: the same results, the step a
case broke at, the first mismatch.  A play that is skipped or breaks is
replayed one request at a time to name the step; a timeout is not.  The runner
sees one primitive, `Connection.play`, whatever the engine offers.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from test_protocol_serve import Recorder, converse

from conformance import EngineReportedError, EngineTimeout, ProtocolViolation, Unsupported
from conformance._catalogue import Case, Catalogue
from conformance._engine import Connection
from conformance._protocol import PLAY, handle
from conformance._runner import Runner, Selection
from conformance._settings import get_profile
from conformance._subprocess import SubprocessEngine

ENGINES = Path(__file__).parents[1] / "fakes"
HELLO = {"seq": 1, "cmd": "hello", "protocol": 1}


def play_request(seq=2, steps=({"action": {"x": 1}}, {"action": {"x": 2}, "observe": True})):
    return {"seq": seq, "cmd": "play", "ruleset": "vision", "setup": {"board": 1},
            "steps": list(steps)}


def test_serve_offers_play_and_answers_every_step_with_the_states_asked_for():
    engine = Recorder(observe={"cards": {"t1": {"damage": 4}}})
    hello, played = converse(engine, HELLO, play_request())
    assert hello["ok"]["capabilities"][PLAY] is True
    first, second = played["ok"]["replies"]
    assert first == {"accepted": True, "events": [{"echo": {"x": 1}}]}  # as the engine said
    assert second["state"] == {"cards": {"t1": {"damage": 4}}}
    assert engine.calls == ["hello", "start", "act", "act", "observe", "close"]


def test_an_engine_may_turn_play_off():
    engine = Recorder(hello={"name": "rec", "version": "1", "rulesets": ["vision"],
                             "capabilities": {PLAY: False}})
    reply, _ = handle(engine, b'{"seq": 1, "cmd": "hello", "protocol": 1}')
    assert reply["ok"]["capabilities"][PLAY] is False


@pytest.mark.parametrize(("answers", "outcome"), [
    ({"start": Unsupported("no such board")}, "skipped"),
    ({"act": Unsupported("no such action")}, "skipped"),
    ({"act": KeyError("t9")}, "error"),
    ({"act": {"accepted": True, "events": [{"cards": {1, 2}}]}}, "error"),
])
def test_a_step_that_cannot_be_played_ends_the_whole_play(answers, outcome):
    (reply,) = converse(Recorder(**answers), play_request())
    assert outcome in reply


class Scripted(Connection):
    """A connection the runner drives with the default `play`; ``act`` of step 2
    raises what the test says."""

    def __init__(self, fail_act=None):
        self.fail_act = fail_act
        self.calls: list[str] = []

    def hello(self):
        return {"name": "s", "version": "1", "rulesets": ["vision"], "capabilities": {}}

    def start(self, ruleset, setup):
        self.calls.append("start")

    def act(self, action):
        self.calls.append(f"act {action['n']}")
        if action["n"] == 2 and self.fail_act is not None:
            raise self.fail_act
        return {"accepted": action["n"] != 3, "events": [], "reason": "no"}

    def observe(self):
        self.calls.append("observe")
        return {"cards": {"t1": {"damage": 4}}, "players": {}}

    def close(self):
        pass


def run(engine, *steps):
    case = Case(id="vision/x", title="x", ruleset="vision", rules=(), source={}, notes="",
                flags=(), setup={}, steps=steps, path="x.yaml", line=1)
    runner = Runner(Catalogue(Path("."), {}, [case], [], ""), engine, "test",
                    get_profile("quick"), Selection(properties=False))
    runner.handshake()
    return runner.run_case(case)


STEPS = ({"do": {"n": 1}}, {"do": {"n": 2}, "expect": {"cards": {"t1": {"damage": 4}}}},
         {"do": {"n": 3}, "expect": {"outcome": "accepted"}})


def test_a_case_is_one_play_judged_step_by_step():
    engine = Scripted()
    result = run(engine, *STEPS)
    assert (result.status, result.step) == ("fail", 3)
    assert engine.calls == ["start", "act 1", "act 2", "observe", "act 3"]


@pytest.mark.parametrize(("fault", "status"), [(Unsupported("no step 2"), "skip"),
                                               (EngineReportedError("boom"), "error")])
def test_a_play_that_stops_names_the_step_it_stopped_at(fault, status):
    result = run(Scripted(fail_act=fault), *STEPS)
    assert (result.status, result.step) == (status, 2)


def test_every_failing_step_is_in_the_result_and_the_first_is_named():
    steps = ({"do": {"n": 1}, "expect": {"outcome": "rejected"}}, STEPS[1],
             {"do": {"n": 3}, "expect": {"outcome": "accepted"}})
    result = run(Scripted(), *steps)
    assert (result.status, result.step) == ("fail", 1)
    assert [m.path.split(":")[0] for m in result.mismatches] == ["step 1", "step 3"]
    assert result.message.endswith("(+1 more)")


def test_a_mismatch_before_the_stop_is_the_result():
    # step 1 mismatches, step 2 breaks the engine: the case fails at step 1
    steps = ({"do": {"n": 1}, "expect": {"outcome": "rejected"}}, *STEPS[1:])
    result = run(Scripted(fail_act=EngineReportedError("boom at 2")), *steps)
    assert (result.status, result.step) == ("fail", 1)


def test_a_refused_board_has_no_step():
    class Refusing(Scripted):
        def start(self, ruleset, setup):
            raise Unsupported("no such board")

    result = run(Refusing(), *STEPS)
    assert (result.status, result.step) == ("skip", None)


def test_the_default_play_asks_for_the_state_only_where_wanted():
    engine = Scripted()
    outcomes = engine.play("vision", {}, [({"n": 1}, False), ({"n": 2}, True)])
    assert engine.calls == ["start", "act 1", "act 2", "observe"]
    assert outcomes[0][1] is None
    assert outcomes[1][1] == {"cards": {"t1": {"damage": 4}}, "players": {}}


def tiny(*args, timeout=10, **options):
    return SubprocessEngine([sys.executable, *map(str, args)], timeout=timeout, **options)


@pytest.mark.slow
def test_the_adapter_sends_one_request_per_play_and_gets_what_steps_would():
    steps = [({"n": 1}, False), ({"n": 2}, True), ({"n": 3}, True)]
    with tiny(ENGINES / "python_engine.py") as batched, \
            tiny(ENGINES / "python_engine.py", play=False) as stepwise:
        batched.hello()
        stepwise.hello()
        assert batched.batches and not stepwise.batches
        before = batched._seq
        got = batched.play("echo", {"board": 1}, steps)
        assert batched._seq == before + 1
        assert got == stepwise.play("echo", {"board": 1}, steps)
        assert got[2][1]["actions"] == [{"n": 1}, {"n": 2}, {"n": 3}]
        with pytest.raises(Unsupported, match="not modelled") as stopped:
            batched.play("echo", {}, [({"n": 1}, False), ({"raise": "unsupported"}, False)])
        # skipped as one play, then replayed one request at a time to name the step
        assert (len(stopped.value.played), stopped.value.step) == (1, 2)


@pytest.mark.slow
def test_a_play_that_timed_out_is_not_replayed():
    with tiny(ENGINES / "bad_play.py", "hang", timeout=1) as engine:
        engine.hello()
        before = engine._seq
        with pytest.raises(EngineTimeout, match="did not answer play"):
            engine.play("echo", {}, [({"n": 1}, False)])
        assert engine._seq == before + 1


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "says"), [("short", "2 replies to 3 steps"),
                                            ("stateless", "without the state of step 2")])
def test_a_play_reply_must_answer_every_step(mode, says):
    with tiny(ENGINES / "bad_play.py", mode) as engine:
        engine.hello()
        with pytest.raises(ProtocolViolation, match=says) as fault:
            engine.play("echo", {}, [({"n": 1}, False), ({"n": 2}, True), ({"n": 3}, False)])
        # played again one request at a time, it went through: the play was the fault
        assert len(fault.value.played) == 3 and fault.value.step is None


@pytest.mark.slow
def test_the_catalogue_gets_the_same_results_with_play_and_without():
    from conformance._catalogue import load_catalogue
    from conformance._loading import load_engine

    catalogue = load_catalogue(Path(__file__).parents[2] / "cases")
    results = []
    for use_play in (True, False):
        engine = tiny("-m", "reference_engine.serve", play=use_play)
        runner = Runner(catalogue, engine, "cmd:serve", get_profile("quick"),
                        reference=lambda: load_engine("reference"))
        try:
            results.append([{**r.to_json(), "duration": 0} for r in runner.results()])
        finally:
            engine.close()
        assert engine.batches is use_play
    assert results[0] == results[1]
    assert {r["status"] for r in results[0]} == {"pass"}


@pytest.mark.slow
def test_a_play_whose_answer_breaks_the_schema_is_replayed_to_the_step_serve_words():
    # serve leaves checking a play's answers to the harness (reply-play.json); the
    # harness then replays the case, and the case reads as it would without play
    steps = ({"do": {"n": 1}}, {"do": {"n": 2}, "expect": {"cards": {"t1": {"damage": 4}}}})
    got = []
    for use_play in (True, False):
        with tiny(ENGINES / "bad_state.py", play=use_play) as engine:
            case = Case(id="vision/x", title="x", ruleset="echo", rules=(), source={},
                        notes="", flags=(), setup={}, steps=steps, path="x.yaml", line=1)
            runner = Runner(Catalogue(Path("."), {}, [case], [], ""), engine, "test",
                            get_profile("quick"), Selection(properties=False))
            runner.handshake()
            assert engine.batches is use_play
            result = runner.run_case(case)
            got.append((result.status, result.step, re.sub(r"seq \d+", "seq N", result.message)))
    assert got[0] == got[1]
    assert got[0][:2] == ("error", 2) and "reply-observe.json" in got[0][2]
