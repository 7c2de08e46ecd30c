"""Misbehaving engines (tests/fakes/) through the real subprocess adapter.

For each one: the right `EngineFault` subtype, a message that names the fault
and the request, a bounded stderr, the process really gone, the harness never
held past its timeout, and a working engine again after the restart.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

from conformance import (
    EngineCrashed,
    EngineFault,
    EngineReportedError,
    EngineTimeout,
    ProtocolViolation,
)
from conformance._subprocess import STOP_GRACE, SubprocessEngine, _Child

# real (misbehaving) processes: the slow layer
pytestmark = pytest.mark.slow

ENGINES = Path(__file__).parents[1] / "fakes"
TIMEOUT = 0.5          # per reply
STARTUP = 1.0          # process start + hello, for engines that fault there
SLOW_START = 5.0       # ... for the others: a loaded CI machine must not fake a fault
MARGIN = 1.0           # kill, reap and collect stderr
STDERR_LIMIT = 4_000


def argv(name: str, *args: str) -> list[str]:
    return [sys.executable, str(ENGINES / f"{name}.py"), *args]


def engine_for(name: str, *args: str, **options) -> SubprocessEngine:
    options = {"timeout": TIMEOUT, "startup_timeout": SLOW_START,
               "stderr_limit": STDERR_LIMIT, **options}
    return SubprocessEngine(argv(name, *args), **options)


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for a reaper counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


# Steps a session goes through; a fixture faults at one of them.
STEPS = {
    "hello": ["hello"],
    "start": ["hello", "start"],
    "start-mtg": ["hello", "start-mtg"],
    "act": ["hello", "start", "act"],
    "act2": ["hello", "start", "act", "act"],
}


def step(engine: SubprocessEngine, name: str) -> object:
    if name == "hello":
        return engine.hello()
    if name == "start":
        engine.start("echo", {"p1": {"hand": [{"id": "s1", "name": "博麗霊夢"}]}})
        return None
    if name == "start-mtg":
        engine.start("mtg", {})
        return None
    if name == "act":
        return engine.act({"play": "s1", "by": "p1"})
    raise AssertionError(name)


# id, script + args, the step that faults, exception, what the message must say
HOSTILE = [
    ("crash-at-hello", ["crash", "--at", "hello"], "hello", EngineCrashed,
     r"exited with code 1 instead of answering hello \(seq \d+\).*RuntimeError"),
    ("crash-at-start", ["crash", "--at", "start"], "start", EngineCrashed,
     r"exited with code 1 instead of answering start \(seq \d+\).*deck is empty"),
    ("crash-mid-case", ["crash", "--after", "1"], "act2", EngineCrashed,
     r"exited with code 1 instead of answering act \(seq \d+\)"),
    ("hang-at-hello", ["hang", "--at", "hello"], "hello", EngineTimeout,
     rf"did not answer hello \(seq \d+\) within {STARTUP:g} s.*flushes stdout"),
    ("hang", ["hang"], "act", EngineTimeout,
     rf"did not answer act \(seq \d+\) within {TIMEOUT:g} s.*thinking about act forever"),
    ("garbage", ["garbage"], "act", ProtocolViolation,
     r"act \(seq \d+\) with a line that is not JSON.*Loading card database.*write logs to stderr"),
    ("half-line", ["half_line"], "act", EngineTimeout,
     r"did not answer act \(seq \d+\)"),
    ("non-utf8", ["non_utf8"], "act", ProtocolViolation,
     r"act \(seq \d+\) with bytes that are not UTF-8"),
    ("huge-line", ["huge_line"], "act", ProtocolViolation,
     r"act \(seq \d+\) with a line longer than 1000000 bytes"),
    ("wrong-seq", ["wrong_seq"], "act", ProtocolViolation,
     r"answered seq \d+ while the harness waited for act \(seq \d+\)"),
    # The second answer is seen when it arrives: while waiting for (or before) the next request.
    ("answer-twice", ["answer_twice"], "act2", ProtocolViolation,
     r"duplicate|answer twice"),
    ("exit-early", ["exit_early"], "act", EngineCrashed,
     r"exited with code 0 instead of answering act \(seq \d+\).*bye"),
    ("exit-at-start", ["exit_early", "--at", "start", "--code", "7"], "start", EngineCrashed,
     r"exited with code 7 instead of answering start"),
    ("stderr-flood-then-crash", ["stderr_flood", "--then", "crash"], "act", EngineCrashed,
     r"exited with code 1 .*Last stderr line: 'RuntimeError: engine bug after the flood'"),
    ("schema-mismatch", ["bad_reply"], "act", ProtocolViolation,
     r"does not match reply-act.json at \$.ok.accepted: 'yes' is not of type 'boolean'"),
    ("claims-ruleset-garbage", ["claims_ruleset", "--answer", "garbage"], "start-mtg",
     ProtocolViolation, r"start \(seq \d+\) .*does not match reply-start.json"),
    ("wrong-protocol", ["wrong_protocol"], "hello", ProtocolViolation,
     r"speaks protocol 2 but this suite speaks protocol 1"),
    ("error-at-hello", ["error_reply", "--at", "hello"], "hello", EngineReportedError,
     r"reported an error on hello \(seq \d+\): KeyError: 'p3'"),
    ("skipped-hello", ["skip_all", "--at", "hello"], "hello", ProtocolViolation,
     r"a reply to hello has exactly one of the keys ok or error"),
    # replies Python's json module reads, but not as the engine meant (issue 40)
    ("nested-past-the-decoder", ["bad_json", "--kind", "deep"], "act", ProtocolViolation,
     r"act \(seq \d+\) with a reply nested deeper than 100 levels"),
    ("nested-past-the-suite", ["bad_json", "--kind", "nested"], "act", ProtocolViolation,
     r"act \(seq \d+\) with a reply nested deeper than 100 levels"),
    ("number-out-of-range", ["bad_json", "--kind", "huge-number"], "act", ProtocolViolation,
     r"act \(seq \d+\) with the number 1e999, which is out of range"),
    ("nan-literal", ["bad_json", "--kind", "nan"], "act", ProtocolViolation,
     r"act \(seq \d+\) with NaN, which JSON does not have"),
    ("infinity-literal", ["bad_json", "--kind", "infinity"], "act", ProtocolViolation,
     r"act \(seq \d+\) with -Infinity, which JSON does not have"),
    ("float-seq", ["bad_json", "--kind", "float-seq"], "act", ProtocolViolation,
     r"answered act \(seq (\d+)\) with seq \1\.0, not an integer"),
    ("stale-float-seq", ["bad_json", "--kind", "stale-float-seq"], "act", ProtocolViolation,
     r"answered act \(seq \d+\) with seq \d+\.0, not an integer"),
    ("duplicate-key", ["bad_json", "--kind", "duplicate-key"], "act", ProtocolViolation,
     r"act \(seq \d+\) with an object that has the key 'accepted' twice"),
    ("byte-order-mark", ["bad_json", "--kind", "bom"], "act", ProtocolViolation,
     r"act \(seq \d+\) with a line that begins with a UTF-8 byte order mark"),
]


@pytest.mark.parametrize(("script", "at", "fault", "says"),
                         [pytest.param(h[1], h[2], h[3], h[4], id=h[0]) for h in HOSTILE])
def test_hostile_engine_is_reported_killed_and_restartable(script, at, fault, says):
    engine = engine_for(*script, startup_timeout=STARTUP if at == "hello" else SLOW_START)
    try:
        *before, last = STEPS[at]
        for name in before:
            step(engine, name)
        pid = engine.pid
        began = time.monotonic()
        with pytest.raises(fault) as caught:
            step(engine, last)
        held = time.monotonic() - began
        limit = STARTUP if last == "hello" else TIMEOUT
        assert held < limit + MARGIN, f"the harness was held {held:.2f} s"

        error = caught.value
        assert re.search(says, error.message, re.DOTALL), error.message
        assert "launches a fresh one" in error.message or fault is EngineReportedError
        assert isinstance(error.stderr, str) and len(error.stderr) <= STDERR_LIMIT
        assert engine.pid is None, "a faulty process must not be kept"
        if pid is not None:
            assert not alive(pid)

        if last in ("act", "act2", "start-mtg"):
            # The game is lost: act without start fails fast and says why...
            with pytest.raises(EngineCrashed, match=r"call start\(\)"):
                engine.act({"play": "s1"})
            # ...and the next start() brings up a fresh process that works.
            engine.start("echo", {})
            state = engine.observe()
            assert state["pid"] != pid and state["actions"] == []
        else:
            # Faults at hello or start recur: the restart happens, and fails the same way.
            began = time.monotonic()
            with pytest.raises(fault):
                engine.start("echo", {})
            assert time.monotonic() - began < SLOW_START + TIMEOUT + 2 * MARGIN
    finally:
        began = time.monotonic()
        engine.close()
        assert time.monotonic() - began < STOP_GRACE + MARGIN


def test_a_late_answer_is_never_taken_for_the_current_one():
    engine = engine_for("late", "--delay", "1.0")
    with engine:
        engine.start("echo", {})
        pid = engine.pid
        assert pid is not None
        began = time.monotonic()
        with pytest.raises(EngineTimeout, match=r"did not answer act \(seq 3\) within 0.5 s"):
            engine.act({"slow": True, "n": 1})
        assert time.monotonic() - began < TIMEOUT + MARGIN
        assert not alive(pid)
        engine.start("echo", {})
        time.sleep(1.0)  # the old process would have answered by now
        reply = engine.act({"n": 2})
        assert reply["events"] == [{"echo": {"n": 2}}]
        assert engine.observe()["actions"] == [{"n": 2}]


def test_startup_failures_stop_being_retried(monkeypatch):
    engine = engine_for("crash", "--at", "hello")
    with engine:
        with pytest.raises(EngineCrashed, match="instead of answering hello"):
            engine.hello()
        with pytest.raises(EngineCrashed, match="instead of answering hello"):
            engine.start("echo", {})
        # not retrying: no third process is even spawned
        monkeypatch.setattr(_Child, "spawn", _no_spawn)
        with pytest.raises(EngineCrashed, match="failed to start 2 times in a row; not retrying"):
            engine.start("echo", {})


def _no_spawn(*args, **kwargs):
    raise AssertionError("a start was retried after the limit")


def test_an_engine_that_cannot_be_started_is_a_crash_with_a_hint():
    engine = SubprocessEngine(["/nonexistent/engine", "--fast"], timeout=TIMEOUT)
    with pytest.raises(EngineCrashed, match=r"could not start '/nonexistent/engine --fast'.*"
                                            r"without a shell"):
        engine.hello()
    engine.close()


def test_stderr_flood_does_not_block_the_engine_and_is_bounded():
    engine = engine_for("stderr_flood", "--mb", "4", timeout=5.0)
    with engine:
        engine.start("echo", {})
        for n in range(3):
            began = time.monotonic()
            assert engine.act({"n": n})["accepted"] is True
            assert time.monotonic() - began < 3.0
        deadline = time.monotonic() + 2.0
        while not engine.stderr.endswith("the last line of the flood\n"):
            assert time.monotonic() < deadline, engine.stderr[-200:]
            time.sleep(0.01)
        assert len(engine.stderr) <= STDERR_LIMIT
        assert re.match(r"\[\.\.\. \d+ earlier bytes of stderr dropped \.\.\.\]\n", engine.stderr)


def test_close_kills_an_engine_that_ignores_stop_eof_and_sigterm():
    engine = engine_for("ignore_stop")
    engine.start("echo", {})
    pid = engine.pid
    assert pid is not None
    began = time.monotonic()
    engine.close()
    held = time.monotonic() - began
    assert STOP_GRACE * 0.9 < held < STOP_GRACE + MARGIN  # it was given its grace, then killed
    assert not alive(pid)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_a_kill_reaches_what_the_engine_started():
    engine = engine_for("wrapper_hangs")
    with engine:
        engine.start("echo", {})
        with pytest.raises(EngineTimeout) as caught:
            engine.act({})
        said = re.search(r"helper pid (\d+)", caught.value.stderr)
        assert said, caught.value.stderr
        helper = int(said.group(1))
        deadline = time.monotonic() + 2.0
        while alive(helper):  # killed with the process group; its reaper is init
            assert time.monotonic() < deadline, "the helper outlived the engine"
            time.sleep(0.02)


@pytest.mark.skipif(os.name != "posix", reason="RLIMIT_AS is POSIX")
def test_memory_limit_turns_a_hog_into_a_crash():
    engine = engine_for("memory_hog", "--mb", "1024", memory_limit_mb=300)
    with engine:
        engine.start("echo", {})
        with pytest.raises(EngineCrashed, match="MemoryError") as caught:
            engine.act({})
        assert "MemoryError" in caught.value.stderr
        engine.start("echo", {})  # the restarted process gets the same limit and works


def test_every_fault_is_an_engine_fault():
    for _, _, _, fault, _ in HOSTILE:
        assert issubclass(fault, EngineFault)
