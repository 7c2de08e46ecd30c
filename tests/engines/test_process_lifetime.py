"""Nothing an engine starts outlives the run (conformance/_lifetime.py).

tests/fakes/escapes.py leaves a grandchild that leaves the engine's process group
(setsid), is orphaned at once, and writes a file two seconds later: a stand-in
for rewriting report.json after `certify` returned.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from commands import TOY_ENV, fake_engine

from conformance import _lifetime
from conformance._certify import RunConfig, certify
from conformance._runner import Selection
from conformance._settings import get_profile
from conformance._types import ReportDict

# real processes: the slow layer
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="containment beyond the process group is Linux's")]

DELAY = 2.0
SELECTION = Selection(rulesets=["vision"], properties=False,
                      select=["vision/qa-269/x-equals-nodes-paid",
                              "vision/ir-12-3-2/same-name-exact-only"])


def gone(pid: int) -> bool:
    """No such process, not even a zombie waiting to be reaped."""
    return not Path(f"/proc/{pid}").exists()


def run(tmp_path: Path, *args: str, delay: float = DELAY, timeout: float = 5.0
        ) -> tuple[ReportDict, Path, int]:
    file = tmp_path / "report.json"
    config = RunConfig(engine_spec=fake_engine("escapes.py", "--file", str(file),
                                               "--delay", str(delay), *args),
                       profile=get_profile("quick"), selection=SELECTION, timeout=timeout)
    report = certify(config)
    pid = int(Path(f"{file}.pid").read_text())
    return report, file, pid


@pytest.mark.parametrize("args", [[], ["--clear-env"]], ids=["setsid", "setsid-empty-env"])
def test_a_grandchild_that_left_the_group_dies_with_the_run(tmp_path, args):
    report, file, pid = run(tmp_path, *args)
    assert report["summary"]["error"] == 0, report["results"]
    assert gone(pid), "the grandchild outlived certify (or is a zombie nobody reaped)"
    time.sleep(DELAY + 1.0)   # when it would have written
    assert not file.exists(), "the grandchild wrote after the run"


def test_an_engine_that_exits_while_a_grandchild_holds_stdout_has_exited(tmp_path):
    # the grandchild holds stdout longer than the reply timeout: no EOF before it
    delay = 4.0
    report, file, pid = run(tmp_path, "--exit-at", "act", delay=delay, timeout=2.0)
    errors = [r for r in report["results"] if r["status"] == "error"]
    assert errors, report["results"]
    for r in errors:
        assert "EngineCrashed" in r["message"] and "exited with code 0" in r["message"], r
        assert "held its stdout open" in r["message"], r
        assert "flush" not in r["message"], r
    assert gone(pid)
    time.sleep(delay + 1.0)
    assert not file.exists()


def no_new_privs() -> None:
    """Between fork and exec: the harness as a hardened container starts it."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(38, 1, 0, 0, 0)   # PR_SET_NO_NEW_PRIVS


def test_a_harness_with_no_new_privs_still_tells_the_engines_orphans(tmp_path):
    """Under no_new_privs every process has it: an orphan that emptied its environment
    is told by the message-queue limit mark (conformance/_lifetime.py)."""
    file = tmp_path / "report.json"
    engine = fake_engine("escapes.py", "--file", str(file), "--delay", str(DELAY),
                         "--clear-env", "--exit-at", "act")
    harness = subprocess.run([sys.executable, "-m", "conformance", "certify", "--engine",
                              engine, "--ruleset", "vision", "--no-properties",
                              "--select", "vision/qa-269/*", "--profile", "quick", "-q"],
                             env=TOY_ENV, capture_output=True, text=True, timeout=300,
                             preexec_fn=no_new_privs)
    assert harness.returncode == 2, harness.stdout + harness.stderr   # the engine exited
    assert gone(int(Path(f"{file}.pid").read_text())), "the orphan outlived certify"
    time.sleep(DELAY + 1.0)
    assert not file.exists(), "the orphan wrote after the run"


def test_an_interrupted_run_leaves_nothing_behind(tmp_path):
    file = tmp_path / "report.json"
    engine = fake_engine("escapes.py", "--file", str(file), "--delay", str(DELAY),
                         "--slow", "0.5")
    harness = subprocess.Popen([sys.executable, "-m", "conformance", "certify", "--engine",
                                engine, "--ruleset", "vision", "--no-properties",
                                "--profile", "quick", "--out", str(tmp_path / "out"), "-q"],
                               env=TOY_ENV, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    pid_file = Path(f"{file}.pid")
    deadline = time.monotonic() + 30
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline and harness.poll() is None, "no grandchild"
        time.sleep(0.05)
    harness.send_signal(signal.SIGTERM)
    assert harness.wait(30) == 130
    assert gone(int(pid_file.read_text())), "the grandchild outlived the interrupted run"
    time.sleep(DELAY + 1.0)
    assert not file.exists(), "the grandchild wrote after the run"


ORPHAN = ("import os, sys, time\n"
          "if os.fork() == 0:\n"
          "    os.setsid(); print(os.getpid(), flush=True)\n"
          "    os.close(1); os.close(2); time.sleep(60)\n")


def orphan(env: dict[str, str]) -> int:
    """A process whose parent exits at once, so it is handed to us (a subreaper)."""
    parent = subprocess.run([sys.executable, "-c", ORPHAN], env=env, capture_output=True,
                            text=True, timeout=30)
    pid = int(parent.stdout)
    deadline = time.monotonic() + 5
    while _lifetime._parent(pid) != os.getpid():
        assert time.monotonic() < deadline, "the orphan was not handed to the harness"
        time.sleep(0.01)
    return pid


def test_at_exit_the_orphans_engines_left_are_killed_and_no_other_child():
    _lifetime.token()   # this process is now the harness: a subreaper
    left = orphan(_lifetime.engine_env(None))
    other = orphan({k: v for k, v in os.environ.items() if k != _lifetime.MARKER})
    try:
        _lifetime.sweep()   # what atexit runs
        assert gone(left), "an orphan with the engine marker outlived the sweep"
        assert not gone(other), "a child that no engine started was killed"
    finally:
        os.kill(other, signal.SIGKILL)
        os.waitpid(other, 0)
