"""`conformance._protocol.serve`: the server loop any Python engine (and the reference) uses."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance import EngineCrashed, EngineReportedError, Unsupported
from conformance._protocol import encode, problem, reply_schema, serve
from conformance._subprocess import SubprocessEngine

ENGINES = Path(__file__).parents[1] / "fakes"


class Recorder:
    """An in-process engine whose answers the test chooses; records every call."""

    def __init__(self, **answers: Any) -> None:
        self.answers = answers
        self.calls: list[str] = []

    def _answer(self, name: str, default: Any) -> Any:
        self.calls.append(name)
        answer = self.answers.get(name, default)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def hello(self):
        return self._answer("hello", {"name": "rec", "version": "1", "rulesets": ["vision"]})

    def start(self, ruleset, setup):
        return self._answer("start", None)

    def act(self, action):
        return self._answer("act", {"accepted": True, "events": [{"echo": action}]})

    def observe(self):
        return self._answer("observe", {"cards": {}, "players": {}})

    def close(self):
        self.calls.append("close")


def converse(engine: Any, *requests: Any) -> list[dict[str, Any]]:
    """Run serve() over in-memory pipes; check every reply against its schema."""
    lines = [r if isinstance(r, bytes) else json.dumps(r).encode() + b"\n" for r in requests]
    stdout = io.BytesIO()
    serve(engine, io.BytesIO(b"".join(lines)), stdout)
    replies = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert len(replies) <= len(requests)
    for request, reply in zip(requests, replies, strict=False):
        cmd = request.get("cmd", "") if isinstance(request, dict) else ""
        name = reply_schema(cmd, reply) if "error" not in reply else "reply-error"
        assert name and problem(name, reply) is None, (request, reply)
    return replies


SESSION = [
    {"seq": 1, "cmd": "hello", "protocol": 1},
    {"seq": 2, "cmd": "start", "ruleset": "vision", "setup": {"p1": {"nodes": 6}}},
    {"seq": 3, "cmd": "act", "action": {"play": "s1"}},
    {"seq": 4, "cmd": "observe"},
    {"seq": 5, "cmd": "stop"},
]


def test_a_session_is_answered_in_order_and_closes_the_engine():
    engine = Recorder()
    replies = converse(engine, *SESSION, {"seq": 6, "cmd": "observe"})
    assert [r["seq"] for r in replies] == [1, 2, 3, 4, 5]  # nothing after stop
    assert replies[0]["ok"] == {"name": "rec", "version": "1", "rulesets": ["vision"],
                                "capabilities": {"observe_in_act": True, "play": True},
                                "protocol": 1}
    assert replies[1] == {"seq": 2, "ok": None}
    assert replies[2]["ok"] == {"accepted": True, "events": [{"echo": {"play": "s1"}}],
                                "reason": None}
    assert replies[3] == {"seq": 4, "ok": {"cards": {}, "players": {}}}
    assert engine.calls == ["hello", "start", "act", "observe", "close"]


def test_eof_without_stop_still_closes_the_engine():
    engine = Recorder()
    converse(engine, *SESSION[:2])
    assert engine.calls[-1] == "close"


def test_unsupported_is_a_skipped_reply_except_for_hello():
    engine = Recorder(start=Unsupported("no deck zone"), hello=Unsupported("nothing"))
    replies = converse(engine, *SESSION[:2])
    assert replies[1] == {"seq": 2, "skipped": {"reason": "no deck zone"}}
    assert replies[0]["error"]["message"] == "hello cannot be skipped: nothing"


@pytest.mark.parametrize(("answers", "says"), [
    ({"act": KeyError("p3")}, "KeyError: 'p3'"),
    ({"act": {"accepted": "yes"}},
     "act() answered {'accepted': 'yes'}, which does not match reply-act.json at $.accepted"),
    ({"act": {"accepted": True, "events": [{"cards": {1, 2}}]}}, "not JSON data"),
    ({"act": {"accepted": True, "events": [{"x": float("nan")}]}}, "not JSON data"),
    ({"hello": {"name": "no rulesets"}}, "hello() answered"),
])
def test_engine_exceptions_and_garbage_become_error_replies(answers, says):
    replies = converse(Recorder(**answers), SESSION[0], SESSION[2], SESSION[3])
    bad = [r for r in replies if "error" in r]
    assert len(bad) == 1 and says in bad[0]["error"]["message"]
    assert len(replies) == 3  # and the server goes on


def test_an_error_reply_carries_the_traceback():
    (reply,) = converse(Recorder(act=RuntimeError("boom")), SESSION[2])
    assert reply["error"]["message"] == "RuntimeError: boom"
    assert "Traceback" in reply["error"]["traceback"]


@pytest.mark.parametrize(("line", "seq", "says"), [
    (b"not json\n", None, "request is not JSON"),
    (b"\xff\xfe\n", None, "request is not JSON"),
    (b"[1, 2]\n", None, "unknown request"),
    (b'{"seq": 7}\n', 7, "unknown request"),
    (b'{"seq": 7, "cmd": "shuffle"}\n', 7, "unknown request"),
    (b'{"seq": 7, "cmd": "start", "ruleset": "vision"}\n', 7,
     "malformed start request: $: 'setup' is a required property"),
    (b'{"seq": "7", "cmd": "observe"}\n', None, "malformed observe request: $.seq"),
    (b'{"seq": 7, "cmd": "act", "action": []}\n', 7, "malformed act request: $.action"),
    (b'{"seq": 7, "cmd": "hello", "protocol": 2}\n', 7,
     "protocol mismatch: the harness speaks protocol 2, this server speaks 1"),
])
def test_a_bad_request_gets_an_error_reply_and_the_server_goes_on(line, seq, says):
    engine = Recorder()
    replies = converse(engine, line, SESSION[3])
    assert replies[0]["seq"] == seq
    assert says in replies[0]["error"]["message"]
    assert replies[1] == {"seq": 4, "ok": {"cards": {}, "players": {}}}


def test_print_in_the_engine_goes_to_stderr_not_onto_the_wire(capsys):
    class Chatty(Recorder):
        def observe(self):
            print("debug: observing")
            return super().observe()

    replies = converse(Chatty(), SESSION[3])
    assert replies == [{"seq": 4, "ok": {"cards": {}, "players": {}}}]
    assert "debug: observing" in capsys.readouterr().err


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.binary(max_size=60).map(lambda b: b.replace(b"\n", b"") + b"\n"),
                max_size=5))
def test_serve_answers_any_bytes_with_one_valid_reply_per_line(lines):
    replies = converse(Recorder(), *lines, SESSION[3])
    assert len(replies) == len(lines) + 1


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=3),
    max_leaves=8,
)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.dictionaries(st.sampled_from(["seq", "cmd", "protocol", "ruleset", "setup", "action"]),
                       json_values | st.sampled_from(["hello", "start", "act", "observe"])))
def test_serve_answers_any_json_object_with_a_valid_reply(request):
    replies = converse(Recorder(), request, SESSION[3])
    assert len(replies) == 2


def test_encode_is_one_line_even_for_awkward_text():
    line = encode({"text": "a\nb\u2028c\r霊"})
    assert line.count(b"\n") == 1 and line.endswith(b"\n")
    assert json.loads(line) == {"text": "a\nb\u2028c\r霊"}


# -- the same loop over a real pipe ---------------------------------------------------


@pytest.mark.slow
def test_a_python_engine_served_over_a_pipe():
    engine = SubprocessEngine([sys.executable, str(ENGINES / "python_engine.py")], timeout=5.0)
    with engine:
        assert engine.hello()["name"] == "tiny"
        pid = engine.pid
        with pytest.raises(Unsupported, match="only echo, not vision"):
            engine.start("vision", {})
        engine.start("echo", {"n": 1})
        assert engine.act({"print": "this would corrupt stdout"})["accepted"] is True
        with pytest.raises(Unsupported, match="this action is not modelled"):
            engine.act({"raise": "unsupported"})
        with pytest.raises(EngineReportedError, match="ValueError: no such card: t9") as caught:
            engine.act({"raise": "value"})
        assert "Traceback" in caught.value.stderr
        with pytest.raises(EngineReportedError, match="ProtocolViolation: an engine-side check"):
            engine.act({"raise": "fault"})
        assert engine.observe()["actions"] == [{"print": "this would corrupt stdout"}]
        assert engine.pid == pid
    assert "this would corrupt stdout" in engine.stderr


def needs_reference_engine() -> None:
    """The reference engine is written alongside; until it imports, say so and skip."""
    try:
        from reference_engine import create_engine  # noqa: F401
    except Exception as exc:
        pytest.skip(f"reference_engine does not import yet: {type(exc).__name__}: {exc}")


@pytest.mark.slow
def test_the_reference_engine_server():
    needs_reference_engine()
    engine = SubprocessEngine([sys.executable, "-m", "reference_engine.serve"], timeout=10.0)
    with engine:
        info = engine.hello()
        assert info["name"] and isinstance(info["rulesets"], list)


@pytest.mark.slow
def test_the_reference_server_refuses_an_unknown_mutant_before_the_handshake():
    needs_reference_engine()
    engine = SubprocessEngine(
        [sys.executable, "-m", "reference_engine.serve", "--mutant", "no-such-mutant"],
        timeout=10.0)
    with engine, pytest.raises(EngineCrashed, match="exited with code 4") as caught:
        engine.hello()
    assert "no-such-mutant" in caught.value.stderr
