"""Every rule of the Vision index names its contrast pair (issue 30): the table
"Contrast pairs, rule by rule" of cases/vision/README.md has a row per rule, and
every case it names exists."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

VISION = Path(__file__).resolve().parent.parent / "cases" / "vision"


def contrast_rows() -> dict[str, list[str]]:
    """rule id -> the case ids its row names (without the ``vision/`` prefix)."""
    readme = (VISION / "README.md").read_text("utf-8")
    table = readme.split("## Contrast pairs, rule by rule", 1)[1]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`vision/"):
            rows[cells[0].strip("`")] = re.findall(r"`([\w.-]+/[\w.-]+)`", cells[2])
    return rows


def test_every_rule_has_a_contrast_row() -> None:
    rules = {r["id"] for r in yaml.safe_load((VISION / "rules.yaml").read_text("utf-8"))["rules"]}
    rows = contrast_rows()
    assert set(rows) == rules
    assert all(rows.values()), [rule for rule, cases in rows.items() if not cases]


def test_every_case_named_exists() -> None:
    ids = {yaml.safe_load(p.read_text("utf-8"))["id"] for p in VISION.glob("*.yaml")
           if p.name != "rules.yaml"}
    missing = {case for cases in contrast_rows().values() for case in cases
               if f"vision/{case}" not in ids}
    assert not missing
