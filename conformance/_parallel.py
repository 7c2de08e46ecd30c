"""``--jobs N`` for the main run: the selected items spread over N worker processes.

Each worker is forked with the suite already loaded, starts its own engine (an
engine holds one game at a time) and takes items one at a time until none is
left, slow ones (properties) first so the workers finish together.  `certify`
puts the results back in catalogue order: a report does not depend on the jobs.
A worker that dies (killed, out of memory) loses only the item it held, which is
an *error* saying so.  An interrupt stops every worker; results back are kept.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from conformance._catalogue import Case
from conformance._engine import Connection
from conformance._properties import Property
from conformance._results import Result
from conformance._runner import Runner, check_stop

if TYPE_CHECKING:
    from multiprocessing.sharedctypes import Synchronized

Item = Case | Property


def parallel_results(runner: Runner, make_engine: Callable[[], Connection],
                     jobs: int) -> Iterator[Result]:
    """Yield the results of ``runner.items()`` as the workers finish them.

    Each worker runs them through a copy of ``runner`` (which has shaken hands
    already) on an engine from ``make_engine``, all within one run timeout; the
    problems a worker records (a failed handshake) join ``runner.problems``.
    """
    context = multiprocessing.get_context("fork")
    items = runner.items()
    deadline = time.monotonic() + runner.profile.run_timeout
    # The queue of items is an order fixed before the fork and a shared count of
    # items taken: nothing to write into a pipe before any worker reads it.
    order = sorted(range(len(items)), key=lambda i: not isinstance(items[i], Property))
    taken: Any = context.Value("q", 0)
    done: Any = context.Queue()
    args = (runner, items, order, taken, deadline, make_engine, done)
    workers = [context.Process(target=_work, args=args, daemon=True)
               for _ in range(min(jobs, len(items)))]
    for worker in workers:
        worker.start()
    outstanding = set(range(len(items)))
    finished = 0
    try:
        while finished < len(workers):
            check_stop()
            try:
                message = done.get(timeout=0.2)
            except queue.Empty:
                if all(not w.is_alive() for w in workers) and done.empty():
                    break   # every worker is gone, some without saying goodbye
                continue
            if message[0] == "result":
                _, index, result = message
                outstanding.discard(index)
                yield result
            else:   # ("finished", problems): a worker ran out of items
                finished += 1
                runner.problems += [p for p in message[1] if p not in runner.problems]
    finally:
        for worker in workers:
            if worker.is_alive() and finished < len(workers):
                worker.terminate()
            worker.join(timeout=5)
    for index in sorted(outstanding):
        yield runner.not_run(items[index], "not run: the worker process running it "
                                                   "died (killed, or out of memory?)")


def leave_interrupts_to_parent() -> None:
    """In a worker: Ctrl-C is the parent's, which stops every worker and keeps what is
    done; the parent's terminate() (SIGTERM) must end the worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for sig in (signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2,
                signal.SIGALRM):   # the parent's to act on (an engine's, sent to us, too)
        signal.signal(sig, signal.SIG_IGN)


def _work(runner: Runner, items: list[Item], order: list[int], taken: Synchronized[int],
          deadline: float, make_engine: Callable[[], Connection], done: Any) -> None:
    """One worker: its own engine, the next item in ``order`` until none is left."""
    leave_interrupts_to_parent()
    mine = runner.on(make_engine())
    try:
        mine.handshake()
        while True:
            with taken.get_lock():   # take the next item
                if taken.value >= len(order):
                    break
                index = order[taken.value]
                taken.value += 1
            done.put(("result", index, mine.run_item(items[index], deadline)))
    finally:
        mine.engine.close()
    done.put(("finished", mine.problems))
