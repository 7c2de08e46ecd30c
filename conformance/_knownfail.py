"""Known-failure lists: one parser, strict about stale entries.

An engine pins the failures it knows about (like Test262's per-engine lists and
toml-test's ``-skip``): a listed failure does not fail the run, a listed item
that now passes is reported (and fails the run, so the list stays honest), and
an id that matches nothing is warned about.

File format: one id (or fnmatch glob) per line; ``#`` starts a comment.
``conformance failures report.json`` prints the current failures in this format.
"""

from __future__ import annotations

import dataclasses
import fnmatch
from pathlib import Path

from conformance._errors import UsageError
from conformance._results import Result


@dataclasses.dataclass
class KnownFailures:
    path: str
    patterns: dict[str, int]   # pattern -> line number

    @classmethod
    def read(cls, path: str | Path) -> KnownFailures:
        try:
            text = Path(path).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read known-failures file {path}: {exc}") from exc
        patterns: dict[str, int] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if line:
                patterns.setdefault(line, number)
        return cls(str(path), patterns)

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


def failures_list(results: list[dict]) -> str:
    """The current failures and errors of a report, as a known-failures file.

    Items that rely on a reading are listed too (they count with
    --strict-readings) and say so; comparisons with the reference engine never
    count, so they are left out.
    """
    lines = ["# known failures: paste into a file and pass --known-failures FILE"]
    for r in results:
        if r["status"] in ("fail", "error") and r["basis"] != "reference":
            what = r["status"] if r["basis"] == "seed" else f"{r['status']}, {r['basis']}"
            lines.append(f"{r['id']}  # {what}: {r['message'][:80]}".replace("\n", " "))
    return "\n".join(lines) + "\n"
