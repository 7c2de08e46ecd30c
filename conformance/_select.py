"""pytest's habits on ``certify``/``run``: ``--last-failed``, ``--list`` and ``-x``.

Each is a small decision about *which* items run, kept out of the runner:
``--last-failed`` turns the previous report into exact ids, ``--list`` shows
the items a selection holds without starting an engine, and `stops_run` says
which result ends a ``-x`` run.
"""

from __future__ import annotations

import fnmatch
import glob
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from conformance import _vocabulary_gate
from conformance._catalogue import Case
from conformance._errors import UsageError
from conformance._files import read_report_text
from conformance._results import Result
from conformance._verdict import counts

if TYPE_CHECKING:
    from conformance._knownfail import KnownFailures
    from conformance._properties import Property

#: The statuses ``--last-failed`` reruns and ``-x`` stops at.
NOT_PASSING = ("fail", "error")


def last_failed(out: Path, known_ids: Sequence[str],
                patterns: Sequence[str]) -> tuple[list[str] | None, str]:
    """What ``--last-failed`` selects, and the one line that says why: the items that
    failed or errored in ``out/report.json``, still in the catalogue and matching
    ``patterns`` (the run's own ``--select``, if any), as exact ``--select`` patterns.

    As pytest does, a missing report, or one with nothing failing, runs
    everything (None, with a note saying so) rather than nothing.
    """
    def everything(why: str) -> tuple[None, str]:
        return None, f"--last-failed: {why}; running everything"

    path = out / "report.json"
    if not path.exists() and not path.is_symlink():
        return everything(f"no previous report in {path}")
    try:
        report = json.loads(read_report_text(path))
        previous = [r["id"] for r in report["results"] if r["status"] in NOT_PASSING]
    except FileNotFoundError:
        return everything(f"no previous report in {path}")
    except (OSError, ValueError, KeyError, TypeError, UsageError) as exc:
        return everything(f"cannot read the previous report {path} ({exc})")
    except RecursionError:   # hostile or broken: nested too deeply for json to read
        return everything(f"cannot read the previous report {path} (nested too deeply)")
    if not previous:
        return everything(f"nothing failed in {path}")
    known = set(known_ids)
    wanted = [i for i in previous if i in known
              and (not patterns or any(fnmatch.fnmatchcase(i, p) for p in patterns))]
    gone = [i for i in previous if i not in known]
    left = f" ({len(gone)} no longer in the catalogue: {', '.join(gone[:3])})" if gone else ""
    if not wanted:
        return everything(f"none of the {len(previous)} item(s) that failed in {path} "
                          f"is selected{left}")
    # ids are matched as globs: escape them, so `[` or `*` in an id matches only itself
    return ([glob.escape(i) for i in wanted],
            f"--last-failed: rerunning the {len(wanted)} item(s) that failed or errored in "
            f"{path}{left}")


def stops_run(result: Result, known: KnownFailures | None, strict: bool) -> bool:
    """Whether ``-x`` ends the run at this result: a failure or error that counts toward
    the verdict.  A known failure, or an item that does not count (a reading without
    --strict-readings, a comparison with the reference engine), does not stop it,
    as an xfail does not stop ``pytest -x``."""
    if result.status not in NOT_PASSING or not counts(result.basis, strict):
        return False
    return known is None or not known.matches(result.id)


def features(item: Case | Property) -> tuple[list[str], _vocabulary_gate.Needs]:
    """The vocabulary features ``item`` uses and the vocabulary version it needs (a
    property's: from scenarios its generators draw)."""
    if isinstance(item, Case):
        return _vocabulary_gate.describe(item)
    return _vocabulary_gate.sampled(item)


def listing(items: Sequence[Case | Property]) -> list[str]:
    """``--list``: one line per item that would run, with its rules and features, then
    how many items were collected, in pytest's words."""
    lines = [f"{item.id}  [rules: {', '.join(item.rules)}]  "
             f"[features: {', '.join(features(item)[0]) or '-'}]" for item in items]
    return [*lines, count_line(items)]


def count_line(items: Sequence[Case | Property]) -> str:
    """How many items ``--list`` collected, in pytest's words."""
    cases = sum(isinstance(i, Case) for i in items)
    return (f"{len(items)} item(s) would run ({cases} cases, "
            f"{len(items) - cases} properties); nothing was run")
