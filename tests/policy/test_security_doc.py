"""docs/security.md names, for each guarantee, the tests that hold it: each named test
exists, in the file named beside it, so the page cannot point at a test that was
renamed or removed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "security.md"


def _named() -> list[tuple[str, str]]:
    """(test file, test name) for every test the guarantees table names: a cell lists
    `tests/x.py::test_a` or `tests/x.py`: followed by names of tests in that file."""
    named = []
    for line in DOC.read_text("utf-8").splitlines():
        if not line.startswith("| "):
            continue
        current = None
        for token in re.findall(r"`([^`]+)`", line):
            path, _, name = token.partition("::")
            if path.startswith("tests/") and path.endswith(".py"):
                current = path
                if name:
                    named.append((path, name))
            elif token.startswith("test_") and current is not None:
                named.append((current, token.rstrip("*")))
    return named


def test_the_security_page_names_tests_for_every_guarantee():
    assert len(_named()) >= 40


def test_every_test_the_security_page_names_exists():
    missing = []
    for path, name in _named():
        source = (ROOT / path).read_text("utf-8") if (ROOT / path).exists() else ""
        if not re.search(rf"^def {re.escape(name)}", source, re.M):
            missing.append(f"{path}::{name}")
    assert not missing, f"docs/security.md names tests that do not exist: {missing}"
