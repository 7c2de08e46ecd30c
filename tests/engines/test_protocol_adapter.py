"""SubprocessEngine with engines that follow the protocol: handshake, skip, error, lifecycle."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from conformance import (
    Engine,
    EngineCrashed,
    EngineReportedError,
    Unsupported,
)
from conformance._errors import UsageError
from conformance._protocol import problem
from conformance._subprocess import SubprocessEngine

# real engine processes: the slow layer
pytestmark = pytest.mark.slow

ENGINES = Path(__file__).parents[1] / "fakes"


def argv(name: str, *args: str) -> list[str]:
    return [sys.executable, str(ENGINES / f"{name}.py"), *args]


def engine_for(name: str, *args: str, **options) -> SubprocessEngine:
    return SubprocessEngine(argv(name, *args), **{"timeout": 2.0, "startup_timeout": 5.0,
                                                  **options})


def test_it_is_an_engine():
    assert isinstance(engine_for("echo"), Engine)


def test_handshake_returns_what_the_engine_said_and_starts_one_process():
    with engine_for("echo") as engine:
        info = engine.hello()
        assert info == {"name": "echo", "version": "1.0", "rulesets": ["echo", "vision"],
                        "capabilities": {"pid": engine.pid}}
        assert engine.hello() == info
        assert info["capabilities"]["pid"] == engine.pid


def test_a_game_round_trips_json_including_japanese_text():
    setup = {"p1": {"hand": [{"id": "s1", "name": "符ノ壱“博麗 霊夢”", "cost": "X"}]}}
    with engine_for("echo") as engine:
        engine.start("vision", setup)  # start also performs the handshake
        reply = engine.act({"play": "s1", "by": "p1", "pay_nodes": 4})
        assert reply == {"accepted": True, "reason": None,
                         "events": [{"echo": {"play": "s1", "by": "p1", "pay_nodes": 4}}]}
        state = engine.observe()
        assert state["setup"] == setup and state["ruleset"] == "vision"
        pid = engine.pid
        engine.start("vision", {})  # a new game, same process
        assert engine.observe()["actions"] == [] and engine.pid == pid


def test_one_process_serves_many_cases():
    with engine_for("echo") as engine:
        pids = set()
        for n in range(20):
            engine.start("echo", {"n": n})
            engine.act({"n": n})
            pids.add(engine.observe()["pid"])
        assert len(pids) == 1


def test_requests_validate_use_ascii_and_seq_only_grows_across_restarts(tmp_path):
    log = tmp_path / "requests.jsonl"
    with engine_for("crash", "--after", "1", "--log", str(log)) as engine:
        for _ in range(2):  # the second act crashes the process; start() restarts it
            engine.start("vision", {"p1": {"hand": [{"id": "s1", "name": "霊夢"}]}})
            engine.act({"play": "s1"})
            with pytest.raises(EngineCrashed):
                engine.act({"play": "s1"})
        engine.start("vision", {})
        engine.act({"play": "s1"})
        engine.observe()
    lines = log.read_bytes().splitlines()
    requests = [json.loads(line) for line in lines]
    assert all(line.isascii() for line in lines)
    assert [r["cmd"] for r in requests].count("hello") == 3
    for request in requests:
        assert problem(f"request-{request['cmd']}", request) is None, request
    seqs = [r["seq"] for r in requests]
    assert seqs == sorted(set(seqs)) and seqs[0] == 1
    assert requests[-1]["cmd"] == "stop"


def test_skipped_replies_raise_unsupported_and_keep_the_process():
    with engine_for("skip_all") as engine:
        assert engine.hello()["name"] == "echo"
        pid = engine.pid
        with pytest.raises(Unsupported, match="start not modelled") as caught:
            engine.start("vision", {})
        assert caught.value.reason == "start not modelled"
        with pytest.raises(Unsupported, match="act not modelled"):
            engine.act({})
        with pytest.raises(Unsupported, match="observe not modelled"):
            engine.observe()
        assert engine.pid == pid


def test_a_claimed_ruleset_may_still_be_skipped():
    with engine_for("claims_ruleset", "--answer", "skipped") as engine:
        assert engine.hello()["rulesets"] == ["echo", "mtg"]
        pid = engine.pid
        with pytest.raises(Unsupported, match="mtg is not implemented yet"):
            engine.start("mtg", {})
        engine.start("echo", {})
        assert engine.observe()["ruleset"] == "echo" and engine.pid == pid


def test_an_error_reply_is_reported_with_its_traceback_and_the_process_kept():
    with engine_for("error_reply") as engine:
        engine.start("vision", {})
        pid = engine.pid
        with pytest.raises(EngineReportedError) as caught:
            engine.act({"play": "s1", "by": "p3"})
        error = caught.value
        assert re.fullmatch(r"engine 'echo' reported an error on act \(seq \d+\): KeyError: 'p3'",
                            error.message)
        assert 'player = players[action["by"]]' in error.stderr
        assert engine.pid == pid
        assert engine.observe()["ruleset"] == "vision"


def test_act_before_any_start_says_to_call_start():
    with engine_for("echo") as engine, pytest.raises(EngineCrashed,
                                                    match=r"no game was started; call start"):
        engine.act({})


def test_close_is_quick_idempotent_and_final():
    engine = engine_for("echo")
    engine.close()  # never started: nothing to do
    engine = engine_for("echo")
    engine.start("echo", {})
    assert engine._child is not None
    process = engine._child.proc
    engine._state = {"brought": "by an act"}   # a cached state is not answered after close
    engine.close()
    engine.close()
    # a polite engine exits on stop by itself (status 0), never waited out and killed
    assert process.returncode == 0
    assert engine.pid is None
    with pytest.raises(UsageError, match="was closed"):
        engine.start("echo", {})
    with pytest.raises(UsageError, match="was closed"):
        engine.observe()


@pytest.mark.parametrize(("args", "options", "says"), [
    ("python engine.py", {}, "split a command line with shlex.split"),
    ([], {}, "non-empty list"),
    (["engine"], {"timeout": 0}, "timeout must be > 0"),
    (["engine"], {"max_reply_bytes": -1}, "max_reply_bytes must be > 0"),
    (["engine"], {"memory_limit_mb": 0}, "memory_limit_mb must be > 0"),
])
def test_bad_construction_is_a_usage_error(args, options, says):
    with pytest.raises(UsageError, match=re.escape(says)):
        SubprocessEngine(args, **options)


def test_cwd_and_env_reach_the_engine(tmp_path):
    script = tmp_path / "where.py"
    script.write_text(
        "import json, os, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    ok = {'name': os.getcwd(), 'version': os.environ.get('ENGINE_FLAVOUR', ''),\n"
        "          'rulesets': [], 'protocol': 1} if r['cmd'] == 'hello' else None\n"
        "    print(json.dumps({'seq': r['seq'], 'ok': ok}), flush=True)\n"
    )
    engine = SubprocessEngine([sys.executable, str(script)], cwd=tmp_path,
                              env={"ENGINE_FLAVOUR": "strict", "PATH": ""})
    with engine:
        info = engine.hello()
    assert Path(info["name"]).resolve() == tmp_path.resolve()
    assert info["version"] == "strict"


def test_crlf_line_endings_are_tolerated(tmp_path):
    script = tmp_path / "crlf.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    ok = {'name': 'crlf', 'version': '1', 'rulesets': [], 'protocol': 1}\n"
        "    reply = json.dumps({'seq': r['seq'], 'ok': ok}).encode()\n"
        "    sys.stdout.buffer.write(reply + b'\\r\\n')\n"
        "    sys.stdout.buffer.flush()\n"
    )
    with SubprocessEngine([sys.executable, str(script)], timeout=5.0) as engine:
        assert engine.hello()["name"] == "crlf"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_javascript_skeleton_engine_speaks_the_protocol():
    """The shipped JavaScript skeleton (conformance/templates/skeleton-engine.js, what
    `conformance init --lang node` writes): another language, certified end to end."""
    from conformance._certify import RunConfig, certify, exit_status
    from conformance._runner import Selection
    from conformance._settings import get_profile

    script = Path(__file__).parents[2] / "conformance" / "templates" / "skeleton-engine.js"
    report = certify(RunConfig(engine_spec=f"cmd:node {script}", profile=get_profile("quick"),
                               selection=Selection(rulesets=["vision"], properties=False)))
    assert report["engine"]["name"] == "skeleton-js"
    assert report["summary"]["skip"] == report["summary"]["total"] > 0
    assert "not mapped yet" in report["results"][0]["message"]
    assert exit_status(report) == 5  # nothing checked yet: no verdict, not a pass
