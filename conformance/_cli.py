"""``conformance``: the command line, a thin layer over `_certify` and `report`.

Exit codes are `ExitCode` (docs/cli.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import sys
from pathlib import Path
from typing import Any

from conformance._errors import ConformanceError, ExitCode, InvalidCatalogue, UsageError
from conformance._results import Result
from conformance._settings import PROFILES, default_profile_name, get_profile

_MARK = {"pass": ".", "fail": "F", "error": "E", "skip": "s"}


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _terminate)
    try:
        return int(args.func(args))
    except InvalidCatalogue as exc:
        print(f"conformance: {exc}", file=sys.stderr)
        print("conformance: refusing to run on an invalid catalogue "
              "(run `conformance validate` for the full list)", file=sys.stderr)
        return ExitCode.INVALID_CATALOGUE
    except UsageError as exc:
        print(f"conformance: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    except ConformanceError as exc:
        print(f"conformance: {exc}", file=sys.stderr)
        return ExitCode.USAGE


def _terminate(signum: int, frame: Any) -> None:
    """SIGTERM ends a run like Ctrl-C: stop the engine, write a partial report."""
    raise KeyboardInterrupt


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="conformance",
        description="Certify a card-game rules engine, rule by rule, against the seed rulebooks.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    for name, helptext in (
        ("certify", "run the catalogue and properties against an engine and write reports"),
        ("run", "the same as certify; by habit used without --out to rerun a few items"),
    ):
        p = sub.add_parser(name, help=helptext, description=helptext)
        p.add_argument("--engine", required=True,
                       help="reference | reference:MUTANT | python:pkg.mod:factory | cmd:<command>")
        p.add_argument("--out", type=Path, help="folder for report.json, report.md, junit.xml, "
                                                "report.html, badge.json")
        _catalogue_options(p)
        p.add_argument("--select", action="append", default=[], metavar="ID",
                       help="only these case/property ids (glob; repeatable)")
        p.add_argument("--rule", action="append", default=[], metavar="RULE",
                       help="only items checking these rule ids (glob; repeatable)")
        p.add_argument("--profile", choices=sorted(PROFILES), default=None,
                       help=f"example budget and timeouts (default: {default_profile_name()}; "
                            "'ci' when CI is set)")
        p.add_argument("--timeout", type=float, help="seconds per engine reply "
                                                     "(default: the profile's)")
        p.add_argument("--run-timeout", type=float, metavar="S",
                       help="seconds the whole run may take; items not reached by then are "
                            "recorded as errors (default: the profile's)")
        p.add_argument("--no-properties", action="store_true", help="run cases only")
        p.add_argument("--no-cases", action="store_true", help="run properties only")
        p.add_argument("--known-failures", type=Path, metavar="FILE",
                       help="ids expected to fail (one per line); a listed item that passes "
                            "is reported")
        p.add_argument("--mutation", action="store_true",
                       help="also run every mutant of the reference engine and add the "
                            "mutation score to the report (reference engine only)")
        p.add_argument("--memory-limit", type=int, metavar="MB",
                       help="address-space limit for a cmd: engine")
        p.add_argument("--max-reply-bytes", type=int, metavar="N",
                       help="longest reply line a cmd: engine may write (default 1000000)")
        p.add_argument("-q", "--quiet", action="store_true", help="no progress dots")
        p.set_defaults(func=_cmd_certify)

    p = sub.add_parser("validate", help="check the catalogue: schemas, ids, rule references, "
                                        "coverage")
    _catalogue_options(p)
    p.add_argument("--strict", action="store_true",
                   help="also fail when a rule has no case")
    p.set_defaults(func=_cmd_validate)

    p = sub.add_parser("report", help="re-render a stored report.json")
    p.add_argument("report", type=Path)
    p.add_argument("--format", choices=["json", "md", "html", "junit", "badge"], default="md")
    p.add_argument("--output", type=Path, help="write here instead of stdout")
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("rules", help="print the rule-coverage table")
    _catalogue_options(p)
    p.add_argument("--report", type=Path, help="take statuses from this report.json")
    p.set_defaults(func=_cmd_rules)

    p = sub.add_parser("failures", help="print a report's failures as a known-failures file")
    p.add_argument("report", type=Path)
    p.set_defaults(func=_cmd_failures)

    p = sub.add_parser("diff", help="compare two reports: what regressed, what was fixed")
    p.add_argument("old", type=Path)
    p.add_argument("new", type=Path)
    p.set_defaults(func=_cmd_diff)

    p = sub.add_parser("compare", help="engines side by side: rules as rows, engines as "
                                       "columns, with a pass-rate chart (HTML and Markdown)")
    p.add_argument("reports", type=Path, nargs="+", metavar="REPORT",
                   help="report.json files (or folders holding one); shard reports of one "
                        "engine are merged first")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for compare.html and compare.md")
    p.set_defaults(func=_cmd_compare)

    p = sub.add_parser("mutants", help="list the reference engine's mutants, or run them "
                                       "(--run) and print which the suite kills")
    _catalogue_options(p)
    p.add_argument("--run", action="store_true", help="run the suite against every mutant")
    p.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    p.set_defaults(func=_cmd_mutants)
    return parser


def _catalogue_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cases", type=Path, metavar="DIR",
                   help="catalogue folder (default: ./cases, else the bundled one)")
    p.add_argument("--ruleset", action="append", default=None, metavar="NAME",
                   help="only this ruleset (repeatable)")


# -- certify / run --------------------------------------------------------------
def _cmd_certify(args: argparse.Namespace) -> int:
    from conformance._certify import RunConfig, certify, exit_status
    from conformance._runner import Selection

    profile = get_profile(args.profile)
    if args.run_timeout:
        profile = dataclasses.replace(profile, run_timeout=args.run_timeout)
    selection = Selection(rulesets=args.ruleset, select=args.select, rules=args.rule,
                          properties=not args.no_properties, cases=not args.no_cases)
    options: dict[str, Any] = {}
    if args.memory_limit:
        options["memory_limit_mb"] = args.memory_limit
    if args.max_reply_bytes:
        options["max_reply_bytes"] = args.max_reply_bytes
    config = RunConfig(engine_spec=args.engine, profile=profile, selection=selection,
                       cases_root=args.cases, known_failures=args.known_failures,
                       timeout=args.timeout, engine_options=options)
    mutation = None
    if args.mutation and args.engine.split(":", 1)[0] != "reference":
        raise UsageError("--mutation measures the suite against the reference engine's mutants; "
                         "use it with --engine reference")
    if args.mutation:
        from conformance._mutation import run_mutants

        mutation = run_mutants(args.cases, args.ruleset, get_profile(args.profile))
    progress = _Progress(quiet=args.quiet)
    report = certify(config, on_result=progress, mutation=mutation)
    progress.done()
    if args.out:
        from conformance.report import write_counterexamples, write_reports

        written = write_reports(report, args.out)
        print(f"reports written: {', '.join(str(p) for p in written.values())}")
        for path in write_counterexamples(report, args.out):
            print(f"counterexample written: {path}")
    _print_outcome(report)
    return exit_status(report)


class _Progress:
    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.count = 0

    def __call__(self, result: Result) -> None:
        if self.quiet:
            return
        sys.stdout.write(_MARK[result.status])
        self.count += 1
        if self.count % 60 == 0:
            sys.stdout.write("\n")
        sys.stdout.flush()

    def done(self) -> None:
        if not self.quiet and self.count % 60:
            sys.stdout.write("\n")


def _print_outcome(report: dict[str, Any]) -> None:
    for r in report["results"]:
        if r["status"] not in ("fail", "error") or r["expected_failure"]:
            continue
        print(f"\n{r['status'].upper()}: {r['id']}  [rules: {', '.join(r['rules'])}]")
        print(f"  {r['message']}")
        if r["location"]:
            print(f"  defined at {r['location']}")
        for m in r["mismatches"][:5]:
            print(f"  {m['path']}: expected {json.dumps(m['expected'], ensure_ascii=False)[:200]}"
                  f"\n  {' ' * len(m['path'])}  observed "
                  f"{json.dumps(m['observed'], ensure_ascii=False)[:200]}")
        if r["stderr"]:
            tail = r["stderr"].strip().splitlines()[-5:]
            print("  engine stderr (last lines):")
            for line in tail:
                print(f"    {line[:200]}")
        if r["counterexample"]:
            print("  counterexample (YAML case):")
            for line in r["counterexample"].splitlines()[:80]:
                print(f"    {line}")
        print(f"  rerun: {r['rerun']}")
    for problem in report["problems"]:
        print(f"\n{problem['kind']}: {problem['message']}")
    s = report["summary"]
    print(f"\n{s['pass']} passed, {s['fail']} failed, {s['error']} errors, {s['skip']} skipped"
          f" ({s['expected_failures']} known failures) in {report['duration']:.2f}s"
          f" [profile {report['settings']['profile']}]")


# -- validate -------------------------------------------------------------------
def _cmd_validate(args: argparse.Namespace) -> int:
    from conformance._catalogue import load_catalogue

    catalogue = load_catalogue(args.cases, args.ruleset)
    for error in catalogue.errors:
        print(error, file=sys.stderr)
    uncovered = catalogue.uncovered()
    for rule in uncovered:
        print(f"{rule.path}:{rule.line}: rule {rule.id} is covered by no case "
              f"(add a case whose `rules:` names it)")
    print(f"{len(catalogue.rules)} rules, {len(catalogue.cases)} cases, "
          f"{len(catalogue.errors)} errors, {len(uncovered)} uncovered rules "
          f"[{catalogue.root}]")
    if catalogue.errors:
        return ExitCode.INVALID_CATALOGUE
    if args.strict and uncovered:
        return ExitCode.INVALID_CATALOGUE
    return ExitCode.OK


# -- report / rules / failures ----------------------------------------------------
def _read_report(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read report {path}: {exc}") from exc


def _cmd_report(args: argparse.Namespace) -> int:
    from conformance.report import render, validate_report

    report = _read_report(args.report)
    validate_report(report)
    text = render(report, args.format)
    if args.output:
        args.output.write_text(text, "utf-8")
    else:
        sys.stdout.write(text)
    return ExitCode.OK


def _cmd_rules(args: argparse.Namespace) -> int:
    from conformance.report import rule_table

    if args.report:
        rows = _read_report(args.report)["rules"]
    else:
        from conformance._catalogue import load_catalogue
        from conformance._certify import rule_rows
        from conformance._properties import properties_for
        from conformance._runner import Selection

        catalogue = load_catalogue(args.cases, args.ruleset)
        for error in catalogue.errors:
            print(error, file=sys.stderr)
        from conformance._mutation import list_mutants

        props = {p.id: list(p.rules) for rs in catalogue.rulesets for p in properties_for(rs)}
        mutants = {"mutants": list_mutants(args.ruleset)}
        rows = rule_rows(catalogue, [], Selection(rulesets=args.ruleset), mutants, props)
        for row in rows:  # no run: say "not run" rather than pretend a status
            if row["status"] == "skip":
                row["status"] = "not run"
    print(rule_table(rows))
    return ExitCode.OK


def _cmd_failures(args: argparse.Namespace) -> int:
    from conformance._knownfail import failures_list

    sys.stdout.write(failures_list(_read_report(args.report)["results"]))
    return ExitCode.OK


def _cmd_diff(args: argparse.Namespace) -> int:
    """History between runs: exit 1 when something that passed no longer does."""
    old, new = (_read_report(p) for p in (args.old, args.new))
    before = {r["id"]: r["status"] for r in old["results"]}
    after = {r["id"]: r["status"] for r in new["results"]}
    bad = ("fail", "error")
    groups = {
        "regressed": [i for i in after if after[i] in bad and before.get(i) not in bad
                      and i in before],
        "fixed": [i for i in after if before.get(i) in bad and after[i] not in bad],
        "new and failing": [i for i in after if i not in before and after[i] in bad],
        "new": [i for i in after if i not in before and after[i] not in bad],
        "gone": [i for i in before if i not in after],
    }
    for title, ids in groups.items():
        for item in sorted(ids):
            print(f"{title}: {item} ({before.get(item, '-')} -> {after.get(item, '-')})")
    old_rules = {r["id"]: r["status"] for r in old["rules"]}
    for rule in new["rules"]:
        was = old_rules.get(rule["id"])
        if was is not None and was != rule["status"]:
            print(f"rule {rule['id']}: {was} -> {rule['status']}")
    counts = ", ".join(f"{len(ids)} {title}" for title, ids in groups.items())
    print(counts)
    worse = groups["regressed"] or groups["new and failing"]
    return ExitCode.FAILURES if worse else ExitCode.OK


def _cmd_compare(args: argparse.Namespace) -> int:
    from conformance.report import _compare, validate_report

    reports = []
    for path in args.reports:
        path = path / "report.json" if path.is_dir() else path
        report = _read_report(path)
        try:
            validate_report(report)
        except ConformanceError as exc:
            raise UsageError(f"{path} is not a report.json: {exc}") from exc
        reports.append((str(path), report))
    written = _compare.write(_compare.compare(reports), args.out)
    for path in written:
        print(f"wrote {path}")
    return ExitCode.OK


def _cmd_mutants(args: argparse.Namespace) -> int:
    from conformance._mutation import list_mutants, run_mutants

    if not args.run:
        for m in list_mutants(args.ruleset):
            print(f"{m['name']:32} {', '.join(m['rules'])}\n{'':32} {m['description']}")
        return ExitCode.OK
    result = run_mutants(args.cases, args.ruleset, get_profile(args.profile), verbose=True)
    survivors = [m for m in result["mutants"] if not m["killed"]]
    print(f"mutation score {result['score']:.2%}: {len(result['mutants']) - len(survivors)} of "
          f"{len(result['mutants'])} mutants killed")
    for m in survivors:
        print(f"SURVIVED: {m['name']} (breaks {', '.join(m['rules'])})")
    return ExitCode.FAILURES if survivors else ExitCode.OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
