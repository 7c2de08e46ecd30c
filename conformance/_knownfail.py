"""Known-failure lists: one parser, strict about stale entries.

An engine pins the failures it knows about (like Test262's per-engine lists and
toml-test's ``-skip``): a listed failure does not fail the run, a listed item
that now passes fails it (so the list stays honest), and an id that matches
nothing is warned about.  The file (docs/cli.md, ``failures``) has one id or
fnmatch glob per line and ``#`` comments; ``#!`` lines pin it to the catalogue
and suite version, and each entry to its item's id and rules, so that a run on
another catalogue names what a reviewer should look at before re-pinning::

    #! catalogue sha256:0c7d07...
    #! suite 0.1.0
    vision/qa-269/x-equals-nodes-paid  #! 5d41402a  # fail: step 1: ...
"""

from __future__ import annotations

import dataclasses
import fnmatch
import hashlib
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from conformance._errors import UsageError
from conformance._files import open_regular
from conformance._results import Result
from conformance._types import ReportDict

#: ``<pattern>  #! <digest>  # comment``: an entry with its pin.
_ENTRY = re.compile(r"^(?P<pattern>[^#]*?)\s*(?:#!\s*(?P<digest>[0-9a-f]+)\s*)?(?:#(?P<note>.*))?$")


def entry_digest(item_id: str, rules: Iterable[str]) -> str:
    """Eight hex digits of the item's id and its rules: what a listed failure means."""
    text = "\0".join([item_id, *sorted(rules)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


@dataclasses.dataclass(frozen=True)
class Pin:
    """What a known-failures file was written against: the catalogue, the suite
    version and, per item id, its `entry_digest`."""

    catalogue: str
    suite: str
    digests: dict[str, str] = dataclasses.field(default_factory=dict, compare=False)

    def lines(self) -> list[str]:
        return [f"#! catalogue {self.catalogue}", f"#! suite {self.suite}"]


#: The largest known-failures file read, and the most patterns it may list: a real
#: list is a few lines per broken rule (the whole catalogue is a few hundred items).
MAX_BYTES = 1024 * 1024
MAX_ENTRIES = 10_000
#: Lines matching nothing warned about one by one; more are one summarised warning.
UNMATCHED_SHOWN = 5


def _quoted(pattern: str, limit: int = 120) -> str:
    """A pattern as the warnings show it: quoted, escaped (repr) and bounded."""
    text = repr(pattern)
    return text if len(text) <= limit else text[:limit] + "…"


def _some(ids: list[str], shown: int = 8) -> str:
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return ", ".join(ids[:shown]) + more


def _matches_any(pattern: str, ids: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(i, pattern) for i in ids)


@dataclasses.dataclass
class KnownFailures:
    path: str
    patterns: dict[str, int]   # pattern -> line number
    pin: Pin | None = None
    notes: dict[str, str] = dataclasses.field(default_factory=dict)   # pattern -> comment

    @classmethod
    def read(cls, path: str | Path) -> KnownFailures:
        try:
            with open_regular(path, "known-failures file",
                              "a list of ids, one a line") as file:   # never past the cap
                data = file.read(MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                raise UsageError(
                    f"known-failures file {path} is over the {MAX_BYTES}-byte limit; it lists "
                    "failing ids, a few per broken rule: write it with `conformance failures "
                    "report.json`")
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read known-failures file {path}: {exc}") from exc
        patterns: dict[str, int] = {}
        directives: dict[str, str] = {}
        digests: dict[str, str] = {}
        notes: dict[str, str] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            if raw.startswith("#! "):
                key, _, value = raw[3:].strip().partition(" ")
                directives[key] = value.strip()
                continue
            entry = _ENTRY.match(raw.strip())   # every part is optional: it matches any line
            if entry is None or not (pattern := entry["pattern"].strip()):
                continue
            patterns.setdefault(pattern, number)
            if entry["digest"]:
                digests[pattern] = entry["digest"]
            if entry["note"]:
                notes[pattern] = entry["note"].strip()
        if len(patterns) > MAX_ENTRIES:
            raise UsageError(f"known-failures file {path} lists {len(patterns)} patterns, over "
                             f"the limit of {MAX_ENTRIES}; list failing ids (or globs such as "
                             "'vision/qa-269/*'), as `conformance failures report.json` does")
        pinned = {"catalogue", "suite"} <= set(directives)
        pin = Pin(directives["catalogue"], directives["suite"], digests) if pinned else None
        return cls(str(path), patterns, pin, notes)

    def pin_warnings(self, now: Pin) -> list[str]:
        """Warnings when the file was pinned to another catalogue or suite version: what
        changed since, one line each (empty when nothing did)."""
        pin = self.pin
        if pin is None:
            return [f"{self.path} is not pinned to a catalogue: write it with `conformance "
                    "failures report.json`, or re-pin it with --update-known-failures"]
        if (pin.catalogue, pin.suite) == (now.catalogue, now.suite):
            return []
        out = [f"{self.path}: written against catalogue {pin.catalogue[:19]}… and suite "
               f"{pin.suite}; this run uses catalogue {now.catalogue[:19]}… and suite "
               f"{now.suite}; review the list, then re-pin it with --update-known-failures"]
        gone = sorted(i for i in pin.digests if i not in now.digests)
        changed = sorted(i for i, d in pin.digests.items()
                         if i in now.digests and now.digests[i] != d)
        if changed:
            out.append(f"{self.path}: listed items whose rules changed: {_some(changed)}")
        if gone:
            out.append(f"{self.path}: listed items gone from the catalogue (renamed or "
                       f"removed): {_some(gone)}")
        if pin.digests and not (changed or gone):
            n = len(pin.digests)
            out.append(f"{self.path}: the {n} pinned entr{'y is' if n == 1 else 'ies are'} "
                       "unchanged (same ids, same rules)")
        return out

    def rewrite(self, now: Pin, ids: list[str]) -> list[str]:
        """Re-pin the file to ``now``, keeping its patterns that still match an item
        (and their comments); an exact id gets its item's digest again.

        Returns the patterns dropped because they match nothing any more."""
        kept = [p for p in self.patterns if _matches_any(p, ids)]
        dropped = [p for p in self.patterns if p not in kept]
        entries = [entry_line(p, now.digests.get(p, ""), self.notes.get(p, "")) for p in kept]
        text = "\n".join([HEADER, *now.lines(), *entries]) + "\n"
        Path(self.path).write_text(text, "utf-8")
        self.patterns = {p: n for n, p in enumerate(kept, start=len(now.lines()) + 2)}
        self.pin = dataclasses.replace(now, digests={p: now.digests[p] for p in kept
                                                     if p in now.digests})
        return dropped

    def matches(self, item_id: str) -> bool:
        return any(fnmatch.fnmatchcase(item_id, p) for p in self.patterns)

    def review(self, results: list[Result], ids: list[str]) -> list[dict[str, str]]:
        """Mark every listed result; return report problems: an unexpected pass (marked
        too, and failing the run: strict, like pytest's xfail), a line matching no id."""
        messages = []
        for result in results:
            if self.matches(result.id) and result.status in ("fail", "error", "pass"):
                result.expected_failure = True
                if result.status == "pass":
                    messages.append(f"{result.id} is listed in {self.path} as a known failure "
                                    "but passed: remove it from the list")
        unmatched = [(line, pattern) for pattern, line in self.patterns.items()
                     if not _matches_any(pattern, ids)]
        if len(unmatched) <= UNMATCHED_SHOWN:
            messages += [f"{self.path}:{line}: {_quoted(pattern)} matches no case or property id"
                         for line, pattern in unmatched]
        else:   # one warning, not a screenful: the file is for another catalogue, or garbled
            messages.append(
                f"{self.path}: {len(unmatched)} lines match no case or property id: "
                + _some([f"line {line} {_quoted(p, 40)}" for line, p in unmatched],
                        UNMATCHED_SHOWN))
        if len(ids) > 1:   # a glob that expects every failure: the run could never fail
            messages += [f"{self.path}:{line}: {_quoted(pattern)} matches every item "
                         f"({len(ids)}), so every failure is expected and no failure can "
                         "fail the run; list the failing ids instead"
                         for pattern, line in self.patterns.items()
                         if all(fnmatch.fnmatchcase(i, pattern) for i in ids)]
        return [{"kind": "known-failures", "message": m} for m in messages]


HEADER = "# known failures: pass this file to --known-failures FILE"


def entry_line(pattern: str, digest: str = "", note: str = "") -> str:
    """One entry of the file: ``id  #! digest  # note`` (the parts present)."""
    return pattern + (f"  #! {digest}" if digest else "") + (f"  # {note}" if note else "")


def failures_list(report: ReportDict) -> str:
    """A report's failures and errors as a known-failures file, pinned to its catalogue
    and suite version, each entry to its item's id and rules.

    Items that rely on a reading are listed too (they count with
    --strict-readings) and say so; comparisons with the reference engine never
    count, so they are left out.
    """
    pin = Pin(report["suite"]["catalogue_digest"], report["suite"]["version"])
    lines = [HEADER, *pin.lines()]
    for r in report["results"]:
        if r["status"] in ("fail", "error") and r["basis"] != "reference":
            check_id(r["id"])
            what = r["status"] if r["basis"] == "seed" else f"{r['status']}, {r['basis']}"
            note = one_line(f"{what}: {r['message'][:80]}")
            lines.append(entry_line(r["id"], entry_digest(r["id"], r["rules"]), note))
    return "\n".join(lines) + "\n"


#: What ends a line for `str.splitlines` (so for `KnownFailures.read`), or hides text:
#: control characters, line and paragraph separators, format characters (bidi overrides).
_UNSAFE_CATEGORIES = ("Cc", "Cf", "Zl", "Zp")
#: What the file reads as a comment or a glob rather than as part of an exact id.
_NOT_IN_AN_ID = "#*?["


def one_line(text: str) -> str:
    """``text`` with every character that could end the line (or hide text) made a space."""
    return "".join(" " if unicodedata.category(c) in _UNSAFE_CATEGORIES else c for c in text)


def check_id(item_id: str) -> None:
    """Refuse an id that would be more (or other) than one exact entry of the file: one
    with a newline or another control character would start lines of its own (a
    ``*`` entry marking everything known, a ``#!`` pin), one with ``#``, ``*``, ``?``
    or ``[`` would be read as a comment or a glob."""
    bad = [c for c in item_id if unicodedata.category(c) in _UNSAFE_CATEGORIES]
    if bad:
        raise UsageError(f"refusing to list the id {item_id!r}: it holds the control character "
                         f"{bad[0]!r}, which would start a line of its own in the known-failures "
                         "file; fix: no catalogue id holds one (ids are letters, digits, . _ - "
                         "and /): regenerate the report with `conformance certify --out`")
    globs = [c for c in item_id if c in _NOT_IN_AN_ID]
    if globs:
        raise UsageError(f"refusing to list the id {item_id!r}: it holds {globs[0]!r}, which the "
                         "known-failures file reads as a comment or a glob, not as part of one "
                         "id; fix: no catalogue id holds one (ids are letters, digits, . _ - "
                         "and /): regenerate the report with `conformance certify --out`")
