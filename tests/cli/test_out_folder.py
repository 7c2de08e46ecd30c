"""The --out folder (issue 40, items 6 and 7): nothing is deleted or written through a
symlink out of it, only the suite's own files are removed, two runs cannot share it,
and a second signal while the partial report is written does not lose it."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import sys
import time

import pytest
from commands import TOY_ENV as ENV
from commands import conformance_in_process as conformance
from terminal import Terminal
from toy import write_catalogue

from conformance.report import safe_filename


@pytest.fixture
def cases(tmp_path):
    return write_catalogue(tmp_path / "cases")


def certify(cases, out, engine="python:toy:WrongEngine", *more):
    return conformance("certify", "--engine", engine, "--cases", cases, "-q", "--out", out,
                       *more)


def test_a_symlinked_counterexamples_folder_is_refused_and_its_target_kept(tmp_path, cases):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.yaml").write_text("mine")
    (elsewhere / "precious.requests.jsonl").write_text("mine")
    out = tmp_path / "out"
    out.mkdir()
    (out / "counterexamples").symlink_to(elsewhere)
    proc = certify(cases, out)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert f"{out / 'counterexamples'} is a symlink" in proc.stderr
    assert sorted(p.name for p in elsewhere.iterdir()) == ["precious.requests.jsonl",
                                                          "precious.yaml"]


def test_a_transcript_is_never_written_through_a_symlinked_file(tmp_path, cases):
    target = tmp_path / "target.txt"
    target.write_text("mine")
    out = tmp_path / "out"
    (out / "counterexamples").mkdir(parents=True)
    name = safe_filename("toy/add/two-plus-three", ".requests.jsonl")
    (out / "counterexamples" / name).symlink_to(target)
    proc = certify(cases, out)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "is a symlink" in proc.stderr and name in proc.stderr
    assert target.read_text() == "mine"


def test_a_symlinked_report_file_is_refused_before_the_run(tmp_path, cases):
    target = tmp_path / "target.json"
    target.write_text("mine")
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.json").symlink_to(target)
    proc = certify(cases, out, "python:toy:ToyEngine")
    assert proc.returncode == 4 and f"{out / 'report.json'} is a symlink" in proc.stderr
    assert "passed" not in proc.stdout   # refused before anything ran
    assert target.read_text() == "mine"


def test_only_the_suites_own_files_are_removed_and_the_others_named(tmp_path, cases):
    out = tmp_path / "out"
    folder = out / "counterexamples"
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("mine")
    (folder / "sub").mkdir()
    (folder / "gone__earlier.yaml").write_text("id: x\n")     # an earlier run's
    (folder / "gone__earlier.requests.jsonl").write_text("")
    proc = certify(cases, out)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    left = sorted(p.name for p in folder.iterdir())
    assert "notes.txt" in left and "sub" in left
    assert not [n for n in left if n.startswith("gone__")]
    assert f"also in {folder}, not written by this run (left as it was): notes.txt, sub" \
        in proc.stdout


def test_a_dangling_out_symlink_is_named_as_such(tmp_path, cases):
    out = tmp_path / "out"
    out.symlink_to(tmp_path / "missing")
    proc = certify(cases, out, "python:toy:ToyEngine")
    assert proc.returncode == 4
    assert f"--out {out} is a symlink to {tmp_path / 'missing'}, which does not exist" \
        in proc.stderr


def test_a_second_run_on_one_out_is_refused_naming_the_first(tmp_path, cases):
    out = tmp_path / "out"
    out.mkdir()
    with open(out / ".conformance.lock", "w") as held:
        held.write("4242\n")
        held.flush()
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        proc = certify(cases, out, "python:toy:ToyEngine")
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert f"--out {out} is in use by another conformance run (pid 4242)" in proc.stderr
    assert not (out / "report.json").exists()
    again = certify(cases, out, "python:toy:ToyEngine")   # the lock went with its holder
    assert again.returncode == 0, again.stdout + again.stderr


#: Runs the CLI with the first call of MODULE.NAME paused until the test says so
#: (a file appears), after saying it got there (another file): a deterministic
#: moment "while the partial report is being built" or "being written".
PAUSED = """
import importlib, sys, time
from pathlib import Path
here, go, where = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
module, name = where.split(":")
module = importlib.import_module(module)
real = getattr(module, name)
def paused(*args, **kwargs):
    if not here.exists():
        here.write_text("paused")
        while not go.exists():
            time.sleep(0.01)
    return real(*args, **kwargs)
setattr(module, name, paused)
from conformance._cli import main
sys.exit(main(sys.argv[4:]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("second", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("where", ["conformance.report:_replace",       # writing a file
                                   "conformance._certify:build_report"])  # before that
def test_a_second_signal_while_the_partial_report_is_written_keeps_it(tmp_path, cases, second,
                                                                       where):
    out, here, go = tmp_path / "out", tmp_path / "paused", tmp_path / "go"
    term = Terminal(
        [sys.executable, "-c", PAUSED, str(here), str(go), where, "certify", "--engine",
         "python:toy:SlowEngine", "--cases", str(cases), "--out", str(out)], env=ENV)
    term.wait_for_count("cases", 1)
    term.child.send_signal(signal.SIGINT)
    deadline = time.monotonic() + 60
    while not here.exists():
        assert time.monotonic() < deadline and term.child.poll() is None, "never got there"
        time.sleep(0.01)
    term.child.send_signal(second)   # the second signal, while the report is on its way
    time.sleep(0.3)                  # let the child take it before it goes on
    go.write_text("go")
    code, stdout, stderr = term.finish(timeout=60)
    assert code == 130, stdout + stderr
    report = json.loads((out / "report.json").read_text())
    assert report["complete"] is False and len(report["results"]) == 1
    assert any(p["kind"] == "interrupted" for p in report["problems"])
    assert not list(out.glob(".*.tmp"))


def test_the_lock_file_is_not_named_as_left_behind(tmp_path, cases):
    out = tmp_path / "out"
    certify(cases, out, "python:toy:ToyEngine")
    proc = certify(cases, out, "python:toy:ToyEngine")
    assert proc.returncode == 0 and "not written by this run" not in proc.stdout
    assert os.path.exists(out / ".conformance.lock")
