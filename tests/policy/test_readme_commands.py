"""The README's commands for an engine author work as written, from the author's own folder."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text("utf-8")
BIN = Path(sys.executable).parent

ADAPTER = '''\
from conformance import Unsupported


class Adapter:
    def hello(self):
        return {"name": "my-engine", "version": "1.2.0", "rulesets": ["vision"],
                "capabilities": {}}

    def start(self, ruleset, setup):
        raise Unsupported("setups not mapped yet")

    def act(self, action):
        raise Unsupported("actions not mapped yet")

    def observe(self):
        raise Unsupported("observations not mapped yet")

    def close(self):
        pass


def create():
    return Adapter()
'''


def readme_line(starts: str) -> list[str]:
    """The README's command line that starts with ``starts``, as argv."""
    found = [line for line in re.findall(r"^(\S.*)$", README, re.MULTILINE)
             if line.startswith(starts)]
    assert found, f"the README has no line starting {starts!r}"
    return shlex.split(found[0])


def test_the_readme_pytest_line_finds_the_adapter_in_the_current_folder(tmp_path):
    """`pytest -p conformance --engine python:myengine_adapter:create`, run from the
    adapter's folder with the ``pytest`` script (not ``python -m pytest``)."""
    argv = readme_line("pytest -p conformance --engine python:myengine_adapter:create")
    (tmp_path / "myengine_adapter.py").write_text(ADAPTER, "utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([str(BIN / argv[0]), *argv[1:], "-q", "-p", "no:cacheprovider"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    out = done.stdout + done.stderr
    assert "cannot import" not in out, out
    # every case skipped: an honest "no verdict", not an import error (exit 4)
    assert done.returncode == 5, out
    assert "unsupported: setups not mapped yet" in out, out
