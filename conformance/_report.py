"""`Report`: a certification's report.json as a typed object, and its merge.

The report dict is the source of truth (every format is rendered from it); this
type is how a Python caller reads it without knowing its keys: the verdict, the
results as `Result` objects, the rule rows, the mutation score.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

from conformance._results import Result
from conformance._types import EngineInfo, ReportDict, RuleRow


@dataclasses.dataclass(frozen=True)
class Report:
    """One run's report: what ``conformance certify`` writes as report.json."""

    data: ReportDict

    @classmethod
    def read(cls, path: str | Path) -> Report:
        """A report.json, checked against the report schema and against itself
        (`conformance._selfcheck`): a file that cannot be read, is not a report, or
        says what its own results do not give is a `UsageError` in one clear line."""
        from conformance._errors import UsageError
        from conformance._selfcheck import check, load_json
        from conformance.report import InvalidReport, validate_report

        data = load_json(path)
        try:
            validate_report(data)
        except InvalidReport as exc:
            first = exc.errors[0] if exc.errors else str(exc)
            more = f" and {len(exc.errors) - 1} more problem(s)" if len(exc.errors) > 1 else ""
            raise UsageError(f"{path} is not a report.json this version reads ({first}{more}); "
                             "pass the report.json a `conformance certify --out` wrote") from None
        check(data, path)
        return cls(data)

    @classmethod
    def merge(cls, reports: Iterable[Report]) -> Report:
        """The reports of ``--shard`` runs of one engine as one: results are the union,
        and the summary, rule statuses and verdict are computed again from them."""
        from conformance._certify import merge_reports

        return cls(merge_reports([r.data for r in reports]))

    @property
    def status(self) -> str:
        """``pass``, ``partial``, ``fail``, ``error``, ``not certified`` or ``no verdict``."""
        return str(self.data["verdict"]["status"])

    @property
    def exit_code(self) -> int:
        """What ``conformance certify`` exits with for this report (docs/cli.md)."""
        return int(self.data["verdict"]["exit_code"])

    @property
    def passed(self) -> bool:
        """Whether the engine certified: it ran, and followed every seed rule it claims."""
        return self.status == "pass"

    @property
    def complete(self) -> bool:
        """False for a run that was interrupted or stopped early (the report is partial)."""
        return bool(self.data["complete"])

    @property
    def engine(self) -> EngineInfo:
        """The engine's hello, plus the spec that started it."""
        return self.data["engine"]

    @property
    def results(self) -> list[Result]:
        """One result per case and property, in catalogue order."""
        return [Result.from_json(r) for r in self.data["results"]]

    def result(self, item_id: str) -> Result:
        """The result of one case or property; KeyError when it did not run."""
        found = {r["id"]: r for r in self.data["results"]}
        return Result.from_json(found[item_id])

    def _failed(self, counting: bool) -> list[Result]:
        from conformance.report._text import counted

        return [Result.from_json(r) for r in self.data["results"]
                if r["status"] in ("fail", "error") and not r.get("expected_failure")
                and (r["status"] == "error" or counted(self.data, r)) == counting]

    @property
    def failures(self) -> list[Result]:
        """The failures and errors the verdict rests on (known failures aside): what to
        fix.  Those that do not count are `information`."""
        return self._failed(counting=True)

    @property
    def information(self) -> list[Result]:
        """Failures that do not count: items relying on a reading (unless the run used
        ``strict_readings``) and differences from the reference engine."""
        return self._failed(counting=False)

    @property
    def known_failures(self) -> list[Result]:
        """Failures and errors the known-failures file expected."""
        return [Result.from_json(r) for r in self.data["results"]
                if r["status"] in ("fail", "error") and r.get("expected_failure")]

    @property
    def rules(self) -> list[RuleRow]:
        """The rule rows: each rule's status, the items and mutants that cover it."""
        return self.data["rules"]

    @property
    def mutation_score(self) -> float | None:
        """Killed mutants / all mutants; None when the run did no mutation analysis."""
        mutation = self.data["mutation"]
        return None if mutation is None else float(mutation["score"])

    def to_json(self) -> ReportDict:
        """The report dict, as report.json holds it."""
        return self.data

    def write(self, out: str | Path) -> list[Path]:
        """Every format (report.json, report.md, junit.xml, report.html, badge.json) and
        each failed property's counterexample, into ``out``; the files written."""
        from conformance.report import write_counterexamples, write_reports

        folder = Path(out)
        examples: list[Path] = []
        written = write_reports(self.data, folder,   # report.json last, after the rest
                                then=lambda: examples.extend(
                                    write_counterexamples(self.data, folder)))
        return list(written.values()) + examples
