"""The suite: a loaded catalogue and its properties, every item id in one place.

The CLI, the pytest plugin and mutation analysis all run from one `Suite`, so
they agree on what exists (a known-failures id, a ``--select`` pattern) and the
catalogue is read and validated once however many engines are run against it
(mutation analysis runs one per mutant).
"""

from __future__ import annotations

import dataclasses
import fnmatch
from pathlib import Path

from conformance._catalogue import Catalogue, load_valid_catalogue
from conformance._discovery import properties_for
from conformance._errors import UsageError
from conformance._properties import Property
from conformance._results import Result
from conformance._runner import Selection


@dataclasses.dataclass
class Suite:
    catalogue: Catalogue
    properties: list[Property]

    @classmethod
    def load(cls, root: Path | None, rulesets: list[str] | None) -> Suite:
        """The valid catalogue under ``root`` and its rulesets' properties."""
        catalogue = load_valid_catalogue(root, rulesets)
        return cls(catalogue, [p for rs in catalogue.rulesets for p in properties_for(rs)])

    def ids(self) -> list[str]:
        """Every case and property id, whatever is selected."""
        return [c.id for c in self.catalogue.cases] + [p.id for p in self.properties]

    def in_order(self, results: list[Result]) -> list[Result]:
        """The results in catalogue order (the cases, then the properties), whatever
        order they were run or finished in."""
        position = {item_id: i for i, item_id in enumerate(self.ids())}
        return sorted(results, key=lambda r: position[r.id])

    def property_rules(self, selection: Selection) -> dict[str, list[str]]:
        """Each selected ruleset's property ids and the rules they are tagged with."""
        return {p.id: list(p.rules) for p in self.properties
                if not selection.rulesets or p.ruleset in selection.rulesets}

    def check_filters(self, selection: Selection) -> None:
        """A --select or --rule that matches nothing is a typo, not a green run."""
        for option, patterns, known in (("--select", selection.select, self.ids()),
                                        ("--rule", selection.rules, list(self.catalogue.rules))):
            for pattern in patterns:
                if not any(fnmatch.fnmatchcase(i, pattern) for i in known):
                    what = "case or property id" if option == "--select" else "rule id"
                    raise UsageError(
                        f"{option} {pattern!r} matches no {what}; `conformance rules` lists "
                        "the rule ids, and ids are globs (e.g. 'vision/qa-269/*')")
