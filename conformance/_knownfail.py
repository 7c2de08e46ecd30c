"""Known-failure lists: one parser, strict about stale entries.

An engine pins the failures it knows about (like Test262's per-engine lists and
toml-test's ``-skip``): a listed failure does not fail the run, a listed item
that now passes is reported (and fails the run, so the list stays honest), and
an id that matches nothing is warned about.

File format: one id (or fnmatch glob) per line; ``#`` starts a comment.
``conformance failures report.json`` prints the current failures in this format,
pinned to what it was written against by ``#!`` lines: the catalogue digest, the
suite version, and the item and rule ids (compressed).  A run on another
catalogue warns, naming the items added and removed and the rules renamed, so
a reviewer knows what to look at; ``--update-known-failures`` re-pins the file
after that review.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import fnmatch
import zlib
from pathlib import Path

from conformance._errors import UsageError
from conformance._results import Result


@dataclasses.dataclass(frozen=True)
class Pin:
    """What a known-failures file was written against."""

    catalogue: str
    suite: str
    items: tuple[str, ...]
    rules: tuple[str, ...]

    def lines(self) -> list[str]:
        return [f"#! catalogue {self.catalogue}", f"#! suite {self.suite}",
                f"#! items {_pack(self.items)}", f"#! rules {_pack(self.rules)}"]

    @classmethod
    def parse(cls, directives: dict[str, str]) -> Pin | None:
        if not {"catalogue", "suite", "items", "rules"} <= set(directives):
            return None
        try:
            return cls(directives["catalogue"], directives["suite"],
                       _unpack(directives["items"]), _unpack(directives["rules"]))
        except ValueError:
            return None

    def changes(self, now: Pin) -> list[str]:
        """What changed since this pin, one line each (empty when nothing did)."""
        if (self.catalogue, self.suite) == (now.catalogue, now.suite):
            return []
        out = [f"written against catalogue {self.catalogue[:19]}… and suite {self.suite}; "
               f"this run uses catalogue {now.catalogue[:19]}… and suite {now.suite}"]
        for what, old, new in (("items", self.items, now.items), ("rules", self.rules, now.rules)):
            added, removed = sorted(set(new) - set(old)), sorted(set(old) - set(new))
            if added:
                out.append(f"{what} added: {_some(added)}")
            if removed:
                out.append(f"{what} removed{' or renamed' if what == 'rules' else ''}: "
                           f"{_some(removed)}")
        return out


def _pack(ids: tuple[str, ...]) -> str:
    return base64.b64encode(zlib.compress("\n".join(ids).encode("utf-8"), 9)).decode("ascii")


def _unpack(text: str) -> tuple[str, ...]:
    try:
        raw = zlib.decompress(base64.b64decode(text.encode("ascii"), validate=True))
    except (binascii.Error, zlib.error) as exc:
        raise ValueError(str(exc)) from exc
    return tuple(i for i in raw.decode("utf-8").split("\n") if i)


def _some(ids: list[str], shown: int = 8) -> str:
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return ", ".join(ids[:shown]) + more


@dataclasses.dataclass
class KnownFailures:
    path: str
    patterns: dict[str, int]   # pattern -> line number
    pin: Pin | None = None

    @classmethod
    def read(cls, path: str | Path) -> KnownFailures:
        try:
            text = Path(path).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read known-failures file {path}: {exc}") from exc
        patterns: dict[str, int] = {}
        directives: dict[str, str] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            if raw.startswith("#! "):
                key, _, value = raw[3:].strip().partition(" ")
                directives[key] = value.strip()
                continue
            line = raw.split("#", 1)[0].strip()
            if line:
                patterns.setdefault(line, number)
        return cls(str(path), patterns, Pin.parse(directives))

    def pin_warnings(self, now: Pin) -> list[str]:
        """Warnings when the file was pinned to another catalogue or suite version."""
        if self.pin is None:
            return [f"{self.path} is not pinned to a catalogue: write it with `conformance "
                    "failures report.json`, or re-pin it with --update-known-failures"]
        changes = self.pin.changes(now)
        if not changes:
            return []
        return [f"{self.path}: {changes[0]}; review the list, then re-pin it with "
                "--update-known-failures", *(f"{self.path}: {c}" for c in changes[1:])]

    def rewrite(self, now: Pin, ids: list[str]) -> list[str]:
        """Re-pin the file to ``now``, keeping its patterns that still match an item.

        Returns the patterns dropped because they match nothing any more."""
        kept = [p for p in self.patterns if any(fnmatch.fnmatchcase(i, p) for i in ids)]
        dropped = [p for p in self.patterns if p not in kept]
        text = "\n".join([HEADER, *now.lines(), *kept]) + "\n"
        Path(self.path).write_text(text, "utf-8")
        self.patterns = {p: n for n, p in enumerate(kept, start=len(now.lines()) + 2)}
        self.pin = now
        return dropped

    def matches(self, item_id: str) -> bool:
        return any(fnmatch.fnmatchcase(item_id, p) for p in self.patterns)

    def apply(self, result: Result) -> str | None:
        """Mark ``result``; return a problem message for an unexpected pass."""
        if not self.matches(result.id):
            return None
        if result.status in ("fail", "error", "pass"):
            # on a pass this marks an *unexpected* pass (strict, like pytest's xfail)
            result.expected_failure = True
        if result.status == "pass":
            return (f"{result.id} is listed in {self.path} as a known failure but passed: "
                    "remove it from the list")
        return None

    def review(self, results: list[Result], ids: list[str]) -> list[dict[str, str]]:
        """Mark every result; return report problems (unexpected passes, stale lines)."""
        messages = [m for m in map(self.apply, results) if m] + self.unused(ids)
        return [{"kind": "known-failures", "message": m} for m in messages]

    def unused(self, ids: list[str]) -> list[str]:
        """Warnings for patterns that match no case or property id."""
        return [f"{self.path}:{line}: {pattern!r} matches no case or property id"
                for pattern, line in self.patterns.items()
                if not any(fnmatch.fnmatchcase(i, pattern) for i in ids)]


HEADER = "# known failures: pass this file to --known-failures FILE"


def pin_of(report: dict) -> Pin:
    """The pin of a report: its catalogue, suite version, item and rule ids."""
    return Pin(report["suite"]["catalogue_digest"], report["suite"]["version"],
               tuple(sorted(r["id"] for r in report["results"])),
               tuple(sorted(r["id"] for r in report["rules"])))


def failures_list(results: list[dict], pin: Pin | None = None) -> str:
    """The current failures and errors of a report, as a known-failures file.

    Items that rely on a reading are listed too (they count with
    --strict-readings) and say so; comparisons with the reference engine never
    count, so they are left out.
    """
    lines = [HEADER, *(pin.lines() if pin else [])]
    for r in results:
        if r["status"] in ("fail", "error") and r["basis"] != "reference":
            what = r["status"] if r["basis"] == "seed" else f"{r['status']}, {r['basis']}"
            lines.append(f"{r['id']}  # {what}: {r['message'][:80]}".replace("\n", " "))
    return "\n".join(lines) + "\n"
