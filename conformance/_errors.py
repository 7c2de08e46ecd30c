"""One root exception and the documented exit codes.

Every error the suite raises on purpose is a `ConformanceError`; its message
says what went wrong, where (file:line or case id) and what to do instead.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Iterable


class ConformanceError(Exception):
    """Root of every error the suite raises on purpose."""


class CatalogueError(ConformanceError):
    """One problem in the case catalogue or rule index: ``path`` and ``line`` locate it,
    ``hint`` says how to fix it."""

    def __init__(self, message: str, *, path: str = "", line: int | None = None,
                 hint: str = "") -> None:
        self.message, self.path, self.line, self.hint = message, path, line, hint
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path + (f":{self.line}" if self.line else "")
        text = f"{where}: {self.message}" if where else self.message
        return f"{text}\n  fix: {self.hint}" if self.hint else text


class InvalidCatalogue(ConformanceError):
    """The catalogue has one or more `CatalogueError`s; nothing was run."""

    def __init__(self, errors: list[CatalogueError]) -> None:
        self.errors = errors
        listing = "\n".join(str(e) for e in errors)
        super().__init__(f"the catalogue is invalid ({len(errors)} problem(s)):\n{listing}")


class UsageError(ConformanceError):
    """The command line or API call itself is wrong (bad --engine spec, ...)."""


def did_you_mean(name: str, names: Iterable[str]) -> str:
    """``did you mean 'x' or 'y'?`` for a misspelt ``name``: the closest few of
    ``names`` rather than all of them (the reference engine has hundreds of
    mutants); ``""`` when none is close."""
    names = sorted(set(names))
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    if not close and name:   # a prefix is the next best guess ("statics" -> "statics-...")
        close = [n for n in names if n.startswith(name)][:3]
    if not close:
        return ""
    quoted = [repr(c) for c in close]
    listed = ", ".join(quoted[:-1]) + " or " + quoted[-1] if len(quoted) > 1 else quoted[0]
    return f"did you mean {listed}?"


class ExitCode(enum.IntEnum):
    """What `conformance` exits with.  Documented in docs/cli.md."""

    OK = 0                 #: no counted item failed or errored, and some passed
    FAILURES = 1           #: at least one counted case or property failed
    ENGINE_ERRORS = 2      #: no failures, but the engine errored (or never started)
    INVALID_CATALOGUE = 3  #: the catalogue did not validate; nothing ran
    USAGE = 4              #: bad command line (unknown engine spec, missing file)
    NO_VERDICT = 5         #: nothing passed or failed (all skipped, nothing selected)
    BROKEN_PIPE = 141      #: stdout was closed early (``| head``); ended quietly
    INTERRUPTED = 130      #: SIGINT/SIGTERM; a partial report was written
