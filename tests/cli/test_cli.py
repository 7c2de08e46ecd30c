"""The command line end to end, on the toy catalogue.

Most tests call `main([...])` in-process, capturing what a user would see
(fast layer); those that need signals or real processes start a child
process like a user's shell and are marked slow.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from commands import FAKES
from commands import TOY_ENV as ENV
from commands import conformance_in_process as conformance
from terminal import Terminal
from toy import write_catalogue


@pytest.fixture
def cases(tmp_path):
    return write_catalogue(tmp_path / "cases")


def test_certify_writes_all_five_reports_and_exits_zero(tmp_path, cases):
    out = tmp_path / "out"
    proc = conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases,
                       "--out", out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name in ("report.json", "report.md", "junit.xml", "report.html", "badge.json"):
        assert (out / name).is_file(), name
    report = json.loads((out / "report.json").read_text())
    assert report["complete"] is True and report["summary"]["pass"] == 2
    assert "2 passed, 0 failed" in proc.stdout


def test_failure_names_case_rule_and_rerun_command(tmp_path, cases):
    proc = conformance("certify", "--engine", "python:toy:WrongEngine", "--cases", cases)
    assert proc.returncode == 1
    assert "FAIL: toy/add/two-plus-three  [rules: toy/R-1]" in proc.stdout
    rerun = next(line for line in proc.stdout.splitlines() if "rerun:" in line)
    command = rerun.split("rerun: ", 1)[1]
    assert command.startswith("conformance run --engine python:toy:WrongEngine --select "
                              "toy/add/two-plus-three --cases ")
    # the printed command really reruns just that case
    import shlex

    again = conformance(*shlex.split(command)[1:])
    assert again.returncode == 1 and "0 passed, 1 failed" in again.stdout


def test_engine_errors_only_exit_two(cases):
    proc = conformance("run", "--engine", "python:toy:RaisingEngine", "--cases", cases)
    assert proc.returncode == 2, proc.stdout


def test_invalid_catalogue_refuses_to_run(cases):
    (cases / "toy" / "bad.yaml").write_text("id: [\n")
    proc = conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases)
    assert proc.returncode == 3
    assert "bad.yaml:" in proc.stderr and "refusing to run" in proc.stderr


def test_usage_error_exit_four(cases):
    proc = conformance("certify", "--engine", "bogus:thing", "--cases", cases)
    assert proc.returncode == 4 and "unknown kind 'bogus'" in proc.stderr


@pytest.mark.parametrize("option", ["--select", "--rule"])
def test_a_filter_matching_nothing_is_a_usage_error_not_a_green_run(cases, option):
    proc = conformance("run", "--engine", "python:toy:ToyEngine", "--cases", cases,
                       option, "toy/typo*")
    assert proc.returncode == 4 and "matches no" in proc.stderr


def test_validate_lists_uncovered_rules(cases):
    proc = conformance("validate", "--cases", cases)
    assert proc.returncode == 0
    assert "rule toy/R-3 is covered by no case" in proc.stdout
    assert conformance("validate", "--strict", "--cases", cases).returncode == 3


def test_report_rerender_rules_and_failures(tmp_path, cases):
    out = tmp_path / "out"
    conformance("certify", "--engine", "python:toy:WrongEngine", "--cases", cases, "--out", out)
    md = conformance("report", out / "report.json", "--format", "md")
    assert md.returncode == 0 and "toy/add/two-plus-three" in md.stdout
    rules = conformance("rules", "--report", out / "report.json")
    assert "toy/R-1" in rules.stdout and "fail" in rules.stdout
    failures = conformance("failures", out / "report.json")
    assert re.search(r"^toy/add/two-plus-three  #! [0-9a-f]{8}  # fail", failures.stdout, re.M)
    listed = tmp_path / "known.txt"
    listed.write_text(failures.stdout)
    proc = conformance("run", "--engine", "python:toy:WrongEngine", "--cases", cases,
                       "--known-failures", listed)
    assert proc.returncode == 0, proc.stdout


@pytest.mark.slow
def test_sigterm_writes_partial_report_and_exits_130(tmp_path, cases):
    out = tmp_path / "out"
    term = Terminal(
        [sys.executable, "-m", "conformance", "certify", "--engine", "python:toy:SlowEngine",
         "--cases", str(cases), "--out", str(out)], env=ENV)
    term.wait_for_count("cases", 1)  # the first case is done, the second is in progress
    term.child.send_signal(signal.SIGTERM)
    code, stdout, stderr = term.finish(timeout=30)
    assert code == 130, stdout + stderr
    report = json.loads((out / "report.json").read_text())
    assert report["complete"] is False
    assert len(report["results"]) == 1
    assert any(p["kind"] == "interrupted" for p in report["problems"])
    assert not list(out.glob(".*.tmp"))


def test_diff_between_two_runs(tmp_path, cases):
    conformance("certify", "--engine", "python:toy:ToyEngine", "--cases", cases,
                "--out", tmp_path / "good")
    conformance("certify", "--engine", "python:toy:WrongEngine", "--cases", cases,
                "--out", tmp_path / "bad")
    worse = conformance("diff", tmp_path / "good" / "report.json", tmp_path / "bad" / "report.json")
    assert worse.returncode == 1
    assert "regressed: toy/add/two-plus-three (pass -> fail)" in worse.stdout
    assert "rule toy/R-1: pass -> fail" in worse.stdout
    better = conformance("diff", tmp_path / "bad" / "report.json",
                         tmp_path / "good" / "report.json")
    assert better.returncode == 0
    assert "fixed: toy/add/two-plus-three (fail -> pass)" in better.stdout


def _processes_mentioning(marker: str) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if marker in (proc / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(proc.name))
            except OSError:
                continue
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the engine")
def test_sigint_stops_a_subprocess_engine_and_keeps_results(tmp_path):
    marker = str(tmp_path / "hang-engine.log")
    engine = "cmd:" + " ".join([sys.executable, str(FAKES / "hang.py"),
                                "--after", "2", "--log", marker])
    out = tmp_path / "out"
    term = Terminal(
        [sys.executable, "-m", "conformance", "certify", "--engine", engine, "--timeout", "60",
         "--select", "vision/qa-269/*", "--select", "vision/ir-12-3-2/*", "--no-properties",
         "--out", str(out)], env=ENV)
    term.wait_for_count("cases", 2)  # two cases done; the engine now hangs on the third
    assert _processes_mentioning(marker)
    term.child.send_signal(signal.SIGINT)
    code, stdout, stderr = term.finish(timeout=30)
    assert code == 130, stdout + stderr
    report = json.loads((out / "report.json").read_text())
    assert report["complete"] is False
    # the echo engine plays no real Vision: its two finished cases fail, and are kept
    assert [r["status"] for r in report["results"]] == ["fail", "fail"]
    time.sleep(0.5)
    assert _processes_mentioning(marker) == [], "the engine outlived the harness"


@pytest.mark.slow
@pytest.mark.parametrize(("code", "says"), [
    ("import sys\nsys.exit(0)", "called sys.exit(0)"),
    ("raise RuntimeError('no\\n::error::forged')", "raised RuntimeError: no\\n::error::forged"),
])
def test_a_python_engine_module_that_exits_at_import_is_exit_4(tmp_path, cases, code, says):
    """An engine's sys.exit(0) while it is imported once ended certify with exit 0 and no
    output: a green run that ran nothing."""
    (tmp_path / "exits_engine.py").write_text(code + "\ndef create(): pass\n", "utf-8")
    run = subprocess.run([sys.executable, "-m", "conformance", "certify", "--engine",
                          "python:exits_engine:create", "--cases", str(cases), "-q"],
                         capture_output=True, text=True, env=ENV, cwd=tmp_path, timeout=300)
    assert run.returncode == 4, run.stdout + run.stderr
    assert "importing 'exits_engine'" in run.stderr and says in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.slow
@pytest.mark.parametrize("how", ["api", "list", "plugin"])
def test_no_hypothesis_folder_is_written_into_the_working_folder(tmp_path, how):
    """docs/cli.md ("Profiles"): Hypothesis's files go to the suite's cache (or a
    temporary folder when there is none), never into the folder a run starts in:
    from Python, with --list and under the pytest plugin as from certify."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_STORAGE_DIRECTORY"}
    env["CONFORMANCE_CACHE"] = "" if how == "plugin" else str(tmp_path / "cache")
    argv = {"api": ["-c", "import conformance; conformance.certify('reference', "
                    "rulesets=['zatch'], profile='quick')"],
            "list": ["-m", "conformance", "run", "--list", "--ruleset", "zatch"],
            "plugin": ["-m", "pytest", "-p", "no:cacheprovider", "-q", "--engine", "reference",
                       "--conformance-ruleset", "zatch", "--conformance-profile", "quick"]}[how]
    work = tmp_path / "work"
    work.mkdir()
    ran = subprocess.run([sys.executable, *argv], cwd=work, env=env, capture_output=True,
                         text=True)
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    assert not (work / ".hypothesis").exists()


def test_help_lists_init_and_doctor_first(capsys):
    """A newcomer's first two steps (write an adapter, check it) head the list."""
    from conformance._cli import main

    with pytest.raises(SystemExit):
        main(["--help"])
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()
              if line.startswith("    ") and not line.startswith("     ")]
    assert listed[:3] == ["init", "doctor", "certify"], listed


@pytest.mark.parametrize(("ci", "profile"), [("true", "ci"), (None, "certify")])
def test_the_default_profile_follows_ci(monkeypatch, ci, profile):
    """docs/cli.md: `ci` under CI, `certify` elsewhere (the tests themselves never see
    CI: tests/conftest.py)."""
    from conformance._settings import get_profile

    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    assert get_profile().name == profile
