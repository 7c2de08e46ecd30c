"""The signals that stop a run as Ctrl-C does, for every command that runs engines.

`install` takes them for the length of a command; a run stopped by one writes its
partial report and exits 130 (docs/cli.md); `holding` keeps them off while the
reports are being written.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Iterator
from typing import Any

#: The signals that stop a run as Ctrl-C does (partial report, exit 130): an engine,
#: a hung-up terminal or a CI runner may send any of them, and each one's default
#: action would end the harness at once with no report.
STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1,
            signal.SIGUSR2, signal.SIGALRM)


#: SIGINT/SIGTERM taken since `main` began; and, while the reports are written, the
#: signals held until they are (`holding`).
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
def holding() -> Iterator[list[int]]:
    """SIGINT and SIGTERM are noted, not raised, inside: the files being written are
    finished first; the caller then sees which signals came."""
    global _held
    held: list[int] = []
    _held = held
    try:
        yield held
    finally:
        _held = None


def install() -> dict[int, Any]:
    """Take every `STOPPING` signal, counting afresh; returns the handlers to `restore`."""
    global _signals
    _signals = 0
    return {sig: signal.signal(sig, _interrupt) for sig in STOPPING}


def restore(previous: dict[int, Any]) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler)
