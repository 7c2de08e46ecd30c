"""Progress people can read: per phase (cases, properties, mutants), with time left.

On a terminal, each phase is one bar redrawn in place: counts, failures so far
and an estimate of the time left (from the mean time per item so far).  When
the output is not a terminal (a CI log), each phase is one line when it ends,
so logs stay short.  ``quiet`` prints nothing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from conformance._results import Result
from conformance._shown import shown
from conformance._types import MutantRow, ResultDict

BAR = 24
#: How the progress counts a failure or error that does not count toward the verdict.
NOT_COUNTED = "not counted"


def status_label(status: str, why: str = "") -> str:
    """A status as the terminal shows it: ``FAIL``, or ``FAIL (reading, does not count)``
    for a failure the verdict does not rest on (``why``: `conformance._verdict.uncounted`)."""
    return f"{status.upper()} ({why}, does not count)" if why else status.upper()


class Progress:
    """The phases of a run; `planned`, the call and `mutant` are `certify`'s callbacks."""

    def __init__(self, stream: TextIO | None = None, quiet: bool = False,
                 tty: bool | None = None, *, together: bool = False,
                 verbose: bool = False,
                 uncounted: Callable[[Result], str] | None = None) -> None:
        self.stream = stream or sys.stdout
        self.quiet = quiet
        self.tty = self.stream.isatty() if tty is None else tty
        self.together = together   # --jobs: cases and properties finish interleaved
        self.verbose = verbose     # -v: a line per item instead of the items' bars
        # why a failure does not count (a reading, a known failure, ...; "" if it does):
        # such an item is "not counted" here, as the summary leaves it out of "failed"
        self.uncounted = uncounted or (lambda result: "")
        self.plan: dict[str, int] = {}
        self.phase = ""
        self.total = self.done = self.finished = 0
        self.counts: dict[str, int] = {}
        self.began = 0.0

    def planned(self, plan: dict[str, int]) -> None:
        self.plan = {**plan, "items": plan["cases"] + plan["properties"]}
        if not self.verbose:
            self._enter(self._phase("case" if plan.get("cases") else "property"))

    def _phase(self, kind: str) -> str:
        return "items" if self.together else "cases" if kind == "case" else "properties"

    def _enter(self, phase: str) -> None:
        if self.phase != phase:
            self.start(phase, self.plan.get(phase, 0))

    def __call__(self, result: Result) -> None:
        why = self.uncounted(result)
        if not self.verbose:
            self._enter(self._phase(result.kind))
            self.step(NOT_COUNTED if why else result.status)
            return
        # -v: status, id, duration and how far the run is
        self.finished += 1
        total = self.plan.get("items", 0)
        where = f"  [{self.finished}/{total}]" if total else ""
        print(f"{status_label(result.status, why):5}  {shown(result.id, 200)}  "
              f"{result.duration:.2f}s{where}", file=self.stream, flush=True)

    def mutant(self, row: MutantRow) -> None:
        self._enter("mutants")
        self.step("killed" if row["killed"] else "survived")

    def start(self, phase: str, total: int) -> None:
        """Begin a phase of ``total`` items (ending the one before)."""
        self.finish()
        self.phase, self.total, self.done, self.counts = phase, total, 0, {}
        self.began = time.monotonic()
        if total and not self.quiet and self.tty:
            self._draw()

    def step(self, outcome: str) -> None:
        """One item of the phase is done; ``outcome`` is its status (pass, fail, killed, ...)."""
        self.done += 1
        self.counts[outcome] = self.counts.get(outcome, 0) + 1
        if not self.quiet and self.tty:
            # every item: a throttled bar would sit on a stale count while an engine hangs
            self._draw()

    def finish(self) -> None:
        """End the phase: close the bar, or print its one line in a log."""
        if not self.phase or self.quiet:
            self.phase = ""
            return
        elapsed = time.monotonic() - self.began
        if self.tty:
            if self.total:
                self._draw()
                self.stream.write("\n")
        elif self.done:
            counts = ", ".join(f"{n} {k}" for k, n in sorted(self.counts.items()))
            self.stream.write(f"{self.phase}: {self.done}/{self.total} in {elapsed:.1f} s "
                              f"({counts})\n")
        self.stream.flush()
        self.phase = ""

    def _draw(self) -> None:
        filled = BAR * self.done // max(self.total, 1)
        bar = "#" * filled + "." * (BAR - filled)
        bad = sum(n for k, n in self.counts.items() if k in ("fail", "error", "survived"))
        left = ""
        if 0 < self.done < self.total:
            per_item = (time.monotonic() - self.began) / self.done
            seconds = int(per_item * (self.total - self.done) + 0.5)
            left = f", ~{seconds // 60}:{seconds % 60:02d} left"
        trouble = f", {bad} not passing" if bad else ""
        if self.counts.get(NOT_COUNTED):
            trouble += f", {self.counts[NOT_COUNTED]} {NOT_COUNTED}"
        self.stream.write(f"\r{self.phase:<10} [{bar}] {self.done}/{self.total}"
                          f"{trouble}{left}\x1b[K")
        self.stream.flush()


#: ``--durations``: shorter than this is not worth a line (pytest hides them too).
SHOWN_DURATION = 0.005


def slowest_lines(results: list[ResultDict], count: int) -> list[str]:
    """``--durations N``: the N slowest items (0: every item), slowest first."""
    ranked = sorted(results, key=lambda r: -r["duration"])
    shown = ranked if count == 0 else ranked[:count]
    lines = [f"{r['duration']:8.2f}s  {r['status']:5}  {r['id']}" for r in shown
             if r["duration"] >= SHOWN_DURATION]
    hidden = len(shown) - len(lines)
    if hidden:
        lines.append(f"({hidden} item(s) under {SHOWN_DURATION}s hidden)")
    title = "slowest items" if count == 0 else f"slowest {min(count, len(results))} items"
    return [f"{title}:", *lines] if results else []
