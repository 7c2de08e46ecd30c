"""Transcripts: the exact protocol exchange of one item, to replay without the suite.

A connection hands its `Transcript` every request line it sends and every reply
line it reads (in-process: the lines a `serve`-based engine would have read and
written).  An item's transcript is the hello exchange in force when it began
(so it replays standalone) and its own lines, written as two JSON Lines files,
line N of the one answering line N of the other, so replaying is a plain pipe::

    ENGINE < ID.requests.jsonl | diff - ID.replies.jsonl    # nothing printed: the same

A reply that never came (a timeout, a crash) is missing from the replies file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import shlex
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from conformance import _files
from conformance._types import ResultDict

if TYPE_CHECKING:
    from conformance._results import Result

REQUESTS = ".requests.jsonl"
REPLIES = ".replies.jsonl"


@dataclasses.dataclass
class Exchange:
    """One item's transcript: the request lines, and the reply lines to them, in order."""

    requests: list[bytes]
    replies: list[bytes]


class Transcript:
    """The protocol lines one connection exchanges, kept per item (`begin`, `end`)."""

    def __init__(self) -> None:
        self._hello: list[bytes] = []     # the latest hello request and its reply
        self._item: Exchange | None = None
        self._own = False   # whether the item has sent a line of its own yet
        self._cmd = ""
        self._seq = 0

    def next_seq(self) -> int:
        """A seq for a connection that numbers no requests of its own (in-process)."""
        self._seq += 1
        return self._seq

    def sent(self, cmd: str, line: bytes) -> None:
        self._cmd = cmd
        if cmd == "hello":
            self._hello = [line]
        if self._item is not None:
            if not self._own and cmd == "hello":   # the item starts a process: its own hello
                self._item = Exchange([], [])
            self._own = True
            self._item.requests.append(line)

    def received(self, line: bytes) -> None:
        if self._cmd == "hello" and len(self._hello) == 1:
            self._hello.append(line)
        if self._item is not None:
            self._item.replies.append(line)

    def begin(self) -> None:
        """An item starts: keep its lines from now on, after the hello in force (so it
        replays standalone in a fresh process)."""
        self._item = Exchange(self._hello[:1], self._hello[1:])
        self._own = False

    def restart(self) -> None:
        """Forget the item's lines so far (a property about to replay its counterexample:
        the transcript is that one scenario, not every example Hypothesis tried)."""
        if self._item is not None:
            self.begin()

    def end(self) -> Exchange | None:
        """The item's exchange, or None when it sent the engine nothing (not run)."""
        item, self._item = self._item, None
        return item if self._own else None


@dataclasses.dataclass
class TranscriptSink:
    """Where the runner puts the transcripts of the items it runs: ``folder`` (a staging
    folder, shared by every ``--jobs`` worker), every item's with ``every``, else
    only those that failed or errored.  `place` moves them where they belong."""

    folder: Path
    every: bool = False

    def keep(self, result: Result, exchange: Exchange | None) -> None:
        if exchange is None or not (self.every or result.status in ("fail", "error")):
            return
        for suffix, lines in ((REQUESTS, exchange.requests), (REPLIES, exchange.replies)):
            (self.folder / staged_name(result.id, suffix)).write_bytes(b"".join(lines))


def staged_name(item_id: str, suffix: str) -> str:
    """An item's file in the staging folder: any name that cannot clash will do."""
    return hashlib.sha256(item_id.encode("utf-8")).hexdigest()[:32] + suffix


def place(staged: Path, results: Iterable[ResultDict], failing_to: Path | None,
          every_to: Path | None, name: Callable[[str, str], str]) -> list[Path]:
    """Copy the staged transcripts: failing items' into ``failing_to`` (the run's
    ``counterexamples/``), every item's into ``every_to`` (``--transcript``), each
    named ``name(id, suffix)`` (as its counterexample is: `report.safe_filename`).
    ``every_to`` belongs to the run: the files an earlier run left there are removed
    first, as in ``counterexamples/`` (`_files.clean`: other entries are kept, and a
    symlink is refused, never followed).  Each file is written atomically, never
    through a symlink.  Returns the requests files written."""
    if every_to is not None:
        _files.clean(every_to)
        every_to.mkdir(parents=True, exist_ok=True)
        if failing_to is not None and every_to.resolve() == failing_to.resolve():
            failing_to = None   # the same folder: every item's are there already
    if failing_to is not None:
        _files.refuse_link(failing_to)
    written = []
    for result in results:
        item = result["id"]
        if not (staged / staged_name(item, REQUESTS)).is_file():
            continue
        failing = result["status"] in ("fail", "error")
        for folder in [every_to, failing_to if failing else None]:
            if folder is not None:
                folder.mkdir(parents=True, exist_ok=True)
                for suffix in (REQUESTS, REPLIES):
                    _files.replace(folder / name(item, suffix),
                                   (staged / staged_name(item, suffix)).read_bytes())
                written.append(folder / name(item, REQUESTS))
    return written


def replay_hint(engine_spec: str, requests: Path) -> str:
    """The one-line shell command that replays a transcript against the engine (for a
    person to copy; every piece quoted)."""
    replies = requests.with_name(requests.name.removesuffix(REQUESTS) + REPLIES)
    tail = f"< {shlex.quote(str(requests))} | diff - {shlex.quote(str(replies))}"
    kind, _, rest = engine_spec.partition(":")
    if kind == "cmd":
        return f"{shlex.join(shlex.split(rest))} {tail}"
    if kind == "reference":   # the bundled engine's serve() wrapper (the hello names a mutant)
        return f"python -m reference_engine.serve {tail}"
    if kind != "python":   # a registered engine: the factory its entry point names
        from importlib.metadata import entry_points

        # the group conformance._discovery reads (imported from there, it would be a cycle)
        named = [e.value for e in entry_points(group="card_conformance.engines", name=kind)]
        if not named:
            return f"<your engine behind conformance.serve()> {tail}"
        rest = named[0]
    # the factory behind conformance.serve(), imported from the folder the run started
    # in as the CLI imports it (python -c puts that folder on sys.path)
    module, _, factory = rest.partition(":")
    code = f"import conformance, {module}; conformance.serve({module}.{factory}())"
    return f"python -c {shlex.quote(code)} {tail}"
