"""``conformance``: the command line, a thin layer over `_certify` and `report`.

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
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from conformance import __version__, _catalogue, _doctor, _errors, _lifetime, vocabulary
from conformance._cache import hypothesis_home
from conformance._catalogue import Case, Catalogue
from conformance._discovery import find_ruleset, properties_for, ruleset_names, unknown_ruleset
from conformance._engine import Connection, EngineFault
from conformance._errors import ConformanceError, ExitCode, InvalidCatalogue, UsageError
from conformance._init import LANGUAGES, init
from conformance._knownfail import KnownFailures, failures_list
from conformance._progress import Progress, slowest_lines, status_label
from conformance._report import Report
from conformance._select import count_line, features, last_failed, listing
from conformance._settings import PROFILES, default_profile_name, get_profile
from conformance._shown import log_safe, shown, shown_lines
from conformance._transcript import TranscriptSink, place, replay_hint
from conformance._verdict import (
    counts,
    filters_applied,
    group,
    skip_kinds,
    skip_reasons,
    uncounted,
)

if TYPE_CHECKING:
    from conformance._properties import Property
    from conformance._results import Result

#: Skip reasons listed in the terminal; the reports list them all.
TOP_SKIP_REASONS = 5


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad command line exits 4 (`ExitCode.USAGE`) as documented."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(ExitCode.USAGE, f"{self.prog}: error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):   # a lone surrogate is printed as \ud800
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")
    args = _parser().parse_args(argv)
    from conformance._runner import clear_stop

    clear_stop()
    global _signals
    _signals = 0
    previous = {sig: signal.signal(sig, _interrupt) for sig in STOPPING}
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
        for sig, handler in previous.items():
            signal.signal(sig, handler)
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


#: The signals that stop a run as Ctrl-C does (partial report, exit 130): an engine,
#: a hung-up terminal or a CI runner may send any of them, and each one's default
#: action would end the harness at once with no report.
STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1,
            signal.SIGUSR2, signal.SIGALRM)


#: SIGINT/SIGTERM taken since `main` began; and, while the reports are written, the
#: signals held until they are (`_holding_signals`).
_signals = 0
_held: list[int] | None = None


def _interrupt(signum: int, frame: Any) -> None:
    """SIGINT, SIGTERM and the rest of `STOPPING` stop a run in any phase: the runner
    is told (in case an engine swallows the KeyboardInterrupt), the engine is
    stopped and a partial
    report is written.  A second signal while it stops is only noted, so a double
    Ctrl-C still leaves the report (a third abandons it); while the reports are
    written every signal is held until they are."""
    from conformance._runner import request_stop

    global _signals
    if _held is not None:
        _held.append(signum)
        return
    _signals += 1
    if _signals == 2:
        print("conformance: stopping; writing the partial report (signal again to abandon "
              "it)", file=sys.stderr, flush=True)
        return
    request_stop()
    raise KeyboardInterrupt


@contextlib.contextmanager
def _holding_signals() -> Iterator[list[int]]:
    """SIGINT and SIGTERM are noted, not raised, inside: the files being written are
    finished first; the caller then sees which signals came."""
    global _held
    held: list[int] = []
    _held = held
    try:
        yield held
    finally:
        _held = None


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


def _parser() -> argparse.ArgumentParser:
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
        p = command(name, _cmd_certify, helptext)
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

    p = command("validate", _cmd_validate,
                "check the catalogue: schemas, ids, rule references, coverage")
    _shared(p, "--cases", "--ruleset")
    p.add_argument("--strict", action="store_true", help="also fail when a rule has no case")
    _shared(p, "--features")

    p = command("report", _cmd_report, "re-render a stored report.json")
    p.add_argument("report", type=Path, help="a report.json written by certify --out")
    p.add_argument("--format", choices=["json", "md", "html", "junit", "badge", "github"],
                   default="md", help="github: one ::error annotation per failing item")
    p.add_argument("--output", type=Path, help="write here instead of stdout")

    p = command("rules", _cmd_rules, "print the rule-coverage table")
    _shared(p, "--cases", "--ruleset")
    p.add_argument("--report", type=Path, help="take statuses from this report.json")
    _shared(p, "--features")

    p = command("schema", _cmd_schema, "write a ruleset's vocabulary JSON Schema as one "
                                       "version had it, for engines to validate their inputs")
    p.add_argument("--ruleset", required=True, metavar="NAME")
    p.add_argument("--vocabulary", type=_whole(1), metavar="N",
                   help="the vocabulary version (default: the latest)")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for <ruleset>-vocabulary-<N>.json")

    p = command("failures", _cmd_failures, "print a report's failures as a known-failures file")
    p.add_argument("report", type=Path, help="a report.json (or the folder holding it)")

    p = command("diff", _cmd_diff, "compare two reports: what regressed, what was fixed")
    p.add_argument("old", type=Path, help="the earlier report.json (or its folder): the baseline")
    p.add_argument("new", type=Path, help="the later report.json (or its folder)")
    p.add_argument("--markdown", type=Path, metavar="FILE",
                   help="also write the diff as Markdown (for a CI job summary)")
    p.add_argument("--allow-lost-coverage", action="store_true",
                   help="items that passed and now are skipped or gone are not regressions")
    p.add_argument("--fail-under", type=_percent, metavar="N",
                   help="also exit 1 when NEW has fewer than N percent of the claimed seed "
                        "rules fully checked and passing (as certify --fail-under)")

    p = command("gate", _cmd_gate, "the CI gate: summarize a certification and diff it "
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

    p = command("compare", _cmd_compare, "engines side by side: rules as rows, engines as "
                                         "columns, with a pass-rate chart (HTML and Markdown)")
    p.add_argument("reports", type=Path, nargs="+", metavar="REPORT",
                   help="report.json files (or folders holding one); shard reports of one "
                        "engine are merged first")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for compare.html and compare.md")

    p = command("merge", _cmd_merge, "combine the reports of --shard runs into one report "
                                     "(all formats)")
    p.add_argument("reports", type=Path, nargs="+", metavar="REPORT",
                   help="report.json files (or folders holding one) of one engine's shards")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for the merged report.json, report.md, junit.xml, report.html "
                        "and badge.json")
    _shared(p, "--format")

    p = command("mutants", _cmd_mutants, "list an engine's mutants, or run them "
                                         "(--run) and print which the suite kills")
    _shared(p, "--cases", "--ruleset")
    p.add_argument("--engine", default="reference", metavar="SPEC",
                   help="the engine whose mutants to list or run (default: reference)")
    p.add_argument("--run", action="store_true", help="run the suite against every mutant")
    p.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    p.add_argument("--jobs", "-j", type=_whole(1), default=1, metavar="N",
                   help="run the mutants in N processes (default 1)")

    p = command("init", _cmd_init, "write an adapter skeleton that certifies at once "
                                   "(every item skipped until you map it), and the next steps")
    p.add_argument("folder", type=Path, metavar="DIR", help="where to write it (created)")
    p.add_argument("--lang", choices=["python", "node"], default="python",
                   help="python: an in-process adapter (engine_adapter.py); node: a JSON Lines "
                        "subprocess (engine.js). Default python")
    p.add_argument("--ruleset", action="append", default=None, metavar="NAME",
                   help="a ruleset the engine claims (repeatable; default: every installed one)")
    p.add_argument("--force", action="store_true", help="overwrite files already there")

    p = command("doctor", _cmd_doctor, "start the engine and check, in seconds, its hello, "
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


def _check_out(out: Path, transcripts: Path | None = None) -> None:
    """--out must be a folder we can write, checked before anything runs; and no
    file the run writes or deletes there (nor in ``transcripts``) may be a symlink."""
    from conformance import _files
    from conformance.report import FILENAMES

    if out.is_symlink() and not out.exists():
        raise UsageError(f"--out {out} is a symlink to {os.readlink(out)}, which does not "
                         "exist; create that folder, or give another --out")
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: is a file, not a folder; name a folder for the reports")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        raise UsageError(f"--out {out}: cannot write there ({exc.strerror or exc}); "
                         "name a folder you can write") from None
    for name in FILENAMES.values():
        _files.refuse_link(out / name)
    for folder in (out / "counterexamples", transcripts):
        if folder is not None:
            _files.refuse_link(folder)
            if folder.is_dir():
                for entry in folder.iterdir():
                    if _files.is_own(entry.name):
                        _files.refuse_link(entry)


#: The lock file in --out that keeps two runs from writing one folder at once.
LOCK = ".conformance.lock"


@contextlib.contextmanager
def _locked(out: Path | None) -> Iterator[None]:
    """Hold ``out/.conformance.lock`` (an flock, which ends with the process, however
    it ends) for the run; a second run on the same --out is a usage error naming
    the first run's pid.  The file stays: removing it would let a third run lock a
    new file while the second still holds the old one."""
    if out is None:
        yield
        return
    import fcntl

    path = out / LOCK
    from conformance import _files

    _files.refuse_link(path)
    import stat

    flags = (os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK
             | os.O_CLOEXEC)
    try:   # non-blocking: a fifo there must not hang the open
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        raise UsageError(f"cannot take the lock {path}: {exc.strerror}; it must be a "
                         "regular file (remove what is there, or give another --out)") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(f"cannot take the lock {path}: it is not a regular file; remove "
                         "what is there, or give another --out")
    with open(fd, "a+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            pid = handle.read().strip()
            raise UsageError(f"--out {out} is in use by another conformance run"
                             f"{f' (pid {pid})' if pid.isdigit() else ''} (it holds {path}); "
                             "wait for it to end, or give another --out") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        yield


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
    previous: dict[str, Any] | None = None   # --last-failed: the report the rest is carried from
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
        _check_out(args.out, _transcript_folder(args))
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

    def run() -> dict[str, Any]:   # the run, with a progress display of its own
        progress = Progress(quiet=args.quiet, together=args.jobs > 1, verbose=args.verbose,
                            uncounted=not_counted)
        report = certify(config, on_result=progress, on_start=_announce,
                         on_mutant=progress.mutant, on_plan=progress.planned, suite=suite)
        progress.finish()
        return report

    with (_locked(args.out), tempfile.TemporaryDirectory(prefix="conformance-") as staging,
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
    _check_out(args.out)
    with _locked(args.out):
        return _conclude(merged, args.out, args.format)


def _conclude(report: dict[str, Any], out: Path | None, fmt: str | None,
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

    _print_outcome(report, durations=durations)
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

    with _holding_signals() as held:   # a signal now would lose the report being written
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


def _place_transcripts(report: dict[str, Any], staging: Path,
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


def _print_outcome(report: dict[str, Any], durations: int | None = None) -> None:
    """The terminal summary, in the order docs/cli.md gives ("What a verdict rests on")."""
    from conformance.report._text import (
        counts_line,
        coverage_line,
        differences,
        needs_attention,
        too_few_lines,
    )

    verdict = report["verdict"]
    handshake = [p for p in report["problems"] if p["kind"] == "handshake"]
    for problem in handshake:
        print(f"\nENGINE NOT CERTIFIED: {shown(problem['message'], 2000)}")
    # an engine that never started: one cause, not one error per item
    attention = {} if handshake else needs_attention(report)
    attention.pop("Unexpected passes", None)  # listed among the problems, with the fix
    for title, results in attention.items():
        results = [r for r in results if not r["expected_failure"]]
        if results and title not in ("Failures", "Errors"):
            print(f"\n{title.upper()} (information, not a verdict):")
        if title == "Errors":
            _print_errors(results, report["engine"])
            continue
        strict = report["settings"]["strict_readings"]
        for r in results:
            _print_result(r, report["engine"], "" if title == "Failures" else
                          uncounted(r["status"], r["basis"], strict))
    if handshake and report["results"]:
        print(f"\nevery item ({len(report['results'])}) is an error: the engine never ran")
    found = differences(report)
    if found:
        print(f"\ndiffers from the reference engine ({len(found)} item(s); "
              "information, not a verdict):")
        for r in found:
            print(f"  {shown(r['id'], 300)}: {shown(r['message'], 200)}")
            for m in r["mismatches"][:10]:
                print(f"    {shown(m['path'], 200)}: reference {_json(m['expected'])}, "
                      f"engine {_json(m['observed'])}")
    reasons = skip_reasons(report["results"])
    if reasons:
        print(f"\nskipped, by reason (top {min(len(reasons), TOP_SKIP_REASONS)} "
              f"of {len(reasons)}):")
        for reason, ids in reasons[:TOP_SKIP_REASONS]:
            print(f"  {len(ids):4}  {shown(reason, 160)}")
        kinds = skip_kinds(report["results"])
        if kinds:
            print("skipped, by kind: " + ", ".join(f"{n} {kind}" for kind, n in kinds))
    few = too_few_lines(report)
    if few:
        print("\nnot checked by a passing property, too few of its examples exercised the "
              "rule (docs/cli.md, 'Too few examples'):")
        for line in few:
            print(f"  {shown(line, 300)}")
    for problem in report["problems"]:
        if problem["kind"] != "handshake":
            print(f"\n{shown(problem['kind'], 50)}: {shown(problem['message'], 2000)}")
    if durations is not None:
        print("", *(shown(line, 400) for line in slowest_lines(report["results"], durations)),
              sep="\n")
    mutation = report["mutation"]
    score = (f", mutation score {mutation['score']:.0%} of {len(mutation['mutants'])} mutants"
             f" ({mutation.get('certified_score', mutation['score']):.0%} caught by the "
             "certification)" if mutation else "")
    print(f"\n{counts_line(report)}{score} in {report['duration']:.2f}s"
          f" [profile {shown(report['settings']['profile'], 50)}]")
    tally = verdict["rules"]
    print(f"seed rules passed: {tally['seed']['pass']}/{tally['seed']['total']}; "
          f"readings followed: {tally['reading']['pass']}/{tally['reading']['total']}"
          f"{' (strict)' if verdict['strict_readings'] else ' (information)'}; "
          f"context rules: {tally['context']['pass']}/{tally['context']['total']}")
    drift = vocabulary.drift_line(report["results"], report["engine"])
    if drift:
        print(shown(drift, 1000))
    print(f"verdict: {verdict['status']} (exit {verdict['exit_code']}): "
          f"{shown(verdict['message'], 2000)}")
    line = coverage_line(report)
    if line:
        print(f"coverage: {shown(line, 2000)}")


def _print_errors(results: list[dict[str, Any]], engine: dict[str, Any]) -> None:
    """Errors, one block per distinct message: 136 items failing on one NameError in
    the adapter is one thing to fix, not 136."""
    by_message: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        by_message.setdefault(r["message"], []).append(r)
    for message, same in sorted(by_message.items(), key=lambda kv: -len(kv[1])):
        if len(same) == 1:
            _print_result(same[0], engine)
            continue
        first = same[0]
        print(f"\nERROR: {len(same)} items: {shown(message, 300)}")
        print(f"  first: {shown(first['id'], 300)}"
              + (f" (defined at {shown(first['location'], 300)})" if first["location"] else ""))
        others = shown(", ".join(r["id"] for r in same[1:6]), 1000)
        print(f"  also: {others}{', ...' if len(same) > 6 else ''}")
        _print_stderr(first["stderr"], "engine stderr (last lines, first item)")
        hint = vocabulary.drift_hint(first, engine)
        if hint:
            print(f"  {hint}")
        print(f"  rerun the first: {shown(first['rerun'], 1000)}")


def _print_result(r: dict[str, Any], engine: dict[str, Any], why: str = "") -> None:
    """One failure or error; ``why`` says why it does not count (`uncounted`)."""
    print(f"\n{status_label(r['status'], why)}: {shown(r['id'], 300)}  "
          f"[rules: {shown(', '.join(r['rules']), 300)}]")
    if not r["mismatches"]:  # otherwise the message is the first mismatch, listed below
        print(f"  {shown(r['message'], 2000)}")
    if r["location"]:
        print(f"  defined at {shown(r['location'], 300)}")
    expected = "reference" if r["basis"] == "reference" else "expected"
    for m in r["mismatches"][:10]:
        path = shown(m["path"], 200)
        print(f"  {path}: {expected} {_json(m['expected'])}"
              f"\n  {' ' * len(path)}  observed {_json(m['observed'])}")
    if len(r["mismatches"]) > 10:
        print(f"  ... and {len(r['mismatches']) - 10} more in report.json")
    _print_stderr(r["stderr"], "engine stderr (last lines)")
    if r["counterexample"]:
        print("  counterexample (YAML case):")
        for line in r["counterexample"].splitlines()[:80]:
            print(f"    {shown(line, 500)}")
    hint = vocabulary.drift_hint(r, engine)   # failing on words newer than the engine?
    if hint:
        print(f"  {hint}")
    print(f"  rerun: {shown(r['rerun'], 1000)}")


def _print_stderr(stderr: str, title: str) -> None:
    """The last lines of an item's engine stderr, if it wrote any."""
    if stderr:
        print(f"  {title}:")
        for line in shown_lines(stderr, 5, 200):
            print(f"    | {line}")


def _json(value: Any) -> str:
    """An engine's value as JSON, on one line and safe to print."""
    return shown(json.dumps(value, ensure_ascii=False), 200)


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
        mutants = {"mutants": list_mutants(args.ruleset)}
        rows = rule_rows(catalogue, [], Selection(rulesets=args.ruleset), mutants, props)
        for row in rows:  # no run: say "not run" rather than pretend a status
            if row["status"] == "skip":
                row["status"] = "not run"
    print(rule_table(rows))
    if args.features:
        _print_features(catalogue or _catalogue.load_catalogue(args.cases, args.ruleset))
    return ExitCode.OK


def _shown_row(row: dict[str, Any]) -> dict[str, Any]:
    """A rule row of a report, each text in it `shown` (one line, safe to print)."""
    def safe(value: Any) -> Any:
        if isinstance(value, str):
            return shown(value, 300)
        if isinstance(value, list):
            return [safe(v) for v in value]
        return value
    return {key: safe(value) for key, value in row.items()}


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


def _read_report(path: Path) -> dict[str, Any]:
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
    """History between runs (docs/cli.md): exit 1 when an item the verdict rests on
    regressed; items that do not count in NEW are listed as information only."""
    old, new = _read_report(args.old), _read_report(args.new)
    warnings = _diff_warnings(old, new)
    for warning in warnings:
        print(f"warning: {shown(warning, 1000)}")
    strict = new["settings"]["strict_readings"]
    before = {r["id"]: r["status"] for r in old["results"]}
    after = {r["id"]: r["status"] for r in new["results"]}
    counted = {r["id"] for r in new["results"] if counts(r["basis"], strict)}
    bad = ("fail", "error")
    changed = {
        "regressed": [i for i in after if after[i] in bad and i in before
                      and before[i] not in bad],
        "lost coverage": [i for i in before if before[i] == "pass"
                          and after.get(i, "gone") in ("skip", "gone")],
        "fixed": [i for i in after if before.get(i) in bad and after[i] not in bad],
        "new and failing": [i for i in after if i not in before and after[i] in bad],
        "new": [i for i in after if i not in before and after[i] not in bad],
        "gone": [i for i in before if i not in after and before[i] != "pass"],
    }
    groups: dict[str, list[str]] = {}
    for title, ids in changed.items():
        groups[title] = [i for i in ids if i in counted or i not in after]
        info = [i for i in ids if i in after and i not in counted]
        if info:
            groups[f"{title} (information: not counted)"] = info
    lines = [(title, item, before.get(item, "-"), after.get(item, "-"))
             for title, ids in groups.items() for item in sorted(ids)]
    old_rules = {r["id"]: r["status"] for r in old["rules"]}
    rule_changes = [(_rule_kind(r["kind"]), r["id"], old_rules[r["id"]], r["status"])
                    for r in new["rules"]   # a rule new in NEW is no change
                    if old_rules.get(r["id"], r["status"]) != r["status"]]
    for title, item, was, now in lines:
        print(f"{title}: {shown(item, 300)} ({shown(was, 20)} -> {shown(now, 20)})")
    for kind, rule_id, was, now in rule_changes:
        print(f"{shown(kind, 20)} {shown(rule_id, 300)}: {shown(was, 20)} -> {shown(now, 20)}")
    tally = ", ".join(f"{len(ids)} {title}" for title, ids in groups.items())
    print(tally)
    lost = [] if args.allow_lost_coverage else groups["lost coverage"]
    regressions = len(groups["regressed"] + groups["new and failing"] + lost)
    worse = regressions > 0
    if lost:
        print(f"{len(lost)} item(s) that passed no longer ran (skipped or gone): lost coverage "
              "is a regression; pass --allow-lost-coverage if it was meant")
    floor = _below_floor(new, args.fail_under)
    if floor:
        warnings.append(floor)
        worse = True
    if args.markdown:
        _write_diff_markdown(args, regressions, groups["lost coverage"], warnings, tally,
                             [("change | item", lines), ("kind | rule", rule_changes)])
    return ExitCode.FAILURES if worse else ExitCode.OK


def _below_floor(report: dict[str, Any], fail_under: float | None) -> str:
    """Under ``--fail-under``: why (printed, and returned for the Markdown); else ""."""
    percent = report["verdict"].get("coverage", {}).get("percent", 0.0)
    if fail_under is None or percent >= fail_under:
        return ""
    print(f"coverage {percent:g}% of the claimed seed rules checked, below --fail-under "
          f"{fail_under:g}")
    return f"coverage {percent:g}% is below --fail-under {fail_under:g}"


def _cmd_gate(args: argparse.Namespace) -> int:
    """docs/ci.md: the run's summary, its annotations, and `diff` against the baseline
    (or, with none yet, how to commit one: nothing to regress against, exit 0)."""
    from conformance.report import _gate, _github

    path = _report_path(args.report)
    report = _read_report(args.report)
    baseline = _report_path(args.baseline)
    if _github.wanted(args.format):
        sys.stdout.write(_github.render(report))
    lines = _gate.summary(report, path)
    print(f"verdict: {shown(_gate.verdict_line(report), 2000)}")
    if baseline.exists():
        with tempfile.TemporaryDirectory() as tmp:   # `diff`, as its command line has it
            diffed = _parser().parse_args([
                "diff", "--markdown", str(Path(tmp) / "diff.md"),
                *(["--allow-lost-coverage"] if args.allow_lost_coverage else []),
                *(["--fail-under", str(args.fail_under)] if args.fail_under is not None else []),
                "--", str(args.baseline), str(args.report)])
            status = _cmd_diff(diffed)
            lines.append(diffed.markdown.read_text("utf-8"))
    else:
        print(_gate.bootstrap_text(baseline, path), end="")
        floor = _below_floor(report, args.fail_under)
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


def _rule_kind(kind: str) -> str:
    """How diff names a rule of this kind: ``rule`` (a seed rule), ``reading`` or ``context``."""
    return "rule" if group(kind) == "seed" else group(kind)


def _diff_warnings(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What makes two reports not like for like: another engine, catalogue or filters."""
    warnings = []
    for what, get in (("engines", lambda r: r["engine"].get("name") or r["engine"]["spec"]),
                      ("catalogue digests", lambda r: r["suite"]["catalogue_digest"]),
                      ("filters", lambda r: filters_applied(r["settings"]["filters"]))):
        if get(old) != get(new):
            warnings.append(f"the reports differ in {what} ({get(old)!r} vs {get(new)!r}): "
                            "items may differ for that reason, not for the engine's")
    return warnings


def _write_diff_markdown(args: argparse.Namespace, regressions: int, lost: list[str],
                         warnings: list[str], tally: str,
                         tables: Sequence[tuple[str, Sequence[tuple[Any, ...]]]]) -> None:
    """The diff for a CI job summary: the outcome first, then what changed."""
    from conformance.report._markdown import inline

    head = f"**{regressions} regression(s)**" if regressions else "**No regressions**"
    out = ["## Conformance diff", ""]
    out += [f"> **Warning:** {inline(w, 1000)}" for w in warnings]
    out += ["", f"{head} against `{inline(str(args.old))}` "
            f"(new: `{inline(str(args.new))}`): {tally}.", ""]
    if lost:
        how = "allowed by --allow-lost-coverage" if args.allow_lost_coverage else "a regression"
        out += [f"### Lost coverage ({len(lost)} item(s), {how})", "",
                "Items that passed before and no longer ran (skipped, or gone from the new "
                "report):", ""]
        out += [f"- `{inline(i)}`" for i in sorted(lost)]
        out.append("")
    for columns, rows in tables:
        if rows:
            out += [f"| {columns} | before | after |", "|---|---|---|---|"]
            out += [f"| {inline(a)} | `{inline(b)}` | {w} | {n} |" for a, b, w, n in rows]
            out.append("")
    try:
        args.markdown.write_text("\n".join(out), "utf-8")
    except OSError as exc:
        raise UsageError(f"--markdown {args.markdown}: cannot write there ({exc})") from None


def _cmd_compare(args: argparse.Namespace) -> int:
    from conformance.report import _compare

    reports = [(str(_report_path(p)), _read_report(p)) for p in args.reports]
    for path in _compare.write(_compare.compare(reports), args.out):
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

    def show(row: dict[str, Any]) -> None:
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
    for m in survivors:
        print(f"SURVIVED: {shown(m['name'], 100)} (breaks {shown(', '.join(m['rules']), 300)})")
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
