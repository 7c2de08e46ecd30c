"""The command line's grammar: every command, its options and their help (docs/cli.md).

`_cli` parses with it and dispatches; nothing here runs anything.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NoReturn

from conformance import __version__
from conformance._errors import ExitCode
from conformance._settings import PROFILES, default_profile_name


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad command line exits 4 (`ExitCode.USAGE`) as documented."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(ExitCode.USAGE, f"{self.prog}: error: {message}\n")


def _whole(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number, ``minimum`` or more."""
    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r}: give {minimum} or more")
        return value
    return whole


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{text!r}: give a percentage from 0 to 100")
    return value


def _shard(text: str) -> tuple[int, int]:
    """``I/N`` with 1 <= I <= N, for --shard."""
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: write the shard as I/N, e.g. 1/2") from None
    if not 1 <= i <= n:
        raise argparse.ArgumentTypeError(f"{text!r}: I must be between 1 and N")
    return i, n


#: Options several subcommands share, by flag: `add_argument`'s keywords.
_SHARED: dict[str, dict[str, Any]] = {
    "--cases": {"type": Path, "metavar": "DIR",
                "help": "catalogue folder (default: the installed ruleset packs' catalogue; "
                        "a ./cases folder is never taken implicitly)"},
    "--ruleset": {"action": "append", "metavar": "NAME", "help": "only this ruleset (repeatable)"},
    "--features": {"action": "store_true",
                   "help": "also list each case's and property's vocabulary features and the "
                           "vocabulary version it needs (a property's: from scenarios its "
                           "generators draw)"},
    "--format": {"choices": ["text", "github"], "default": None,
                 "help": "github: also print a GitHub Actions annotation (::error file=...,"
                         "line=...) per failing item (default: github when "
                         "GITHUB_ACTIONS=true, else text)"},
}


def _shared(p: argparse.ArgumentParser, *flags: str) -> None:
    for flag in flags:
        p.add_argument(flag, **_SHARED[flag])


def parser(handlers: Mapping[str, Callable[[argparse.Namespace], int]]
           ) -> argparse.ArgumentParser:
    """The command line; each command's ``func`` is ``handlers[its name]`` (`run` is
    `certify`'s)."""
    parser = _Parser(
        prog="conformance",
        description="Certify a card-game rules engine, rule by rule, against the seed rulebooks.")
    parser.add_argument("--version", action="version", version=f"conformance {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Callable[[argparse.Namespace], int],
                helptext: str) -> argparse.ArgumentParser:
        """A subcommand; ``conformance NAME --help`` starts with what it does."""
        p = sub.add_parser(name, help=helptext, description=helptext)
        p.set_defaults(func=run)
        return p

    for name, helptext in (
        ("certify", "run the catalogue and properties against an engine and write reports"),
        ("run", "the same as certify; by habit used without --out to rerun a few items"),
    ):
        p = command(name, handlers["certify"], helptext)
        p.add_argument("--engine", help="NAME[:MUTANT] (a registered engine, e.g. reference) | "
                                        "python:pkg.mod:factory | cmd:<command> (required, "
                                        "except with --list)")
        p.add_argument("--mutant", metavar="NAME",
                       help="certify the engine behaving as one of the mutants it lists "
                            "(`conformance mutants --engine SPEC`)")
        p.add_argument("--out", type=Path, help="folder for report.json, report.md, junit.xml, "
                                                "report.html, badge.json")
        _shared(p, "--cases", "--ruleset")
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
                       help="also run every mutant the engine lists (its hello's "
                            "capabilities.mutants) and add the mutation score to the report")
        p.add_argument("--all-kills", action="store_true",
                       help="with --mutation: run every item against every mutant, so each "
                            "row lists every item that kills it (slower)")
        p.add_argument("--strict-readings", action="store_true",
                       help="let items that rely on the catalogue's readings (and rules from "
                            "outside the seed) count toward the status and exit code")
        p.add_argument("--fail-under", type=_percent, metavar="N",
                       help="exit 1 when fewer than N percent of the seed rules of the "
                            "rulesets the engine claims are fully checked and passing "
                            "(coverage.py's convention; e.g. 100 for a finished engine)")
        p.add_argument("--seed", type=int, metavar="N",
                       help="seed of the properties' generated examples (default: the "
                            "profile's, 0); recorded in the report and in each rerun command")
        p.add_argument("--allow-no-verdict", action="store_true",
                       help="exit 0 rather than 5 when nothing passed or failed (an engine "
                            "author starting out, with every item still skipped)")
        p.add_argument("--update-known-failures", action="store_true",
                       help="after a reviewed catalogue or suite change: re-pin the "
                            "--known-failures file to this catalogue (its lines are kept; "
                            "lines matching no item are dropped)")
        p.add_argument("--shard", type=_shard, metavar="I/N",
                       help="run only the I-th of N shards (by a hash of each item id); the "
                            "N shard reports merged with `conformance merge` are the whole run")
        p.add_argument("--jobs", "-j", type=_whole(1), default=1, metavar="N",
                       help="run the items, then the mutants, in N processes, each with its "
                            "own engine (default 1); the report is the same as with 1")
        p.add_argument("--memory-limit", type=int, metavar="MB",
                       help="address-space limit for a cmd: engine")
        p.add_argument("--max-reply-bytes", type=int, metavar="N",
                       help="longest reply line a cmd: engine may write (default 1000000)")
        p.add_argument("-q", "--quiet", action="store_true",
                       help="no progress (otherwise: a bar per phase on a terminal, "
                            "one line per phase in a log); with --list, the ids only")
        p.add_argument("--last-failed", "--lf", action="store_true",
                       help="rerun only the items that failed or errored in the previous "
                            "run's report (--out DIR/report.json); with none there, run "
                            "everything (as pytest does)")
        p.add_argument("-x", "--exitfirst", action="store_true",
                       help="stop at the first counted failure or error; the report is "
                            "partial (complete: false) and the verdict that failure's")
        p.add_argument("--list", action="store_true",
                       help="print the ids of the items that would run, with their rules "
                            "and features, and run nothing (no --engine needed)")
        p.add_argument("-v", "--verbose", action="store_true",
                       help="one line per item as it finishes: status, id, duration")
        p.add_argument("--durations", type=_whole(0), metavar="N",
                       help="list the N slowest items in the summary (0: every item)")
        p.add_argument("--transcript", nargs="?", const=True, type=Path, metavar="DIR",
                       help="write every item's protocol exchange (ID.requests.jsonl and "
                            "ID.replies.jsonl, to replay by hand) into DIR (default: "
                            "--out DIR/transcripts); a failing item's is always written to "
                            "--out DIR/counterexamples")
        _shared(p, "--format")

    p = command("validate", handlers["validate"],
                "check the catalogue: schemas, ids, rule references, coverage")
    _shared(p, "--cases", "--ruleset")
    p.add_argument("--strict", action="store_true", help="also fail when a rule has no case")
    _shared(p, "--features")

    p = command("report", handlers["report"], "re-render a stored report.json")
    p.add_argument("report", type=Path, help="a report.json written by certify --out")
    p.add_argument("--format", choices=["json", "md", "html", "junit", "badge", "github"],
                   default="md", help="github: one ::error annotation per failing item")
    p.add_argument("--output", type=Path, help="write here instead of stdout")

    p = command("rules", handlers["rules"], "print the rule-coverage table")
    _shared(p, "--cases", "--ruleset")
    p.add_argument("--report", type=Path, help="take statuses from this report.json")
    _shared(p, "--features")

    p = command("schema", handlers["schema"], "write a ruleset's vocabulary JSON Schema as one "
                                       "version had it, for engines to validate their inputs")
    p.add_argument("--ruleset", required=True, metavar="NAME")
    p.add_argument("--vocabulary", type=_whole(1), metavar="N",
                   help="the vocabulary version (default: the latest)")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for <ruleset>-vocabulary-<N>.json")

    p = command("failures", handlers["failures"],
                "print a report's failures as a known-failures file")
    p.add_argument("report", type=Path, help="a report.json (or the folder holding it)")

    p = command("diff", handlers["diff"], "compare two reports: what regressed, what was fixed")
    p.add_argument("old", type=Path, help="the earlier report.json (or its folder): the baseline")
    p.add_argument("new", type=Path, help="the later report.json (or its folder)")
    p.add_argument("--markdown", type=Path, metavar="FILE",
                   help="also write the diff as Markdown (for a CI job summary)")
    p.add_argument("--allow-lost-coverage", action="store_true",
                   help="items that passed and now are skipped or gone are not regressions")
    p.add_argument("--fail-under", type=_percent, metavar="N",
                   help="also exit 1 when NEW has fewer than N percent of the claimed seed "
                        "rules fully checked and passing (as certify --fail-under)")

    p = command("gate", handlers["gate"], "the CI gate: summarize a certification and diff it "
                                   "against a baseline; exit 1 only on regressions")
    p.add_argument("baseline", type=Path, help="the last release's report.json (or its folder); "
                                               "when missing, the gate passes and says how to "
                                               "commit REPORT as the baseline")
    p.add_argument("report", type=Path, help="this run's report.json (or its folder)")
    p.add_argument("--summary", type=Path, metavar="FILE",
                   help="also write the job summary (Markdown) here; it is always appended "
                        "to $GITHUB_STEP_SUMMARY when that is set")
    p.add_argument("--allow-lost-coverage", action="store_true",
                   help="items that passed and now are skipped or gone are not regressions")
    p.add_argument("--fail-under", type=_percent, metavar="N",
                   help="also exit 1 when REPORT has fewer than N percent of the claimed seed "
                        "rules fully checked and passing (with or without a baseline)")
    _shared(p, "--format")

    p = command("compare", handlers["compare"], "engines side by side: rules as rows, engines as "
                                         "columns, with a pass-rate chart (HTML and Markdown)")
    p.add_argument("reports", type=Path, nargs="+", metavar="REPORT",
                   help="report.json files (or folders holding one); shard reports of one "
                        "engine are merged first")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for compare.html and compare.md")

    p = command("history", handlers["history"], "one engine's releases side by side: per item, "
                                         "the release that fixed or broke it (HTML and Markdown)")
    p.add_argument("reports", type=Path, nargs="+", metavar="REPORT",
                   help="report.json files (or folders holding one), oldest release first")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for history.html and history.md")

    p = command("index", handlers["index"], "one page listing published reports: verdict, seed "
                                     "rules, coverage, top skip reasons, links")
    p.add_argument("reports", type=Path, nargs="+", metavar="REPORT",
                   help="report.json files (or folders holding one); each links its report.html "
                        "and, when there, its compare/ and the nearest history/ page")
    p.add_argument("--out", type=Path, required=True, metavar="FILE",
                   help="the index page to write (index.html; index.md beside it)")

    p = command("merge", handlers["merge"], "combine the reports of --shard runs into one report "
                                     "(all formats)")
    p.add_argument("reports", type=Path, nargs="+", metavar="REPORT",
                   help="report.json files (or folders holding one) of one engine's shards")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for the merged report.json, report.md, junit.xml, report.html "
                        "and badge.json")
    _shared(p, "--format")

    p = command("mutants", handlers["mutants"], "list an engine's mutants, or run them "
                                         "(--run) and print which the suite kills")
    _shared(p, "--cases", "--ruleset")
    p.add_argument("--engine", default="reference", metavar="SPEC",
                   help="the engine whose mutants to list or run (default: reference)")
    p.add_argument("--run", action="store_true", help="run the suite against every mutant")
    p.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    p.add_argument("--jobs", "-j", type=_whole(1), default=1, metavar="N",
                   help="run the mutants in N processes (default 1)")

    p = command("init", handlers["init"], "write an adapter skeleton that certifies at once "
                                   "(every item skipped until you map it), and the next steps")
    p.add_argument("folder", type=Path, metavar="DIR", help="where to write it (created)")
    p.add_argument("--lang", choices=["python", "node"], default="python",
                   help="python: an in-process adapter (engine_adapter.py); node: a JSON Lines "
                        "subprocess (engine.js). Default python")
    p.add_argument("--ruleset", action="append", default=None, metavar="NAME",
                   help="a ruleset the engine claims (repeatable; default: every installed one)")
    p.add_argument("--force", action="store_true", help="overwrite files already there")

    p = command("doctor", handlers["doctor"], "start the engine and check, in seconds, its hello, "
                                       "rulesets, one start/act/observe round trip per ruleset "
                                       "and its stdout; prints a checklist with a fix per problem")
    p.add_argument("--engine", required=True,
                   help="NAME[:MUTANT] (a registered engine, e.g. reference) | "
                        "python:pkg.mod:factory | cmd:<command>")
    p.add_argument("--cases", type=Path, metavar="DIR",
                   help="catalogue folder the round trips take their first case from "
                        "(default: the installed ruleset packs' catalogue)")
    p.add_argument("--timeout", type=float, default=5.0,
                   help="seconds per reply and for the start (default 5)")
    # --help lists the first steps first: write an adapter (init), check it (doctor)
    first = ("init", "doctor")
    sub._choices_actions.sort(key=lambda a: first.index(a.dest) if a.dest in first else 2)
    return parser
