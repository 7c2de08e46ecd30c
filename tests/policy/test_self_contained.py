"""The project stands alone: no file names a path outside it.

Users get this repository (or the wheel), never the team's notes beside it, so
docs, docstrings and cases cite the project's own rule index instead.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# spelled in pieces so this file does not match itself
OUTSIDE = ("../" + "shared", "shared/" + "seeds", "seeds/" + "README")
TEXT = {".py", ".md", ".yaml", ".yml", ".json", ".toml", ".ini", ".js", ".txt", ""}


def test_no_file_names_a_path_outside_the_project():
    offenders = []
    for folder in ("conformance", "reference_engine", "cases", "docs", "tests", "benchmarks",
                   ".ci"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in TEXT and "__pycache__" not in path.parts:
                text = path.read_text("utf-8", errors="replace")
                offenders += [f"{path.relative_to(ROOT)}: {word}" for word in OUTSIDE
                              if word in text]
    for name in ("README.md", "pyproject.toml", "tox.ini"):
        text = (ROOT / name).read_text("utf-8")
        offenders += [f"{name}: {word}" for word in OUTSIDE if word in text]
    assert not offenders, offenders
