"""Transcripts (issue 28, point 4): each failing item's exact protocol exchange, which
replays against the engine with a plain pipe, no suite needed."""

from __future__ import annotations

import dataclasses
import json
import shlex
import subprocess
import sys

import pytest
from commands import conformance_in_process as conformance
from toy import write_catalogue

from conformance._certify import RunConfig, certify
from conformance._runner import Selection
from conformance._settings import get_profile
from conformance._transcript import Transcript, TranscriptSink

MUTANT = "failed-part-continues"   # breaks vision/IR-12/p2
SERVE = [sys.executable, "-m", "reference_engine.serve"]


def replayed(argv, requests):
    """The engine's replies to a transcript's requests, piped in as a person would."""
    proc = subprocess.run(argv, input=requests.read_bytes(), capture_output=True,
                          timeout=60, check=False)
    return proc.stdout.decode().splitlines()


def failing_transcripts(out):
    report = json.loads((out / "report.json").read_text())
    failed = [r for r in report["results"] if r["status"] == "fail"]
    assert failed, "the mutant must fail some case"
    return sorted((out / "counterexamples").glob("*.requests.jsonl")), failed


def test_a_failing_subprocess_case_replays_to_the_same_replies(tmp_path):
    argv = [*SERVE, "--mutant", MUTANT]
    out = tmp_path / "out"
    proc = conformance("certify", "--engine", "cmd:" + shlex.join(argv), "--rule",
                       "vision/IR-12/p2", "--no-properties", "--out", out)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    transcripts, failed = failing_transcripts(out)
    assert len(transcripts) == len(failed)
    for requests in transcripts:
        replies = requests.with_name(requests.name.replace(".requests.", ".replies."))
        sent = [json.loads(line) for line in requests.read_text().splitlines()]
        assert sent[0]["cmd"] == "hello"   # standalone: it starts with the hello
        assert len(sent) == len(replies.read_text().splitlines()) >= 2
        assert replayed(argv, requests) == replies.read_text().splitlines()
    assert "transcripts written:" in proc.stdout and "| diff -" in proc.stdout


def test_an_in_process_transcript_replays_through_serve(tmp_path):
    out = tmp_path / "out"
    conformance("certify", "--engine", f"reference:{MUTANT}", "--rule", "vision/IR-12/p2",
                "--no-properties", "--out", out)
    transcripts, _ = failing_transcripts(out)
    for requests in transcripts:
        hello = json.loads(requests.read_text().splitlines()[0])
        assert hello["mutant"] == MUTANT   # the hello asks for the mutant, as over the wire
        replies = requests.with_name(requests.name.replace(".requests.", ".replies."))
        assert replayed(SERVE, requests) == replies.read_text().splitlines()


def test_transcript_writes_every_item_and_a_green_run_has_no_counterexamples(tmp_path):
    cases = write_catalogue(tmp_path / "cases")
    out = tmp_path / "out"
    proc = conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases,
                       "--out", out, "--transcript")
    assert proc.returncode == 0, proc.stdout
    names = sorted(p.name for p in (out / "transcripts").iterdir())
    assert names == ["toy__add__two-plus-three.replies.jsonl",
                     "toy__add__two-plus-three.requests.jsonl",
                     "toy__negative__rejected.replies.jsonl",
                     "toy__negative__rejected.requests.jsonl"]
    assert not (out / "counterexamples").exists()
    assert "not written by this run" not in proc.stdout
    second = (out / "transcripts" / "toy__negative__rejected.requests.jsonl").read_text()
    assert [json.loads(line)["cmd"] for line in second.splitlines()] == [
        "hello", "start", "act", "observe"]


def test_transcript_into_a_folder_without_out(tmp_path):
    cases = write_catalogue(tmp_path / "cases")
    folder = tmp_path / "tr"
    conformance("run", "--engine", "python:toy:WrongEngine", "--cases", cases,
                "--select", "toy/add/*", "--transcript", folder)
    replies = (folder / "toy__add__two-plus-three.replies.jsonl").read_text().splitlines()
    assert json.loads(replies[-1])["ok"]["players"]["p1"]["count"] == 6   # what it answered


def test_transcript_alone_needs_a_folder(tmp_path):
    cases = write_catalogue(tmp_path / "cases")
    proc = conformance("run", "--engine", "python:toy:ToyEngine", "--cases", cases,
                       "--transcript")
    assert proc.returncode == 4 and "--transcript DIR" in proc.stderr


def test_an_item_keeps_the_hello_it_began_under():
    log = Transcript()
    log.sent("hello", b"h\n")
    log.received(b"H\n")
    log.begin()
    log.sent("start", b"s\n")
    log.received(b"S\n")
    first = log.end()
    assert first is not None and first.requests == [b"h\n", b"s\n"]
    assert first.replies == [b"H\n", b"S\n"]
    log.begin()
    assert log.end() is None   # an item that never reached the engine has no transcript
    log.begin()   # an item whose engine restarts says its own hello: not twice
    log.sent("hello", b"h2\n")
    log.received(b"H2\n")
    again = log.end()
    assert again is not None and again.requests == [b"h2\n"]


def test_a_failing_property_transcript_is_its_counterexample_alone(tmp_path):
    argv = [*SERVE, "--mutant", MUTANT]
    args = ["run", "--engine", "cmd:" + shlex.join(argv), "--no-cases", "--select",
            "vision/prop/resolution-stops-at-failure", "--profile", "quick"]
    out = tmp_path / "out"
    conformance(*args, "--out", out)
    requests = out / "counterexamples" / "vision__prop__resolution-stops-at-failure.requests.jsonl"
    sent = [json.loads(line)["cmd"] for line in requests.read_text().splitlines()]
    assert sent == ["hello", "play"]   # the shrunk scenario, not every example tried
    replies = requests.with_name(requests.name.replace(".requests.", ".replies."))
    assert replayed(argv, requests) == replies.read_text().splitlines()
    # replaying it for the transcript leaves the report's counts as they are without one
    config = RunConfig(engine_spec="cmd:" + shlex.join(argv), profile=get_profile("quick"),
                       selection=Selection(select=["vision/prop/resolution-stops-at-failure"],
                                           cases=False))
    without = certify(config)["results"][0]
    staging = tmp_path / "staging"
    staging.mkdir()
    with_one = certify(dataclasses.replace(config, transcripts=TranscriptSink(staging)))
    assert with_one["results"][0]["examples"] == without["examples"]
    assert with_one["results"][0]["status"] == without["status"] == "fail"


def test_an_in_process_skip_is_transcribed_as_serve_writes_it():
    """The kind of an `Unsupported` is in the transcribed ``skipped`` reply, as in serve's."""
    from conformance import Unsupported
    from conformance._loading import InProcessEngine
    from conformance._protocol import encode, handle

    class Gap:
        def hello(self):
            return {"name": "gap", "version": "1", "rulesets": ["vision"], "protocol": 1}

        def start(self, ruleset, setup):
            raise Unsupported("no decks", kind="engine-gap")

        def act(self, action):
            return {}

        def observe(self):
            return {}

        def close(self):
            pass

    engine = InProcessEngine(Gap, "python:x:Gap")
    engine.transcript = log = Transcript()
    log.begin()
    with pytest.raises(Unsupported):
        engine.start("vision", {})
    transcript = log.end()
    assert transcript is not None
    request = transcript.requests[-1]
    served, _ = handle(Gap(), request)
    assert transcript.replies[-1] == encode(served)


def test_the_printed_replay_command_of_a_python_engine_runs(tmp_path):
    """certify prints a command that replays a `python:` engine's transcript: a real
    one (the factory behind conformance.serve()), not a placeholder, and diff is silent."""
    import os

    cases = write_catalogue(tmp_path / "cases")
    out = tmp_path / "out"
    proc = conformance("certify", "--engine", "python:toy:WrongEngine", "--cases", cases,
                       "--out", out, cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    line = next(x for x in proc.stdout.splitlines() if "| diff -" in x)
    command = line[line.index("python -c "):]
    assert "<" not in command.split(" < ", 1)[0], command   # no <placeholder>
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    replay = subprocess.run(sys.executable + command.removeprefix("python"), shell=True,
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0 and replay.stdout == "", replay.stdout + replay.stderr
