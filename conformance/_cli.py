"""``conformance``: the command line: parse (`_arguments`), dispatch to `_certify`,
`report` and the rest, print.

Exit codes are `ExitCode` (docs/cli.md).  Modules that every command imports
anyway (through `_runner`) are imported here at the top; those that cost more
(Hypothesis, the report renderers) only by the commands that use them.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import json
import os
import shlex
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from conformance import _catalogue, _doctor, _errors, _lifetime, _signals, vocabulary
from conformance._arguments import parser
from conformance._cache import hypothesis_home
from conformance._catalogue import Case, Catalogue
from conformance._discovery import find_ruleset, properties_for, ruleset_names, unknown_ruleset
from conformance._engine import Connection, EngineFault
from conformance._errors import ConformanceError, ExitCode, InvalidCatalogue, UsageError
from conformance._init import LANGUAGES, init
from conformance._knownfail import KnownFailures, failures_list
from conformance._outdir import check_out, locked
from conformance._progress import Progress
from conformance._report import Report
from conformance._select import count_line, features, last_failed, listing
from conformance._settings import get_profile
from conformance._shown import log_safe, shown
from conformance._transcript import TranscriptSink, place, replay_hint
from conformance._types import MutantRow, Mutation, ReportDict, RuleRow
from conformance._verdict import (
    uncounted,
)

if TYPE_CHECKING:
    from conformance._properties import Property
    from conformance._results import Result

def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):   # a lone surrogate is printed as \ud800
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")
    args = _parser().parse_args(argv)
    from conformance._runner import clear_stop

    clear_stop()
    previous = _signals.install()
    was_dumpable = _lifetime.dumpable()
    if args.command in ("certify", "run", "mutants", "doctor"):   # they start engines:
        # the engines run as our user; none may open our /proc/PID/fd or ptrace us
        _lifetime.set_dumpable(False)
    # `python:` specs name modules in the current folder, as `python -m` would find them
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return int(args.func(args))
    except BrokenPipeError:
        # `conformance rules | head`: the reader left; end quietly, like any filter
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return ExitCode.BROKEN_PIPE
    except KeyboardInterrupt:  # outside a run (a run writes its partial report itself)
        print("conformance: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except EngineFault as exc:   # the engine could not start (listing its mutants, say)
        _print_error(exc.message)
        return ExitCode.ENGINE_ERRORS
    except ConformanceError as exc:   # a usage error, or an invalid catalogue
        _print_error(exc)
        if not isinstance(exc, InvalidCatalogue):
            return ExitCode.USAGE
        print("conformance: refusing to run on an invalid catalogue "
              "(run `conformance validate` for the full list)", file=sys.stderr)
        return ExitCode.INVALID_CATALOGUE
    finally:
        clear_stop()  # a later in-process run (tests, an API caller) starts afresh
        _signals.restore(previous)
        if was_dumpable:   # an API caller or a test: as it was
            _lifetime.set_dumpable(True)


def _print_error(error: object) -> None:
    """An error on stderr after ``conformance: ``: it may quote an engine's or a
    report's text, so each of its lines is `shown`, and every line after the first is
    indented (no forged line of its own can start at the left margin)."""
    try:
        lines = str(error).splitlines() or [""]
    except Exception:   # an engine's text whose __str__ raises: shown says so
        lines = [shown(error)]
    print(f"conformance: {shown(lines[0], 2000)}", file=sys.stderr)
    for line in lines[1:]:
        text = shown(line, 2000)
        print(text if text[:1].isspace() else f"  {text}", file=sys.stderr)


def check_rulesets(cases: Path | None, rulesets: list[str] | None) -> None:
    """An unknown --ruleset is a usage error (exit 4) before anything runs."""
    if not rulesets:
        return
    if cases is not None and not Path(cases).is_dir():
        return   # the catalogue's own error names the folder
    known = _catalogue.catalogue_folders(cases)
    for name in rulesets:
        if name not in known:
            if cases is not None:
                raise UsageError(f"--ruleset {name!r}: no such ruleset in {cases}; "
                                 f"choose one of {', '.join(sorted(known)) or '(none)'}")
            raise UsageError(f"--ruleset {name!r}: {unknown_ruleset(name)}")


# -- certify / run / merge ------------------------------------------------------
def _cmd_certify(args: argparse.Namespace) -> int:
    from conformance._certify import (
        RunConfig,
        carry_forward,
        carry_key,
        carry_refused,
        certify,
        run_key,
    )
    from conformance._runner import Runner, Selection
    from conformance._suite import Suite

    if not args.engine and not args.list:
        raise UsageError("the following argument is required: --engine (only --list "
                         "runs without one)")
    if args.last_failed and not args.out:
        raise UsageError("--last-failed reruns what failed in the previous report: give "
                         "the --out DIR that run wrote to")
    if args.transcript is True and not args.out:   # `--transcript` without a DIR
        raise UsageError("--transcript needs a folder: give --transcript DIR, or --out DIR "
                         "(transcripts then go to DIR/transcripts)")
    profile = get_profile(args.profile)
    check_rulesets(args.cases, args.ruleset)
    if args.run_timeout:
        profile = dataclasses.replace(profile, run_timeout=args.run_timeout)
    if args.seed is not None:
        profile = dataclasses.replace(profile, seed=args.seed)
    selection = Selection(rulesets=args.ruleset, select=args.select, rules=args.rule,
                          properties=not args.no_properties, cases=not args.no_cases,
                          shard=args.shard)
    suite = None
    previous: ReportDict | None = None   # --last-failed: the report the rest is carried from
    chosen: list[str] | None = None
    if args.last_failed or args.list:
        suite = Suite.load(args.cases, args.ruleset)
        if args.last_failed:
            chosen, note = last_failed(args.out, suite.ids(), args.select)
            print(shown(note, 2000), file=sys.stderr)
            if chosen is not None:
                try:
                    previous = _read_report(args.out / "report.json")
                except ConformanceError as exc:   # read above, but not a report of ours
                    print(f"--last-failed: the previous report is not carried "
                          f"({shown(exc, 1000)}); running everything", file=sys.stderr)
        if args.list:
            suite.check_filters(selection)
            # a runner never asked to run: the one place that knows which items, in which order
            items = Runner(suite.catalogue, Connection(), "", profile, selection,
                           properties=suite.properties).items()
            if args.quiet:   # terse, as `pytest --co -q`: ids only, the count apart
                print(*(item.id for item in items), sep="\n")
                print(count_line(items), file=sys.stderr)
                return ExitCode.OK
            with hypothesis_home():   # a property's features are those it draws
                print(*listing(items), sep="\n")
            return ExitCode.OK
    if args.update_known_failures and not args.known_failures:
        raise UsageError("--update-known-failures re-pins the file given with "
                         "--known-failures FILE; give that too")
    if args.out:
        check_out(args.out, _transcript_folder(args))
    options = {key: value for key, value in (("memory_limit_mb", args.memory_limit),
                                             ("max_reply_bytes", args.max_reply_bytes)) if value}
    config = RunConfig(engine_spec=args.engine, profile=profile, selection=selection,
                       cases_root=args.cases, known_failures=args.known_failures,
                       timeout=args.timeout, engine_options=options,
                       strict_readings=args.strict_readings,
                       allow_no_verdict=args.allow_no_verdict, mutation=args.mutation,
                       all_kills=args.all_kills, mutant=args.mutant,
                       jobs=args.jobs, update_known_failures=args.update_known_failures,
                       fail_under=args.fail_under, exitfirst=args.exitfirst)
    if previous is not None and suite is not None and chosen is not None:
        # only a report of this engine, mutant, catalogue, suite, profile, seed and filters
        why = carry_refused(previous, run_key(config, suite.catalogue.digest))
        if why is not None:
            _not_carried(why)
            previous = None
        else:
            selection.select = chosen
    known = KnownFailures.read(args.known_failures) if args.known_failures else None

    def not_counted(result: Result) -> str:   # as the summary counts it
        return uncounted(result.status, result.basis, args.strict_readings,
                         known is not None and known.matches(result.id))

    def run() -> ReportDict:   # the run, with a progress display of its own
        progress = Progress(quiet=args.quiet, together=args.jobs > 1, verbose=args.verbose,
                            uncounted=not_counted)
        report = certify(config, on_result=progress, on_start=_announce,
                         on_mutant=progress.mutant, on_plan=progress.planned, suite=suite)
        progress.finish()
        return report

    with (locked(args.out), tempfile.TemporaryDirectory(prefix="conformance-") as staging,
          hypothesis_home()):
        if args.out or args.transcript is not None:
            config.transcripts = TranscriptSink(Path(staging), every=args.transcript is not None)
        report = run()
        why = None if previous is None else carry_refused(previous, carry_key(report))
        if why is not None:   # known from the hello only: the engine's name, version, mutant
            _not_carried(why)
            previous, selection.select = None, list(args.select or [])
            report = run()
        if previous is not None and suite is not None:
            report = carry_forward(report, previous, set(suite.ids()))
            carried = sum(bool(r.get("carried")) for r in report["results"])
            print(f"--last-failed: {carried} item(s) carried from the previous report "
                  "(\"carried\": true in report.json); the summary and verdict count them all",
                  file=sys.stderr)
        # after the reports: writing them empties counterexamples/, where transcripts go too
        return _conclude(report, args.out, args.format, args.durations,
                         lambda: _place_transcripts(report, Path(staging), args), args.cases)


def _not_carried(why: str) -> None:
    print(f"--last-failed: the previous report is not carried: it differs in "
          f"{shown(why, 1000)}; running everything", file=sys.stderr)


def _cmd_merge(args: argparse.Namespace) -> int:
    from conformance._certify import merge_reports

    merged = merge_reports([_read_report(p) for p in args.reports])   # refused: no --out
    check_out(args.out)
    with locked(args.out):
        return _conclude(merged, args.out, args.format)


def _conclude(report: ReportDict, out: Path | None, fmt: str | None,
              durations: int | None = None,
              transcripts: Callable[[], Path | None] = lambda: None,
              cases: Path | None = None) -> int:
    """How certify and merge end: the summary, GitHub annotations (when asked for or
    under GitHub Actions), every report format and the counterexamples in ``out``,
    then ``transcripts`` places the run's transcripts (returning its --transcript
    folder, if any); returns the run's exit code. ``cases``: the run's --cases DIR,
    named under the verdict (it is not the installed catalogue)."""
    from conformance import _files
    from conformance._certify import exit_status
    from conformance.report import _github, left_behind, write_counterexamples, write_reports
    from conformance.report._terminal import print_outcome

    print_outcome(report, durations=durations)
    if cases is not None:
        print(f"catalogue used: {cases} (--cases) {report['suite']['catalogue_digest']}, "
              "not necessarily the installed one: the verdict holds for this catalogue")
    if _github.wanted(fmt):
        sys.stdout.write(_github.render(report))
    if not out:
        transcripts()
        return exit_status(report)
    ours: list[Path | None] = []
    examples: list[Path] = []

    def evidence() -> None:   # before report.json, which says the set is whole
        examples.extend(write_counterexamples(report, out))
        ours.append(transcripts())

    with _signals.holding() as held:   # a signal now would lose the report being written
        try:
            written = write_reports(report, out, then=evidence)
        except OSError as exc:
            raise UsageError(f"cannot write the reports to {out}: {exc}; no report there is "
                             "current (the earlier ones were removed)") from exc
        print(f"reports written: {', '.join(str(p) for p in written.values())}")
        for path in written.values():   # for the CI log: is a file later still the one written?
            print(f"sha256 {hashlib.sha256(path.read_bytes()).hexdigest()}  {path}")
        for path in examples:
            print(f"counterexample written: {path}")
        every_to = ours[0] if ours else None
        others = [p for p in left_behind(out)
                  if every_to is None or p.resolve() != every_to.resolve()]
        if others:
            print(f"also in {out}, not written by this run (left as it was): "
                  f"{', '.join(p.name for p in others)}")
        for folder in (out / "counterexamples", every_to):
            kept = _files.others(folder) if folder is not None else []
            if kept:
                print(f"also in {folder}, not written by this run (left as it was): "
                      f"{', '.join(p.name for p in kept)}")
    if held:
        print("conformance: interrupted (after the reports were written)", file=sys.stderr)
        return ExitCode.INTERRUPTED
    return exit_status(report)


def _place_transcripts(report: ReportDict, staging: Path,
                       args: argparse.Namespace) -> Path | None:
    """Copy the run's transcripts where they belong and say how to replay one; returns
    the --transcript folder (None without it)."""
    from conformance.report import safe_filename

    every_to = _transcript_folder(args)
    failing_to = args.out / "counterexamples" if args.out else None
    try:
        written = place(staging, report["results"], failing_to, every_to, safe_filename)
    except OSError as exc:
        raise UsageError(f"cannot write the transcripts: {exc}") from exc
    if written:
        where = sorted({str(p.parent) for p in written})
        print(f"transcripts written: {len(written)} in {', '.join(where)}; replay one by "
              f"hand: {replay_hint(report['engine']['spec'], written[0])}")
    return every_to


def _transcript_folder(args: argparse.Namespace) -> Path | None:
    """Where --transcript writes every item's transcript (None without it)."""
    if args.transcript is None:
        return None
    folder: Path = args.out / "transcripts" if args.transcript is True else args.transcript
    if args.transcript is not True and folder.is_symlink() and folder.is_dir():
        folder = folder.resolve()   # a folder the user named through a link of theirs
    return folder


def _announce(catalogue: Catalogue) -> None:
    print(f"catalogue: {catalogue.where} {catalogue.digest} "
          f"({len(catalogue.rules)} rules, {len(catalogue.cases)} cases)", flush=True)


# -- validate / rules / schema ----------------------------------------------------
def _load_catalogue(args: argparse.Namespace) -> Catalogue:
    """The catalogue that --cases and --ruleset name; its errors go to stderr."""
    check_rulesets(args.cases, args.ruleset)
    catalogue = _catalogue.load_catalogue(args.cases, args.ruleset)
    for error in catalogue.errors:
        print(error, file=sys.stderr)
    return catalogue


def _cmd_validate(args: argparse.Namespace) -> int:
    catalogue = _load_catalogue(args)
    uncovered = catalogue.uncovered()
    for rule in uncovered:
        print(f"{rule.path}:{rule.line}: rule {rule.id} is covered by no case "
              f"(add a case whose `rules:` names it)")
    print(f"{len(catalogue.rules)} rules, {len(catalogue.cases)} cases, "
          f"{len(catalogue.errors)} errors, {len(uncovered)} uncovered rules "
          f"[{catalogue.where}]")
    if args.features:
        _print_features(catalogue)
    wrong = catalogue.errors or (args.strict and uncovered)
    return ExitCode.INVALID_CATALOGUE if wrong else ExitCode.OK


def _cmd_rules(args: argparse.Namespace) -> int:
    from conformance.report import rule_table

    catalogue = None
    if args.report:
        check_rulesets(args.cases, args.ruleset)
        rows = [_shown_row(r) for r in _read_report(args.report)["rules"]
                if not args.ruleset or r["ruleset"] in args.ruleset]
    else:
        from conformance._certify import rule_rows
        from conformance._mutation import list_mutants
        from conformance._runner import Selection

        catalogue = _load_catalogue(args)
        props = {p.id: list(p.rules) for rs in catalogue.rulesets for p in properties_for(rs)}
        mutants = cast(Mutation, {"mutants": list_mutants(args.ruleset)})   # names, rules
        rows = rule_rows(catalogue, [], Selection(rulesets=args.ruleset), mutants, props)
        for row in rows:  # no run: say "not run" rather than pretend a status
            if row["status"] == "skip":
                row["status"] = "not run"
    print(rule_table(rows))
    if args.features:
        _print_features(catalogue or _catalogue.load_catalogue(args.cases, args.ruleset))
    return ExitCode.OK


def _shown_row(row: RuleRow) -> RuleRow:
    """A rule row of a report, each text in it `shown` (one line, safe to print)."""
    def safe(value: Any) -> Any:
        if isinstance(value, str):
            return shown(value, 300)
        if isinstance(value, list):
            return [safe(v) for v in value]
        return value
    return cast(RuleRow, {key: safe(value) for key, value in row.items()})   # same keys


def _print_features(catalogue: Catalogue) -> None:
    """One line per case and property: what it needs, and every feature it uses."""
    print()
    items: list[Case | Property] = [*catalogue.cases]
    items += [p for rs in catalogue.rulesets for p in properties_for(rs)]
    for item in items:
        used, wanted = features(item)
        why = f": {wanted.because}" if wanted.because else ""
        print(f"{item.id} (needs {item.ruleset} vocabulary {wanted.version}{why}): "
              f"{', '.join(used) or '-'}")


def _cmd_schema(args: argparse.Namespace) -> int:
    if find_ruleset(args.ruleset) is None:
        raise UsageError(unknown_ruleset(args.ruleset))
    latest = vocabulary.history(args.ruleset).latest
    version = args.vocabulary or latest
    if version > latest:
        raise UsageError(f"--vocabulary {version}: {args.ruleset} has vocabulary versions "
                         f"1 to {latest}")
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{args.ruleset}-vocabulary-{version}.json"
    text = json.dumps(vocabulary.schema(args.ruleset, version), indent=2, ensure_ascii=False)
    path.write_text(text + "\n", "utf-8")
    print(f"wrote {path}: the {args.ruleset} vocabulary, version {version} of {latest} "
          f"(entry points: {{\"$ref\": \"#/$defs/setup\"}}, action, ...)")
    return ExitCode.OK


# -- report / failures / diff / compare -------------------------------------------
def _report_path(path: Path) -> Path:
    """A report.json, or a folder of reports holding one."""
    return path / "report.json" if path.is_dir() else path


def _read_report(path: Path) -> ReportDict:
    return Report.read(_report_path(path)).data


def _cmd_report(args: argparse.Namespace) -> int:
    from conformance.report import render

    text = render(Report.read(args.report).data, args.format)   # a file, not a folder
    if args.output:
        args.output.write_text(text, "utf-8")
    else:   # most likely into a CI log: no line of an engine's stderr runs as a command
        sys.stdout.write(log_safe(text))
    return ExitCode.OK


def _cmd_failures(args: argparse.Namespace) -> int:
    sys.stdout.write(failures_list(_read_report(args.report)))
    return ExitCode.OK


def _cmd_diff(args: argparse.Namespace) -> int:
    from conformance.report._diff import diff

    return diff(_read_report(args.old), _read_report(args.new),
                names=(str(args.old), str(args.new)),
                allow_lost_coverage=args.allow_lost_coverage, fail_under=args.fail_under,
                markdown=args.markdown)


def _cmd_gate(args: argparse.Namespace) -> int:
    """docs/ci.md: the run's summary, its annotations, and `diff` against the baseline
    (or, with none yet, how to commit one: nothing to regress against, exit 0)."""
    from conformance.report import _gate, _github
    from conformance.report._diff import below_floor, diff

    path = _report_path(args.report)
    report = _read_report(args.report)
    baseline = _report_path(args.baseline)
    if _github.wanted(args.format):
        sys.stdout.write(_github.render(report))
    lines = _gate.summary(report, path)
    print(f"verdict: {shown(_gate.verdict_line(report), 2000)}")
    if baseline.exists():
        with tempfile.TemporaryDirectory() as tmp:   # `diff`, as its command line has it
            markdown = Path(tmp) / "diff.md"
            status = diff(_read_report(args.baseline), report,
                          names=(str(args.baseline), str(args.report)),
                          allow_lost_coverage=args.allow_lost_coverage,
                          fail_under=args.fail_under, markdown=markdown)
            lines.append(markdown.read_text("utf-8"))
    else:
        print(_gate.bootstrap_text(baseline, path), end="")
        floor = below_floor(report, args.fail_under)
        lines += [f"> **Warning:** {floor}", ""] if floor else []
        lines += _gate.bootstrap(baseline, path)
        status = ExitCode.FAILURES if floor else ExitCode.OK
    text = "\n".join(lines).rstrip("\n") + "\n"
    step_summary = os.environ.get("GITHUB_STEP_SUMMARY")
    appended = Path(step_summary) if step_summary else None
    if appended and args.summary and appended.resolve() == args.summary.resolve():
        appended = None   # one file named twice: written once
    for target, mode in ((args.summary, "w"), (appended, "a")):
        if target is None:
            continue
        try:
            with target.open(mode, encoding="utf-8") as stream:
                stream.write(text)
        except OSError as exc:
            raise UsageError(f"cannot write the summary to {target}: {exc}") from None
    return status


def _cmd_compare(args: argparse.Namespace) -> int:
    from conformance.report import _compare

    reports = [(str(_report_path(p)), _read_report(p)) for p in args.reports]
    for path in _compare.write(_compare.compare(reports), args.out):
        print(f"wrote {path}")
    return ExitCode.OK


def _cmd_history(args: argparse.Namespace) -> int:
    from conformance.report import _history

    reports = [(str(_report_path(p)), _read_report(p)) for p in args.reports]
    for path in _history.write(_history.history(reports), args.out):
        print(f"wrote {path}")
    return ExitCode.OK


def _cmd_index(args: argparse.Namespace) -> int:
    from conformance.report import _index

    reports = [(_report_path(p), _read_report(p)) for p in args.reports]
    for path in _index.write(reports, args.out):
        print(f"wrote {path}")
    return ExitCode.OK


# -- mutants / doctor / init --------------------------------------------------------
def _cmd_mutants(args: argparse.Namespace) -> int:
    from conformance._mutation import list_mutants, run_mutants

    check_rulesets(args.cases, args.ruleset)
    if not args.run:
        for m in list_mutants(args.ruleset, args.engine):
            print(f"{shown(m['name'], 100):32} {shown(', '.join(m['rules']), 300)}\n"
                  f"{'':32} {shown(m['description'], 500)}")
        return ExitCode.OK
    from conformance._suite import Suite

    def show(row: MutantRow) -> None:
        mark = ("SURVIVED" if not row["killed"] else
                "killed" if row["certified"] else "killed (not by a seed item)")
        print(f"{shown(row['name'], 100):32} {mark:27} {', '.join(row['killed_by'][:3])}",
              file=sys.stderr)

    result = run_mutants(Suite.load(args.cases, args.ruleset), args.ruleset,
                         get_profile(args.profile), on_mutant=show, jobs=args.jobs,
                         engine_spec=args.engine, all_kills=True)
    survivors = [m for m in result["mutants"] if not m["killed"]]
    print(f"mutation score {result['score']:.2%}: {len(result['mutants']) - len(survivors)} of "
          f"{len(result['mutants'])} mutants killed; {result['certified_score']:.2%} caught by "
          "the certification (killed by a seed-basis item)")
    for row in survivors:
        print(f"SURVIVED: {shown(row['name'], 100)} "
              f"(breaks {shown(', '.join(row['rules']), 300)})")
    broken = [m for m in result["mutants"] if "error" in m]
    if broken and len(broken) == len(result["mutants"]):
        print(f"conformance: none of the {len(broken)} mutants could start (the first: "
              f"{shown(broken[0]['name'], 100)}: {shown(broken[0]['error'])})", file=sys.stderr)
        return ExitCode.ENGINE_ERRORS
    return ExitCode.FAILURES if survivors else ExitCode.OK


def _cmd_doctor(args: argparse.Namespace) -> int:
    doctor = _doctor.diagnose(args.engine, timeout=args.timeout, cases_root=args.cases)
    sys.stdout.write(_doctor.report(doctor))
    return ExitCode.FAILURES if doctor.problems else ExitCode.OK


def _cmd_init(args: argparse.Namespace) -> int:
    installed = ruleset_names()
    rulesets = args.ruleset or installed
    for name in rulesets:
        if name not in installed:
            guess = _errors.did_you_mean(name, installed)
            raise UsageError(f"--ruleset {name!r}: not installed (installed: "
                             f"{', '.join(installed) or 'none'}){'; ' + guess if guess else ''}")
    written = init(args.folder, args.lang, list(dict.fromkeys(rulesets)), force=args.force)
    for path in written:
        print(f"wrote {path}")
    spec = LANGUAGES[args.lang].spec
    print(f"\nnext, from {args.folder}:\n"
          f"  conformance doctor --engine {shlex.quote(spec)}\n"
          f"  conformance certify --engine {shlex.quote(spec)} --allow-no-verdict --out out/\n"
          f"then map what the skip reasons list first ({written[-1].name} has the steps)")
    return ExitCode.OK


def _parser() -> argparse.ArgumentParser:
    return parser({"certify": _cmd_certify, "validate": _cmd_validate, "report": _cmd_report,
                   "rules": _cmd_rules, "schema": _cmd_schema, "failures": _cmd_failures,
                   "diff": _cmd_diff, "gate": _cmd_gate, "compare": _cmd_compare,
                   "history": _cmd_history, "index": _cmd_index,
                   "merge": _cmd_merge, "mutants": _cmd_mutants, "init": _cmd_init,
                   "doctor": _cmd_doctor})
