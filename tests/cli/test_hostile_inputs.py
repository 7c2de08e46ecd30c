"""Hostile inputs outside the engine's replies (docs/security.md): a lock file, a
report path or a report's contents chosen by someone else end in one line and a
documented exit code, never a traceback, a hang or a forged line in the CI log."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest
from commands import TOY_ENV, conformance_child, fake_engine
from commands import conformance_in_process as conformance
from toy import write_catalogue

from conformance import _lifetime
from conformance._cli import main


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    return write_catalogue(tmp_path_factory.mktemp("hostile") / "cases")


@pytest.fixture(scope="module")
def wrong(tmp_path_factory, cases) -> dict:
    """A real report of an engine that fails."""
    out = tmp_path_factory.mktemp("wrong") / "out"
    assert main(["certify", "--engine", "python:toy:WrongEngine", "--cases", str(cases),
                 "-q", "--out", str(out)]) == 1
    report: dict = json.loads((out / "report.json").read_text("utf-8"))
    return report


def write(path: Path, report: dict) -> Path:
    path.write_text(json.dumps(report), "utf-8")
    return path


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_lock_that_is_not_a_regular_file_is_exit_4_in_one_line(tmp_path, cases, kind):
    out = tmp_path / "out"
    out.mkdir()
    lock = out / ".conformance.lock"
    lock.mkdir() if kind == "folder" else os.mkfifo(lock)
    ran = conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases, "-q",
                      "--out", out)
    assert ran.returncode == 4, ran.stdout + ran.stderr
    assert f"cannot take the lock {lock}" in ran.stderr
    assert "Traceback" not in ran.stderr and len(ran.stderr.splitlines()) == 1
    assert not (out / "report.json").exists()


@pytest.mark.parametrize("command", ["report", "failures", "diff", "merge", "compare"])
@pytest.mark.parametrize("kind", ["fifo", "device", "huge"])
def test_a_report_that_is_not_a_bounded_regular_file_is_exit_4(tmp_path, command, kind,
                                                                monkeypatch):
    from conformance import _files

    path = tmp_path / "report.json"
    if kind == "fifo":
        os.mkfifo(path)   # reading it would wait for a writer forever
    elif kind == "device":
        path = Path("/dev/zero")   # never ends
    else:
        monkeypatch.setattr(_files, "MAX_REPORT_BYTES", 1000)
        path.write_text(" " * 1001 + "{}")
    args = {"report": ["report", path, "--format", "json"], "failures": ["failures", path],
            "diff": ["diff", path, path], "merge": ["merge", path, "--out", tmp_path / "m"],
            "compare": ["compare", path, "--out", tmp_path / "c"]}[command]
    ran = conformance(*args)
    assert ran.returncode == 4, ran.stdout + ran.stderr
    assert f"cannot read report {path}" in ran.stderr
    assert ("not a regular file" if kind != "huge" else "more than the") in ran.stderr


def test_last_failed_does_not_read_a_previous_report_that_is_a_fifo(tmp_path, cases):
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "report.json")
    ran = conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases, "-q",
                      "--out", out, "--last-failed")
    assert "--last-failed: cannot read the previous report" in ran.stderr
    assert "not a regular file" in ran.stderr


@pytest.mark.parametrize("number", [10**4000, 2**64, "1e400"])
@pytest.mark.parametrize("command", ["report-junit", "merge", "diff", "failures"])
def test_a_number_no_report_holds_is_exit_4_naming_the_field(tmp_path, wrong, number,
                                                              command):
    big = copy.deepcopy(wrong)
    big["results"][0]["duration"] = "###"
    path = tmp_path / "report.json"
    path.write_text(json.dumps(big).replace('"###"', str(number)), "utf-8")
    args = {"report-junit": ["report", path, "--format", "junit"],
            "merge": ["merge", path, "--out", tmp_path / "m"],
            "diff": ["diff", path, path], "failures": ["failures", path]}[command]
    ran = conformance(*args)
    assert ran.returncode == 4, ran.stdout + ran.stderr
    assert "results[0].duration is a number beyond what a report holds" in ran.stderr
    assert not (tmp_path / "m" / "report.json").exists()


def test_a_reply_holding_a_lone_surrogate_is_a_protocol_violation(tmp_path):
    out = tmp_path / "out"
    ran = conformance_child("certify", "--engine", fake_engine("surrogate.py"), "--ruleset",
                            "vision", "--profile", "quick", "--select", "vision/qa-269*",
                            "-q", "--out", out)
    assert ran.returncode == 2, ran.stdout + ran.stderr
    assert "lone surrogate" in ran.stdout and "Traceback" not in ran.stderr
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert "\ud800" not in json.dumps(report, ensure_ascii=False)
    for args in (["failures", out / "report.json"],
                 ["compare", out / "report.json", "--out", tmp_path / "cmp"]):
        again = conformance_child(*args)
        assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr


def test_failures_and_compare_show_a_lone_surrogate_a_report_holds(tmp_path, wrong):
    held = copy.deepcopy(wrong)
    failing = next(r for r in held["results"] if r["status"] == "fail")
    failing["message"] = "boom \ud800"   # written as the escape "\ud800": valid JSON
    held["engine"]["name"] = "s\ud800"
    path = write(tmp_path / "report.json", held)
    ran = conformance_child("failures", path)
    assert ran.returncode == 0 and "Traceback" not in ran.stderr, ran.stderr
    assert "boom \\ud800" in ran.stdout
    ran = conformance_child("compare", path, "--out", tmp_path / "cmp")
    assert ran.returncode == 0 and "Traceback" not in ran.stderr, ran.stderr
    assert "\\ud800" in (tmp_path / "cmp" / "compare.md").read_text("utf-8")


#: Text a forger puts in a report: lines of its own, workflow commands, a verdict.
FORGE = "\n::error::FORGED\nFORGED verdict: pass ##[error]"


def forged_lines(text: str, posing: bool = True) -> list[str]:
    """Lines a CI runner would run as a workflow command, or (``posing``) that pose as
    the suite's own lines."""
    return [line for line in text.splitlines()
            if line.lstrip().startswith("::") or "##[" in line
            or (posing and line.startswith("FORGED"))]


@pytest.fixture(scope="module")
def forged(wrong) -> dict:
    """``wrong`` with hostile text in an item id, the engine name, a rule's title,
    locations and rerun lines, and otherwise consistent: every reading command accepts it."""
    failing = next(r for r in wrong["results"] if r["status"] == "fail")
    text = json.dumps(wrong).replace(json.dumps(failing["id"]),
                                     json.dumps(failing["id"] + FORGE))
    report: dict = json.loads(text)
    report["engine"]["name"] = "e" + FORGE
    report["rules"][0]["title"] += FORGE
    for r in report["results"]:
        r["location"], r["rerun"] = "l" + FORGE, "r" + FORGE
    return report


@pytest.mark.parametrize("name", ["diff", "merge", "gate", "rules", "report md",
                                  "last-failed"])
def test_no_command_prints_a_forged_line_from_a_report(tmp_path, wrong, forged, cases, name):
    old, new = write(tmp_path / "old.json", wrong), write(tmp_path / "new.json", forged)
    lf = tmp_path / "lf"
    lf.mkdir()
    write(lf / "report.json", forged)
    runs = {
        "diff": ["diff", old, new],
        "merge": ["merge", new, "--out", tmp_path / "m"],
        "gate": ["gate", old, new, "--format", "text"],
        "rules": ["rules", "--report", new, "--cases", cases],
        "report md": ["report", new, "--format", "md"],
        "last-failed": ["certify", "--engine", "python:toy:ToyEngine", "--cases", cases,
                        "-q", "--out", lf, "--last-failed"],
    }
    ran = conformance(*runs[name])
    assert "FORGED" in ran.stdout + ran.stderr, ran.stdout + ran.stderr
    # a whole Markdown report holds the text's lines: none may run as a command
    posing = name != "report md"
    assert forged_lines(ran.stdout + "\n" + ran.stderr, posing) == []


def test_an_error_quoting_a_report_prints_no_forged_line(tmp_path, wrong):
    bad = copy.deepcopy(wrong)
    bad["verdict"]["message"] = "m\n::error::FORGED ##[error]"   # refused: not what it gives
    ran = conformance("diff", write(tmp_path / "old.json", wrong),
                      write(tmp_path / "bad.json", bad))
    assert ran.returncode == 4 and "FORGED" in ran.stderr, ran.stderr
    assert forged_lines(ran.stderr) == []


@pytest.mark.parametrize("name", ["SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM"])
def test_a_signal_from_the_engine_stops_the_run_with_a_partial_report(tmp_path, name):
    out = tmp_path / "out"
    ran = conformance_child("certify", "--engine", fake_engine("signal_parent.py"),
                            "--ruleset", "vision", "--profile", "quick", "--select",
                            "vision/qa-269*", "-q", "--out", out,
                            env={**TOY_ENV, "SIGS": name})
    assert ran.returncode == 130, ran.stdout + ran.stderr
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert report["complete"] is False
    assert any(p["kind"] == "interrupted" for p in report["problems"])


@pytest.mark.skipif(_lifetime.dumpable() is None, reason="Linux prctl only")
def test_the_harness_is_not_dumpable_while_engines_run(tmp_path, cases, monkeypatch):
    from conformance import _cli

    seen: list[bool | None] = []
    announce = _cli._announce

    def noting(catalogue: object) -> None:   # called as the run starts
        seen.append(_lifetime.dumpable())
        announce(catalogue)   # type: ignore[arg-type]

    monkeypatch.setattr(_cli, "_announce", noting)
    before = _lifetime.dumpable()
    ran = conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases, "-q")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert seen == [False]   # PR_GET_DUMPABLE is 0 during the run
    assert _lifetime.dumpable() == before   # and as it was for an in-process caller


@pytest.mark.skipif(_lifetime.dumpable() is None, reason="Linux prctl only")
@pytest.mark.skipif(os.geteuid() == 0, reason="root (CAP_SYS_PTRACE) opens any /proc/PID/fd")
def test_an_engine_cannot_write_into_the_harness_stdout_through_proc():
    ran = conformance_child("certify", "--engine", fake_engine("proc_fd.py"), "--ruleset",
                            "vision", "--profile", "quick", "--select", "vision/qa-269*")
    assert "FORGED" not in ran.stdout, ran.stdout


def test_a_markdown_report_on_stdout_prints_no_line_posing_as_the_verdict(tmp_path, wrong):
    """report.md quotes an engine's stderr in a code block, where a line of its own starts
    at column 0: printed to a CI log, ``verdict: pass`` would read as the suite's."""
    posing = copy.deepcopy(wrong)
    failing = next(r for r in posing["results"] if r["status"] == "fail")
    failing["stderr"] = "boom\nverdict: pass (exit 0): forged\nseed rules passed: 9/9\n"
    ran = conformance("report", write(tmp_path / "report.json", posing), "--format", "md")
    assert ran.returncode == 0, ran.stderr
    assert "verdict: pass (exit 0): forged" in ran.stdout   # still shown, marked as quoted
    assert [line for line in ran.stdout.splitlines()
            if line.startswith(("verdict:", "seed rules passed:"))] == []
