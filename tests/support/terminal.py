"""Running the CLI as a person does: in a terminal (a pseudo-terminal), so its
progress bars are drawn and a test can wait for a count before it interrupts."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import time
from typing import Any


class Terminal:
    """A child process whose stdout is a terminal; stderr stays a pipe."""

    def __init__(self, argv: list[str], **popen: Any) -> None:
        self._master, slave = pty.openpty()
        self.child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave,
                                      stderr=subprocess.PIPE, text=True, **popen)
        os.close(slave)
        self.seen = ""

    def wait_for_count(self, phase: str, count: int, timeout: float = 60.0) -> None:
        """Block until the ``phase`` bar shows at least ``count`` items done."""
        pattern = re.compile(rf"{phase}\s+\[[#.]+\] (\d+)/")
        deadline = time.monotonic() + timeout
        while not any(int(n) >= count for n in pattern.findall(self.seen)):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {phase} {count}/ after {timeout} s: {self.seen!r}")
            if not select.select([self._master], [], [], left)[0]:
                continue
            if not self._read():
                raise AssertionError(f"the run ended early: {self.seen!r}")

    def finish(self, timeout: float = 60.0) -> tuple[int, str, str]:
        """Wait for the child; its exit code, everything it wrote to the terminal, stderr."""
        deadline = time.monotonic() + timeout
        while self.child.poll() is None:  # keep reading: a full terminal would block it
            if time.monotonic() > deadline:
                self.child.kill()
                raise AssertionError(f"the run did not end in {timeout} s: {self.seen!r}")
            if select.select([self._master], [], [], 0.1)[0] and not self._read():
                break
        code = self.child.wait(timeout=timeout)
        while select.select([self._master], [], [], 0)[0] and self._read():
            pass
        os.close(self._master)
        assert self.child.stderr is not None
        return code, self.seen, self.child.stderr.read()

    def _read(self) -> bool:
        try:
            chunk = os.read(self._master, 4096)
        except OSError:  # EIO: the child closed the terminal
            return False
        self.seen += chunk.decode(errors="replace")
        return bool(chunk)
