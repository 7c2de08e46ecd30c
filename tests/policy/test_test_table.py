"""tests/README.md maps each module to the tests that test it: every module of
conformance/ and reference_engine/ is named there (itself or its package folder),
and every test file the table names exists, so the map stays true as modules and
tests come and go."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"


def _table() -> list[tuple[set[str], str]]:
    """The rows of the modules table: the paths in backticks, and the tests cell."""
    text = (TESTS / "README.md").read_text(encoding="utf-8")
    section = text.split("## Modules and their tests", 1)[1]
    return [(set(re.findall(r"`([^`]+)`", line.split("|")[1])), line.split("|")[2])
            for line in section.splitlines() if line.startswith("| `")]


def test_every_module_is_named_in_the_table() -> None:
    named = set().union(*(paths for paths, _ in _table()))
    missing = []
    for package in ("conformance", "reference_engine"):
        for module in sorted((ROOT / package).rglob("*.py")):
            path = module.relative_to(ROOT)
            folders = {f"{parent.as_posix()}/" for parent in path.parents}
            if path.as_posix() not in named and not folders & named:
                missing.append(path.as_posix())
    assert not missing, f"add these to the modules table of tests/README.md: {missing}"


def test_every_test_file_the_table_names_exists() -> None:
    named = {name for _, cell in _table()
             for name in re.findall(r"[\w/]*test_\w+\.py", cell)}
    assert named
    gone = sorted(name for name in named
                  if not (TESTS / name).exists() and not list(TESTS.glob(f"*/{name}")))
    assert not gone, f"tests/README.md names test files that do not exist: {gone}"
