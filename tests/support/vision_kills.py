"""Which Vision mutant is caught by which rule-tagged item, without the differential.

Mutation analysis (``conformance certify --mutation``) counts a mutant as
killed when any item tagged with one of its rules fails, and the differential
property is tagged with every rule.  This module asks the stricter question
issue 9 asks: for each mutant and *each* rule it breaks, does a case or rule
property tagged with that rule fail?  ``python tests/support/vision_kills.py`` prints
the per-rule table (killed/total); ``... certify --mutants [NAME...]`` which item
caught each mutant; tests/rulesets/test_vision_mutant_kills.py asserts it.
``unexplained_reading_kills`` asks the converse for readings (issue 41): which
seed-basis case catches a mutant of a reading without saying it does not rely on it.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from conformance._catalogue import Case, load_catalogue
from conformance._loading import load_engine
from conformance._properties import Property
from conformance._runner import Runner
from conformance._settings import get_profile
from conformance._verdict import basis
from conformance.rulesets.vision.properties import RULE_PROPERTIES

ROOT = Path(__file__).resolve().parents[2]
SEED_KINDS = ("rule", "qa", "example")


def seed_rules() -> list[str]:
    """The Vision rule ids judged on the seed (not informative, reading or context)."""
    catalogue = load_catalogue(ROOT / "cases", ["vision"])
    return [r for r, rule in catalogue.rules.items() if rule.kind in SEED_KINDS]


def killers(mutant: str, profile: str = "certify") -> dict[str, list[str]]:
    """For each rule ``mutant`` breaks, the rule-tagged items that fail against it."""
    import reference_engine

    rules = reference_engine.MUTANTS[mutant].rules
    catalogue = load_catalogue(ROOT / "cases", ["vision"])
    spec = f"reference:{mutant}"
    run = Runner(catalogue, load_engine(spec), spec, get_profile(profile))
    run.handshake()
    found: dict[str, list[str]] = {rule: [] for rule in rules}
    try:
        items: list[Case | Property] = [*[c for c in catalogue.cases if set(c.rules) & set(rules)],
                 *[p for p in RULE_PROPERTIES if set(p.rules) & set(rules)]]
        for item in items:
            result = run.run_case(item) if isinstance(item, Case) else run.run_property(item)
            if result.status == "fail":
                for rule in set(item.rules) & set(rules):
                    found[rule].append(item.id)
    finally:
        run.engine.close()
    return found


def unexplained_reading_kills(rules: Iterable[str], caught_by: Iterable[str],
                              ) -> dict[str, list[str]]:
    """The seed-basis cases of ``caught_by`` (the items that caught a mutant breaking
    ``rules``) that do not list the mutant's readings under `not_relied_on`, each with
    those readings.

    A mutant tagged with a reading breaks what that reading decides.  A seed-basis
    case that catches it either relies on the reading, and must tag it (its verdict
    is then the reading's), or catches it through a seed rule the mutant also breaks,
    and then says so under `not_relied_on`: a person decided it either way."""
    catalogue = load_catalogue(ROOT / "cases", ["vision"])
    readings = [r for r in rules if catalogue.rules.get(r) and
                catalogue.rules[r].kind == "reading"]
    cases = {case.id: case for case in catalogue.cases}
    found: dict[str, list[str]] = {}
    for item in caught_by:
        case = cases.get(item)
        if case is None or basis(case.rules, catalogue.rules) != "seed":
            continue
        missing = [r for r in readings if r not in case.not_relied_on]
        if missing:
            found[item] = missing
    return found


def table(profile: str = "certify") -> dict[str, tuple[int, int]]:
    """Seed rule -> (mutants whose break of it is caught by an item tagged with it, mutants)."""
    import reference_engine

    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for mutant in reference_engine.list_mutants("vision"):
        for rule, items in killers(mutant.name, profile).items():
            counts[rule][0] += bool(items)
            counts[rule][1] += 1
    return {rule: (counts[rule][0], counts[rule][1]) for rule in seed_rules()}


def main(argv: list[str]) -> int:
    import reference_engine

    names = [a for a in argv if not a.startswith("-")]
    profiles = ("quick", "ci", "certify", "deep")
    profile = names.pop(0) if names and names[0] in profiles else "certify"
    if "--mutants" in argv:
        for mutant in reference_engine.list_mutants("vision"):
            if names and mutant.name not in names:
                continue
            for rule, items in killers(mutant.name, profile).items():
                mark = ", ".join(items[:2]) if items else "SURVIVED"
                print(f"{mutant.name:40} {rule:28} {mark}")
        return 0
    for rule, (killed, total) in table(profile).items():
        print(f"{rule:28} {killed}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main([a for a in sys.argv[1:]]))
