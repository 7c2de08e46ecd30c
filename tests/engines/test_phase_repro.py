"""The stand-alone phase.rs bug reproductions (docs/engines/phase-repro) reproduce each bug
on the pinned phase-python 0.103.0, and need nothing but phase and the standard library.
Runs only where the extra is installed (pip install '.[phase]')."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("phase")

ROOT = Path(__file__).resolve().parents[2]
REPRO = ROOT / "docs/engines/phase-repro"
SCRIPTS = sorted(REPRO.glob("bug*.py"), key=lambda p: int(p.name.split("_")[0][3:]))  # 9 < 10


def test_there_is_a_script_for_each_phase_bug():
    assert [p.name.split("_")[0] for p in SCRIPTS] == [f"bug{n}" for n in range(1, 11)]


@pytest.mark.parametrize("script", [*SCRIPTS, REPRO / "_board.py"], ids=lambda p: p.name)
def test_a_script_imports_only_phase_and_the_standard_library(script):
    imported = set()
    for node in ast.walk(ast.parse(script.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported - sys.stdlib_module_names <= {"phase", "_board"}


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_the_script_reproduces_its_bug(script):
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    assert lines and lines[-1].startswith("REPRODUCED: "), done.stdout
