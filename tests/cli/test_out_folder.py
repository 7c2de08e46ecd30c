"""The --out folder (issue 40, item 6): nothing is deleted or written through a
symlink out of it, only the suite's own files are removed, and two runs cannot share it."""

from __future__ import annotations

import fcntl
import os

import pytest
from commands import conformance_in_process as conformance
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


def test_the_lock_file_is_not_named_as_left_behind(tmp_path, cases):
    out = tmp_path / "out"
    certify(cases, out, "python:toy:ToyEngine")
    proc = certify(cases, out, "python:toy:ToyEngine")
    assert proc.returncode == 0 and "not written by this run" not in proc.stdout
    assert os.path.exists(out / ".conformance.lock")
