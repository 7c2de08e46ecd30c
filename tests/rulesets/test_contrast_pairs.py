"""Every seed rule of every ruleset names its contrast pair.

The section "## Contrast pairs, per rule" of docs/rulesets/<ruleset>.md holds a
table ``| rules | the pair | cases |``: the rules cell names one or more rule ids
(backticked, in full: ``mtg/CR-609.1``), the cases cell the cases that hold the
pair (backticked, without the ruleset prefix: ``cr-609-1/text-in-hand-is-not-an-effect``).
Every seed rule (kind ``rule``, ``qa`` or ``example``) has a row; every case a
row names exists; every rule of a row is tagged (in ``rules:``) on at least one
of the cases its row names, so that the pair is about that rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from conformance._catalogue import Catalogue, load_catalogue

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "cases"
SECTION = "## Contrast pairs, per rule"
SEED_KINDS = {"rule", "qa", "example"}
RULESETS = sorted(p.name for p in CASES.iterdir() if (p / "rules.yaml").is_file())


@dataclass(frozen=True)
class Row:
    line: int
    rules: tuple[str, ...]
    cases: tuple[str, ...]


@cache
def rows(ruleset: str) -> tuple[Row, ...]:
    """The rows of the ruleset's contrast table, in the doc's order."""
    doc = (ROOT / "docs" / "rulesets" / f"{ruleset}.md").read_text("utf-8")
    assert SECTION in doc, f"docs/rulesets/{ruleset}.md has no section {SECTION!r}"
    start = doc.index(SECTION)
    first = doc[:start].count("\n") + 1
    section = re.split(r"\n## ", doc[start + len(SECTION):], maxsplit=1)[0]
    found = []
    for n, line in enumerate(section.splitlines(), start=first):
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("rules", "") or set(cells[0]) <= set("-: "):
            continue
        found.append(Row(n,
                         tuple(re.findall(rf"`({re.escape(ruleset)}/[^`]+)`", cells[0])),
                         tuple(re.findall(r"`([\w.-]+/[\w.-]+)`", cells[2]))))
    assert found, f"the section {SECTION!r} of docs/rulesets/{ruleset}.md has no table rows"
    return tuple(found)


@cache
def catalogue(ruleset: str) -> Catalogue:
    return load_catalogue(CASES, [ruleset])


def index(ruleset: str) -> dict[str, str]:
    """rule id -> kind."""
    return {rule.id: rule.kind for rule in catalogue(ruleset).rules.values()}


def case_rules(ruleset: str) -> dict[str, set[str]]:
    """case id without the ruleset prefix -> the rules it is tagged with."""
    return {case.id.removeprefix(f"{ruleset}/"): set(case.rules)
            for case in catalogue(ruleset).cases}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_row_names_rules_and_cases(ruleset: str) -> None:
    empty = [row.line for row in rows(ruleset) if not row.rules or not row.cases]
    assert not empty, f"docs/rulesets/{ruleset}.md: rows without a rule or a case, lines {empty}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_seed_rule_has_a_row(ruleset: str) -> None:
    named = {rule for row in rows(ruleset) for rule in row.rules}
    seed = {rule for rule, kind in index(ruleset).items() if kind in SEED_KINDS}
    assert not seed - named, f"seed rules with no contrast row: {sorted(seed - named)}"
    unknown = named - set(index(ruleset))
    assert not unknown, f"rows name rules the index does not hold: {sorted(unknown)}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_case_named_exists(ruleset: str) -> None:
    missing = sorted({(row.line, case) for row in rows(ruleset) for case in row.cases
                      if case not in case_rules(ruleset)})
    assert not missing, f"docs/rulesets/{ruleset}.md names cases that do not exist: {missing}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_rule_of_a_row_is_tagged_on_one_of_its_cases(ruleset: str) -> None:
    tags = case_rules(ruleset)
    untagged = [(row.line, rule) for row in rows(ruleset) for rule in row.rules
                if not any(rule in tags.get(case, set()) for case in row.cases)]
    assert not untagged, (f"docs/rulesets/{ruleset}.md: rules no case of their row is tagged "
                          f"with (line, rule): {untagged}")
