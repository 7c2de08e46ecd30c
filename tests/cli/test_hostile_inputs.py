"""Hostile inputs outside the engine's replies (docs/security.md): a lock file, a
report path or a report's contents chosen by someone else end in one line and a
documented exit code, never a traceback, a hang or a forged line in the CI log."""

from __future__ import annotations

import copy
import json
import os
import sys
from pathlib import Path

import pytest
from commands import conformance_in_process as conformance
from toy import write_catalogue

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
