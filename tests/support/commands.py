"""Running ``conformance`` as the tests do, and naming the fake engines.

Two ways to run the command line, kept apart because they test different things:

- `conformance_in_process` calls ``conformance._cli.main`` in this process and
  gives back what a child process would (exit status, stdout, stderr): fast, for
  whatever does not need signals, a real exit or a fresh interpreter;
- `conformance_child` runs ``python -m conformance`` as a user's shell does.

Both find ``python:toy:...`` (tests/support/toy.py) as an engine: the child
through `TOY_ENV` (PYTHONPATH), this process through pytest's ``pythonpath``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

from conformance._cli import main

SUPPORT = Path(__file__).resolve().parent
ROOT = SUPPORT.parents[1]
#: The misbehaving and special-purpose engines (tests/fakes/README.md).
FAKES = ROOT / "tests" / "fakes"
#: The environment of a child process that imports the toy engines.
TOY_ENV = {**os.environ, "PYTHONPATH": str(SUPPORT)}


@dataclasses.dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def conformance_in_process(*args: object, cwd: Path | None = None) -> Ran:
    """``conformance ARGS`` in-process: exit status and output, as a child process gives them."""
    stdout, stderr = io.StringIO(), io.StringIO()
    sigterm = signal.getsignal(signal.SIGTERM)  # main() installs its own handler
    here = Path.cwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                code = main([str(a) for a in args])
            except SystemExit as exc:  # argparse exits on bad usage
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(here)
        signal.signal(signal.SIGTERM, sigterm)
    return Ran(code, stdout.getvalue(), stderr.getvalue())


def conformance_child(*args: object, cwd: Path | None = None, env: dict | None = None,
                      ) -> subprocess.CompletedProcess[str]:
    """``python -m conformance ARGS`` in a child process (environment: `TOY_ENV` unless given)."""
    return subprocess.run([sys.executable, "-m", "conformance", *map(str, args)],
                          capture_output=True, text=True, env=env or TOY_ENV, cwd=cwd,
                          timeout=300)


def fake_engine(script: str, *args: str) -> str:
    """The ``cmd:`` spec that runs tests/fakes/SCRIPT with ARGS."""
    return "cmd:" + shlex.join([sys.executable, str(FAKES / script), *args])
