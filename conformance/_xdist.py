"""Under pytest-xdist, a worker sends its conformance cases' events in batches.

pytest-xdist sends six messages for every item (log start, three reports, log
finish, protocol complete); the controller's receiver thread reads, decodes
and queues each one for its main thread.  With thousands of cases that take a
millisecond or two each, that per-message cost, on the CPU the workers need,
was most of what ``-n 2`` lost on two cores.  So, when ``--engine`` is given,
a worker holds the events of its conformance *cases* and sends them as one
message (one marshal blob, which both sides encode and decode in C), which
the controller unpacks into the very events, in the very order,
pytest-xdist would have delivered one by one.  Nothing else changes: the same
hooks run on the controller with the same reports.

A batch goes out

- once it is `MAX_AGE` seconds old or holds `MAX_EVENTS` events (progress and
  ``--durations`` lag by at most that);
- when the worker has fewer than `LOW_QUEUE` items left to run, so the
  scheduler always learns in time that it must send more;
- as soon as a report failed, so ``-x`` and ``--maxfail`` stop the run as
  early as they would without batches;
- before any other event (a property's or another test's, a warning, the
  worker finishing), so the order of events is kept.

Both sides must agree: the controller asks for batches (in the worker's
``workerinput``) only once it has wrapped that worker's event handler to
unpack them, and a worker batches only when asked and when pytest-xdist's
worker side looks the way this module expects.  Otherwise the run is plain
pytest-xdist.  The price: if a worker process dies (an in-process engine that
crashes the interpreter), the events it still held are lost, so pytest-xdist
may name an earlier case of that batch as the one that crashed, and re-runs
the others on another worker.
"""

from __future__ import annotations

import marshal
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

#: The workerinput key by which the controller asks for batches, and the event
#: name a batch travels under.
BATCH = "conformance_batch"
MAX_AGE = 0.1
MAX_EVENTS = 600
LOW_QUEUE = 4
#: The events of one item: the only ones a batch holds.
ITEM_EVENTS = frozenset({"logstart", "testreport", "logfinish", "runtest_protocol_complete"})

Send = Callable[..., None]


class Unpacking:
    """Controller side: a plugin that unpacks the batches of every worker."""

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        plain = getattr(node, "process_from_remote", None)
        workerinput = getattr(node, "workerinput", None)
        if plain is None or not isinstance(workerinput, dict):
            return   # not the pytest-xdist this module knows: no batches

        def process_from_remote(eventcall: Any) -> None:
            if type(eventcall) is tuple and eventcall[0] == BATCH:
                events = eventcall[1]["events"]
                if type(events) is bytes:   # packed by the worker (`Batching.flush`)
                    events = marshal.loads(events)  # noqa: S302 - our worker packed it
                for event in events:
                    plain(tuple(event))
            else:
                plain(eventcall)

        node.process_from_remote = process_from_remote   # set before the channel's callback
        workerinput[BATCH] = True


def _length_of(queue: Any) -> Callable[[], int]:
    """How many items pytest-xdist's worker queue holds, read through the queue each
    time: a steal (--dist worksteal) replaces its deque, whose length, if bound
    once, would never run low again."""
    return lambda: len(queue._items)


class Batching:
    """Worker side: holds the events of the worker's conformance cases."""

    def __init__(self, send: Send, pending: Callable[[], int], cases: set[str]) -> None:
        self._send = send          # pytest-xdist's own sendevent
        self._pending = pending    # how many items the worker still has to run
        self.cases = cases         # node ids whose events may be held
        self._held: list[tuple[str, dict[str, Any]]] = []
        self._since = 0.0
        self._holding = False      # inside a conformance case
        # pytest-xdist's channel callback sends too (--dist worksteal's "unscheduled"),
        # from another thread: what is held must not change under a flush
        self._lock = threading.RLock()
        self._failed = False
        #: the worker's ``workeroutput``: the count of batches sent is kept there
        #: (under `BATCH`), for whoever wants to see that batches were used
        self.output: dict[str, Any] = {}

    @classmethod
    def install(cls, config: pytest.Config, cases: set[str]) -> Batching | None:
        """Batch this worker's events if the controller asked and xdist is as expected."""
        if not getattr(config, "workerinput", {}).get(BATCH):
            return None
        for plugin in config.pluginmanager.get_plugins():
            queue = getattr(plugin, "torun", None)
            send = getattr(plugin, "sendevent", None)
            if (type(plugin).__name__ == "WorkerInteractor" and send
                    and hasattr(queue, "_items")):
                batching = cls(send, _length_of(queue), cases)
                batching.output = getattr(config, "workeroutput", batching.output)
                plugin.sendevent = batching.sendevent
                return batching
        return None

    def note_failure(self) -> None:
        """A report of the current item failed: its batch goes out when it ends."""
        self._failed = True

    def sendevent(self, name: str, **kwargs: Any) -> None:
        with self._lock:
            self._sendevent(name, kwargs)

    def _sendevent(self, name: str, kwargs: dict[str, Any]) -> None:
        if name == "logstart":
            self._holding = kwargs.get("nodeid") in self.cases
        if not self._holding or name not in ITEM_EVENTS:
            self._flush()
            self._send(name, **kwargs)
            return
        if not self._held:
            self._since = time.monotonic()
        self._held.append((name, kwargs))
        if name == "runtest_protocol_complete":
            self._holding = False
            if (self._failed or self._pending() < LOW_QUEUE or len(self._held) >= MAX_EVENTS
                    or time.monotonic() - self._since >= MAX_AGE):
                self._flush()

    def flush(self) -> None:
        with self._lock:
            self._flush()

    def _flush(self) -> None:
        if self._held:
            events, self._held, self._failed = self._held, [], False
            self.output[BATCH] = self.output.get(BATCH, 0) + 1
            try:  # one marshal blob: execnet would encode, and decode, value by value
                self._send(BATCH, events=marshal.dumps(events, 4))
            except ValueError:  # a value marshal does not know (another plugin's): as it is
                self._send(BATCH, events=events)
