"""pytest plugin: ``pytest --engine SPEC`` runs the catalogue as pytest items.

Registered through the ``pytest11`` entry point.  It costs nothing unless
``--engine`` is given: options are registered, everything else is imported
lazily.  Each case and property becomes one item whose node id ends in its
stable id; the items are run by the same `Runner` the CLI uses, on one engine
for the whole session.
"""

from __future__ import annotations

import datetime
import time
from typing import Any

import pytest

OPT_ENGINE = "--engine"
OPT_CASES = "--conformance-cases"
OPT_PROFILE = "--conformance-profile"
OPT_RULESET = "--conformance-ruleset"
OPT_KNOWN = "--conformance-known-failures"
OPT_REPORT = "--conformance-report"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "card-game rules conformance")
    group.addoption(OPT_ENGINE, default=None, metavar="SPEC",
                    help="certify this engine: reference | python:pkg.mod:factory | cmd:<command>")
    group.addoption(OPT_CASES, default=None, metavar="DIR", help="catalogue folder")
    group.addoption(OPT_PROFILE, default=None, metavar="NAME",
                    help="quick | ci | certify | deep (default: ci when CI is set)")
    group.addoption(OPT_RULESET, action="append", default=None, metavar="NAME",
                    help="only this ruleset (repeatable)")
    group.addoption(OPT_KNOWN, default=None, metavar="FILE",
                    help="ids expected to fail: run as strict xfail")
    group.addoption(OPT_REPORT, default=None, metavar="DIR",
                    help="also write report.json, report.md, junit.xml, report.html and "
                         "badge.json for the conformance items that ran")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption(OPT_ENGINE):
        config.pluginmanager.register(_Conformance(config), "conformance-session")


class _Conformance:
    """Session state, created only when --engine is given."""

    def __init__(self, config: pytest.Config) -> None:
        from pathlib import Path

        from conformance._certify import load_valid_catalogue
        from conformance._errors import InvalidCatalogue
        from conformance._knownfail import KnownFailures
        from conformance._settings import get_profile

        self.spec = config.getoption(OPT_ENGINE)
        cases = config.getoption(OPT_CASES)
        try:
            self.catalogue = load_valid_catalogue(Path(cases) if cases else None,
                                                  config.getoption(OPT_RULESET))
        except InvalidCatalogue as exc:
            raise pytest.UsageError(str(exc)) from None
        self.profile = get_profile(config.getoption(OPT_PROFILE))
        known = config.getoption(OPT_KNOWN)
        self.known = KnownFailures.read(known) if known else None
        self.report_dir = config.getoption(OPT_REPORT)
        self.rulesets = config.getoption(OPT_RULESET)
        self.results: list[Any] = []
        self._runner: Any = None
        self._began = time.perf_counter()
        self._started = datetime.datetime.now(datetime.UTC)

    @property
    def runner(self) -> Any:
        if self._runner is None:
            from conformance._loading import load_engine
            from conformance._runner import Runner, Selection

            engine = load_engine(self.spec, timeout=self.profile.timeout)
            self._runner = Runner(self.catalogue, engine, self.spec, self.profile,
                                  Selection(), reference=lambda: load_engine("reference"))
            self._runner.handshake()
        return self._runner

    # tryfirst: the items must exist before -k / -m deselection runs over them
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        from conformance._errors import UsageError
        from conformance._properties import properties_for

        try:
            self.runner  # noqa: B018 - start the engine now: a bad --engine is a usage error
        except UsageError as exc:
            raise pytest.UsageError(str(exc)) from None
        collector = _Catalogue.from_parent(session, name="conformance")
        new: list[pytest.Item] = []
        for case in self.catalogue.cases:
            new.append(_ConformanceItem.from_parent(collector, name=case.id, target=case,
                                                    state=self))
        for ruleset in self.catalogue.rulesets:
            for prop in properties_for(ruleset):
                new.append(_ConformanceItem.from_parent(collector, name=prop.id, target=prop,
                                                        state=self))
        for item in new:
            if self.known is not None and self.known.matches(item.name):
                item.add_marker(pytest.mark.xfail(reason=f"listed in {self.known.path}",
                                                  strict=True))
        items.extend(new)

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self._runner is None:
            return
        self._runner.engine.close()
        if self.report_dir:
            self._write_report(interrupted=exitstatus == pytest.ExitCode.INTERRUPTED)

    def _write_report(self, interrupted: bool) -> None:
        """The same report files `conformance certify --out` writes, for the items run."""
        from pathlib import Path

        from conformance._certify import RunConfig, build_report
        from conformance._runner import Selection
        from conformance.report import write_counterexamples, write_reports

        config = RunConfig(engine_spec=self.spec, profile=self.profile,
                           selection=Selection(rulesets=self.rulesets),
                           known_failures=self.known.path if self.known else None)
        problems = list(self._runner.problems)
        if self.known is not None:
            ids = [c.id for c in self.catalogue.cases]
            ids += [p.id for p in self._runner.properties()]
            problems += self.known.review(self.results, ids)
        if interrupted:
            problems.append({"kind": "interrupted", "message": "pytest was interrupted"})
        report = build_report(
            catalogue=self.catalogue, config=config, engine_info=self._runner.engine_info,
            results=self.results, problems=problems, complete=not interrupted,
            started=self._started, duration=time.perf_counter() - self._began, mutation=None,
            property_rules={p.id: list(p.rules) for p in self._runner.properties()})
        out = Path(self.report_dir)
        write_reports(report, out)
        write_counterexamples(report, out)


class _Catalogue(pytest.Collector):
    def collect(self) -> list[pytest.Item]:  # items are made by the hook above
        return []


class ConformanceFailure(Exception):
    """A case or property failed or errored; the message is the whole story."""


class _ConformanceItem(pytest.Item):
    def __init__(self, *, target: Any, state: _Conformance, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target = target
        self.state = state
        for rule in target.rules:
            self.user_properties.append(("rule", rule))

    def runtest(self) -> None:
        from conformance._catalogue import Case

        runner = self.state.runner
        if isinstance(self.target, Case):
            result = runner.run_case(self.target)
        else:
            result = runner.run_property(self.target)
        self.state.results.append(result)
        if result.status == "skip":
            pytest.skip(result.message)
        if result.status in ("fail", "error"):
            raise ConformanceFailure(_describe(result))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, ConformanceFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        path = getattr(self.target, "path", None) or "conformance"
        return path, getattr(self.target, "line", None), self.name


def _describe(result: Any) -> str:
    lines = [f"{result.status.upper()} {result.id} [rules: {', '.join(result.rules)}]",
             result.message]
    for m in result.mismatches:
        lines.append(f"  {m.path}:\n    expected {m.expected!r}\n    observed {m.observed!r}")
    if result.stderr:
        lines.append("engine stderr (tail):\n" + result.stderr[-2000:])
    if result.counterexample:
        lines.append("counterexample:\n" + result.counterexample)
    lines.append(f"rerun: {result.rerun}")
    return "\n".join(lines)
