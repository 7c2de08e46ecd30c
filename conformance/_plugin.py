"""pytest plugin: ``pytest --engine SPEC`` runs the catalogue as pytest items.

Registered through the ``pytest11`` entry point, it costs nothing unless
``--engine`` is given (everything else is imported lazily).  Each case and
property is one item, run by the CLI's `Runner`, and the session ends with the
CLI's verdict (docs/cli.md, "pytest").
"""

from __future__ import annotations

import datetime
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conformance._shown import shown, shown_lines
from conformance._types import ReportDict

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr  # what Node.repr_failure returns; not public

    from conformance._catalogue import Case
    from conformance._properties import Property
    from conformance._results import Result
    from conformance._runner import Runner


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "card-game rules conformance")
    group.addoption("--engine", metavar="SPEC",
                    help="certify this engine: reference | python:pkg.mod:factory | cmd:<command>")
    group.addoption("--conformance-cases", metavar="DIR", help="catalogue folder")
    group.addoption("--conformance-profile", metavar="NAME",
                    help="quick | ci | certify | deep (default: ci when CI is set)")
    group.addoption("--conformance-ruleset", action="append", metavar="NAME",
                    help="only this ruleset (repeatable)")
    group.addoption("--conformance-known-failures", metavar="FILE",
                    help="ids expected to fail: run as strict xfail")
    group.addoption("--conformance-report", metavar="DIR",
                    help="also write report.json, report.md, junit.xml, report.html and "
                         "badge.json for the conformance items that ran")
    group.addoption("--conformance-strict-readings", action="store_true", default=False,
                    help="items relying on the catalogue's readings count as failures too")
    group.addoption("--conformance-allow-no-verdict", action="store_true", default=False,
                    help="do not exit 5 when no conformance item passed or failed")


def pytest_configure(config: pytest.Config) -> None:
    spec = config.getoption("--engine")
    if not spec:
        return
    # `python:` specs name modules in the folder pytest was started from, as the CLI
    # finds them: the ``pytest`` script does not put that folder on sys.path
    here = str(config.invocation_params.dir)
    if spec.startswith("python:") and here not in sys.path:
        sys.path.insert(0, here)
    config.pluginmanager.register(_Conformance(config), "conformance-session")


class _Conformance:
    """Session state, created only when --engine is given, in every process: under
    ``-n N`` each worker runs its items on its own engine and attaches each result to
    the test report it sends; the controller collects them (`pytest_runtest_logreport`)
    and builds the report, exit status and summary, as a single process does."""

    def __init__(self, config: pytest.Config) -> None:
        import os

        from conformance._certify import RunConfig
        from conformance._errors import ConformanceError
        from conformance._knownfail import KnownFailures
        from conformance._suite import Suite

        cases = config.getoption("--conformance-cases")
        rulesets = config.getoption("--conformance-ruleset")
        try:  # an invalid catalogue: a usage error before anything
            self.suite = Suite.load(Path(cases) if cases else None, rulesets)
        except ConformanceError as exc:
            raise pytest.UsageError(str(exc)) from None
        self.catalogue = self.suite.catalogue
        folders = [*self.catalogue.folders.values(), self.catalogue.root]
        self.catalogue_dirs = {os.path.abspath(f) for f in folders if f is not None}
        self.run = RunConfig.of(config.getoption("--engine"), rulesets=rulesets,
                                profile=config.getoption("--conformance-profile"),
                                known_failures=config.getoption("--conformance-known-failures"),
                                strict_readings=config.getoption("--conformance-strict-readings"),
                                allow_no_verdict=config.getoption("--conformance-allow-no-verdict"))
        known = self.run.known_failures
        try:   # unreadable, or over its caps: a usage error, as on the command line
            self.known = KnownFailures.read(known) if known else None
        except ConformanceError as exc:
            raise pytest.UsageError(str(exc)) from None
        self.report_dir = config.getoption("--conformance-report")
        self.is_worker = hasattr(config, "workerinput")  # a pytest-xdist worker
        self.runner: Runner | None = None   # started with the collection
        self.results: list[Result] = []     # from this process or, under xdist, every worker
        self.engine_info: dict[str, Any] = {}
        self.problems: list[dict[str, str]] = []
        self.report: ReportDict | None = None
        self._sent_engine = False   # what this process already sent with a report
        self._sent_problems = 0
        self._began = time.perf_counter()
        self._started = datetime.datetime.now(datetime.UTC)
        # each item lives under the file that defines it (a case's YAML file, a
        # property's module), so that its node id, passed back to pytest, runs it
        self.by_file: dict[Path, list[Case | Property]] = {}
        targets: list[Case | Property] = [*self.catalogue.cases, *self.suite.properties]
        for target in targets:
            self.by_file.setdefault(_defined_in(target), []).append(target)
        here = config.invocation_params.dir
        #: the paths the command line names (a node id's file part), resolved
        self.named = [(here / str(arg).split("::")[0]).resolve() for arg in config.args]
        self.collected: set[str] = set()   # ids of the items collected from named files

    def _is_named(self, path: Path) -> bool:
        """Whether the command line names ``path`` or a folder holding it."""
        return any(n == path or n in path.parents for n in self.named)

    def pytest_ignore_collect(self, collection_path: Path,
                              config: pytest.Config) -> bool | None:
        """The catalogue's folders hold this plugin's items, not tests for pytest to find,
        unless the command line names something inside them."""
        if str(collection_path) not in self.catalogue_dirs:
            return None
        path = collection_path.resolve()
        return None if any(n == path or path in n.parents for n in self.named) else True

    def pytest_collect_file(self, file_path: Path, parent: pytest.Collector) -> Any:
        """A case file or property module named on the command line: its items."""
        path = file_path.resolve()
        if path in self.by_file and self._is_named(path):
            return _DefiningFile.from_parent(parent, path=file_path, state=self,
                                             nodeid=_file_nodeid(parent.session, path))
        return None

    # tryfirst: the items must exist before -k / -m deselection runs over them
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        from conformance._errors import UsageError
        from conformance._loading import load_engine
        from conformance._runner import Runner

        try:  # start the engine now: a bad --engine is a usage error
            engine = load_engine(self.run.engine_spec, timeout=self.run.profile.timeout)
        except UsageError as exc:
            raise pytest.UsageError(str(exc)) from None
        self.runner = Runner(self.catalogue, engine, self.run.engine_spec, self.run.profile,
                             reference=lambda: load_engine("reference"),
                             properties=self.suite.properties)
        self.runner.handshake()
        terminal = config.pluginmanager.get_plugin("terminalreporter")
        if self.runner.handshake_error and terminal is not None:  # the cause, before any item
            terminal.write_line(f"ENGINE NOT CERTIFIED: the engine could not start: "
                                f"{shown(self.runner.handshake_error, 2000)}",
                                red=True, bold=True)
        if self.collected:   # the command line named case files: those items only
            return
        targets: list[Case | Property] = [*self.catalogue.cases, *self.suite.properties]
        if self.is_worker:  # the report keeps catalogue order whatever the run order
            targets = spread(self.catalogue.cases, self.suite.properties)
        files: dict[Path, _DefiningFile] = {}
        made: dict[Path, list[pytest.Item | pytest.Collector]] = {}
        for target in targets:
            path = _defined_in(target)
            if path not in files:
                files[path] = _DefiningFile.from_parent(session, path=path, state=self,
                                                        nodeid=_file_nodeid(session, path))
            item = files[path].item(target)
            item.ihook.pytest_itemcollected(item=item)
            made.setdefault(path, []).append(item)
            items.append(item)
        # items of rulesets the engine does not claim: pytest's "deselected", not skips
        dropped = [i for i in items if isinstance(i, _ConformanceItem)
                   and not self.runner.claims(i.target.ruleset)]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = [i for i in items if i not in dropped]
        for path, collected in made.items():   # counted: "N tests collected", "collected N"
            session.ihook.pytest_collectreport(report=pytest.CollectReport(
                files[path].nodeid, "passed", None, collected))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item,
                                  call: pytest.CallInfo[None]) -> Any:
        """Attach the item's result to its report: that is how it reaches the controller."""
        report = yield
        result = getattr(item, "result", None)
        if call.when == "call" and result is not None and self.runner is not None:
            data: dict[str, Any] = {"result": result.to_json()}
            # the engine's hello (the reference engine's lists 231 mutants) and the
            # problems travel once, not with every one of thousands of items
            if not self._sent_engine:
                data["engine"] = self.runner.engine_info
                self._sent_engine = True
            if len(self.runner.problems) > self._sent_problems:
                data["problems"] = self.runner.problems[self._sent_problems:]
                self._sent_problems = len(self.runner.problems)
            report.conformance = data
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        from conformance._results import Result

        data = getattr(report, "conformance", None)
        if data is None or self.is_worker:  # a worker sends it; the controller reports
            return
        self.results.append(Result.from_json(data["result"]))
        self.engine_info = data.get("engine", self.engine_info)
        self.problems += [p for p in data.get("problems", ()) if p not in self.problems]

    def pytest_report_header(self, config: pytest.Config) -> str:
        return (f"conformance: engine {self.run.engine_spec}; catalogue {self.catalogue.where} "
                f"{self.catalogue.digest}")

    def _deselected(self) -> dict[str, int]:
        """The items of rulesets the engine's hello does not claim, per ruleset: what each
        process deselected, known to the controller from the hello alone."""
        claimed = self.engine_info.get("rulesets")
        if not isinstance(claimed, list) or not claimed:
            return {}   # no hello (a failed handshake): every item is the engine's error
        out: dict[str, int] = {}
        targets: list[Case | Property] = [*self.catalogue.cases, *self.suite.properties]
        for target in targets:
            if target.ruleset not in claimed and (not self.collected
                                                  or target.id in self.collected):
                out[target.ruleset] = out.get(target.ruleset, 0) + 1
        return out

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        from conformance._certify import build_report, review_known

        if self.runner is not None:
            self.runner.engine.close()
        if (self.is_worker or session.config.option.collectonly
                or (self.runner is None and not self.results)):
            return   # the controller reports, and only on a run
        # the report `conformance certify` would write, for the items run
        interrupted = exitstatus == pytest.ExitCode.INTERRUPTED
        results = self.suite.in_order(self.results)   # as one process runs them
        problems = list(self.problems)
        if self.known is not None:
            problems += review_known(self.known, self.run, self.suite, results)
        if interrupted:
            problems.append({"kind": "interrupted", "message": "pytest was interrupted"})
        self.report = build_report(self.suite, self.run, self.engine_info, results, problems,
                                   complete=not interrupted, started=self._started,
                                   duration=time.perf_counter() - self._began, mutation=None,
                                   deselected=self._deselected())
        if self.report_dir:
            from conformance._report import Report

            Report(self.report).write(self.report_dir)
        verdict = self.report["verdict"]
        if exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            if verdict["status"] == "not certified":
                session.exitstatus = 2  # as `conformance certify`: ENGINE_ERRORS
            elif verdict["status"] == "no verdict" and not self.run.allow_no_verdict:
                session.exitstatus = pytest.ExitCode.NO_TESTS_COLLECTED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.report is None:
            return
        from conformance import _vocabulary_gate
        from conformance._verdict import skip_reasons
        from conformance.report._text import differences, handshake_problem, verdict_line

        tr = terminalreporter
        tr.section("conformance")
        handshake = handshake_problem(self.report)
        if handshake:
            tr.write_line(f"ENGINE NOT CERTIFIED: {shown(handshake, 2000)}", red=True, bold=True)
        for reason, ids in skip_reasons(self.report["results"])[:5]:
            tr.write_line(f"skipped {len(ids):4}: {shown(reason, 160)}")
        for r in differences(self.report):
            tr.write_line(f"differs from the reference engine: {r['id']}: "
                          f"{shown(r['message'], 160)}")
        drift = _vocabulary_gate.drift_line(self.report["results"], self.report["engine"])
        if drift:
            tr.write_line(drift)
        tr.write_line(f"verdict: {shown(verdict_line(self.report), 4000)}")


def spread(cases: list[Any], properties: list[Any]) -> list[Any]:
    """The run order under pytest-xdist: properties spread evenly over the first two
    thirds of the cases, the first item a property.

    A property takes a hundred times as long as a case, and pytest-xdist hands
    workers runs of consecutive items, fewer as the run nears its end: with the
    properties last, one worker could finish a second before the other.  Spread,
    every run holds its share, and the last third, cases only, evens out the rest.
    """
    head = (2 * len(cases)) // 3
    out: list[Any] = []
    taken = 0
    for k, prop in enumerate(properties):
        upto = round(k * head / len(properties))
        out += cases[taken:upto]
        taken = upto
        out.append(prop)
    return out + cases[taken:]


def _defined_in(target: Case | Property) -> Path:
    """The file that defines a case (its YAML file) or a property (its module)."""
    import inspect

    from conformance._catalogue import Case

    path = target.path if isinstance(target, Case) else inspect.getsourcefile(target.check)
    return Path(str(path)).resolve()


def _file_nodeid(session: pytest.Session, path: Path) -> str:
    """The node id of a defining file, one that works passed back to pytest from where
    it was started: relative to that folder, or absolute outside it (an installed
    catalogue, ``--conformance-cases`` elsewhere)."""
    try:
        return path.relative_to(session.config.invocation_params.dir.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


class _DefiningFile(pytest.File):
    """A case's YAML file or a property's module, holding its conformance items."""

    def __init__(self, *, state: _Conformance, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.state = state

    def item(self, target: Case | Property) -> _ConformanceItem:
        item = _ConformanceItem.from_parent(self, name=target.id, target=target,
                                            state=self.state)
        known = self.state.known
        if known is not None and known.matches(item.name):
            item.add_marker(pytest.mark.xfail(reason=f"listed in {known.path}", strict=True))
        return item

    def collect(self) -> list[pytest.Item]:
        """Collected only when the command line names this file or its folder."""
        targets = self.state.by_file.get(self.path.resolve(), [])
        self.state.collected.update(t.id for t in targets)
        return [self.item(t) for t in targets]


class ConformanceFailure(Exception):
    """A case or property failed or errored; the message is the whole story."""


class _ConformanceItem(pytest.Item):
    def __init__(self, *, target: Case | Property, state: _Conformance,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target = target
        self.state = state
        self.result: Result | None = None
        self.user_properties += [("rule", rule) for rule in target.rules]

    def runtest(self) -> None:
        from conformance._cache import hypothesis_home
        from conformance._verdict import counts

        runner = self.state.runner
        assert runner is not None   # started with the collection
        with hypothesis_home():   # around this item only: the user's own tests keep theirs
            result = runner.run_item(self.target)
        self.result = result  # the report carries it to whoever builds the report
        if result.status == "skip":
            pytest.skip(shown(result.message))
        if result.status in ("fail", "error"):
            if not counts(result.basis, self.state.run.strict_readings) \
                    and not runner.handshake_error:
                what = ("differs from the reference engine" if result.basis == "reference"
                        else "differs from the catalogue's reading")
                pytest.xfail(f"{what} (information, not a verdict): {shown(result.message)}")
            raise ConformanceFailure(_describe(result, runner.engine_info))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, ConformanceFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        path = getattr(self.target, "path", None) or "conformance"
        return path, getattr(self.target, "line", None), self.name


def _describe(result: Result, engine_info: dict[str, Any]) -> str:
    from conformance import _vocabulary_gate

    lines = [f"{result.status.upper()} {result.id} [rules: {', '.join(result.rules)}]"]
    if not result.mismatches:  # otherwise the message is the first mismatch, listed below
        lines.append(shown(result.message, 2000))
    if result.location:
        lines.append(f"defined at {result.location}")
    for m in result.mismatches:
        lines.append(f"  {shown(m.path, 200)}:\n    expected {shown(repr(m.expected), 2000)}"
                     f"\n    observed {shown(repr(m.observed), 2000)}")
    if result.stderr:   # the engine's lines, each made safe to print
        lines.append("engine stderr (tail):\n" + "\n".join(
            f"| {line}" for line in shown_lines(result.stderr, 30, 200)))
    if result.counterexample:
        lines.append("counterexample:\n" + result.counterexample)
    hint = _vocabulary_gate.drift_hint(result.to_json(), engine_info)
    if hint:
        lines.append(hint)
    lines.append(f"rerun: {result.rerun}")
    return "\n".join(lines)
